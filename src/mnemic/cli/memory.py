"""``mnemic memory``: inspect and edit MEMORY.md and USER.md."""

from __future__ import annotations

import dataclasses
import logging
import re
import shlex
import sys
import time
from typing import Any

import click

from ..config import store_place
from ..curated import admin as ops
from ..curated.entries import FILENAMES, TARGETS, entry_handle, find_entry
from ..curated.memory import Memory, WriteResult
from ..curated.operations import NO_EXPIRY
from ..curated.placeholder import BLOCKED_PREFIX
from ..curated.pressure import add_candidates, describe_expires, due, parse_expires, policy
from ..curated.provenance import Provenance, entry_key, stale
from ..curated.scope import find_project, stored_projects
from ..curated.snapshot import display_entry, sanitize
from ..curated.store import Op
from ..curated.tool import memory_call
from ..curated.usage_log import UsageCounts, describe_use, read_counts
from ..curated.view import MemoryView
from ..errors import (
    BatchFailed,
    BudgetExceeded,
    MnemicError,
    NoMatch,
    ProjectScopeError,
    StorageError,
    ToolError,
)
from ..governance.approval import ApprovalRequest, Approver
from ..home import Home
from .app import (
    JSON_OPT,
    PROJECT_OPT,
    AppContext,
    confirm,
    counted,
    edit_text,
    emit_json,
    fail,
    fail_keeping_edit,
    fail_response,
    handle_errors,
    paged,
    pass_app,
    printable,
    read_utf8,
)
from .commands import LazyGroup, subcommands

__all__ = ["memory", "open_memory", "refuse", "report", "scoped_targets"]

EXPIRES_OPT = click.option(
    "--expires",
    metavar="DATE",
    help="The last day the fact holds (YYYY-MM-DD, UTC; or a time YYYY-MM-DDTHH:MM); "
    "then it moves to the archive. never: no expiry (clears one).",
)
TARGET_OPT = click.option(
    "--target",
    "-t",
    type=click.Choice(TARGETS),
    default="memory",
    show_default=True,
    help="memory = agent notes (MEMORY.md), user = user profile (USER.md).",
)
TARGETS_OPT = click.option(
    "--target",
    "-t",
    type=click.Choice(TARGETS),
    default=None,
    help="Only this target (default: both).",
)


def interactive_approver() -> Approver | None:
    """An approver that asks on the terminal, or ``None`` when stdin is not a terminal."""
    if not sys.stdin.isatty():
        return None

    def ask(request: ApprovalRequest) -> str:
        click.echo(f"Approval needed: {request.summary}", err=True)
        if request.detail:
            click.echo(request.detail, err=True)
        return "allow" if click.confirm("Save this change?", default=False, err=True) else "deny"

    return ask


def open_memory(
    app: AppContext, *, write: bool = False, reports: bool = False, store: Home | None = None
) -> Memory:
    """The session of a memory command: a command that writes creates the home if needed, any
    other needs an existing one (a mistyped MNEMIC_HOME is an error, nothing created).

    ``reports``: the command reports a file it cannot read (or one over its budget) itself,
    in its refusal or its list of problems, so the snapshot's warning about it is not
    printed first (the same text twice). ``store``: the store to open instead of the one
    the command selects (an archive id naming a project's store)."""
    home = app.memory_home(write=write) if store is None else store
    snapshot_log = logging.getLogger("mnemic.curated.memory")

    def quiet(record: logging.LogRecord) -> bool:
        return record.levelno != logging.WARNING

    if reports:
        snapshot_log.addFilter(quiet)
    try:
        return Memory.open(home, origin="cli", approver=interactive_approver())
    finally:
        snapshot_log.removeFilter(quiet)


def _view(app: AppContext) -> MemoryView:
    """What a command that only reads opens: the existing home's memory as it is now,
    without a session (no snapshot, no governor, nothing cleaned up or written)."""
    return MemoryView.open(app.memory_home())


def scoped_targets(app: AppContext, target: str | None) -> list[str]:
    """The targets a command works on: ``target`` or both; a project has MEMORY.md only
    (USER.md is global: naming it with --project is refused)."""
    if app.project is None:
        return [target] if target else list(TARGETS)
    if target == "user":
        raise ProjectScopeError(
            "user_is_global",
            "USER.md is global only (the user is the same person in every project); "
            "leave out --project (and MNEMIC_PROJECT) for --target user.",
        )
    return ["memory"]


def _bar(ratio: float, width: int = 30) -> str:
    filled = min(width, round(min(ratio, 1.0) * width))
    return "█" * filled + "░" * (width - filled)


def _human_entry(target: str, entry: str, level: str) -> str:
    """One entry as a person at the CLI sees it: itself, or a note that it is hidden
    (threats judged at ``level``, the home's ``[scan] level``)."""
    ids = display_entry(target, entry, level)[1]
    if not ids:
        return entry
    handle = entry_handle(entry)
    return (
        f"[hidden from the model: {', '.join(ids)}; see it with `mnemic memory show --raw`, "
        f"remove it with `mnemic memory remove {handle}`]"
    )


# Refusals about which entry to pick, or how full the file is: the entries are listed.
_LISTS_ENTRIES = {"no_match", "budget_exceeded", "would_empty_target"}


def _name_store(mem: Memory, exc: MnemicError) -> MnemicError:
    """The refusal's cause (a failed batch's), told the project whose store it is about,
    when that is not the global one: its commands then name ``--project DIR``."""
    cause = exc.cause if isinstance(exc, BatchFailed) else exc
    if isinstance(cause, NoMatch | BudgetExceeded) and mem.project is not None:
        cause.project = printable(mem.project, lines=False)
    return cause


def refuse(  # also `memory archive restore`
    mem: Memory, target: str, exc: ToolError, then: str | None = None
) -> None:
    """Print a refusal for a person (with the entries it refers to, and for a full file
    the ones best dropped first; ``then``, the next step, last) and exit 1."""
    add_candidates(mem, exc)
    cause = _name_store(mem, exc)
    lines = [exc.to_human()]
    if cause.code in _LISTS_ENTRIES and getattr(cause, "entry_chars", None) is None:
        where = getattr(cause, "target", target)
        try:
            entries = mem.entries(where)
        except MnemicError:
            entries = []
        if entries:
            lines.append(f"Current {FILENAMES[where]} entries ({mem.usage(where).line()}):")
            for i, entry in enumerate(entries, 1):
                shown = _human_entry(where, entry, mem.level).replace("\n", "\n      ")
                lines.append(f"  [{i}] {shown}")
    if then:
        lines.append(then)
    fail("\n".join(lines))


def report(
    mem: Memory, result: WriteResult, expires: float | None = None, said: str | None = None
) -> None:
    """Print what a write did for a person: its message (``said``: the caller's words
    for it) and usage, what it replaced, removed or evicted, the ``expires`` it set, and
    the pressure warning."""
    if result.staged:
        pid = result.pending_id
        if result.again:
            click.echo(
                f"Already waiting for approval as {pid} (proposed before): no second copy"
                " was queued; nothing is saved yet."
            )
        else:
            click.echo(f"Staged for approval as {pid}: nothing is saved yet.")
        if result.held:  # the scanner's reason: what a person is asked to confirm
            from ..governance.held import held_sentence, rules_note  # a held write only

            click.echo(f"  {held_sentence(result.held)}")
            click.echo(f"  {rules_note(result.held)}")
        click.echo(
            f"  Review: mnemic pending diff {pid}   Apply: mnemic pending approve {pid}"
            f"   Drop: mnemic pending reject {pid}"
        )
        return
    where = FILENAMES[result.target]
    if mem.project is not None:  # which store, when it is not the global one
        where = f"{where} of project {printable(mem.project, lines=False)}"
    message = said or result.message
    if len(result.results) > 1 and all(r.status == "removed" for r in result.results):
        message = f"{len(result.results)} entries removed."  # not "Applied 2 operation(s)"
    kept = [r.status == "replaced" and r.previous == r.entry for r in result.results]
    if expires is not None and all(kept):  # `replace OLD --expires`: the text stays
        message = "Entry kept as it is, its expiry changed."
    click.echo(f"{message} {where}: {result.usage.line()}")
    flag = f" --project {shlex.quote(mem.project)}" if mem.project is not None else ""
    # each entry a remove (or several) took out, and what made room: their archive ids,
    # the journal record's, read back now that the write committed (first-week #44)
    removed = [  # a replace by the same text removed nothing (a confirm)
        (one.status, one.previous)
        for one in result.results
        if one.previous is not None
        and one.status in ("replaced", "removed")
        and one.previous != one.entry
    ]
    ids: list[str | None] = []
    if removed or result.evicted:
        from ..curated.archive import archived_now  # the archive's fold: only then

        left = [(result.target, e) for _, e in removed]
        ids = archived_now(mem, left + [(t, e) for t, e, _ in result.evicted])
    for (status, entry), aid in zip(removed, ids, strict=False):
        into = f" (archive id {aid})" if aid else ""
        click.echo(f"  {status}{into}: {_human_entry(result.target, entry, mem.level)}")
    if removed:  # where it went, as an eviction's lines say (docs/first-week.md #39)
        it = "it" if len(removed) == 1 else "them"
        click.echo(
            f"  (the archive keeps {it}: `mnemic memory archive list{flag}` shows {it}, "
            f"{_restore_hint(ids[: len(removed)], flag)})"
        )
    if expires == NO_EXPIRY:
        click.echo("  no expiry: it stays until it is removed.")
    elif expires is not None:  # what the date given means
        click.echo(f"  {describe_expires(expires)}; then it moves to the archive.")
    for (t, entry, why), aid in zip(result.evicted, ids[len(removed) :], strict=False):
        into = f" as {aid}" if aid else ""
        click.echo(
            f"  {why} to the archive{into} ([memory] on_full): {_human_entry(t, entry, mem.level)}"
        )
    if result.evicted:
        click.echo(
            f"  (`mnemic memory archive list{flag}` shows them, "
            f"{_restore_hint(ids[len(removed) :], flag)})"
        )
    usage = result.usage
    if usage.ratio >= mem.settings.memory.pressure_ratio:
        free = max(0, usage.limit - usage.chars)
        if policy(mem, result.target) == "refuse":
            then = "merge or remove stale entries before adding more"
        else:  # the next write that does not fit evicts: say so, not "before adding more"
            key = "on_full_user" if result.target == "user" else "on_full"
            then = (
                "the next write that does not fit moves the entries best dropped to the "
                f"archive ([memory] {key})"
            )
        click.echo(
            f"  warning: {FILENAMES[result.target]} is {usage.percent}% full ({free:,} chars "
            f"free); {then}. `mnemic memory tidy` proposes what to merge or drop."
        )
    if result.external_changes is not None:
        click.echo(f"  note: {result.external_changes.describe()}")


def _restore_hint(ids: list[str | None], flag: str) -> str:
    """How to bring back what a write took out: its own id when it was one entry whose
    archive id is known, else ``ID`` (the ids are on the lines above)."""
    known = [aid for aid in ids if aid]
    if len(ids) == 1 and known:
        return f"`mnemic memory archive restore {known[0]}{flag}` brings it back"
    return f"`archive restore ID{flag}` brings {'it' if len(ids) == 1 else 'one'} back"


def _call(
    app: AppContext, target: str, op: Op | list[Op], as_json: bool, expires: str | None = None
) -> None:
    """Run one change (a list: one all-or-nothing batch): ``--json`` prints the memory
    tool's response (for scripts), else the library call's result or refusal, in words
    for a person (on stderr under ``--json`` too: a person reads it there)."""
    scoped_targets(app, target)
    mem = open_memory(app, write=True, reports=True)
    ops = op if isinstance(op, list) else [op]
    if any(o.action == "replace" and o.content is None for o in ops):  # NEW left out
        try:
            ops = [_same_text(mem, target, o) for o in ops]
        except ToolError as exc:
            if as_json:
                _name_store(mem, exc)
                fail_response(exc.to_response(), human=exc.to_human())
            refuse(mem, target, exc)
    if as_json:
        calls = [
            {k: v for k, v in (("content", o.content), ("old_text", o.old_text)) if v} for o in ops
        ]
        args: dict[str, Any] = {"target": target}
        if len(ops) == 1:
            args.update(action=ops[0].action, **calls[0])
        else:
            args["operations"] = [
                {"action": o.action, **c} for o, c in zip(ops, calls, strict=True)
            ]
        if expires is not None:
            args["expires"] = expires
        try:
            result = memory_call(mem, args)
        except MnemicError as exc:
            _name_store(mem, exc)
            fail_response(exc.to_response(), human=exc.to_human())
        if isinstance(result.get("usage"), str):  # the model's sentence: the object beside it
            result["usage_detail"] = mem.usage(target).as_dict()
        emit_json(result)
        return
    try:
        if expires is not None:
            when = parse_expires(expires, mem.now(), "--expires")
            ops = [dataclasses.replace(o, expires=when) for o in ops]
        report(mem, mem.apply(target, ops, batch=len(ops) > 1), ops[0].expires)
    except ToolError as exc:
        refuse(mem, target, exc)


def _same_text(mem: Memory, target: str, op: Op) -> Op:
    """A replace given no NEW: the entry OLD names, replaced by its own text (a confirm,
    which takes the ``--expires`` given)."""
    if op.action != "replace" or op.content is not None:
        return op
    entries = mem.entries(target)
    found = entries[find_entry(entries, op.old_text or "", target)]
    return dataclasses.replace(op, content=found)


@click.group(name="memory", cls=LazyGroup, lazy=subcommands("memory"))
def memory() -> None:
    """Inspect and edit the curated memory (MEMORY.md and USER.md).

    \b
    Exit status: 0 done, 1 refused (the reason is on stderr), 2 usage error.
    """


def _when(t: float | None, *, seconds: bool = False) -> str:
    from ..timefmt import local_time  # memory add, which runs at every turn, prints none

    return local_time(t, seconds=seconds) if t is not None else "unknown"


def _provenance_line(p: Provenance) -> str:
    """One line saying who wrote an entry and when."""
    if p.actor == "unknown":
        seen = f" (first seen {_when(p.seen)})" if p.seen is not None else ""
        return f"provenance unknown{seen}"
    if p.actor == "hand" and p.created is None:
        return "edited by hand (not yet recorded)"
    who = "edited by hand" if p.actor == "hand" else f"by {p.actor}"
    if p.origin and p.origin not in (p.actor, "agent"):
        who += f" ({p.origin})"
    session = f"  session {p.session_id}" if p.session_id else ""
    until = f"  {describe_expires(p.expires, time.time())}" if p.expires is not None else ""
    return f"created {_when(p.created)}  updated {_when(p.updated)}  {who}{session}{until}"


@memory.command()
@TARGETS_OPT
@click.option("--raw", is_flag=True, help="Show stored text, including blocked entries.")
@click.option(
    "--long",
    "-l",
    "long_form",
    is_flag=True,
    help="Live entries with their provenance (created, updated, by whom, session) and usage.",
)
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def show(app: AppContext, target: str | None, raw: bool, long_form: bool, as_json: bool) -> None:
    """Show the entries as the next session's system prompt will see them.

    With --long, the live entries each with when they were created and last updated,
    who wrote them (model, flush, review, mcp, cli, hand...) and in which session, when
    they were last confirmed and in how many sessions they mattered.
    Exits 1 when a file cannot be read (after showing everything that could be).
    """
    targets = scoped_targets(app, target)
    mem = _view(app)
    unreadable: dict[str, str] = {}
    entries: dict[str, list[str]] = {}
    provenance: dict[str, list[Provenance]] = {}
    for t in targets:
        try:
            if long_form:
                pairs = mem.provenance(t, record=True)
                entries[t] = [e for e, _ in pairs]
                provenance[t] = [p for _, p in pairs]
            else:
                entries[t] = mem.entries(t)
        except MnemicError as exc:
            unreadable[t] = exc.to_human()
    waiting = _waiting(mem)
    if as_json:
        counts = read_counts(mem.root)
        out: dict[str, Any] = {}
        for t in targets:
            if t in unreadable:
                out[t] = {"file": mem.backend.location(t), "error": unreadable[t]}
                continue
            shown = sanitize(t, entries[t], mem.level)
            out[t] = {
                "file": mem.backend.location(t),
                "entries": entries[t] if raw else list(shown.display),
                "blocked": [h for _, h, _ in shown.blocked],
                "usage": mem.usage(t).as_dict(),
                "in_prompt": mem.in_prompt(t),
                "pending": waiting.get(t, 0),
            }
            if long_form:
                out[t]["provenance"] = [_with_utc(p.as_dict()) for p in provenance[t]]
                out[t]["use"] = [_use(counts, e) for e in entries[t]]
        emit_json(out)
    else:
        with paged():  # hundreds of entries: through the pager on a terminal
            if long_form:
                _show_long(mem, targets, entries, provenance, unreadable, raw)
            else:
                _show_text(mem, targets, entries, unreadable, raw)
            if app.project is None:
                _here_note(mem, gap="")
            for t in targets:
                if waiting.get(t):
                    n = waiting[t]
                    click.echo(
                        f"{counted(n, 'write')} to {FILENAMES[t]} "
                        f"{'waits' if n == 1 else 'wait'} "
                        "for approval, not in memory yet: mnemic pending list"
                    )
    if unreadable:
        sys.exit(1)


def _waiting(mem: MemoryView) -> dict[str, int]:
    """How many live pending writes of this store touch each target."""
    if mem.root is None:
        return {}
    from ..governance.storage import waiting  # only `show` reads the queue

    return waiting(mem.root, mem.settings)


_TIMES = ("created", "updated", "seen", "confirmed", "expires", "last_used")


def _with_utc(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` with each of its times (seconds) also as ``NAME_utc``, ISO 8601 UTC
    (docs/json.md, *times*; as an archived entry's provenance gives them: first-week #33)."""
    from ..timefmt import utc_seconds  # --json only

    times = {f"{k}_utc": utc_seconds(d[k]) for k in _TIMES if isinstance(d.get(k), (int, float))}
    return {**d, **times}


def _use(counts: UsageCounts, entry: str) -> dict[str, Any] | None:
    """How often an entry mattered (``None``: no session counted yet)."""
    if not counts.counted:
        return None
    use = counts.of(entry_key(entry))
    return _with_utc({"uses": use.uses, "last_used": use.last_used})


_HIDDEN = re.compile(re.escape(BLOCKED_PREFIX) + r'[^\n]*old_text="(entry:[0-9a-f]+)"\)\.\]$', re.M)
"""The handle in each placeholder the block shows (mnemic renders every ``[BLOCKED:``
line of a block: an entry that imitates one is hidden behind one)."""


def _hidden_note(block: str) -> None:
    """After a block that hides entries from the model: the person's commands (the
    placeholder is worded for the model: a memory tool call)."""
    handles = _HIDDEN.findall(block)
    if handles:
        them = "it" if len(handles) == 1 else "them"
        click.echo(
            f"{counted(len(handles), 'entry', 'entries')} above hidden from the model (the "
            f"threat scan matched): see {them} with `mnemic memory show --raw`, remove "
            f"{them} with `mnemic memory remove {' '.join(handles)}`."
        )


def _expired_note(target: str, entries: list[str], mem: MemoryView) -> None:
    """After a block that holds entries past their expiry: the next session start moves
    them to the archive before its snapshot, so its prompt will not hold them
    (docs/first-week.md #83)."""
    if not entries:
        return
    n = len(entries)
    click.echo(
        f"{counted(n, 'entry', 'entries')} above {'is' if n == 1 else 'are'} past "
        f"{'its' if n == 1 else 'their'} expiry: the next session start (or `mnemic gc`) "
        f"moves {'it' if n == 1 else 'them'} to the archive first, so the next session's "
        f"prompt will not hold {'it' if n == 1 else 'them'}:"
    )
    for entry in entries:
        first = _human_entry(target, entry, mem.level).splitlines()[0] if entry else ""
        click.echo(f"  expired: {first[:80]}")


def _say_unreadable(target: str, targets: list[str], unreadable: dict[str, str]) -> None:
    """Why ``target`` could not be read, once for every target that failed alike: a
    database out of reach refused MEMORY.md and USER.md in the same words, and the whole
    paragraph was printed twice."""
    alike = [t for t in targets if unreadable.get(t) == unreadable[target]]
    if alike[0] != target:
        return
    names = " and ".join(FILENAMES[t] for t in alike)
    click.echo(f"mnemic: {names}: {unreadable[target]}", err=True)


def _show_text(
    mem: MemoryView,
    targets: list[str],
    entries: dict[str, list[str]],
    unreadable: dict[str, str],
    raw: bool,
) -> None:
    expired = {} if raw else due(mem, time.time())  # the next session start moves them
    for t in targets:
        if t in unreadable:
            _say_unreadable(t, targets, unreadable)
            continue
        if raw:
            click.echo(
                f"# {mem.backend.location(t)} ({counted(len(entries[t]), 'entry', 'entries')})"
            )
            for i, entry in enumerate(entries[t], 1):
                click.echo(f"[{i}] {printable(entry)}")  # a hand edit may hold escapes
            click.echo()
            continue
        try:
            block = mem.block(t)
        except MnemicError as exc:
            click.echo(f"mnemic: {FILENAMES[t]}: {exc.to_human()}", err=True)
        else:
            if not block.text:
                of = (
                    f" of project {printable(mem.project, lines=False)}"
                    if mem.project is not None
                    else ""
                )
                click.echo(f"{FILENAMES[t]}{of}: empty (no block in the prompt)")
            else:
                click.echo(block.text)
                _hidden_note(block.text)
                _expired_note(t, expired.get(t, []), mem)
                if not mem.in_prompt(t):
                    click.echo("(disabled in config: this block is not put in the prompt)")
        click.echo()


def _show_long(
    mem: MemoryView,
    targets: list[str],
    entries: dict[str, list[str]],
    provenance: dict[str, list[Provenance]],
    unreadable: dict[str, str],
    raw: bool,
) -> None:
    counts = read_counts(mem.root)
    for t in targets:
        if t in unreadable:
            _say_unreadable(t, targets, unreadable)
            continue
        click.echo(f"# {mem.backend.location(t)} ({counted(len(entries[t]), 'entry', 'entries')})")
        for i, (entry, prov) in enumerate(zip(entries[t], provenance[t], strict=True), 1):
            shown = printable(entry) if raw else _human_entry(t, entry, mem.level)
            click.echo(f"[{i}] " + shown.replace("\n", "\n    "))
            click.echo(f"    {_provenance_line(prov)}")
            click.echo(f"    {describe_use(counts, entry_key(entry), prov.last_confirmed)}")
        click.echo()


@memory.command()
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def status(app: AppContext, as_json: bool) -> None:
    """How full each target is (characters, entries, token estimate), and the entries
    untouched for [memory] stale_after_days days or more: candidates for review."""
    targets = scoped_targets(app, None)
    mem = _view(app)
    days = mem.settings.memory.stale_after_days
    now = time.time()
    rows: list[dict[str, Any]] = []
    old: dict[str, list[tuple[int, str, Provenance]]] = {}
    gone: dict[str, list[tuple[int, str, Provenance]]] = {}
    for t in targets:
        try:
            usage = mem.usage(t)
        except StorageError as exc:
            rows.append({"target": t, "error": exc.to_human()})
            continue
        row: dict[str, Any] = {**usage.as_dict(), "file": mem.backend.location(t)}
        try:
            pairs = mem.provenance(t, record=True)
        except MnemicError as exc:
            rows.append({"target": t, "error": exc.to_human()})
            continue
        old[t] = stale([e for e, _ in pairs], [p for _, p in pairs], days=days, now=now)
        gone[t] = [
            (i, e, p)
            for i, (e, p) in enumerate(pairs)
            if p.expires is not None and p.expires <= now
        ]
        row["stale_after_days"] = days
        row["stale"] = [
            {
                "index": i + 1,
                "entry": display_entry(t, e, mem.level)[0],
                "days": int((now - (p.last_touched or now)) // 86400),
                **p.as_dict(),
            }
            for i, e, p in old[t]
        ]
        row["expired"] = [  # past their time, still live: the next session start moves them
            {"index": i + 1, "entry": display_entry(t, e, mem.level)[0], **_with_utc(p.as_dict())}
            for i, e, p in gone[t]
        ]
        rows.append(row)
    if as_json:
        emit_json(rows)
        return
    where = f" --project {shlex.quote(mem.project)}" if mem.project is not None else ""
    if mem.project is not None:  # which store the bars are (first-week #82)
        click.echo(f"Project {printable(mem.project, lines=False)}:")
    pressure = mem.settings.memory.pressure_ratio  # where a write's answer warns too
    full: list[str] = []
    for row in rows:
        name = FILENAMES[row["target"]]
        if "error" in row:
            click.echo(f"{name:<10} unreadable: {row['error']}")
            continue
        ratio = row["chars"] / row["limit"] if row["limit"] else 0.0
        near = row["over_budget"] or ratio >= pressure
        flag = "  OVER BUDGET" if row["over_budget"] else ("  nearly full" if near else "")
        if near:
            full.append(row["target"])
        click.echo(
            f"{name:<10} {_bar(ratio)} {row['percent']:>3}%  {row['chars']:>6,}/"
            f"{row['limit']:,} chars  {row['entries']:>3} "
            f"{'entry  ' if row['entries'] == 1 else 'entries'}  ~{row['tokens_estimate']:,} "
            f"tokens{flag}"
        )
    place = store_place(mem.settings)
    if place:  # as --json's "file" says it
        click.echo(f"(stored in {place}, shared by the homes naming it)")
    for t, items in old.items():
        if not items:
            continue
        click.echo(
            f"\n{FILENAMES[t]}: {len(items)} entr{'y' if len(items) == 1 else 'ies'} untouched "
            f"for {days}+ days (review: keep, update or remove):"
        )
        for i, entry, prov in items:
            first = _human_entry(t, entry, mem.level).splitlines()[0] if entry else ""
            age = int((now - (prov.last_touched or now)) // 86400)
            click.echo(f"  [{i + 1}] {first[:80]}  ({age} days, {prov.actor})")
    for t, items in gone.items():  # in the file and the prompt until a session start (#83)
        if not items:
            continue
        click.echo(
            f"\n{FILENAMES[t]}: {counted(len(items), 'entry', 'entries')} past "
            f"{'its' if len(items) == 1 else 'their'} expiry, still in the file: the next "
            "session start (or `mnemic gc`) moves "
            f"{'it' if len(items) == 1 else 'them'} to the archive:"
        )
        for i, entry, prov in items:
            first = _human_entry(t, entry, mem.level).splitlines()[0] if entry else ""
            assert prov.expires is not None
            click.echo(f"  [{i + 1}] {first[:80]}  ({describe_expires(prov.expires)})")
    if full:
        click.echo(
            f"\nRoom is short in {' and '.join(FILENAMES[t] for t in full)}: `mnemic memory "
            f"tidy{where}` proposes what to merge or drop, `mnemic memory show --long{where}` "
            f"shows how each entry was used, and `mnemic memory remove TEXT{where}` frees room "
            "(the archive keeps what leaves)."
        )
    for t in full:  # as a write's warning says it (docs/first-week.md #31)
        if policy(mem, t) != "refuse":
            key = "on_full_user" if t == "user" else "on_full"
            click.echo(
                f"{FILENAMES[t]}: the next write that does not fit moves the entries best "
                f"dropped to the archive ([memory] {key}); `mnemic memory archive list{where}` "
                "shows what left."
            )
    if app.project is None:
        _project_lines(app)
        _here_note(mem)


def _here_note(mem: MemoryView, gap: str = "\n") -> None:
    """In a directory whose project (or nearest parent's) has a store, with no project
    named: a session started here gets that block too (docs/first-week.md #87)."""
    import os

    if mem.root is None:
        return
    try:
        here = find_project(mem.root, os.getcwd(), mem.settings)
    except (MnemicError, OSError):
        return
    if here is None:
        return
    where = printable(here.path, lines=False)
    click.echo(
        f"{gap}This directory is in project {where}: a session started here (the Claude Code "
        "hook, an MCP client whose root it is) also gets its PROJECT MEMORY block, shown "
        f"by `mnemic memory show --project {shlex.quote(here.path)}`."
    )


def _project_lines(app: AppContext) -> None:
    """The project stores of the home, one line each (their own status: --project DIR)."""
    projects = stored_projects(app.existing_home)
    if not projects:
        return
    click.echo(f"\nProject stores ({len(projects)}; details: mnemic memory status --project DIR):")
    names = [printable(home.project.path or home.project.id, lines=False) for home in projects]
    wide = max(len(name) for name in names)  # the figures line up in a column
    gone: list[str] = []
    for name, home in zip(names, projects, strict=True):
        try:
            line = MemoryView.open(home).usage("memory").line()
        except MnemicError as exc:
            line = f"unreadable: {exc.to_human()}"
        if home.selector == home.project.id:  # its directory was moved or deleted
            gone.append(home.project.id)
            line += f"  (directory gone; --project {home.project.id})"
        click.echo(f"  {name:<{wide}}  {line}")
    if gone:
        sid = gone[0] if len(gone) == 1 else "ID"  # one store: its own commands, as they run
        click.echo(
            "A store whose directory is gone (moved, renamed or deleted) is reached by its "
            f"id: `mnemic memory show --project {sid}`. The directory moved: `mnemic project "
            f"move {sid} NEWDIR` takes the store to its new path. It is gone for good: "
            f"`mnemic project forget {sid}` removes the store (its memory kept in a bundle "
            f"first); before that, `mnemic memory move TEXT --to global --project {sid}` "
            "keeps an entry in the global memory."
        )


@memory.command()
@click.argument("text")
@TARGET_OPT
@EXPIRES_OPT
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def add(app: AppContext, text: str, target: str, expires: str | None, as_json: bool) -> None:
    """Add TEXT as a new entry (- reads it from stdin).

    \b
    Examples:
      mnemic memory add "Repo builds with make -j2"
      mnemic memory add "Prefers short answers" --target user
      mnemic memory add "Release freeze: hotfixes only" --expires 2030-06-30
      git log -1 --format=%s | mnemic memory add -
    """
    if text == "-":
        text = read_utf8(sys.stdin.buffer, "stdin").strip()
    _call(app, target, Op("add", text), as_json, expires)


@memory.command()
@click.argument("old")
@click.argument("new", required=False)
@TARGET_OPT
@EXPIRES_OPT
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def replace(
    app: AppContext, old: str, new: str | None, target: str, expires: str | None, as_json: bool
) -> None:
    """Replace the entry containing OLD with NEW (the whole entry).

    Without NEW, only --expires changes: the entry keeps its text (`--expires never`
    clears its expiry).

    \b
    Examples:
      mnemic memory replace "make -j2" "Repo builds with make -j4"
      mnemic memory replace "Release freeze" --expires never
    """
    if new is None and expires is None:
        raise click.UsageError(
            "Give NEW (the whole new entry), or --expires to change only its expiry."
        )
    _call(app, target, Op("replace", new, old), as_json, expires)


@memory.command()
@click.argument("old", nargs=-1, required=True)
@TARGET_OPT
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def remove(app: AppContext, old: tuple[str, ...], target: str, as_json: bool) -> None:
    """Remove the entry containing OLD (several OLD: all of them, or none).

    OLD is a unique piece of the entry's text, or the entry:<hex> handle a full
    memory's refusal names. Removed entries go to the archive.

    \b
    Examples:
      mnemic memory remove "make -j2"
      mnemic memory remove entry:5d0c1b2a entry:9f31e0c4
    """
    _call(app, target, [Op("remove", None, o) for o in old], as_json)


@memory.command()
@TARGET_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def edit(app: AppContext, target: str) -> None:
    """Edit a target in $EDITOR; the result is validated and written atomically.

    Entries are separated by a line holding only '§'. If validation fails, your text is
    kept in a file whose path is printed, and nothing is written.
    """
    scoped_targets(app, target)
    mem = open_memory(app, write=True)
    base = mem.backend.read(target)
    text = edit_text(base or "")
    if text is None:
        click.echo("No changes.")
        return
    try:
        usage = ops.write_edited(mem, target, ops.text_hash(base), text)
    except ToolError as exc:
        fail_keeping_edit(app, FILENAMES[target], text, exc)
        return
    click.echo(
        f"Saved {FILENAMES[target]}: {usage.line()}, {counted(usage.entries, 'entry', 'entries')}."
    )


@memory.command()
@TARGETS_OPT
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def history(app: AppContext, target: str | None, as_json: bool) -> None:
    """List the previous versions kept for each target (newest last)."""
    mem = _view(app)
    out = {t: mem.backend.history(t) for t in scoped_targets(app, target)}
    if as_json:
        from ..timefmt import utc_seconds  # --json only

        emit_json(
            {
                t: [
                    {
                        "version": v.id,
                        "saved_at": v.saved_at,
                        "saved_at_utc": utc_seconds(v.saved_at),
                        "bytes": v.size,
                        "at": v.location,
                    }
                    for v in vs
                ]
                for t, vs in out.items()
            }
        )
        return
    for t, versions in out.items():
        click.echo(f"{FILENAMES[t]}: {counted(len(versions), 'previous version')}")
        if versions:  # VERSION is what diff and restore take; the time it was replaced
            click.echo(f"  {'VERSION':<8} {'REPLACED':<26}  {'SIZE':>12}")
        for v in versions:
            when = _when(v.saved_at, seconds=True)
            click.echo(f"  {v.id:<8} {when}  {v.size:>6,} bytes")
    flag = f" --project {shlex.quote(mem.project)}" if mem.project is not None else ""
    click.echo(
        f"Compare: mnemic memory diff VERSION{flag}   "
        f"Bring back: mnemic memory restore VERSION{flag}"
    )


@memory.command()
@click.argument("old")
@click.argument("new", default="current")
@TARGET_OPT
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def diff(app: AppContext, old: str, new: str, target: str, as_json: bool) -> None:
    """Unified diff between versions OLD and NEW (default: the current file)."""
    scoped_targets(app, target)
    text = ops.diff_versions(_view(app), target, old, new)
    if as_json:  # "" when they are the same
        emit_json({"target": target, "old": old, "new": new, "diff": text})
        return
    click.echo(text.rstrip("\n") if text else "No differences.")


@memory.command()
@click.argument("version", type=int)
@TARGET_OPT
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Machine-readable output: the diff alone, or with --yes what was restored.",
)
@PROJECT_OPT
@pass_app
@handle_errors
def restore(app: AppContext, version: int, target: str, yes: bool, as_json: bool) -> None:
    """Bring back VERSION exactly (the current text is kept in history first)."""
    scoped_targets(app, target)
    mem = open_memory(app, write=True)
    text = ops.diff_versions(mem, target, "current", version)
    if as_json and (not text or not yes):
        emit_json({"target": target, "version": version, "diff": text, "restored": False})
        return
    if not text:
        click.echo("That version is identical to the current file; nothing to do.")
        return
    if not as_json:
        click.echo(text.rstrip("\n"))
    if not yes:
        confirm(f"Restore {FILENAMES[target]} to version {version}?", "not restored")
    ops.restore(mem, target, version)
    if as_json:
        emit_json({"target": target, "version": version, "diff": text, "restored": True})
        return
    click.echo(f"Restored {FILENAMES[target]} to version {version}.")


@memory.command()
@TARGET_OPT
@click.option("--yes", "-y", is_flag=True, help="Write without asking.")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def adopt(app: AppContext, target: str, yes: bool, as_json: bool) -> None:
    """Adopt a file edited outside mnemic: show the entries it would become, then write.

    A copy of the current file is saved first, and it also stays in the history.
    """
    scoped_targets(app, target)
    mem = open_memory(app, write=True)
    plan = ops.plan_adopt(mem, target)
    if as_json:  # the plan; with --yes, adopted (and the copy saved) when the file drifted
        planned: dict[str, Any] = {
            "target": target,
            "drift": plan.drift,
            "entries": list(plan.entries),
            "usage": plan.usage.as_dict(),
        }
        if yes:
            adopted = plan.drift is not None
            backup = ops.adopt(mem, plan) if adopted else None
            planned.update(adopted=adopted, backup=None if backup is None else str(backup))
        emit_json(planned)
        return
    if plan.drift is None:
        click.echo(f"{FILENAMES[target]} is clean; nothing to adopt.")
        return
    click.echo(f"{FILENAMES[target]} was edited outside mnemic: {plan.drift}.")
    n = len(plan.entries)
    click.echo(f"It would become {counted(n, 'entry', 'entries')} ({plan.usage.line()}):")
    for i, entry in enumerate(plan.entries, 1):
        first, *rest = entry.splitlines() or [""]
        more = f"  (+{len(rest)} more line(s))" if rest else ""
        click.echo(f"  [{i}] {first[:100]}{more}")
    if plan.usage.over_budget:
        click.echo(
            "Note: that is over the budget; the model will be asked to consolidate, and "
            "adds will be refused until it is back under."
        )
    if not yes:
        confirm("Write this entry?" if n == 1 else "Write these entries?", "not adopted")
    backup = ops.adopt(mem, plan)
    click.echo(f"Adopted. The previous file was saved to {backup}.")


@memory.command()
@click.option("--fix", is_flag=True, help="Tighten permissions and remove stale temp files.")
@JSON_OPT
@PROJECT_OPT
@pass_app
@handle_errors
def doctor(app: AppContext, fix: bool, as_json: bool) -> None:
    """Find drift, unreadable files, hidden threats, stale temp files, loose permissions.

    Each finding is an error, a warning or a note (info), with the command that fixes it
    after "->". Exit status: 1 when an error is left unfixed, else 0 (warnings and notes
    included).
    """
    problems = ops.doctor(open_memory(app, reports=True), fix=fix)
    if as_json:
        emit_json(
            [
                {
                    "severity": p.severity,
                    "target": p.target,
                    "message": p.message,
                    "fix": p.fix,
                    "fixed": p.fixed,
                }
                for p in problems
            ]
        )
    elif not problems:
        click.echo("No problems found.")
    else:
        for p in problems:
            status = " (fixed)" if p.fixed else f"  -> {p.fix}"
            click.echo(f"{p.severity:<8}{p.message}{status}")
    if any(p.severity == "error" and not p.fixed for p in problems):
        sys.exit(1)
