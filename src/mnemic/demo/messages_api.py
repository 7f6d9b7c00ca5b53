"""The demo's Anthropic chapter: one session over the Messages API, and what it caches.

A local stand-in (:class:`~mnemic.testing.FakeAnthropicServer`) speaks the Messages API
and records, for every request, the prefix the API would cache: the tools, then the
system blocks, up to the last ``cache_control`` breakpoint. The chapter prints where the
breakpoints are and whether that prefix was the same bytes on every request, across a
memory write. Skipped, with the reason, when the ``anthropic`` extra is not installed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import click

from ..agent.chat import ChatAgent
from ..agent.session import AgentSession
from ..errors import MissingDependency
from ..extras import require_extra
from ..home import Home
from ..llm.anthropic_client import AnthropicChatClient
from ..llm.client import Usage
from ..testing import FakeAnthropicServer, Reply, ToolCallReply
from ..testing.anthropic_server import breakpoints
from .render import say, step, tool_event, wrap

__all__ = ["messages_api_chapter"]

_NOTE = "Reads the prompt-cache report every Friday."
_TURNS = (
    ("Note that I read the prompt-cache report every Friday.", None),
    ("When do I read the cache report?", "Fridays; it is in your profile now."),
    ("Thanks, that is all for today.", "Have a good evening."),
)


def messages_api_chapter(n: int, root: Path) -> None:
    """Step ``n`` of the demo, on the home at ``root``."""
    step(n, "The same session over the Anthropic Messages API")
    try:
        require_extra("anthropic", "this step of the demo")
    except MissingDependency as exc:
        say(f"Skipped: {exc.to_llm()}")
        return
    say(
        """`mnemic chat --api anthropic` talks to the Messages API through the official SDK.
        The stand-in here is a local server speaking that API. The API caches a request's
        prefix in the order tools, system, messages, up to a cache_control breakpoint;
        mnemic puts one on the last tool and one on the frozen system prompt, so the cached
        part is what a session never changes."""
    )
    save = {"action": "add", "target": "user", "content": _NOTE}
    replies = [Reply(tool_calls=[ToolCallReply("memory", save)]), "Saved to your profile."]
    replies += [answer for _, answer in _TURNS[1:]]
    usage: list[Usage] = []
    with FakeAnthropicServer(replies) as server:
        client = AnthropicChatClient(base_url=server.base_url, model="stand-in-claude")
        session = AgentSession.open(
            Home.open(root),
            client=client,
            source="demo",
            model="stand-in-claude",
            cwd=root,
            events=tool_event,
        )
        for text, _ in _TURNS:
            wrap("  you>   ", text, "cyan")
            result = ChatAgent(session, client, stream=True, on_text=lambda _: None).run_turn(text)
            wrap("  model> ", result.text, "magenta")
            usage += result.usage
        prompt = session.system_prompt
        session.close("user_exit")
    first = server.prefixes[0]
    click.secho(
        f"  {'request':<9}{'breakpoints':<24}{'cached prefix':<28}{'cache write':>12}"
        f"{'cache read':>12}",
        bold=True,
    )
    for i, (request, prefix) in enumerate(zip(server.requests, server.prefixes, strict=True)):
        u = usage[i] if i < len(usage) else Usage()
        digest = hashlib.sha256(prefix).hexdigest()[:10]
        same = "first" if i == 0 else ("same bytes" if prefix == first else "CHANGED")
        where = " + ".join(breakpoints(request))
        click.echo(
            f"  {i + 1:<9}{where:<24}{f'{len(prefix):,} B {digest} {same}':<28}"
            f"{u.cache_write_tokens:>12,}{u.cache_read_tokens:>12,}"
        )
    identical = all(p == first for p in server.prefixes)
    say(
        f"""Cached prefix identical on every request: {identical}. The first turn wrote
        USER.md ("{_NOTE}" is on disk now), yet the system prompt sent stays the frozen
        snapshot (the note in it: {_NOTE in prompt}); the stand-in wrote the prefix to its
        cache once and served it from there for every later request. Turn-by-turn material
        (recall, notices, tool results) lives in the messages after the breakpoint."""
    )
