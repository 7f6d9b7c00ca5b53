"""Privacy: forget the user profile, or every session message that mentions something.

``mnemic forget --user`` (:func:`forget_user`) removes USER.md with every copy of it:
its history versions, drift backups, temp files, texts kept by a failed edit, the
pending writes that would touch it, every USER.md entry text the audit journal holds
(the archive, and what provenance kept) and the home's vector cache of entry texts
(:mod:`mnemic.embedding.vector_cache`, rebuilt by the next search): the journal is
rewritten without them, and its chain still verifies (its hashes leave texts out). The
forgetting itself is audited.

``mnemic forget --text MATCH`` (:func:`forget_sessions`) removes every session
message that holds MATCH in any column (text, participant name, tool name, tool-call
arguments, tool call id, source key; compared as search compares text, NFKC and Unicode
case folding: ``Müller`` also forgets ``MÜLLER``, ``quagga77`` forgets ``ＱＵＡＧＧＡ７７``),
with its full-text index entries, and every MEMORY.md or USER.md entry text the audit
journal holds that contains it (the global store's journal and each project store's:
archived entries included; the vector cache too when one was forgotten; a live entry stays in its
file: remove it with ``mnemic memory remove``), and rewrites every session column that holds it: an
id gets a new one (children follow), a source becomes ``redacted``, a title or model is
cleared, metadata loses the keys that hold it (:mod:`mnemic.sessions.forgetting`). In
SQLite, so that no byte survives in the database file, this runs with ``PRAGMA
secure_delete = ON``, the full-text index is rewritten (``optimize``: a contentless FTS5
index keeps its terms until its segments are merged), the database is vacuumed and the
write-ahead log is checkpointed and truncated. Another process that keeps the database
open can delay the truncation; the report says so. In PostgreSQL the tables are vacuumed
and analysed (the planner's statistics sample column values).

Afterwards no file under the home holds the forgotten text (the tests grep every byte,
SQLite files included). Separate profiles are separate homes and are not touched.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..curated import fold_cache
from ..curated.entries import FILENAMES, entry_handle, parse
from ..curated.memory import Memory
from ..curated.scope import stored_projects
from ..curated.store import file_hash
from ..embedding import vector_cache
from ..errors import InvalidArgument, MnemicError, StorageError
from ..governance.chain import record_texts
from ..governance.governor import Governor
from ..governance.storage import PendingQueueStore
from ..home import Home
from ..registry import backend_for
from ..sessions.forgetting import contains, needles
from .attachments import drop_forgotten

__all__ = ["ForgetReport", "check_match", "forget_sessions", "forget_user"]


def check_match(match: object) -> None:
    """Refuse a text to forget that would match too much (under 3 characters, blanks
    aside): :class:`~mnemic.errors.InvalidArgument`. A caller that forgets more than one
    thing checks it first, so that a refusal leaves everything as it was."""
    if not isinstance(match, str) or len(match.strip()) < 3:
        raise InvalidArgument(
            "match",
            "Give the text to forget (at least 3 characters); it is matched as a substring.",
        )


@dataclass
class ForgetReport:
    """What was forgotten."""

    what: str
    """``user`` or ``sessions``."""
    dry_run: bool = False
    files: list[str] = field(default_factory=list)
    """Files removed (or, in a dry run, that would be)."""
    pending: list[str] = field(default_factory=list)
    """Pending write ids removed."""
    messages: int = 0
    """Session messages removed."""
    archived: int = 0
    """Copies of entry texts dropped from the audit journal (the archive and what
    provenance kept of them), byte for byte: one per record that held one (an archived
    entry's add and its removal are two)."""
    texts: int = 0
    """The entry texts those copies were of, each counted once per store and file: what
    a person means by "how many entries" (docs/first-week.md #84)."""
    sessions: int = 0
    """Sessions that lost messages or their title."""
    attachments: int = 0
    """Attachment files deleted: the forgotten messages held them and no other message
    does (a dry run: how many files the messages hold)."""
    copies: list[str] = field(default_factory=list)
    """History versions and drift backups of MEMORY.md or USER.md (any store's) that held
    the text (``--text``), removed: each is a whole copy of its file."""
    live: list[dict[str, str | None]] = field(default_factory=list)
    """Live entries that hold the text (``--text``), which forget leaves in their file:
    each ``target``, ``entry``, ``handle`` and ``project`` (its directory, or its id
    when the directory is gone; ``None``: the global store). ``mnemic memory remove``
    takes one (then forget again: the removal archives its text)."""
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return dataclasses.asdict(self)


def _open(home: Home | str | Path | None, origin: str, clock: Callable[[], float] | None) -> Memory:
    return Memory.open(home, actor="foreground", origin=origin, clock=clock)


def forget_user(
    home: Home | str | Path | None = None,
    *,
    dry_run: bool = False,
    origin: str = "cli",
    clock: Callable[[], float] | None = None,
) -> ForgetReport:
    """Remove the user profile and every copy of it; see the module docstring."""
    mem = _open(home, origin, clock)
    gov = mem.governor
    assert gov is not None
    backend = mem.backend
    report = ForgetReport("user", dry_run)
    pending = gov.pending("memory")
    with pending.lock():
        try:
            before = backend.read("user")
        except StorageError:
            before = None
        report.files += backend.purge(
            "user", lock_timeout=mem.settings.memory.lock_timeout, dry_run=dry_run
        )
        _forget_pending(pending, report, dry_run)
        report.archived, report.texts = _forget_texts(
            mem, lambda target, text: target == "user", dry_run
        )
        if not dry_run:  # the profile's live entries had vectors too
            vector_cache.clear(gov.root)
    leftovers = [
        str(gov.root / n)
        for n in os.listdir(gov.root)
        if n.startswith(FILENAMES["user"] + ".edit.")
    ]
    report.files.extend(leftovers)
    if not dry_run:
        for p in leftovers:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(p)
    return _forget_user_done(mem, report, before)


def _forget_texts(mem: Memory, match: Callable[[str, str], bool], dry_run: bool) -> tuple[int, int]:
    """Drop from the audit journal every entry text ``match(target, text)`` selects
    (archived entries, and the journal's copies of entries added): the chain still
    verifies. Returns how many copies went (one per record item) and how many distinct
    texts they were of (per target); a dry run counts them."""
    gov = mem.governor
    assert gov is not None
    journal = gov.journal
    texts: set[tuple[str, str]] = set()
    if dry_run:
        count = 0
        for rec in journal.records():
            for target, _, item in record_texts(rec):
                if isinstance(item.get("text"), str) and match(target, item["text"]):
                    count += 1
                    texts.add((target, item["text"]))
        return count, len(texts)

    def chosen(rec: dict[str, Any], target: str, name: str, item: dict[str, Any]) -> bool:
        if not match(target, item["text"]):
            return False
        texts.add((target, item["text"]))
        return True

    count = journal.forget_texts(chosen)
    fold_cache.forget_cached(journal)
    if count:  # no vector of a forgotten text survives (a derived cache: it is rebuilt)
        vector_cache.clear(gov.root)
    return count, len(texts)


def _forget_pending(pending: PendingQueueStore, report: ForgetReport, dry_run: bool) -> None:
    """Drop the pending writes that would touch the user profile (caller holds the lock)."""
    listing = pending.listing()
    for record in listing.records:
        if "user" in record.base or _payload_touches_user(record.payload):
            report.pending.append(record.id)
            if not dry_run:
                pending.remove(record.id)
    for bad, _ in listing.problems:  # unreadable: it may hold the profile
        report.files.append(bad)
        if not dry_run:
            pending.remove_file(bad)


def _forget_user_done(mem: Memory, report: ForgetReport, before: str | None) -> ForgetReport:
    gov = mem.governor
    assert gov is not None
    quoted = _count_quotes(Home(gov.root, gov.settings), parse(before) if before else [])
    if quoted:
        report.notes.append(
            f"{quoted} session message(s) quote the forgotten profile; remove them with "
            "`mnemic forget --text TEXT` for each fact"
        )
    if not report.dry_run:
        gov.record(
            subsystem="memory",
            target="user",
            action="forget",
            decision="manual",
            result="ok",
            before={"user": file_hash(before)},
            after={"user": None},
            removed={"files": len(report.files), "pending": len(report.pending)},
        )
    return report


def _payload_touches_user(payload: dict[str, Any]) -> bool:
    if payload.get("target") == "user":
        return True
    ops = payload.get("operations")
    return isinstance(ops, list) and any(
        isinstance(op, dict) and op.get("target") == "user" for op in ops
    )


# -- sessions ------------------------------------------------------------------------


def _count_quotes(home: Home, entries: list[str]) -> int:
    """Session messages holding one of ``entries`` (counted, nothing changed)."""
    store = backend_for(home.settings)
    if not entries or not store.has_sessions(home):
        return 0
    try:
        with store.sessions(home) as sessions:
            return sum(
                sessions.forget(e, dry_run=True).messages for e in entries if len(e.strip()) >= 3
            )
    except MnemicError:
        return 0


def forget_sessions(
    home: Home | str | Path | None = None,
    match: str = "",
    *,
    dry_run: bool = False,
    origin: str = "cli",
    clock: Callable[[], float] | None = None,
) -> ForgetReport:
    """Remove every session message containing ``match`` and rewrite every session field
    holding it; see the module docstring."""
    check_match(match)
    if not isinstance(home, Home):
        home = Home.open(home)
    mem = _open(home, origin, clock)
    gov = mem.governor
    assert gov is not None
    report = ForgetReport("sessions", dry_run)
    backend = backend_for(home.settings)
    if not backend.has_sessions(home):
        _forget_everywhere(home, mem, match, origin, clock, dry_run, report)
        report.notes.append("there is no session history")
        _note_audited_sessions(gov, match, report)
        return report
    _forget_everywhere(home, mem, match, origin, clock, dry_run, report)
    with backend.sessions(home) as store:
        began = time.time()
        result = store.forget(match, dry_run=dry_run)
        report.files.append(store.location)
        if not dry_run:
            report.attachments = drop_forgotten(home, store, result.attachments, began)
        else:
            report.attachments = len(result.attachments)
    report.messages, report.sessions = result.messages, result.sessions
    report.notes.extend(result.notes)
    if result.renamed:
        report.notes.append(
            f"{result.renamed} session id(s) held the text; "
            f"{'they would get' if dry_run else 'they have'} new ids"
        )
    _note_audited_sessions(gov, match, report)
    if not dry_run:
        gov.record(
            subsystem="sessions",
            target="sessions",
            action="forget",
            decision="manual",
            result="ok"
            if report.messages or report.sessions or report.copies or report.pending
            else "noop",
            removed={"messages": report.messages, "sessions": report.sessions}
            | ({"copies": len(report.copies)} if report.copies else {})
            | ({"pending": len(report.pending)} if report.pending else {}),
        )
    return report


def _forget_everywhere(
    home: Home,
    mem: Memory,
    match: str,
    origin: str,
    clock: Callable[[], float] | None,
    dry_run: bool,
    report: ForgetReport,
) -> None:
    """:func:`_forget_texts` of the entry texts holding ``match`` in the global store's
    journal and in each project store's (:mod:`mnemic.curated.scope`), and the history
    versions and drift backups of their MEMORY.md and USER.md that hold it (into
    ``report.copies``: a version is a whole copy of the file) and the memory writes
    waiting for approval that hold it (``report.pending``), so no other copy of the text
    stays on disk (the live file keeps a live entry: ``memory remove`` takes it); the
    counts go into ``report.archived`` and ``report.texts``."""
    forms = needles(match)

    def holds(target: str, text: str) -> bool:
        return contains(text, forms)

    for store in [mem, *(_open(p, origin, clock) for p in stored_projects(home))]:
        report.live += _live_holding(store, forms)
        copies, texts = _forget_texts(store, holds, dry_run)
        report.archived += copies
        report.texts += texts
        report.copies += _forget_copies(store, forms, dry_run)
        report.pending += _forget_staged(store, forms, dry_run)
    if report.archived and not dry_run:  # the home's cache holds its projects' vectors too
        vector_cache.clear(home.root)


def _live_holding(mem: Memory, forms: list[str]) -> list[dict[str, str | None]]:
    """The live entries of ``mem``'s targets that hold one of ``forms``: forget leaves
    them in their file (a person removes them; docs/first-week.md #84)."""
    found: list[dict[str, str | None]] = []
    for target in FILENAMES:
        try:
            raw = mem.backend.read(target)
        except StorageError:
            continue
        for entry in parse(raw) if raw else ():
            if contains(entry, forms):
                found.append(
                    {
                        "target": target,
                        "entry": entry,
                        "handle": entry_handle(entry),
                        "project": mem.project,
                    }
                )
    return found


def _forget_copies(mem: Memory, forms: list[str], dry_run: bool) -> list[str]:
    """The history versions and drift backups of each target of ``mem`` that hold one of
    ``forms``, removed (a dry run: listed)."""
    gone: list[str] = []
    for target in FILENAMES:
        gone += mem.backend.forget_copies(
            target,
            lambda text: contains(text, forms),
            lock_timeout=mem.settings.memory.lock_timeout,
            dry_run=dry_run,
        )
    return gone


def _forget_staged(mem: Memory, forms: list[str], dry_run: bool) -> list[str]:
    """The ids of the memory writes waiting for approval in ``mem``'s store that hold one
    of ``forms``, removed (a dry run: listed): approving one would write the text back."""
    gov = mem.governor
    assert gov is not None
    pending = gov.pending("memory")
    if dry_run:  # a listing writes nothing: no lock, so it works on a read-only home
        return [r.id for r in pending.listing().records if contains(r.to_json(), forms)]
    gone: list[str] = []
    with pending.lock():
        for record in pending.listing().records:
            if contains(record.to_json(), forms):
                gone.append(record.id)
                pending.remove(record.id)
    return gone


def _note_audited_sessions(gov: Governor, match: str, report: ForgetReport) -> None:
    """Say how many audit records name a writer session whose id holds ``match``: the
    journal is hash-chained and keeps them (rewriting it would break its verification)."""
    forms = needles(match)
    try:
        named = sum(1 for rec in gov.journal.records() if contains(rec.get("session"), forms))
    except StorageError:
        return
    if named:
        report.notes.append(
            f"{named} audit record(s) name a writing session whose id holds the text; the "
            "audit journal is hash-chained and keeps them as they are"
        )
