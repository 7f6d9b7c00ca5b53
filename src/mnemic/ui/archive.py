"""The Archive page: every entry that left MEMORY.md or USER.md (target, text, why, who
removed it, when), a search over it, and a Restore button per entry. Restoring is the
same library call as ``mnemic memory archive restore`` (:func:`mnemic.curated.archive.restore`:
an ``add`` through :meth:`Memory.apply` as the ``ui`` actor, so the budget, the threat scan
and the approval gate apply); a restore that does not fit shows the refusal with the
entries of its file, to drop one first. ``?project=ID`` shows a project store's archive
(its id, never a path, as the other pages' forms name a store; a project has MEMORY.md
only), and its Restore forms restore into that store; ``?project=*`` shows every
store's at once (``mnemic memory archive list --all-scopes``), each entry naming its
store and each Restore form restoring into the entry's own store. An entry replaced or
merged into another shows ``into:`` that live entry, as ``archive show`` prints it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from starlette.routing import Route

from ..curated import archive as arch
from ..curated.entries import FILENAMES, TARGETS, entry_handle
from ..curated.fold import Archived
from ..curated.pressure import add_candidates
from ..curated.scope import ProjectHome, every_store, stored_projects
from ..curated.snapshot import display_entry
from ..curated.view import MemoryView
from ..errors import InvalidArgument, MnemicError, ToolError
from ..home import Home
from ..ops.archive_search import (
    every_archive,
    item_dict,
    kept_entry,
    removed_by_text,
    search_archive,
)
from ..sessions import embedder_loader_for, text_floor_for
from ..tooling import no_good_match_message
from .console import Console, Form, endpoint, see_other
from .memory import best_dropped, evicted_query
from .render import evicted_note, page

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = ["PAGE_ITEMS", "ROUTES"]

PAGE_ITEMS = 200
"""Archived entries the page lists at most (the newest); a search finds older ones."""

NOTICES = {
    "restored": "Entry restored: it is back in its file and out of the archive.",
    "noop": "That text is already in its file: nothing was restored.",
}


def _row(
    item: Archived, view: MemoryView, project: str = "", *, in_memory: bool = False
) -> dict[str, Any]:
    """One archived entry as the page shows it: never the text of a blocked one; the
    live entry it was replaced by or merged into (``into``, as ``archive show`` prints
    it), its id as ``mnemic memory archive show`` takes it from any store, and whether
    its text was added back and is live again (``in_memory``, as ``archive list``
    marks it)."""
    level = view.level
    d = item_dict(item, level)
    blocked = item.text is not None and bool(display_entry(item.target, item.text, level)[1])
    who = removed_by_text(d["removed_by"])
    return {
        "id": item.id,
        # as `mnemic memory archive list --all-scopes` shows it and `show` takes it
        "shown_id": f"{project}:{arch.typed_id(item.id)}" if project else arch.typed_id(item.id),
        "target": item.target,
        "file": FILENAMES[item.target],
        "text": None if blocked else d["text"],
        "blocked": blocked,
        "forgotten": item.text is None,
        "reason": item.reason,
        "project": project,  # the store it is in: what its Restore form names
        "into": kept_entry(view, item),
        "who": who,
        "archived_at": item.archived_at,
        "created": item.provenance.created,
        "author": item.provenance.actor,
        "in_memory": in_memory,
    }


def _current(view: MemoryView, target: str) -> dict[str, Any]:
    """The entries of ``target`` now, to pick one to drop (blocked ones as placeholders)."""
    try:
        listed = view.listing(target)
    except MnemicError as exc:
        return {"target": target, "file": FILENAMES[target], "error": exc.to_human()}
    entries = []
    for entry in listed.entries:
        shown, ids = display_entry(target, entry, view.level)
        entries.append(
            {"handle": entry_handle(entry), "text": "" if ids else shown, "chars": len(entry)}
        )
    return {
        "target": target,
        "file": FILENAMES[target],
        "error": "",
        "usage": listed.usage,
        "entries": entries,
    }


EVERY = "*"
"""``?project=*``: every store's archive at once, as ``archive list --all-scopes``."""


def _store_id(store: Home) -> str:
    """How a form names ``store``: empty for the global one, else its project id."""
    return store.project.id if isinstance(store, ProjectHome) else ""


def archive_page(
    ui: Console,
    request: Request,
    form: Form,
    *,
    problem: str = "",
    drop: dict[str, Any] | None = None,
) -> Response:
    q = request.query_params
    project = q.get("project", "") or form.get("project", "")  # a refused restore's form
    every = project == EVERY
    stores = every_store(ui.home) if every else [ui.store(project)]
    store = stores[0]
    # a project has no USER.md: the file choice is MEMORY.md only on its own page
    kept = ("memory",) if isinstance(store, ProjectHome) and not every else TARGETS
    target = q.get("target", "")
    targets = (target,) if target in kept else kept
    query = q.get("q", "").strip()
    number = _page_number(q.get("page", "1"))
    total: int | None = None
    views = [(s, MemoryView.open(s)) for s in stores]
    seen = {id(s): v for s, v in views}
    if query:
        found = search_archive(
            views if every else views[0][1],
            query,
            targets=targets,
            limit=20,
            embedder_loader=embedder_loader_for(ui.home),
            floor=text_floor_for(ui.home),
        )
        rows = [
            {
                **_row(
                    h.item,
                    seen[id(h.store or store)],
                    _store_id(h.store or store),
                    in_memory=h.in_memory,
                ),
                "score": h.score,  # how well and by what, as `archive search` says it
                "matched": "+".join(h.matched),
                "weak": h.weak or found.no_good_match,
            }
            for h in found.hits
        ]
        weak = found.no_good_match
        notice = found.notice or ""
        if found.no_good_match:
            notice = " ".join(filter(None, [no_good_match_message("the archive"), notice]))
    else:
        notice = ""
        weak = False
        if every:
            items = [(s.store, s.item, s.in_memory) for s in every_archive(stores, target or None)]
        else:
            listed = arch.archive_listing(views[0][1], target if target in kept else None)
            items = [(store, a, listed.in_memory(a)) for a in listed.items]
            notice = " ".join(arch.unread_note(exc.to_page()) for exc in listed.unread)
        total = len(items)
        first = (number - 1) * PAGE_ITEMS
        rows = [
            _row(a, seen[id(s)], _store_id(s), in_memory=back)
            for s, a, back in items[first : first + PAGE_ITEMS]
        ]
    done = q.get("done", "")
    notice = NOTICES.get(done, notice)
    if done in NOTICES:
        notice += evicted_note(
            q.get("evicted", ""), "they are at the top of this list", q.get("archived", "")
        )
    staged = q.get("staged", "")
    if staged:
        notice = f"Staged for approval as {staged}: nothing is restored until it is approved."
    names = {p.project.id: p.project.path or p.project.id for p in stored_projects(ui.home)}
    for row in rows:
        row["store_name"] = (
            f"project {names.get(row['project'], row['project'])}" if row["project"] else "global"
        )
    return page(
        request,
        "archive.html",
        status=409 if problem else 200,
        title="Archive",
        active="archive",
        notice=notice,
        problem=problem,
        rows=rows,
        weak=weak,
        total=total,
        first=(number - 1) * PAGE_ITEMS,
        number=number,
        pages=0 if total is None else -(-total // PAGE_ITEMS),
        query=query,
        target=target,
        targets=kept,
        files=FILENAMES,
        drop=drop,
        project=project,
        every=every,
        where=store.project.path or project if isinstance(store, ProjectHome) and not every else "",
        projects=list(names.items()),
    )


def _page_number(value: str) -> int:
    """``?page=N`` of the listing (1: the newest :data:`PAGE_ITEMS`)."""
    if not (value.isascii() and value.isdigit()) or len(value) > 9 or int(value) < 1:
        raise InvalidArgument("page", "page must be a page number (1 or more).")
    return int(value)


def restore(ui: Console, request: Request, form: Form) -> Response:
    """Bring one archived entry back (``mnemic memory archive restore ID``)."""
    item_id = form.get("id", "")
    project = form.get("project", "")
    mem = ui.memory(project or None)
    item = arch.show(mem, item_id)
    try:
        result = arch.restore(mem, item_id)
    except ToolError as exc:
        add_candidates(mem, exc)
        drop = _current(mem, item.target)
        for e in drop.get("entries", []):  # marked by their Remove buttons (first-week #41)
            e["why"] = best_dropped(exc).get(e["handle"], "")
        return archive_page(ui, request, form, problem=exc.to_page(), drop=drop)
    back = EVERY if form.get("view", "") == EVERY else project  # the page it came from
    store = f"&project={quote(back, safe='')}" if back else ""
    if result.staged:
        return see_other(f"/archive?staged={result.pending_id}{store}")
    gone = evicted_query(mem, result) if result.evicted else ""
    return see_other(f"/archive?done={'restored' if result.written else 'noop'}{gone}{store}")


ROUTES = [
    Route("/archive", endpoint(archive_page)),
    Route("/archive/restore", endpoint(restore), methods=["POST"]),
]
