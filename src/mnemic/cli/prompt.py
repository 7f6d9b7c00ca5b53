"""``mnemic prompt``: the system prompt a new session would start with."""

from __future__ import annotations

from typing import Any

import click

from ..curated.entries import FILENAMES
from ..curated.snapshot import display_entry, render_snapshot
from ..errors import MnemicError
from ..tokens import estimate_tokens
from .app import (
    JSON_OPT,
    PROJECT_OPT,
    AppContext,
    emit_json,
    handle_errors,
    paged,
    pass_app,
    printable,
)

__all__ = ["prompt"]


@click.command(name="prompt")
@click.option("--system", "system_message", default="", help="A caller's system message to add.")
@click.option(
    "--memory-only",
    is_flag=True,
    help="Print only the frozen MEMORY and USER PROFILE blocks (for any agent's hook).",
)
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def prompt(app: AppContext, system_message: str, memory_only: bool, as_json: bool) -> None:
    """Print the system prompt a new session would start with, layer by layer.

    Nothing is recorded or written. The prompt stays byte-identical for the whole session;
    per-turn recall goes into the user's message instead.

    With --memory-only, print just the memory blocks, exactly as the system prompt
    carries them (nothing at all when memory is empty): a session-start hook of any
    agent can put them in its context.
    """
    if memory_only:
        if system_message:
            raise click.UsageError("--system does not apply with --memory-only")
        text = render_snapshot(app.home_path, app.profile, project=app.project)
        if as_json:
            emit_json({"chars": len(text), "tokens_estimate": estimate_tokens(text), "text": text})
        elif text:
            click.echo(text)
        return
    # Here, not at the top: --memory-only runs in other agents' session-start hooks and
    # must not pay for the agent stack (sessions, tools, providers, the LLM client).
    from ..agent.startup import preview_prompt

    built, tools, manager = preview_prompt(
        app.existing_home, system_message=system_message, project=app.project
    )
    text = built.text
    if as_json:
        data = built.as_dict()
        data["tokens_estimate"] = estimate_tokens(text)
        data["tools"] = tools
        data["provider"] = manager.name or None
        emit_json(data)
        return
    with paged():  # the whole prompt, memory blocks included: paged on a terminal
        click.secho(
            f"System prompt of a new session: {len(text):,} chars "
            f"(~{estimate_tokens(text):,} tokens)",
            bold=True,
        )
        for name, size in built.sizes().items():
            shown = f"{size:,}" if size else "-"
            click.echo(f"  {name:<14} {shown:>7}")
        click.echo(f"Tools: {', '.join(tools)}")
        if manager.name:
            state = "on" if manager.active else f"off ({manager.disabled_reason})"
            click.echo(f"Memory provider: {manager.name} ({state})")
        _expired_lines(app)
        click.echo("─" * 72)
        click.echo(text)


def _expired_lines(app: AppContext) -> None:
    """The entries below that are past their expiry: a session start moves them to the
    archive before it takes its snapshot, so its prompt will not hold them
    (docs/first-week.md #96)."""
    import time

    from ..curated.pressure import due
    from ..curated.view import MemoryView

    homes = [app.existing_home] + ([app.memory_home()] if app.project is not None else [])
    for home in homes:  # the global blocks, then the project's
        try:
            view = MemoryView.open(home)
            gone = due(view, time.time())
        except MnemicError:
            continue
        _say_expired(view, gone)


def _say_expired(view: Any, gone: dict[str, list[str]]) -> None:
    """One line per file of ``view`` (a MemoryView) naming its entries in ``gone``."""
    of = f" of project {printable(view.project, lines=False)}" if view.project else ""
    for target, entries in gone.items():
        n = len(entries)
        click.echo(
            f"Past {'its' if n == 1 else 'their'} expiry: {n} {FILENAMES[target]}{of} "
            f"entr{'y' if n == 1 else 'ies'} below; a session start moves "
            f"{'it' if n == 1 else 'them'} to the archive first, so its prompt will not hold "
            f"{'it' if n == 1 else 'them'}: "
            + ", ".join(f"'{_first(display_entry(target, e, view.level)[0])}'" for e in entries)
        )


def _first(entry: str) -> str:
    """An entry's first line, as far as 60 characters, for one line of the header."""
    line = printable(entry.splitlines()[0] if entry else "", lines=False)
    return line if len(line) <= 60 else line[:57] + "..."
