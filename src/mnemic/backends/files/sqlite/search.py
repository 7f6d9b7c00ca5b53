"""Full-text search over the SQLite store, with a bounded cost per query.

The ranking itself is backend-neutral (:mod:`mnemic.sessions.sql.lexical`: per-term
listings, exact bm25 for rare terms, a density estimate for common ones); this module is
its FTS5 engine.
FTS5's ``bm25()`` is costly in two ways here: it is computed for every matching row
before the rows can be sorted (about 5 us a row), and before the first row it counts
the documents of every phrase of the query by running that phrase over the whole index
(a frequent two-character Chinese word is a phrase of bigrams found in 18 % of a million
messages: 60 ms before anything is returned). Listing the most recent matches walks the
index in rowid order and stops at :data:`SCORE_CAP` + 1 (about a millisecond), so only
rare terms are ever scored with ``bm25()``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from ....sessions.index.query import Query
from ....sessions.sql.lexical import (
    HIT_COLUMNS,
    SCORE_CAP,
    filter_condition,
    hit_from_row,
    ranked_search,
    time_ordered,
)
from ....sessions.store import Hit, SearchFilters

__all__ = ["SCORE_CAP", "FTS5Index", "search"]


class FTS5Index:
    """The :class:`~mnemic.sessions.sql.lexical.LexicalIndex` of an SQLite store."""

    def __init__(self, conn: sqlite3.Connection, weights: Sequence[float]) -> None:
        self.conn = conn
        self.weights = tuple(weights)

    def listing(self, query: Query, cap: int) -> list[int]:
        rows = self.conn.execute(
            "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?",
            (query.to_fts5(), cap),
        ).fetchall()
        return [int(r[0]) for r in rows]

    def scores(self, query: Query) -> dict[int, float]:
        rows = self.conn.execute(
            "SELECT rowid, bm25(messages_fts, ?, ?) FROM messages_fts WHERE messages_fts MATCH ?",
            (*self.weights, query.to_fts5()),
        )
        return {int(r[0]): float(r[1]) for r in rows}

    def size(self) -> int:
        return int(self.conn.execute("SELECT COALESCE(MAX(rowid), 0) FROM messages").fetchone()[0])

    def rows(self, ids: Sequence[int], filters: SearchFilters) -> dict[int, Sequence[Any]]:
        found = filter_condition(filters, f"m.id IN ({', '.join('?' for _ in ids)})")
        if found is None or not ids:
            return {}
        condition, params = found
        sql = f"SELECT {HIT_COLUMNS} FROM messages m JOIN sessions s ON s.sid = m.sid WHERE "
        return {int(r[0]): r for r in self.conn.execute(sql + condition, [*ids, *params])}

    def ranked_exact(self, query: Query, filters: SearchFilters, limit: int) -> list[Hit]:
        score = ", bm25(messages_fts, ?, ?) AS score"
        rows = self._matches(query, filters, score, "score, m.id DESC", limit, self.weights)
        return [hit_from_row(r[:7], float(r[7])) for r in rows]

    def by_time(
        self, query: Query, filters: SearchFilters, limit: int, *, newest: bool
    ) -> list[Hit]:
        # walk the index in rowid order (= recording order, cheap) and sort that by time
        order = f"messages_fts.rowid {'DESC' if newest else 'ASC'}"
        return time_ordered(self._matches(query, filters, "", order, limit * 10), limit, newest)

    def _matches(
        self,
        query: Query,
        filters: SearchFilters,
        score: str,
        order: str,
        limit: int,
        weights: Sequence[float] = (),
    ) -> list[Any]:
        """:data:`HIT_COLUMNS` (and ``score``, computed with ``weights``) of the matches
        within ``filters``, in ``order``."""
        found = filter_condition(filters, "messages_fts MATCH ?")
        if found is None:
            return []
        condition, params = found
        sql = (
            f"SELECT {HIT_COLUMNS}{score} FROM messages_fts "
            "JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.sid = m.sid "
            f"WHERE {condition} ORDER BY {order} LIMIT ?"
        )
        return self.conn.execute(sql, [*weights, query.to_fts5(), *params, limit]).fetchall()


def search(
    conn: sqlite3.Connection,
    query: Query,
    filters: SearchFilters,
    *,
    limit: int,
    sort: str,
    weights: Sequence[float],
) -> list[Hit]:
    """Ranked hits (see :mod:`mnemic.sessions.sql.lexical`). Raises sqlite3 errors to the caller."""
    return ranked_search(FTS5Index(conn, weights), query, filters, limit=limit, sort=sort)
