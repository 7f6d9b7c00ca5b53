"""The Tidy page: what ``mnemic memory tidy`` proposes (merge near-duplicates, supersede
contradicted entries, drop stale ones, shorten long ones) for the global memory and for
each project store, each store's proposals under its name, with their entries and
reasons, and a button that stages one in that store's own approval queue as the ``ui``
actor (the form names the store by its id, never by a path); nothing changes until it
is approved. Thin over :func:`mnemic.ops.tidy.tidy_stores`.

Under each store, "Why not these two?": a GET form (it reads, never writes) that names
the store by its id and two of its entries by ``TARGET:HANDLE``, answered by
:func:`mnemic.ops.tidy.explain.explain_pair` in the words ``mnemic memory tidy --explain``
prints; an entry the threat scan hides is offered and shown by its handle only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from starlette.routing import Route

from ..curated.entries import FILENAMES, TARGETS, entry_handle, preview
from ..curated.scope import ProjectHome, every_store, stored_projects
from ..curated.snapshot import sanitize
from ..curated.view import MemoryView
from ..errors import InvalidArgument, MnemicError
from ..ops.tidy import StoreTidy, stage, tidy_stores, waiting
from ..sessions import embedder_loader_for
from .console import Console, Form, endpoint, see_other
from .render import page

if TYPE_CHECKING:
    from collections.abc import Sequence

    from starlette.requests import Request
    from starlette.responses import Response

    from ..home import Home

__all__ = ["ROUTES"]

ROLES = {"merge": "keep", "supersede": "keep", "stale": "drop", "verbose": "shorten"}


def _runs(ui: Console, stores: Sequence[Home]) -> list[StoreTidy]:
    return tidy_stores(stores, targets=TARGETS, embedder_loader=embedder_loader_for(ui.home))


def _project_id(run: StoreTidy) -> str:
    return run.store.project.id if isinstance(run.store, ProjectHome) else ""


def _store_view(ui: Console, run: StoreTidy) -> dict[str, Any]:
    """One store's proposals as the page shows them, under the store's name and with the
    id its stage forms carry ('' for the global store)."""
    pid = _project_id(run)
    skipped = waiting(ui.memory(pid or None), run.report.proposals)
    items = [
        {
            "p": p,
            "entries": [(ROLES[p.kind] if i == 0 else "drop", e) for i, e in enumerate(p.entries)],
            "waiting": skipped.get(p.fingerprint, ""),
        }
        for p in run.report.proposals
    ]
    return {
        "project": run.project,
        "project_id": pid,
        "items": items,
        "choices": _choices(MemoryView.open(run.store), _targets(run.store)),
        "explained": None,
    }


def _targets(store: Home) -> tuple[str, ...]:
    """The files tidy reads in ``store``: a project store has MEMORY.md alone."""
    return ("memory",) if isinstance(store, ProjectHome) else TARGETS


def _choices(view: MemoryView, targets: Sequence[str]) -> list[dict[str, Any]]:
    """Each file's entries for the two pickers: value ``TARGET:HANDLE``, label a preview
    of the text, or the handle alone for an entry the threat scan hides."""
    out = []
    for t in targets:
        try:
            entries = list(view.listing(t).entries)
        except MnemicError:  # unreadable: the page's notices say why; nothing to pick
            continue
        hidden = {i for i, _, _ in sanitize(t, entries, view.level).blocked}
        options = [
            (
                f"{t}:{entry_handle(e)}",
                f"[hidden by the threat scan: {entry_handle(e)}]"
                if i in hidden
                else preview(e, 70),
            )
            for i, e in enumerate(entries)
        ]
        out.append({"file": FILENAMES[t], "options": options})
    return out


def tidy_page(
    ui: Console, request: Request, form: Form, explained: dict[str, Any] | None = None
) -> Response:
    runs = _runs(ui, every_store(ui.home))
    stores = [_store_view(ui, run) for run in runs]
    extra: list[str] = []
    if explained is not None:
        for s in stores:
            if s["project_id"] == explained["project_id"]:
                s["explained"] = explained
        extra = explained["notices"]
    done = request.query_params.get("done", "")
    notice = ""
    if done == "staged":
        notice = "Staged: approve or reject it on the Pending page."
        store = ui.store(request.query_params.get("project", ""))
        if isinstance(store, ProjectHome):
            where = store.project.path or store.project.id
            notice = (
                "Staged in the project's own approval queue: approve or reject it on the "
                f"Pending page, under Project {where}."
            )
    return page(
        request,
        "tidy.html",
        title="Tidy",
        active="tidy",
        notice=notice,
        stores=stores,
        notices=list(dict.fromkeys([*(n for run in runs for n in run.report.notices), *extra])),
        retrieval=runs[0].report.retrieval,
    )


def stage_one(ui: Console, request: Request, form: Form) -> Response:
    """Stage the proposal ``id`` of the store ``project`` (an id; '' is the global
    store) in that store's queue, if the store still proposes it."""
    project = form.get("project", "")
    [run] = _runs(ui, [ui.store(project)])
    fingerprint = form.get("id", "")
    chosen = [p for p in run.report.proposals if p.fingerprint == fingerprint]
    if not chosen:
        raise InvalidArgument(
            "id", "That proposal is no longer made (memory changed since the page was shown)."
        )
    [result] = stage(ui.memory(project or None), chosen)
    if result.pending_id is None:
        raise InvalidArgument("id", f"Not staged: {result.skipped}")
    if project:
        where = quote(project, safe="")
        return see_other(f"/tidy?done=staged&project={where}#tidy-project-{where}")
    return see_other("/tidy?done=staged")


def _where(store: Home, target: str) -> str:
    """A file of a store, for a person: "MEMORY.md of the global memory"."""
    if isinstance(store, ProjectHome):
        return f"{FILENAMES[target]} of project {store.project.path or store.project.id}"
    return f"{FILENAMES[target]} of the global memory"


def _pick(ui: Console, store: Home, field: str, value: str) -> tuple[Home, str, int]:
    """The entry ``value`` (``TARGET:HANDLE``) names: its store, file and index. An
    entry of another store of the home is found there (so the answer can say tidy
    never compares the two); one no store holds is refused."""
    target, _, handle = value.partition(":")
    if not value:
        raise InvalidArgument(field, "Pick two entries, A and B, then ask why not.")
    if target not in TARGETS or not handle:
        raise InvalidArgument(
            field, f"{value!r} names no entry: the form sends a file and an entry:<hex> handle."
        )
    if target == "user" and isinstance(store, ProjectHome):
        raise InvalidArgument(field, "USER.md is global only: a project has MEMORY.md alone.")
    others = [h for h in [ui.home, *stored_projects(ui.home)] if h.root != store.root]
    for home in [store, *others]:
        if target == "user" and isinstance(home, ProjectHome):
            continue
        try:
            entries = MemoryView.open(home).listing(target).entries
        except MnemicError:
            if home is store:
                raise  # the page says why this store's file cannot be read
            continue
        for i, e in enumerate(entries):
            if entry_handle(e) == handle:
                return home, target, i
    raise InvalidArgument(
        field,
        f"No entry of {_where(store, target)} has the handle {handle}: memory changed "
        "since the page was shown. Reload the page and pick the two entries again.",
    )


def explain_one(ui: Console, request: Request, form: Form) -> Response:
    """Why tidy proposes, or does not, anything for entries ``a`` and ``b`` of the store
    ``project`` (an id; '' is the global store): the Tidy page with the answer under
    that store. Reads only."""
    from ..ops.tidy.explain import explain_pair  # only this form reads it

    query = request.query_params
    project = query.get("project", "")
    store = ui.store(project)
    (sa, ta, ia), (sb, tb, ib) = (_pick(ui, store, k, query.get(k, "")) for k in ("a", "b"))
    if sa.root == sb.root and ta == tb and ia == ib:
        raise InvalidArgument("b", "A and B name the same entry. Pick two different entries.")
    if sa.root != sb.root or ta != tb:
        raise InvalidArgument(
            "b",
            f"A is in {_where(sa, ta)} and B in {_where(sb, tb)}: tidy compares the entries "
            "of one file of one store only, so it never proposes anything for these two. "
            "To have them compared, move one first (a project's entry: Move to global on "
            "the Memory page).",
        )
    result = explain_pair(
        MemoryView.open(sa), ta, ia, ib, embedder_loader=embedder_loader_for(ui.home)
    )
    explained = {
        "project_id": sa.project.id if isinstance(sa, ProjectHome) else "",
        "a": query.get("a", ""),
        "b": query.get("b", ""),
        "where": _where(sa, ta),
        "shown": list(zip("AB", result.shown, strict=True)),
        "headline": result.headline,
        "why": list(result.why),
        "next": result.next_step(console=True),
        "outcome": result.outcome,
        "proposal": result.proposal.fingerprint
        if result.proposal is not None and result.outcome in ("merge", "supersede")
        else "",
        "notices": list(result.notices),
    }
    return tidy_page(ui, request, form, explained)


ROUTES = [
    Route("/tidy", endpoint(tidy_page)),
    Route("/tidy/stage", endpoint(stage_one), methods=["POST"]),
    Route("/tidy/explain", endpoint(explain_one)),
]
