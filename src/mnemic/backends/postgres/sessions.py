"""The session history in PostgreSQL: the tables, shapes and search of the SQLite store.

Same tables as SQLite (``sessions`` with an integer ``sid`` and a unique text ``id``;
``messages`` with ``(sid, seq)`` unique), plus two index columns per message: ``tsv``,
the stored ``tsvector`` of its ``body`` and ``aux`` index columns built by the shared
:class:`~mnemic.sessions.index.FieldIndexer` and tokenized exactly as FTS5 does
(:mod:`.lexer`), GIN-indexed; and ``ntok``, its token count (bm25's document length).
Vectors are computed in the client before a write's transaction starts, so a write holds
its locks only for the inserts.

Concurrency: an append locks its session's row (``SELECT ... FOR UPDATE``), which orders
the ``seq`` numbers of one session; appends to different sessions never wait for each
other. Message ids come from a sequence, so they grow with recording order (the
"most recent" of the ranking). Every write is one transaction with ``lock_timeout`` =
``sessions.write_timeout``; a write that cannot get its locks in time raises
:class:`~mnemic.errors.SessionStoreBusy`, a lost connection
:class:`~mnemic.errors.SessionStoreError` (nothing of the write applied), and the next
call reconnects.

Search goes through the shared ranking (:func:`~mnemic.sessions.lexical.ranked_search`)
with the engine of :mod:`.fulltext`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ...errors import (
    InvalidArgument,
    MnemicError,
    SessionExists,
    SessionNotFound,
    SessionStoreBusy,
    SessionStoreError,
)
from ...sessions.index import FieldIndexer, SegmentWorker
from ...sessions.lexical import ranked_search
from ...sessions.query import Query
from ...sessions.segment import DEFAULT_SEGMENTER, Segmenter
from ...sessions.sqlite import (
    DEFAULT_TOKENIZER,
    DEFAULT_WEIGHTS,
    _clean_title,
    _loads,
    _message,
    _session,
)
from ...sessions.store import (
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
from .db import Database, atomic, is_lock_timeout
from .fulltext import LexemeStats, PgIndex
from .lexer import Lexer

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresSessionStore", "index_meta"]

log = logging.getLogger(__name__)
T = TypeVar("T")

_ROLE_ALIASES = {"developer": "system", "function": "tool", "human": "user", "ai": "assistant"}
_LEXERS: dict[str, Lexer] = {}
_LEXERS_LOCK = threading.Lock()

_SESSION_COLS = (
    "id, source, title, started_at, ended_at, end_reason, parent_id, model, message_count, "
    "tool_call_count, token_count, last_active, metadata"
)
_MESSAGE_COLS = (
    "m.id, m.seq, m.role, m.content, m.ts, m.tool_name, m.tool_calls, m.tool_call_id, "
    "m.tokens, m.name"
)
_SID = "(SELECT sid FROM {s}.sessions WHERE id = %s)"
_MESSAGE_FIELDS = (
    "id, sid, seq, role, content, name, tool_name, tool_calls, tool_call_id, ts, tokens, ntok, "
    "naux, tsv"
)


def index_meta(segmenter: Segmenter = DEFAULT_SEGMENTER) -> dict[str, str]:
    """The ``meta`` rows describing how the stored vectors were built."""
    return {
        "segmenter": f"{segmenter.id}/{segmenter.version}",
        "tokenizer": DEFAULT_TOKENIZER,
    }


def shared_lexer(tokenizer: str = DEFAULT_TOKENIZER) -> Lexer:
    """One :class:`Lexer` per tokenizer and process (its cache is worth sharing)."""
    with _LEXERS_LOCK:
        lexer = _LEXERS.get(tokenizer)
        if lexer is None:
            lexer = _LEXERS[tokenizer] = Lexer(tokenizer)
        return lexer


def _role(role: str) -> str:
    role = _ROLE_ALIASES.get(role, role)
    if role not in ROLES:
        raise InvalidArgument(
            "role", f"Unknown message role {role!r}; use one of {', '.join(ROLES)}."
        )
    return role


class PostgresSessionStore:
    """Session history in a PostgreSQL schema (see the module docstring).

    ``timeout`` bounds how long a write waits for locks; ``weights`` are the bm25 weights
    of the body and aux columns. The connection pool is shared: :meth:`close` only ends
    this store's use of it.
    """

    def __init__(
        self,
        db: Database,
        *,
        timeout: float = 30.0,
        segmenter: Segmenter = DEFAULT_SEGMENTER,
        weights: tuple[float, float] = DEFAULT_WEIGHTS,
    ) -> None:
        self.db = db
        self.timeout = timeout
        self.segmenter = segmenter
        self.segmenter_key = f"{segmenter.id}/{segmenter.version}"
        self.tokenizer = DEFAULT_TOKENIZER
        self.weights = weights
        self.location = db.location
        self._fields = FieldIndexer(segmenter)
        self._lexer = shared_lexer(self.tokenizer)
        self._stats = LexemeStats(db)
        self._closed = False
        self._check_index()

    # --- connection --------------------------------------------------------------------
    def _fail(self, exc: BaseException, what: str) -> MnemicError:
        if isinstance(exc, MnemicError):
            return exc
        if is_lock_timeout(exc):
            return SessionStoreBusy(self.location, self.timeout)
        text = str(exc).strip().splitlines()
        return SessionStoreError(self.location, f"{what}: {text[0] if text else exc!r}")

    @contextlib.contextmanager
    def _connection(self, what: str) -> Iterator[psycopg.Connection[Any]]:
        import psycopg

        if self._closed:
            raise SessionStoreError(self.location, "the store is closed")
        try:
            with self.db.connection() as conn:
                yield conn
        except MnemicError:
            raise
        except psycopg.Error as exc:
            raise self._fail(exc, what) from exc

    def _write(self, fn: Callable[[psycopg.Connection[Any]], T]) -> T:
        """Run ``fn`` in one transaction (with ``lock_timeout``); errors mapped."""
        self._stats.changed()
        with self._connection("write failed") as conn, atomic(conn):
            conn.execute(f"SET LOCAL lock_timeout = {max(1, int(self.timeout * 1000))}")
            return fn(conn)

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._connection("read failed") as conn:
            return conn.execute(self.db.sql(sql), params).fetchall()

    def close(self) -> None:
        """Stop using the database (the shared pool stays open for others)."""
        self._closed = True

    def __enter__(self) -> PostgresSessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"PostgresSessionStore({self.location!r})"

    # --- the index ---------------------------------------------------------------------
    def _check_index(self) -> None:
        rows = dict(self._read("SELECT key, value FROM {s}.meta"))
        want = index_meta(self.segmenter)
        if all(rows.get(k) == v for k, v in want.items()):
            return
        log.warning(
            "%s was indexed with %s / %s; reindexing with %s / %s",
            self.location,
            rows.get("segmenter"),
            rows.get("tokenizer"),
            want["segmenter"],
            want["tokenizer"],
        )
        self.reindex()

    def _index(self, content: str | None, name: str | None, tool_name: str | None,
               tool_calls: str | None) -> tuple[str, int, int]:  # fmt: skip
        fields = self._fields
        indexed = self._lexer.index(
            fields.body(content), fields.aux(content, name, tool_name, tool_calls)
        )
        return indexed.tsvector, indexed.ntok, indexed.naux

    def reindex(self) -> int:
        """Rebuild every message's vector (after a segmenter change); return how many."""
        done = 0
        with self._connection("reindex failed") as conn, atomic(conn):
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (self.db.key("reindex"),))
            last = 0
            while True:
                rows = conn.execute(
                    self.db.sql(
                        "SELECT id, content, name, tool_name, tool_calls FROM {s}.messages "
                        "WHERE id > %s ORDER BY id LIMIT 2000"
                    ),
                    (last,),
                ).fetchall()
                if not rows:
                    break
                self._lexer.learn(self._fields.body(r[1]) for r in rows)
                values = [(int(r[0]), *self._index(r[1], r[2], r[3], r[4])) for r in rows]
                with conn.cursor() as cur:
                    cur.executemany(
                        self.db.sql(
                            "UPDATE {s}.messages SET tsv = %s::tsvector, ntok = %s, naux = %s "
                            "WHERE id = %s"
                        ),
                        [(tsv, ntok, naux, mid) for mid, tsv, ntok, naux in values],
                    )
                done += len(rows)
                last = int(rows[-1][0])
            conn.execute(
                self.db.sql(
                    "UPDATE {s}.sessions s SET index_tokens = COALESCE((SELECT sum(ntok) "
                    "FROM {s}.messages m WHERE m.sid = s.sid), 0)"
                )
            )
            for key, value in index_meta(self.segmenter).items():
                conn.execute(
                    self.db.sql(
                        "INSERT INTO {s}.meta (key, value) VALUES (%s, %s) "
                        "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                    ),
                    (key, value),
                )
        return done

    # --- recording -------------------------------------------------------------------
    def _session_values(self, spec: NewSession) -> tuple[Any, ...]:
        now = time.time() if spec.started_at is None else float(spec.started_at)
        source = (spec.source or "cli").strip()[:64] or "cli"
        return (
            spec.id or new_session_id(now),
            source,
            _clean_title(spec.title),
            now,
            spec.parent_id or None,
            spec.model,
            now,
            json.dumps(dict(spec.metadata or {}), ensure_ascii=False, default=str),
        )

    def start_session(self, session: NewSession | None = None, /, **fields: Any) -> str:
        """Create a session and return its id (``fields`` are :class:`NewSession` fields)."""
        spec = session if session is not None else NewSession(**fields)
        values = self._session_values(spec)

        def insert(conn: psycopg.Connection[Any]) -> str:
            row = conn.execute(
                self.db.sql(
                    "INSERT INTO {s}.sessions (id, source, title, started_at, parent_id, model, "
                    "last_active, metadata) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT (id) DO NOTHING RETURNING sid"
                ),
                values,
            ).fetchone()
            if row is None:
                raise SessionExists(str(values[0]))
            return str(values[0])

        return self._write(insert)

    def _message_rows(
        self, messages: Sequence[NewMessage], now: float
    ) -> tuple[list[list[Any]], int, int, float, int]:
        """Rows (without id, sid, seq) and the session counters they add."""
        rows: list[list[Any]] = []
        tokens = calls = ntoks = 0
        last = now
        for i, msg in enumerate(messages):
            ts = now if msg.timestamp is None else float(msg.timestamp)
            est = msg.token_estimate
            if est is None:
                est = estimate_tokens(msg.content)
            tokens += est
            calls += msg.tool_call_count
            last = max(last, ts) if i else ts
            tool_calls = msg.tool_calls_json()
            tsv, ntok, naux = self._index(msg.content, msg.name, msg.tool_name, tool_calls)
            ntoks += ntok
            rows.append(
                [
                    _role(msg.role),
                    msg.content,
                    msg.name,
                    msg.tool_name,
                    tool_calls,
                    msg.tool_call_id,
                    ts,
                    est,
                    ntok,
                    naux,
                    tsv,
                ]
            )
        return rows, tokens, calls, last, ntoks

    def append_message(self, session_id: str, message: NewMessage) -> int:
        """Append one message durably; return its id."""
        return self.append_messages(session_id, [message])[0]

    def append_messages(self, session_id: str, messages: Iterable[NewMessage]) -> list[int]:
        """Append messages in one transaction; return their ids."""
        batch = list(messages)
        if not batch:
            return []
        rows, tokens, calls, last, ntoks = self._message_rows(batch, time.time())
        sql = self.db.sql

        def append(conn: psycopg.Connection[Any]) -> list[int]:
            found = conn.execute(
                sql("SELECT sid, message_count FROM {s}.sessions WHERE id = %s FOR UPDATE"),
                (session_id,),
            ).fetchone()
            if found is None:
                raise SessionNotFound(session_id)
            sid, first = int(found[0]), int(found[1])
            marks = ", ".join(
                ["(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::tsvector)"] * len(rows)
            )
            params: list[Any] = []
            for i, r in enumerate(rows):
                params.extend([sid, first + i, *r])
            inserted = conn.execute(
                sql(
                    "INSERT INTO {s}.messages (sid, seq, role, content, name, tool_name, "
                    "tool_calls, tool_call_id, ts, tokens, ntok, naux, tsv) VALUES "
                    f"{marks} RETURNING id, seq"
                ),
                params,
            ).fetchall()
            conn.execute(
                sql(
                    "UPDATE {s}.sessions SET message_count = message_count + %s, "
                    "tool_call_count = tool_call_count + %s, token_count = token_count + %s, "
                    "last_active = GREATEST(last_active, %s), "
                    "index_tokens = index_tokens + %s WHERE sid = %s"
                ),
                (len(rows), calls, tokens, last, ntoks, sid),
            )
            return [int(i) for i, _ in sorted(inserted, key=lambda r: int(r[1]))]

        return self._write(append)

    def end_session(
        self, session_id: str, reason: str = "ended", *, ended_at: float | None = None
    ) -> None:
        """Mark a session ended with ``reason`` (e.g. ``user_exit``, ``compression``)."""
        when = time.time() if ended_at is None else float(ended_at)

        def end(conn: psycopg.Connection[Any]) -> None:
            cur = conn.execute(
                self.db.sql(
                    "UPDATE {s}.sessions SET ended_at = %s, end_reason = %s, "
                    "last_active = GREATEST(last_active, %s) WHERE id = %s"
                ),
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
        sql = self.db.sql

        def update(conn: psycopg.Connection[Any]) -> None:
            row = conn.execute(
                sql("SELECT metadata FROM {s}.sessions WHERE id = %s FOR UPDATE"), (session_id,)
            ).fetchone()
            if row is None:
                raise SessionNotFound(session_id)
            if title is not None:
                conn.execute(
                    sql("UPDATE {s}.sessions SET title = %s WHERE id = %s"),
                    (_clean_title(title), session_id),
                )
            if model is not None:
                conn.execute(
                    sql("UPDATE {s}.sessions SET model = %s WHERE id = %s"), (model, session_id)
                )
            if metadata:
                merged = _loads(row[0])
                merged.update(metadata)
                conn.execute(
                    sql("UPDATE {s}.sessions SET metadata = %s WHERE id = %s"),
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
        """Bulk-insert whole sessions (``COPY``), committing about every ``batch`` messages.

        Yields ``(session id, message ids)`` once committed; a session whose id already
        exists is left alone and yields ``(id, None)``. As in SQLite, a worker process
        (``workers=0``: none) segments the next batch while this one is written.
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
                prepared = self._prepare_import(current)
                done = self._write(functools.partial(self._import_batch, prepared=prepared))
                self._fields.clear()
                for _sid, ids in done:
                    imported += len(ids or ())
                yield from done
                if pending is not None:
                    result = pending()
                    if result is None:  # the worker died: segment in-process from now on
                        worker = None
                    else:
                        self._fields.preload(result)
                current, upcoming = upcoming, next(chunks, None)
        finally:
            self._fields.clear()
            if worker is not None:
                worker.close()
        if imported:
            self.analyze()

    def _prepare_import(
        self, items: Sequence[tuple[NewSession, Sequence[NewMessage]]]
    ) -> list[tuple[tuple[Any, ...], list[list[Any]], tuple[int, int, float, int]]]:
        self._lexer.learn(self._fields.body(m.content) for _, msgs in items for m in msgs)
        now = time.time()
        out = []
        for spec, messages in items:
            values = self._session_values(spec)
            rows, tokens, calls, last, ntoks = self._message_rows(
                messages, values[3] if messages else now
            )
            out.append((values, rows, (tokens, calls, last if rows else values[3], ntoks)))
        return out

    def _import_batch(
        self,
        conn: psycopg.Connection[Any],
        *,
        prepared: list[tuple[tuple[Any, ...], list[list[Any]], tuple[int, int, float, int]]],
    ) -> list[tuple[str, list[int] | None]]:
        sql = self.db.sql
        out: list[tuple[str, list[int] | None]] = []
        total = sum(len(rows) for _, rows, _ in prepared)
        ids: list[int] = []
        if total:
            ids = [
                int(r[0])
                for r in conn.execute(
                    sql(
                        "SELECT nextval(pg_get_serial_sequence('{s}.messages', 'id')) "
                        "FROM generate_series(1, %s)"
                    ),
                    (total,),
                )
            ]
        staged: list[tuple[Any, ...]] = []
        pos = 0
        for values, rows, (tokens, calls, last, ntoks) in prepared:
            found = conn.execute(
                sql(
                    "INSERT INTO {s}.sessions (id, source, title, started_at, parent_id, "
                    "model, last_active, metadata, message_count, tool_call_count, "
                    "token_count, index_tokens) VALUES (%s, %s, %s, %s, %s, %s, "
                    "GREATEST(%s, %s), %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING "
                    "RETURNING sid"
                ),
                (*values[:7], last, values[7], len(rows), calls, tokens, ntoks),
            ).fetchone()
            if found is None:
                out.append((str(values[0]), None))
                continue
            sid = int(found[0])
            mine = ids[pos : pos + len(rows)]
            pos += len(rows)
            staged.extend(
                (mid, sid, seq, *r) for seq, (mid, r) in enumerate(zip(mine, rows, strict=True))
            )
            out.append((str(values[0]), mine))
        if staged:
            copy_sql = sql(f"COPY {{s}}.messages ({_MESSAGE_FIELDS}) FROM STDIN")
            with conn.cursor() as cur, cur.copy(copy_sql) as copy:
                for row in staged:
                    copy.write_row(row)
        return out

    def analyze(self) -> None:
        """Refresh the planner's statistics (after bulk loads)."""
        with self._connection("analyze failed") as conn:
            conn.execute(self.db.sql("ANALYZE {s}.messages"))
            conn.execute(self.db.sql("ANALYZE {s}.sessions"))

    # --- reading ---------------------------------------------------------------------
    def get_session(self, session_id: str) -> SessionInfo:
        """One session's metadata (:class:`SessionNotFound` if unknown)."""
        rows = self._read(
            f"SELECT {_SESSION_COLS} FROM {{s}}.sessions WHERE id = %s", (session_id,)
        )
        if not rows:
            raise SessionNotFound(session_id)
        return _session(rows[0])

    def has_session(self, session_id: str) -> bool:
        """Whether a session with this id exists."""
        return bool(self._read("SELECT 1 FROM {s}.sessions WHERE id = %s", (session_id,)))

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
            where.append("source = ANY(%s)")
            params.append(list(sources))
        if exclude_sources:
            where.append("NOT (source = ANY(%s))")
            params.append(list(exclude_sources))
        if exclude_sessions:
            where.append("NOT (id = ANY(%s))")
            params.append(list(exclude_sessions))
        if roots_only:
            where.append("parent_id IS NULL")
        if before is not None:
            where.append("last_active < %s")
            params.append(before)
        column = "started_at" if order == "started" else "last_active"
        sql = f"SELECT {_SESSION_COLS} FROM {{s}}.sessions"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += f" ORDER BY {column} DESC, sid DESC LIMIT %s OFFSET %s"
        params.extend([max(0, int(limit)), max(0, int(offset))])
        return [_session(r) for r in self._read(sql, params)]

    def _sid(self, conn: psycopg.Connection[Any], session_id: str) -> int:
        row = conn.execute(
            self.db.sql("SELECT sid FROM {s}.sessions WHERE id = %s"), (session_id,)
        ).fetchone()
        if row is None:
            raise SessionNotFound(session_id)
        return int(row[0])

    def messages(
        self, session_id: str, *, start: int = 0, stop: int | None = None
    ) -> list[Message]:
        """Messages of a session with ``start <= seq < stop``, in order."""
        hi = 2**31 - 1 if stop is None else min(stop, 2**31 - 1)
        with self._connection("read failed") as conn:
            rows = conn.execute(
                self.db.sql(
                    f"SELECT {_MESSAGE_COLS} FROM {{s}}.messages m WHERE m.sid = {_SID} "
                    "AND m.seq >= %s AND m.seq < %s ORDER BY m.seq"
                ),
                (session_id, max(0, start), hi),
            ).fetchall()
            if not rows:
                self._sid(conn, session_id)  # SessionNotFound, or really no messages
        return [_message(r, session_id) for r in rows]

    def message(self, message_id: int) -> Message | None:
        """One message by id, or None."""
        rows = self._read(
            f"SELECT {_MESSAGE_COLS}, s.id FROM {{s}}.messages m "
            "JOIN {s}.sessions s ON s.sid = m.sid WHERE m.id = %s",
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
        base = (
            f"SELECT {_MESSAGE_COLS} FROM {{s}}.messages m WHERE m.sid = {_SID} "
            "AND m.role = ANY(%s) AND m.content IS NOT NULL AND m.content != '' "
        )
        with self._connection("read failed") as conn:
            if before_seq is not None:
                rows = conn.execute(
                    self.db.sql(base + "AND m.seq < %s ORDER BY m.seq LIMIT %s"),
                    (session_id, list(roles), min(before_seq, 2**31 - 1), count),
                ).fetchall()
            else:
                rows = conn.execute(
                    self.db.sql(base + "AND m.seq > %s ORDER BY m.seq DESC LIMIT %s"),
                    (session_id, list(roles), after_seq, count),
                ).fetchall()
                rows.reverse()
            if not rows:
                self._sid(conn, session_id)  # SessionNotFound, or really none
        return [_message(r, session_id) for r in rows]

    def _parent(self, session_id: str) -> tuple[bool, str | None]:
        rows = self._read("SELECT parent_id FROM {s}.sessions WHERE id = %s", (session_id,))
        if not rows:
            return False, None
        return True, rows[0][0] or None

    def _root(self, session_id: str, cache: dict[str, str]) -> str:
        chain = [session_id]
        seen = {session_id}
        current = session_id
        while True:
            if current in cache:
                root = cache[current]
                break
            _, parent = self._parent(current)
            if parent is None or parent in seen or not self._parent(parent)[0]:
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
            "WITH RECURSIVE down(id) AS (SELECT %s::text UNION "
            "SELECT s.id FROM {s}.sessions s JOIN down ON s.parent_id = down.id) "
            "SELECT id FROM down",
            (root,),
        )
        ids = [r[0] for r in rows]
        if session_id not in ids:
            ids.append(session_id)
        return ids

    def find_title(self, title: str) -> SessionInfo | None:
        """The most recent session titled ``title`` (ASCII case-insensitive), or None."""
        cleaned = _clean_title(title)
        if not cleaned:
            return None
        rows = self._read(
            f"SELECT {_SESSION_COLS} FROM {{s}}.sessions WHERE title IS NOT NULL AND "
            "{s}.fold_ascii(title) = {s}.fold_ascii(%s) ORDER BY started_at DESC LIMIT 1",
            (cleaned,),
        )
        return _session(rows[0]) if rows else None

    def search(
        self, query: Query, filters: SearchFilters, *, limit: int = 50, sort: str = "rank"
    ) -> list[Hit]:
        """Ranked messages matching ``query`` within ``filters`` (see :mod:`.fulltext`)."""
        if query.empty or limit <= 0:
            return []
        with self._connection("search failed") as conn:
            index = PgIndex(conn, self.db, self._lexer, self.weights, self._stats)
            index.prepare()
            return ranked_search(index, query, filters, limit=limit, sort=sort)

    def stats(self) -> StoreStats:
        """Counts, sizes, sources and roles."""
        from .migrations import current_version

        sessions = self._read(
            "SELECT count(*), min(started_at), max(last_active) FROM {s}.sessions"
        )
        by_source = self._read(
            "SELECT source, count(*) FROM {s}.sessions GROUP BY source ORDER BY 2 DESC"
        )
        roles = self._read(
            "SELECT role, count(*), COALESCE(sum(octet_length(content)), 0) "
            "FROM {s}.messages GROUP BY role ORDER BY 2 DESC"
        )
        size = self._read(
            "SELECT pg_total_relation_size(%s::regclass) + pg_total_relation_size(%s::regclass)",
            (f"{self.db.schema}.messages", f"{self.db.schema}.sessions"),
        )
        return StoreStats(
            sessions=int(sessions[0][0]),
            messages=sum(int(r[1]) for r in roles),
            text_bytes=sum(int(r[2]) for r in roles),
            db_bytes=int(size[0][0]),
            by_source={str(k): int(v) for k, v in by_source},
            by_role={str(r[0]): int(r[1]) for r in roles},
            oldest=sessions[0][1],
            newest=sessions[0][2],
            schema_version=current_version(self.db),
            segmenter=self.segmenter_key,
            location=self.location,
        )

    # --- removing --------------------------------------------------------------------
    def delete_session(self, session_id: str) -> int:
        """Delete a session and its messages (and their index entries); return messages removed."""

        def delete(conn: psycopg.Connection[Any]) -> int:
            sid = self._sid(conn, session_id)
            n = conn.execute(
                self.db.sql("DELETE FROM {s}.messages WHERE sid = %s"), (sid,)
            ).rowcount
            conn.execute(self.db.sql("DELETE FROM {s}.sessions WHERE sid = %s"), (sid,))
            return int(n or 0)

        return self._write(delete)

    def forget(
        self, needles: Sequence[str], match: str, *, dry_run: bool = False
    ) -> tuple[int, int]:
        """Delete every message whose text, name, tool name or tool calls contain one of
        ``needles`` (ASCII case-insensitive), and clear session titles containing
        ``match`` (other matching sessions lose their metadata); return (messages,
        sessions touched). The table is vacuumed afterwards."""
        columns = ("content", "name", "tool_name", "tool_calls")
        where = " OR ".join(
            f"strpos({{s}}.fold_ascii({c}), {{s}}.fold_ascii(%s)) > 0"
            for c in columns
            for _ in needles
        )
        params = [n for _ in columns for n in needles]
        twhere = " OR ".join(
            f"strpos({{s}}.fold_ascii({c}), {{s}}.fold_ascii(%s)) > 0"
            for c in ("title", "metadata")
            for _ in needles
        )
        tparams = [n for _ in ("title", "metadata") for n in needles]
        sql = self.db.sql

        def forget(conn: psycopg.Connection[Any]) -> tuple[int, int]:
            rows = conn.execute(
                sql(f"SELECT id, sid, tool_calls, tokens, ntok FROM {{s}}.messages WHERE {where}"),
                params,
            ).fetchall()
            titled = conn.execute(
                sql(
                    "SELECT sid, COALESCE(strpos({s}.fold_ascii(title), {s}.fold_ascii(%s)), 0)"
                    f" > 0 FROM {{s}}.sessions WHERE {twhere}"
                ),
                [match, *tparams],
            ).fetchall()
            touched = {int(r[1]) for r in rows} | {int(r[0]) for r in titled}
            if dry_run:
                return len(rows), len(touched)
            for mid, sid, calls, tokens, ntok in rows:
                conn.execute(sql("DELETE FROM {s}.messages WHERE id = %s"), (mid,))
                conn.execute(
                    sql(
                        "UPDATE {s}.sessions SET message_count = GREATEST(0, message_count - 1), "
                        "tool_call_count = GREATEST(0, tool_call_count - %s), "
                        "token_count = GREATEST(0, token_count - %s), "
                        "index_tokens = GREATEST(0, index_tokens - %s) WHERE sid = %s"
                    ),
                    (_call_count(calls), int(tokens or 0), int(ntok or 0), sid),
                )
            for sid, in_title in titled:
                column = "title = NULL" if in_title else "metadata = '{}'"
                conn.execute(sql(f"UPDATE {{s}}.sessions SET {column} WHERE sid = %s"), (sid,))
            return len(rows), len(touched)

        result = self._write(forget)
        if not dry_run and result[1]:
            with self._connection("vacuum failed") as conn:
                conn.execute(sql("VACUUM {s}.messages"))
                conn.execute(sql("VACUUM {s}.sessions"))
        return result

    def prune(self, older_than: float, *, dry_run: bool = False) -> list[str]:
        """Delete sessions last active before ``older_than`` (Unix time); return their ids.

        Each session is deleted in its own short transaction. ``dry_run`` only lists them.
        """
        ids = [
            r[0]
            for r in self._read(
                "SELECT id FROM {s}.sessions WHERE last_active < %s ORDER BY last_active",
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


def _call_count(tool_calls: str | None) -> int:
    if not tool_calls:
        return 0
    try:
        calls = json.loads(tool_calls)
    except ValueError:
        return 0
    return len(calls) if isinstance(calls, list) else 1
