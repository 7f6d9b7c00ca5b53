"""The Tidy page: what ``mnemic memory tidy`` proposes (merge near-duplicates, supersede
contradicted entries, drop stale ones, shorten long ones) for the global memory and for
each project store, each store's proposals under its name, with their entries and
reasons, and a button that stages one in that store's own approval queue as the ``ui``
actor (the form names the store by its id, never by a path); nothing changes until it
is approved. Thin over :func:`mnemic.ops.tidy.tidy_stores`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from starlette.routing import Route

from ..curated.entries import TARGETS
from ..curated.scope import ProjectHome, every_store
from ..errors import InvalidArgument
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
    return {"project": run.project, "project_id": pid, "items": items}


def tidy_page(ui: Console, request: Request, form: Form) -> Response:
    runs = _runs(ui, every_store(ui.home))
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
        stores=[_store_view(ui, run) for run in runs],
        notices=list(dict.fromkeys(n for run in runs for n in run.report.notices)),
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


ROUTES = [
    Route("/tidy", endpoint(tidy_page)),
    Route("/tidy/stage", endpoint(stage_one), methods=["POST"]),
]
