"""Vectors beside the text: the ``message_vectors`` table of an SQL session store.

One row per embedded message: ``(message_id, model, vec, added)``. ``model`` names the
embedder and its version (:attr:`~mnemic.embedding.model.Embedder.model_id`): a search
compares only vectors of the model it embedded the query with, and a backfill with
another model replaces the old vectors one by one (never mixes them). ``vec`` is the
vector as little-endian float16 (768 bytes for 384 dimensions). ``added`` grows with
every write, so a process keeps the matrix in memory and reads only what is new
(:mod:`.vector_cache`).

:class:`SqlVectors` is a component of the store (:attr:`~.store.SqlSessionStore.vectors`),
not a base class: it runs the shared statements through the store's
:class:`~.tables.Engine`; a backend may give it a subclass (PostgreSQL's serialises
writers with an advisory lock, and may search with pgvector).

What a vector encodes must go when its text goes: the stores' triggers delete the vector
of a message that is deleted or whose text changes, and that of the message after it
(its passage holds the previous turn; :func:`~mnemic.embedding.passage.passage_text`),
and count deletions in ``meta`` (``vector_deletions``) so caches reload. A vector is
written only if its message, and the previous one it was made with, still exist in the
writing transaction: a vector never outlives the text it encodes.

Resumable by construction: work left is "eligible messages without a vector of this
model" (:meth:`SqlVectors.pending`), and each batch commits on its own.

This module imports no numpy (``import mnemic.sessions`` stays light); the matrix and
the search are in :mod:`.vector_cache`, loaded on first search.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ...embedding.passage import EMBEDDED_ROLES
from ..store import SearchFilters
from .tables import Engine, count_rows, lock_messages

if TYPE_CHECKING:
    from .vector_cache import VectorCache

__all__ = ["PendingText", "SqlVectors", "VectorStatus"]

_ELIGIBLE = "m.role IN ({roles}) AND m.content IS NOT NULL AND m.content <> ''".format(
    roles=", ".join(f"'{r}'" for r in EMBEDDED_ROLES)
)
"""The messages that get a vector (``messages m``): user and assistant turns with text."""


def _missing(renew: tuple[int, int] | None) -> tuple[str, list[int]]:
    """The condition on ``v`` (the message's row of the model) of a pending message."""
    if renew is None:
        return "v.message_id IS NULL", []
    return (
        "(v.message_id IS NULL OR (length(v.vec) <= ? AND length(m.content) > ?))",
        [int(renew[0]), int(renew[1])],
    )


class PendingText(NamedTuple):
    """A message still without a vector of the model asked for."""

    message_id: int
    role: str
    content: str
    previous_id: int | None
    previous: str | None
    """The text of the message before it in its session (None: first, or no text)."""
    name: str | None = None
    """The speaker's name, when the message has one."""
    previous_name: str | None = None
    """The name on the message before it."""


@dataclass(frozen=True, slots=True)
class VectorStatus:
    """How far the vectors of one model cover the messages that get one."""

    model: str
    embedded: int
    """Messages with a vector of ``model``."""
    total: int
    """Messages that get a vector (user and assistant messages with text)."""
    other_models: int
    """Vectors of other models (ignored by searches; a backfill replaces them)."""
    oldest_missing: float | None = None
    """The time of the oldest message still without a vector (None: none, or not read:
    :meth:`SqlVectors.oldest_missing`)."""
    renewable: int | None = None
    """Long messages whose vectors were made before they got pieces: one vector of their
    whole passage (None: not counted; :meth:`SqlVectors.renewable`)."""
    words_missing: int | None = None
    """Embedded messages whose words are not in the store's word table yet (made before
    it: ``mnemic sessions embed`` fills them; None: not counted, or no word table)."""

    @property
    def missing(self) -> int:
        """Messages still without a vector of ``model``."""
        return max(0, self.total - self.embedded)

    @property
    def stale(self) -> bool:
        """Whether some messages have no vector of ``model`` yet (search misses them)."""
        return self.missing > 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "model": self.model,
            "embedded": self.embedded,
            "total": self.total,
            "missing": self.missing,
            "other_models": self.other_models,
            "stale": self.stale,
            "oldest_missing": self.oldest_missing,
            "renewable": self.renewable,
            "words_missing": self.words_missing,
        }


class SqlVectors:
    """The vector capability of an SQL session store (see the module docstring): keep
    vectors beside the messages and search them.

    ``table``: whether the database has the vector table (a file of an older schema,
    read as it is, has none: nothing is pending, nothing is found).
    """

    state_sql: str | None = None
    """The query whose row a search's cache is read at (None: the count of deleted
    vectors, :data:`~.vector_cache.STATE`); a store whose tables can be made again under
    the same names adds what identifies them."""

    def __init__(self, tables: Engine[Any], *, table: bool = True) -> None:
        self._tables = tables
        self._table = table
        self._cache: VectorCache | None = None
        self._cache_lock = threading.Lock()
        self._status: tuple[float, VectorStatus] | None = None

    def _lock(self, conn: Any) -> None:
        """Serialise vector writers (their ``added`` values must commit in order)."""

    def pending(
        self,
        model_id: str,
        *,
        after: int = 0,
        limit: int = 64,
        ids: Sequence[int] | None = None,
        shard: tuple[int, int] | None = None,
        renew: tuple[int, int] | None = None,
    ) -> list[PendingText]:
        """Messages with id > ``after`` (and among ``ids`` when given; with ``shard=(k,
        n)`` only ids equal to k modulo n) that get a vector and have none of
        ``model_id``, in id order, with the text of the message before each. With
        ``renew=(row_bytes, chars)`` also those whose row is at most ``row_bytes`` long
        and whose text is longer than ``chars`` characters (one vector, made before long
        messages got pieces: :meth:`renewable`)."""
        if not self._table or (ids is not None and not ids):
            return []
        tables = self._tables
        among, extra = ("", []) if ids is None else tables.dialect.isin("m.id", list(ids))
        if shard is not None:
            among = " AND ".join(c for c in (among, "m.id % ? = ?") if c)
            extra = [*extra, int(shard[1]), int(shard[0])]
        missing, more = _missing(renew)
        rows = tables._read(
            "SELECT m.id, m.role, m.content, p.id, p.content, m.name, p.name FROM {s}.messages m "
            "LEFT JOIN {s}.message_vectors v ON v.message_id = m.id AND v.model = ? "
            "LEFT JOIN {s}.messages p ON p.sid = m.sid AND p.seq = m.seq - 1 "
            f"WHERE {missing} AND m.id > ? AND {_ELIGIBLE} "
            + (f"AND {among} " if among else "")
            + "ORDER BY m.id LIMIT ?",
            (model_id, *more, int(after), *extra, int(limit)),
        )
        return [
            PendingText(
                int(r[0]),
                str(r[1]),
                str(r[2]),
                None if r[3] is None else int(r[3]),
                r[4],
                r[5],
                r[6],
            )
            for r in rows
        ]

    def renewable(self, model_id: str, row_bytes: int, chars: int) -> int:
        """Messages with a row of ``model_id`` at most ``row_bytes`` long and a text longer
        than ``chars`` characters: what ``pending(renew=...)`` adds (one scan)."""
        if not self._table:
            return 0
        sql = (
            "SELECT COUNT(*) FROM {s}.message_vectors v JOIN {s}.messages m "
            f"ON m.id = v.message_id WHERE v.model = ? AND {_ELIGIBLE} "
            "AND length(v.vec) <= ? AND length(m.content) > ?"
        )
        return int(self._tables._read(sql, (model_id, int(row_bytes), int(chars)))[0][0])

    def put(self, model_id: str, rows: Sequence[tuple[PendingText, bytes]]) -> int:
        """Store vectors (float16 bytes) made from ``rows``' texts in one transaction;
        rows whose message or previous message went meanwhile are dropped (a vector never
        outlives the text it encodes). Returns the number written."""
        if not rows:
            return 0
        self._status = None
        tables = self._tables

        def put(conn: Any) -> int:
            self._lock(conn)
            # the messages (and the ones before them) first, in id order, as the words'
            # writer takes them: a deletion or an edit running meanwhile is waited for
            # and then seen (its trigger unlinks vectors; one written after it ran would
            # outlive its text), and none can start before this commits; SQLite drops
            # the row locks (its writers take turns)
            texts = {p.message_id for p, _ in rows}
            texts |= {p.previous_id for p, _ in rows if p.previous_id is not None}
            alive = lock_messages(tables, conn, list(texts))
            # held until the commit: the rows whose texts are there are those written
            keep = [
                (p, blob)
                for p, blob in rows
                if p.message_id in alive and (p.previous_id is None or p.previous_id in alive)
            ]
            top = tables._run(conn, "SELECT COALESCE(MAX(added), 0) FROM {s}.message_vectors")
            added = int(top.fetchone()[0])
            tables._many(  # one statement a vector, sent together (one round trip)
                conn,
                tables.dialect.sql(
                    "INSERT INTO {s}.message_vectors(message_id, model, vec, added) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (message_id) DO UPDATE SET "
                    "model = excluded.model, vec = excluded.vec, added = excluded.added"
                ),
                [(p.message_id, model_id, blob, added + k) for k, (p, blob) in enumerate(keep, 1)],
            )
            return len(keep)

        return tables._write(put)

    def dump(self) -> list[tuple[str, int, str, bytes]]:
        """Every stored vector as ``(session id, message seq, model, float16 bytes)``, in
        message order: a copy of the history (``mnemic export --bundle --with-vectors``)."""
        if not self._table:
            return []
        rows = self._tables._read(
            "SELECT s.id, m.seq, v.model, v.vec FROM {s}.message_vectors v "
            "JOIN {s}.messages m ON m.id = v.message_id JOIN {s}.sessions s ON s.sid = m.sid "
            "ORDER BY v.message_id"
        )
        return [(str(r[0]), int(r[1]), str(r[2]), bytes(r[3])) for r in rows]

    def restore(self, rows: Sequence[tuple[str, int, str, bytes]]) -> int:
        """Put vectors :meth:`dump` gave (of another store holding the same sessions) on
        the messages of the same session and position; a vector whose message is not
        here is dropped. Returns the number written."""
        if not rows:
            return 0
        here = {
            (str(r[0]), int(r[1])): int(r[2])
            for r in self._tables._read(
                "SELECT s.id, m.seq, m.id FROM {s}.messages m JOIN {s}.sessions s ON s.sid = m.sid"
            )
        }
        by_model: dict[str, list[tuple[PendingText, bytes]]] = {}
        for session_id, seq, model, blob in rows:
            message_id = here.get((session_id, seq))
            if message_id is not None:
                previous = here.get((session_id, seq - 1))
                text = PendingText(message_id, "", "", previous, None)
                by_model.setdefault(model, []).append((text, blob))
        return sum(self.put(model, chosen) for model, chosen in by_model.items())

    def of_messages(self, ids: Sequence[int]) -> list[tuple[int, str, bytes]]:
        """The stored vectors of the messages ``ids`` as ``(message id, model, float16
        bytes)``, in id order: what ``mnemic db copy`` carries to another store."""
        if not self._table or not ids:
            return []
        out: list[tuple[int, str, bytes]] = []
        for among, extra in self._tables.dialect.chunks("message_id", sorted(ids)):
            sql = f"SELECT message_id, model, vec FROM {{s}}.message_vectors WHERE {among}"
            out += [(int(r[0]), str(r[1]), bytes(r[2])) for r in self._tables._read(sql, extra)]
        return sorted(out)

    def count(self, ids: Sequence[int] | None = None) -> int:
        """Stored vectors (of any model; ``ids``: of those messages only)."""
        if not self._table:
            return 0
        return count_rows(self._tables, "message_vectors", ids)

    def status(self, model_id: str, *, max_age: float = 0.0) -> VectorStatus:
        """How far the vectors of ``model_id`` cover the messages: embedded, total,
        vectors of other models (three counts; ``max_age``: a count at most that many
        seconds old may be returned, counting costs a scan)."""
        cached = self._status
        if max_age > 0 and cached is not None:
            when, status = cached
            if status.model == model_id and time.monotonic() - when < max_age:
                return status
        status = self._count(model_id)
        self._status = (time.monotonic(), status)
        return status

    def oldest_missing(self, model_id: str) -> float | None:
        """The time of the oldest message that gets a vector and has none of
        ``model_id`` (None: every one has; one scan)."""
        if self._table:
            sql = (
                "SELECT MIN(m.ts) FROM {s}.messages m LEFT JOIN {s}.message_vectors v "
                f"ON v.message_id = m.id AND v.model = ? WHERE v.message_id IS NULL AND {_ELIGIBLE}"
            )
            rows = self._tables._read(sql, (model_id,))
        else:
            rows = self._tables._read(f"SELECT MIN(m.ts) FROM {{s}}.messages m WHERE {_ELIGIBLE}")
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    def _count(self, model_id: str) -> VectorStatus:
        tables = self._tables
        total = int(tables._read(f"SELECT COUNT(*) FROM {{s}}.messages m WHERE {_ELIGIBLE}")[0][0])
        if not self._table:
            return VectorStatus(model_id, 0, total, 0)
        sql = "SELECT model, COUNT(*) FROM {s}.message_vectors GROUP BY model"
        counts = dict(tables._read(sql))
        embedded = int(counts.pop(model_id, 0))
        return VectorStatus(model_id, embedded, total, int(sum(counts.values())))

    def search(
        self, query_vec: Any, model_id: str, filters: SearchFilters, limit: int
    ) -> list[tuple[int, float]]:
        """``(message_id, cosine)`` of the nearest messages, best first, within
        ``filters``; only vectors of ``model_id`` are compared. Exact search over the
        matrix this store keeps in memory (numpy, loaded here), refreshed with what is
        new."""
        if not self._table or limit <= 0:
            return []
        from .vector_cache import VectorCache  # numpy: the semantic extra

        with self._cache_lock:
            cache = self._cache
            dim = len(query_vec)
            if cache is None or cache.model != model_id or cache.dim not in (None, dim):
                cache = self._cache = VectorCache(model_id, dim=dim)
            cache.refresh(self._tables, self.state_sql)
            return cache.search(self._tables, query_vec, filters, limit)
