"""Privacy: forget the user profile, or every session message that mentions something.

``mnemic forget --user`` (:func:`forget_user`) removes USER.md with every copy of it:
its history versions, drift backups, temp files, texts kept by a failed edit, and the
pending writes that would touch it. The audit journal keeps hashes, never content, so
it is not rewritten (and its chain stays verifiable); the forgetting itself is audited.

``mnemic forget --sessions MATCH`` (:func:`forget_sessions`) removes every session
message that holds MATCH in any column (text, participant name, tool name, tool-call
arguments, tool call id, source key; ASCII letters case-insensitive), with its full-text
index entries, and rewrites every session column that holds it: an id gets a new one
(children follow), a source becomes ``redacted``, a title or model is cleared, metadata
loses the keys that hold it (:mod:`mnemic.sessions.forgetting`). In SQLite, so that no
byte survives in the database file, this runs with ``PRAGMA secure_delete = ON``, the
full-text index is rewritten (``optimize``: a contentless FTS5 index keeps its terms
until its segments are merged), the database is vacuumed and the write-ahead log is
checkpointed and truncated. Another process that keeps the database open can delay the
truncation; the report says so. In PostgreSQL the tables are vacuumed and analysed (the
planner's statistics sample column values).

Afterwards no file under the home holds the forgotten text (the tests grep every byte,
SQLite files included). Separate profiles are separate homes and are not touched.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..curated.backend import FileBackend
from ..curated.entries import FILENAMES, parse
from ..curated.store import file_hash
from ..errors import ConfigError, InvalidArgument, StorageError
from ..fsio import fsync_dir, stale_temp_files

if TYPE_CHECKING:
    from ..curated.memory import Memory
    from ..home import Home
    from .governor import Governor
    from .storage import PendingQueueStore

__all__ = ["ForgetReport", "forget_sessions", "forget_user"]


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
    sessions: int = 0
    """Sessions that lost messages or their title."""
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "what": self.what,
            "dry_run": self.dry_run,
            "files": list(self.files),
            "pending": list(self.pending),
            "messages": self.messages,
            "sessions": self.sessions,
            "notes": list(self.notes),
        }


def _open(home: Home | str | Path | None, origin: str, clock: Callable[[], float] | None) -> Memory:
    from ..curated.memory import Memory

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
    purge = getattr(backend, "purge", None)
    if not isinstance(backend, FileBackend) and purge is None:
        raise ConfigError(
            "store", "forget --user needs the files backend; use the database's own purge"
        )
    report = ForgetReport("user", dry_run)
    pending = gov.pending("memory")
    if not isinstance(backend, FileBackend):
        with pending.lock():
            before = backend.read("user")
            report.files.extend(purge("user", dry_run=dry_run))  # type: ignore[misc]
            _forget_pending(pending, report, dry_run)
        return _forget_user_done(gov, report, before, gov.root / "sessions.db")
    with pending.lock():
        # The user lock (and a completed interrupted commit) first: no writer in between.
        with backend.transaction(["user"], mem.settings.memory.lock_timeout):
            path = backend.path("user")
            try:
                before = backend.read("user")
            except StorageError:
                before = None
            victims = [str(path)] if os.path.lexists(path) else []
            victims += [v.location for v in backend.history("user")]
            victims += [str(p) for p in backend.backups("user")]
            victims += stale_temp_files(path)
            report.files.extend(victims)
            if not dry_run:
                for victim in victims:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(victim)
                fsync_dir(backend.directory)
                if backend.history_dir.exists():
                    fsync_dir(backend.history_dir)
        _forget_pending(pending, report, dry_run)
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
    return _forget_user_done(gov, report, before, gov.root / "sessions.db")


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


def _forget_user_done(
    gov: Governor, report: ForgetReport, before: str | None, sessions_db: Path
) -> ForgetReport:
    dry_run = report.dry_run
    entries = parse(before) if before else []
    quoted = _count_quotes(sessions_db, entries)
    if quoted:
        report.notes.append(
            f"{quoted} session message(s) quote the forgotten profile; remove them with "
            "`mnemic forget --sessions TEXT` for each fact"
        )
    if not dry_run:
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


def _where(columns: tuple[str, ...], needles: list[str]) -> tuple[str, list[str]]:
    parts = []
    params: list[str] = []
    for col in columns:
        for n in needles:
            parts.append(f"instr(lower({col}), lower(?)) > 0")
            params.append(n)
    return " OR ".join(parts), params


_MESSAGE_COLUMNS = ("content", "name", "tool_name", "tool_calls")


def _count_quotes(db: Path, entries: list[str]) -> int:
    if not entries or not db.exists():
        return 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5.0)
    except sqlite3.Error:
        return 0
    try:
        from ..sessions.forgetting import needles as stored_forms

        needles = [v for e in entries for v in stored_forms(e)]
        where, params = _where(_MESSAGE_COLUMNS, needles)
        row = conn.execute(f"SELECT COUNT(*) FROM messages WHERE {where}", params).fetchone()
        return int(row[0])
    except sqlite3.Error:
        return 0
    finally:
        conn.close()


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
    if not isinstance(match, str) or len(match.strip()) < 3:
        raise InvalidArgument(
            "match",
            "Give the text to forget (at least 3 characters); it is matched as a substring.",
        )
    from ..home import Home as _Home

    if not isinstance(home, _Home):
        home = _Home.open(home)
    mem = _open(home, origin, clock)
    gov = mem.governor
    assert gov is not None
    report = ForgetReport("sessions", dry_run)
    remote = home.settings.store != "files"
    if not remote and not home.sessions_db.exists():
        report.notes.append("there is no session history")
        _note_audited_sessions(gov, match, report)
        return report
    from ..sessions import open_store

    with open_store(home) as store:
        result = store.forget(match, dry_run=dry_run)
        report.files.append(getattr(store, "location", None) or str(home.sessions_db))
    report.messages, report.sessions = result.messages, result.sessions
    report.notes.extend(result.notes)
    if result.renamed:
        report.notes.append(
            f"{result.renamed} session id(s) held the text; "
            f"{'they would get' if dry_run else 'they have'} new ids"
        )
    if remote:
        report.notes.append(
            "the rows are deleted and the tables vacuumed; PostgreSQL's write-ahead log, "
            "replicas and backups keep older pages until they are recycled"
        )
    _note_audited_sessions(gov, match, report)
    if not dry_run:
        gov.record(
            subsystem="sessions",
            target="sessions" if remote else "sessions.db",
            action="forget",
            decision="manual",
            result="ok" if report.messages or report.sessions else "noop",
            removed={"messages": report.messages, "sessions": report.sessions},
        )
    return report


def _note_audited_sessions(gov: Governor, match: str, report: ForgetReport) -> None:
    """Say how many audit records name a writer session whose id holds ``match``: the
    journal is hash-chained and keeps them (rewriting it would break its verification)."""
    from ..sessions.forgetting import contains, needles

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
