"""How PostgreSQL lists the most recent matches of a frequent word (the ranking's
"listing" step): through a window of recent ids combined with the full-text index, the
server must visit only the word's matches inside the window, and the result must be
exactly the newest matches, whichever way (walk or window) the cost model picks."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from mnemic.backends.postgres import fulltext
from mnemic.sessions import parse_query

pytestmark = pytest.mark.postgres

MESSAGES = 30_000
EVERY = 10  # "alpha" is in every 10th message


def _schema(pg_dsn: str, vectors: str) -> Iterator[Any]:
    """A migrated schema of :data:`MESSAGES` messages whose vectors are ``vectors`` (SQL
    of the message number ``n``), analyzed."""
    import psycopg

    from mnemic.backends.postgres.db import Database
    from mnemic.backends.postgres.migrations import migrate

    name = "win_" + uuid.uuid4().hex[:10]
    db = Database(pg_dsn, schema=name)
    migrate(db)
    with db.raw_connection() as conn:
        conn.execute(db.sql(
            "INSERT INTO {s}.sessions (id, source, started_at, last_active, message_count) "
            "VALUES ('s1', 'cli', 1, 1, %s)"
        ), (MESSAGES,))  # fmt: skip
        conn.execute(db.sql(
            "INSERT INTO {s}.messages (sid, seq, ts, role, content, ntok, tsv) "
            f"SELECT (SELECT sid FROM {{s}}.sessions), n, n, 'user', 'x', 1, {vectors} "
            "FROM generate_series(1, %s) n"
        ), (MESSAGES,))  # fmt: skip
        conn.execute(db.sql("VACUUM ANALYZE {s}.messages"))
    yield db
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


@pytest.fixture(scope="module")
def filled(pg_dsn: str) -> Iterator[Any]:
    """``alpha`` in every 10th message, ``beta`` in the others (built once for the
    module: its tests only read it, their EXPLAIN ANALYZE in a transaction rolled back)."""
    yield from _schema(
        pg_dsn,
        f"CASE WHEN n %% {EVERY} = 0 THEN 'alpha:1'::tsvector ELSE 'beta:1'::tsvector END",
    )


PHRASE_EVERY = 30


@pytest.fixture(scope="module")
def phrased(pg_dsn: str) -> Iterator[Any]:
    """``alpha`` and ``beta`` in every 10th message, next to each other (the phrase
    "alpha beta") in every 30th only; ``gamma`` in the others. The phrase's estimate
    (its rarest word's share) is three times too high. Built once, read only, like
    :func:`filled`."""
    yield from _schema(
        pg_dsn,
        f"CASE WHEN n %% {PHRASE_EVERY} = 0 THEN 'alpha:1 beta:2'::tsvector "
        f"WHEN n %% {EVERY} = 0 THEN 'alpha:1 beta:5'::tsvector ELSE 'gamma:1'::tsvector END",
    )


def _index(db: Any, conn: Any) -> fulltext.PgIndex:
    from mnemic.backends.postgres.lexer import shared_lexer
    from mnemic.sessions.index.fields import DEFAULT_TOKENIZER

    index = fulltext.PgIndex(
        conn, db, shared_lexer(DEFAULT_TOKENIZER), (1.0, 0.4), fulltext.LexemeStats(db)
    )
    index.prepare()
    return index


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


def test_a_window_of_recent_ids_visits_only_the_words_matches(filled: Any) -> None:
    with filled.connection() as conn:
        index = _index(filled, conn)
        newest = index.size()
        low = newest - 1_000
        statement = index.window_sql("'alpha'", low, None, 501)
        conn.execute("BEGIN")
        try:
            conn.execute("SET LOCAL enable_indexscan = off")
            plan = conn.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + statement).fetchone()[0]
        finally:
            conn.execute("ROLLBACK")
        nodes = list(_nodes(plan[0]["Plan"]))
        heap = [n for n in nodes if n["Node Type"] == "Bitmap Heap Scan"]
        assert heap, [n["Node Type"] for n in nodes]
        # exact bitmap: no whole pages to re-test (a lossy BRIN bitmap made the server
        # re-test every row of the window), and no row fetched that is not a match
        assert heap[0].get("Lossy Heap Blocks", 0) == 0
        assert heap[0].get("Rows Removed by Index Recheck", 0) == 0
        assert heap[0].get("Rows Removed by Filter", 0) == 0
        matches = sum(1 for i in range(low, newest + 1) if i % EVERY == 0)
        assert heap[0]["Actual Rows"] == matches


@pytest.mark.parametrize("walk", [True, False])
def test_the_newest_matches_are_listed_whichever_way_is_chosen(
    filled: Any, walk: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fulltext, "walk_pays", lambda *a: walk)
    query = parse_query("alpha")
    with filled.connection() as conn:
        index = _index(filled, conn)
        found = index.listing(query, 501)
    assert found == list(range(MESSAGES - MESSAGES % EVERY, 0, -EVERY))[:501]


def test_the_cost_model_walks_for_very_frequent_words_in_large_stores() -> None:
    assert fulltext.walk_pays(0.3, 1_000_000, 500)
    assert not fulltext.walk_pays(0.001, 1_000_000, 500)
    # the same share of messages: reading its posting list grows with the store
    assert not fulltext.walk_pays(0.03, 20_000, 500)
    assert fulltext.walk_pays(0.03, 2_000_000, 500)


def test_the_migration_drops_the_brin_index_of_message_ids(filled: Any) -> None:
    from mnemic.backends.postgres.migrations import migrate

    def indexes() -> set[str]:
        with filled.raw_connection() as conn:
            rows = conn.execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = %s AND tablename = 'messages'",
                (filled.schema,),
            ).fetchall()
        return {str(r[0]) for r in rows}

    assert "messages_recent" not in indexes()
    assert {"messages_pkey", "messages_tsv"} <= indexes()
    assert migrate(filled) == []  # nothing left to do: running it again is harmless


@pytest.mark.parametrize("walk", [True, False])
def test_a_frequent_phrase_lists_its_newest_matches_though_its_estimate_is_too_high(
    phrased: Any, walk: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fulltext, "walk_pays", lambda *a: walk)
    query = parse_query('"alpha beta"')
    with phrased.connection() as conn:
        index = _index(phrased, conn)
        found = index.listing(query, 501)
    newest = MESSAGES - MESSAGES % PHRASE_EVERY
    assert found == list(range(newest, 0, -PHRASE_EVERY))[:501]


def test_a_window_of_a_phrase_visits_only_rows_inside_the_window(phrased: Any) -> None:
    """The planner thinks a phrase nearly never matches, so given the phrase it reads
    every match of its words and drops those outside the window one by one; asked for
    its rarest word, it combines the index with the window first."""
    query = parse_query('"alpha beta"')
    with phrased.connection() as conn:
        index = _index(phrased, conn)
        newest = index.size()
        low = newest - 3_000
        anchor = index.anchor(query)
        assert anchor is not None
        statement = index.window_sql(index.lexer.tsquery(query), low, None, 501, anchor)
        conn.execute("BEGIN")
        try:
            conn.execute("SET LOCAL enable_indexscan = off")
            plan = conn.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + statement).fetchone()[0]
        finally:
            conn.execute("ROLLBACK")
    heap = [n for n in _nodes(plan[0]["Plan"]) if n["Node Type"] == "Bitmap Heap Scan"]
    assert heap, plan
    words = sum(1 for i in range(low, newest + 1) if i % EVERY == 0)
    phrases = sum(1 for i in range(low, newest + 1) if i % PHRASE_EVERY == 0)
    # rows read: the words' matches inside the window, no more
    assert heap[0]["Actual Rows"] + heap[0].get("Rows Removed by Filter", 0) == words
    assert heap[0]["Actual Rows"] == phrases


@pytest.mark.parametrize("together", [10, 997], ids=["often-together", "rarely-together"])
def test_two_frequent_words_list_the_newest_messages_holding_both(
    pg_dsn: str, together: int
) -> None:
    """Both words are frequent; their shared messages are found from the two words'
    own listings first, then in older windows (often together) or as the planner
    chooses (rarely together): either way exactly the newest messages holding both."""
    vectors = (
        f"CASE WHEN n %% {together} = 0 THEN 'alpha:1 beta:3'::tsvector "
        "WHEN n %% 10 = 5 THEN 'alpha:1'::tsvector WHEN n %% 10 = 7 THEN 'beta:1'::tsvector "
        "ELSE 'gamma:1'::tsvector END"
    )
    schema = _schema(pg_dsn, vectors)
    db = next(schema)
    try:
        query = parse_query("alpha beta")
        with db.connection() as conn:
            index = _index(db, conn)
            for single in query.per_term():  # as the ranking does, each word first
                assert len(index.listing(single, 501)) == 501
            found = index.listing(query, 501)
    finally:
        next(schema, None)
    both = [n for n in range(MESSAGES, 0, -1) if n % together == 0]
    assert found == both[:501]


class _Counted:
    """A connection that counts the statements sent through it."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.sent = 0

    def execute(self, *args: Any, **kwargs: Any) -> Any:
        self.sent += 1
        return self.conn.execute(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


@pytest.mark.parametrize(
    "text", ["alpha beta", "alpha (beta OR gamma)", "alpha beta -delta", "alpha zzunheard"]
)
def test_rare_words_that_must_all_occur_are_listed_from_their_own_listings(
    pg_dsn: str, text: str
) -> None:
    """Every word of the query is rare (its listing holds all of its matches): the
    whole's matches are the ids the words' listings share, found without a statement,
    and they equal the server's answer for the whole."""
    vectors = (
        "CASE WHEN n %% 502 = 0 THEN 'alpha:1 beta:3 delta:5'::tsvector "
        "WHEN n %% 251 = 0 THEN 'alpha:1 beta:2'::tsvector "
        "WHEN n %% 257 = 0 THEN 'alpha:1 gamma:2'::tsvector "
        "WHEN n %% 263 = 0 THEN 'beta:1'::tsvector WHEN n %% 269 = 0 THEN 'alpha:4'::tsvector "
        "ELSE 'epsilon:1'::tsvector END"
    )
    schema = _schema(pg_dsn, vectors)
    db = next(schema)
    try:
        query = parse_query(text)
        with db.connection() as conn:
            index = _index(db, conn)
            for single in query.per_term():  # as the ranking does, each word first
                assert len(index.listing(single, 501)) < 501
            counted = _Counted(conn)
            index.conn = counted
            found = index.listing(query, 501)
            sent = counted.sent
            whole = [
                int(r[0])
                for r in conn.execute(
                    db.sql("SELECT id FROM {s}.messages WHERE tsv @@ %s::tsquery ORDER BY id DESC"),
                    (index.lexer.tsquery(query),),
                ).fetchall()
            ]
    finally:
        next(schema, None)
    assert sent == 0
    assert found == whole[:501]
    assert (found != []) == (text != "alpha zzunheard")


def test_kept_listings_serve_only_the_snapshot_they_were_read_under() -> None:
    kept = fulltext.KeptListings()
    word = parse_query("alpha")
    assert kept.begin("10:12:") == "10:12:"
    kept.put("10:12:", word, ([3, 2], [3, 2], None))
    assert kept.get("10:12:", word) == ([3, 2], [3, 2], None)
    kept.put("10:13:", word, ([9], [9], None))  # read under another: not kept
    assert kept.get("10:12:", word) == ([3, 2], [3, 2], None)
    kept.begin("10:13:")  # something completed: everything read before is dropped
    assert kept.get("10:13:", word) is None and kept.get("10:12:", word) is None
    for i in range(fulltext.KEPT_TERMS + 5):
        kept.put("10:13:", parse_query(f"w{i}"), ([i], None, None))
    assert kept.get("10:13:", parse_query("w0")) is None
    assert kept.get("10:13:", parse_query(f"w{fulltext.KEPT_TERMS + 4}")) is not None


def test_a_words_complete_windowed_listing_and_positions_are_reused_under_one_snapshot(
    filled: Any,
) -> None:
    """A word estimated far too frequent, so listed in windows, found complete, and
    its bm25 positions (read by ``scores``, not with the listing): a second index under
    the same snapshot sends no statement for either, and scores alike."""
    kept = fulltext.KeptListings()
    word = parse_query("alpha")
    with filled.connection() as conn:
        first = _index(filled, conn)
        first.density = lambda query: 0.5  # type: ignore[method-assign]
        first.keep(kept)
        listed = first.listing(word, MESSAGES // EVERY + 1)
        assert word not in first._found  # the positions were not read with the listing
        scores = first.scores(word)
        second = _index(filled, conn)
        second.keep(kept)
        counted = _Counted(conn)
        second.conn = counted
        assert second.listing(word, MESSAGES // EVERY + 1) == listed
        assert second.scores(word) == scores
    assert counted.sent == 0
    assert len(listed) == MESSAGES // EVERY
