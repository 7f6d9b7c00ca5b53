"""Full-text search over the SQLite store, with a bounded cost per query.

FTS5 computes bm25 for every matching row before it can sort (about 4-5 us a row here),
and joining each match to ``messages``/``sessions`` for the filters costs as much again:
a common word in a million messages would take 100 ms and more. So:

1. An ``any``-words query is split into one query per term. bm25 of an OR query is the
   sum over its phrases of per-phrase scores, so summing per-term scores gives the same
   ranking, and each term can be bounded on its own.
2. Each expression is scored on the index alone (no join). When it matches more than
   :data:`SCORE_CAP` messages, only its :data:`SCORE_CAP` most recent matches are scored:
   a very common word ranks the recent messages that contain it, while a rare word of the
   same query is still scored everywhere.
3. The best candidates are joined to their rows in chunks, filters applied, until
   ``limit`` hits are found. If capping left too few eligible hits (a narrow filter),
   the query runs again uncapped, with the filters inside the SQL.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from .query import Query
from .store import Hit, SearchFilters

__all__ = ["SCORE_CAP", "search"]

SCORE_CAP = 500
"""Most recent matches scored per expression when it matches more."""
_CHUNK = 250

_HIT_COLS = "m.id, s.id, m.seq, m.role, m.ts, s.source, s.message_count"


def _filter_sql(filters: SearchFilters) -> tuple[list[str], list[Any]] | None:
    """WHERE clauses on ``m``/``s`` for ``filters`` (None: nothing can match)."""
    where: list[str] = []
    params: list[Any] = []

    def isin(column: str, values: Sequence[str], negate: bool = False) -> None:
        where.append(f"{column} {'NOT ' if negate else ''}IN ({', '.join('?' for _ in values)})")
        params.extend(values)

    if filters.roles is not None:
        if not filters.roles:
            return None
        isin("m.role", filters.roles)
    if filters.sources is not None:
        if not filters.sources:
            return None
        isin("s.source", filters.sources)
    if filters.exclude_sources:
        isin("s.source", filters.exclude_sources, negate=True)
    if filters.exclude_sessions:
        isin("s.id", filters.exclude_sessions, negate=True)
    if filters.sessions is not None:
        if not filters.sessions:
            return None
        isin("s.id", filters.sessions)
    if filters.since is not None:
        where.append("m.ts >= ?")
        params.append(float(filters.since))
    if filters.until is not None:
        where.append("m.ts < ?")
        params.append(float(filters.until))
    return where, params


def _hit(row: Sequence[Any], score: float) -> Hit:
    return Hit(int(row[0]), row[1], int(row[2]), row[3], float(row[4]), row[5], score, int(row[6]))


def _score(
    conn: sqlite3.Connection, expr: str, weights: Sequence[float]
) -> tuple[list[tuple[int, float]], bool]:
    """(rowid, bm25) of the matches of ``expr``, newest first, at most SCORE_CAP; and
    whether there were more. One pass over the index in descending rowid order."""
    rows = conn.execute(
        "SELECT rowid, bm25(messages_fts, ?, ?) FROM messages_fts WHERE messages_fts MATCH ? "
        "ORDER BY rowid DESC LIMIT ?",
        (*weights, expr, SCORE_CAP + 1),
    ).fetchall()
    capped = len(rows) > SCORE_CAP
    return [(int(r[0]), float(r[1])) for r in rows[:SCORE_CAP]], capped


def _ranked_exact(
    conn: sqlite3.Connection,
    expr: str,
    where: list[str],
    params: list[Any],
    weights: Sequence[float],
    limit: int,
) -> list[Hit]:
    clauses = " AND ".join(["messages_fts MATCH ?", *where])
    sql = (
        f"SELECT {_HIT_COLS}, bm25(messages_fts, ?, ?) AS score FROM messages_fts "
        "JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.sid = m.sid "
        f"WHERE {clauses} ORDER BY score, m.id DESC LIMIT ?"
    )
    rows = conn.execute(sql, [*weights, expr, *params, limit]).fetchall()
    return [_hit(r[:7], float(r[7])) for r in rows]


def _by_time(
    conn: sqlite3.Connection,
    expr: str,
    where: list[str],
    params: list[Any],
    limit: int,
    newest: bool,
) -> list[Hit]:
    # walk the index in rowid order (= recording order, cheap) and sort that by time
    clauses = " AND ".join(["messages_fts MATCH ?", *where])
    sql = (
        f"SELECT {_HIT_COLS} FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid "
        f"JOIN sessions s ON s.sid = m.sid WHERE {clauses} "
        f"ORDER BY messages_fts.rowid {'DESC' if newest else 'ASC'} LIMIT ?"
    )
    rows = conn.execute(sql, [expr, *params, limit * 10]).fetchall()
    rows.sort(key=lambda r: (r[4], r[0]), reverse=newest)
    return [_hit(r, float(i)) for i, r in enumerate(rows[:limit])]


def search(
    conn: sqlite3.Connection,
    query: Query,
    filters: SearchFilters,
    *,
    limit: int,
    sort: str,
    weights: Sequence[float],
) -> list[Hit]:
    """Ranked hits (see the module docstring). Raises sqlite3 errors to the caller."""
    clauses = _filter_sql(filters)
    if clauses is None or query.empty or limit <= 0:
        return []
    where, params = clauses
    if sort in ("newest", "oldest"):
        return _by_time(conn, query.to_fts5(), where, params, limit, sort == "newest")
    parts = query.per_term() if query.match == "any" and len(query.terms) > 1 else [query]
    scores: dict[int, float] = defaultdict(float)
    capped = False
    for part in parts:
        rows, was_capped = _score(conn, part.to_fts5(), weights)
        capped |= was_capped
        for rowid, value in rows:
            scores[rowid] += value
    ranked = sorted(scores.items(), key=lambda kv: (kv[1], -kv[0]))
    hits: list[Hit] = []
    extra = "".join(f" AND {w}" for w in where)
    for start in range(0, len(ranked), _CHUNK):
        chunk = ranked[start : start + _CHUNK]
        sql = (
            f"SELECT {_HIT_COLS} FROM messages m JOIN sessions s ON s.sid = m.sid "
            f"WHERE m.id IN ({', '.join('?' for _ in chunk)}){extra}"
        )
        found = {int(r[0]): r for r in conn.execute(sql, [*(rowid for rowid, _ in chunk), *params])}
        for rowid, value in chunk:
            row = found.get(rowid)
            if row is not None:
                hits.append(_hit(row, value))
                if len(hits) >= limit:
                    return hits
    if capped and len(hits) < limit:
        return _ranked_exact(conn, query.to_fts5(), where, params, weights, limit)
    return hits
