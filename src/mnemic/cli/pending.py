"""``mnemic pending``: the approval queues of the global store and every project store.

Thin over :mod:`mnemic.ops.pending_stores`: without ``--global`` or ``--project DIR`` a
command works every store's queue (:func:`~mnemic.cli.app.spanned_stores`, as ``mnemic
audit`` does), each item named by its store; an id is found in whichever queue holds it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from ..governance.held import held_sentence, rules_note
from ..ops.pending_stores import StoreQueue, locate_pending, store_pending
from ..timefmt import local_time, utc_seconds
from .app import (
    GLOBAL_OPT,
    JSON_OPT,
    AppContext,
    cell,
    emit_json,
    handle_errors,
    pass_app,
    printable,
    project_opt,
    spanned_stores,
)

if TYPE_CHECKING:
    from ..governance.pending import PendingRecord
    from ..ops.review import ApprovalOutcome

__all__ = ["pending"]

SCOPED = project_opt(
    "Project DIR's queue only (default: the global store's and every project's; $MNEMIC_PROJECT)."
)


def _utc(r: PendingRecord) -> dict[str, str]:
    """A pending record's times as --json gives times (docs/json.md), beside its
    seconds: ``created_at_utc``, ``expires_at_utc``."""
    return {
        "created_at_utc": utc_seconds(r.created_at),
        "expires_at_utc": utc_seconds(r.expires_at),
    }


def _because(held: str) -> str | None:
    """``held_because`` of --json: why a held write waits, in a person's words (None:
    the scanner did not hold it); ``held_by_scanner`` keeps the scanner's reasons."""
    return held_sentence(held) if held else None


def _when(ts: float) -> str:
    return local_time(ts)


def _queues(app: AppContext, global_only: bool, *, write: bool = False) -> list[StoreQueue]:
    """The queues a command works: every store's, or the one store ``--global`` /
    ``--project DIR`` names. Approving and rejecting may create the home, listing and
    showing need an existing one (nothing is created for a mistyped MNEMIC_HOME)."""
    return [StoreQueue.open(s, origin="cli") for s in spanned_stores(app, global_only, write=write)]


def _named(app: AppContext, queues: list[StoreQueue]) -> bool:
    """Whether the text output has a store column (as ``audit list``)."""
    return len(queues) > 1 or app.project is not None


def _store(q: StoreQueue) -> str:
    return cell(q.label["project_id"] or "global")


def _of(q: StoreQueue) -> str:
    """`` (<project id>)`` after an id decided in a project store's queue; nothing for
    the global store's."""
    return f" ({_store(q)})" if q.label["project_id"] else ""


@click.group(name="pending")
def pending() -> None:
    """Writes waiting for approval: list, show, diff, approve, reject.

    \b
    Staged writes come from sessions whose policy is 'stage' (or 'ask' with nobody to
    ask), and from unattended writers (flush, review, tidy) that replace or remove. Nothing
    staged touches MEMORY.md or USER.md until it is approved; approving re-checks it
    against the current files, so it can still be refused cleanly.

    \b
    Each store (the global memory, each project's) has its own queue. Without --global
    or --project DIR every queue is worked: `list` names each write's store, an ID is
    found in whichever queue holds it, and `all` means every queue's writes.
    """


@pending.command(name="list")
@GLOBAL_OPT
@JSON_OPT
@SCOPED
@pass_app
@handle_errors
def pending_list(app: AppContext, global_only: bool, as_json: bool) -> None:
    """List pending writes of the global store and every project store, oldest first,
    each naming its store (--global or --project DIR: one store's)."""
    queues = _queues(app, global_only)
    now = queues[0].queue.governor.clock()
    found = store_pending(queues)
    problems = [(q, path, why) for q in queues for path, why in q.queue.problems()]
    if as_json:
        emit_json(
            {
                "pending": [
                    {
                        **item.as_dict(),
                        **_utc(item.record),
                        "expired": item.record.expired(now),
                        "detail": None,
                        "held_by_scanner": item.record.held,
                        "held_because": _because(item.record.held),
                    }
                    for item in found
                ],
                "problems": [
                    {"path": path, "reason": why, "store": q.label} for q, path, why in problems
                ],
            }
        )
        return
    for _, path, why in problems:
        click.echo(f"warning: {path}: {why}", err=True)
    if not found:
        click.echo("No pending writes.")
        return
    named = _named(app, queues)
    click.echo(f"Pending writes ({len(found)}):")
    store_col = f"{'STORE':<20} " if named else ""
    click.echo(f"  {'ID':<8}  {'STAGED':<23}  {store_col}{'FROM':<20} WHAT")
    for item in found:
        r = item.record
        flag = "  [expired]" if r.expired(now) else ""
        who = r.actor if r.origin == r.actor else f"{r.actor}/{r.origin}"
        store = f"{_store(item.where):<20} " if named else ""
        click.echo(f"  {r.id}  {_when(r.created_at)}  {store}{who:<20} {cell(r.summary)}{flag}")
    click.echo(
        "Review: mnemic pending diff ID   Apply: mnemic pending approve ID|all   "
        "Drop: mnemic pending reject ID|all"
    )


@pending.command(name="show")
@click.argument("pending_id")
@GLOBAL_OPT
@JSON_OPT
@SCOPED
@pass_app
@handle_errors
def pending_show(app: AppContext, pending_id: str, global_only: bool, as_json: bool) -> None:
    """Show one pending write in full, from whichever store's queue holds it."""
    q = locate_pending(_queues(app, global_only), pending_id)
    queue = q.queue
    r = queue.get(pending_id)
    now = queue.governor.clock()
    changed = queue.changed_since_staged(r)
    if as_json:
        emit_json(
            {
                **r.as_dict(),
                **_utc(r),
                "store": q.label,
                "expired": r.expired(now),
                "changed_since_staged": changed,
                "held_by_scanner": r.held,
                "held_because": _because(r.held),
            }
        )
        return
    click.echo(f"id:        {r.id} ({r.subsystem})")
    path = q.label["project"]  # the directory a person knows the project by
    click.echo(f"store:     {_store(q)}" + (f" (project {cell(path)})" if path else ""))
    click.echo(f"from:      {r.actor} / {r.origin} (session {r.session_id})")
    click.echo(f"staged:    {_when(r.created_at)}")
    state = "EXPIRED" if r.expired(now) else "expires"
    click.echo(f"{state + ':':<10} {_when(r.expires_at)}")
    if changed:
        click.echo("note:      the file changed since it was staged (see `mnemic pending diff`)")
    click.echo(f"summary:   {cell(r.summary)}")
    if r.held:
        click.echo(f"why:       {cell(held_sentence(r.held))} {rules_note(r.held)}")
    click.echo("")
    click.echo(printable(r.detail))


@pending.command(name="diff")
@click.argument("pending_id")
@GLOBAL_OPT
@JSON_OPT
@SCOPED
@pass_app
@handle_errors
def pending_diff(app: AppContext, pending_id: str, global_only: bool, as_json: bool) -> None:
    """What approving would change now, checked against the current files."""
    q = locate_pending(_queues(app, global_only), pending_id)
    text = q.queue.diff(pending_id)
    if as_json:
        emit_json({"id": pending_id, "store": q.label, "diff": text})
        return
    click.echo(printable(text.rstrip("\n")))


def _deciding(fn: Callable[..., None]) -> Callable[..., None]:
    """What approve and reject share: ``ID|all``, ``--global``, ``--json``, ``--project``,
    the app and the error handling."""
    for decorate in (handle_errors, pass_app, SCOPED, JSON_OPT, GLOBAL_OPT):
        fn = decorate(fn)
    return click.argument("which", metavar="ID|all")(fn)


def _chosen(app: AppContext, which: str, global_only: bool) -> list[StoreQueue]:
    """The queues ``which`` (an id or ``all``) is decided in: the one holding the id,
    or every queue worked."""
    queues = _queues(app, global_only, write=True)
    return queues if which == "all" else [locate_pending(queues, which)]


@pending.command(name="approve")
@_deciding
def pending_approve(app: AppContext, which: str, global_only: bool, as_json: bool) -> None:
    """Apply pending writes through the normal write path, each to its own store (exit 1
    if any failed)."""
    queues = _chosen(app, which, global_only)
    done = [(q, o) for q in queues for o in q.queue.approve(which)]
    if as_json:
        emit_json([{**o.as_dict(), "store": q.label} for q, o in done])
    else:
        if not done:
            click.echo("No pending writes.")
        for q, o in done:
            where = _of(q)
            if o.ok:
                click.echo(f"approved {o.id}{where}: {cell(o.summary)} ({o.message})")
            else:
                click.echo(f"FAILED   {o.id}{where}: {cell(o.summary)}\n  {_why(o)}", err=True)
    if any(not o.ok for _, o in done):
        sys.exit(1)


def _why(outcome: ApprovalOutcome) -> str:
    """Why an approval failed, for a person: a write whose files changed after it was
    staged says so first, and what to do; the write's own refusal follows (worded for a
    model, it speaks of current_entries and retrying)."""
    if not outcome.changed_since_staged:
        return outcome.message
    again = ""
    if outcome.summary.startswith("tidy:"):
        again = (
            " (a tidy proposal: `mnemic memory tidy --stage` proposes again from the entries now)"
        )
    return (
        "Nothing was applied: memory changed after this write was staged, and it no longer "
        f"applies as staged. See what it would do now with `mnemic pending diff "
        f"{outcome.id}`; drop it with `mnemic pending reject {outcome.id}`{again}.\n"
        f"  The write's own refusal: {outcome.message}"
    )


@pending.command(name="reject")
@_deciding
def pending_reject(app: AppContext, which: str, global_only: bool, as_json: bool) -> None:
    """Discard pending writes."""
    queues = _chosen(app, which, global_only)
    done = [(q, r) for q in queues for r in q.queue.reject(which)]
    if as_json:
        emit_json(  # the fields of an approval's outcome, so both read alike
            [
                {
                    "id": r.id,
                    "subsystem": r.subsystem,
                    "summary": r.summary,
                    "ok": True,
                    "message": "Rejected: nothing was written.",
                    "error_code": None,
                    "store": q.label,
                }
                for q, r in done
            ]
        )
        return
    if not done:
        click.echo("Nothing to reject.")
    for q, r in done:
        click.echo(f"rejected {r.id}{_of(q)}: {cell(r.summary)}")
