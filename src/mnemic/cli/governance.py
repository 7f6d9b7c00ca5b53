"""``mnemic audit | gc | forget | stats``: governance of a home (``mnemic pending``:
:mod:`.pending`)."""

from __future__ import annotations

import shlex
import sys
from typing import Any

import click

from ..curated.entries import FILENAMES
from ..governance.chain import VerifyReport
from ..ops.audit_log import store_label, store_records, verify_stores
from ..ops.forget import check_match, forget_sessions, forget_user
from ..ops.retention import collect_garbage
from ..ops.stats import collect_stats
from ..timefmt import local_time, parse_iso
from .app import (
    GLOBAL_OPT,
    JSON_OPT,
    AppContext,
    cell,
    confirm,
    counted,
    emit_json,
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
    "stats",
]


# -- audit ---------------------------------------------------------------------------


@click.group(name="audit")
def audit() -> None:
    """The audit journal: every write attempt and decision, hash-chained."""


@audit.command(name="list")
@click.option(
    "--limit",
    "-n",
    type=click.IntRange(min=0),
    default=50,
    show_default=True,
    help="Newest N (0: all).",
)
@click.option("--action", help="Only this action (add, replace, approve, forget, ...).")
@click.option(
    "--result",
    help="Only this result (ok, noop, expiry, staged, refused, failed; expiry: a write "
    "that only moved an entry's expiry).",
)
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
    every = store_records(stores, action=action, result=result)
    found = every[-limit:] if limit > 0 else every
    if as_json:
        emit_json([item.as_dict() for item in found])
        return
    if not found:
        narrowed = action is not None or result is not None
        click.echo("No audit record matches." if narrowed else "The audit journal is empty.")
        return
    named = len(stores) > 1 or app.project is not None  # a store column
    wide = max(20, *(len(cell(i.label["project_id"] or "global")) for i in found))
    store_head = f"{'STORE':<{wide}} " if named else ""
    click.echo(
        f"{'SEQ':>6} {'TIME':<26} {store_head}{'ACTOR/ORIGIN':<22} {'ACTION':<8} "
        f"{'TARGET':<12} {'DECISION':<13} RESULT"
    )
    for item in found:
        r = item.record
        who = f"{cell(r.get('actor'))}/{cell(r.get('origin'))}"
        extra = f" {cell(r['error'])}" if r.get("error") else ""
        if r.get("pending_id"):
            extra += f" pending={cell(r['pending_id'])}"
        if r.get("cause"):  # a change recorded after the fact (see docs/governance.md)
            extra += f" cause={cell(r['cause'])}"
        for move in item.expiry:  # a write that kept its text and moved its expiry
            extra += f" {cell(move.describe())}"
        store = f"{cell(item.label['project_id'] or 'global'):<{wide}} " if named else ""
        click.echo(
            f"{cell(r.get('seq')):>6} {_record_time(r):<26} {store}{who:<22} "
            f"{cell(r.get('action')):<8} {cell(r.get('target')):<12} "
            f"{cell(r.get('decision')):<13} {cell(item.result)}{extra}"
        )
    if len(found) < len(every):
        click.echo(
            f"The newest {len(found):,} of {len(every):,} records, oldest first; "
            "all of them: --limit 0 (or narrow with --action, --result)."
        )


def _record_time(r: dict[str, object]) -> str:
    """A record's time as people read it (local, with the offset; the journal keeps UTC)."""
    stamp = r.get("time")
    ts = parse_iso(stamp) if isinstance(stamp, str) else None
    return cell(stamp) if ts is None else local_time(ts, seconds=True)


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
            click.echo(f"  {r.kind:<14} {printable(r.what, lines=False)}  ({r.reason})")
    for note in report.notes:
        click.echo(f"note: {note}")


@click.command(name="forget")
@click.option("--user", "user", is_flag=True, help="Remove the user profile and every copy.")
@click.option(
    "--text",
    "--sessions",
    "match",
    metavar="TEXT",
    help="Remove every text containing TEXT: session messages, archived memory entries, "
    "earlier versions of MEMORY.md and USER.md, pending writes (--sessions TEXT is the "
    "old name of --text and still works).",
)
@click.option("--dry-run", is_flag=True, help="Only report what would be removed.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@JSON_OPT
@pass_app
@handle_errors
def forget(
    app: AppContext, user: bool, match: str | None, dry_run: bool, yes: bool, as_json: bool
) -> None:
    """Forget for good: the user profile (--user) or every text containing TEXT (--text).

    Copies go too (history versions, backups, pending writes, search-index entries), and
    the session database is rewritten so no byte of the text stays on disk under the home.
    The audit journal (so the archive) drops the memory entry texts forgotten, USER.md's
    or those containing TEXT, in every store; its chain still verifies. With TEXT, the
    session messages, the earlier versions and backups of MEMORY.md and USER.md and the
    memory writes waiting for approval that hold it go too. An entry that is still live
    stays in its file: remove it first with `mnemic memory remove`. --sessions TEXT is
    the old name of --text (same meaning).

    \b
    Examples:
      mnemic forget --text "my old address" --dry-run
      mnemic forget --user --yes
    """
    if not user and not match:
        raise click.UsageError("give --user, --text TEXT, or both")
    if match:  # before the question and before --user's forgetting: a refusal does nothing
        check_match(match)
    if not dry_run and not yes:
        what = " and ".join(
            x
            for x in (
                "the user profile" if user else "",
                f"every text containing {match!r}" if match else "",
            )
            if x
        )
        confirm(f"Permanently forget {what}?", "nothing was forgotten")
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
        records = ""
        if r.archived != r.texts:  # one text in several records: an add and its removal
            records = (
                f", in {r.archived:,} of its records (an entry's add and its removal each "
                "hold its text)"
            )
        click.echo(
            f"{verb} {counted(r.texts, 'memory entry text')} from the audit journal{records}. "
            "Archived entries then show as forgotten; a live entry stays in its file."
        )
        _say_live(r.live, match or "")
        if r.what == "sessions":
            click.echo(
                f"{verb} {len(r.copies)} earlier version(s) and backup(s) of MEMORY.md and "
                "USER.md that held it (`mnemic memory history` lists the rest)."
            )
            if r.pending:
                click.echo(
                    f"{verb} {len(r.pending)} memory write(s) waiting for approval that "
                    f"held it: {', '.join(r.pending)}."
                )
        for note in r.notes:
            click.echo(f"note: {note}")


def _say_live(live: list[dict[str, str | None]], match: str) -> None:
    """The live entries that hold the forgotten text, which forget leaves in their file
    (in every prompt), and the commands that take them out (docs/first-week.md #84)."""
    if not live:
        return
    n = len(live)
    click.echo(
        f"Not forgotten: {counted(n, 'live entry', 'live entries')} still "
        f"{'holds' if n == 1 else 'hold'} it, in every session's prompt:"
    )
    removes: dict[str, list[str]] = {}  # one `memory remove` per store and file
    for item in live:
        project = item["project"]
        name = FILENAMES[str(item["target"])]
        if project is not None:
            name += f" of project {printable(project, lines=False)}"
        text = printable(str(item["entry"]), lines=False)
        click.echo(f"  {name}: {text[:80]}{'...' if len(text) > 80 else ''}")
        flags = (" --target user" if item["target"] == "user" else "") + (
            f" --project {shlex.quote(project)}" if project is not None else ""
        )
        removes.setdefault(flags, []).append(str(item["handle"]))
    click.echo(
        "Remove "
        + ("it" if n == 1 else "them")
        + " first: "
        + "; ".join(f"`mnemic memory remove {' '.join(h)}{f}`" for f, h in removes.items())
        + f", then run `mnemic forget --text {shlex.quote(match)}` again (the removal "
        "archives the text, and the forget takes that copy too)."
    )


@click.command(name="stats")
@GLOBAL_OPT
@project_opt("Project DIR's metrics only (default: the global store's and every project's).")
@JSON_OPT
@pass_app
@handle_errors
def stats(app: AppContext, global_only: bool, as_json: bool) -> None:
    """Metrics of this home (Prometheus text), derived from the audit journal and files.

    The global store's series, then each project store's with a `project` label (its
    id); --json: the global store's, then `projects` (--global or --project DIR: one
    store's).
    """
    stores = spanned_stores(app, global_only)
    first, *rest = [(store, collect_stats(store)) for store in stores]
    if as_json:
        emit_json(
            {
                **first[1].as_dict(),
                "store": store_label(first[0]),
                "projects": [{**s.as_dict(), "store": store_label(h)} for h, s in rest],
            }
        )
        return
    result = first[1]
    for store, each in rest:
        result.add_labelled(each, project=store_label(store)["project_id"])
    click.echo(result.text().rstrip("\n"))
