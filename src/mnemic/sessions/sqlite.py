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
import json
import logging
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ..errors import (
    InvalidArgument,
    SessionExists,
    SessionNotFound,
    SessionStoreBusy,
    SessionStoreError,
)
from . import sqlite_search
from .index import FieldIndexer, SegmentWorker
from .query import Query
from .segment import DEFAULT_SEGMENTER, Segmenter
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
from .store import (
    ROLES,
    Hit,
    Message,
    NewMessage,
    NewSession,
    SearchFilters,
    SessionInfo,
    StoreStats,
    estimate_tokens,
    new_session_id,
)

__all__ = ["DEFAULT_TOKENIZER", "SCHEMA_VERSION", "SQLiteSessionStore"]

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_TOKENIZER = "porter unicode61 remove_diacritics 2 tokenchars '-_.@/:+~#%?=&'"
"""FTS5 tokenizer: light (Porter) stemming over Unicode words, case and accents folded;
the connector characters are token characters so whole compounds stay one token."""

DEFAULT_WEIGHTS = (1.0, 0.4)
"""bm25 weights of the ``body`` and ``aux`` columns."""

_ROLE_ALIASES = {"developer": "system", "function": "tool", "human": "user", "ai": "assistant"}
_MAX_TITLE = 200


def _is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    text = str(exc).lower()
    return "locked" in text or "busy" in text


# --- the store -------------------------------------------------------------------------


class SQLiteSessionStore:
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
        self.timeout = timeout
        self.durable = durable
        self.segmenter = segmenter
        self.segmenter_key = f"{segmenter.id}/{segmenter.version}"
        self.tokenizer = tokenizer
        self.weights = weights
        self._lock = threading.RLock()
        self._functions = FieldIndexer(segmenter)
        self._sid_cache: dict[str, int] = {}
        self._conn = self._connect()
        try:
            self._migrate()
        except BaseException:
            self._conn.close()
            raise

    # --- connection ------------------------------------------------------------------
    def _fail(self, exc: BaseException, what: str) -> SessionStoreError:
        return SessionStoreError(str(self.path), f"{what}: {exc}")

    def _connect(self) -> sqlite3.Connection:
        if not self.path.exists():
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
                os.close(fd)
            except OSError as exc:
                raise self._fail(exc, "cannot create the file") from exc
        try:
            conn = sqlite3.connect(
                self.path, isolation_level=None, timeout=0.05, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise self._fail(exc, "cannot open") from exc
        try:
            conn.execute("PRAGMA busy_timeout = 50")
            self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
            conn.execute(f"PRAGMA synchronous = {'FULL' if self.durable else 'NORMAL'}")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA cache_size = -16000")
            fns = self._functions
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
        """Run ``fn`` in one ``BEGIN IMMEDIATE`` transaction, retrying contention."""
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
            self._check_index()

    def _check_index(self) -> None:
        rows = dict(self._read("SELECT key, value FROM meta"))
        if rows.get("segmenter") == self.segmenter_key and rows.get("tokenizer") == self.tokenizer:
            return
        log.warning(
            "sessions.db was indexed with %s / %s; reindexing with %s / %s",
            rows.get("segmenter"),
            rows.get("tokenizer"),
            self.segmenter_key,
            self.tokenizer,
        )
        self.reindex()

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

    def __enter__(self) -> SQLiteSessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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

    @staticmethod
    def _role(role: str) -> str:
        role = _ROLE_ALIASES.get(role, role)
        if role not in ROLES:
            raise InvalidArgument(
                "role", f"Unknown message role {role!r}; use one of {', '.join(ROLES)}."
            )
        return role

    # --- recording -------------------------------------------------------------------
    def start_session(self, session: NewSession | None = None, /, **fields: Any) -> str:
        """Create a session and return its id (``fields`` are :class:`NewSession` fields)."""
        spec = session if session is not None else NewSession(**fields)
        row = self._session_row(spec)

        def insert(conn: sqlite3.Connection) -> str:
            try:
                conn.execute(_INSERT_SESSION, row)
            except sqlite3.IntegrityError as exc:
                raise SessionExists(row[0]) from exc
            return str(row[0])

        return self._write(insert)

    def _session_row(self, spec: NewSession) -> tuple[Any, ...]:
        now = time.time() if spec.started_at is None else float(spec.started_at)
        sid = spec.id or new_session_id(now)
        source = (spec.source or "cli").strip()[:64] or "cli"
        return (
            sid,
            source,
            _clean_title(spec.title),
            now,
            spec.parent_id or None,
            spec.model,
            now,
            json.dumps(dict(spec.metadata or {}), ensure_ascii=False, default=str),
        )

    def _message_rows(
        self,
        sid: int,
        first_seq: int,
        first_id: int | None,
        messages: Sequence[NewMessage],
        now: float,
    ) -> tuple[list[tuple[Any, ...]], int, int, float]:
        rows = []
        tokens = calls = 0
        last = now
        for i, msg in enumerate(messages):
            ts = now if msg.timestamp is None else float(msg.timestamp)
            est = msg.token_estimate
            if est is None:
                est = estimate_tokens(msg.content)
            tokens += est
            calls += msg.tool_call_count
            last = max(last, ts) if i else ts
            rows.append(
                (
                    None if first_id is None else first_id + i,
                    sid,
                    first_seq + i,
                    self._role(msg.role),
                    msg.content,
                    msg.name,
                    msg.tool_name,
                    msg.tool_calls_json(),
                    msg.tool_call_id,
                    ts,
                    est,
                )
            )
        return rows, tokens, calls, last

    def append_message(self, session_id: str, message: NewMessage) -> int:
        """Append one message durably; return its id."""
        return self.append_messages(session_id, [message])[0]

    def append_messages(self, session_id: str, messages: Iterable[NewMessage]) -> list[int]:
        """Append messages in one transaction; return their ids."""
        batch = list(messages)
        if not batch:
            return []
        now = time.time()

        def append(conn: sqlite3.Connection) -> list[int]:
            sid = self._sid(conn, session_id)
            row = conn.execute(
                "SELECT message_count FROM sessions WHERE sid = ?", (sid,)
            ).fetchone()
            if row is None:  # deleted (and maybe re-created) by another process
                self._sid_cache.pop(session_id, None)
                sid = self._sid(conn, session_id)
                row = conn.execute(
                    "SELECT message_count FROM sessions WHERE sid = ?", (sid,)
                ).fetchone()
            rows, tokens, calls, last = self._message_rows(sid, int(row[0]), None, batch, now)
            ids = []
            for r in rows:
                cur = conn.execute(_INSERT_MESSAGE, r[1:])
                ids.append(int(cur.lastrowid or 0))
            conn.execute(_BUMP_SESSION, (len(rows), calls, tokens, last, sid))
            pending = conn.execute("SELECT COUNT(*) FROM fts_pending").fetchone()[0]
            if pending >= PENDING_MAX:
                _fold(conn)
            return ids

        return self._write(append)

    def end_session(
        self, session_id: str, reason: str = "ended", *, ended_at: float | None = None
    ) -> None:
        """Mark a session ended with ``reason`` (e.g. ``user_exit``, ``compression``)."""
        when = time.time() if ended_at is None else float(ended_at)

        def end(conn: sqlite3.Connection) -> None:
            cur = conn.execute(
                "UPDATE sessions SET ended_at = ?, end_reason = ?, "
                "last_active = MAX(last_active, ?) WHERE id = ?",
                (when, reason, when, session_id),
            )
            if cur.rowcount == 0:
                raise SessionNotFound(session_id)

        self._write(end)

    def update_session(
        self,
        session_id: str,
        *,
        title: str | None = None,
        model: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        """Set the title or model, or merge ``metadata`` into the session's metadata."""

        def update(conn: sqlite3.Connection) -> None:
            row = conn.execute(
                "SELECT metadata FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
            if row is None:
                raise SessionNotFound(session_id)
            if title is not None:
                conn.execute(
                    "UPDATE sessions SET title = ? WHERE id = ?", (_clean_title(title), session_id)
                )
            if model is not None:
                conn.execute("UPDATE sessions SET model = ? WHERE id = ?", (model, session_id))
            if metadata:
                merged = _loads(row[0])
                merged.update(metadata)
                conn.execute(
                    "UPDATE sessions SET metadata = ? WHERE id = ?",
                    (json.dumps(merged, ensure_ascii=False, default=str), session_id),
                )

        self._write(update)

    def import_sessions(
        self,
        items: Iterable[tuple[NewSession, Sequence[NewMessage]]],
        *,
        batch: int = 5000,
        workers: int | None = None,
    ) -> Iterator[tuple[str, list[int] | None]]:
        """Bulk-insert whole sessions, committing about every ``batch`` messages.

        Yields ``(session id, message ids)`` once committed; a session whose id already
        exists is left alone and yields ``(id, None)``. When the input spans several
        batches, a worker process (``workers=0``: none) segments the next batch while this
        one is written. A large import ends by merging the index into one segment, so the
        appends that follow do not pay for merging the imported data piecemeal.
        """
        chunks = _chunks(items, batch)
        current = next(chunks, None)
        if current is None:
            return
        upcoming = next(chunks, None)
        worker = None
        if upcoming is not None and (workers is None or workers > 0):
            worker = SegmentWorker.start(self.segmenter)
        imported = 0
        try:
            while current is not None:
                pending = None
                if worker is not None and upcoming is not None:
                    pending = worker.submit(m.content for _, msgs in upcoming for m in msgs)
                done = self._write(functools.partial(self._import_batch, items=current))
                self._functions.clear()
                for _sid, ids in done:
                    imported += len(ids or ())
                yield from done
                if pending is not None:
                    result = pending()
                    if result is None:  # the worker died: segment in-process from now on
                        worker = None
                    else:
                        self._functions.preload(result)
                current, upcoming = upcoming, next(chunks, None)
        finally:
            self._functions.clear()
            if worker is not None:
                worker.close()
        if imported:
            self._settle_index(imported)

    def _settle_index(self, imported: int) -> None:
        """After an import: merge the whole index when the import was a large share of it,
        else a bounded amount."""

        def settle(conn: sqlite3.Connection) -> None:
            total = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()[0])
            if imported * 4 >= total:
                conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('optimize')")
            else:
                conn.execute(MERGE_STEP, (2000,))

        self._write(settle)

    def _import_batch(
        self,
        conn: sqlite3.Connection,
        *,
        items: Sequence[tuple[NewSession, Sequence[NewMessage]]],
    ) -> list[tuple[str, list[int] | None]]:
        out: list[tuple[str, list[int] | None]] = []
        next_id = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()[0]) + 1
        now = time.time()
        staged: list[tuple[Any, ...]] = []
        for spec, messages in items:
            row = self._session_row(spec)
            if conn.execute("SELECT 1 FROM sessions WHERE id = ?", (row[0],)).fetchone():
                out.append((str(row[0]), None))
                continue
            cur = conn.execute(_INSERT_SESSION, row)
            sid = int(cur.lastrowid or 0)
            rows, tokens, calls, last = self._message_rows(
                sid, 0, next_id, messages, row[3] if messages else now
            )
            staged.extend(rows)
            conn.execute(
                "UPDATE sessions SET message_count = ?, tool_call_count = ?, token_count = ?, "
                "last_active = MAX(last_active, ?) WHERE sid = ?",
                (len(rows), calls, tokens, last if rows else row[3], sid),
            )
            out.append((str(row[0]), list(range(next_id, next_id + len(rows)))))
            next_id += len(rows)
        if staged:
            conn.executemany(_INSERT_MESSAGE_WITH_ID, staged)
            # one statement indexes the whole batch: FTS5 writes it as one segment
            conn.execute(FOLD)
            conn.execute("DELETE FROM fts_pending")
        return out

    # --- reading ---------------------------------------------------------------------
    def get_session(self, session_id: str) -> SessionInfo:
        """One session's metadata (:class:`SessionNotFound` if unknown)."""
        rows = self._read(f"SELECT {_SESSION_COLS} FROM sessions WHERE id = ?", (session_id,))
        if not rows:
            raise SessionNotFound(session_id)
        return _session(rows[0])

    def has_session(self, session_id: str) -> bool:
        """Whether a session with this id exists."""
        return bool(self._read("SELECT 1 FROM sessions WHERE id = ?", (session_id,)))

    def list_sessions(
        self,
        *,
        limit: int = 20,
        offset: int = 0,
        sources: Sequence[str] | None = None,
        exclude_sources: Sequence[str] = (),
        exclude_sessions: Sequence[str] = (),
        roots_only: bool = False,
        order: str = "last_active",
        before: float | None = None,
    ) -> list[SessionInfo]:
        """Sessions, most recent first; see :class:`~mnemic.sessions.store.SessionStore`."""
        where: list[str] = []
        params: list[Any] = []
        if sources is not None:
            where.append(f"source IN ({_marks(sources)})")
            params.extend(sources)
        if exclude_sources:
            where.append(f"source NOT IN ({_marks(exclude_sources)})")
            params.extend(exclude_sources)
        if exclude_sessions:
            where.append(f"id NOT IN ({_marks(exclude_sessions)})")
            params.extend(exclude_sessions)
        if roots_only:
            where.append("parent_id IS NULL")
        if before is not None:
            where.append("last_active < ?")
            params.append(before)
        column = "started_at" if order == "started" else "last_active"
        sql = f"SELECT {_SESSION_COLS} FROM sessions"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += f" ORDER BY {column} DESC, sid DESC LIMIT ? OFFSET ?"
        params.extend([max(0, int(limit)), max(0, int(offset))])
        return [_session(r) for r in self._read(sql, params)]

    def messages(
        self, session_id: str, *, start: int = 0, stop: int | None = None
    ) -> list[Message]:
        """Messages of a session with ``start <= seq < stop``, in order."""
        with self._lock:
            sid = self._sid(self._conn, session_id)
        hi = 2**62 if stop is None else stop
        rows = self._read(
            f"SELECT {_MESSAGE_COLS} FROM messages m WHERE m.sid = ? AND m.seq >= ? AND "
            "m.seq < ? ORDER BY m.seq",
            (sid, max(0, start), hi),
        )
        return [_message(r, session_id) for r in rows]

    def message(self, message_id: int) -> Message | None:
        """One message by id, or None."""
        rows = self._read(
            f"SELECT {_MESSAGE_COLS}, s.id FROM messages m JOIN sessions s ON s.sid = m.sid "
            "WHERE m.id = ?",
            (int(message_id),),
        )
        return _message(rows[0][:-1], rows[0][-1]) if rows else None

    def edge_messages(
        self,
        session_id: str,
        *,
        before_seq: int | None = None,
        after_seq: int | None = None,
        count: int = 3,
        roles: Sequence[str] = ("user", "assistant"),
    ) -> list[Message]:
        """First ``count`` text messages before ``before_seq`` or last ones after
        ``after_seq`` (roles in ``roles``), in order."""
        if count <= 0 or (before_seq is None) == (after_seq is None):
            return []
        with self._lock:
            sid = self._sid(self._conn, session_id)
        base = (
            f"SELECT {_MESSAGE_COLS} FROM messages m WHERE m.sid = ? "
            f"AND m.role IN ({_marks(roles)}) AND m.content IS NOT NULL AND m.content != '' "
        )
        if before_seq is not None:
            rows = self._read(
                base + "AND m.seq < ? ORDER BY m.seq LIMIT ?", (sid, *roles, before_seq, count)
            )
        else:
            rows = self._read(
                base + "AND m.seq > ? ORDER BY m.seq DESC LIMIT ?",
                (sid, *roles, after_seq, count),
            )
            rows.reverse()
        return [_message(r, session_id) for r in rows]

    def _parent(self, session_id: str) -> str | None:
        rows = self._read("SELECT parent_id FROM sessions WHERE id = ?", (session_id,))
        return rows[0][0] if rows and rows[0][0] else None

    def _root(self, session_id: str, cache: dict[str, str]) -> str:
        chain = [session_id]
        seen = {session_id}
        current = session_id
        while True:
            if current in cache:
                root = cache[current]
                break
            parent = self._parent(current)
            if parent is None or parent in seen or not self.has_session(parent):
                root = current
                break
            seen.add(parent)
            chain.append(parent)
            current = parent
        for sid in chain:
            cache[sid] = root
        return root

    def roots(self, session_ids: Iterable[str]) -> dict[str, str]:
        """Each session's lineage root (walking parent links, cycle-safe)."""
        cache: dict[str, str] = {}
        return {sid: self._root(sid, cache) for sid in session_ids}

    def lineage(self, session_id: str) -> list[str]:
        """The session, its ancestors up to the root and every descendant of the root."""
        root = self._root(session_id, {})
        rows = self._read(
            "WITH RECURSIVE down(id) AS (SELECT ? UNION "
            "SELECT s.id FROM sessions s JOIN down ON s.parent_id = down.id) "
            "SELECT id FROM down",
            (root,),
        )
        ids = [r[0] for r in rows]
        if session_id not in ids:
            ids.append(session_id)
        return ids

    def find_title(self, title: str) -> SessionInfo | None:
        """The most recent session titled ``title`` (case-insensitive), or None."""
        cleaned = _clean_title(title)
        if not cleaned:
            return None
        rows = self._read(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE title = ? COLLATE NOCASE "
            "ORDER BY started_at DESC LIMIT 1",
            (cleaned,),
        )
        return _session(rows[0]) if rows else None

    def search(
        self, query: Query, filters: SearchFilters, *, limit: int = 50, sort: str = "rank"
    ) -> list[Hit]:
        """Ranked messages matching ``query`` within ``filters``.

        ``sort="rank"`` orders by bm25 (body and aux columns weighted by ``weights``;
        cost bounded as :mod:`.sqlite_search` explains); ``newest``/``oldest`` order by
        message time. A query the engine still rejects (it should not happen: every
        token is quoted) returns no hits.
        """
        if query.empty or limit <= 0:
            return []
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

    def stats(self) -> StoreStats:
        """Counts, sizes, sources and roles."""
        sessions = self._read("SELECT COUNT(*), MIN(started_at), MAX(last_active) FROM sessions")
        by_source = dict(
            self._read("SELECT source, COUNT(*) FROM sessions GROUP BY source ORDER BY 2 DESC")
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
        return StoreStats(
            sessions=int(sessions[0][0]),
            messages=sum(int(r[1]) for r in roles),
            text_bytes=sum(int(r[2]) for r in roles),
            db_bytes=db_bytes,
            by_source={str(k): int(v) for k, v in by_source.items()},
            by_role={str(r[0]): int(r[1]) for r in roles},
            oldest=sessions[0][1],
            newest=sessions[0][2],
            schema_version=int(version),
            segmenter=self.segmenter_key,
            location=str(self.path),
        )

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

    def prune(self, older_than: float, *, dry_run: bool = False) -> list[str]:
        """Delete sessions last active before ``older_than`` (Unix time); return their ids.

        Each session is deleted in its own short transaction, so live writers are never
        held up for long. ``dry_run`` only lists them.
        """
        ids = [
            r[0]
            for r in self._read(
                "SELECT id FROM sessions WHERE last_active < ? ORDER BY last_active",
                (float(older_than),),
            )
        ]
        if dry_run:
            return ids
        done = []
        for sid in ids:
            try:
                self.delete_session(sid)
            except SessionNotFound:
                continue
            done.append(sid)
        return done

    def flush_index(self) -> None:
        """Fold messages still queued for the full-text index into it (searches do this
        first, so they see every committed message). A read-only database is searched
        as it is."""
        if not self._read("SELECT 1 FROM fts_pending LIMIT 1"):
            return

        def fold(conn: sqlite3.Connection) -> None:
            if conn.execute("SELECT 1 FROM fts_pending LIMIT 1").fetchone():
                _fold(conn)

        try:
            self._write(fold)
        except SessionStoreError as exc:
            log.warning("cannot update the search index (%s); searching without the newest", exc)

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file (``PRAGMA wal_checkpoint``)."""
        self._read("PRAGMA wal_checkpoint(TRUNCATE)")


def _is_corrupt(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and (code & 0xFF) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


_INSERT_SESSION = (
    "INSERT INTO sessions(id, source, title, started_at, parent_id, model, last_active, "
    "metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_MESSAGE = (
    "INSERT INTO messages(sid, seq, role, content, name, tool_name, tool_calls, tool_call_id, "
    "ts, tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_BUMP_SESSION = (
    "UPDATE sessions SET message_count = message_count + ?, "
    "tool_call_count = tool_call_count + ?, token_count = token_count + ?, "
    "last_active = MAX(last_active, ?) WHERE sid = ?"
)
_SESSION_COLS = (
    "id, source, title, started_at, ended_at, end_reason, parent_id, model, message_count, "
    "tool_call_count, token_count, last_active, metadata"
)
_MESSAGE_COLS = (
    "m.id, m.seq, m.role, m.content, m.ts, m.tool_name, m.tool_calls, m.tool_call_id, "
    "m.tokens, m.name"
)


_INSERT_MESSAGE_WITH_ID = (
    "INSERT INTO messages(id, sid, seq, role, content, name, tool_name, tool_calls, "
    "tool_call_id, ts, tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _fold(conn: sqlite3.Connection) -> None:
    """Move the queued messages into the full-text index, then merge a few pages."""
    conn.execute(FOLD)
    conn.execute("DELETE FROM fts_pending")
    conn.execute(MERGE_STEP, (MERGE_PAGES,))


def _chunks(
    items: Iterable[tuple[NewSession, Sequence[NewMessage]]], size: int
) -> Iterator[list[tuple[NewSession, Sequence[NewMessage]]]]:
    chunk: list[tuple[NewSession, Sequence[NewMessage]]] = []
    count = 0
    for item in items:
        chunk.append(item)
        count += len(item[1]) + 1
        if count >= size:
            yield chunk
            chunk, count = [], 0
    if chunk:
        yield chunk


def _marks(values: Sequence[Any]) -> str:
    return ", ".join("?" for _ in values)


def _loads(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _clean_title(title: str | None) -> str | None:
    if title is None:
        return None
    cleaned = "".join(ch if ch.isprintable() else " " for ch in title)
    cleaned = " ".join(cleaned.split())[:_MAX_TITLE]
    return cleaned or None


def _session(row: Sequence[Any]) -> SessionInfo:
    return SessionInfo(
        id=row[0],
        source=row[1],
        title=row[2],
        started_at=float(row[3]),
        ended_at=None if row[4] is None else float(row[4]),
        end_reason=row[5],
        parent_id=row[6],
        model=row[7],
        message_count=int(row[8]),
        tool_call_count=int(row[9]),
        token_count=int(row[10]),
        last_active=float(row[11]),
        metadata=_loads(row[12]),
    )


def _message(row: Sequence[Any], session_id: str) -> Message:
    calls = None
    if row[6]:
        try:
            decoded = json.loads(row[6])
        except ValueError:
            decoded = None
        if isinstance(decoded, list):
            calls = [c for c in decoded if isinstance(c, dict)]
    return Message(
        id=int(row[0]),
        session_id=session_id,
        seq=int(row[1]),
        role=row[2],
        content=row[3],
        timestamp=float(row[4]),
        tool_name=row[5],
        tool_calls=calls,
        tool_call_id=row[7],
        token_estimate=int(row[8] or 0),
        name=row[9],
    )
