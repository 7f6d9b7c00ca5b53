"""``mnemic memory archive``: the entries that left MEMORY.md and USER.md (list, search,
show, restore). The archive never enters the system prompt."""

from __future__ import annotations

import shlex

import click
from click.core import ParameterSource

from ..curated import archive as arch
from ..curated.entries import FILENAMES, TARGETS
from ..curated.fold import Archived
from ..curated.scope import ProjectHome, every_store, stored_projects
from ..curated.tool_answers import refusal
from ..curated.view import MemoryView
from ..errors import BatchFailed, BudgetExceeded, InvalidArgument, ToolError
from ..home import Home
from ..ops.archive_search import (
    archive_json,
    archived_in,
    every_archive,
    every_archive_json,
    item_dict,
    kept_entry,
    removed_by_text,
    search_archive,
)
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
from .memory import TARGETS_OPT, open_memory, refuse, report, scoped_targets
from .search import ranked_answer

__all__ = ["archive"]


@click.group(name="archive")
def archive() -> None:
    """Entries that left memory (removed, replaced, evicted, expired, moved, dropped by an
    edit): never in the prompt.

    \b
    An archived entry's ID is the first column of `list` and `search` (e.g. 27, or
    27.1 for the second entry one write took out; the 27.0 of --json works too).
    --all-scopes lists or searches every store of the home at once (the global memory
    and each project's); a project's entries then show as PROJECT-ID:ID, which `show`
    and `restore` take without --project.
    Examples:
      mnemic memory archive list
      mnemic memory archive search "staging host" --all-scopes
      mnemic memory archive show 27
      mnemic memory archive restore 27
      mnemic memory archive restore web-3f2a9c01b7d4:5
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


def _hint(app: AppContext, all_scopes: bool) -> str:
    """How to act on a listed ID: with a project selected, the commands name it (a plain
    ID given without it is looked up in the global store, where it names another entry)."""
    where = _where(app, all_scopes)
    return (
        f"Details: mnemic memory archive show ID{where}   "
        f"Bring back: mnemic memory archive restore ID{where}"
    )


def _where(app: AppContext, all_scopes: bool) -> str:
    """`` --project DIR`` when a project is selected (and not --all-scopes), else ``""``."""
    store = app.memory_home() if app.project is not None and not all_scopes else None
    if isinstance(store, ProjectHome):
        return " --project " + shlex.quote(printable(store.selector, lines=False))
    return ""


ALL_SCOPES_OPT = click.option(
    "--all-scopes",
    "all_scopes",
    is_flag=True,
    help="Every store of the home: the global memory and each project's (IDs name the "
    "project: PROJECT-ID:ID).",
)
"""``--all-scopes`` of ``archive list`` and ``search``."""


def _header(width: tuple[int, int] = (10, 10), *, scored: bool = False) -> str:
    """The column names above :func:`_line`'s rows (the ID is what show and restore take;
    ``scored``: a search's, with how well and by what each entry matched); ``width``: the
    ID and REASON columns' (:func:`_width`)."""
    score = f"{'SCORE':<5}  {'MATCHED':<16}  " if scored else ""
    wid, why = width
    return f"{'ID':<{wid}} {'FILE':<9} {'REASON':<{why}} {'ARCHIVED':<23}  {score}TEXT"


def _line(d: dict[str, object], width: tuple[int, int] = (10, 10), *, scored: bool = False) -> str:
    text = printable(str(d["text"]) if d["text"] is not None else "(forgotten)", lines=False)
    short = text if len(text) <= 100 else text[:99] + "…"
    when = _local(d["archived"]) or "not yet recorded"
    shown = str(d["ref"]) if "ref" in d else arch.typed_id(str(d["id"]))
    file = FILENAMES[str(d["target"])]
    score = ""
    if scored:  # the search's score and what found the entry, as memory search says it
        how = "+".join(str(m) for m in d["matched"]) if isinstance(d["matched"], list) else ""
        score = f"{float(str(d['score'])):<5.2f}  {how:<16}  "
    back = "  (in memory again)" if d.get("in_memory") else ""
    wid, why = width
    return f"{shown:<{wid}} {file:<9} {d['reason']!s:<{why}} {when}  {score}{short}{back}"


BACK_NOTE = (
    "(in memory again): its text was added back and is live; the archive keeps the copy "
    "that left (`archive restore` is what takes an entry out of the archive)."
)
"""Said under a list or search that shows an entry added back."""


def _width(rows: list[dict[str, object]]) -> tuple[int, int]:
    """The ID and REASON columns' widths: 10, or the longest qualified id
    (``--all-scopes``) and the longest reason (``imported_over_budget``), so the columns
    after them stay aligned."""
    wid = max([10, *(len(str(d.get("ref", ""))) for d in rows)])
    return wid, max([10, *(len(str(d.get("reason", ""))) for d in rows)])


def _stores(app: AppContext) -> list[Home]:
    """Every store of the home (``--all-scopes``); said with --project it is a usage
    error (``$MNEMIC_PROJECT`` is outranked: every store includes its)."""
    ctx: click.Context | None = click.get_current_context()
    while ctx is not None:
        if ctx.get_parameter_source("project") == ParameterSource.COMMANDLINE:
            raise click.UsageError("--all-scopes and --project name different stores; pass one.")
        ctx = ctx.parent
    return every_store(app.existing_home)


def _store_of(app: AppContext, item_id: str, *, write: bool = False) -> tuple[Home, str]:
    """The store and id ``show`` and ``restore`` work on: the one a qualified id names
    (``PROJECT-ID:ID``, ``global:ID``; --project may name the same store only), else
    the store the command selects."""
    found = archived_in(app.home if write else app.existing_home, item_id)
    if found is None:
        return app.memory_home(write=write), item_id
    store, aid = found
    if app.project is not None:
        selected = app.memory_home(write=write)
        if selected.root != store.root:
            raise click.UsageError(
                f"ID {item_id} names another store than --project (or MNEMIC_PROJECT); "
                "pass one of them."
            )
    return store, aid


def _local(stamp: object) -> str | None:
    """An archive time (UTC, as models and --json read it) as people read it: local,
    with the offset."""
    ts = parse_iso(stamp) if isinstance(stamp, str) else None
    return None if ts is None else local_time(ts)


@archive.command(name="list")
@TARGETS_OPT
@click.option("--limit", "-n", type=click.IntRange(1), default=50, show_default=True)
@click.option(
    "--page",
    "-p",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Which --limit entries: page 2 is the next older ones.",
)
@ALL_SCOPES_OPT
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def list_cmd(
    app: AppContext, target: str | None, limit: int, page: int, all_scopes: bool, as_json: bool
) -> None:
    """The archived entries, newest first, with how many there are (--page 2: the next
    older ones; --all-scopes: of every store of the home)."""
    first = (page - 1) * limit
    if all_scopes:
        stores = _stores(app)
        if as_json:
            emit_json(every_archive_json(stores, target, limit=limit, offset=first))
            return
        every = every_archive(stores, target)
        total = len(every)
        # only the shown entries are read for people (each text is scanned)
        items = [s.as_dict() for s in every[first : first + limit]]
    else:
        scoped_targets(app, target)  # USER.md with --project: refused, as `memory show` does
        view = MemoryView.open(app.memory_home())
        if as_json:
            emit_json(archive_json(view, target, limit=limit, offset=first))
            return
        found = arch.archive_listing(view, target)
        for exc in found.unread:  # listed from the journal all the same
            click.echo(f"note: {arch.unread_note(exc.to_human())}", err=True)
        total = len(found.items)
        items = [
            item_dict(a, view.level, in_memory=found.in_memory(a))
            for a in found.items[first : first + limit]
        ]
    if not total:
        where = " in any store of this home" if all_scopes else ""
        click.echo(f"The archive is empty: no entry has left memory{where}.")
        return
    if not items:
        click.echo(f"No entries on page {page}: the archive holds {_entries(total)}.")
        return
    width = _width(items)
    click.echo(_header(width))
    for d in items:
        click.echo(_line(d, width))
    if any(d.get("in_memory") for d in items):
        click.echo(BACK_NOTE)
    click.echo(_list_footer(first, len(items), total, page, _where(app, all_scopes)))
    click.echo(_hint(app, all_scopes))


def _entries(n: int) -> str:
    return f"{n:,} {'entry' if n == 1 else 'entries'}"


def _list_footer(first: int, shown: int, total: int, page: int, where: str) -> str:
    """Which entries the list held of how many, and the command line for older ones
    (the options given kept, --page changed)."""
    if shown == total:
        return f"{_entries(total)}, newest first."
    said = f"Entries {first + 1:,}-{first + shown:,} of {total:,}, newest first."
    if first + shown < total:
        said += " Older: " + _next_page(page + 1) + where
    return said


def _next_page(page: int) -> str:
    """The command line that was run, with ``--page`` set to ``page``."""
    ctx = click.get_current_context()
    words = ["mnemic", "memory", "archive", "list", "--page", str(page)]
    for name, flag in (("limit", "--limit"), ("target", "--target")):
        if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE:
            words += [flag, str(ctx.params[name])]
    if ctx.params.get("all_scopes"):
        words.append("--all-scopes")
    return shlex.join(words)


@archive.command(name="search")
@click.argument("query")
@TARGETS_OPT
@SEARCH_MODE_OPT
@click.option("--limit", "-n", type=click.IntRange(1, 100), default=5, show_default=True)
@ALL_SCOPES_OPT
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def search_cmd(
    app: AppContext,
    query: str,
    target: str | None,
    mode: str | None,
    limit: int,
    all_scopes: bool,
    as_json: bool,
) -> None:
    """Find archived entries that match QUERY by words and, with mnemic[semantic], by
    meaning (--all-scopes: in every store of the home, ranked as one)."""
    if not all_scopes:
        scoped_targets(app, target)  # USER.md with --project: refused, as `memory show` does
    home = app.existing_home
    views = (
        [(s, MemoryView.open(s)) for s in _stores(app)]
        if all_scopes
        else MemoryView.open(app.memory_home())
    )
    found = search_archive(
        views,
        query,
        mode=mode,
        targets=[target] if target else TARGETS,
        limit=limit,
        embedder_loader=embedder_loader_for(home),
        floor=text_floor_for(home),
    )
    if ranked_answer(found, query, "archived entry", as_json):
        return
    every = "mnemic memory archive list" + (" --all-scopes" if all_scopes else _where(app, False))
    if not found.hits:
        click.echo(f"Every archived entry: {every}")
        return
    rows = [hit.to_dict(found.level) for hit in found.hits]
    width = _width(rows)
    click.echo(_header(width, scored=True))
    for d in rows:
        click.echo(_line(d, width, scored=True) + ("  (weak)" if d.get("weak") else ""))
    if any(d.get("in_memory") for d in rows):
        click.echo(BACK_NOTE)
    if found.no_good_match:
        click.echo(f"Every archived entry: {every}")
    elif any(d.get("weak") for d in rows):
        click.echo("(weak): no word of the query and far from it in meaning, probably unrelated.")
    click.echo(_hint(app, all_scopes))


@archive.command(name="show")
@click.argument("item_id", metavar="ID")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def show_cmd(app: AppContext, item_id: str, as_json: bool) -> None:
    """One archived entry: its text, why and when it left, who removed it, its provenance
    (ID as `list` prints it; PROJECT-ID:ID names a project's store without --project)."""
    store, aid = _store_of(app, item_id)
    view = MemoryView.open(store)
    item = _show(app, view, aid, item_id)
    d = item_dict(item, view.level)
    if as_json:
        emit_json(d)
        return
    by = d["removed_by"]
    assert isinstance(by, dict)
    who = printable(removed_by_text(by), lines=False)
    prov = d["provenance"]
    assert isinstance(prov, dict)
    click.echo(f"id:        {arch.typed_id(str(d['id']))} ({FILENAMES[str(d['target'])]})")
    if isinstance(store, ProjectHome):
        click.echo(f"store:     {_store_text(store)}")
    why = WHY.get(str(d["reason"]))
    click.echo(f"reason:    {d['reason']}" + (f": {why}" if why else ""))
    into = kept_entry(view, item)
    if into is not None:
        click.echo(f"into:      {printable(into, lines=False)}")
    click.echo(f"archived:  {_local(d['archived']) or 'not yet recorded'} by {who}")
    click.echo(
        f"created:   {_local(d['created_at']) or 'unknown'} by {printable(str(prov['actor']))}"
    )
    click.echo("")
    click.echo(printable(str(d["text"])) if d["text"] is not None else "(forgotten)")


def _show(app: AppContext, view: MemoryView, aid: str, given: str) -> Archived:
    """:func:`~mnemic.curated.archive.show`; an id this store lacks, given without its
    store while the home has project stores, is refused saying how to find it there."""
    try:
        return arch.show(view, aid)
    except InvalidArgument as exc:
        if ":" in given:  # the store's own words would name the bare id and its list
            store = given.strip().partition(":")[0]
            label = "the global store" if store == "global" else f"project store {store}"
            raise InvalidArgument(
                "id",
                f"No archived entry {given.strip()!r}: the archive of {label} holds no "
                f"{aid.strip()!r} (a restored entry leaves the archive). Every store's "
                "entries, with their ids: `mnemic memory archive list --all-scopes`.",
            ) from exc
        if not stored_projects(app.existing_home):
            raise
        where = "this project's archive" if app.project is not None else "the global archive"
        raise InvalidArgument(
            "id",
            f"{exc.message} It looked in {where} only: `mnemic memory archive list "
            "--all-scopes` lists every store's, a project's as PROJECT-ID:ID.",
        ) from exc


def _store_text(store: ProjectHome) -> str:
    """A project store as ``show`` names it: ``project DIR (ID)``."""
    path = printable(store.project.path or "?", lines=False)
    return f"project {path} ({store.project.id})"


def _restore_next(app: AppContext, item: Archived, item_id: str, exc: ToolError) -> str | None:
    """What a refused restore says last: run it again once there is room, when room was
    the reason; that the entry stays archived, for another reason (a threat); nothing
    for a forgotten entry, whose text no run brings back (docs/first-week.md #32)."""
    if item.text is None:
        return None
    cause = exc.cause if isinstance(exc, BatchFailed) else exc
    if not isinstance(cause, BudgetExceeded):
        return "The entry stays in the archive."
    shown = item_id.strip() if ":" in item_id else arch.typed_id(item.id)
    again = f"mnemic memory archive restore {shown}"
    if ":" not in item_id:
        again += _where(app, False)
    return (
        f"The entry stays in the archive; to bring it back, run `{again}` again once there is room."
    )


@archive.command(name="restore")
@click.argument("item_id", metavar="ID")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def restore_cmd(app: AppContext, item_id: str, as_json: bool) -> None:
    """Add archived entry ID back to its file (the budget and the threat scan apply; when
    it does not fit, the refusal lists the entries to drop first). PROJECT-ID:ID restores
    into that project's store."""
    store, aid = _store_of(app, item_id, write=True)
    mem = open_memory(app, write=True, store=store)
    item = _show(app, mem, aid, item_id)
    try:
        result = arch.restore(mem, aid)
    except ToolError as exc:
        if as_json:  # as the memory tool answers: the entries and the ones best dropped
            told = refusal(mem, item.target, exc)
            fail_response(told.to_response(), human=told.to_human())
        refuse(mem, item.target, exc, _restore_next(app, item, item_id, exc))
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
    shown = item_id.strip() if ":" in item_id else arch.typed_id(item.id)
    # the restore first, then what it caused (evictions, the warning): first-week #93
    done = f"Entry restored from the archive: {shown} (it is no longer archived)."
    report(mem, result, said=done if result.written and not result.staged else None)
