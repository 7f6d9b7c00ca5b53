"""How the demo prints: narration, steps, the conversation, tool calls and the cache table."""

from __future__ import annotations

import hashlib
import json
import textwrap
from typing import Any

import click

from .script import Call

__all__ = ["box", "cache_table", "fence", "say", "sha", "step", "tool_event", "wrap"]

WIDTH = 92


def say(text: str) -> None:
    """Narration: one paragraph, wrapped."""
    click.echo(textwrap.fill(" ".join(text.split()), width=WIDTH, break_on_hyphens=False))


def step(n: int, title: str) -> None:
    """The heading of step ``n``."""
    click.echo()
    click.secho(f"── {n}. {title} " + "─" * max(0, 80 - len(title)), bold=True)


def wrap(prefix: str, text: str, color: str | None = None) -> None:
    """``text`` after ``prefix`` (on a line of its own when long), wrapped and indented."""
    indent = " " * min(len(prefix), 12)
    body = textwrap.fill(
        " ".join(text.split()),
        width=WIDTH,
        initial_indent=prefix if len(prefix) <= 40 else indent,
        subsequent_indent=indent,
        break_on_hyphens=False,
    )
    if len(prefix) > 40:
        click.secho(prefix.rstrip(), fg=color)
    click.secho(body, fg=color)


def box(text: str) -> None:
    """``text`` as a quoted block (what the model received, what memory holds)."""
    for line in text.splitlines() or [""]:
        lead = " " * (len(line) - len(line.lstrip()))
        for piece in textwrap.wrap(line, 88, subsequent_indent=lead + "  ") or [""]:
            click.echo("  │ " + piece)


def sha(text: str) -> str:
    """A short hash, to show whether two prompts are the same bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def fence(content: str) -> str:
    """The recalled-context fence of a user message ('' when it has none)."""
    start = content.find("<recalled-context>")
    return content[start:] if start >= 0 else ""


def clip(text: str, width: int) -> str:
    """``text`` on one line, cut to ``width`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def tool_event(kind: str, data: dict[str, Any]) -> None:
    """Show a tool call and its outcome (an :class:`~mnemic.agent.AgentSession` event)."""
    if kind != "tool" or data.get("by") == "review":  # reviews are shown when they finish
        return
    args = data["arguments"]
    try:
        parsed = json.loads(args) if isinstance(args, str) else dict(args or {})
    except ValueError:
        parsed = {}
    gist = " ".join(
        f"{k}={clip(str(v), 40)!r}" if isinstance(v, str) else f"{k}=[{len(v)} ops]"
        for k, v in parsed.items()
        if k != "content" or data["name"] == "memory"
    )
    by = f"({str(data['by']).rstrip('*')}) " if data.get("by") else ""
    out, color = _outcome(data["result"])
    wrap(f"  ⚙ {by}{data['name']} {gist} → ", clip(out, 300), color)


def _outcome(resp: dict[str, Any]) -> tuple[str, str]:
    if resp.get("staged"):
        pending = resp.get("pending_id")
        return f"staged for approval, pending id {pending}: nothing saved yet", "yellow"
    if resp.get("success"):
        out = "ok" + (f": {resp['message']}" if resp.get("message") else "")
        if resp.get("usage"):
            out += f" ({resp['usage']})"
        return out, "green"
    return f"refused ({resp.get('error_code')}): {resp.get('error', '')}", "red"


def cache_table(calls: list[Call]) -> None:
    """One row per user turn: its requests, the system prompt's hash, and how many bytes
    of the previous request its first request repeats at its start."""
    header = f"  {'day':<4}{'turn':>4}  {'calls':>5}  {'system prompt':<16}{'reused prefix':>30}"
    click.secho(header, bold=True)
    turns = [c for c in calls if c.kind == "turn"]
    previous: dict[int, str] = {}
    first_sha: dict[int, str] = {}
    for label in dict.fromkeys(c.label for c in turns):
        mine = [c for c in turns if c.label == label]
        day, turn = label
        digest = sha(mine[0].system)
        first_sha.setdefault(day, digest)
        mark = "same" if digest == first_sha[day] else "rebuilt"
        prev = previous.get(day)
        if prev is None:
            reused = "-  (first request)"
        else:
            n = _prefix(prev, mine[0].body)
            reused = f"{n:,} of {len(prev):,} B  {100 * n / len(prev):4.0f}%"
        if mark == "rebuilt":
            first_sha[day] = digest
        click.echo(f"  {day:<4}{turn:>4}  {len(mine):>5}  {digest} {mark:<5}{reused:>30}")
        previous[day] = mine[-1].body
    side = [c for c in calls if c.kind != "turn"]
    kinds = ", ".join(
        f"{sum(1 for c in side if c.kind == k)} {label}"
        for k, label in (
            ("flush", "memory flush"),
            ("summary", "compression summary"),
            ("review", "background review"),
        )
    )
    click.echo(f"  calls outside the conversation: {kinds}")


def _prefix(a: str, b: str) -> int:
    """Length of the common prefix of two strings."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo
