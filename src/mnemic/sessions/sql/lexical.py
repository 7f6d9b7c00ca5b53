"""Bounded-cost lexical ranking, shared by every session-store backend.

A full-text engine's relevance function (bm25) is costly in two ways: it is computed for
every matching row before the rows can be sorted, and it needs each phrase's document
count, which for a frequent word means running that word over the whole index. So each
query term is looked at alone:

* its most recent matches are listed (ids only, newest first, stopping at
  :data:`SCORE_CAP` + 1);
* a *rare* term (at most :data:`SCORE_CAP` matches) is scored with bm25 on all its
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
again uncapped with the filters inside the engine.

A backend supplies the engine (:class:`LexicalIndex`): listing, exact bm25, the hit rows
of candidate ids, and the two uncapped fallbacks. :func:`filter_condition` renders
:class:`~mnemic.sessions.store.SearchFilters` as SQL for engines whose tables follow the
common layout (``messages m`` joined to ``sessions s``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..index.query import Query
from ..store import Hit, SearchFilters

__all__ = [
    "HIT_COLUMNS",
    "SCORE_CAP",
    "LexicalIndex",
    "filter_condition",
    "hit_from_row",
    "ranked_search",
    "time_ordered",
]

SCORE_CAP = 500
"""Most recent matches scored per expression when it matches more."""
CHUNK = 150
"""Candidate ids joined to their rows per round trip."""

HIT_COLUMNS = "m.id, s.id, m.seq, m.role, m.ts, s.source, s.message_count"
"""The columns :func:`hit_from_row` reads, in order (``messages m``, ``sessions s``)."""


class LexicalIndex(Protocol):
    """What :func:`ranked_search` needs from a backend's full-text index.

    Message ids grow with recording order, so "most recent" means "highest id". Scores
    follow bm25's sign convention: negative, lower is better.
    """

    def listing(self, query: Query, cap: int) -> list[int]:
        """Ids of the ``cap`` most recent messages matching ``query``, newest first."""
        ...

    def scores(self, query: Query) -> dict[int, float]:
        """bm25 of every message matching ``query`` (only asked for rare queries)."""
        ...

    def size(self) -> int:
        """An upper bound of the message count (the highest message id)."""
        ...

    def rows(self, ids: Sequence[int], filters: SearchFilters) -> dict[int, Sequence[Any]]:
        """The :data:`HIT_COLUMNS` rows of those ``ids`` that pass ``filters``, by id."""
        ...

    def ranked_exact(self, query: Query, filters: SearchFilters, limit: int) -> list[Hit]:
        """The ``limit`` best matches by bm25 within ``filters``, without any cap."""
        ...

    def by_time(
        self, query: Query, filters: SearchFilters, limit: int, *, newest: bool
    ) -> list[Hit]:
        """Matches within ``filters`` ordered by message time (score = position)."""
        ...


def filter_condition(
    filters: SearchFilters, first: str, mark: str = "?"
) -> tuple[str, list[Any]] | None:
    """A WHERE condition on ``m``/``s``: ``first`` and the conditions of ``filters`` (with
    ``mark`` placeholders), and the filters' parameters (after those of ``first``).

    Returns None when nothing can match (an empty allow-list).
    """
    if _allows_none(filters):
        return None
    where: list[str] = [first]
    params: list[Any] = []

    def isin(column: str, values: Sequence[str], negate: bool = False) -> None:
        marks = ", ".join(mark for _ in values)
        where.append(f"{column} {'NOT ' if negate else ''}IN ({marks})")
        params.extend(values)

    if filters.roles is not None:
        isin("m.role", filters.roles)
    if filters.sources is not None:
        isin("s.source", filters.sources)
    if filters.exclude_sources:
        isin("s.source", filters.exclude_sources, negate=True)
    if filters.exclude_sessions:
        isin("s.id", filters.exclude_sessions, negate=True)
    if filters.sessions is not None:
        isin("s.id", filters.sessions)
    if filters.since is not None:
        where.append(f"m.ts >= {mark}")
        params.append(float(filters.since))
    if filters.until is not None:
        where.append(f"m.ts < {mark}")
        params.append(float(filters.until))
    return " AND ".join(where), params


def _allows_none(filters: SearchFilters) -> bool:
    """Whether an allow-list of ``filters`` is empty (nothing can match)."""
    return any(f is not None and not f for f in (filters.roles, filters.sources, filters.sessions))


def time_ordered(rows: list[Any], limit: int, newest: bool) -> list[Hit]:
    """Hits of :data:`HIT_COLUMNS` rows listed in recording order (``limit`` x 10 of
    them, newest or oldest first), ordered by message time, then id."""
    rows.sort(key=lambda r: (r[4], r[0]), reverse=newest)
    return [hit_from_row(r, float(i)) for i, r in enumerate(rows[:limit])]


def hit_from_row(row: Sequence[Any], score: float) -> Hit:
    """A :class:`Hit` from a :data:`HIT_COLUMNS` row."""
    return Hit(int(row[0]), row[1], int(row[2]), row[3], float(row[4]), row[5], score, int(row[6]))


def common_score(listing: Sequence[int], total: int) -> float:
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


def _term(index: LexicalIndex, query: Query, total: int) -> _Term:
    listing = index.listing(query, SCORE_CAP + 1)
    if len(listing) <= SCORE_CAP:
        return _Term(listing, index.scores(query) if listing else {}, 0.0)
    return _Term(listing, None, common_score(listing[:SCORE_CAP], total))


def _candidates(index: LexicalIndex, query: Query) -> tuple[dict[int, float], bool]:
    """Scores of the candidate ids, and whether candidates were left out (capped)."""
    total = index.size()
    terms = [_term(index, q, total) for q in query.per_term()]
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
    listing = index.listing(query, SCORE_CAP + 1)
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


def ranked_search(
    index: LexicalIndex,
    query: Query,
    filters: SearchFilters,
    *,
    limit: int,
    sort: str,
) -> list[Hit]:
    """Ranked hits (see the module docstring). Engine errors reach the caller."""
    if _allows_none(filters) or query.empty or limit <= 0:
        return []
    if sort in ("newest", "oldest"):
        return index.by_time(query, filters, limit, newest=sort == "newest")
    scores, capped = _candidates(index, query)
    ranked = sorted(scores.items(), key=lambda kv: (kv[1], -kv[0]))
    hits: list[Hit] = []
    for start in range(0, len(ranked), CHUNK):
        chunk = ranked[start : start + CHUNK]
        found = index.rows([rowid for rowid, _ in chunk], filters)
        for rowid, value in chunk:
            row = found.get(rowid)
            if row is not None:
                hits.append(hit_from_row(row, value))
                if len(hits) >= limit:
                    return hits
    if capped and len(hits) < limit:
        return index.ranked_exact(query, filters, limit)
    return hits
