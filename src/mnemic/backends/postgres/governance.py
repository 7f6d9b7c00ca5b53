"""The pending queue and the audit journal in PostgreSQL.

Both are raw stores under the governance kernel, which holds the policy once for every
backend: the queue's limit, expiry, ids and record form
(:class:`~mnemic.governance.pending.PendingQueueStore`), the journal's records, chain,
repair and verification (:class:`~mnemic.governance.chain.Journal`). Copying a journal
(``mnemic db copy``) reads and writes its lines verbatim here (:meth:`PostgresJournalStore.lines`,
:meth:`PostgresJournalStore.import_lines`).

Pending writes
    One row per staged write in ``pending`` (subsystem, id, created_at, the record as
    JSON text, the same JSON the file queue keeps). :meth:`PostgresPendingRecords.lock`
    is a session-level advisory lock on ``pending/<subsystem>`` held on a connection of
    its own, so two approvers on two hosts never apply one record twice; the statements
    in between run on other connections.

Audit journal
    One row per record in ``audit`` (``seq``, the canonical JSON line, byte for byte what
    the file journal appends) and the head in ``audit_head`` (count, hash of the last
    record). An append locks the head row (``SELECT ... FOR UPDATE``), so appends from
    every host form one chain. An append made while a curated transaction is open on
    the same thread joins that transaction: a memory mutation commits together with its
    audit record or not at all (an append that fails refuses the write). ``verify``
    runs the same checks as for the file journal: an edited, removed, inserted or moved
    row, or rows cut from the end, are reported.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

from ...errors import LockTimeout, StorageError
from ...governance.chain import (
    Entry,
    JournalSnapshot,
    JournalTail,
    Origin,
    commit_origins,
    recorded_states,
)
from .curated import check_project, current_transaction, store_place
from .curated_begin import AUDIT_HEAD
from .db import Database, atomic, is_lock_timeout, mapped_errors

__all__ = ["PostgresJournalStore", "PostgresPendingRecords"]

log = logging.getLogger(__name__)


class PostgresPendingRecords:
    """The ``pending`` rows of one subsystem: a
    :class:`~mnemic.governance.pending.PendingRecordStore`."""

    def __init__(
        self, db: Database, subsystem: str, lock_timeout: float = 10.0, project: str = ""
    ) -> None:
        self.db = db
        self.subsystem = subsystem
        self.lock_timeout = lock_timeout
        self.project = check_project(project)
        """The store whose queue this is: ``''`` (global) or a project's id."""

    @property
    def location(self) -> str:
        return f"{store_place(self.db, self.project)}: pending/{self.subsystem}"

    def where(self, pending_id: str) -> str:
        return f"{self.location}/{pending_id}"

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        name = f"pending/{self.subsystem}"
        key = self.db.key(f"projects/{self.project}/{name}" if self.project else name)
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

    def ids(self) -> list[str]:
        rows = self._all("SELECT id FROM {s}.pending WHERE subsystem = %s AND project = %s", ())
        return [str(r[0]) for r in rows]

    def get(self, pending_id: str) -> str | None:
        rows = self._all(
            "SELECT record FROM {s}.pending WHERE subsystem = %s AND project = %s AND id = %s",
            (pending_id,),
        )
        return str(rows[0][0]) if rows else None

    def scan(self) -> Iterator[tuple[str, str, str | StorageError]]:
        rows = self._all(
            "SELECT id, record FROM {s}.pending WHERE subsystem = %s AND project = %s "
            "ORDER BY created_at, id",
            (),
        )
        for pending_id, text in rows:
            yield str(pending_id), self.where(pending_id), str(text)

    def put(self, pending_id: str, created_at: float, text: str) -> bool:
        count = self._run(
            "INSERT INTO {s}.pending (subsystem, project, id, created_at, record) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (pending_id, created_at, text),
        )
        return count > 0

    def delete(self, pending_id: str) -> bool:
        count = self._run(
            "DELETE FROM {s}.pending WHERE subsystem = %s AND project = %s AND id = %s",
            (pending_id,),
        )
        return count > 0

    def cleanup(self, *, dry_run: bool = False) -> list[str]:
        """Nothing to clean up: staging is one transaction."""
        return []

    def _all(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        """Rows of ``sql``, whose first two parameters are this queue's subsystem and
        store (``params`` are the rest)."""
        scoped = (self.subsystem, self.project, *params)
        with mapped_errors(self.location, writing=False), self.db.connection() as conn:
            return conn.execute(self.db.sql(sql), scoped).fetchall()

    def _run(self, sql: str, params: tuple[Any, ...]) -> int:
        """Run ``sql`` (parameters as for :meth:`_all`); return the rows it changed."""
        scoped = (self.subsystem, self.project, *params)
        with mapped_errors(self.location, writing=True), self.db.connection() as conn:
            return int(conn.execute(self.db.sql(sql), scoped).rowcount or 0)


class PostgresJournalStore:
    """The ``audit`` and ``audit_head`` tables: a :class:`~mnemic.governance.chain.JournalStore`."""

    def __init__(self, db: Database, project: str = "", path: str = "") -> None:
        from psycopg import sql

        self.db = db
        self.project = check_project(project)
        """The store whose journal this is: ``''`` (global) or a project's id (each
        has a chain of its own)."""
        self.path = path
        """The project's directory (``''``: not known), for its catalog row."""
        self._literal = sql.Literal(self.project).as_string()

    @property
    def location(self) -> str:
        return f"{store_place(self.db, self.project)}: audit"

    def sql(self, text: str) -> str:
        """``text`` with ``{s}`` the schema and ``{p}`` this journal's project, quoted."""
        return self.db.sql(text).replace("{p}", self._literal)

    def _making(self) -> list[str]:
        """The statements that make a project's journal head row when it has none, and
        record the project in the catalog (kept as first recorded when it is there): run
        by a write that finds no head row, in its transaction. A project has no head
        row before its first write, nor after its store was dropped (its rows deleted),
        so the store is made again by whichever process writes to it next, however long
        it has been running. (The global store's head row is made by the schema's first
        migration.)"""
        from psycopg import sql

        if not self.project:
            return []
        made = [
            self.sql(
                "INSERT INTO {s}.audit_head (project, singleton, count, hash) "
                "VALUES ({p}, true, 0, repeat('0', 64)) ON CONFLICT (project) DO NOTHING"
            )
        ]
        if self.path:
            made.insert(
                0,
                self.sql(
                    "INSERT INTO {s}.projects (id, path, created_at) VALUES ({p}, "
                    f"{sql.Literal(self.path).as_string()}, "
                    "extract(epoch FROM clock_timestamp())) ON CONFLICT (id) DO NOTHING"
                ),
            )
        return made

    def import_lines(self, lines: list[str]) -> int:
        """Append verbatim records (copying a journal) to an empty journal; return how many.

        The lines keep their sequence numbers and hashes, so the chain still verifies.
        """
        with self.db.connection() as conn, atomic(conn):
            sql = self.sql
            for statement in self._making():
                conn.execute(statement)
            row = conn.execute(
                sql("SELECT count FROM {s}.audit_head WHERE project = {p} FOR UPDATE")
            ).fetchone()
            if row is None or int(row[0]) != 0:
                raise StorageError(f"{self.location} is not empty; records were not copied")
            with conn.cursor() as cur:
                cur.executemany(
                    sql("INSERT INTO {s}.audit (project, seq, line) VALUES ({p}, %s, %s)"),
                    [(i, line) for i, line in enumerate(lines, 1)],
                )
            if lines:
                last = json.loads(lines[-1]).get("hash")
                conn.execute(
                    sql("UPDATE {s}.audit_head SET count = %s, hash = %s WHERE project = {p}"),
                    (len(lines), str(last)),
                )
                records = [json.loads(line) for line in lines]
                for statement in self._state_statements(
                    [r for r in records if isinstance(r, dict)]
                ):
                    conn.execute(statement)
        return len(lines)

    def lines(self) -> list[str]:
        """Every stored line, in sequence order."""
        return [line.decode("utf-8") for line in self.snapshot().lines]

    def append(self, build: Callable[[JournalTail], list[Entry]]) -> list[Entry]:
        """Lock the head row, append what ``build`` makes of it, move the head; inside the
        curated transaction open on this thread, if any (its statements travel with the
        transaction's own, see :meth:`~.curated_txn.PgTxn.append_audit`: a memory write
        commits with its record, or neither does)."""
        joined = current_transaction(self.db, self.project)
        head = self.sql(AUDIT_HEAD)
        with mapped_errors(self.location, writing=True):
            if joined is not None:
                return joined.append_audit(
                    head, lambda row: self._records(row, build), making=self._making()
                )
            with self.db.connection() as conn, atomic(conn):
                row = conn.execute(head).fetchone()
                if row is None and self.project:
                    for statement in self._making():
                        conn.execute(statement)
                    row = conn.execute(head).fetchone()
                entries, statements = self._records(row, build)
                for statement in statements:
                    conn.execute(statement)
                return entries

    def _records(
        self, head: Any, build: Callable[[JournalTail], list[Entry]]
    ) -> tuple[list[Entry], list[str]]:
        """The entries ``build`` makes after the head row ``head``, and the statements
        appending them (values as literals, quoted by psycopg)."""
        from psycopg import sql

        if head is None:
            raise StorageError(f"{self.location}: the journal head row is missing")
        states: dict[str, Any] = head[2] if isinstance(head[2], dict) else {}

        def recorded(target: str) -> tuple[bool, str | None, Origin | None]:
            found = states.get(target)
            if not isinstance(found, list) or len(found) != 3:
                return False, None, None
            return True, found[0], Origin(found[1]) if found[2] else None

        entries = build(JournalTail(int(head[0]), str(head[1]), recorded=recorded))
        template = sql.SQL(
            self.sql(
                "WITH appended AS (INSERT INTO {s}.audit (project, seq, line) "
                "VALUES ({p}, {seq}, {line})) "
                "UPDATE {s}.audit_head SET count = {seq}, hash = {hash} WHERE project = {p}"
            )
        )
        statements = [
            template.format(
                seq=sql.Literal(int(record["seq"])),
                line=sql.Literal(line),
                hash=sql.Literal(str(record["hash"])),
            ).as_string()
            for record, line in entries
        ]
        statements += self._state_statements([rec for rec, _ in entries])
        return entries, statements

    def _state_statements(self, records: list[dict[str, Any]]) -> list[str]:
        """The upserts keeping ``audit_targets`` at what ``records`` leave."""
        from psycopg import sql

        last: dict[str, tuple[str | None, Origin | None]] = {}
        for rec in records:
            origins = commit_origins(rec)
            for target, state in recorded_states(rec).items():
                last[target] = (state, origins.get(target))
        template = sql.SQL(
            self.sql(
                "INSERT INTO {s}.audit_targets (project, target, state, origin, origin_known) "
                "VALUES ({p}, {t}, {state}, {origin}, {known}) "
                "ON CONFLICT (project, target) DO UPDATE SET "
                "state = excluded.state, origin = excluded.origin, "
                "origin_known = excluded.origin_known"
            )
        )
        return [
            template.format(
                t=sql.Literal(target),
                state=sql.Literal(state),
                origin=sql.Literal(origin.state if origin is not None else None),
                known=sql.Literal(origin is not None),
            ).as_string()
            for target, (state, origin) in sorted(last.items())
        ]

    # -- reading and the fold's cache ------------------------------------------------
    def lines_after(self, ident: str | None, position: int) -> tuple[str, int, list[bytes]]:
        """The records after sequence number ``position`` of the journal generation
        ``ident`` (from the first when the generation changed: a rewrite)."""
        with (
            mapped_errors(self.location, writing=False),
            self.db.connection() as conn,
            atomic(conn),
        ):
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            row = conn.execute(
                self.sql("SELECT generation FROM {s}.audit_head WHERE project = {p}")
            ).fetchone()
            now = str(row[0]) if row else ""
            if now != ident:
                position = 0
            rows = conn.execute(
                self.sql(
                    "SELECT seq, line FROM {s}.audit WHERE project = {p} AND seq > %s ORDER BY seq"
                ),
                (position,),
            ).fetchall()
        end = int(rows[-1][0]) if rows else position
        return now, end, [str(r[1]).encode("utf-8") for r in rows]

    def rewrite(self, edit: Callable[[dict[str, Any]], bool]) -> int:
        """Update the rows whose record ``edit`` changes (texts dropped), under the head's
        lock; a new generation, and the cached fold dropped, in the same transaction."""
        with mapped_errors(self.location, writing=True), self.db.connection() as conn, atomic(conn):
            sql = self.sql
            conn.execute(sql("SELECT count FROM {s}.audit_head WHERE project = {p} FOR UPDATE"))
            changed = 0
            for seq, line in conn.execute(
                sql("SELECT seq, line FROM {s}.audit WHERE project = {p} ORDER BY seq")
            ).fetchall():
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if isinstance(rec, dict) and edit(rec):
                    text = json.dumps(
                        rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False
                    )
                    conn.execute(
                        sql("UPDATE {s}.audit SET line = %s WHERE project = {p} AND seq = %s"),
                        (text, seq),
                    )
                    changed += 1
            conn.execute(
                sql(
                    "UPDATE {s}.audit_head SET generation = md5(random()::text) WHERE project = {p}"
                )
            )
            conn.execute(sql("DELETE FROM {s}.journal_fold WHERE project = {p}"))
        if changed:
            with contextlib.suppress(Exception), self.db.connection() as conn:
                conn.execute(self.db.sql("VACUUM {s}.audit"))  # no dead row keeps the text
        return changed

    def read_cache(self) -> str | None:
        """The cached fold (``None``: none, or it cannot be read)."""
        try:
            with self.db.connection() as conn:
                row = conn.execute(
                    self.sql("SELECT body FROM {s}.journal_fold WHERE project = {p}")
                ).fetchone()
        except Exception:  # a cache: rebuilt
            return None
        return None if row is None else str(row[0])

    def write_cache(self, ident: str, text: str) -> None:
        """Cache a fold of generation ``ident``, unless a rewrite has changed it since.
        A cache: a failure is logged and ignored (the row stays as it was, and the next
        reader folds the records after it)."""
        try:
            with self.db.connection() as conn, atomic(conn):
                conn.execute(
                    self.sql(
                        "INSERT INTO {s}.journal_fold (project, singleton, ident, body) "
                        "SELECT {p}, true, %(i)s, %(b)s FROM {s}.audit_head "
                        "WHERE project = {p} AND generation = %(i)s "
                        "ON CONFLICT (project) DO UPDATE SET ident = excluded.ident, "
                        "body = excluded.body"
                    ),
                    {"i": ident, "b": text},
                )
        except Exception as exc:  # a cache: never fails a read
            log.info("the fold cache %s.journal_fold was not written: %s", self.db.schema, exc)

    def snapshot(self) -> JournalSnapshot:
        """The rows and the head, in one repeatable-read transaction."""
        with (
            mapped_errors(self.location, writing=False),
            self.db.connection() as conn,
            atomic(conn),
        ):
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            head = conn.execute(
                self.sql("SELECT count, hash FROM {s}.audit_head WHERE project = {p}")
            ).fetchone()
            rows = conn.execute(
                self.sql("SELECT line FROM {s}.audit WHERE project = {p} ORDER BY seq")
            ).fetchall()
        return JournalSnapshot(
            [str(r[0]).encode("utf-8") for r in rows],
            (int(head[0]), str(head[1])) if head else None,
        )
