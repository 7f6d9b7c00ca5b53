"""The session-history and session-search behaviour suites on SQLite and PostgreSQL.

``test_sessions_search`` runs whole (its ``store`` fixture is overridden here to build
the same corpus in each backend); the backend-neutral tests of ``test_sessions_store``
run as they are, and the few that reach into SQLite are restated. The last test checks
that both backends rank a mixed corpus identically, score for score.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import test_sessions_search as search_suite
import test_sessions_store as store_suite
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.errors import SessionNotFound
from mnemic.sessions import NewMessage, SearchFilters, SessionStore
from mnemic.sessions.index.query import parse_query
from test_sessions_search import *  # noqa: F403  (the whole search suite, re-run here)

pytestmark = pytest.mark.postgres


def _open(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> SessionStore:
    if kind == "sqlite":
        return SQLiteSessionStore(tmp_path / "sessions.db")
    from mnemic.backends.postgres.sessions import PostgresSessionStore

    return PostgresSessionStore(request.getfixturevalue("pg_db"))


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def empty_store(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[SessionStore]:
    s = _open(backend, request, tmp_path)
    yield s
    s.close()


@pytest.fixture
def store(empty_store: SessionStore) -> SessionStore:
    """The search suite's corpus, in each backend."""
    search_suite.fill(empty_store)
    return empty_store


def find(store: SessionStore, text: str, **filters: object) -> list[tuple[str, int]]:
    hits = store.search(parse_query(text), SearchFilters(**filters), limit=10_000)  # type: ignore[arg-type]
    return sorted((h.session_id, h.seq) for h in hits)


# -- test_sessions_store: recording and reading, neutral parts --------------------------------


def _neutral(name: str) -> Any:
    fn = getattr(store_suite, name)

    def run(empty_store: SessionStore) -> None:
        fn(empty_store)

    run.__name__ = name
    run.__doc__ = fn.__doc__
    return run


for _name in (
    "test_recording_api",
    "test_ids_are_generated_unique_and_checked",
    "test_update_session_merges_metadata",
    "test_index_covers_content_tool_names_and_arguments",
    "test_prune_by_last_activity",
    "test_list_sessions_orders_and_filters",
    "test_edge_messages",
    "test_find_title",
    "test_import_sessions_bulk_and_idempotent",
    "test_import_with_worker_process",
    "test_import_merge_adds_only_the_messages_a_session_lacks",
    "test_import_merge_recognises_messages_stored_without_a_key",
    "test_import_replace_swaps_whole_sessions_and_merges_later_parts",
    "test_append_after_a_gap_in_seq",
    "test_import_gives_message_ids_in_the_order_of_the_items",
):
    globals()["test_store_" + _name[len("test_") :]] = _neutral(_name)


def test_store_lineage_and_roots(empty_store: SessionStore) -> None:
    store_suite.assert_lineage_and_roots(empty_store)


def test_store_stats(empty_store: SessionStore) -> None:
    assert store_suite.recorded_stats(empty_store).schema_version >= 1


def test_store_delete_removes_messages_from_search(empty_store: SessionStore) -> None:
    a = empty_store.start_session(id="a")
    b = empty_store.start_session(id="b")
    for i in range(40):
        empty_store.append_message(a, NewMessage("user", f"alpha {i}"))
    empty_store.append_message(b, NewMessage("user", "alpha again"))
    assert len(find(empty_store, "alpha")) == 41
    assert empty_store.delete_session("a") == 40
    assert find(empty_store, "alpha") == [("b", 0)]
    with pytest.raises(SessionNotFound):
        empty_store.delete_session("a")


def test_pg_two_stores_see_each_other(pg_db: Any) -> None:
    from mnemic.backends.postgres.sessions import PostgresSessionStore

    a, b = PostgresSessionStore(pg_db), PostgresSessionStore(pg_db)
    sid = a.start_session(id="shared")
    b.append_message(sid, NewMessage("user", "written by b"))
    assert find(a, "written") == [("shared", 0)]
    b.delete_session("shared")
    with pytest.raises(SessionNotFound):
        a.append_message("shared", NewMessage("user", "x"))
    a.start_session(id="shared")
    a.append_message("shared", NewMessage("user", "again"))
    assert b.get_session("shared").message_count == 1


def test_pg_segmenter_change_triggers_reindex(pg_db: Any) -> None:
    from mnemic.backends.postgres.sessions import PostgresSessionStore

    s = PostgresSessionStore(pg_db)
    s.append_message(s.start_session(id="s"), NewMessage("user", "会话历史 stays findable"))
    with pg_db.connection() as conn:
        conn.execute(pg_db.sql("UPDATE {s}.meta SET value = 'old/0' WHERE key = 'segmenter'"))
        conn.execute(pg_db.sql("UPDATE {s}.messages SET tsv = ''::tsvector, ntok = 0"))
    assert find(s, "会话") == []
    again = PostgresSessionStore(pg_db)  # notices the change and rebuilds the vectors
    assert find(again, "会话") == [("s", 0)]


# -- both backends rank alike ----------------------------------------------------------------

WORDS = [
    "deploy",
    "deploying",
    "deployed",
    "billing",
    "service",
    "staging",
    "restart",
    "postgres",
    "connection",
    "refused",
    "port",
    "widgets",
    "running",
    "quickly",
    "memory",
    "session",
    "history",
    "report",
    "grafana",
    "kubernetes",
    "ingress",
    "记忆",
    "文件",
    "会话",
    "历史",
    "设计",
    "超时",
    "ops-team@example.com",
    "v2.3.1",
    "v2.3.10",
    "https://grafana.example.com/d/billing",
    "Déploy",
    "café",
    "naïve",
]

QUERIES = [
    "deploy", "billing deploy", "会话", "记忆文件", "忆", "ops-team@example.com", "v2.3.1",
    "grafana.example.com", "deploy* staging", "deploy OR kubernetes", "postgres -billing",
    '"billing service"', "cafe", "naive deploy", "what about the billing deploy?",
    "历史 OR 超时", "xylophone",
]  # fmt: skip


def test_both_backends_rank_alike(tmp_path: Path, pg_db: Any) -> None:
    """Same corpus, same ids: the same hits in the same order with the same scores,
    including terms common enough to take the capped path and narrow filters that take
    the uncapped one."""
    from mnemic.backends.postgres.sessions import PostgresSessionStore

    rng = random.Random(7)
    sq = SQLiteSessionStore(tmp_path / "s.db")
    pg = PostgresSessionStore(pg_db)
    for s in range(130):
        source = rng.choice(["cli", "cron", "telegram"])
        msgs = [
            NewMessage(
                rng.choice(["user", "assistant", "tool"]),
                " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 30))),
                timestamp=1000.0 + s + i,
            )
            for i in range(rng.randint(1, 25))
        ]
        for st in (sq, pg):
            st.start_session(id=f"s{s}", started_at=1000.0 + s, source=source)
            st.append_messages(f"s{s}", msgs)
    assert sq.stats().messages == pg.stats().messages > 1000
    filters = [
        SearchFilters(),
        SearchFilters(roles=("user", "assistant")),
        SearchFilters(sources=("cron",), roles=("tool",)),
    ]
    for text in QUERIES:
        for match in ("all", "any"):
            query = parse_query(text, match=match)
            for f in filters:
                a = [(h.session_id, h.seq, round(h.score, 6)) for h in sq.search(query, f)]
                b = [(h.session_id, h.seq, round(h.score, 6)) for h in pg.search(query, f)]
                assert a == b, (text, match, f)
    sq.close()


@pytest.mark.parametrize(
    ("density", "walk"), [(0.5, True), (0.05, True), (0.1, False), (0.02, False), (0.0, True)]
)
def test_pg_listing_strategies_find_the_most_recent_matches(
    pg_db: Any, monkeypatch: pytest.MonkeyPatch, density: float, walk: bool
) -> None:
    """Whatever the statistics say (dense: walk the primary key; frequent: growing windows
    of recent ids; rare: every match at once), the listing is the most recent matches."""
    from mnemic.backends.postgres import fulltext
    from mnemic.backends.postgres.sessions import PostgresSessionStore

    rng = random.Random(3)
    pg = PostgresSessionStore(pg_db)
    for s in range(40):
        pg.start_session(id=f"s{s}")
        pg.append_messages(
            f"s{s}",
            [NewMessage("user", " ".join(rng.choice(WORDS) for _ in range(8))) for _ in range(60)],
        )
    monkeypatch.setattr(
        fulltext.LexemeStats, "common", lambda self: ({}, density)
    )  # every lexeme "has" this density
    monkeypatch.setattr(fulltext, "walk_pays", lambda *a: walk)  # walk the primary key?
    for text in ("deploy", "billing", "会话", "记忆文件", "v2.3.1", "deploy billing"):
        query = parse_query(text)
        with pg_db.connection() as conn:
            index = fulltext.PgIndex(conn, pg_db, pg._lexer, pg.weights, pg._stats)
            index.prepare()
            for cap in (5, 50, 400):
                got = index.listing(query, cap)
                want = [
                    int(r[0])
                    for r in conn.execute(
                        pg_db.sql(
                            "SELECT id FROM {s}.messages WHERE tsv @@ %s::tsquery "
                            "ORDER BY id DESC LIMIT %s"
                        ),
                        (pg._lexer.tsquery(query), cap),
                    )
                ]
                assert got == want, (text, cap, density)
