"""Vectors beside the text: the ``message_vectors`` table of an SQL session store.

One row per embedded message: ``(message_id, model, vec, added)``. ``model`` names the
embedder and its version (:attr:`~mnemic.embedding.model.Embedder.model_id`): a search
compares only vectors of the model it embedded the query with, and a backfill with
another model replaces the old vectors one by one (never mixes them). ``vec`` is the
vector as little-endian float16 (768 bytes for 384 dimensions). ``added`` grows with
every write, so a process keeps the matrix in memory and reads only what is new
(:mod:`.vector_cache`).

What a vector encodes must go when its text goes: the stores' triggers delete the vector
of a message that is deleted or whose text changes, and that of the message after it
(its passage holds the previous turn; :func:`~mnemic.embedding.passage.passage_text`),
and count deletions in ``meta`` (``vector_deletions``) so caches reload. A vector is
written only if its message, and the previous one it was made with, still exist in the
writing transaction: a vector never outlives the text it encodes.

Resumable by construction: work left is "eligible messages without a vector of this
model" (:meth:`SqlVectors.vectors_pending`), and each batch commits on its own.

This module imports no numpy (``import mnemic.sessions`` stays light); the matrix and
the search are in :mod:`.vector_cache`, loaded on first search.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from ...embedding.passage import EMBEDDED_ROLES
from ..store import SearchFilters
from .tables import C, SqlTables

if TYPE_CHECKING:
    from .vector_cache import VectorCache

__all__ = ["PendingText", "SqlVectors", "VectorStatus", "VectorStore"]

_ELIGIBLE = "m.role IN ({roles}) AND m.content IS NOT NULL AND m.content <> ''".format(
    roles=", ".join(f"'{r}'" for r in EMBEDDED_ROLES)
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
        }


@runtime_checkable
class VectorStore(Protocol):
    """The optional capability of a session store to keep and search message vectors
    (a store without it is searched lexically only)."""

    def vector_search(
        self, query_vec: Any, model_id: str, filters: SearchFilters, limit: int
    ) -> list[tuple[int, float]]:
        """``(message_id, cosine)`` of the nearest messages, best first, within
        ``filters``; only vectors of ``model_id`` are compared."""
        ...

    def vector_status(self, model_id: str, *, max_age: float = 0.0) -> VectorStatus:
        """Counts: embedded, total, vectors of other models (``max_age``: a count at
        most that many seconds old may be returned; counting costs a scan)."""
        ...

    def vectors_pending(
        self,
        model_id: str,
        *,
        after: int = 0,
        limit: int = 64,
        ids: Sequence[int] | None = None,
        shard: tuple[int, int] | None = None,
    ) -> list[PendingText]:
        """Messages with id > ``after`` (among ``ids``; of ``shard`` (k, n): id % n == k)
        lacking a vector of ``model_id``, in id order."""
        ...

    def put_vectors(self, model_id: str, rows: Sequence[tuple[PendingText, bytes]]) -> int:
        """Store vectors (float16 bytes) made from ``rows``' texts in one transaction;
        rows whose message or previous message went meanwhile are dropped. Returns
        the number written."""
        ...


class SqlVectors(SqlTables[C]):
    """The shared statements of :class:`VectorStore` (see the module docstring); a
    backend creates the table, its triggers, and may lock in :meth:`_lock_vectors`."""

    _vector_cache: VectorCache | None = None
    _vector_cache_lock: threading.Lock

    def _lock_vectors(self, conn: C) -> None:
        """Serialise vector writers (their ``added`` values must commit in order)."""

    def _has_vectors(self) -> bool:
        """Whether the database has the vector table (a read-only old file may not)."""
        return True

    def vectors_pending(
        self,
        model_id: str,
        *,
        after: int = 0,
        limit: int = 64,
        ids: Sequence[int] | None = None,
        shard: tuple[int, int] | None = None,
    ) -> list[PendingText]:
        """Messages with id > ``after`` (and among ``ids`` when given; with ``shard=(k,
        n)`` only ids equal to k modulo n) that get a vector and have none of
        ``model_id``, in id order, with the text of the message before each."""
        if not self._has_vectors() or (ids is not None and not ids):
            return []
        among, extra = ("", []) if ids is None else self.dialect.isin("m.id", list(ids))
        if shard is not None:
            among = " AND ".join(c for c in (among, "m.id % ? = ?") if c)
            extra = [*extra, int(shard[1]), int(shard[0])]
        rows = self._read(
            "SELECT m.id, m.role, m.content, p.id, p.content, m.name, p.name FROM {s}.messages m "
            "LEFT JOIN {s}.message_vectors v ON v.message_id = m.id AND v.model = ? "
            "LEFT JOIN {s}.messages p ON p.sid = m.sid AND p.seq = m.seq - 1 "
            f"WHERE v.message_id IS NULL AND m.id > ? AND {_ELIGIBLE} "
            + (f"AND {among} " if among else "")
            + "ORDER BY m.id LIMIT ?",
            (model_id, int(after), *extra, int(limit)),
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

    def put_vectors(self, model_id: str, rows: Sequence[tuple[PendingText, bytes]]) -> int:
        """Store ``rows`` in one transaction (see :class:`VectorStore`)."""
        if not rows:
            return 0
        self.__dict__.pop("_vector_status_cache", None)

        def put(conn: C) -> int:
            self._lock_vectors(conn)
            top = self._run(conn, "SELECT COALESCE(MAX(added), 0) FROM {s}.message_vectors")
            added = int(top.fetchone()[0])
            written = 0
            for pending, blob in rows:
                added += 1
                cur = self._run(
                    conn,
                    "INSERT INTO {s}.message_vectors(message_id, model, vec, added) "
                    "SELECT ?, ?, ?, ? WHERE EXISTS "
                    "(SELECT 1 FROM {s}.messages WHERE id = ?) AND "
                    "(? < 0 OR EXISTS (SELECT 1 FROM {s}.messages WHERE id = ?)) "
                    "ON CONFLICT (message_id) DO UPDATE SET model = excluded.model, "
                    "vec = excluded.vec, added = excluded.added",
                    (
                        pending.message_id,
                        model_id,
                        blob,
                        added,
                        pending.message_id,
                        -1 if pending.previous_id is None else pending.previous_id,
                        -1 if pending.previous_id is None else pending.previous_id,
                    ),
                )
                written += max(0, int(cur.rowcount or 0))
            return written

        return self._write(put)

    def vector_status(self, model_id: str, *, max_age: float = 0.0) -> VectorStatus:
        """How far the vectors of ``model_id`` cover the messages (three counts; one
        counted less than ``max_age`` seconds ago may be returned)."""
        cached = self.__dict__.get("_vector_status_cache")
        if max_age > 0 and cached is not None:
            when, status = cached
            if status.model == model_id and time.monotonic() - when < max_age:
                return status  # type: ignore[no-any-return]
        status = self._count_vectors(model_id)
        self.__dict__["_vector_status_cache"] = (time.monotonic(), status)
        return status

    def _count_vectors(self, model_id: str) -> VectorStatus:
        total = int(self._read(f"SELECT COUNT(*) FROM {{s}}.messages m WHERE {_ELIGIBLE}")[0][0])
        if not self._has_vectors():
            return VectorStatus(model_id, 0, total, 0)
        counts = dict(self._read("SELECT model, COUNT(*) FROM {s}.message_vectors GROUP BY model"))
        embedded = int(counts.pop(model_id, 0))
        return VectorStatus(model_id, embedded, total, int(sum(counts.values())))

    def vector_search(
        self, query_vec: Any, model_id: str, filters: SearchFilters, limit: int
    ) -> list[tuple[int, float]]:
        """``(message_id, cosine)`` best first (see :class:`VectorStore`): exact search
        over the matrix this store keeps in memory, refreshed with what is new."""
        if not self._has_vectors() or limit <= 0:
            return []
        from .vector_cache import VectorCache

        lock = self.__dict__.setdefault("_vector_cache_lock", threading.Lock())
        with lock:
            cache = self._vector_cache
            if cache is None or cache.model != model_id:
                cache = self._vector_cache = VectorCache(model_id)
            cache.refresh(self)
            return cache.search(self, query_vec, filters, limit)

    def _vector_rows(self, model_id: str, after: int) -> list[Any]:
        """Vectors of ``model_id`` added after ``after``, with what filters need."""
        return self._read(
            "SELECT v.message_id, v.vec, v.added, m.sid, m.ts, m.role "
            "FROM {s}.message_vectors v JOIN {s}.messages m ON m.id = v.message_id "
            "WHERE v.added > ? AND v.model = ? ORDER BY v.added",
            (int(after), model_id),
        )

    def _vector_deletions(self) -> int:
        rows = self._read("SELECT value FROM {s}.meta WHERE key = 'vector_deletions'")
        return int(rows[0][0]) if rows else 0

    def _vector_sids(self, column: str, values: Sequence[str]) -> list[int]:
        """``sid`` of the sessions whose ``column`` (``id`` or ``source``) is in ``values``."""
        out: list[int] = []
        for cond, params in self.dialect.chunks(column, list(values)):
            sql = f"SELECT sid FROM {{s}}.sessions WHERE {cond}"
            out.extend(int(r[0]) for r in self._read(sql, params))
        return out

    def _vector_alive(self, model_id: str, ids: Sequence[int]) -> set[int]:
        """Which of ``ids`` still have a vector of ``model_id``."""
        out: set[int] = set()
        for cond, params in self.dialect.chunks("message_id", list(ids)):
            sql = f"SELECT message_id FROM {{s}}.message_vectors WHERE model = ? AND {cond}"
            out.update(int(r[0]) for r in self._read(sql, [model_id, *params]))
        return out
