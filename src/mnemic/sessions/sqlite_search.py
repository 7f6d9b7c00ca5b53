"""Full-text search over the SQLite store, with a bounded cost per query.

FTS5's ``bm25()`` is costly in two ways: it is computed for every matching row before
the rows can be sorted (about 5 us a row here), and before the first row it counts the
documents of every phrase of the query by running that phrase over the whole index (a
frequent two-character Chinese word is a phrase of bigrams found in 18 % of a million
messages: 60 ms before anything is returned). So each query term is looked at alone:

* its most recent matches are listed (rowids only, newest first, stopping at
  :data:`SCORE_CAP` + 1: about a millisecond);
* a *rare* term (at most :data:`SCORE_CAP` matches) is scored with ``bm25()`` on all its
  matches: exact, and cheap because it is rare;
* a *common* term gets one score for all of its :data:`SCORE_CAP` most recent matches:
  bm25's weight for a term seen once in a document of average length, with the term's
  document count estimated from how densely those recent matches are spread. A very
  common word thus ranks the recent messages that contain it, while a rare word of the
  same query is still found everywhere.

A message's score is the sum over the query's terms, which is how bm25 combines phrases
anyway: an ``any``-words query ranks the union of the terms' candidates, an ``all``-words
query the (most recent :data:`SCORE_CAP`) messages matching the whole expression. The
best candidates are then joined to their rows in chunks, filters applied, until ``limit``
hits are found; if capping left too few eligible hits (a narrow filter), the query runs
again uncapped with the filters inside the SQL.
"""

from __future__ import annotations

import math
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .query import Query
from .store import Hit, SearchFilters

__all__ = ["SCORE_CAP", "search"]

SCORE_CAP = 500
"""Most recent matches scored per expression when it matches more."""
_CHUNK = 150

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


def _listing(conn: sqlite3.Connection, expr: str) -> list[int]:
    """Rowids of the most recent SCORE_CAP + 1 matches of ``expr``."""
    rows = conn.execute(
        "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?",
        (expr, SCORE_CAP + 1),
    ).fetchall()
    return [int(r[0]) for r in rows]


def _bm25(conn: sqlite3.Connection, expr: str, weights: Sequence[float]) -> dict[int, float]:
    """bm25 of every match of ``expr`` (call only for rare expressions)."""
    rows = conn.execute(
        "SELECT rowid, bm25(messages_fts, ?, ?) FROM messages_fts WHERE messages_fts MATCH ?",
        (*weights, expr),
    )
    return {int(r[0]): float(r[1]) for r in rows}


def _common_score(listing: Sequence[int], total: int) -> float:
    """bm25 (negative) of one occurrence in an average document, for a term whose most
    recent matches are ``listing``: its document count is estimated from their density."""
    span = max(1, listing[0] - listing[-1] + 1)
    docs = min(float(total), len(listing) * total / span) if total else float(len(listing))
    idf = math.log((total - docs + 0.5) / (docs + 0.5)) if total > docs else 0.0
    return -max(idf, 1e-6)


@dataclass
class _Term:
    listing: list[int]
    scores: dict[int, float] | None  # None: a common term
    common: float

    @property
    def capped(self) -> bool:
        return self.scores is None

    @property
    def recent(self) -> set[int]:
        return set(self.listing[:SCORE_CAP])


def _term(conn: sqlite3.Connection, expr: str, weights: Sequence[float], total: int) -> _Term:
    listing = _listing(conn, expr)
    if len(listing) <= SCORE_CAP:
        return _Term(listing, _bm25(conn, expr, weights) if listing else {}, 0.0)
    return _Term(listing, None, _common_score(listing[:SCORE_CAP], total))


def _candidates(
    conn: sqlite3.Connection, query: Query, weights: Sequence[float]
) -> tuple[dict[int, float], bool]:
    """Scores of the candidate rowids, and whether candidates were left out (capped)."""
    total = int(conn.execute("SELECT COALESCE(MAX(rowid), 0) FROM messages").fetchone()[0])
    singles = query.per_term()
    terms = [_term(conn, q.to_fts5(), weights, total) for q in singles]
    scores: dict[int, float] = defaultdict(float)
    if query.match == "any" or len(terms) == 1:
        for t in terms:
            if t.scores is not None:
                for rowid, value in t.scores.items():
                    scores[rowid] += value
            else:
                for rowid in t.listing[:SCORE_CAP]:
                    scores[rowid] += t.common
        return scores, any(t.capped for t in terms)
    # all words: the most recent matches of the whole expression, scored term by term
    listing = _listing(conn, query.to_fts5())
    mandatory = [len(g) == 1 for g in query.groups for _ in g]
    recents = [t.recent if t.capped else set() for t in terms]
    for rowid in listing[:SCORE_CAP]:
        total_score = 0.0
        for t, must, recent in zip(terms, mandatory, recents, strict=True):
            if t.scores is not None:
                total_score += t.scores.get(rowid, 0.0)
            elif must or rowid in recent:
                total_score += t.common
        scores[rowid] = total_score
    return scores, len(listing) > SCORE_CAP


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
    scores, capped = _candidates(conn, query, weights)
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
