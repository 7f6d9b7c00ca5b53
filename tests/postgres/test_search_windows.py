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


@pytest.fixture
def filled(pg_dsn: str) -> Iterator[Any]:
    """A migrated schema whose messages carry hand-made vectors: ``alpha`` in every
    10th message, ``beta`` in the others, and analyzed statistics."""
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
            "SELECT (SELECT sid FROM {s}.sessions), n, n, 'user', 'x', 1, "
            "CASE WHEN n %% %s = 0 THEN 'alpha:1'::tsvector ELSE 'beta:1'::tsvector END "
            "FROM generate_series(1, %s) n"
        ), (EVERY, MESSAGES))  # fmt: skip
        conn.execute(db.sql("VACUUM ANALYZE {s}.messages"))
    yield db
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


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
