"""``mnemic pending | audit | gc | forget | stats``: governance of a home."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import click

from ..governance.chain import VerifyReport
from ..ops.audit_log import store_label, store_records, verify_stores
from ..ops.forget import forget_sessions, forget_user
from ..ops.retention import collect_garbage
from ..ops.review import PendingQueue
from ..ops.stats import collect_stats
from .app import (
    GLOBAL_OPT,
    JSON_OPT,
    PROJECT_OPT,
    AppContext,
    emit_json,
    fail,
    handle_errors,
    pass_app,
    printable,
    project_opt,
    spanned_stores,
)

__all__ = [
    "audit",
    "forget",
    "gc",
    "pending",
    "stats",
]


def _when(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def _queue(app: AppContext, *, write: bool = False) -> PendingQueue:
    """The pending queue: approving and rejecting may create the home, listing and
    showing need an existing one (nothing is created for a mistyped MNEMIC_HOME)."""
    return PendingQueue.open(app.memory_home(write=write), origin="cli")


# -- pending ---------------------------------------------------------------------------


@click.group(name="pending")
def pending() -> None:
    """Writes waiting for approval: list, show, diff, approve, reject.

    \b
    Staged writes come from sessions whose policy is 'stage' (or 'ask' with nobody to
    ask), and from unattended writers (flush, review) that replace or remove. Nothing
    staged touches MEMORY.md or USER.md until it is approved; approving re-checks it
    against the current files, so it can still be refused cleanly.
    """


@pending.command(name="list")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def pending_list(app: AppContext, as_json: bool) -> None:
    """List pending writes, oldest first."""
    queue = _queue(app)
    now = queue.governor.clock()
    records = queue.records()
    problems = queue.problems()
    if as_json:
        emit_json(
            {
                "pending": [
                    {**r.as_dict(), "expired": r.expired(now), "detail": None} for r in records
                ],
                "problems": [{"path": p, "reason": why} for p, why in problems],
            }
        )
        return
    for path, why in problems:
        click.echo(f"warning: {path}: {why}", err=True)
    if not records:
        click.echo("No pending writes.")
        return
    click.echo(f"Pending writes ({len(records)}):")
    for r in records:
        flag = "  [expired]" if r.expired(now) else ""
        who = r.actor if r.origin == r.actor else f"{r.actor}/{r.origin}"
        click.echo(f"  {r.id}  {_when(r.created_at)}  {who:<20} {_cell(r.summary)}{flag}")
    click.echo(
        "Review: mnemic pending diff ID   Apply: mnemic pending approve ID|all   "
        "Drop: mnemic pending reject ID|all"
    )


@pending.command(name="show")
@click.argument("pending_id")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def pending_show(app: AppContext, pending_id: str, as_json: bool) -> None:
    """Show one pending write in full."""
    queue = _queue(app)
    r = queue.get(pending_id)
    now = queue.governor.clock()
    changed = queue.changed_since_staged(r)
    if as_json:
        emit_json({**r.as_dict(), "expired": r.expired(now), "changed_since_staged": changed})
        return
    click.echo(f"id:        {r.id} ({r.subsystem})")
    click.echo(f"from:      {r.actor} / {r.origin} (session {r.session_id})")
    click.echo(f"staged:    {_when(r.created_at)}")
    state = "EXPIRED" if r.expired(now) else "expires"
    click.echo(f"{state + ':':<10} {_when(r.expires_at)}")
    if changed:
        click.echo("note:      the file changed since it was staged (see `mnemic pending diff`)")
    click.echo(f"summary:   {_cell(r.summary)}")
    click.echo("")
    click.echo(printable(r.detail))


@pending.command(name="diff")
@click.argument("pending_id")
@PROJECT_OPT
@pass_app
@handle_errors
def pending_diff(app: AppContext, pending_id: str) -> None:
    """What approving would change now, checked against the current files."""
    click.echo(printable(_queue(app).diff(pending_id).rstrip("\n")))


@pending.command(name="approve")
@click.argument("which", metavar="ID|all")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def pending_approve(app: AppContext, which: str, as_json: bool) -> None:
    """Apply pending writes through the normal write path (exit 1 if any failed)."""
    outcomes = _queue(app, write=True).approve(which)
    if as_json:
        emit_json([o.as_dict() for o in outcomes])
    else:
        if not outcomes:
            click.echo("No pending writes.")
        for o in outcomes:
            if o.ok:
                click.echo(f"approved {o.id}: {_cell(o.summary)} ({o.message})")
            else:
                click.echo(f"FAILED   {o.id}: {_cell(o.summary)}\n  {o.message}", err=True)
    if any(not o.ok for o in outcomes):
        sys.exit(1)


@pending.command(name="reject")
@click.argument("which", metavar="ID|all")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def pending_reject(app: AppContext, which: str, as_json: bool) -> None:
    """Discard pending writes."""
    records = _queue(app, write=True).reject(which)
    if as_json:
        emit_json([{"id": r.id, "summary": r.summary} for r in records])
        return
    if not records:
        click.echo("Nothing to reject.")
    for r in records:
        click.echo(f"rejected {r.id}: {_cell(r.summary)}")


# -- audit ---------------------------------------------------------------------------


@click.group(name="audit")
def audit() -> None:
    """The audit journal: every write attempt and decision, hash-chained."""


@audit.command(name="list")
@click.option("--limit", "-n", type=int, default=50, show_default=True, help="Newest N (0: all).")
@click.option("--action", help="Only this action (add, replace, approve, forget, ...).")
@click.option("--result", help="Only this result (ok, noop, staged, refused, failed).")
@GLOBAL_OPT
@JSON_OPT
@project_opt("Project DIR's records only (default: the global store's and every project's).")
@pass_app
@handle_errors
def audit_list(
    app: AppContext,
    limit: int,
    action: str | None,
    result: str | None,
    global_only: bool,
    as_json: bool,
) -> None:
    """List audit records of the global memory and every project store, oldest first,
    each naming its store (--global or --project DIR: one store's)."""
    stores = spanned_stores(app, global_only)
    found = store_records(stores, action=action, result=result, limit=limit)
    if as_json:
        emit_json([item.as_dict() for item in found])
        return
    if not found:
        click.echo("The audit journal is empty.")
        return
    named = len(stores) > 1 or app.project is not None  # a store column
    for item in found:
        r = item.record
        who = f"{_cell(r.get('actor'))}/{_cell(r.get('origin'))}"
        extra = f" {_cell(r['error'])}" if r.get("error") else ""
        if r.get("pending_id"):
            extra += f" pending={_cell(r['pending_id'])}"
        if r.get("cause"):  # a change recorded after the fact (see docs/governance.md)
            extra += f" cause={_cell(r['cause'])}"
        store = f"{_cell(item.label['project_id'] or 'global'):<20} " if named else ""
        click.echo(
            f"{_cell(r.get('seq')):>6} {_cell(r.get('time'))} {store}{who:<22} "
            f"{_cell(r.get('action')):<8} {_cell(r.get('target')):<12} "
            f"{_cell(r.get('decision')):<13} {_cell(r.get('result'))}{extra}"
        )


def _cell(value: object) -> str:
    """One field of a record as printable text (``-`` when absent): records written by
    mnemic itself lack fields that do not apply to them (a ``recovered`` record has no
    decision), and a journal edited by hand can hold anything, escape sequences included."""
    if value is None or value == "":
        return "-"
    return printable(value if isinstance(value, str) else json.dumps(value), lines=False)


@audit.command(name="verify")
@GLOBAL_OPT
@JSON_OPT
@project_opt("Project DIR's chain only (default: the global store's and every project's).")
@pass_app
@handle_errors
def audit_verify(app: AppContext, global_only: bool, as_json: bool) -> None:
    """Check every record of each store's hash chain: the global store's and every
    project store's (--global or --project DIR: one of them); exit 1 if any was tampered
    with or damaged.

    Every problem is listed, first line first. A torn tail (an append cut short by a
    crash) is noted but is not tampering: the next write cuts it and records the repair.
    """
    checked = verify_stores(spanned_stores(app, global_only))
    if as_json:
        (home, report), *rest = checked
        data = {**report.as_dict(), "store": store_label(home)}
        data["projects"] = [{**r.as_dict(), "store": store_label(h)} for h, r in rest]
        # `ok` answers "is everything intact?": a script reading it must not miss a
        # tampered project chain; this first chain's own verdict is `store_ok`
        data["store_ok"] = report.ok
        data["ok"] = all(r.ok for _, r in checked)
        emit_json(data)
    else:
        for home, report in checked:
            _say_verified(store_label(home), report)
    if not all(report.ok for _, report in checked):
        sys.exit(1)


def _say_verified(store: dict[str, Any], report: VerifyReport) -> None:
    where = store["project"]
    of = "" if where is None else f" (project {printable(where, lines=False)})"
    if report.ok:
        click.echo(
            f"OK{of}: {report.records} record(s), chain intact. Head hash: {report.last_hash}"
        )
        for note in report.notes:
            click.echo(f"note: {note}")
        for change in report.recovered:
            click.echo(f"recovered change: {change}")
        for change in report.outside_changes:
            click.echo(f"unrecorded change: {change}")
        return
    bad = [p for p in report.problems if p.kind != "torn_tail"]
    click.echo(
        f"TAMPERED OR DAMAGED{of}: {len(bad)} problem(s); {report.records} record(s) verify.",
        err=True,
    )
    for p in report.problems:
        where = f"line {p.line}" if p.line is not None else "journal"
        label = "crash damage" if p.kind == "torn_tail" else p.kind
        click.echo(f"  {where} ({label}): {p.message}", err=True)


# -- gc, forget, stats -------------------------------------------------------------------


@click.command(name="gc")
@click.option("--dry-run", is_flag=True, help="Only report what would be removed.")
@JSON_OPT
@pass_app
@handle_errors
def gc(app: AppContext, dry_run: bool, as_json: bool) -> None:
    """Apply the retention policy: old versions, backups, expired pending writes, debris."""
    report = collect_garbage(app.existing_home if dry_run else app.home, dry_run=dry_run)
    if as_json:
        emit_json(report.as_dict())
        return
    verb = "Would remove" if dry_run else "Removed"
    counts = report.counts()
    if not counts:
        click.echo("Nothing to remove.")
    else:
        click.echo(f"{verb}: " + ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items())))
        for r in report.removed:
            click.echo(f"  {r.kind:<14} {r.what}  ({r.reason})")
    for note in report.notes:
        click.echo(f"note: {note}")


@click.command(name="forget")
@click.option("--user", "user", is_flag=True, help="Remove the user profile and every copy.")
@click.option(
    "--sessions", "match", metavar="MATCH", help="Remove session messages containing MATCH."
)
@click.option("--dry-run", is_flag=True, help="Only report what would be removed.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@JSON_OPT
@pass_app
@handle_errors
def forget(
    app: AppContext, user: bool, match: str | None, dry_run: bool, yes: bool, as_json: bool
) -> None:
    """Forget for good: the user profile (--user) or session messages (--sessions MATCH).

    Copies go too (history versions, backups, pending writes, search-index entries), and
    the session database is rewritten so no byte of the text stays on disk under the home.
    The audit journal keeps only hashes, so it is not touched.
    """
    if not user and not match:
        raise click.UsageError("give --user, --sessions MATCH, or both")
    if not dry_run and not yes:
        what = " and ".join(
            x
            for x in (
                "the user profile" if user else "",
                f"messages containing {match!r}" if match else "",
            )
            if x
        )
        if not click.confirm(f"Permanently forget {what}?", default=False):
            fail("nothing was forgotten", 1)
    home = app.existing_home if dry_run else app.home
    reports = []
    if user:
        reports.append(forget_user(home, dry_run=dry_run))
    if match:
        reports.append(forget_sessions(home, match, dry_run=dry_run))
    if as_json:
        emit_json([r.as_dict() for r in reports])
        return
    verb = "Would remove" if dry_run else "Removed"
    for r in reports:
        if r.what == "user":
            click.echo(
                f"{verb} the user profile: {len(r.files)} file(s), "
                f"{len(r.pending)} pending write(s)."
            )
        else:
            click.echo(f"{verb} {r.messages} session message(s) in {r.sessions} session(s).")
        for note in r.notes:
            click.echo(f"note: {note}")


@click.command(name="stats")
@JSON_OPT
@pass_app
@handle_errors
def stats(app: AppContext, as_json: bool) -> None:
    """Metrics of this home (Prometheus text), derived from the audit journal and files."""
    result = collect_stats(app.existing_home)
    if as_json:
        emit_json(result.as_dict())
    else:
        click.echo(result.text().rstrip("\n"))
