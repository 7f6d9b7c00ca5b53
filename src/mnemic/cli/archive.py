"""``mnemic memory archive``: the entries that left MEMORY.md and USER.md (list, search,
show, restore). The archive never enters the system prompt."""

from __future__ import annotations

import click

from ..curated import archive as arch
from ..curated.changes import entry_key
from ..curated.entries import FILENAMES, TARGETS
from ..curated.snapshot import display_entry
from ..curated.tool_answers import refusal
from ..curated.view import MemoryView
from ..errors import ToolError
from ..ops.archive_search import archive_json, item_dict, removed_by_text, search_archive
from ..sessions import embedder_loader_for, text_floor_for
from ..timefmt import local_time, parse_iso
from .app import (
    JSON_OPT,
    PROJECT_OPT,
    SEARCH_MODE_OPT,
    AppContext,
    emit_json,
    fail_response,
    handle_errors,
    pass_app,
    printable,
)
from .memory import TARGETS_OPT, open_memory, refuse, report
from .search import ranked_answer

__all__ = ["archive"]


@click.group(name="archive")
def archive() -> None:
    """Entries that left memory (removed, replaced, evicted, expired, moved, dropped by an
    edit): never in the prompt.

    \b
    An archived entry's ID is the first column of `list` and `search` (e.g. 27, or
    27.1 for the second entry one write took out; the 27.0 of --json works too).
    Examples:
      mnemic memory archive list
      mnemic memory archive search "staging host"
      mnemic memory archive show 27
      mnemic memory archive restore 27
    """


WHY = {
    "removed": "a remove took it out",
    "replaced": "it was the old text of a replace",
    "merged": "a replace, or an approved tidy merge, folded it into another entry",
    "superseded": "an approved tidy proposal dropped it for a newer entry that contradicts it",
    "evicted": "moved out to make room for a write, as [memory] on_full says",
    "expired": "its --expires date passed",
    "edited": "a whole-text edit (mnemic memory edit, the console) dropped it",
    "restored": "a previous version was restored without it (mnemic memory restore)",
    "adopted": "adopting a hand-edited file dropped it (mnemic memory adopt)",
    "hand_edit": "the file was changed outside mnemic without it",
    "unrecorded": "a write whose record a power cut lost removed it",
    "imported": "it was archived in the agent it was imported from",
    "imported_over_budget": "imported, but it did not fit the budget: never live here",
    "moved": "mnemic memory move took it to the other scope (global or a project)",
}
"""What each archive reason (:data:`mnemic.curated.changes.REASONS`) means, in a
person's words (``archive show``)."""

_HINT = "Details: mnemic memory archive show ID   Bring back: mnemic memory archive restore ID"


def _header() -> str:
    """The column names above :func:`_line`'s rows (the ID is what show and restore take)."""
    return f"{'ID':<10} {'FILE':<9} {'REASON':<10} {'ARCHIVED':<23}  TEXT"


def _line(d: dict[str, object]) -> str:
    text = printable(str(d["text"]) if d["text"] is not None else "(forgotten)", lines=False)
    short = text if len(text) <= 100 else text[:99] + "…"
    when = _local(d["archived"]) or "not yet recorded"
    shown = arch.typed_id(str(d["id"]))
    return f"{shown:<10} {FILENAMES[str(d['target'])]:<9} {d['reason']:<10} {when}  {short}"


def _local(stamp: object) -> str | None:
    """An archive time (UTC, as models and --json read it) as people read it: local,
    with the offset."""
    ts = parse_iso(stamp) if isinstance(stamp, str) else None
    return None if ts is None else local_time(ts)


@archive.command(name="list")
@TARGETS_OPT
@click.option("--limit", "-n", type=click.IntRange(1), default=50, show_default=True)
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def list_cmd(app: AppContext, target: str | None, limit: int, as_json: bool) -> None:
    """The archived entries, newest first."""
    view = MemoryView.open(app.memory_home())
    if as_json:
        emit_json(archive_json(view, target, limit=limit))
        return
    found = arch.archive_listing(view, target)
    for exc in found.unread:  # listed from the journal all the same
        click.echo(f"note: {arch.unread_note(exc.to_human())}", err=True)
    items = [item_dict(a, view.level) for a in found.items]
    if not items:
        click.echo("The archive is empty: no entry has left memory.")
        return
    click.echo(_header())
    for d in items[:limit]:
        click.echo(_line(d))
    if len(items) > limit:
        click.echo(f"... {len(items) - limit} older (--limit)")
    click.echo(_HINT)


@archive.command(name="search")
@click.argument("query")
@TARGETS_OPT
@SEARCH_MODE_OPT
@click.option("--limit", "-n", type=click.IntRange(1, 100), default=5, show_default=True)
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def search_cmd(
    app: AppContext, query: str, target: str | None, mode: str | None, limit: int, as_json: bool
) -> None:
    """Find archived entries that match QUERY by words and, with mnemic[semantic], by meaning."""
    home = app.existing_home
    found = search_archive(
        MemoryView.open(app.memory_home()),
        query,
        mode=mode,
        targets=[target] if target else TARGETS,
        limit=limit,
        embedder_loader=embedder_loader_for(home),
        floor=text_floor_for(home),
    )
    if ranked_answer(found, query, "archived entry", as_json):
        return
    if not found.hits:
        return
    click.echo(_header())
    for hit in found.hits:
        click.echo(_line(hit.to_dict(found.level)) + ("  (weak)" if found.no_good_match else ""))
    click.echo(_HINT)


@archive.command(name="show")
@click.argument("item_id", metavar="ID")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def show_cmd(app: AppContext, item_id: str, as_json: bool) -> None:
    """One archived entry: its text, why and when it left, who removed it, its provenance."""
    view = MemoryView.open(app.memory_home())
    d = item_dict(arch.show(view, item_id), view.level)
    if as_json:
        emit_json(d)
        return
    by = d["removed_by"]
    assert isinstance(by, dict)
    who = printable(removed_by_text(by), lines=False)
    prov = d["provenance"]
    assert isinstance(prov, dict)
    click.echo(f"id:        {arch.typed_id(str(d['id']))} ({FILENAMES[str(d['target'])]})")
    why = WHY.get(str(d["reason"]))
    click.echo(f"reason:    {d['reason']}" + (f": {why}" if why else ""))
    into = _kept(view, str(d["target"]), d["replaced_by"])
    if into is not None:
        click.echo(f"into:      {printable(into, lines=False)}")
    click.echo(f"archived:  {_local(d['archived']) or 'not yet recorded'} by {who}")
    click.echo(
        f"created:   {_local(d['created_at']) or 'unknown'} by {printable(str(prov['actor']))}"
    )
    click.echo("")
    click.echo(printable(str(d["text"])) if d["text"] is not None else "(forgotten)")


def _kept(view: MemoryView, target: str, key: object) -> str | None:
    """The live entry of ``target`` whose key is ``key`` (what an archived entry was
    replaced by or merged into), as the prompt shows it; None when it is gone too."""
    if not isinstance(key, str):
        return None
    for entry in view.entries(target):
        if entry_key(entry) == key:
            return display_entry(target, entry, view.level)[0]
    return None


@archive.command(name="restore")
@click.argument("item_id", metavar="ID")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def restore_cmd(app: AppContext, item_id: str, as_json: bool) -> None:
    """Add archived entry ID back to its file (the budget and the threat scan apply; when
    it does not fit, the refusal lists the entries to drop first)."""
    mem = open_memory(app, write=True)
    item = arch.show(mem, item_id)
    try:
        result = arch.restore(mem, item_id)
    except ToolError as exc:
        if as_json:  # as the memory tool answers: the entries and the ones best dropped
            fail_response(refusal(mem, item.target, exc).to_response())
        refuse(mem, item.target, exc)
        return
    if as_json:
        emit_json(
            {
                "success": True,
                "id": item.id,
                "target": result.target,
                "written": result.written,
                "staged": result.staged,
                "pending_id": result.pending_id,
                "message": result.message,
                "usage": result.usage.as_dict(),
            }
        )
        return
    report(mem, result)
    if result.written and not result.staged:
        shown = arch.typed_id(item.id)
        click.echo(f"  restored from the archive: {shown} (it is no longer archived)")
