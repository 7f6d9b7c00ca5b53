"""The in-memory matrix of one store's vectors and exact search over it (numpy).

A :class:`VectorCache` holds, for one model, every vector as a float32 row plus what
filters need per row (session ``sid``, time, role), read from the store's
``message_vectors`` table (:mod:`.vectors`) through its :class:`~.tables.Engine`.
:meth:`VectorCache.refresh` reads only the rows ``added`` since the last refresh; when
rows were deleted (the store's ``vector_deletions`` counter moved) or a message's vector
was replaced, it reloads whole. Filters become a row mask; hits are checked against the
table once more, so a vector deleted by another process since the refresh is never
returned. Past
:data:`EXACT_MAX` vectors the search is prefiltered by centred sign codes (see
:func:`~mnemic.embedding.topk.prefiltered_topk`) instead of scoring every row.

A message may have several vectors (a long one: its whole passage, then its pieces;
:func:`~mnemic.embedding.passage.passage_texts`), stored one after the other in its one
row. The matrix holds each message's first vector (the whole passage) and nothing else,
so the search reads as many rows as there are messages; the other vectors (kept as
float16 in :attr:`VectorCache.pieces`) are scored only for the :data:`RESCORED`
best messages by their first vector, and a message scores by its best vector (max-sim).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ...embedding.topk import code_columns, prefiltered_topk, sign_codes, topk
from ..store import ROLES, SearchFilters
from .tables import Engine

__all__ = ["EXACT_MAX", "RESCORED", "STATE", "VectorCache", "decode", "encode"]

EXACT_MAX = 50_000
"""Up to this many vectors a search scores every one (exact); past it, it scores
exactly only the candidates its sign codes bring forward (see
:func:`~mnemic.embedding.topk.prefiltered_topk`): at 100,000 vectors the exact pass
reads 150 MB a query."""
CANDIDATE_SHARE = 20
"""Past :data:`EXACT_MAX`, one vector in this many is scored exactly (at least
:data:`MIN_CANDIDATES`): on LoCoMo vectors, 5 % kept 95 % of the exact top 10."""
MIN_CANDIDATES = 2_000
RESCORED = 200
"""The messages, best by their first vector, whose other vectors (pieces) a search
scores too: the rows read stay bounded by the number of messages (see the module
docstring and docs/recall.md)."""

STATE = "SELECT value FROM {s}.meta WHERE key = 'vector_deletions'"
"""What a cache is read at: the store's count of deleted vectors (a change: reload)."""

_ROLE_CODE = {r: i for i, r in enumerate(ROLES)}


def encode(vec: npt.NDArray[Any]) -> bytes:
    """A vector as stored: little-endian float16."""
    return np.asarray(vec, dtype="<f2").tobytes()


def decode(blob: bytes, dim: int | None = None) -> npt.NDArray[np.float32]:
    """A stored vector as float32."""
    out = np.frombuffer(bytes(blob), dtype="<f2").astype(np.float32)
    if dim is not None and out.shape[0] != dim:
        raise ValueError(f"stored vector has {out.shape[0]} dimensions, not {dim}")
    return out


class VectorCache:
    """The vectors of ``model`` in one store, as a matrix (see the module docstring)."""

    def __init__(self, model: str, *, exact_max: int = EXACT_MAX, dim: int | None = None) -> None:
        self.model = model
        self.exact_max = exact_max
        self.dim = dim
        """Dimensions of one vector (None: those of the shortest row first read)."""
        self.center: npt.NDArray[np.float32] | None = None
        self.codes = np.empty((0, 0), np.uint8)
        self.columns: npt.NDArray[np.uint64] | None = None
        """:attr:`codes` as contiguous 8-byte columns (what the prefilter reads fastest:
        :func:`~mnemic.embedding.topk.code_columns`)."""
        self._centered_rows = 0
        self.ids = np.empty(0, np.int64)
        self.matrix = np.empty((0, 0), np.float32)
        self.sids = np.empty(0, np.int64)
        self.times = np.empty(0, np.float64)
        self.roles = np.empty(0, np.int8)
        self.added = 0
        self.state: tuple[Any, ...] | None = None
        """The row of the store's state query the cache was read at (see :meth:`refresh`)."""
        self._rows: dict[int, int] = {}
        self._role_codes: set[int] = set()
        self.pieces = np.empty((0, 0), np.float16)
        """The vectors after each message's first, one row each (float16, as stored)."""
        self.piece_start = np.empty(0, np.int64)
        """Per matrix row: where its message's pieces start in :attr:`pieces`."""
        self.piece_count = np.empty(0, np.int64)
        """Per matrix row: how many pieces its message has (0: one vector)."""

    def _reset(self) -> None:
        self.__init__(self.model, exact_max=self.exact_max, dim=self.dim)  # type: ignore[misc]

    def _coded(self) -> bool:
        """Bring the sign codes up to date (False: the matrix is small enough for exact
        search). The centre is the mean of the vectors; it is taken again, with every
        code, whenever the matrix has doubled since it was last taken."""
        n = int(self.matrix.shape[0])
        if n <= self.exact_max:
            return False
        if self.center is None or n >= 2 * self._centered_rows:
            self.center = self.matrix.mean(axis=0).astype(np.float32)
            self._centered_rows = n
            self.codes = sign_codes(self.matrix, self.center)
            self.columns = code_columns(self.codes)
        elif self.codes.shape[0] < n:
            fresh = sign_codes(self.matrix[self.codes.shape[0] :], self.center)
            self.codes = np.concatenate([self.codes, fresh])
            self.columns = code_columns(self.codes)
        return True

    def refresh(self, tables: Engine[Any], state: str | None = None) -> None:
        """Read what was added since the last refresh, or everything when the row of
        ``state`` (a query; by default :data:`STATE`: a store may add what identifies
        its tables) changed since: vectors were deleted, or the
        tables are others (made again: their ids and ``added`` numbers start again)."""
        rows = tables._read(state or STATE)
        now = tuple(rows[0]) if rows else ()
        if now != self.state:
            self._reset()
            self.state = now
        rows = _added_rows(tables, self.model, self.added)
        if not rows:
            return
        if any(int(r[0]) in self._rows for r in rows):  # replaced in place: reload
            self._reset()
            self.state = now
            rows = _added_rows(tables, self.model, 0)
        self._append(rows)

    def _append(self, rows: list[Any]) -> None:
        ids = np.fromiter((int(r[0]) for r in rows), np.int64, len(rows))
        blobs = [bytes(r[1]) for r in rows]
        if self.dim is None:
            self.dim = min(len(b) for b in blobs) // 2
        step = 2 * self.dim
        if any(len(b) % step or not b for b in blobs):
            raise ValueError(f"stored vectors of {self.model} are not of {self.dim} dimensions")
        mat = np.frombuffer(b"".join(b[:step] for b in blobs), dtype="<f2")
        mat = mat.astype(np.float32).reshape(len(rows), self.dim)
        counts = np.fromiter((len(b) // step - 1 for b in blobs), np.int64, len(rows))
        extra = b"".join(b[step:] for b in blobs)
        done = int(self.pieces.shape[0])
        starts = done + np.cumsum(counts) - counts
        if extra:
            more = np.frombuffer(extra, dtype="<f2").reshape(-1, self.dim)
            self.pieces = more if done == 0 else np.concatenate([self.pieces, more])
        self.piece_start = np.concatenate([self.piece_start, starts])
        self.piece_count = np.concatenate([self.piece_count, counts])
        start = int(self.ids.shape[0])
        self.ids = np.concatenate([self.ids, ids])
        self.matrix = mat if start == 0 else np.concatenate([self.matrix, mat])
        self.sids = np.concatenate([self.sids, np.fromiter((int(r[3]) for r in rows), np.int64)])
        self.times = np.concatenate([self.times, np.fromiter((float(r[4]) for r in rows), float)])
        codes = np.fromiter((_ROLE_CODE.get(str(r[5]), -1) for r in rows), np.int8)
        self.roles = np.concatenate([self.roles, codes])
        self._role_codes.update(int(c) for c in np.unique(codes).tolist())
        self._rows.update((int(i), start + n) for n, i in enumerate(ids.tolist()))
        self.added = max(self.added, max(int(r[2]) for r in rows))

    def mask(self, tables: Engine[Any], filters: SearchFilters) -> npt.NDArray[np.bool_] | None:
        """The rows ``filters`` keep (None: all)."""
        keep: npt.NDArray[np.bool_] | None = None

        def narrow(cond: npt.NDArray[np.bool_]) -> None:
            nonlocal keep
            keep = cond if keep is None else keep & cond

        if filters.roles is not None:
            codes = [_ROLE_CODE[r] for r in filters.roles if r in _ROLE_CODE]
            if not self._role_codes <= set(codes):  # (only user and assistant turns
                narrow(np.isin(self.roles, codes))  # are embedded: usually all kept)
        if filters.sources is not None:
            narrow(np.isin(self.sids, _session_sids(tables, "source", filters.sources)))
        if filters.exclude_sources:
            sids = _session_sids(tables, "source", filters.exclude_sources)
            narrow(~np.isin(self.sids, sids))
        if filters.sessions is not None:
            narrow(np.isin(self.sids, _session_sids(tables, "id", filters.sessions)))
        if filters.exclude_sessions:
            narrow(~np.isin(self.sids, _session_sids(tables, "id", filters.exclude_sessions)))
        if filters.since is not None:
            narrow(self.times >= float(filters.since))
        if filters.until is not None:
            narrow(self.times < float(filters.until))
        return keep

    def search(
        self, tables: Engine[Any], query: Any, filters: SearchFilters, limit: int
    ) -> list[tuple[int, float]]:
        """Exact top ``limit`` by cosine within ``filters``, best first."""
        if self.ids.shape[0] == 0:
            return []
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if q.shape[0] != self.matrix.shape[1]:
            raise ValueError(
                f"query vector has {q.shape[0]} dimensions; the stored vectors of "
                f"{self.model} have {self.matrix.shape[1]}"
            )
        mask = self.mask(tables, filters)
        want = max(limit, RESCORED) if self.pieces.shape[0] else limit
        if self._coded():
            assert self.center is not None
            share = max(MIN_CANDIDATES, int(self.matrix.shape[0]) // CANDIDATE_SHARE, want)
            rows, scores = prefiltered_topk(
                self.matrix,
                self.codes,
                self.center,
                q,
                want,
                candidates=share,
                mask=mask,
                columns=self.columns,
            )
        else:
            rows, scores = topk(self.matrix, q, want, mask=mask)
        if self.pieces.shape[0]:
            rows, scores = self._best_of_pieces(rows, scores, q, limit)
        ids = [int(i) for i in self.ids[rows].tolist()]
        alive = _still_stored(tables, self.model, ids) if ids else set()
        return [(i, float(s)) for i, s in zip(ids, scores.tolist(), strict=True) if i in alive]

    def _best_of_pieces(
        self,
        rows: npt.NDArray[np.int64],
        scores: npt.NDArray[np.float32],
        query: npt.NDArray[np.float32],
        limit: int,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        """``rows`` (best first by their first vector) scored by their best vector, the
        best ``limit`` of them; ties keep the first vector's order."""
        counts = self.piece_count[rows]
        has = np.flatnonzero(counts)
        if has.shape[0]:
            n = counts[has]
            # the rows of ``pieces`` of each candidate, one run after the other
            at = np.repeat(self.piece_start[rows[has]] - (np.cumsum(n) - n), n)
            taken = at + np.arange(int(n.sum()))
            piece_scores = np.einsum("ij,j->i", self.pieces[taken].astype(np.float32), query)
            best = np.maximum.reduceat(piece_scores, np.cumsum(n) - n)
            scores = scores.copy()
            scores[has] = np.maximum(scores[has], best.astype(np.float32))
        order = np.argsort(-scores, kind="stable")[:limit]
        return rows[order], scores[order]


# --- what the cache reads -------------------------------------------------------------


def _added_rows(tables: Engine[Any], model_id: str, after: int) -> list[Any]:
    """Vectors of ``model_id`` added after ``after``, with what filters need."""
    return tables._read(
        "SELECT v.message_id, v.vec, v.added, m.sid, m.ts, m.role "
        "FROM {s}.message_vectors v JOIN {s}.messages m ON m.id = v.message_id "
        "WHERE v.added > ? AND v.model = ? ORDER BY v.added",
        (int(after), model_id),
    )


def _session_sids(tables: Engine[Any], column: str, values: Sequence[str]) -> list[int]:
    """``sid`` of the sessions whose ``column`` (``id`` or ``source``) is in ``values``."""
    out: list[int] = []
    for cond, params in tables.dialect.chunks(column, list(values)):
        sql = f"SELECT sid FROM {{s}}.sessions WHERE {cond}"
        out.extend(int(r[0]) for r in tables._read(sql, params))
    return out


def _still_stored(tables: Engine[Any], model_id: str, ids: Sequence[int]) -> set[int]:
    """Which of ``ids`` still have a vector of ``model_id``."""
    out: set[int] = set()
    for cond, params in tables.dialect.chunks("message_id", list(ids)):
        sql = f"SELECT message_id FROM {{s}}.message_vectors WHERE model = ? AND {cond}"
        out.update(int(r[0]) for r in tables._read(sql, [model_id, *params]))
    return out
