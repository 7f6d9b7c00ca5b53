"""``mnemic db copy``: move a home's memory into PostgreSQL and back, with verified counts.

Either side is a home directory (its files and ``sessions.db``) or a database URL (a
schema of it). Everything moves:

* the curated targets with their version history (ids, times and texts kept) and drift
  backups;
* the session history (sessions whose id the destination already has are left alone;
  message ids are the destination's own, their order inside each session is kept) and
  its tombstones (what ``mnemic forget --sessions`` removed stays out of later imports
  into the destination);
* the pending queue (records whose id the destination has are left alone);
* the audit journal, verbatim (so its chain still verifies), when the destination's is
  empty; otherwise it is left out and the report says so.

Project stores (``mnemic.curated.scope``) move with the global one: each project's
curated targets, pending queue and audit journal, under the same rules, counted as
``project DIR: ...`` (a files home's ``projects/<id>/`` directories, a database's rows
of that project and its catalog row). They have no session history of their own.

A target the destination already holds with different text stops the copy before
anything is written, unless ``overwrite`` (then the destination's versions of that
target are replaced by the source's). Afterwards every kind is counted again at the
destination and compared with the source; :attr:`CopyReport.verified` is true only if
everything that was to move is there.

The source should be quiet while it is copied (no agent writing to it); the copy reads
each kind once, and a write in between is simply not part of the copy.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ...config import Settings
from ...curated.backend import version_text
from ...curated.entries import FILENAMES, TARGETS
from ...curated.scope import PROJECT_FILE, PROJECTS_DIR, stored_projects
from ...errors import InvalidArgument, StorageError
from ...fsio import atomic_write_text, ensure_private_dir, read_text_strict
from ...governance.pending import PendingQueueStore, PendingRecord
from ...governance.storage import Journal
from ...home import Home
from ...sessions.sql import SessionStore
from ...sessions.store import Message, NewMessage, NewSession, SessionInfo
from ..files.curated import FileBackend
from ..files.journal import HEAD_SIZE, AuditJournal
from ..files.pending import PendingStore
from .curated import PostgresBackend, check_project, project_rows, record_project, store_place
from .db import Database, mask_url
from .governance import PostgresJournalStore, PostgresPendingRecords
from .migrations import check_schema, migrate as run_migrations
from .sessions import PostgresSessionStore

log = logging.getLogger(__name__)

__all__ = ["CopyReport", "Kept", "Side", "copy_memory", "open_side"]

SUBSYSTEMS = ("memory", "skills")

Versions = list[tuple[int, float, str]]
"""(id, saved_at, text) of a target's kept versions, oldest first."""
Backups = list[tuple[float, str]]
"""(saved_at, text) of a target's drift backups, oldest first."""


class Kept(NamedTuple):
    """Everything a side keeps of one curated target."""

    current: str | None
    versions: Versions
    backups: Backups
    ledger: str | None
    """The provenance ledger (``None``: none, or unreadable)."""


@dataclass
class KindCount:
    """One kind of thing that moved."""

    source: int = 0
    copied: int = 0
    skipped: int = 0
    destination: int = 0
    """Found at the destination afterwards (of those that were to be there)."""
    expected: int = 0
    """How many had to be at the destination afterwards."""

    @property
    def ok(self) -> bool:
        return self.destination == self.expected


@dataclass
class CopyReport:
    """What :func:`copy_memory` moved, and whether the destination verified."""

    source: str
    destination: str
    kinds: dict[str, KindCount] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        """Every kind that was to move is at the destination."""
        return all(k.ok for k in self.kinds.values())

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "source": self.source,
            "destination": self.destination,
            "verified": self.verified,
            "kinds": {
                name: {
                    "source": k.source,
                    "copied": k.copied,
                    "skipped": k.skipped,
                    "expected_at_destination": k.expected,
                    "found_at_destination": k.destination,
                    "ok": k.ok,
                }
                for name, k in self.kinds.items()
            },
            "notes": list(self.notes),
        }


# -- the two kinds of side ------------------------------------------------------------------


class Side:
    """A home directory or a database schema, as a source or a destination."""

    label: str

    def sessions(self, *, create: bool = True) -> SessionStore | None:
        """The session store (None: a home without session history, unless ``create``)."""
        raise NotImplementedError

    def current(self, target: str) -> str | None:
        raise NotImplementedError

    def versions(self, target: str) -> Versions:
        """The kept versions of a target."""
        raise NotImplementedError

    def backups(self, target: str) -> Backups:
        """The drift backups of a target."""
        raise NotImplementedError

    def provenance(self, target: str) -> str | None:
        """The provenance ledger of a target (``None``: none, or unreadable: logged)."""
        try:
            return self._curated().read_provenance(target)
        except StorageError as exc:
            log.warning("provenance of %s not copied: %s", target, exc.to_llm())
            return None

    def _curated(self) -> FileBackend | PostgresBackend:
        raise NotImplementedError

    def kept(self, target: str) -> Kept:
        """Everything this side keeps of a target."""
        return Kept(
            self.current(target),
            self.versions(target),
            self.backups(target),
            self.provenance(target),
        )

    def put_target(self, target: str, kept: Kept) -> None:
        """Make the target exactly ``kept`` (replacing what the side had, provenance too)."""
        raise NotImplementedError

    def _pending_store(self, subsystem: str) -> PendingQueueStore:
        """The pending queue of ``subsystem``."""
        raise NotImplementedError

    def pending(self, subsystem: str) -> list[PendingRecord]:
        return list(self._pending_store(subsystem).listing().records)

    def put_pending(self, record: PendingRecord) -> bool:
        return self._pending_store(record.subsystem).insert(record)

    def _journal(self) -> Journal:
        """The audit journal."""
        raise NotImplementedError

    def journal_lines(self) -> list[str]:
        raise NotImplementedError

    def put_journal(self, lines: list[str]) -> None:
        raise NotImplementedError

    def journal_ok(self) -> bool:
        return self._journal().verify().ok

    def projects(self) -> dict[str, str]:
        """The id and directory of each project store this side holds."""
        raise NotImplementedError

    def project(self, project_id: str) -> Side:
        """The side of one project store (its curated targets, queue and journal)."""
        raise NotImplementedError

    def add_project(self, project_id: str, path: str) -> None:
        """Record that this side holds the store of project ``project_id``."""
        raise NotImplementedError


class HomeSide(Side):
    """A home directory: files and ``sessions.db``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.label = str(root)
        self.files = FileBackend(root / "memories", history_limit=1_000_000)
        self._store: SessionStore | None = None

    def sessions(self, *, create: bool = True) -> SessionStore | None:
        if self._store is None:
            from ..files.sqlite import SQLiteSessionStore

            path = self.root / "sessions.db"
            if not create and not path.exists():
                return None
            self._store = SQLiteSessionStore(path)
        return self._store

    def current(self, target: str) -> str | None:
        return self.files.read(target)

    def versions(self, target: str) -> Versions:
        return [
            (v.id, v.saved_at, version_text(self.files, target, v.id))
            for v in self.files.history(target)
        ]

    def backups(self, target: str) -> Backups:
        out = []
        for b in self.files.backups(target):
            out.append((b.saved_at, read_text_strict(b.location, nofollow=True) or ""))
        return out

    def _curated(self) -> FileBackend:
        return self.files

    def put_target(self, target: str, kept: Kept) -> None:
        current, versions, backups, ledger = kept
        name = FILENAMES[target]
        with self.files.transaction([target], 10.0) as txn:
            if ledger is not None:
                txn.write_provenance(target, ledger)
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.files.provenance_path(target))
            history = self.files.history_dir
            for old in self.files.history(target):
                os.unlink(old.location)
            for old_backup in self.files.backups(target):
                os.unlink(old_backup.location)
            if versions:
                ensure_private_dir(history)
            for seq, saved_at, text in versions:
                atomic_write_text(history / f"{name}.{seq:06d}.{int(saved_at * 1000)}", text)
            for i, (saved_at, text) in enumerate(backups):
                stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(saved_at))
                dest = self.files.directory / f"{name}.bak.{stamp}.{i:04x}"
                atomic_write_text(dest, text)
                os.utime(dest, (saved_at, saved_at))
            path = self.files.path(target)
            if current is None:
                if path.exists():
                    os.unlink(path)
            else:
                atomic_write_text(path, current)

    def projects(self) -> dict[str, str]:
        found = stored_projects(Home(self.root, Settings()))
        return {p.project.id: p.project.path for p in found}

    def project(self, project_id: str) -> HomeSide:
        return HomeSide(self.root / PROJECTS_DIR / check_project(project_id))

    def add_project(self, project_id: str, path: str) -> None:
        root = self.root / PROJECTS_DIR / check_project(project_id)
        ensure_private_dir(root.parent)
        ensure_private_dir(root)
        atomic_write_text(root / PROJECT_FILE, json.dumps({"path": path}, ensure_ascii=False))

    def _pending_store(self, subsystem: str) -> PendingStore:
        return PendingStore(self.root / "pending", subsystem)

    def _journal(self) -> AuditJournal:
        return AuditJournal(self.root / "audit")

    def journal_lines(self) -> list[str]:
        path = self.root / "audit" / "journal.jsonl"
        text = read_text_strict(path, nofollow=True)  # never blocks on a planted FIFO
        return [ln for ln in (text or "").split("\n") if ln.strip()]

    def put_journal(self, lines: list[str]) -> None:
        directory = self.root / "audit"
        ensure_private_dir(directory)
        atomic_write_text(directory / "journal.jsonl", "".join(f"{ln}\n" for ln in lines))
        last = json.loads(lines[-1])["hash"] if lines else "0" * 64
        head = json.dumps({"count": len(lines), "hash": last}, separators=(",", ":"))
        atomic_write_text(directory / "head", head.ljust(HEAD_SIZE - 1) + "\n")


class DatabaseSide(Side):
    """A schema of a PostgreSQL database."""

    def __init__(self, db: Database, project: str = "") -> None:
        self.db = db
        self.label = store_place(db, project)
        self.curated = PostgresBackend(db, history_limit=1_000_000, project=project)
        self.project_id = project
        self._store: SessionStore | None = None

    def sessions(self, *, create: bool = True) -> SessionStore | None:
        if self.project_id:  # a project store has no session history of its own
            return None
        if self._store is None:
            self._store = PostgresSessionStore(self.db)
        return self._store

    def current(self, target: str) -> str | None:
        return self.curated.read(target)

    def versions(self, target: str) -> Versions:
        rows = self.curated.kept("versions", target, bodies=True)
        return [(int(seq), float(at), str(body)) for seq, at, body in rows]

    def backups(self, target: str) -> Backups:
        rows = self.curated.kept("backups", target, bodies=True)
        return [(float(at), str(body)) for _, at, body in rows]

    def _curated(self) -> PostgresBackend:
        return self.curated

    def put_target(self, target: str, kept: Kept) -> None:
        current, versions, backups, ledger = kept
        pid = self.project_id
        with self.curated.transaction([target], 10.0) as txn:
            conn, sql = txn.conn, self.db.sql
            tables = ("curated", "curated_versions", "curated_backups", "curated_provenance")
            for table in tables:
                conn.execute(
                    sql(f"DELETE FROM {{s}}.{table} WHERE target = %s AND project = %s"),
                    (target, pid),
                )
            if ledger is not None:
                txn.write_provenance(target, ledger)
            with conn.cursor() as cur:
                cur.executemany(
                    sql(
                        "INSERT INTO {s}.curated_versions (project, target, seq, saved_at, body) "
                        "VALUES (%s, %s, %s, %s, %s)"
                    ),
                    [(pid, target, seq, at, text) for seq, at, text in versions],
                )
                cur.executemany(
                    sql(
                        "INSERT INTO {s}.curated_backups (project, target, saved_at, body) "
                        "VALUES (%s, %s, %s, %s)"
                    ),
                    [(pid, target, at, text) for at, text in backups],
                )
            if current is not None:
                conn.execute(
                    sql(
                        "INSERT INTO {s}.curated (project, target, body, version) "
                        "VALUES (%s, %s, %s, %s)"
                    ),
                    (pid, target, current, len(versions) + 1),
                )

    def _pending_store(self, subsystem: str) -> PendingQueueStore:
        records = PostgresPendingRecords(self.db, subsystem, project=self.project_id)
        return PendingQueueStore(records, subsystem)

    def _journal(self) -> Journal:
        return Journal(PostgresJournalStore(self.db, self.project_id))

    def journal_lines(self) -> list[str]:
        return PostgresJournalStore(self.db, self.project_id).lines()

    def projects(self) -> dict[str, str]:
        return {} if self.project_id else project_rows(self.db)

    def project(self, project_id: str) -> DatabaseSide:
        return DatabaseSide(self.db, check_project(project_id))

    def add_project(self, project_id: str, path: str) -> None:
        record_project(self.db, project_id, path)

    def put_journal(self, lines: list[str]) -> None:
        PostgresJournalStore(self.db, self.project_id).import_lines(lines)


def open_side(
    where: str, *, schema: str = "mnemic", migrate: bool = False, create: bool = False
) -> Side:
    """A side from a home path or a ``postgresql://`` URL (a destination is migrated, or
    created, first when ``migrate`` / ``create``)."""
    if where.startswith(("postgresql://", "postgres://")):
        db = Database(where, schema=schema)
        if migrate:
            run_migrations(db)
        check_schema(db)
        return DatabaseSide(db)
    root = Path(os.path.expanduser(where))
    if create and not root.exists():
        ensure_private_dir(root)
    if not root.is_dir():
        raise InvalidArgument("from", f"{where} is not a home directory (nor a postgresql:// URL)")
    return HomeSide(root)


# -- the copy ------------------------------------------------------------------------------


def _all_sessions(store: SessionStore) -> list[SessionInfo]:
    out: list[SessionInfo] = []
    offset = 0
    while True:
        page = store.list_sessions(limit=1000, offset=offset, order="started")
        out.extend(page)
        if len(page) < 1000:
            return out
        offset += len(page)


def _as_new(m: Message) -> NewMessage:
    return NewMessage(
        m.role,
        m.content,
        tool_name=m.tool_name,
        tool_calls=m.tool_calls,
        tool_call_id=m.tool_call_id,
        timestamp=m.timestamp,
        token_estimate=m.token_estimate,
        name=m.name,
    )


Store = tuple[str, Side, Side, list[tuple[str, Kept]], list[tuple[str, str]]]
"""(prefix of its kinds, source side, destination side, curated plan, pending ids)."""


def copy_memory(source: Side, destination: Side, *, overwrite: bool = False) -> CopyReport:
    """Copy everything from ``source`` to ``destination``; see the module docstring."""
    report = CopyReport(mask_url(source.label), mask_url(destination.label))
    # 1. curated: check every target of every store before writing anything
    projects = sorted(source.projects().items())
    stores: list[Store] = [("", source, destination, _plan(source, destination, overwrite), [])]
    for pid, path in projects:
        mine, theirs = source.project(pid), destination.project(pid)
        plan = _plan(mine, theirs, overwrite)
        stores.append((f"project {path or pid}: ", mine, theirs, plan, []))
    for pid, path in projects:
        destination.add_project(pid, path)
    for prefix, mine, theirs, plan, wanted in stores:
        _copy_store(prefix, mine, theirs, plan, wanted, report)
    # 4. sessions
    sessions, messages = KindCount(), KindCount()
    src = source.sessions(create=False)
    dst = destination.sessions() if src is not None else None
    infos = _all_sessions(src) if src is not None else []
    sessions.source = sessions.expected = len(infos)
    messages.source = messages.expected = sum(i.message_count for i in infos)
    if src is not None and dst is not None and infos:

        def items() -> Iterator[tuple[NewSession, list[NewMessage]]]:
            assert src is not None
            for info in infos:
                spec = NewSession(
                    info.id, info.source, info.title, info.model, info.parent_id,
                    info.started_at, info.metadata,
                )  # fmt: skip
                yield spec, [_as_new(m) for m in src.messages(info.id)]

        ended = {i.id: i for i in infos if i.ended_at is not None}
        for sid, ids, *_ in dst.import_sessions(items()):
            if ids is None:
                sessions.skipped += 1
                continue
            sessions.copied += 1
            messages.copied += len(ids)
            info = ended.get(sid)
            if info is not None:
                dst.end_session(sid, info.end_reason or "ended", ended_at=info.ended_at)
        messages.skipped = messages.source - messages.copied
    report.kinds["sessions"] = sessions
    report.kinds["messages"] = messages
    if src is not None and dst is not None:
        marks = src.tombstones()
        dst.keep_tombstones(marks)
        dst_marks = set(dst.tombstones())
        n = len(marks)
        report.kinds["tombstones"] = KindCount(n, n, 0, sum(m in dst_marks for m in marks), n)
    for prefix, src_side, dst_side, _, wanted in stores:
        _verify_store(prefix, src_side, dst_side, wanted, report)
    _verify(source, destination, report, infos)
    return report


def _plan(source: Side, destination: Side, overwrite: bool) -> list[tuple[str, Kept]]:
    """What each curated target of ``source`` becomes at ``destination``; a target the
    destination holds with other text refuses the copy (unless ``overwrite``)."""
    plan: list[tuple[str, Kept]] = []
    for target in TARGETS:
        kept = source.kept(target)
        there = destination.current(target)
        clash = there is not None and there != kept.current
        if clash and not overwrite:
            raise StorageError(
                f"{destination.label} already holds a different {FILENAMES[target]}; nothing "
                "was copied. Copy into an empty destination, or pass --overwrite to replace "
                "its curated memory (its current text is then lost from there)."
            )
        plan.append((target, kept))
    return plan


def _copy_store(
    prefix: str,
    source: Side,
    destination: Side,
    plan: list[tuple[str, Kept]],
    wanted: list[tuple[str, str]],
    report: CopyReport,
) -> None:
    """Steps 1-3 for one store (the global one, or a project's): its curated targets as
    ``plan`` says, its pending writes (their ids added to ``wanted``), its journal."""
    for target, kept in plan:
        destination.put_target(target, kept)
        name = prefix + FILENAMES[target]
        for kind, n in ((name, int(kept.current is not None)),
                        (f"{name} versions", len(kept.versions)),
                        (f"{name} backups", len(kept.backups))):  # fmt: skip
            report.kinds[kind] = KindCount(n, n, 0, 0, n)
    # 2. pending writes
    pend = KindCount()
    for subsystem in SUBSYSTEMS:
        for record in source.pending(subsystem):
            pend.source += 1
            wanted.append((subsystem, record.id))
            if destination.put_pending(record):
                pend.copied += 1
            else:
                pend.skipped += 1
    pend.expected = len(wanted)
    report.kinds[f"{prefix}pending writes"] = pend
    # 3. the audit journal
    lines = source.journal_lines()
    audit = KindCount(len(lines))
    existing = destination.journal_lines()
    if not existing:
        if lines:
            destination.put_journal(lines)
        audit.copied = audit.expected = len(lines)
    elif existing[: len(lines)] == lines:
        audit.skipped = audit.expected = len(lines)
        report.notes.append(f"{prefix}the destination's audit journal already holds these records")
    else:
        audit.skipped = len(lines)
        report.notes.append(
            f"{prefix}the audit journal was not copied: the destination's holds "
            f"{len(existing)} other record(s), and a journal cannot be merged without "
            "breaking its chain"
        )
    report.kinds[f"{prefix}audit records"] = audit


def _verify_store(
    prefix: str,
    source: Side,
    destination: Side,
    wanted: list[tuple[str, str]],
    report: CopyReport,
) -> None:
    """Count one store's curated targets, pending writes and journal again at the
    destination."""
    for target in TARGETS:
        name = prefix + FILENAMES[target]
        current = destination.current(target)
        expected = source.current(target)
        report.kinds[name].destination = int(current is not None and current == expected)
        mine = {(seq, text) for seq, _, text in destination.versions(target)}
        theirs = {(seq, text) for seq, _, text in source.versions(target)}
        report.kinds[f"{name} versions"].destination = len(mine & theirs)
        report.kinds[f"{name} backups"].destination = min(
            len(destination.backups(target)), report.kinds[f"{name} backups"].expected
        )
    present = {(s, r.id) for s in SUBSYSTEMS for r in destination.pending(s)}
    report.kinds[f"{prefix}pending writes"].destination = sum(1 for w in wanted if w in present)
    audit = report.kinds[f"{prefix}audit records"]
    lines = destination.journal_lines()
    source_lines = source.journal_lines()
    audit.destination = audit.expected if lines[: len(source_lines)] == source_lines else 0
    if audit.expected and not destination.journal_ok():
        audit.destination = 0
        report.notes.append(f"{prefix}the destination's audit journal does not verify")


def _verify(source: Side, destination: Side, report: CopyReport, infos: list[SessionInfo]) -> None:
    """Count the sessions again at the destination."""
    dst = destination.sessions(create=False)
    if dst is not None and infos:
        found = {i.id: i.message_count for i in _all_sessions(dst)}
        report.kinds["sessions"].destination = sum(1 for i in infos if i.id in found)
        report.kinds["messages"].destination = sum(
            min(found.get(i.id, 0), i.message_count) for i in infos
        )
    for side in (source, destination):
        store = side.sessions(create=False)
        if store is not None:
            store.close()
