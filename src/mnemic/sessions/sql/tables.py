"""The session tables in SQL: one spelling for every database, and what a backend supplies.

Every SQL session store holds the same ``sessions`` and ``messages`` tables (:mod:`.rows`)
and runs the same statements on them, written once (here, in :mod:`.store`,
:mod:`.writes`, :mod:`.reads`, :mod:`.marks` and :mod:`.vectors`) in one spelling: tables
as ``{s}.name``, parameters as ``?``, ``GREATEST(a, b)``, row locks as ``FOR UPDATE``. A
:class:`Dialect` renders that spelling for one database (SQLite drops the schema, spells
``MAX`` and needs no row locks inside its write transaction; PostgreSQL names its schema
and takes ``%s``).

:class:`Engine` is the extension point: what a backend supplies (its connection and
transactions, how a new row's id comes back, how message rows go in bulk, its full-text
index) for :class:`~.store.SqlSessionStore` to run the shared statements on. The row
statements more than one operation uses are the functions at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, TypeVar

from ...errors import SessionNotFound
from ..index.fields import FieldIndexer
from ..index.query import Query
from ..index.segment import Segmenter
from ..store import Hit, NewMessage, NewSession, SearchFilters
from .rows import message_values

__all__ = [
    "C",
    "Batch",
    "Connection",
    "Counters",
    "Dialect",
    "Engine",
    "IndexCache",
    "bump",
    "create_session",
    "drop",
    "count_rows",
    "lock_messages",
    "lock_session_messages",
    "message_rows",
    "next_seq",
    "sid_of",
]

T = TypeVar("T")

Batch = list[tuple[NewSession, Sequence[NewMessage]]]
"""Whole sessions of one import transaction."""
IndexCache = dict[int, tuple[Any, ...]]
"""Index fields of messages computed ahead of a transaction, by ``id()`` of the message."""


class Cursor(Protocol):
    """What the shared statements read from a cursor (sqlite3 and psycopg alike)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """What the shared statements need of a connection inside a transaction."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Cursor: ...


C = TypeVar("C", bound=Connection)
"""The connection type of a backend."""


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one database spells the shared statements."""

    spellings: tuple[tuple[str, str], ...]
    """``(shared, own)`` text replacements, applied in order."""
    fold: str
    """A function folding ASCII letters to lower case (and nothing else)."""
    position: str
    """``position(text, part)``: where ``part`` starts in ``text`` (from 1; 0: absent)."""
    title_is: str
    """A condition: ``title`` equals the parameter, ASCII case folded (its index's way)."""
    octets: str
    """The size in bytes of ``content``."""
    wide: str
    """A condition: column ``{c}`` holds a character beyond ASCII (more bytes than
    characters)."""
    arrays: bool = False
    """A list parameter is one array (``= ANY(?)``) instead of one mark per value."""
    ordered_locks: bool = False
    """Create a batch's sessions in id order, so concurrent importers lock in one order."""
    seq_limit: int = 2**62
    """The largest ``seq`` the column holds."""

    def sql(self, text: str) -> str:
        """``text`` (the shared spelling) as this database spells it."""
        for shared, own in self.spellings:
            text = text.replace(shared, own)
        return text

    def isin(
        self, column: str, values: Sequence[Any], negate: bool = False
    ) -> tuple[str, list[Any]]:
        """``(condition, parameters)``: ``column`` is (``negate``: is not) one of ``values``."""
        if self.arrays:
            clause = f"{column} = ANY(?)"
            return (f"NOT ({clause})" if negate else clause), [list(values)]
        marks = ", ".join("?" for _ in values)
        return f"{column} {'NOT ' if negate else ''}IN ({marks})", list(values)

    def chunks(self, column: str, values: Sequence[Any]) -> Iterator[tuple[str, list[Any]]]:
        """:meth:`isin` for ``values`` a few hundred at a time (an array: all at once)."""
        step = max(1, len(values) if self.arrays else 500)
        for start in range(0, len(values), step):
            yield self.isin(column, values[start : start + step])

    def holds(self, columns: Sequence[str], forms: Sequence[str]) -> tuple[str, list[str]]:
        """``(condition, parameters)``: one of ``columns`` may hold one of ``forms`` (folded,
        from :func:`..forgetting.needles`) as :func:`..forgetting.contains` compares them:
        with its ASCII letters folded it holds an ASCII form or a ``\\u`` escape, or it
        holds any character beyond ASCII (which only Python folds the same way
        everywhere). A superset: the caller checks each row it finds."""
        f, at = self.fold, self.position
        narrow = [*(form for form in forms if form.isascii()), "\\u"]
        parts = []
        for c in columns:
            parts += [f"{at}({f}({c}), ?) > 0" for _ in narrow]
            parts.append(self.wide.replace("{c}", c))
        return " OR ".join(parts), [form for _ in columns for form in narrow]


class Counters(NamedTuple):
    """What messages add to (or take from) their session's counters."""

    messages: int
    calls: int
    tokens: int
    indexed: int = 0
    """Index tokens, for a backend that keeps their sum per session (``_INDEXED``)."""


class Engine(Protocol[C]):
    """What the shared statements run on: the extension point of the SQL session store.

    A backend is a subclass of :class:`~.store.SqlSessionStore` that supplies the 20
    methods below its first three: :class:`~mnemic.backends.files.sqlite.
    SQLiteSessionStore` and :class:`~mnemic.backends.postgres.PostgresSessionStore`. The
    store's constructor sets the attributes (``_INDEXED`` is None unless the backend says
    otherwise) and the store provides ``_read``, ``_read_many`` (a backend with a server
    may send them in one round trip) and ``_run``.
    """

    dialect: Dialect
    location: str
    """Where the history lives (a file path, or a database and schema), for messages."""
    segmenter: Segmenter
    _fields: FieldIndexer
    _INDEXED: tuple[str, str] | None
    """``(session column, message column)``: a per-session sum of a per-message index
    count (PostgreSQL: ``index_tokens`` of ``ntok``, the lengths bm25 divides by), or
    None."""

    # --- statements in the shared spelling (the store's own) ---------------------------
    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one read statement in the shared spelling."""
        ...

    def _read_many(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """The rows of several read statements (shared spelling), in order; a backend
        with a server sends them in one round trip."""
        ...

    def _run(self, conn: C, sql: str, params: Sequence[Any] = ()) -> Cursor:
        """One statement in the shared spelling, inside a transaction."""
        ...

    # --- connection and transactions -----------------------------------------------------
    def _write(self, fn: Callable[[C], T]) -> T:
        """Run ``fn`` in one write transaction, with the backend's locking and errors."""
        ...

    def _fetch(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """The rows of one read statement (already in the backend's spelling)."""
        ...

    def _transient(self, exc: BaseException) -> bool:
        """Whether a failed import transaction may simply run again (a deadlock)."""
        ...

    def close(self) -> None:
        """Release the store's connection."""
        ...

    # --- rows in ------------------------------------------------------------------------
    def _new_session_sid(self, conn: C, sql: str, params: Sequence[Any]) -> int | None:
        """Run ``sql`` (an insert that does nothing when the id is taken); the new
        ``sid``, or None when the id was taken."""
        ...

    def _insert_messages(self, conn: C, rows: Sequence[tuple[Any, ...]]) -> list[int]:
        """Insert ``(sid, seq, *fields, *index fields)`` rows; their new ids, in order
        (growing with the order of ``rows``)."""
        ...

    def _many(self, conn: C, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run ``sql`` (in the backend's spelling) once for each of ``rows``."""
        ...

    def _prepare_batch(self, items: Batch, existing: str) -> IndexCache | None:
        """Work for an import batch done before its transaction (None: none)."""
        ...

    def _settle_import(self, imported: int) -> None:
        """After an import of ``imported`` messages: bring the index into shape."""
        ...

    # --- the full-text index --------------------------------------------------------------
    def _index_fields(
        self, messages: Sequence[NewMessage], cache: IndexCache | None
    ) -> tuple[list[tuple[Any, ...]], int]:
        """The index fields stored with each message (``()`` each when the database
        indexes what is inserted) and their ``_INDEXED`` sum."""
        ...

    def _index_appended(self, conn: C) -> None:
        """After messages were appended, in the same transaction."""
        ...

    def _index_imported(self, conn: C, ids: Sequence[int], rows: Sequence[tuple[Any, ...]]) -> None:
        """After an import batch was written, in the same transaction: ``ids`` of the
        messages it inserted (ascending) and their rows as passed to ``_insert_messages``."""
        ...

    def _index_deleted(self, conn: C) -> None:
        """After a session was deleted, in the same transaction."""
        ...

    def _index_forgotten(self, conn: C) -> None:
        """After forgetting deleted and rewrote rows, in the same transaction."""
        ...

    def reindex(self) -> int:
        """Rebuild the full-text index from the messages; return the number indexed."""
        ...

    def _search(self, query: Query, filters: SearchFilters, limit: int, sort: str) -> list[Hit]:
        """Ranked hits of a query that has terms (see :meth:`~.store.SqlSessionStore.search`)."""
        ...

    def _vocabulary(self, prefixes: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        """The index's terms beginning with each of ``prefixes`` and how many messages
        hold each (a backend may read a bounded sample), up to
        :data:`~..index.query.VOCABULARY_LIMIT` a prefix (see
        :func:`~..index.stems.inflected`)."""
        ...

    def _holds(self, queries: Sequence[Query]) -> list[bool]:
        """Whether any message matches each of ``queries`` (each has terms; see
        :meth:`~.store.SqlSessionStore.holds`)."""
        ...

    # --- sizes and compaction -------------------------------------------------------------
    def _compact(self, changed: bool) -> tuple[str, ...]:
        """After forgetting (``changed``: rows went): leave no old copy behind where the
        backend can; the notes for the user."""
        ...

    def _db_bytes(self) -> int:
        """What the history takes on disk."""
        ...

    def _schema_version(self) -> int:
        """The schema version the database is at."""
        ...


# --- row statements more than one operation uses ------------------------------------------


def sid_of(store: Engine[C], conn: C, session_id: str, *, lock: bool = False) -> int:
    """A session's ``sid`` (``lock``: its row locked until the commit);
    :class:`SessionNotFound` if unknown."""
    sql = "SELECT sid FROM {s}.sessions WHERE id = ?" + (" FOR UPDATE" if lock else "")
    row = store._run(conn, sql, (session_id,)).fetchone()
    if row is None:
        raise SessionNotFound(session_id)
    return int(row[0])


def count_rows(store: Engine[Any], table: str, ids: Sequence[int] | None = None) -> int:
    """Rows of ``table`` (one row a message: ``message_words``, ``message_vectors``), or
    of the messages ``ids`` only."""
    if ids is None:
        return int(store._read(f"SELECT COUNT(*) FROM {{s}}.{table}")[0][0])
    n = 0
    for among, extra in store.dialect.chunks("message_id", list(ids)):
        n += int(store._read(f"SELECT COUNT(*) FROM {{s}}.{table} WHERE {among}", extra)[0][0])
    return n


def lock_messages(store: Engine[C], conn: C, ids: Sequence[int]) -> set[int]:
    """Lock the rows of the messages ``ids`` until the commit, in id order, and return
    those that are there. Every writer that changes messages and the chat's words or the
    vectors (those of the words and vectors, forgetting, deleting a session) takes its
    messages this way before anything else, so two of them wait for each other instead of
    deadlocking (PostgreSQL; SQLite drops the row locks: its writers take turns)."""
    alive: set[int] = set()
    for among, extra in store.dialect.chunks("id", sorted(set(ids))):
        sql = f"SELECT id FROM {{s}}.messages WHERE {among} ORDER BY id FOR UPDATE"
        alive |= {int(r[0]) for r in store._run(conn, sql, extra).fetchall()}
    return alive


def lock_session_messages(store: Engine[C], conn: C, sids: Sequence[int]) -> None:
    """:func:`lock_messages` for every message of the sessions ``sids``, before they are
    deleted (deleting a session, an import replacing one): in id order across all of them
    (PostgreSQL reads them in one statement), not in the order a DELETE's plan reads them."""
    for among, extra in store.dialect.chunks("sid", sorted(set(sids))):
        sql = f"SELECT id FROM {{s}}.messages WHERE {among} ORDER BY id FOR UPDATE"
        store._run(conn, sql, extra).fetchall()


def next_seq(store: Engine[C], conn: C, sid: int) -> int:
    """The ``seq`` after the session's last message (not its count: forgetting can
    leave gaps)."""
    row = store._run(conn, "SELECT MAX(seq) FROM {s}.messages WHERE sid = ?", (sid,)).fetchone()
    return 0 if row is None or row[0] is None else int(row[0]) + 1


def _counts(store: Engine[Any], counts: Counters) -> list[tuple[str, int]]:
    """``(session column, value)`` of each counter ``counts`` holds."""
    pairs = [
        ("message_count", counts.messages),
        ("tool_call_count", counts.calls),
        ("token_count", counts.tokens),
    ]
    if store._INDEXED is not None:
        pairs.append((store._INDEXED[0], counts.indexed))
    return pairs


def bump(store: Engine[C], conn: C, sid: int, counts: Counters, last: float) -> None:
    """Add ``counts`` to a session's counters; its activity moves up to ``last``."""
    pairs = _counts(store, counts)
    sets = "".join(f"{c} = {c} + ?, " for c, _ in pairs)
    sql = f"UPDATE {{s}}.sessions SET {sets}last_active = GREATEST(last_active, ?) WHERE sid = ?"
    store._run(conn, sql, (*(v for _, v in pairs), last, sid))


def drop(store: Engine[C], conn: C, sid: int, counts: Counters) -> None:
    """Take ``counts`` from a session's counters (never below zero)."""
    pairs = _counts(store, counts)
    sets = ", ".join(f"{c} = GREATEST(0, {c} - ?)" for c, _ in pairs)
    sql = f"UPDATE {{s}}.sessions SET {sets} WHERE sid = ?"
    store._run(conn, sql, (*(v for _, v in pairs), sid))


def create_session(
    store: Engine[C], conn: C, values: Sequence[Any], counts: Counters, last: float
) -> int | None:
    """Insert a :func:`~.rows.session_values` row with its counters (activity at least
    ``last``); the new ``sid``, or None when the id is taken."""
    pairs = _counts(store, counts)
    columns = "".join(f", {c}" for c, _ in pairs)
    sql = (
        "INSERT INTO {s}.sessions (id, source, title, started_at, parent_id, model, "
        f"last_active, metadata{columns}) VALUES (?, ?, ?, ?, ?, ?, GREATEST(?, ?), ?"
        f"{', ?' * len(pairs)}) ON CONFLICT (id) DO NOTHING"
    )
    params = (*values[:7], last, values[7], *(v for _, v in pairs))
    return store._new_session_sid(conn, store.dialect.sql(sql), params)


def message_rows(
    store: Engine[Any],
    messages: Sequence[NewMessage],
    now: float,
    cache: IndexCache | None = None,
) -> tuple[list[tuple[Any, ...]], Counters, float]:
    """The stored fields of ``messages`` (index fields last), the counters they add and
    the latest time among them (see :func:`~.rows.message_values`)."""
    values, tokens, calls, last = message_values(messages, now)
    fields, indexed = store._index_fields(messages, cache)
    rows = [(*v, *f) for v, f in zip(values, fields, strict=True)]
    return rows, Counters(len(rows), calls, tokens, indexed), last
