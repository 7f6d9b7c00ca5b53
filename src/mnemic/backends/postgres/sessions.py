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
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ...errors import (
    MnemicError,
    SessionExists,
    SessionNotFound,
    SessionStoreBusy,
    SessionStoreError,
)
from ...sessions.base import BaseSessionStore, Batch, Imported, MetadataChanges, StatsRows
from ...sessions.forgetting import ForgetResult
from ...sessions.index import DEFAULT_TOKENIZER, DEFAULT_WEIGHTS, FieldIndexer
from ...sessions.lexical import ranked_search
from ...sessions.query import Query
from ...sessions.rows import (
    MESSAGE_COLUMNS,
    SESSION_COLUMNS,
    message_from_row,
    message_values,
)
from ...sessions.segment import DEFAULT_SEGMENTER, Segmenter
from ...sessions.store import Hit, Message, NewMessage, SearchFilters
from .db import Database, atomic, is_lock_timeout
from .fulltext import LexemeStats, PgIndex
from .lexer import Lexer

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresSessionStore", "index_meta"]

log = logging.getLogger(__name__)
T = TypeVar("T")

_LEXERS: dict[str, Lexer] = {}
_LEXERS_LOCK = threading.Lock()

_SID = "(SELECT sid FROM {s}.sessions WHERE id = %s)"


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


class PostgresSessionStore(BaseSessionStore):
    """Session history in a PostgreSQL schema (see the module docstring).

    ``timeout`` bounds how long a write waits for locks; ``weights`` are the bm25 weights
    of the body and aux columns. The connection pool is shared: :meth:`close` only ends
    this store's use of it.
    """

    _log = log
    _MARK = "%s"

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
        self._index_name = db.location
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

    def __repr__(self) -> str:
        return f"PostgresSessionStore({self.location!r})"

    # --- the index ---------------------------------------------------------------------
    def _index_meta(self) -> dict[str, str]:
        return dict(self._read("SELECT key, value FROM {s}.meta"))

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
    def _insert_session(self, values: tuple[Any, ...]) -> str:
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
        values, tokens, calls, last = message_values(messages, now)
        rows: list[list[Any]] = []
        ntoks = 0
        for v in values:
            tsv, ntok, naux = self._index(v[1], v[2], v[3], v[4])
            ntoks += ntok
            rows.append([*v, ntok, naux, tsv])
        return rows, tokens, calls, last, ntoks

    def append_messages(self, session_id: str, messages: Iterable[NewMessage]) -> list[int]:
        """Append messages in one transaction; return their ids."""
        batch = list(messages)
        if not batch:
            return []
        rows, tokens, calls, last, ntoks = self._message_rows(batch, time.time())
        sql = self.db.sql

        def append(conn: psycopg.Connection[Any]) -> list[int]:
            found = conn.execute(
                sql("SELECT sid FROM {s}.sessions WHERE id = %s FOR UPDATE"), (session_id,)
            ).fetchone()
            if found is None:
                raise SessionNotFound(session_id)
            sid = int(found[0])
            top = conn.execute(
                sql("SELECT max(seq) FROM {s}.messages WHERE sid = %s"), (sid,)
            ).fetchone()
            first = 0 if top is None or top[0] is None else int(top[0]) + 1
            marks = ", ".join(
                ["(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::tsvector)"] * len(rows)
            )
            params: list[Any] = []
            for i, r in enumerate(rows):
                params.extend([sid, first + i, *r])
            inserted = conn.execute(
                sql(
                    "INSERT INTO {s}.messages (sid, seq, role, content, name, tool_name, "
                    "tool_calls, tool_call_id, ts, tokens, source_id, ntok, naux, tsv) VALUES "
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

    def _end_session(self, session_id: str, reason: str, when: float) -> None:
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

    def _update_session(self, session_id: str, changes: MetadataChanges) -> None:
        sql = self.db.sql

        def update(conn: psycopg.Connection[Any]) -> None:
            row = conn.execute(
                sql("SELECT metadata FROM {s}.sessions WHERE id = %s FOR UPDATE"), (session_id,)
            ).fetchone()
            if row is None:
                raise SessionNotFound(session_id)
            for column, value in changes(row[0]):
                conn.execute(
                    sql(f"UPDATE {{s}}.sessions SET {column} = %s WHERE id = %s"),
                    (value, session_id),
                )

        self._write(update)

    def _import_batch(self, items: Batch, existing: str, replaced: frozenset[str]) -> Imported:
        """One batch in one transaction (:mod:`.session_writes`)."""
        from .session_writes import import_batch

        return import_batch(self, items, existing, replaced)

    def _settle_import(self, imported: int) -> None:
        self.analyze()

    def analyze(self) -> None:
        """Refresh the planner's statistics (after bulk loads)."""
        with self._connection("analyze failed") as conn:
            conn.execute(self.db.sql("ANALYZE {s}.messages"))
            conn.execute(self.db.sql("ANALYZE {s}.sessions"))

    # --- reading ---------------------------------------------------------------------
    def _session_row(self, session_id: str) -> Sequence[Any] | None:
        rows = self._read(
            f"SELECT {SESSION_COLUMNS} FROM {{s}}.sessions WHERE id = %s", (session_id,)
        )
        return rows[0] if rows else None

    def has_session(self, session_id: str) -> bool:
        """Whether a session with this id exists."""
        return bool(self._read("SELECT 1 FROM {s}.sessions WHERE id = %s", (session_id,)))

    @staticmethod
    def _isin(column: str, values: Sequence[str], negate: bool = False) -> tuple[Any, ...]:
        return (f"NOT ({column} = ANY(%s))" if negate else f"{column} = ANY(%s)", list(values))

    def _listed_rows(
        self, where: list[str], params: list[Any], column: str, limit: int, offset: int
    ) -> list[Any]:
        sql = f"SELECT {SESSION_COLUMNS} FROM {{s}}.sessions"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += f" ORDER BY {column} DESC, sid DESC LIMIT %s OFFSET %s"
        return self._read(sql, [*params, limit, offset])

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
                    f"SELECT {MESSAGE_COLUMNS} FROM {{s}}.messages m WHERE m.sid = {_SID} "
                    "AND m.seq >= %s AND m.seq < %s ORDER BY m.seq"
                ),
                (session_id, max(0, start), hi),
            ).fetchall()
            if not rows:
                self._sid(conn, session_id)  # SessionNotFound, or really no messages
        return [message_from_row(r, session_id) for r in rows]

    def _message_row(self, message_id: int) -> Sequence[Any] | None:
        rows = self._read(
            f"SELECT {MESSAGE_COLUMNS}, s.id FROM {{s}}.messages m "
            "JOIN {s}.sessions s ON s.sid = m.sid WHERE m.id = %s",
            (message_id,),
        )
        return rows[0] if rows else None

    def _edge_rows(
        self, session_id: str, roles: Sequence[str], seq: int, count: int, *, after: bool
    ) -> list[Any]:
        base = (
            f"SELECT {MESSAGE_COLUMNS} FROM {{s}}.messages m WHERE m.sid = {_SID} "
            "AND m.role = ANY(%s) AND m.content IS NOT NULL AND m.content != '' "
        )
        with self._connection("read failed") as conn:
            if after:
                rows = conn.execute(
                    self.db.sql(base + "AND m.seq > %s ORDER BY m.seq DESC LIMIT %s"),
                    (session_id, list(roles), seq, count),
                ).fetchall()
            else:
                rows = conn.execute(
                    self.db.sql(base + "AND m.seq < %s ORDER BY m.seq LIMIT %s"),
                    (session_id, list(roles), min(seq, 2**31 - 1), count),
                ).fetchall()
            if not rows:
                self._sid(conn, session_id)  # SessionNotFound, or really none
        return rows

    def _parent(self, session_id: str) -> str | None:
        rows = self._read("SELECT parent_id FROM {s}.sessions WHERE id = %s", (session_id,))
        return (rows[0][0] or None) if rows else None

    def _descendants(self, root: str) -> list[str]:
        rows = self._read(
            "WITH RECURSIVE down(id) AS (SELECT %s::text UNION "
            "SELECT s.id FROM {s}.sessions s JOIN down ON s.parent_id = down.id) "
            "SELECT id FROM down",
            (root,),
        )
        return [r[0] for r in rows]

    def _titled_row(self, title: str) -> Sequence[Any] | None:
        """ASCII case-insensitive (``fold_ascii``)."""
        rows = self._read(
            f"SELECT {SESSION_COLUMNS} FROM {{s}}.sessions WHERE title IS NOT NULL AND "
            "{s}.fold_ascii(title) = {s}.fold_ascii(%s) ORDER BY started_at DESC LIMIT 1",
            (title,),
        )
        return rows[0] if rows else None

    def _search(self, query: Query, filters: SearchFilters, limit: int, sort: str) -> list[Hit]:
        """The shared ranking over the engine of :mod:`.fulltext`."""
        with self._connection("search failed") as conn:
            index = PgIndex(conn, self.db, self._lexer, self.weights, self._stats)
            index.prepare()
            return ranked_search(index, query, filters, limit=limit, sort=sort)

    def _stats_rows(self) -> StatsRows:
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
        version = current_version(self.db)
        return StatsRows(sessions[0], by_source, roles, int(size[0][0]), version, self.location)

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

    def _inactive_since(self, when: float) -> list[str]:
        rows = self._read(
            "SELECT id FROM {s}.sessions WHERE last_active < %s ORDER BY last_active", (when,)
        )
        return [r[0] for r in rows]

    def _forget(self, forms: list[str], dry_run: bool) -> ForgetResult:
        """Delete and rewrite in one transaction, then vacuum (:mod:`.session_writes`)."""
        from .session_writes import forget

        return forget(self, forms, dry_run)
