"""Full-text search in PostgreSQL with the ranking of the SQLite store.

The ranking algorithm is shared (:func:`mnemic.sessions.sql.lexical.ranked_search`); this
module is its PostgreSQL engine (:class:`PgIndex`):

* matching is ``tsv @@ tsquery`` over the stored vectors (:mod:`.lexer`), served by the
  GIN index; "the most recent matches" are the highest message ids;
* scoring is FTS5's bm25, computed here from the vectors themselves: for each matching
  message the positions of the query's lexemes are read (``unnest(tsv)``), phrase
  occurrences counted per column (body weight 1.0, aux 0.4, as in SQLite), and combined
  with each phrase's document count, the message's token count and the average over the
  store (``k1 = 1.2``, ``b = 0.75``, idf floored at 1e-6: FTS5's constants). Only rare
  expressions (at most :data:`~mnemic.sessions.sql.lexical.SCORE_CAP` matches) are scored
  this way; common ones get the shared density estimate, exactly as in SQLite;
* the uncapped fallback for narrow filters scores the :data:`EXACT_CAP` most recent
  eligible matches (SQLite scores all of them).
"""

from __future__ import annotations

import math
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import psycopg
import psycopg.errors

from ...sessions.index.query import VOCABULARY_LIMIT, Query, Term
from ...sessions.sql.lexical import HIT_COLUMNS, filter_condition, hit_from_row, time_ordered
from ...sessions.store import Hit, SearchFilters
from .db import Database
from .lexer import Lexer, Phrase, phrase_lexemes, phrase_sql, quote

__all__ = ["EXACT_CAP", "KeptListings", "LexemeStats", "PgIndex", "walk_pays"]

TOTALS_TTL = 2.0
"""Seconds a search reuses bm25's corpus totals (message count, average length) and the
store's highest message id."""
STATS_TTL = 300.0
"""Seconds between re-reads of the lexeme statistics (they change at ANALYZE only)."""
EXACT_CAP = 10_000
"""Most recent eligible matches scored when capping left too few hits."""
_COUNT_CAP = 100_000
"""Document counts of a phrase are counted up to this many."""
VOCABULARY_SAMPLE = 1000
"""Messages whose lexemes are read per prefix looked up (:meth:`PgIndex.vocabulary`)."""
K1 = 1.2
B = 0.75

Occurrences = dict[str, list[tuple[int, int]]]
"""lexeme -> [(position, column)] of one message; column 0 = body, 1 = aux."""


class PgIndex:
    """The :class:`~mnemic.sessions.sql.lexical.LexicalIndex` of a PostgreSQL store."""

    def __init__(
        self,
        conn: psycopg.Connection[Any],
        db: Database,
        lexer: Lexer,
        weights: Sequence[float],
        stats: LexemeStats,
        kept: KeptListings | None = None,
    ) -> None:
        self.stats = stats
        self.kept = kept
        self._snapshot: str | None = None
        self.conn = conn
        self.db = db
        self.lexer = lexer
        self.weights = (float(weights[0]), float(weights[1]))
        self._totals: tuple[int, float] | None = None
        self._size: int | None = None
        self._ts: dict[Query, str] = {}
        self._all: dict[Query, list[int]] = {}
        self._listed: dict[Query, list[int]] = {}
        self._found: dict[Query, tuple[dict[int, Occurrences], dict[int, int]]] = {}

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

    def holds(self, queries: Sequence[Query]) -> list[bool]:
        """Whether any message matches each query: one ``EXISTS`` each, in one round
        trip, each stopping at its first match (the GIN index for a rare or absent
        word, any row for a frequent one)."""
        probes = ", ".join(
            "EXISTS (SELECT 1 FROM {s}.messages m WHERE m.tsv @@ %s::tsquery)" for _ in queries
        )
        rows = self._rows(f"SELECT {probes}", [self._tsquery(q) for q in queries])
        return [bool(v) for v in rows[0]]

    def vocabulary(self, prefixes: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        """The lexemes beginning with each of ``prefixes`` and how many messages hold
        each, in one statement: read from the vectors of at most :data:`VOCABULARY_SAMPLE`
        messages holding the prefix (the GIN index finds them; a prefix held more
        widely gives the lexemes of that many), at most ``VOCABULARY_LIMIT`` a prefix."""
        if not prefixes:
            return {}
        part = (
            "(SELECT %s::text, u.lexeme, COUNT(*) FROM (SELECT tsv FROM {s}.messages "
            "WHERE tsv @@ %s::tsquery LIMIT %s) m, unnest(m.tsv) u "
            "WHERE left(u.lexeme, %s) = %s GROUP BY u.lexeme ORDER BY u.lexeme LIMIT %s)"
        )
        params: list[Any] = []
        for prefix in prefixes:
            params += [prefix, quote(prefix) + ":*", VOCABULARY_SAMPLE, len(prefix), prefix]
            params.append(VOCABULARY_LIMIT)
        rows = self._rows(" UNION ALL ".join(part for _ in prefixes), params)
        out: dict[str, list[tuple[str, int]]] = {p: [] for p in prefixes}
        for prefix, lexeme, count in rows:
            out[str(prefix)].append((str(lexeme), int(count)))
        return out

    # -- the protocol -------------------------------------------------------------------
    def listing(self, query: Query, cap: int) -> list[int]:
        # A GIN index yields matches unordered: listing "the most recent" through it
        # reads the term's whole posting list and visits every match it keeps in the
        # heap. Two ways out for a frequent expression, chosen by their expected cost
        # (:func:`walk_pays`): walking the primary key backwards, testing each row (it
        # stops after cap; pays for a very frequent term), or GIN AND an id window
        # expected to hold cap matches (a bitmap of the primary key, so only matches
        # inside the window are visited), widened while too few are found: for one
        # word, or a phrase through its rarest word (:meth:`anchor`; a phrase's estimate,
        # its rarest word's, can only be too high: its windows then widen, never visit
        # more than its matches). A rare term (as estimated) takes every match at once,
        # through the index (the planner would sometimes walk the primary key for it,
        # and read a hundred times more rows). Several words that must all be there
        # start from their own listings (:meth:`_all_words`); other expressions (a
        # compound's alternatives, words of which one may do) take every match at once
        # as the planner sees fit; a prefix (no statistics) is left to the planner.
        single = len(query.terms) == 1 and self._snapshot is not None
        if single and self._reuse(query):
            return self._listed[query]
        tsq = self._tsquery(query)
        found = self._from_terms(query, cap)
        if found is None:
            found = self._all_words(query, tsq, cap)
        if found is None:
            found = self._listing(query, tsq, cap)
        self._listed[query] = found
        if single and self.kept is not None and self._snapshot is not None:
            self.kept.put(
                self._snapshot, query, (found, self._all.get(query), self._found.get(query))
            )
        return found

    def keep(self, kept: KeptListings) -> None:
        """Share single terms' listings with the next searches of the store (through
        ``kept``) while nothing commits: PostgreSQL's snapshot is read now, one round
        trip. Discovery asks for any of the words when no message holds all of them:
        the same words' listings, a few milliseconds later."""
        if kept.unavailable:
            return
        try:
            row = self._rows("SELECT pg_current_snapshot()::text", ())
        except psycopg.errors.UndefinedFunction:  # before PostgreSQL 13: nothing is kept
            kept.unavailable = True
            return
        self.kept = kept
        self._snapshot = kept.begin(str(row[0][0]))

    def _reuse(self, query: Query) -> bool:
        """Whether ``query``'s listing (and its matches and positions when complete)
        was kept under this search's snapshot: then they are this index's too."""
        assert self.kept is not None and self._snapshot is not None
        got = self.kept.get(self._snapshot, query)
        if got is None:
            return False
        listed, every, found = got
        self._listed[query] = listed
        if every is not None:
            self._all[query] = every
        if found is not None:
            self._found[query] = found
        return True

    def _listing(self, query: Query, tsq: str, cap: int) -> list[int]:
        size = self.size()
        density = self.density(query)
        ids: list[int] = []
        if density is None:
            return self._ids(
                "SELECT id FROM {s}.messages WHERE tsv @@ %s::tsquery ORDER BY id DESC LIMIT %s",
                (tsq, cap),
            )
        high = size + 1
        window = int(2 * cap / density) if density > 0 else high
        frequent = density * size > 4 * cap
        several = len(query.terms) > 1
        anchor = self.anchor(query) if frequent and not several else None
        windowed = anchor is not None or (frequent and _single_word(query, self.lexer))
        if frequent and walk_pays(density, size, cap):
            low = max(0, high - window)
            ids = self._ids(
                "SELECT id FROM {s}.messages WHERE ts_match_vq(tsv, %s::tsquery) AND id >= %s "
                "ORDER BY id DESC LIMIT %s",
                (tsq, low, cap),
            )
            high = 0 if len(ids) >= cap else low
        elif not windowed:
            window = high
            if len(query.terms) == 1:
                # a rare term: its matches and their lexeme positions (what bm25 reads
                # next, when they are all of its matches) in one statement
                ids = self._listing_with_occurrences(query, tsq, cap, rare=not frequent)
                high = 0
        while high > 0 and len(ids) < cap:
            low = max(0, high - window)
            upper = None if high > size else high
            ids += self._window(tsq, low, upper, cap - len(ids), anchor, several=several)
            high, window = low, window * 4
        if len(ids) < cap:  # every match: scores() needs no second look
            self._all[query] = ids
        return ids

    def _from_terms(self, query: Query, cap: int) -> list[int] | None:
        """The newest ``cap`` matches of an all-words ``query`` of several terms when
        every term's listing held all of its matches (the ranking lists each term
        first), with no statement: the ids every group holds (a group: any of its
        alternatives). Each term's query keeps the exclusions, so these are exactly the
        whole's matches. None when a term's listing was cut at ``cap`` or not read.

        Words drawn independently rarely share a message: the server's answer for the
        whole (a bitmap AND of their posting lists) was a round trip for nothing, and
        the ranking then asks for any of the words."""
        if len(query.terms) < 2 or query.match != "all":
            return None
        terms = iter(query.per_term())
        shared: set[int] | None = None
        for group in query.groups:
            held: set[int] = set()
            for _ in group:
                ids = self._all.get(next(terms))
                if ids is None:
                    return None
                held.update(ids)
            shared = held if shared is None else shared & held
        found = sorted(shared or (), reverse=True)[:cap]
        if len(found) < cap:
            self._all[query] = found
        return found

    def _all_words(self, query: Query, tsq: str, cap: int) -> list[int] | None:
        """The newest ``cap`` matches of an all-words ``query`` whose mandatory terms
        (groups of one) are all frequent, found with the help of their listings (the
        ranking lists each term first); None when that does not apply.

        The planner estimates several words as independent, far too rare when they come
        from one message: it reads every match of the whole to find the newest. But a
        term's listing holds all its matches from its oldest listed id on, so the
        whole's matches from the highest of those ids on are among the ids every
        listing holds: those are tested, by id. The share of them that matched sizes a
        window of older ids for the rest, looked for there through the rarest word of
        the query (:meth:`anchor`); when the window would take more than a quarter of
        the older ids (the rarest word's matches in it then cost more than the whole's
        everywhere), the rest is left to the planner."""
        if len(query.terms) < 2 or query.match != "all":
            return None
        alone = [len(g) == 1 for g in query.groups for _ in g]
        mandatory = [q for q, one in zip(query.per_term(), alone, strict=True) if one]
        known = [self._listed.get(q) for q in mandatory]
        lists = [ids for ids in known if ids is not None and len(ids) >= cap]
        if not lists or len(lists) < len(known):
            return None  # a rare term: the index finds the whole's matches among its few
        bound = max(ids[-1] for ids in lists)
        shared = set(lists[0]).intersection(*lists[1:])
        ids = self._among(tsq, sorted((i for i in shared if i >= bound), reverse=True), cap)
        if len(ids) >= cap:
            return ids
        share = len(ids) / max(1, self.size() + 1 - bound)
        window = int(2 * (cap - len(ids)) / share) if share else bound
        anchor = self.anchor(query)
        if 4 * window <= bound and anchor is not None:
            high = bound
            while high > 0 and len(ids) < cap:
                low = max(0, high - window)
                ids += self._window(tsq, low, high, cap - len(ids), anchor)
                high, window = low, window * 4
        else:
            ids += self._ids(
                "SELECT id FROM {s}.messages WHERE tsv @@ %s::tsquery AND id < %s "
                "ORDER BY id DESC LIMIT %s",
                (tsq, bound, cap - len(ids)),
            )
        if len(ids) < cap:
            self._all[query] = ids
        return ids

    def _among(self, tsq: str, candidates: Sequence[int], cap: int) -> list[int]:
        """The newest ``cap`` of ``candidates`` matching ``tsq``, read by id (the match
        as a function, which the full-text index does not serve)."""
        if not candidates:
            return []
        return self._ids(
            "SELECT id FROM {s}.messages WHERE id = ANY(%s::bigint[]) AND "
            "ts_match_vq(tsv, %s::tsquery) ORDER BY id DESC LIMIT %s",
            (id_array(candidates), tsq, cap),
        )

    def anchor(self, query: Query) -> str | None:
        """A word every match of ``query`` holds, its rarest, as tsquery text, when the
        query is a phrase of several words or several words that must all be there;
        else None.

        The planner estimates a phrase's matches far below its words' (the positions
        are not in its statistics), and several words as independent: given the query,
        it reads every match of the words and tests each against the window, where the
        rarest word alone makes it combine its index with the window's (the query is
        then tested on those rows only)."""
        if len(query.terms) > 1 and query.match != "all":
            return None
        lexemes: list[str] = []
        for group in query.groups:
            phrases = self.lexer.phrases(group[0]) if len(group) == 1 else []
            if len(phrases) == 1 and not phrases[0].prefix:
                lexemes += phrases[0].lexemes
        if len(lexemes) < 2:
            return None
        common, floor = self.stats.common()
        rarest = min(lexemes, key=lambda lex: common.get(lex, floor))
        return phrase_sql(Phrase((rarest,)))

    def _window(
        self,
        tsq: str,
        low: int,
        high: int | None,
        limit: int,
        anchor: str | None = None,
        *,
        several: bool = False,
    ) -> list[int]:
        """Ids of the newest ``limit`` matches of ``tsq`` with ``low <= id < high`` (no
        upper bound for the newest window: rows added meanwhile count); ``anchor``: see
        :meth:`anchor`; ``several``: ``tsq`` has several terms."""
        if low <= 0 and high is None:
            # every match: through the index (``id + 0``) for one term, whose estimate
            # is an upper bound; for several, left to the planner (words of one message
            # are not independent: their estimate can be far too low)
            order = "id" if several else "id + 0"
            return self._ids(
                f"SELECT id FROM {{s}}.messages WHERE tsv @@ %s::tsquery ORDER BY {order} DESC "
                "LIMIT %s",
                (tsq, limit),
            )
        # The planner prefers scanning the id range and testing every row in it (it
        # prices the test at almost nothing); with plain index scans off for this one
        # statement it combines the two indexes' bitmaps instead. Values are literals
        # (quoted by psycopg) so that SET LOCAL and the query share one round trip.
        statement = "SET LOCAL enable_indexscan = off; " + self.window_sql(
            tsq, low, high, limit, anchor
        )
        cur = self.conn.execute(statement, prepare=False)
        rows: list[Any] = []
        while True:
            if cur.description:
                rows = cur.fetchall()
            if not cur.nextset():
                break
        return [int(r[0]) for r in rows]

    def window_sql(
        self, tsq: str, low: int, high: int | None, limit: int, anchor: str | None = None
    ) -> str:
        """The statement listing the newest ``limit`` matches of ``tsq`` in an id window
        (values as literals), meant to run with plain index scans off. With an
        ``anchor`` (:meth:`anchor`) the index is asked for it, and ``tsq`` tested on the
        rows it finds in the window."""
        from psycopg import sql

        match = (
            "tsv @@ {tsq}::tsquery"
            if anchor is None
            else "tsv @@ {anchor}::tsquery AND ts_match_vq(tsv, {tsq}::tsquery)"
        )
        text = (
            f"SELECT id FROM {{s}}.messages WHERE {match} AND id >= {{low}}"
            + ("" if high is None else " AND id < {high}")
            + " ORDER BY id + 0 DESC LIMIT {limit}"
        )
        return (
            sql.SQL(self.db.sql(text))
            .format(
                tsq=sql.Literal(tsq),
                anchor=sql.Literal(anchor or ""),
                low=sql.Literal(int(low)),
                high=sql.Literal(int(high or 0)),
                limit=sql.Literal(int(limit)),
            )
            .as_string(self.conn)
        )

    def _listing_with_occurrences(
        self, query: Query, tsq: str, cap: int, *, rare: bool = True
    ) -> list[int]:
        """The newest ``cap`` matches of a one-term ``query``, newest first; when they
        are all of its matches, the positions of its lexemes in each are kept for
        :meth:`scores`. ``rare``: the term is estimated rare, so its matches are read
        through the index (else the planner chooses)."""
        exact, prefixes = phrase_lexemes(self.lexer.positive_phrases(query))
        if prefixes or not exact:
            return self._ids(
                "SELECT id FROM {s}.messages WHERE tsv @@ %s::tsquery ORDER BY id DESC LIMIT %s",
                (tsq, cap),
            )
        # a rare term's ids come through the index (``id + 0``: never a walk of the
        # primary key); only when fewer than cap came back (all of the term's matches)
        # are their rows joined and the positions unpacked
        order = "id + 0" if rare else "id"
        rows = self._rows(
            "SELECT x.id, m.ntok, m.naux, u.lexeme, u.positions FROM (SELECT id, count(*) "
            "OVER () AS n FROM (SELECT id FROM {s}.messages WHERE tsv @@ %s::tsquery ORDER BY "
            f"{order} DESC LIMIT %s) y) x LEFT JOIN {{s}}.messages m ON m.id = CASE WHEN "
            "x.n < %s THEN x.id END LEFT JOIN LATERAL unnest(ts_filter(setweight(m.tsv, 'D', "
            "%s::text[]), '{d}')) u ON u.lexeme = ANY(%s)",
            (tsq, cap, cap, exact, exact),
        )
        ids = sorted({int(r[0]) for r in rows}, reverse=True)
        if len(ids) < cap:
            self._found[query] = _decode_occurrences(rows)
        return ids

    def _ids(self, sql: str, params: Sequence[Any]) -> list[int]:
        return [int(r[0]) for r in self._rows(sql, params)]

    def density(self, query: Query) -> float | None:
        """The expected share of messages matching ``query`` by the planner's lexeme
        statistics (words taken as independent; a lexeme not among the common ones
        counts as the least common of them); None when a prefix makes it unknowable."""
        common, floor = self.stats.common()

        def term(t: Term) -> float | None:
            best = 0.0
            for phrase in self.lexer.phrases(t):
                if phrase.prefix:
                    return None
                f = min((common.get(lex, floor) for lex in phrase.lexemes), default=0.0)
                best = max(best, f)
            return best

        groups = [list(query.terms)] if query.match == "any" else [list(g) for g in query.groups]
        total = 1.0
        for group in groups:
            share = 0.0
            for t in group:
                f = term(t)
                if f is None:
                    return None
                share += f
            total *= min(1.0, share)
        return total

    def scores(self, query: Query) -> dict[int, float]:
        ids = self._all.get(query)
        if ids is None:
            ids = self._ids(
                "SELECT id FROM {s}.messages WHERE tsv @@ %s::tsquery", (self._tsquery(query),)
            )
        counted = not query.excluded  # then every doc holding a phrase is among the matches
        found = self._found.get(query)
        if found is None and ids and query in self._all:
            found = self._occurrences(ids, self.lexer.positive_phrases(query))
            self._found[query] = found
            if self.kept is not None and self._snapshot is not None and query in self._listed:
                self.kept.put(self._snapshot, query, (self._listed[query], ids, found))
        return self._bm25(query, ids, exact_counts=not counted, found=found)

    def prepare(self) -> None:
        """Read the store's size and its bm25 totals unless the store has fresh ones
        (they move slowly; see :class:`LexemeStats`)."""
        kept = self.stats.totals()
        if kept is not None:
            self._totals, self._size = kept
            return
        row = self._rows(
            "SELECT (SELECT COALESCE(max(id), 0) FROM {s}.messages), "
            "COALESCE(sum(message_count), 0), COALESCE(sum(index_tokens), 0) FROM {s}.sessions",
            (),
        )
        size, n, tokens = (int(row[0][0]), int(row[0][1]), int(row[0][2])) if row else (0, 0, 0)
        self._size = size
        self._totals = (n, tokens / n if n else 0.0)
        self.stats.keep_totals(self._totals, size)

    def size(self) -> int:
        if self._size is None:
            row = self._rows("SELECT COALESCE(max(id), 0) FROM {s}.messages", ())
            self._size = int(row[0][0]) if row else 0
        return self._size

    def rows(self, ids: Sequence[int], filters: SearchFilters) -> dict[int, Sequence[Any]]:
        clauses = filter_condition(filters, "m.id = ANY(%s::bigint[])", "%s")
        if clauses is None or not ids:
            return {}
        condition, params = clauses
        found = self._rows(
            f"SELECT {HIT_COLUMNS} FROM {{s}}.messages m CROSS JOIN LATERAL (SELECT id, source, "
            "message_count FROM {s}.sessions x WHERE x.sid = m.sid OFFSET 0) s "
            f"WHERE {condition}",
            [id_array(ids), *params],
        )
        return {int(r[0]): r for r in found}

    def ranked_exact(self, query: Query, filters: SearchFilters, limit: int) -> list[Hit]:
        found = [int(r[0]) for r in self._matches(query, filters, "m.id", "DESC", EXACT_CAP)]
        scores = self._bm25(query, found, exact_counts=True)
        best = sorted(scores.items(), key=lambda kv: (kv[1], -kv[0]))[:limit]
        rows = self.rows([i for i, _ in best], filters)
        return [hit_from_row(rows[i], value) for i, value in best if i in rows]

    def by_time(
        self, query: Query, filters: SearchFilters, limit: int, *, newest: bool
    ) -> list[Hit]:
        order = "DESC" if newest else "ASC"
        rows = self._matches(query, filters, HIT_COLUMNS, order, limit * 10)
        return time_ordered(rows, limit, newest)

    def _matches(
        self, query: Query, filters: SearchFilters, columns: str, order: str, limit: int
    ) -> list[Any]:
        """``columns`` of the first ``limit`` matches within ``filters`` by id (``order``)."""
        clauses = filter_condition(filters, "m.tsv @@ %s::tsquery", "%s")
        if clauses is None:
            return []
        condition, params = clauses
        return self._rows(
            f"SELECT {columns} FROM {{s}}.messages m JOIN {{s}}.sessions s ON s.sid = m.sid "
            f"WHERE {condition} ORDER BY m.id {order} LIMIT %s",
            [self._tsquery(query), *params, limit],
        )

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

    def _occurrences(
        self, ids: Sequence[int], phrases: Sequence[Phrase]
    ) -> tuple[dict[int, Occurrences], dict[int, int]]:
        """The query lexemes' positions in each message, and each message's token count.

        A position's column follows from the message's ``naux`` (positions up to it are
        aux). Without prefixes only the query's lexemes are unpacked: they are marked
        with weight D and filtered out of the vector in C (``setweight``, ``ts_filter``),
        instead of unnesting every lexeme of every message.
        """
        exact, prefixes = phrase_lexemes(phrases)
        out: dict[int, Occurrences] = {}
        sizes: dict[int, int] = {}
        if not ids or not (exact or prefixes):
            return out, sizes
        if prefixes:
            rows = self._rows(
                "SELECT m.id, m.ntok, m.naux, u.lexeme, u.positions FROM {s}.messages m "
                "CROSS JOIN LATERAL unnest(m.tsv) u WHERE m.id = ANY(%s::bigint[]) "
                "AND (u.lexeme = ANY(%s) OR u.lexeme ^@ ANY(%s))",
                (id_array(ids), exact, prefixes),
            )
        else:
            rows = self._rows(
                "SELECT m.id, m.ntok, m.naux, u.lexeme, u.positions FROM {s}.messages m "
                "CROSS JOIN LATERAL unnest(ts_filter(setweight(m.tsv, 'D', %s::text[]), "
                "'{d}')) u WHERE m.id = ANY(%s::bigint[]) AND u.lexeme = ANY(%s)",
                (exact, id_array(ids), exact),
            )
        return _decode_occurrences(rows)

    def _doc_count(self, phrase: Phrase) -> int:
        rows = self._rows(
            "SELECT count(*) FROM (SELECT 1 FROM {s}.messages WHERE tsv @@ %s::tsquery LIMIT %s) x",
            (phrase_sql(phrase), _COUNT_CAP),
        )
        return int(rows[0][0]) if rows else 0

    def _bm25(
        self,
        query: Query,
        ids: Sequence[int],
        *,
        exact_counts: bool,
        found: tuple[dict[int, Occurrences], dict[int, int]] | None = None,
    ) -> dict[int, float]:
        """bm25 (negative, lower is better) of the messages ``ids`` (``found``: their
        lexeme positions and sizes, when the listing read them already)."""
        if not ids:
            return {}
        phrases = self.lexer.positive_phrases(query)
        docs, sizes = found if found is not None else self._occurrences(ids, phrases)
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
        for mid in ids:
            ntok = sizes.get(mid, 0)
            norm = K1 * (1 - B + B * ntok / avgdl) if avgdl else K1
            total = 0.0
            for idf, per_doc in zip(idfs, freqs, strict=True):
                f = per_doc.get(mid, 0.0)
                if f:
                    total += idf * (f * (K1 + 1.0)) / (f + norm)
            scores[mid] = -total
        return dict(scores)


Kept = tuple[list[int], list[int] | None, tuple[dict[int, Occurrences], dict[int, int]] | None]
"""A single term's listing, all its matches (when the listing held them) and their
lexeme positions (when read with it)."""


class KeptListings:
    """Single terms' listings read by the searches of one store since a PostgreSQL
    snapshot (:meth:`PgIndex.keep`). Two snapshots are equal only if no transaction
    of the server completed in between (their ``xmax`` is the latest completed one
    + 1, and grows): every listing read between them saw the same rows, so a search
    whose snapshot equals the kept one may reuse them; any other snapshot starts
    afresh."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._snapshot: str | None = None
        self._terms: dict[Query, Kept] = {}
        self.unavailable = False
        """The server has no ``pg_current_snapshot()`` (before PostgreSQL 13)."""

    def begin(self, snapshot: str) -> str:
        """The snapshot of a search beginning now (kept listings dropped if another)."""
        with self._lock:
            if snapshot != self._snapshot:
                self._snapshot, self._terms = snapshot, {}
            return snapshot

    def get(self, snapshot: str, query: Query) -> Kept | None:
        with self._lock:
            return self._terms.get(query) if snapshot == self._snapshot else None

    def put(self, snapshot: str, query: Query, kept: Kept) -> None:
        with self._lock:
            if snapshot == self._snapshot:
                self._terms[query] = kept
                while len(self._terms) > KEPT_TERMS:
                    self._terms.pop(next(iter(self._terms)))


KEPT_TERMS = 64
"""Most single terms' listings kept (:class:`KeptListings`)."""


class LexemeStats:
    """The planner's most common lexemes of ``messages.tsv`` with their frequencies, and
    the least of those frequencies (``pg_stats``), re-read at most every
    :data:`STATS_TTL` seconds. Without statistics (never analyzed) every lexeme counts
    as frequency 1 % (windows of 200 x cap messages)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._common: tuple[dict[str, float], float] = ({}, 0.01)
        self._read_at = -STATS_TTL
        self._totals: tuple[tuple[int, float], int] | None = None
        self._totals_at = 0.0

    def totals(self) -> tuple[tuple[int, float], int] | None:
        """((messages, average tokens), highest message id) read less than
        :data:`TOTALS_TTL` seconds ago and not invalidated since by a write of this
        store; else None. (Rows added meanwhile by others are still searched: the
        newest window of a listing has no upper bound.)"""
        if self._totals is None or time.monotonic() - self._totals_at > TOTALS_TTL:
            return None
        return self._totals

    def keep_totals(self, totals: tuple[int, float], size: int) -> None:
        self._totals, self._totals_at = (totals, size), time.monotonic()

    def changed(self) -> None:
        """This store wrote messages: the totals must be read again."""
        self._totals = None

    def common(self) -> tuple[dict[str, float], float]:
        now = time.monotonic()
        if now - self._read_at >= STATS_TTL:
            self._read_at = now
            try:
                with self.db.connection() as conn:
                    row = conn.execute(
                        "SELECT most_common_elems::text::text[], most_common_elem_freqs "
                        "FROM pg_stats WHERE schemaname = %s AND tablename = 'messages' "
                        "AND attname = 'tsv'",
                        (self.db.schema,),
                    ).fetchone()
            except Exception:  # statistics are a hint
                row = None
            if row and row[0] and row[1] and len(row[1]) > len(row[0]):
                freqs = [float(f) for f in row[1]]
                self._common = (dict(zip(row[0], freqs, strict=False)), freqs[len(row[0])])
            else:
                self._common = ({}, 0.01)
        return self._common


WALK_ROW_US = 1.5
"""Microseconds to read one row walking the primary key and test its vector."""
POSTING_US = 0.4
"""Microseconds per entry of a GIN posting list read into a bitmap."""
VISIT_US = 1.5
"""Microseconds to visit one match found through a bitmap (heap row, recheck)."""


def walk_pays(density: float, size: int, cap: int) -> bool:
    """Whether walking the primary key backwards to find ``cap`` matches of a term of
    ``density`` (share of messages) is expected to cost less than reading the term's
    posting list and visiting the matches of a window holding ``2 * cap`` of them, in a
    store of ``size`` messages. (Measured on the bench corpus, PostgreSQL 15: the walk
    wins for very frequent terms, more of them the larger the store.)"""
    if density <= 0:
        return False
    walk = cap / density * WALK_ROW_US
    bitmap = density * size * POSTING_US + 2 * cap * VISIT_US
    return walk < bitmap


def id_array(ids: Sequence[int]) -> str:
    """``ids`` as the text of a PostgreSQL array (``{1,2,3}``), cast by the statement:
    psycopg's list dumper costs more than the query for a few hundred ids."""
    return "{" + ",".join(str(int(i)) for i in ids) + "}"


def _single_word(query: Query, lexer: Lexer) -> bool:
    """Whether ``query`` is one word (one lexeme): the planner estimates those well."""
    if len(query.terms) != 1:
        return False
    phrases = lexer.phrases(query.terms[0])
    return len(phrases) == 1 and len(phrases[0].lexemes) == 1


def _decode_occurrences(rows: Sequence[Any]) -> tuple[dict[int, Occurrences], dict[int, int]]:
    """``(id, ntok, naux, lexeme, positions)`` rows as each message's lexeme positions
    (with their column) and token count; a row without a lexeme only gives the size."""
    out: dict[int, Occurrences] = {}
    sizes: dict[int, int] = {}
    for mid, ntok, naux, lexeme, positions in rows:
        sizes[int(mid)] = int(ntok)
        spots = out.setdefault(int(mid), {})
        if lexeme is None:
            continue
        if not positions:
            spots[str(lexeme)] = [(0, 0)]  # a lexeme past the position limit
            continue
        spots[str(lexeme)] = [(int(p), 1 if p <= naux else 0) for p in positions]
    return out, sizes


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
