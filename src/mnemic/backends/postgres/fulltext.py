"""Full-text search in PostgreSQL with the ranking of the SQLite store.

The ranking algorithm is shared (:func:`mnemic.sessions.lexical.ranked_search`); this
module is its PostgreSQL engine (:class:`PgIndex`):

* matching is ``tsv @@ tsquery`` over the stored vectors (:mod:`.lexer`), served by the
  GIN index; "the most recent matches" are the highest message ids;
* scoring is FTS5's bm25, computed here from the vectors themselves: for each matching
  message the positions of the query's lexemes are read (``unnest(tsv)``), phrase
  occurrences counted per column (body weight 1.0, aux 0.4, as in SQLite), and combined
  with each phrase's document count, the message's token count and the average over the
  store (``k1 = 1.2``, ``b = 0.75``, idf floored at 1e-6: FTS5's constants). Only rare
  expressions (at most :data:`~mnemic.sessions.lexical.SCORE_CAP` matches) are scored
  this way; common ones get the shared density estimate, exactly as in SQLite;
* the uncapped fallback for narrow filters scores the :data:`EXACT_CAP` most recent
  eligible matches (SQLite scores all of them).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...sessions.lexical import HIT_COLUMNS, filter_clauses, hit_from_row
from ...sessions.query import Query
from ...sessions.store import Hit, SearchFilters
from .lexer import Lexer, Phrase, phrase_lexemes

if TYPE_CHECKING:
    import psycopg

    from .db import Database

__all__ = ["EXACT_CAP", "PgIndex"]

EXACT_CAP = 10_000
"""Most recent eligible matches scored when capping left too few hits."""
_COUNT_CAP = 100_000
"""Document counts of a phrase are counted up to this many."""
K1 = 1.2
B = 0.75

Occurrences = dict[str, list[tuple[int, int]]]
"""lexeme -> [(position, column)] of one message; column 0 = body, 1 = aux."""


class PgIndex:
    """The :class:`~mnemic.sessions.lexical.LexicalIndex` of a PostgreSQL store."""

    def __init__(
        self,
        conn: psycopg.Connection[Any],
        db: Database,
        lexer: Lexer,
        weights: Sequence[float],
    ) -> None:
        self.conn = conn
        self.db = db
        self.lexer = lexer
        self.weights = (float(weights[0]), float(weights[1]))
        self._totals: tuple[int, float] | None = None
        self._ts: dict[Query, str] = {}
        self._sizes: dict[Query, dict[int, int]] = {}

    def _tsquery(self, query: Query) -> str:
        text = self._ts.get(query)
        if text is None:
            text = self.lexer.tsquery(query)
            self._ts[query] = text
        return text

    def _rows(self, sql: str, params: Sequence[Any]) -> list[Any]:
        # Never a prepared statement: a generic plan cannot tell a rare term (GIN bitmap)
        # from a common one (walk the primary key backwards), so each query is planned
        # with its own tsquery.
        return self.conn.execute(self.db.sql(sql), params, prepare=False).fetchall()

    # -- the protocol -------------------------------------------------------------------
    def listing(self, query: Query, cap: int) -> list[int]:
        rows = self._rows(
            "SELECT id, ntok FROM {s}.messages WHERE tsv @@ %s::tsquery ORDER BY id DESC LIMIT %s",
            (self._tsquery(query), cap),
        )
        if len(rows) < cap:  # every match: scores() needs no second look
            self._sizes[query] = {int(i): int(n) for i, n in rows}
        return [int(r[0]) for r in rows]

    def scores(self, query: Query) -> dict[int, float]:
        sizes = self._sizes.get(query)
        if sizes is None:
            rows = self._rows(
                "SELECT id, ntok FROM {s}.messages WHERE tsv @@ %s::tsquery",
                (self._tsquery(query),),
            )
            sizes = {int(i): int(n) for i, n in rows}
        counted = not query.excluded  # then every doc holding a phrase is among the matches
        return self._bm25(query, sizes, exact_counts=not counted)

    def size(self) -> int:
        row = self._rows("SELECT COALESCE(max(id), 0) FROM {s}.messages", ())
        return int(row[0][0]) if row else 0

    def rows(self, ids: Sequence[int], filters: SearchFilters) -> dict[int, Sequence[Any]]:
        clauses = filter_clauses(filters, "%s")
        if clauses is None or not ids:
            return {}
        where, params = clauses
        extra = "".join(f" AND {w}" for w in where)
        found = self._rows(
            f"SELECT {HIT_COLUMNS} FROM {{s}}.messages m JOIN {{s}}.sessions s ON s.sid = m.sid "
            f"WHERE m.id = ANY(%s){extra}",
            [list(ids), *params],
        )
        return {int(r[0]): r for r in found}

    def ranked_exact(self, query: Query, filters: SearchFilters, limit: int) -> list[Hit]:
        clauses = filter_clauses(filters, "%s")
        if clauses is None:
            return []
        where, params = clauses
        condition = " AND ".join(["m.tsv @@ %s::tsquery", *where])
        found = self._rows(
            f"SELECT m.id, m.ntok FROM {{s}}.messages m JOIN {{s}}.sessions s ON s.sid = m.sid "
            f"WHERE {condition} ORDER BY m.id DESC LIMIT %s",
            [self._tsquery(query), *params, EXACT_CAP],
        )
        sizes = {int(i): int(n) for i, n in found}
        scores = self._bm25(query, sizes, exact_counts=True)
        best = sorted(scores.items(), key=lambda kv: (kv[1], -kv[0]))[:limit]
        rows = self.rows([i for i, _ in best], filters)
        return [hit_from_row(rows[i], value) for i, value in best if i in rows]

    def by_time(
        self, query: Query, filters: SearchFilters, limit: int, *, newest: bool
    ) -> list[Hit]:
        clauses = filter_clauses(filters, "%s")
        if clauses is None:
            return []
        where, params = clauses
        condition = " AND ".join(["m.tsv @@ %s::tsquery", *where])
        rows = self._rows(
            f"SELECT {HIT_COLUMNS} FROM {{s}}.messages m JOIN {{s}}.sessions s ON s.sid = m.sid "
            f"WHERE {condition} ORDER BY m.id {'DESC' if newest else 'ASC'} LIMIT %s",
            [self._tsquery(query), *params, limit * 10],
        )
        rows.sort(key=lambda r: (r[4], r[0]), reverse=newest)
        return [hit_from_row(r, float(i)) for i, r in enumerate(rows[:limit])]

    # -- bm25 -------------------------------------------------------------------------------
    def totals(self) -> tuple[int, float]:
        """(messages in the store, average tokens per message)."""
        if self._totals is None:
            row = self._rows(
                "SELECT COALESCE(sum(message_count), 0), COALESCE(sum(index_tokens), 0) "
                "FROM {s}.sessions",
                (),
            )
            n, tokens = (int(row[0][0]), int(row[0][1])) if row else (0, 0)
            self._totals = (n, tokens / n if n else 0.0)
        return self._totals

    def _occurrences(self, ids: Sequence[int], phrases: Sequence[Phrase]) -> dict[int, Occurrences]:
        exact, prefixes = phrase_lexemes(phrases)
        out: dict[int, Occurrences] = {}
        if not ids or not (exact or prefixes):
            return out
        rows = self._rows(
            "SELECT m.id, u.lexeme, u.positions, u.weights FROM {s}.messages m "
            "CROSS JOIN LATERAL unnest(m.tsv) u WHERE m.id = ANY(%s) "
            "AND (u.lexeme = ANY(%s) OR u.lexeme ^@ ANY(%s))",
            (list(ids), exact, prefixes),
        )
        for mid, lexeme, positions, weights in rows:
            spots = out.setdefault(int(mid), {})
            if not positions:
                spots[str(lexeme)] = [(0, 0)]  # a lexeme past the position limit
                continue
            spots[str(lexeme)] = [
                (int(p), 1 if w == "B" else 0) for p, w in zip(positions, weights, strict=True)
            ]
        return out

    def _doc_count(self, phrase: Phrase) -> int:
        rows = self._rows(
            "SELECT count(*) FROM (SELECT 1 FROM {s}.messages WHERE tsv @@ %s::tsquery LIMIT %s) x",
            (_phrase_query(phrase), _COUNT_CAP),
        )
        return int(rows[0][0]) if rows else 0

    def _bm25(self, query: Query, sizes: dict[int, int], *, exact_counts: bool) -> dict[int, float]:
        """bm25 (negative, lower is better) of the messages in ``sizes`` (id -> tokens)."""
        if not sizes:
            return {}
        phrases = self.lexer.positive_phrases(query)
        docs = self._occurrences(list(sizes), phrases)
        freqs: list[dict[int, float]] = []
        for phrase in phrases:
            per_doc: dict[int, float] = {}
            for mid, spots in docs.items():
                body, aux = phrase_hits(spots, phrase)
                if body or aux:
                    per_doc[mid] = body * self.weights[0] + aux * self.weights[1]
            freqs.append(per_doc)
        n, avgdl = self.totals()
        idfs = []
        for phrase, per_doc in zip(phrases, freqs, strict=True):
            hits = self._doc_count(phrase) if exact_counts else len(per_doc)
            idf = math.log((n - hits + 0.5) / (hits + 0.5)) if n else 0.0
            idfs.append(idf if idf > 0.0 else 1e-6)
        scores: dict[int, float] = defaultdict(float)
        for mid, ntok in sizes.items():
            norm = K1 * (1 - B + B * ntok / avgdl) if avgdl else K1
            total = 0.0
            for idf, per_doc in zip(idfs, freqs, strict=True):
                f = per_doc.get(mid, 0.0)
                if f:
                    total += idf * (f * (K1 + 1.0)) / (f + norm)
            scores[mid] = -total
        return dict(scores)


def phrase_hits(spots: Occurrences, phrase: Phrase) -> tuple[int, int]:
    """(body, aux) occurrences of ``phrase`` in a message's lexeme positions."""
    lexemes = phrase.lexemes
    if not lexemes:
        return 0, 0

    def places(i: int) -> list[tuple[int, int]]:
        if phrase.prefix and i == len(lexemes) - 1:
            start = lexemes[i]
            return [p for lex, where in spots.items() if lex.startswith(start) for p in where]
        return spots.get(lexemes[i], [])

    first = places(0)
    if len(lexemes) == 1:
        body = sum(1 for _, col in first if col == 0)
        return body, len(first) - body
    rest = [set(places(i)) for i in range(1, len(lexemes))]
    counts = [0, 0]
    for pos, col in first:
        if pos and all((pos + i, col) in seen for i, seen in enumerate(rest, 1)):
            counts[col] += 1
    return counts[0], counts[1]


def _phrase_query(phrase: Phrase) -> str:
    from .lexer import _phrase_sql

    return _phrase_sql(phrase)
