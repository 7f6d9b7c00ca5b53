"""``mnemic chat``: talk to a model with mnemic's memory, session search and skills."""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

import click

from ..agent.chat import ChatAgent, TurnResult
from ..agent.session import AgentSession
from ..curated.entries import FILENAMES
from ..llm.select import client_from_settings, missing_setting
from .app import PROJECT_OPT, AppContext, counted, fail, handle_errors, pass_app, printable

__all__ = ["chat"]

_HELP = """\
Commands: /memory (what is saved), /search WORDS (past sessions), /skills, /new (new
session), /compress (summarise the conversation now), /quit. Anything else goes to the model."""


def _clip(text: str, width: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _on_event(kind: str, data: dict[str, Any]) -> None:
    if kind == "tool":
        resp = data["result"]
        by = f"{data['by']} " if data.get("by") else ""
        if resp.get("staged"):
            outcome = f"staged for approval ({resp.get('pending_id')})"
            click.secho(f"  ⚙ {by}{data['name']} → {outcome}", dim=True, err=True)
            _staged_lines(resp)
            return
        elif resp.get("success"):
            outcome = "ok" + (f": {resp['message']}" if resp.get("message") else "")
        else:
            outcome = f"refused ({resp.get('error_code')}): {resp.get('error', '')}"
        click.secho(f"  ⚙ {by}{data['name']} → {_clip(outcome, 140)}", dim=True, err=True)
        _evicted_lines(resp)
    elif kind == "flush":
        click.secho(f"  ⚙ before compressing, {data['report'].summary()}", err=True)
    elif kind == "review":
        click.secho(f"  ⚙ {data['report'].summary()}", err=True)
    elif kind == "compressed":
        r = data["report"]
        click.secho(
            f"  ⚙ compressed: {counted(r.summarized_messages, 'message')} summarised, "
            f"~{r.tokens_before:,} → ~{r.tokens_after:,} tokens; session {r.new_session_id}",
            err=True,
        )
    elif kind == "nudge":
        click.secho(
            "  ⚙ memory check: that answer claims a save this turn never made; asked again",
            dim=True,
            err=True,
        )
    elif kind == "error":
        click.secho(f"  ⚠ {data.get('where')}: {data.get('error')}", fg="yellow", err=True)


def _evicted_lines(resp: dict[str, Any]) -> None:
    """Under a write that made room under ``[memory] on_full``: each entry it moved to
    the archive and how to bring one back, as ``mnemic memory add`` says it (the model
    is told in ``evicted``; docs/first-week.md #24)."""
    gone = [e for e in resp.get("evicted") or () if isinstance(e, dict)]
    for e in gone:
        file = FILENAMES.get(str(e.get("target")), str(e.get("target")))
        text = printable(_clip(str(e.get("entry", "")), 120), lines=False)
        click.secho(
            f"    {e.get('reason', 'evicted')} from {file} to the archive: {text}", err=True
        )
    if gone:
        click.secho(
            "    (`mnemic memory archive list` shows them, `archive restore ID` brings one back)",
            err=True,
        )


def _staged_lines(resp: dict[str, Any]) -> None:
    """Under a staged write, what the person at the terminal decides and how: why the
    threat scanner held it (its words, ``held_because``) and the commands, whole (the
    tool line is cut at 140 characters; docs/first-week.md #20)."""
    pid = resp.get("pending_id")
    if resp.get("held_because"):
        click.secho(f"    {printable(str(resp['held_because']), lines=False)}", err=True)
    click.secho(
        f"    Approve: mnemic pending approve {pid}   Reject: mnemic pending reject {pid}"
        "   (or the console's Pending page: mnemic ui)",
        err=True,
    )


def _show_cache(result: TurnResult) -> None:
    """One stderr line per model call: input tokens, of which cache reads and writes."""
    for n, u in enumerate(result.usage, 1):
        click.secho(
            f"  ⚙ cache, call {n}: {u.prompt_tokens:,} input tokens, "
            f"{u.cache_read_tokens:,} read from the cache, {u.cache_write_tokens:,} written",
            dim=True,
            err=True,
        )


def _waiting_line(session: AgentSession) -> None:
    """After ``/memory``: the writes that wait for a person's approval, which the entries
    above do not show (as ``mnemic memory show`` ends; docs/first-week.md #21)."""
    root = session.memory.root
    if root is None:
        return
    from ..governance.storage import waiting  # only /memory reads the queue

    for target, n in sorted(waiting(root, session.memory.settings).items(), reverse=True):
        click.echo(
            f"{counted(n, 'write')} to {FILENAMES[target]} "
            f"{'waits' if n == 1 else 'wait'} for approval, not in memory yet: "
            "mnemic pending list"
        )


def _slash(session: AgentSession, line: str) -> bool:
    """Run a slash command; False when the user asked to quit."""
    cmd, _, arg = line.partition(" ")
    arg = arg.strip()
    if cmd in ("/quit", "/exit", "/q"):
        return False
    if cmd == "/help":
        click.echo(_HELP)
    elif cmd == "/memory":
        for target in ("user", "memory"):
            res = session.memory.read(target)
            click.secho(f"{target.upper()} ({res.usage.line()})", bold=True)
            for entry in res.entries or ("(empty)",):
                click.echo(f"  • {entry}")
        _waiting_line(session)
    elif cmd == "/search":
        if not arg:
            click.echo("usage: /search WORDS")
            return True
        resp = session.tools.dispatch("session_search", {"query": arg})
        if not resp.get("success"):
            click.echo(resp.get("error"))
        for r in resp.get("results", []):  # stored fields: control characters as U+FFFD
            head = f"{r.get('when')}  {r.get('session_id')}  {r.get('title') or ''}"
            click.secho(printable(head, lines=False), bold=True)
            click.echo(f"  {printable(_clip(r.get('snippet', '')), lines=False)}")
        if resp.get("message"):
            click.echo(resp["message"])
    elif cmd == "/skills":
        resp = session.tools.dispatch("skills_list", {})
        for s in resp.get("skills", []):
            cat = f"{s['category']}/" if s.get("category") else ""
            click.echo(f"  {cat}{s['name']}: {_clip(s.get('description', ''), 100)}")
        if not resp.get("skills"):
            click.echo("No skills yet.")
    elif cmd == "/new":
        session.new_session()
        click.echo(f"New session {session.session_id}: memory reloaded into a fresh prompt.")
    elif cmd == "/compress":
        report = session.compress(reason="manual")
        if not report.compressed:
            click.echo("Nothing to compress yet.")
    else:
        click.echo(f"Unknown command {cmd}. {_HELP}")
    return True


@click.command(name="chat")
@click.option(
    "--api",
    type=click.Choice(["openai", "anthropic"]),
    help="The API the endpoint speaks (default: [llm] api, else openai).",
)
@click.option(
    "--base-url",
    help="Endpoint (default: [llm] base_url; with --api anthropic, the Anthropic API).",
)
@click.option("--model", help="Model name (default: [llm] model).")
@click.option("--system", "system_message", default="", help="An extra system message.")
@click.option("--no-stream", is_flag=True, help="Print each answer whole instead of streaming.")
@click.option("--provider", "provider_name", help="Memory provider for this run ('' for none).")
@click.option(
    "--show-cache",
    is_flag=True,
    help="After each answer, print the prompt-cache tokens the endpoint reported (stderr).",
)
@PROJECT_OPT
@pass_app
@handle_errors
def chat(
    app: AppContext,
    api: str | None,
    base_url: str | None,
    model: str | None,
    system_message: str,
    no_stream: bool,
    provider_name: str | None,
    show_cache: bool,
) -> None:
    """Talk to a model with mnemic's memory, session search and skills.

    Reads one message per line (from the terminal or a pipe). Tool calls are shown on
    stderr. Type /help for the slash commands. Exits 1 when the endpoint failed on any
    turn; a session the model never answered in is not kept in the history.
    """
    home = app.home
    llm = dataclasses.replace(
        home.settings.llm,
        api=api or home.settings.llm.api,
        base_url=base_url or home.settings.llm.base_url,
        model=model or home.settings.llm.model,
    )
    if missing_setting(llm) is not None:
        needed = "--model" if llm.api == "anthropic" else "--base-url and --model"
        keys = "model" if llm.api == "anthropic" else "base_url and model"
        fail(f"no model endpoint: pass {needed}, or set [llm] {keys} in config.toml", 2)
    # the client's package is checked before the session starts, not at the first reply
    client = client_from_settings(llm, check_extra="mnemic chat")
    interactive = sys.stdin.isatty()
    streamed: list[str] = []

    def on_event(kind: str, data: dict[str, Any]) -> None:
        if kind == "nudge" and streamed:  # the streamed answer ends; its correction follows
            click.echo()
            streamed.clear()
        _on_event(kind, data)

    session = AgentSession.open(
        home,
        client=client,
        provider=... if provider_name is None else provider_name,
        source="chat",
        system_message=system_message,
        model=llm.model,
        events=on_event,
        project=app.project,
    )

    def on_text(piece: str) -> None:
        streamed.append(piece)
        click.echo(piece, nl=False)

    agent = ChatAgent(session, client, stream=not no_stream, on_text=on_text)
    if interactive:
        where = llm.base_url or "the Anthropic API"
        click.secho(f"mnemic chat · {llm.model} at {where} · /help for commands", dim=True)
    try:
        while True:
            try:
                line = input("you> " if interactive else "")
            except EOFError:
                break
            line = line.strip()
            if not line:
                continue
            if line.startswith("/"):
                if not _slash(session, line):
                    break
                continue
            streamed.clear()
            result = agent.run_turn(line)
            if result.status == "model_error":
                click.secho(result.text, fg="red", err=True)
            elif result.status == "tool_limit":
                click.echo(result.text)
            elif streamed:
                click.echo()
            elif not result.text:
                click.echo("(no answer)")
            if show_cache:
                _show_cache(result)
    except KeyboardInterrupt:
        click.echo()
    finally:
        report = agent.close("user_exit")
        if report.abandoned:
            click.secho(
                f"{report.abandoned} provider task(s) did not finish in time and were dropped.",
                fg="yellow",
                err=True,
            )
    if agent.failed_turns:
        kept = "" if agent.model_replies else " No session was kept: the model never answered."
        fail(
            f"the model endpoint failed on {agent.failed_turns} turn(s) (see above); check "
            f"--base-url, --model and the endpoint.{kept}"
        )
