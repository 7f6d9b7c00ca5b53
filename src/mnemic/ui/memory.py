"""The Memory page: both targets with their usage, entries with provenance, the forms
that add, edit and remove entries (through :meth:`Memory.apply`, as the ``ui`` actor:
scanner, lock and approval gate as for the memory tool), drift with the adopt preview,
and the history with a side-by-side diff and restore; then each project store's
MEMORY.md (:mod:`mnemic.curated.scope`) with the same add, edit and remove forms and a
move to the global memory (named by the store's id, never by a path). Pages that only
show memory read it through a :class:`~mnemic.curated.view.MemoryView`: each target's
text and ledger once, its history listed once."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from starlette.routing import Route

from ..curated import admin
from ..curated.archive import archived_now
from ..curated.backend import version_text
from ..curated.entries import FILENAMES, TARGETS, entry_handle
from ..curated.operations import NO_EXPIRY, Op
from ..curated.pressure import (
    add_candidates,
    describe_expires,
    given_as,
    parse_expires,
    policy,
)
from ..curated.provenance import entry_key
from ..curated.results import WriteResult
from ..curated.scope import ProjectHome, stored_projects
from ..curated.snapshot import display_entry
from ..curated.usage_log import UsageCounts, describe_use, read_counts
from ..curated.view import MemoryView
from ..errors import BatchFailed, BudgetExceeded, InvalidArgument, MnemicError, ToolError
from ..governance.held import held_sentence
from ..governance.pending import valid_id
from ..governance.storage import open_pending, waiting
from ..ops.move import move_entry
from .console import ACTOR, Console, Form, endpoint, see_other
from .render import evicted_note, page, side_by_side, when

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = ["ROUTES"]

NOTICES = {
    "add": "Entry added.",
    "replace": "Entry updated.",
    "remove": "Entry removed.",
    "adopt": "The edited file was adopted as entries.",
    "restore": "Version restored; the text it replaced is kept in the history.",
    "noop": "Nothing changed (that entry is already there).",
    "move": "Entry moved to the global memory; the project's archive keeps it (reason moved).",
}


@dataclass(frozen=True, slots=True)
class EntryView:
    """One entry as the page shows it: never the raw text of a blocked entry."""

    index: int
    handle: str
    text: str
    findings: tuple[str, ...]
    provenance: str
    until: str = ""
    """Its expiry as its edit form's "Valid until" shows it ("": none)."""


def until_input(when: float | None) -> str:
    """An expiry as the "Valid until" field takes it (UTC, :func:`parse_expires`), in the
    terms it was given in (:func:`given_as`: a date, valid through that day, or
    ``YYYY-MM-DDTHH:MM``); "" for none. One past 9999 (kept before it was refused) shows
    as its time, so that a form saved as shown keeps it."""
    if when is None:
        return ""
    return given_as(when) or time.strftime("%Y-%m-%dT%H:%M", time.gmtime(when))


def _expiry_of(mem: MemoryView, target: str, handle: str) -> float | None:
    """The expiry of the entry ``handle`` of ``target`` (``None``: none, or no entry)."""
    listed = mem.listing(target)
    for entry, prov in zip(listed.entries, listed.provenance, strict=True):
        if entry_handle(entry) == handle:
            return prov.expires if prov is not None else None
    return None


def _provenance(p: Any) -> str:
    if p is None or p.actor == "unknown":
        return "provenance unknown"
    who = "edited by hand" if p.actor == "hand" else f"by {p.actor}"
    if p.origin and p.origin not in (p.actor, "agent"):
        who += f" ({p.origin})"
    parts = [who]
    if p.updated is not None:
        parts.append(f"updated {when(p.updated)}")
    if p.created is not None and p.created != p.updated:
        parts.append(f"created {when(p.created)}")
    if p.session_id:
        parts.append(f"session {p.session_id}")
    if p.expires is not None:
        parts.append(describe_expires(p.expires, time.time()))
    return ", ".join(parts)


def _target_views(mem: MemoryView) -> list[dict[str, Any]]:
    counts = read_counts(mem.root)  # once per page
    views = [_target_view(mem, t, counts) for t in TARGETS]
    return _with_waiting(mem, views)


def _with_waiting(mem: MemoryView, views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each view with ``waiting``: how many writes to its file wait for approval."""
    counted = waiting(mem.root, mem.settings) if mem.root is not None else {}
    for view in views:
        view["waiting"] = counted.get(view["target"], 0)
    return views


def _target_view(mem: MemoryView, target: str, counts: UsageCounts) -> dict[str, Any]:
    view: dict[str, Any] = {"target": target, "file": FILENAMES[target], "error": ""}
    try:
        listed = mem.listing(target)
    except MnemicError as exc:
        view["error"] = exc.to_human()
        return view
    entries = []
    for i, (entry, prov) in enumerate(zip(listed.entries, listed.provenance, strict=True), 1):
        shown, ids = display_entry(target, entry, mem.level)
        about = (
            _provenance(prov) + "; " + describe_use(counts, entry_key(entry), prov.last_confirmed)
        )
        until = until_input(prov.expires if prov is not None else None)
        entries.append(EntryView(i, entry_handle(entry), "" if ids else shown, ids, about, until))
    usage = listed.usage
    view.update(
        entries=entries,
        usage=usage,
        pressure=usage.limit and usage.chars / usage.limit >= mem.settings.memory.pressure_ratio,
        evicts=policy(mem, target) != "refuse",
        location=mem.backend.location(target),
        history=list(reversed(mem.backend.history(target))),
        in_prompt=mem.in_prompt(target),
    )
    plan = admin.adopt_plan(target, listed.raw, usage.limit)
    view["drift"] = plan.drift
    view["adopt_hash"] = plan.raw_hash
    view["adopt"] = [display_entry(target, e, mem.level)[0] for e in plan.entries]
    view["adopt_usage"] = plan.usage
    return view


def memory_page(ui: Console, request: Request, form: Form) -> Response:
    mem = ui.view()
    done = request.query_params.get("done", "")
    notice = NOTICES.get(done, "")
    if notice:
        project = request.query_params.get("project", "")
        archive = "/archive" + (f"?project={project}" if project else "")
        notice += evicted_note(
            request.query_params.get("evicted", ""),
            f"the newest on the Archive page ({archive})",
            request.query_params.get("archived", ""),
        )
    staged = request.query_params.get("staged", "")
    if staged:
        notice = f"Staged for approval as {staged}: nothing is saved until it is approved."
        held = _held(ui, staged)
        if held:
            notice += f" {held_sentence(held)}"
        notice += " Approve or reject it on the Pending page."
    return page(
        request,
        "memory.html",
        title="Memory",
        active="memory",
        notice=notice,
        targets=_target_views(mem),
        projects=_projects(ui),
    )


def _held(ui: Console, pending_id: str) -> str:
    """Why the threat scanner held the memory write ``pending_id`` of any store's queue
    ('': the policy staged it, or it is no longer queued)."""
    if not valid_id(pending_id):
        return ""
    for home in [ui.home, *stored_projects(ui.home)]:
        try:
            queue = open_pending(home.root, home.settings, "memory")
            if queue.has(pending_id):
                return queue.read(pending_id).held
        except MnemicError:
            continue
    return ""


def _projects(ui: Console) -> list[dict[str, Any]]:
    """Each project store's MEMORY.md: its directory, usage, entries, and its id (which
    the forms carry: :meth:`Console.store`)."""
    out = []
    for home in stored_projects(ui.home):
        mem = MemoryView.open(home)
        (view,) = _with_waiting(mem, [_target_view(mem, "memory", read_counts(mem.root))])
        view["project"] = home.project.path or home.project.id
        view["project_id"] = home.project.id
        # as `memory status` marks it (docs/first-week.md #85): no session reaches it now
        view["gone"] = bool(home.project.path) and home.selector == home.project.id
        out.append(view)
    return out


def _target(form: Form) -> str:
    target = form.get("target", "")
    if target not in TARGETS:
        raise InvalidArgument("target", f"Unknown target {target!r}; use memory or user.")
    if form.get("project") and target != "memory":
        raise InvalidArgument("target", "USER.md is global only: a project has MEMORY.md alone.")
    return target


def _back(form: Form, query: str) -> str:
    """Where a write's page goes next: the Memory page at the store it changed."""
    project = form.get("project", "")
    return f"/memory?{query}" + (f"#project-{project}" if project else "")


def _write(ui: Console, request: Request, form: Form, op: Op) -> Response:
    target = _target(form)
    mem = ui.memory(form.get("project") or None)
    until = form.get("expires", "").strip() if op.action in ("add", "replace") else ""
    try:
        was = _expiry_of(mem, target, op.old_text or "") if op.action == "replace" else None
        if was is not None and until == until_input(was):  # kept as the form showed it
            op = dataclasses.replace(op, expires=was)
        elif was is not None and not until:  # emptied: no expiry, also if the text stays
            op = dataclasses.replace(op, expires=NO_EXPIRY)
        elif until:  # as `memory add --expires` (docs/first-week.md #40)
            op = dataclasses.replace(op, expires=parse_expires(until, mem.now(), "valid until"))
        result = mem.apply(target, [op])
    except ToolError as exc:
        add_candidates(mem, exc)
        glob = mem if not form.get("project") else ui.view()
        # the draft goes back into the form it came from, not every add form on the
        # page (docs/first-week.md #45): PROJECT-ID:TARGET, and :HANDLE for an edit
        where = f"{form.get('project', '')}:{target}"
        if op.action == "replace":
            where += f":{form.get('entry', '')}"
        return _refused(
            ui,
            request,
            exc,
            glob,
            draft=op.content or "",
            draft_for=where,
            draft_until=until,
            drop_first=best_dropped(exc),
        )
    if result.staged:
        return see_other(_back(form, f"staged={result.pending_id}"))
    done = f"done={op.action if result.written else 'noop'}"
    if result.evicted:  # what left to make room, as the CLI says it (first-week #37, #44)
        done += evicted_query(mem, result)
        if form.get("project"):
            done += f"&project={quote(form['project'], safe='')}"
    return see_other(_back(form, done))


def evicted_query(mem: MemoryView, result: WriteResult) -> str:
    """The redirect's ``&evicted=N&archived=IDS`` after a write that made room: how many
    entries left and their archive ids (the journal record's, read back now that the write
    committed: first-week #44), for :func:`~.render.evicted_note`."""
    ids = archived_now(mem, [(t, e) for t, e, _ in result.evicted])
    known = ",".join(aid for aid in ids if aid)
    return f"&evicted={len(result.evicted)}" + (f"&archived={known}" if known else "")


def best_dropped(exc: ToolError) -> dict[str, str]:
    """By handle, why the entries a refusal for room names are best dropped first ({}
    for another refusal): the page marks them by their Remove buttons (first-week #41)."""
    cause = exc.cause if isinstance(exc, BatchFailed) else exc
    return cause.page_reasons() if isinstance(cause, BudgetExceeded) else {}


def _refused(
    ui: Console,
    request: Request,
    why: ToolError | str,
    glob: MemoryView,
    *,
    draft: str = "",
    draft_for: str = "",
    draft_until: str = "",
    drop_first: dict[str, str] | None = None,
) -> Response:
    """The whole Memory page again (409) saying why a write or an adopt was refused, the
    draft kept."""
    return page(
        request,
        "memory.html",
        status=409,
        title="Memory",
        active="memory",
        problem=why.to_page() if isinstance(why, ToolError) else why,
        draft=draft,
        draft_for=draft_for,
        draft_until=draft_until,
        drop_first=drop_first or {},
        targets=_target_views(glob),
        projects=_projects(ui),
    )


def add(ui: Console, request: Request, form: Form) -> Response:
    return _write(ui, request, form, Op("add", form.get("content", "")))


def replace(ui: Console, request: Request, form: Form) -> Response:
    return _write(ui, request, form, Op("replace", form.get("content", ""), form.get("entry", "")))


def remove(ui: Console, request: Request, form: Form) -> Response:
    return _write(ui, request, form, Op("remove", None, form.get("entry", "")))


def move(ui: Console, request: Request, form: Form) -> Response:
    """Move a project entry to the global memory (:mod:`mnemic.ops.move`: added there
    first, under its budget, scan and gate; then archived in the project, reason
    ``moved``)."""
    store = ui.store(form.get("project", ""))
    if not isinstance(store, ProjectHome):
        raise InvalidArgument("project", "Name the project whose entry goes to global memory.")
    directory = store.project.path
    if not directory:
        raise InvalidArgument("project", "That project store does not record its directory.")
    try:
        result = move_entry(ui.home, directory, form.get("entry", ""), to="global", origin=ACTOR)
    except ToolError as exc:
        return _refused(ui, request, exc, ui.view())
    if not result.done:
        return see_other(f"/memory?staged={result.added.pending_id}")
    return see_other("/memory?done=move")


def adopt(ui: Console, request: Request, form: Form) -> Response:
    """Adopt what the page showed, or nothing: the form carries the hash of the file the
    preview was made from, and a file changed since (by anyone) is refused unwritten."""
    mem = ui.memory()
    target = _target(form)
    plan = admin.plan_adopt(mem, target)
    if plan.raw_hash != form.get("hash", ""):
        why = (
            f"{FILENAMES[target]} changed after this page showed what adopting it would give; "
            "nothing was adopted. Look at the preview below, then adopt again."
        )
        return _refused(ui, request, why, mem)
    if plan.drift is not None:
        admin.adopt(mem, plan)  # refuses, under the lock, a file changed since this plan
    return see_other("/memory?done=adopt")


def _version(form: Form | Any) -> int:
    try:
        return int(form.get("version", ""))
    except ValueError:
        raise InvalidArgument("version", "The version must be a number.") from None


def history(ui: Console, request: Request, form: Form) -> Response:
    query = dict(request.query_params)
    if not query.get("target") and not query.get("version"):  # typed in, not followed:
        return see_other("/memory")  # the versions are listed under each file there
    mem = ui.view()
    target = _target(query)
    version = _version(query)
    old = version_text(mem.backend, target, version)
    new = mem.backend.read(target) or ""
    return page(
        request,
        "history.html",
        title=f"{FILENAMES[target]} version {version}",
        active="memory",
        target=target,
        file=FILENAMES[target],
        version=version,
        rows=side_by_side(old, new),
        same=old == new,
    )


def restore(ui: Console, request: Request, form: Form) -> Response:
    admin.restore(ui.memory(), _target(form), _version(form))
    return see_other("/memory?done=restore")


ROUTES = [
    Route("/memory", endpoint(memory_page)),
    Route("/memory/add", endpoint(add), methods=["POST"]),
    Route("/memory/replace", endpoint(replace), methods=["POST"]),
    Route("/memory/remove", endpoint(remove), methods=["POST"]),
    Route("/memory/adopt", endpoint(adopt), methods=["POST"]),
    Route("/memory/move", endpoint(move), methods=["POST"]),
    Route("/memory/history", endpoint(history)),
    Route("/memory/restore", endpoint(restore), methods=["POST"]),
]
