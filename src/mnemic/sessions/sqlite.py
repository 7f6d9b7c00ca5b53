"""The embedded session store: SQLite in WAL mode with an FTS5 index fed by triggers.

Durability and concurrency
    One connection per store, shared by its threads under a lock. Every write is one
    ``BEGIN IMMEDIATE ... COMMIT`` transaction (a writer never has to upgrade a read lock,
    so writers cannot deadlock); while another process holds the write lock the
    transaction is retried with random, growing jitter until ``timeout`` seconds have
    passed, so several processes recording at once neither lose messages nor see
    "database is locked". ``durable=True`` (the default) commits with ``synchronous=FULL``:
    an append that returned survives a power loss.

Schema, triggers, the pending queue and migrations: :mod:`.sqlite_schema`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ..errors import (
    ReadOnlyHome,
    SessionExists,
    SessionNotFound,
    SessionStoreBusy,
    SessionStoreError,
    StorageError,
)
from . import sqlite_search
from .base import BaseSessionStore, Batch, Imported, MetadataChanges, StatsRows
from .forgetting import ForgetResult
from .index import DEFAULT_TOKENIZER, DEFAULT_WEIGHTS, FieldIndexer
from .query import Query
from .rows import MESSAGE_COLUMNS, SESSION_COLUMNS, message_from_row
from .segment import DEFAULT_SEGMENTER, Segmenter
from .sqlite_open import Opened, memory_database, open_database
from .sqlite_schema import (
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
from .sqlite_writes import (
    BUMP_SESSION,
    INSERT_MESSAGE,
    INSERT_SESSION,
    fold as fold_pending,
    forget_rows,
    insert_batch,
    message_rows,
    next_seq,
)
from .store import Hit, Message, NewMessage, SearchFilters

__all__ = ["DEFAULT_TOKENIZER", "SCHEMA_VERSION", "SQLiteSessionStore"]

log = logging.getLogger(__name__)
T = TypeVar("T")


def _is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    text = str(exc).lower()
    return "locked" in text or "busy" in text


# --- the store -------------------------------------------------------------------------


class SQLiteSessionStore(BaseSessionStore):
    """Session history in one SQLite file (see the module docstring).

    ``timeout`` bounds how long a write waits for other writers; ``weights`` are the bm25
    weights of the body and aux columns. Use as a context manager or call :meth:`close`.
    """

    _log = log
    _MARK = "?"
    _index_name = "sessions.db"

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
        self.location = str(self.path)
        self.timeout = timeout
        self.durable = durable
        self.segmenter = segmenter
        self.segmenter_key = f"{segmenter.id}/{segmenter.version}"
        self.tokenizer = tokenizer
        self.weights = weights
        self._lock = threading.RLock()
        self._fields = FieldIndexer(segmenter)
        self._sid_cache: dict[str, int] = {}
        self.read_only: str | None = None
        """Why this store cannot write (None: it can); see :mod:`.sqlite_open`."""
        self._memory = False
        self._schema_pending = False
        self._warned_pending = False
        self._conn = self._connect()
        try:
            self._migrate()
        except BaseException:
            self._conn.close()
            raise

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

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
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

    def _index_meta(self) -> dict[str, str]:
        return dict(self._read("SELECT key, value FROM meta"))

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

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()

    def __repr__(self) -> str:
        return f"SQLiteSessionStore({str(self.path)!r})"

    # --- helpers ---------------------------------------------------------------------
    def _sid(self, conn: sqlite3.Connection, session_id: str) -> int:
        sid = self._sid_cache.get(session_id)
        if sid is not None:
            return sid
        row = conn.execute("SELECT sid FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise SessionNotFound(session_id)
        sid = int(row[0])
        if len(self._sid_cache) > 4096:
            self._sid_cache.clear()
        self._sid_cache[session_id] = sid
        return sid

    # --- recording -------------------------------------------------------------------
    def _insert_session(self, values: tuple[Any, ...]) -> str:
        def insert(conn: sqlite3.Connection) -> str:
            try:
                conn.execute(INSERT_SESSION, values)
            except sqlite3.IntegrityError as exc:
                raise SessionExists(values[0]) from exc
            return str(values[0])

        return self._write(insert)

    def append_messages(self, session_id: str, messages: Iterable[NewMessage]) -> list[int]:
        """Append messages in one transaction; return their ids."""
        batch = list(messages)
        if not batch:
            return []
        now = time.time()

        def append(conn: sqlite3.Connection) -> list[int]:
            sid = self._sid(conn, session_id)
            row = conn.execute("SELECT id FROM sessions WHERE sid = ?", (sid,)).fetchone()
            if row is None or row[0] != session_id:  # deleted (maybe re-created) meanwhile
                self._sid_cache.pop(session_id, None)
                sid = self._sid(conn, session_id)
            rows, tokens, calls, last = message_rows(sid, next_seq(conn, sid), None, batch, now)
            ids = []
            for r in rows:
                cur = conn.execute(INSERT_MESSAGE, r[1:])
                ids.append(int(cur.lastrowid or 0))
            conn.execute(BUMP_SESSION, (len(rows), calls, tokens, last, sid))
            pending = conn.execute("SELECT COUNT(*) FROM fts_pending").fetchone()[0]
            if pending >= PENDING_MAX:
                fold_pending(conn)
            return ids

        return self._write(append)

    def _end_session(self, session_id: str, reason: str, when: float) -> None:
        def end(conn: sqlite3.Connection) -> None:
            cur = conn.execute(
                "UPDATE sessions SET ended_at = ?, end_reason = ?, "
                "last_active = MAX(last_active, ?) WHERE id = ?",
                (when, reason, when, session_id),
            )
            if cur.rowcount == 0:
                raise SessionNotFound(session_id)

        self._write(end)

    def _update_session(self, session_id: str, changes: MetadataChanges) -> None:
        def update(conn: sqlite3.Connection) -> None:
            row = conn.execute(
                "SELECT metadata FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
            if row is None:
                raise SessionNotFound(session_id)
            for column, value in changes(row[0]):
                conn.execute(f"UPDATE sessions SET {column} = ? WHERE id = ?", (value, session_id))

        self._write(update)

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

    def _import_batch(self, items: Batch, existing: str, replaced: frozenset[str]) -> Imported:
        try:
            return self._write(
                functools.partial(insert_batch, items=items, existing=existing, replaced=replaced)
            )
        finally:
            if existing == "replace":  # replaced sessions have a new sid
                for spec, _ in items:
                    self._sid_cache.pop(spec.id, None)

    # --- reading ---------------------------------------------------------------------

    def _session_row(self, session_id: str) -> Sequence[Any] | None:
        rows = self._read(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,))
        return rows[0] if rows else None

    def has_session(self, session_id: str) -> bool:
        """Whether a session with this id exists."""
        return bool(self._read("SELECT 1 FROM sessions WHERE id = ?", (session_id,)))

    @staticmethod
    def _isin(column: str, values: Sequence[str], negate: bool = False) -> tuple[Any, ...]:
        return (f"{column} {'NOT ' if negate else ''}IN ({_marks(values)})", *values)

    def _listed_rows(
        self, where: list[str], params: list[Any], column: str, limit: int, offset: int
    ) -> list[Any]:
        sql = f"SELECT {SESSION_COLUMNS} FROM sessions"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += f" ORDER BY {column} DESC, sid DESC LIMIT ? OFFSET ?"
        return self._read(sql, [*params, limit, offset])

    def messages(
        self, session_id: str, *, start: int = 0, stop: int | None = None
    ) -> list[Message]:
        """Messages of a session with ``start <= seq < stop``, in order."""
        with self._lock:
            sid = self._sid(self._conn, session_id)
        hi = 2**62 if stop is None else stop
        rows = self._read(
            f"SELECT {MESSAGE_COLUMNS} FROM messages m WHERE m.sid = ? AND m.seq >= ? AND "
            "m.seq < ? ORDER BY m.seq",
            (sid, max(0, start), hi),
        )
        return [message_from_row(r, session_id) for r in rows]

    def _message_row(self, message_id: int) -> Sequence[Any] | None:
        rows = self._read(
            f"SELECT {MESSAGE_COLUMNS}, s.id FROM messages m JOIN sessions s ON s.sid = m.sid "
            "WHERE m.id = ?",
            (message_id,),
        )
        return rows[0] if rows else None

    def _edge_rows(
        self, session_id: str, roles: Sequence[str], seq: int, count: int, *, after: bool
    ) -> list[Any]:
        with self._lock:
            sid = self._sid(self._conn, session_id)
        base = (
            f"SELECT {MESSAGE_COLUMNS} FROM messages m WHERE m.sid = ? "
            f"AND m.role IN ({_marks(roles)}) AND m.content IS NOT NULL AND m.content != '' "
        )
        if after:
            return self._read(
                base + "AND m.seq > ? ORDER BY m.seq DESC LIMIT ?", (sid, *roles, seq, count)
            )
        return self._read(base + "AND m.seq < ? ORDER BY m.seq LIMIT ?", (sid, *roles, seq, count))

    def _parent(self, session_id: str) -> str | None:
        rows = self._read("SELECT parent_id FROM sessions WHERE id = ?", (session_id,))
        return rows[0][0] if rows and rows[0][0] else None

    def _descendants(self, root: str) -> list[str]:
        rows = self._read(
            "WITH RECURSIVE down(id) AS (SELECT ? UNION "
            "SELECT s.id FROM sessions s JOIN down ON s.parent_id = down.id) "
            "SELECT id FROM down",
            (root,),
        )
        return [r[0] for r in rows]

    def _titled_row(self, title: str) -> Sequence[Any] | None:
        rows = self._read(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE title = ? COLLATE NOCASE "
            "ORDER BY started_at DESC LIMIT 1",
            (title,),
        )
        return rows[0] if rows else None

    def _search(self, query: Query, filters: SearchFilters, limit: int, sort: str) -> list[Hit]:
        """``sort="rank"`` orders by bm25 (body and aux columns weighted by ``weights``;
        cost bounded as :mod:`.sqlite_search` explains); ``newest``/``oldest`` order by
        message time. A query the engine still rejects (it should not happen: every
        token is quoted) returns no hits.
        """
        self.flush_index()
        with self._lock:
            try:
                return self._retry(
                    lambda: sqlite_search.search(
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

    def _stats_rows(self) -> StatsRows:
        sessions = self._read("SELECT COUNT(*), MIN(started_at), MAX(last_active) FROM sessions")
        by_source = self._read(
            "SELECT source, COUNT(*) FROM sessions GROUP BY source ORDER BY 2 DESC"
        )
        roles = self._read(
            "SELECT role, COUNT(*), COALESCE(SUM(LENGTH(CAST(content AS BLOB))), 0) "
            "FROM messages GROUP BY role ORDER BY 2 DESC"
        )
        version = self._read("SELECT MAX(version) FROM _migrations")[0][0] or 0
        db_bytes = 0
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                db_bytes += os.path.getsize(str(self.path) + suffix)
        return StatsRows(sessions[0], by_source, roles, db_bytes, int(version), str(self.path))

    # --- removing --------------------------------------------------------------------
    def delete_session(self, session_id: str) -> int:
        """Delete a session and its messages (index rows too); return messages removed."""

        def delete(conn: sqlite3.Connection) -> int:
            row = conn.execute("SELECT sid FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                raise SessionNotFound(session_id)
            n = conn.execute("DELETE FROM messages WHERE sid = ?", (row[0],)).rowcount
            conn.execute("DELETE FROM sessions WHERE sid = ?", (row[0],))
            conn.execute(MERGE_STEP, (MERGE_PAGES,))
            return int(n)

        try:
            return self._write(delete)
        finally:
            self._sid_cache.pop(session_id, None)

    def _inactive_since(self, when: float) -> list[str]:
        rows = self._read(
            "SELECT id FROM sessions WHERE last_active < ? ORDER BY last_active", (when,)
        )
        return [r[0] for r in rows]

    def _forget(self, forms: list[str], dry_run: bool) -> ForgetResult:
        """Delete and rewrite with ``secure_delete`` on, rewrite the full-text index
        (``optimize``: a contentless FTS5 index keeps terms until its segments merge),
        vacuum, then checkpoint and truncate the write-ahead log."""
        run = functools.partial(forget_rows, forms=forms, dry_run=dry_run)

        with self._lock:
            secure = self._conn.execute("PRAGMA secure_delete").fetchone()[0]
            self._conn.execute("PRAGMA secure_delete = ON")
            try:
                messages, sessions, renamed = self._write(run)
            finally:
                self._conn.execute(f"PRAGMA secure_delete = {int(secure)}")
                self._sid_cache.clear()
            notes: tuple[str, ...] = ()
            if not dry_run and sessions:
                try:
                    self._conn.execute("VACUUM")
                    busy = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
                except sqlite3.Error as exc:
                    raise self._fail(exc, "the rows are gone but compacting failed") from exc
                if busy:
                    notes = (
                        "another process has the session history open: its write-ahead log "
                        "is emptied when that process closes it (or run forget again then)",
                    )
        return ForgetResult(messages, sessions, renamed, notes)

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
                fold_pending(conn)

        try:
            self._write(fold)
        except StorageError as exc:
            log.warning("cannot update the search index (%s); searching without the newest", exc)

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file (``PRAGMA wal_checkpoint``)."""
        self._read("PRAGMA wal_checkpoint(TRUNCATE)")


def _code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def _is_corrupt(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and (code & 0xFF) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _marks(values: Sequence[Any]) -> str:
    return ", ".join("?" for _ in values)
