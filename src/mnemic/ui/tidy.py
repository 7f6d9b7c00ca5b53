"""The Tidy page: what ``mnemic memory tidy`` proposes (merge near-duplicates, supersede
contradicted entries, drop stale ones, shorten long ones), each with its entries and
reasons, and a button that stages it in the approval queue as the ``ui`` actor; nothing
changes until it is approved on the Pending page. Thin over :mod:`mnemic.ops.tidy`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.routing import Route

from ..errors import InvalidArgument
from ..ops.tidy import propose, stage, waiting
from ..sessions import embedder_loader_for
from .console import Console, Form, endpoint, see_other
from .render import page

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from ..ops.tidy import TidyReport

__all__ = ["ROUTES"]

ROLES = {"merge": "keep", "supersede": "keep", "stale": "drop", "verbose": "shorten"}


def _report(ui: Console) -> TidyReport:
    return propose(ui.view(), embedder_loader=embedder_loader_for(ui.home))


def tidy_page(ui: Console, request: Request, form: Form) -> Response:
    report = _report(ui)
    skipped = waiting(ui.memory(), report.proposals)
    items = [
        {
            "p": p,
            "entries": [(ROLES[p.kind] if i == 0 else "drop", e) for i, e in enumerate(p.entries)],
            "waiting": skipped.get(p.fingerprint, ""),
        }
        for p in report.proposals
    ]
    done = request.query_params.get("done", "")
    return page(
        request,
        "tidy.html",
        title="Tidy",
        active="tidy",
        notice="Staged: approve or reject it on the Pending page." if done == "staged" else "",
        items=items,
        notices=report.notices,
        retrieval=report.retrieval,
    )


def stage_one(ui: Console, request: Request, form: Form) -> Response:
    fingerprint = form.get("id", "")
    report = _report(ui)
    chosen = [p for p in report.proposals if p.fingerprint == fingerprint]
    if not chosen:
        raise InvalidArgument(
            "id", "That proposal is no longer made (memory changed since the page was shown)."
        )
    [result] = stage(ui.memory(), chosen)
    if result.pending_id is None:
        raise InvalidArgument("id", f"Not staged: {result.skipped}")
    return see_other("/tidy?done=staged")


ROUTES = [
    Route("/tidy", endpoint(tidy_page)),
    Route("/tidy/stage", endpoint(stage_one), methods=["POST"]),
]
