"""The pending queue and the audit journal in PostgreSQL.

Pending writes
    One row per staged write in ``pending`` (subsystem, id, created_at, the record as
    JSON text, the same JSON the file queue keeps). :meth:`PostgresPendingStore.lock` is
    a session-level advisory lock on ``pending/<subsystem>`` held on a connection of its
    own, so two approvers on two hosts never apply one record twice; the statements in
    between run on other connections.

Audit journal
    One row per record in ``audit`` (``seq``, the canonical JSON line, byte for byte what
    the file journal appends) and the head in ``audit_head`` (count, hash of the last
    record). An append locks the head row (``SELECT ... FOR UPDATE``), so appends from
    every host form one chain. An append made while a curated transaction is open on
    the same thread joins that transaction (inside a savepoint, so a failed append never
    fails the write): a memory mutation commits together with its audit record or not
    at all. :meth:`PostgresJournal.verify` runs the same checks as the file journal
    (:func:`~mnemic.governance.audit.verify_chain`): an edited, removed, inserted or
    moved row, or rows cut from the end, are reported.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ...errors import LockTimeout, MnemicError, PendingNotFound, StorageError, UnsafePath
from ...governance.audit import VerifyReport, make_record, verify_chain
from ...governance.chain import unreadable
from ...governance.pending import BasePendingStore, PendingListing, PendingRecord, valid_id
from .curated import current_transaction
from .db import Database, atomic, is_lock_timeout, mapped_errors

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresJournal", "PostgresPendingStore"]


class PostgresPendingStore(BasePendingStore):
    """The pending writes of one subsystem in the database (see the module docstring)."""

    def __init__(
        self,
        db: Database,
        subsystem: str,
        *,
        ttl_hours: float = 168.0,
        limit: int = 200,
        clock: Callable[[], float] = time.time,
        lock_timeout: float = 10.0,
    ) -> None:
        super().__init__(
            subsystem, ttl_hours=ttl_hours, limit=limit, clock=clock, lock_timeout=lock_timeout
        )
        self.db = db

    @property
    def location(self) -> str:
        return f"{self.db.location}: pending/{self.subsystem}"

    def _where(self, pending_id: str) -> str:
        return f"{self.location}/{pending_id}"

    # -- the lock --------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        key = self.db.key(f"pending/{self.subsystem}")
        started = time.monotonic()
        with mapped_errors(self.location, writing=True), self.db.connection() as conn:
            try:
                conn.execute(f"SET lock_timeout = {max(1, int(self.lock_timeout * 1000))}")
                conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            except Exception as exc:
                if is_lock_timeout(exc):
                    raise LockTimeout(self.location, time.monotonic() - started) from exc
                raise
            finally:
                with contextlib.suppress(Exception):
                    conn.execute("RESET lock_timeout")
            try:
                yield
            finally:
                try:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
                except Exception:
                    conn.close()  # the lock ends with the session; never pool it held

    # -- reading -----------------------------------------------------------------------
    def present(self) -> bool:
        return True

    def has(self, pending_id: str) -> bool:
        if not valid_id(pending_id):
            raise PendingNotFound(pending_id)
        row = self._one(
            "SELECT 1 FROM {s}.pending WHERE subsystem = %s AND id = %s",
            (self.subsystem, pending_id),
        )
        return row is not None

    def _fetch(self, pending_id: str) -> tuple[str | None, str]:
        if not valid_id(pending_id):
            raise PendingNotFound(pending_id)
        row = self._one(
            "SELECT record FROM {s}.pending WHERE subsystem = %s AND id = %s",
            (self.subsystem, pending_id),
        )
        return (None if row is None else row[0]), self._where(pending_id)

    def listing(self) -> PendingListing:
        rows = self._all(
            "SELECT id, record FROM {s}.pending WHERE subsystem = %s ORDER BY created_at, id",
            (self.subsystem,),
        )
        records: list[PendingRecord] = []
        problems: list[tuple[str, str]] = []
        for pending_id, text in rows:
            try:
                records.append(PendingRecord.from_dict(json.loads(text)))
            except ValueError as exc:
                problems.append((self._where(pending_id), f"not a pending record: {exc}"))
        records.sort(key=lambda r: (r.created_at, r.id))
        return PendingListing(tuple(records), tuple(problems))

    def ids(self) -> list[str]:
        try:
            rows = self._all(
                "SELECT id FROM {s}.pending WHERE subsystem = %s ORDER BY id", (self.subsystem,)
            )
        except StorageError:
            return []
        return [str(r[0]) for r in rows]

    # -- writing -------------------------------------------------------------------------
    def _count(self) -> int:
        return len(self.ids())

    def _store(self, record: PendingRecord) -> None:
        self._run(
            "INSERT INTO {s}.pending (subsystem, id, created_at, record) VALUES (%s, %s, %s, %s)",
            (self.subsystem, record.id, record.created_at, record.to_json()),
        )

    def insert(self, record: PendingRecord) -> bool:
        """Store a record as it is (copying a queue); False if its id is taken."""
        count = self._run(
            "INSERT INTO {s}.pending (subsystem, id, created_at, record) "
            "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (self.subsystem, record.id, record.created_at, record.to_json()),
        )
        return count > 0

    def remove(self, pending_id: str) -> bool:
        if not valid_id(pending_id):
            raise PendingNotFound(pending_id)
        return (
            self._run(
                "DELETE FROM {s}.pending WHERE subsystem = %s AND id = %s",
                (self.subsystem, pending_id),
            )
            > 0
        )

    def cleanup(self, *, dry_run: bool = False) -> list[str]:
        """Nothing to clean up: staging is one transaction."""
        return []

    def remove_file(self, path: str) -> bool:
        prefix = self.location + "/"
        if not path.startswith(prefix):
            raise UnsafePath(path, "not a record of the pending queue")
        return self.remove(path[len(prefix) :])

    # -- plumbing ------------------------------------------------------------------------
    def _one(self, sql: str, params: tuple[Any, ...]) -> Any:
        rows = self._all(sql, params)
        return rows[0] if rows else None

    def _all(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with mapped_errors(self.location, writing=False), self.db.connection() as conn:
            return conn.execute(self.db.sql(sql), params).fetchall()

    def _run(self, sql: str, params: tuple[Any, ...]) -> int:
        with mapped_errors(self.location, writing=True), self.db.connection() as conn:
            return int(conn.execute(self.db.sql(sql), params).rowcount or 0)


class PostgresJournal:
    """The audit journal of a database schema (see the module docstring)."""

    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    @property
    def location(self) -> str:
        return f"{self.db.location}: audit"

    def append(self, **fields: Any) -> dict[str, Any]:
        """Append one record; see :meth:`mnemic.governance.audit.AuditJournal.append`."""
        joined = current_transaction(self.db)
        with mapped_errors(self.location, writing=True):
            if joined is not None:
                with joined.transaction():  # a savepoint of the curated transaction
                    return self._append(joined, fields)
            with self.db.connection() as conn, atomic(conn):
                return self._append(conn, fields)

    def _append(self, conn: psycopg.Connection[Any], fields: dict[str, Any]) -> dict[str, Any]:
        sql = self.db.sql
        row = conn.execute(sql("SELECT count, hash FROM {s}.audit_head FOR UPDATE")).fetchone()
        if row is None:
            raise StorageError(f"{self.location}: the journal head row is missing")
        seq, prev = int(row[0]), str(row[1])
        record, line = make_record(seq + 1, prev, self.clock(), fields)
        conn.execute(
            sql(
                "WITH appended AS (INSERT INTO {s}.audit (seq, line) VALUES (%(seq)s, %(line)s)) "
                "UPDATE {s}.audit_head SET count = %(seq)s, hash = %(hash)s"
            ),
            {"seq": seq + 1, "line": line, "hash": record["hash"]},
        )
        return record

    def torn_tail(self) -> dict[str, Any] | None:
        """Never: an append is one database transaction."""
        return None

    def repair(self) -> dict[str, Any] | None:
        """Nothing to repair (see :meth:`torn_tail`)."""
        return None

    def import_lines(self, lines: list[str]) -> int:
        """Append verbatim records (copying a journal) to an empty journal; return how many.

        The lines keep their sequence numbers and hashes, so the chain still verifies.
        """
        with self.db.connection() as conn, atomic(conn):
            sql = self.db.sql
            row = conn.execute(sql("SELECT count FROM {s}.audit_head FOR UPDATE")).fetchone()
            if row is None or int(row[0]) != 0:
                raise StorageError(f"{self.location} is not empty; records were not copied")
            last = None
            with conn.cursor() as cur:
                cur.executemany(
                    sql("INSERT INTO {s}.audit (seq, line) VALUES (%s, %s)"),
                    [(i, line) for i, line in enumerate(lines, 1)],
                )
            if lines:
                last = json.loads(lines[-1]).get("hash")
                conn.execute(
                    sql("UPDATE {s}.audit_head SET count = %s, hash = %s"),
                    (len(lines), str(last)),
                )
        return len(lines)

    def lines(self) -> list[str]:
        """Every stored line, in sequence order."""
        with self.db.connection() as conn:
            rows = conn.execute(self.db.sql("SELECT line FROM {s}.audit ORDER BY seq")).fetchall()
        return [str(r[0]) for r in rows]

    def count(self) -> int:
        """Records in the journal (as the head says)."""
        with self.db.connection() as conn:
            row = conn.execute(self.db.sql("SELECT count FROM {s}.audit_head")).fetchone()
        return int(row[0]) if row else 0

    def records(self) -> Iterator[dict[str, Any]]:
        """Every parsable record, oldest first (damaged rows are skipped: see verify)."""
        for line in self.lines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict):
                yield rec

    def verify(self) -> VerifyReport:
        """Walk the chain; report the first row that does not fit, and truncation."""
        try:
            with self.db.connection() as conn, atomic(conn):
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                head_row = conn.execute(
                    self.db.sql("SELECT count, hash FROM {s}.audit_head")
                ).fetchone()
                rows = conn.execute(
                    self.db.sql("SELECT line FROM {s}.audit ORDER BY seq")
                ).fetchall()
        except MnemicError as exc:
            return unreadable(exc.to_llm())
        except Exception as exc:
            if not _is_db_error(exc):
                raise
            return unreadable(str(exc))
        head = (int(head_row[0]), str(head_row[1])) if head_row else None
        return verify_chain([str(r[0]).encode("utf-8") for r in rows], head)


def _is_db_error(exc: BaseException) -> bool:
    import psycopg

    return isinstance(exc, psycopg.Error)
