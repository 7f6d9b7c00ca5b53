"""``mnemic memory move``: take one MEMORY.md entry from a project's memory to the global
one, or the other way (:mod:`mnemic.ops.move`)."""

from __future__ import annotations

import click

from ..errors import NoMatch
from ..ops.move import move_entry
from .app import (
    JSON_OPT,
    AppContext,
    emit_json,
    fail,
    handle_errors,
    pass_app,
    printable,
    project_opt,
)

__all__ = ["move"]


@click.command(name="move")
@click.argument("old")
@click.option(
    "--to",
    "to",
    type=click.Choice(["global", "project"]),
    required=True,
    help="Where the entry goes: the global memory, or the project's.",
)
@project_opt("The project whose memory the entry leaves or joins ($MNEMIC_PROJECT).")
@JSON_OPT
@pass_app
@handle_errors
def move(app: AppContext, old: str, to: str, as_json: bool) -> None:
    """Move an entry between the global memory and a project's (the source archives it).

    OLD is a unique piece of the MEMORY.md entry, or its entry:<hex> handle. The entry is
    added to the destination first (budget, scan and approval apply; a refusal changes
    nothing), then removed from the source, into its archive with reason 'moved'.
    USER.md is global only.

    \b
    Examples:
      mnemic memory move "./x test" --to global --project .
      mnemic memory move entry:5d0c1b2a --to project --project ~/src/app
    """
    chosen = app.project
    if chosen is None:
        fail(
            "Name the project the entry leaves or joins: --project DIR (or set "
            "MNEMIC_PROJECT). A move goes between the global memory and one project's.",
            2,
        )
    try:
        result = move_entry(app.home, chosen, old, to=to)
    except NoMatch as exc:
        if to == "global":  # the entry was looked for in the project's store
            exc.project = printable(chosen, lines=False)
        raise
    if as_json:
        emit_json(
            {
                "success": result.done,
                "entry": result.entry,
                "from": result.source,
                "to": result.destination,
                "pending_id": result.added.pending_id,
                "usage": {
                    result.destination: result.added.usage.line(),
                    **({result.source: result.removed.usage.line()} if result.removed else {}),
                },
                "usage_to": result.added.usage.as_dict(),
                "usage_from": result.removed.usage.as_dict() if result.removed else None,
            }
        )
    else:
        click.echo(printable(result.message()))
