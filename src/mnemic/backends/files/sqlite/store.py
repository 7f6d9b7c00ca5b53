"""The embedded session store: SQLite in WAL mode with an FTS5 index fed by triggers.

The statements and the logic are the shared ones (:class:`~mnemic.sessions.sql.store.
SqlSessionStore`, in the :data:`SQLITE` dialect); this module is what is SQLite's own
(the :class:`~mnemic.sessions.sql.tables.Engine` it supplies): opening (WAL; a read-only
or immutable file, :mod:`.open`), migrations, the transactions, how rows and ids go in,
the FTS5 index (:mod:`.schema`, :mod:`.search`) and compaction after forgetting.

Durability and concurrency
    One connection per store, shared by its threads under a lock. Every write is one
    ``BEGIN IMMEDIATE ... COMMIT`` transaction (a writer never has to upgrade a read lock,
    so writers cannot deadlock); while another process holds the write lock the
    transaction is retried with random, growing jitter until ``timeout`` seconds have
    passed, so several processes recording at once neither lose messages nor see
    "database is locked". ``durable=True`` (the default) commits with ``synchronous=FULL``:
    an append that returned survives a power loss.

Schema, triggers, the pending queue and migrations: :mod:`.schema`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ....errors import ReadOnlyHome, SessionStoreBusy, SessionStoreError, StorageError
from ....sessions.index.fields import DEFAULT_TOKENIZER, DEFAULT_WEIGHTS
from ....sessions.index.query import VOCABULARY_LIMIT, Query
from ....sessions.index.segment import DEFAULT_SEGMENTER, Segmenter
from ....sessions.sql.store import SqlSessionStore
from ....sessions.sql.tables import Batch, Dialect, IndexCache
from ....sessions.sql.vectors import SqlVectors
from ....sessions.sql.words import SqlWords
from ....sessions.store import ForgetResult, Hit, ImportMark, NewMessage, SearchFilters
from .open import Opened, memory_database, open_database
from .schema import (
    FOLD,
    FTS_CONFIG,
    MERGE_PAGES,
    MERGE_STEP,
    MIGRATIONS,
    PENDING_MAX,
    SCHEMA_VERSION,
    fts_table_sql,
    set_meta,
)
from .search import search as fts5_search

__all__ = ["DEFAULT_TOKENIZER", "SCHEMA_VERSION", "SQLITE", "SQLiteSessionStore"]

log = logging.getLogger(__name__)
T = TypeVar("T")

SQLITE = Dialect(
    spellings=(("{s}.", ""), ("GREATEST(", "MAX("), (" FOR UPDATE", "")),
    fold="lower",  # ASCII only, as COLLATE NOCASE
    position="instr",
    title_is="title = ? COLLATE NOCASE",
    octets="LENGTH(CAST(content AS BLOB))",
    wide="LENGTH(CAST({c} AS BLOB)) <> LENGTH({c})",
)
"""The shared statements in SQLite: no schema, the scalar ``MAX``, no row locks (a write
transaction holds the database's write lock from its start)."""

_INSERT_MESSAGE = (
    "INSERT INTO messages(id, sid, seq, role, content, name, tool_name, tool_calls, "
    "tool_call_id, ts, tokens, source_id, is_error) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

_INDEX_ROW = "INSERT INTO messages_fts(rowid, body, aux) VALUES (?, ?, ?)"

VOCABULARY_TABLE = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.mnemic_vocabulary "
    "USING fts5vocab(main, messages_fts, row)"
)
"""The index's terms and their message counts (a table of the connection, not the file)."""
VOCABULARY_READ = (
    "SELECT term, doc FROM temp.mnemic_vocabulary WHERE term >= ? AND term < ? LIMIT ?"
)


class SQLiteSessionStore(SqlSessionStore):
    """Session history in one SQLite file (see the module docstring).

    ``timeout`` bounds how long a write waits for other writers; ``weights`` are the bm25
    weights of the body and aux columns. Use as a context manager or call :meth:`close`.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        timeout: float = 30.0,
        durable: bool = True,
        segmenter: Segmenter = DEFAULT_SEGMENTER,
        tokenizer: str = DEFAULT_TOKENIZER,
        weights: tuple[float, float] = DEFAULT_WEIGHTS,
    ) -> None:
        self.path = Path(path)
        super().__init__(
            SQLITE,
            str(self.path),
            timeout=timeout,
            segmenter=segmenter,
            tokenizer=tokenizer,
            weights=weights,
        )
        self.durable = durable
        self._lock = threading.RLock()
        self.read_only: str | None = None
        """Why this store cannot write (None: it can); see :mod:`.open`."""
        self._memory = False
        self._schema_pending = False
        self._warned_pending = False
        self._conn = self._connect()
        try:
            self._migrate()
        except BaseException:
            self._conn.close()
            raise
        if not self._has_table("message_vectors"):  # an older file, read as it is
            self.vectors = SqlVectors(self, table=False)
        if self._has_table("chat_words"):
            self.words = SqlWords(self)
        if not self._has_column("messages", "is_error"):  # older than version 5
            spellings = (*self.dialect.spellings, ("m.is_error", "NULL"))
            self.dialect = dataclasses.replace(self.dialect, spellings=spellings)

    # --- connection ------------------------------------------------------------------
    def _fail(self, exc: BaseException, what: str) -> SessionStoreError:
        return SessionStoreError(str(self.path), f"{what}: {exc}")

    def _connect(self, opened: Opened | None = None) -> sqlite3.Connection:
        opened = opened or open_database(self.path)
        conn = opened.conn
        self.read_only = opened.read_only
        self._memory = opened.memory
        try:
            conn.execute("PRAGMA busy_timeout = 50")
            if opened.read_only is None:
                self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
                conn.execute(f"PRAGMA synchronous = {'FULL' if self.durable else 'NORMAL'}")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA cache_size = -16000")
            fns = self._fields
            conn.create_function("mnemic_fts_body", 1, fns.body, deterministic=True)
            conn.create_function("mnemic_fts_aux", 4, fns.aux, deterministic=True)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise self._fail(exc, "not a usable SQLite database") from exc
        except BaseException:
            conn.close()
            raise
        return conn

    def _retry(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` again (with jitter) while the database reports busy."""
        start = time.monotonic()
        delay = 0.002
        while True:
            try:
                return fn()
            except sqlite3.OperationalError as exc:
                waited = time.monotonic() - start
                if not _is_busy(exc):
                    raise
                if waited >= self.timeout:
                    raise SessionStoreBusy(str(self.path), waited) from exc
                time.sleep(random.uniform(0.5, 1.5) * delay)
                delay = min(delay * 2, 0.05)

    def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in one ``BEGIN IMMEDIATE`` transaction, retrying contention;
        :class:`ReadOnlyHome` when the database cannot be written."""
        if self.read_only is not None and not self._schema_pending:
            raise ReadOnlyHome(str(self.path), self.read_only)
        with self._lock:
            conn = self._conn
            try:
                self._retry(lambda: conn.execute("BEGIN IMMEDIATE"))
                try:
                    result = fn(conn)
                    self._retry(lambda: conn.execute("COMMIT"))
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.DatabaseError as exc:
                if _code(exc) == sqlite3.SQLITE_READONLY:
                    raise ReadOnlyHome(str(self.path), str(exc)) from exc
                if isinstance(exc, sqlite3.OperationalError) and not _is_corrupt(exc):
                    raise self._fail(exc, "write failed") from exc
                raise self._fail(exc, "database error") from exc
            return result

    def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._retry(lambda: self._conn.execute(sql, params).fetchall())
            except sqlite3.DatabaseError as exc:
                raise self._fail(exc, "read failed") from exc

    def _migrate(self) -> None:
        def current(conn: sqlite3.Connection) -> int:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS _migrations ("
                "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
            conn.execute(
                "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
            row = conn.execute("SELECT MAX(version) FROM _migrations").fetchone()
            return int(row[0] or 0)

        with self._lock:
            try:
                version = self._retry(
                    lambda: self._conn.execute("SELECT MAX(version) FROM _migrations").fetchone()
                )[0]
            except sqlite3.OperationalError:
                version = None
            except sqlite3.DatabaseError as exc:
                raise self._fail(exc, "not a usable SQLite database") from exc
            version = int(version or 0)
            if version > SCHEMA_VERSION:
                raise SessionStoreError(
                    str(self.path),
                    f"schema version {version} is newer than this mnemic ({SCHEMA_VERSION}); "
                    "upgrade mnemic",
                )
            if self.read_only is not None and not self._memory:
                if version == 0:  # an empty file: the history is empty
                    self._conn.close()
                    opened = Opened(memory_database(self.path), self.read_only, True)
                    self._conn = self._connect(opened)
                else:  # read as it is: nothing may be written, not even a migration
                    self._check_read_only_index(version)
                    return
            self._schema_pending = self._memory
            try:
                self._apply_migrations(version, current)
            finally:
                self._schema_pending = False
            self._check_index()

    def _check_read_only_index(self, version: int) -> None:
        if version < SCHEMA_VERSION:
            log.info(
                "sessions.db is read-only at schema version %d (this mnemic: %d); reading it "
                "as it is",
                version,
                SCHEMA_VERSION,
            )
        meta = self._index_meta()
        if meta.get("segmenter") != self.segmenter_key:
            log.warning(
                "sessions.db is read-only and was indexed with %s: searches may miss "
                "matches until it is opened writable (and reindexed)",
                meta.get("segmenter"),
            )

    def _apply_migrations(self, version: int, current: Callable[[sqlite3.Connection], int]) -> None:
        if version < SCHEMA_VERSION:
            for number, name, step in MIGRATIONS:

                def apply(
                    conn: sqlite3.Connection,
                    number: int = number,
                    name: str = name,
                    step: Callable[..., None] = step,
                ) -> None:
                    if current(conn) >= number:
                        return  # another process applied it meanwhile
                    step(conn, self)
                    conn.execute(
                        "INSERT INTO _migrations(version, name, applied_at) VALUES (?,?,?)",
                        (number, name, time.time()),
                    )
                    log.info("sessions.db: applied migration %d (%s)", number, name)

                self._write(apply)

    def reindex(self) -> int:
        """Rebuild the full-text index from the messages; return the number indexed."""

        def rebuild(conn: sqlite3.Connection) -> int:
            conn.execute("DROP TABLE IF EXISTS messages_fts")
            conn.execute(fts_table_sql(self.tokenizer))
            for stmt in FTS_CONFIG:
                conn.execute(stmt)
            conn.execute("DELETE FROM fts_pending")
            conn.execute("INSERT INTO fts_pending(id) SELECT id FROM messages")
            conn.execute(FOLD)
            conn.execute("DELETE FROM fts_pending")
            conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('optimize')")
            set_meta(conn, "segmenter", self.segmenter_key)
            set_meta(conn, "tokenizer", self.tokenizer)
            return int(conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0])

        return self._write(rebuild)

    def _has_table(self, name: str) -> bool:
        """Whether the file has table ``name`` (a read-only file of an older schema, read
        as it is, may lack the later ones)."""
        if self.read_only is None:
            return True  # migrated when opened
        return bool(self._read("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)))

    def _has_column(self, table: str, name: str) -> bool:
        """Whether the file's ``table`` has column ``name`` (see :meth:`_has_table`)."""
        if self.read_only is None:
            return True
        return any(row[1] == name for row in self._read(f"PRAGMA table_info({table})"))

    def _has_marks(self) -> bool:
        """Whether the file has the tables of version 4."""
        return self._has_table("import_marks")

    def _has_attachments(self) -> bool:
        """Whether the file has the table of version 6."""
        return self._has_table("message_attachments")

    def import_mark(self, session_id: str, source: str) -> ImportMark | None:
        """An import mark (None in an older file read as it is)."""
        return super().import_mark(session_id, source) if self._has_marks() else None

    def tombstones(self) -> list[tuple[str, str]]:
        """Every tombstone (none in an older file read as it is)."""
        return super().tombstones() if self._has_marks() else []

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()

    def __repr__(self) -> str:
        return f"SQLiteSessionStore({str(self.path)!r})"

    # --- rows in -----------------------------------------------------------------------
    def _new_session_sid(
        self, conn: sqlite3.Connection, sql: str, params: Sequence[Any]
    ) -> int | None:
        cur = conn.execute(sql, params)
        return int(cur.lastrowid or 0) if cur.rowcount else None

    def _insert_messages(
        self, conn: sqlite3.Connection, rows: Sequence[tuple[Any, ...]]
    ) -> list[int]:
        """Ids after the largest (the write lock is held: nobody else takes them)."""
        first = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()[0]) + 1
        ids = list(range(first, first + len(rows)))
        conn.executemany(_INSERT_MESSAGE, [(i, *r) for i, r in zip(ids, rows, strict=True)])
        return ids

    def _many(self, conn: sqlite3.Connection, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        conn.executemany(sql, rows)

    def _prepare_batch(self, items: Batch, existing: str) -> IndexCache | None:
        """Nothing: a batch's index columns come from the worker or the SQL functions."""
        return None

    def _transient(self, exc: BaseException) -> bool:
        """Never: writers wait for the database's write lock instead of deadlocking."""
        return False

    # --- the FTS5 index (see .schema) ----------------------------------------------------
    def _index_fields(
        self, messages: Sequence[NewMessage], cache: IndexCache | None
    ) -> tuple[list[tuple[Any, ...]], int]:
        """None stored with the rows: the triggers queue them, the queue is folded in."""
        return [()] * len(messages), 0

    def _index_appended(self, conn: sqlite3.Connection) -> None:
        """Fold the queue into the index once it is :data:`PENDING_MAX` long."""
        if conn.execute("SELECT COUNT(*) FROM fts_pending").fetchone()[0] >= PENDING_MAX:
            _fold(conn)

    def _index_imported(
        self, conn: sqlite3.Connection, ids: Sequence[int], rows: Sequence[tuple[Any, ...]]
    ) -> None:
        """Index the batch's messages from their rows (columns the worker computed, no SQL
        function call per row), after anything else still queued (lower ids)."""
        if ids:
            conn.execute("DELETE FROM fts_pending WHERE id BETWEEN ? AND ?", (ids[0], ids[-1]))
        if conn.execute("SELECT 1 FROM fts_pending LIMIT 1").fetchone():
            conn.execute(FOLD)
            conn.execute("DELETE FROM fts_pending")
        if ids:
            # one statement indexes the whole batch: FTS5 writes it as one segment
            columns = self._fields.columns
            conn.executemany(
                _INDEX_ROW,
                [(i, *columns(r[3:7])) for i, r in zip(ids, rows, strict=True)],
            )

    def _index_deleted(self, conn: sqlite3.Connection) -> None:
        conn.execute(MERGE_STEP, (MERGE_PAGES,))

    def _index_forgotten(self, conn: sqlite3.Connection) -> None:
        """Rewrite the index: a contentless FTS5 index keeps terms until segments merge."""
        conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('optimize')")

    def _settle_import(self, imported: int) -> None:
        """After an import: merge the whole index when the import was a large share of it,
        else a bounded amount."""

        def settle(conn: sqlite3.Connection) -> None:
            total = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()[0])
            if imported * 4 >= total:
                conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('optimize')")
            else:
                conn.execute(MERGE_STEP, (2000,))

        self._write(settle)

    # --- reading -----------------------------------------------------------------------
    def _search(self, query: Query, filters: SearchFilters, limit: int, sort: str) -> list[Hit]:
        """``sort="rank"`` orders by bm25 (body and aux columns weighted by ``weights``;
        cost bounded as :mod:`.search` explains); ``newest``/``oldest`` order by
        message time. A query the engine still rejects (it should not happen: every
        token is quoted) returns no hits.
        """
        self.flush_index()
        with self._lock:
            try:
                return self._retry(
                    lambda: fts5_search(
                        self._conn, query, filters, limit=limit, sort=sort, weights=self.weights
                    )
                )
            except sqlite3.OperationalError as exc:
                if _is_busy(exc):
                    raise
                log.warning("full-text query rejected (%s): %r", exc, query.to_fts5())
                return []
            except sqlite3.DatabaseError as exc:
                raise self._fail(exc, "search failed") from exc

    def _holds(self, queries: Sequence[Query]) -> list[bool]:
        """One ``MATCH ... LIMIT 1`` a query: FTS5 stops at the first row of the
        term's doclist. A query the engine rejects holds nothing."""
        self.flush_index()

        def probe(query: Query) -> bool:
            try:
                row = self._conn.execute(
                    "SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT 1",
                    (query.to_fts5(),),
                ).fetchone()
            except sqlite3.OperationalError as exc:
                if _is_busy(exc):
                    raise
                return False
            return row is not None

        with self._lock:
            try:
                return self._retry(lambda: [probe(q) for q in queries])
            except sqlite3.DatabaseError as exc:
                raise self._fail(exc, "search failed") from exc

    def _vocabulary(self, prefixes: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        """The index's terms under each prefix, read through an ``fts5vocab`` table of
        this connection's own (``temp``: nothing is written to the file, so a read-only
        one answers too); one range read a prefix; none when the engine refuses."""
        self.flush_index()
        out: dict[str, list[tuple[str, int]]] = {}
        with self._lock:
            try:
                self._conn.execute(VOCABULARY_TABLE)
                for prefix in prefixes:
                    rows = self._conn.execute(
                        VOCABULARY_READ, (prefix, prefix + "\U0010ffff", VOCABULARY_LIMIT)
                    )
                    out[prefix] = [(str(term), int(docs)) for term, docs in rows]
            except sqlite3.OperationalError as exc:
                if _is_busy(exc):
                    raise
                log.warning("the index's vocabulary cannot be read (%s)", exc)
            except sqlite3.DatabaseError as exc:
                raise self._fail(exc, "search failed") from exc
        return out

    def _db_bytes(self) -> int:
        size = 0
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                size += os.path.getsize(str(self.path) + suffix)
        return size

    def _schema_version(self) -> int:
        return int(self._fetch("SELECT MAX(version) FROM _migrations")[0][0] or 0)

    # --- forgetting --------------------------------------------------------------------
    def _forget(self, forms: list[str], dry_run: bool) -> ForgetResult:
        """The shared forgetting with ``secure_delete`` on (freed pages are zeroed)."""
        with self._lock:
            secure = self._conn.execute("PRAGMA secure_delete").fetchone()[0]
            self._conn.execute("PRAGMA secure_delete = ON")
            try:
                return super()._forget(forms, dry_run)
            finally:
                self._conn.execute(f"PRAGMA secure_delete = {int(secure)}")

    def _compact(self, changed: bool) -> tuple[str, ...]:
        """Vacuum, then checkpoint and truncate the write-ahead log."""
        if not changed:
            return ()
        with self._lock:
            try:
                self._conn.execute("VACUUM")
                busy = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            except sqlite3.Error as exc:
                raise self._fail(exc, "the rows are gone but compacting failed") from exc
        if busy:
            return (
                "another process has the session history open: its write-ahead log "
                "is emptied when that process closes it (or run forget again then)",
            )
        return ()

    def flush_index(self) -> None:
        """Fold messages still queued for the full-text index into it (searches do this
        first, so they see every committed message). A read-only database is searched
        as it is."""
        if not self._read("SELECT 1 FROM fts_pending LIMIT 1"):
            return
        if self.read_only is not None:
            if not self._warned_pending:
                self._warned_pending = True
                log.warning(
                    "sessions.db is read-only and its newest messages are not in the search "
                    "index yet; searching without them"
                )
            return

        def fold(conn: sqlite3.Connection) -> None:
            if conn.execute("SELECT 1 FROM fts_pending LIMIT 1").fetchone():
                _fold(conn)

        try:
            self._write(fold)
        except StorageError as exc:
            log.warning("cannot update the search index (%s); searching without the newest", exc)

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file (``PRAGMA wal_checkpoint``)."""
        self._read("PRAGMA wal_checkpoint(TRUNCATE)")


def _code(exc: sqlite3.Error) -> int | None:
    """The primary result code of an error SQLite raised (None: raised elsewhere)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def _is_busy(exc: sqlite3.Error) -> bool:
    return _code(exc) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _is_corrupt(exc: sqlite3.Error) -> bool:
    return _code(exc) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _fold(conn: sqlite3.Connection) -> None:
    """Move the queued messages into the full-text index, then merge a few pages."""
    conn.execute(FOLD)
    conn.execute("DELETE FROM fts_pending")
    conn.execute(MERGE_STEP, (MERGE_PAGES,))
