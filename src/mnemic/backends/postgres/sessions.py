"""The session history in PostgreSQL: the shared SQL store with PostgreSQL's own parts.

The statements and the logic are those of every SQL store
(:class:`~mnemic.sessions.sql.store.SqlSessionStore`, rendered by :func:`postgres_dialect`);
this module is what PostgreSQL supplies (:class:`~mnemic.sessions.sql.tables.Engine`).
The tables are SQLite's (``sessions`` with an integer ``sid`` and a unique text ``id``;
``messages`` with ``(sid, seq)`` unique), plus two index columns per message: ``tsv``,
the stored ``tsvector`` of its ``body`` and ``aux`` index columns built by the shared
:class:`~mnemic.sessions.index.fields.FieldIndexer` and tokenized exactly as FTS5 does
(:mod:`.lexer`), GIN-indexed; and ``ntok``, its token count (bm25's document length),
summed per session in ``index_tokens``. Vectors are computed in the client before a
write's transaction starts, so a write holds its locks only for the inserts.

Concurrency: an append locks its session's row (``SELECT ... FOR UPDATE``), which orders
the ``seq`` numbers of one session; appends to different sessions never wait for each
other. An import batch locks the rows of its sessions that exist in id order and
creates new ones in id order, so two imports of the same file queue behind each other
instead of both adding the same messages; one that still deadlocks runs again. Message
ids come from a sequence, so they grow with recording order (the "most recent" of the
ranking). Every write is one transaction with ``lock_timeout`` =
``sessions.write_timeout``; a write that cannot get its locks in time raises
:class:`~mnemic.errors.SessionStoreBusy`, a lost connection
:class:`~mnemic.errors.SessionStoreError` (nothing of the write applied), and the next
call reconnects.

Search goes through the shared ranking (:func:`~mnemic.sessions.sql.lexical.ranked_search`)
with the engine of :mod:`.fulltext`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import psycopg
import psycopg.errors

from ...errors import MnemicError, SessionStoreBusy, SessionStoreError
from ...sessions.index.fields import DEFAULT_TOKENIZER, DEFAULT_WEIGHTS
from ...sessions.index.query import Query
from ...sessions.index.segment import DEFAULT_SEGMENTER, Segmenter
from ...sessions.sql.lexical import ranked_search
from ...sessions.sql.rows import plan_merge
from ...sessions.sql.store import SqlSessionStore
from ...sessions.sql.tables import Batch, Dialect, IndexCache
from ...sessions.sql.writes import stored_keys
from ...sessions.store import Hit, NewMessage, SearchFilters
from .db import Database, atomic, is_lock_timeout
from .fulltext import KeptListings, LexemeStats, PgIndex
from .lexer import index_meta, shared_lexer
from .migrations import current_version
from .vectors import PgVectors, PgWords

__all__ = ["PostgresSessionStore", "postgres_dialect"]

T = TypeVar("T")

Conn = psycopg.Connection[Any]

_MESSAGE_FIELDS = (
    "sid, seq, role, content, name, tool_name, tool_calls, tool_call_id, ts, tokens, "
    "source_id, is_error, ntok, naux, tsv"
)
_RETURNING_MAX = 64
"""Messages inserted with one ``INSERT ... RETURNING`` (an append: one round trip);
more are given ids from the sequence and copied (``COPY``)."""


def postgres_dialect(schema: str) -> Dialect:
    """The shared statements in PostgreSQL, with ``schema`` (quoted) holding the tables."""
    return Dialect(
        spellings=(("{s}", schema), ("?", "%s")),
        fold="{s}.fold_ascii",  # ASCII only, as SQLite's lower() and COLLATE NOCASE
        position="strpos",
        title_is="title IS NOT NULL AND {s}.fold_ascii(title) = {s}.fold_ascii(?)",
        octets="octet_length(content)",
        wide="octet_length({c}) <> length({c})",
        arrays=True,
        ordered_locks=True,
        seq_limit=2**31 - 1,
    )


class PostgresSessionStore(SqlSessionStore):
    """Session history in a PostgreSQL schema (see the module docstring).

    ``timeout`` bounds how long a write waits for locks; ``weights`` are the bm25 weights
    of the body and aux columns. The connection pool is shared: :meth:`close` only ends
    this store's use of it.
    """

    _INDEXED = ("index_tokens", "ntok")

    def __init__(
        self,
        db: Database,
        *,
        timeout: float = 30.0,
        segmenter: Segmenter = DEFAULT_SEGMENTER,
        weights: tuple[float, float] = DEFAULT_WEIGHTS,
    ) -> None:
        self.db = db
        super().__init__(
            postgres_dialect(db.sql("{s}")),
            db.location,
            timeout=timeout,
            segmenter=segmenter,
            tokenizer=DEFAULT_TOKENIZER,
            weights=weights,
        )
        self.vectors: PgVectors = PgVectors(self, db)
        self.words = PgWords(self)
        self._lexer = shared_lexer(self.tokenizer)
        self._stats = LexemeStats(db)
        self._kept = KeptListings()
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
    def _connection(self, what: str) -> Iterator[Conn]:
        if self._closed:
            raise SessionStoreError(self.location, "the store is closed")
        try:
            with self.db.connection() as conn:
                yield conn
        except MnemicError:
            raise
        except psycopg.Error as exc:
            raise self._fail(exc, what) from exc

    def _write(self, fn: Callable[[Conn], T]) -> T:
        """Run ``fn`` in one transaction (with ``lock_timeout``); errors mapped."""
        self._stats.changed()
        with self._connection("write failed") as conn, atomic(conn):
            conn.execute(f"SET LOCAL lock_timeout = {max(1, int(self.timeout * 1000))}")
            return fn(conn)

    def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._connection("read failed") as conn:
            return conn.execute(sql, params).fetchall()

    def _read_many(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """Several reads on one connection in pipeline mode: one round trip."""
        if len(statements) <= 1:
            return [self._read(sql, params) for sql, params in statements]
        spell = self.dialect.sql
        with self._connection("read failed") as conn, conn.pipeline():
            cursors = [conn.execute(spell(sql), params) for sql, params in statements]
            return [cur.fetchall() for cur in cursors]

    def _transient(self, exc: BaseException) -> bool:
        errors = psycopg.errors
        return isinstance(exc.__cause__, errors.DeadlockDetected | errors.SerializationFailure)

    def close(self) -> None:
        """Stop using the database (the shared pool stays open for others)."""
        self._closed = True

    def __repr__(self) -> str:
        return f"PostgresSessionStore({self.location!r})"

    # --- rows in -----------------------------------------------------------------------
    def _new_session_sid(self, conn: Conn, sql: str, params: Sequence[Any]) -> int | None:
        row = conn.execute(sql + " RETURNING sid", params).fetchone()
        return None if row is None else int(row[0])

    def _insert_messages(self, conn: Conn, rows: Sequence[tuple[Any, ...]]) -> list[int]:
        sql = self.db.sql
        if len(rows) <= _RETURNING_MAX:
            marks = ", ".join(["(" + "%s, " * 14 + "%s::tsvector)"] * len(rows))
            got = conn.execute(
                sql(
                    f"INSERT INTO {{s}}.messages ({_MESSAGE_FIELDS}) VALUES {marks} "
                    "RETURNING sid, seq, id"
                ),
                [v for r in rows for v in r],
            ).fetchall()
            ids = {(int(s), int(q)): int(i) for s, q, i in got}
            return [ids[int(r[0]), int(r[1])] for r in rows]
        ids_drawn = conn.execute(
            sql(
                "SELECT nextval(pg_get_serial_sequence('{s}.messages', 'id')) "
                "FROM generate_series(1, %s)"
            ),
            (len(rows),),
        ).fetchall()
        new_ids = sorted(int(r[0]) for r in ids_drawn)
        copy_sql = sql(f"COPY {{s}}.messages (id, {_MESSAGE_FIELDS}) FROM STDIN")
        with conn.cursor() as cur, cur.copy(copy_sql) as copy:
            for mid, row in zip(new_ids, rows, strict=True):
                copy.write_row((mid, *row))
        return new_ids

    def _many(self, conn: Conn, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with conn.cursor() as cur:
            cur.executemany(sql, rows)

    # --- the index ---------------------------------------------------------------------
    # Each message's index columns are computed in the client and written with its row,
    # so nothing is left to do after a write's rows are in.
    def _index_appended(self, conn: Conn) -> None:
        return None

    def _index_imported(
        self, conn: Conn, ids: Sequence[int], rows: Sequence[tuple[Any, ...]]
    ) -> None:
        return None

    def _index_deleted(self, conn: Conn) -> None:
        return None

    def _index_forgotten(self, conn: Conn) -> None:
        return None

    def _index(
        self, content: str | None, name: str | None, tool_name: str | None, tool_calls: str | None
    ) -> tuple[int, int, str]:
        """``(ntok, naux, tsv)`` of a message."""
        fields = self._fields
        indexed = self._lexer.index(
            fields.body(content), fields.aux(content, name, tool_name, tool_calls)
        )
        return indexed.ntok, indexed.naux, indexed.tsvector

    def _index_fields(
        self, messages: Sequence[NewMessage], cache: IndexCache | None
    ) -> tuple[list[tuple[Any, ...]], int]:
        """``(ntok, naux, tsv)`` of each message (from ``cache`` when computed ahead)."""
        done = {} if cache is None else cache
        todo = [m for m in messages if id(m) not in done]
        fields_of = self._fields
        columns = [
            (
                fields_of.body(m.content),
                fields_of.aux(m.content, m.name, m.tool_name, m.tool_calls_json()),
            )
            for m in todo
        ]
        # every chunk of both columns tokenized in one pass (aux holds CJK characters and
        # compounds the body lacks: each unseen one used to cost a pass of its own)
        self._lexer.learn(text for pair in columns for text in pair)
        for m, (body, aux) in zip(todo, columns, strict=True):
            indexed = self._lexer.index(body, aux)
            done[id(m)] = (indexed.ntok, indexed.naux, indexed.tsvector)
        fields = [done[id(m)] for m in messages]
        return fields, sum(int(f[0]) for f in fields)

    def _prepare_batch(self, items: Batch, existing: str) -> IndexCache:
        """The vectors of the messages a read outside the transaction says are new (any
        other one found new inside the transaction is indexed there)."""
        cache: IndexCache = {}
        self._index_fields(self._likely_new(items, existing), cache)
        return cache

    def _likely_new(self, items: Batch, existing: str) -> list[NewMessage]:
        if existing == "replace":
            return [m for _, msgs in items for m in msgs]
        ids = [s.id for s, _ in items if s.id]
        found: dict[str, int] = {}
        if ids:
            where, params = self.dialect.isin("id", ids)
            rows = self._read(f"SELECT sid, id FROM {{s}}.sessions WHERE {where}", params)
            found = {str(r[1]): int(r[0]) for r in rows}
        out = [m for spec, msgs in items if spec.id not in found for m in msgs]
        if existing == "merge" and found:
            with self._connection("read failed") as conn:
                keys, legacy = stored_keys(self, conn, list(found.values()))
            for spec, msgs in items:
                sid = found.get(spec.id or "")
                if sid is not None:
                    out.extend(plan_merge(msgs, keys[sid], legacy[sid])[0])
        return out

    def reindex(self) -> int:
        """Rebuild every message's vector (after a segmenter change); return how many."""
        sql = self.db.sql
        done = 0
        with self._connection("reindex failed") as conn, atomic(conn):
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (self.db.key("reindex"),))
            last = 0
            while True:
                rows = conn.execute(
                    sql(
                        "SELECT id, content, name, tool_name, tool_calls FROM {s}.messages "
                        "WHERE id > %s ORDER BY id LIMIT 2000"
                    ),
                    (last,),
                ).fetchall()
                if not rows:
                    break
                self._lexer.learn(self._fields.body(r[1]) for r in rows)
                values = [(*self._index(r[1], r[2], r[3], r[4]), int(r[0])) for r in rows]
                self._many(
                    conn,
                    sql(
                        "UPDATE {s}.messages SET ntok = %s, naux = %s, "
                        "tsv = %s::tsvector WHERE id = %s"
                    ),
                    values,
                )
                done += len(rows)
                last = int(rows[-1][0])
            conn.execute(
                sql(
                    "UPDATE {s}.sessions s SET index_tokens = COALESCE((SELECT sum(ntok) "
                    "FROM {s}.messages m WHERE m.sid = s.sid), 0)"
                )
            )
            for key, value in index_meta(self.segmenter).items():
                conn.execute(
                    sql(
                        "INSERT INTO {s}.meta (key, value) VALUES (%s, %s) "
                        "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                    ),
                    (key, value),
                )
        return done

    def _settle_import(self, imported: int) -> None:
        self.analyze()

    def analyze(self) -> None:
        """Refresh the planner's statistics (after bulk loads)."""
        with self._connection("analyze failed") as conn:
            conn.execute(self.db.sql("ANALYZE {s}.messages"))
            conn.execute(self.db.sql("ANALYZE {s}.sessions"))

    # --- reading, sizes, compaction --------------------------------------------------------
    def _search(self, query: Query, filters: SearchFilters, limit: int, sort: str) -> list[Hit]:
        """The shared ranking over the engine of :mod:`.fulltext`."""
        with self._connection("search failed") as conn:
            index = PgIndex(conn, self.db, self._lexer, self.weights, self._stats)
            index.prepare()
            if len(query.terms) > 1 and sort == "rank":
                index.keep(self._kept)
            return ranked_search(index, query, filters, limit=limit, sort=sort)

    def _holds(self, queries: Sequence[Query]) -> list[bool]:
        """Every query's probe in one statement (:meth:`.fulltext.PgIndex.holds`)."""
        with self._connection("search failed") as conn:
            return PgIndex(conn, self.db, self._lexer, self.weights, self._stats).holds(queries)

    def _vocabulary(self, prefixes: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        """The lexemes under each prefix in one statement (:meth:`.fulltext.PgIndex.vocabulary`)."""
        with self._connection("search failed") as conn:
            index = PgIndex(conn, self.db, self._lexer, self.weights, self._stats)
            return index.vocabulary(prefixes)

    def speakers_at(
        self, positions: Sequence[tuple[str, int]]
    ) -> list[tuple[str, str | None] | None]:
        """``(role, name)`` of the message at each ``(session_id, seq)``, None where
        there is none, in one statement whatever their number: the positions as two
        arrays joined to the messages. (The shared reading, a ``UNION ALL`` of one
        ``SELECT`` a position, takes the server longer to plan than to run: 3.5-15 ms of
        planning for the 100 positions a discovery query asks about, and 2.5-4.5 ms run,
        against 0.2-0.5 ms planned and about 1 ms run here.)"""
        out: list[tuple[str, str | None] | None] = [None] * len(positions)
        if not positions:
            return out
        rows = self._read(
            "SELECT p.k, m.role, m.name FROM unnest(?::text[], ?::bigint[]) WITH ORDINALITY "
            "AS p(id, seq, k) CROSS JOIN LATERAL (SELECT sid FROM {s}.sessions x "
            "WHERE x.id = p.id OFFSET 0) s JOIN {s}.messages m ON m.sid = s.sid "
            "AND m.seq = p.seq",
            ([str(sid) for sid, _ in positions], [int(seq) for _, seq in positions]),
        )
        for k, role, name in rows:
            out[int(k) - 1] = (str(role), str(name) if name else None)
        return out

    def roles_at(self, positions: Sequence[tuple[str, int]]) -> list[str | None]:
        """The role of the message at each ``(session_id, seq)``, None where there is
        none (:meth:`speakers_at`)."""
        return [said[0] if said is not None else None for said in self.speakers_at(positions)]

    def _db_bytes(self) -> int:
        size = self._fetch(
            "SELECT pg_total_relation_size(%s::regclass) + pg_total_relation_size(%s::regclass)",
            (f"{self.db.schema}.messages", f"{self.db.schema}.sessions"),
        )
        return int(size[0][0])

    def _schema_version(self) -> int:
        return current_version(self.db)

    def _compact(self, changed: bool) -> tuple[str, ...]:
        """``VACUUM (ANALYZE)`` the tables a deletion touches (the planner's statistics
        sample values): the messages, the sessions and the chat's words."""
        tables = ("messages", "sessions", "chat_words", "message_words")
        owned = True
        if changed:
            with self._connection("vacuum failed") as conn:
                # PostgreSQL skips, with a warning only, a table this role does not own
                row = conn.execute(
                    "SELECT bool_and(pg_has_role(c.relowner, 'USAGE')) FROM pg_class c "
                    "WHERE c.oid = ANY(%s::regclass[])",
                    ([f"{self.db.schema}.{table}" for table in tables],),
                ).fetchone()
                owned = bool(row and row[0])
                if owned:
                    for table in tables:
                        conn.execute(self.db.sql(f"VACUUM (ANALYZE) {{s}}.{table}"))
        if not owned:
            return (
                "the rows are deleted; the tables were not vacuumed (this database role does "
                "not own them): the deleted texts stay in their free space until the owner's "
                "VACUUM or autovacuum reclaims it; PostgreSQL's write-ahead log, replicas and "
                "backups keep older pages until they are recycled",
            )
        return (
            "the rows are deleted and the tables vacuumed; PostgreSQL's write-ahead log, "
            "replicas and backups keep older pages until they are recycled",
        )
