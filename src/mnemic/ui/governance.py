"""The Pending and Audit pages: the approval queues of the global store and every
project store worked by a person, each store's writes under its name (approve, reject,
the diff against the current files, what expiry does; a form names its store by its id,
never by a path) and the hash-chained journals of the global store and every project
store (:mod:`mnemic.ops.audit_log`) as one filterable table naming each record's store,
with each store's verify status."""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any

from starlette.routing import Route

from ..curated.scope import every_store, stored_projects
from ..errors import InvalidArgument
from ..ops.audit_log import store_label, store_records, verify_stores
from ..ops.pending_stores import StoreQueue
from ..ops.review import PendingQueue
from .console import Console, Form, endpoint, see_other
from .render import page

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from ..home import Home

__all__ = ["ROUTES", "audit_rows", "duration", "parse_time"]

AUDIT_FILTERS = ("actor", "action", "target", "result")
AUDIT_LIMIT = 500
GLOBAL = "global"
"""The ``store`` query value of the global store (a project store's is its id)."""


def _queue(ui: Console, project: str) -> StoreQueue:
    """The queue of the store ``project`` names by id ('' is the global store;
    :meth:`Console.store`), worked as the ``ui`` actor."""
    return StoreQueue(ui.store(project), PendingQueue(ui.memory(project or None)))


def _store_view(where: StoreQueue, now: float) -> dict[str, Any]:
    """One store's queue as the page shows it: under the store's name, with the id its
    forms carry ('' for the global store)."""
    queue = where.queue
    items: list[dict[str, Any]] = []
    for r in queue.records():
        try:
            diff = queue.diff(r.id)
        except Exception as exc:  # one unreadable record must not hide the others
            diff = f"The diff cannot be computed: {exc}"
        items.append(
            {
                "record": r,
                "expired": r.expired(now),
                "changed": queue.changed_since_staged(r),
                "diff": diff.splitlines(),
            }
        )
    label = where.label
    return {
        "project": label["project"] or label["project_id"],
        "project_id": label["project_id"] or "",
        "items": items,
        "problems": queue.problems(),
    }


def pending_page(ui: Console, request: Request, form: Form, problem: str = "") -> Response:
    queues = [_queue(ui, pid) for pid in ["", *(h.project.id for h in stored_projects(ui.home))]]
    now = queues[0].queue.governor.clock()
    stores = [_store_view(q, now) for q in queues]
    done = request.query_params.get("done", "")
    notice = {"approved": "Approved and applied.", "rejected": "Rejected: nothing was written."}
    return page(
        request,
        "pending.html",
        status=409 if problem else 200,
        title="Pending approvals",
        active="pending",
        notice=notice.get(done, ""),
        problem=problem,
        stores=stores,
        waiting=sum(len(s["items"]) for s in stores),
        ttl=duration(ui.home.settings.approval.pending_ttl_hours),
    )


def duration(hours: float) -> str:
    """``[approval] pending_ttl_hours`` as a person says it: "7 days", "12 hours",
    "1.5 hours" (never "168.0 hours")."""
    if hours >= 24 and hours % 24 == 0:
        days = int(hours // 24)
        return f"{days} day{'s' if days != 1 else ''}"
    return f"{hours:g} hour{'s' if hours != 1 else ''}"


def _pending_id(form: Form) -> str:
    pid = form.get("id", "")
    if not pid or pid == "all":
        raise InvalidArgument("id", "Give the id of one pending write.")
    return pid


def approve(ui: Console, request: Request, form: Form) -> Response:
    """Approve the pending write ``id`` in the queue of the store ``project`` (an id;
    '' is the global store)."""
    pending_id = _pending_id(form)
    outcomes = _queue(ui, form.get("project", "")).queue.approve(pending_id)
    failed = [o for o in outcomes if not o.ok]
    if failed:
        return pending_page(
            ui, request, form, problem=f"Not applied: {failed[0].message} (it stays queued)"
        )
    return see_other("/pending?done=approved")


def reject(ui: Console, request: Request, form: Form) -> Response:
    """Reject the pending write ``id`` in the queue of the store ``project``."""
    pending_id = _pending_id(form)
    _queue(ui, form.get("project", "")).queue.reject(pending_id)
    return see_other("/pending?done=rejected")


def parse_time(value: str, *, end: bool = False) -> float | None:
    """``2026-05-01`` or ``2026-05-01T14:00`` (local time) as Unix seconds; '' is None.

    With ``end``, a bare date means the end of that day. A time at the edge of the
    calendar that has no Unix time here (the end of ``9999-12-31``, ``0001-01-01`` in a
    zone east of UTC) is minus or plus infinity: before or after every record.
    """
    value = value.strip()
    if not value:
        return None
    try:
        if len(value) == 10:
            moment = _dt.datetime.strptime(value, "%Y-%m-%d")
        else:
            moment = _dt.datetime.fromisoformat(value)
    except ValueError:
        raise InvalidArgument(
            "time", f"{value!r} is not a date (2026-05-01) or a date and time (2026-05-01T14:00)."
        ) from None
    try:
        if end and len(value) == 10:
            moment += _dt.timedelta(days=1)
        return moment.timestamp()
    except (OverflowError, ValueError, OSError):
        return float("-inf") if moment.year == _dt.MINYEAR else float("inf")


def audit_rows(records: list[dict[str, Any]], query: dict[str, str]) -> list[dict[str, Any]]:
    """The records matching the page's filters (exact actor/action/target/result, and
    ``since``/``until`` times), newest first."""
    since = parse_time(query.get("since", ""))
    until = parse_time(query.get("until", ""), end=True)
    out = []
    for r in records:
        if any(query.get(k) and str(r.get(k, "")) != query[k] for k in AUDIT_FILTERS):
            continue
        ts = r.get("ts")
        if isinstance(ts, int | float) and (
            (since is not None and ts < since) or (until is not None and ts >= until)
        ):
            continue
        out.append(r)
    out.reverse()
    return out


def _audit_stores(ui: Console, chosen: str) -> list[Home]:
    """The stores the Audit page shows: every store ('' chosen), the global one
    (``global``) or the project store whose id is ``chosen`` (:meth:`Console.store`:
    an id this home holds, never a path)."""
    if not chosen:
        return every_store(ui.home)
    if chosen == GLOBAL:
        return [ui.home]
    return [ui.store(chosen)]


def audit_page(ui: Console, request: Request, form: Form) -> Response:
    query = {k: v for k, v in request.query_params.items() if isinstance(v, str)}
    chosen = query.get("store", "")
    stores = _audit_stores(ui, chosen)
    # an expiry-only change reads as `expiry` (the record says noop), its moves noted
    records = [
        {
            **item.as_dict(),
            "result": item.result,
            "expiry_note": "; ".join(move.describe() for move in item.expiry),
        }
        for item in store_records(stores)
    ]
    choices = {k: sorted({str(r.get(k, "")) for r in records} - {""}) for k in AUDIT_FILTERS}
    rows = audit_rows(records, query)
    return page(
        request,
        "audit.html",
        title="Audit journal",
        active="audit",
        rows=rows[:AUDIT_LIMIT],
        shown_limit=AUDIT_LIMIT if len(rows) > AUDIT_LIMIT else 0,
        matched=len(rows),
        total=len(records),
        query=query,
        choices=choices,
        chosen=chosen,
        projects=[(h.project.id, h.project.path or h.project.id) for h in stored_projects(ui.home)],
        verified=[(store_label(h), report) for h, report in verify_stores(stores)],
    )


ROUTES = [
    Route("/pending", endpoint(pending_page)),
    Route("/pending/approve", endpoint(approve), methods=["POST"]),
    Route("/pending/reject", endpoint(reject), methods=["POST"]),
    Route("/audit", endpoint(audit_page)),
]
