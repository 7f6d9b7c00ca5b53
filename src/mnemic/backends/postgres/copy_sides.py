"""The two kinds of side ``mnemic db copy`` moves memory between (:mod:`.copy`): a home
directory (its files and ``sessions.db``, and its project stores under ``projects/``) and
a schema of a PostgreSQL database (and its project stores, rows keyed by their id).

Each side reads and writes one store's curated targets (texts, kept versions, drift
backups, provenance), pending queue and audit journal, and opens the side of each of its
project stores (:meth:`Side.project`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from pathlib import Path
from typing import NamedTuple

from ...config import Settings
from ...curated.backend import version_text
from ...curated.entries import FILENAMES
from ...curated.scope import PROJECT_FILE, PROJECTS_DIR, stored_projects
from ...errors import InvalidArgument, StorageError
from ...fsio import atomic_write_text, ensure_private_dir, read_text_strict
from ...governance.pending import PendingQueueStore, PendingRecord
from ...governance.storage import Journal
from ...home import Home
from ...sessions.sql import SessionStore
from ..files.curated import FileBackend
from ..files.journal import HEAD_SIZE, AuditJournal
from ..files.pending import PendingStore
from .curated import PostgresBackend, check_project, project_rows, record_project, store_place
from .db import Database
from .governance import PostgresJournalStore, PostgresPendingRecords
from .migrations import check_schema, migrate as run_migrations
from .sessions import PostgresSessionStore

log = logging.getLogger(__name__)

__all__ = ["Backups", "DatabaseSide", "HomeSide", "Kept", "Side", "Versions", "open_side"]

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
        """The journal's records: a torn tail (a writer killed mid-append leaves text
        after the last newline) is no record, and verifies apart, so it stays behind."""
        path = self.root / "audit" / "journal.jsonl"
        text = read_text_strict(path, nofollow=True)  # never blocks on a planted FIFO
        whole = (text or "").rpartition("\n")[0]
        return [ln for ln in whole.split("\n") if ln.strip()]

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
