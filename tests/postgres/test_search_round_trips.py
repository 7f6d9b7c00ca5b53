"""What a discovery query costs in database round trips, and the batched reads it uses.

A discovery result shows its session, a window around the matched message, bookends
and its lineage root. Those are read for all results at once (``roots``, then
``shown``: sessions, windows and bookends in one pipeline), so the number of round trips
a query makes no longer grows with the number of results. Round trips are counted on
the real PostgreSQL fixture through a wrapper of the store's connections: every
``execute`` outside a pipeline is one (psycopg sends a parameterised statement as one
Parse/Bind/Execute/Sync exchange, a multi-statement text as one simple query), and a
pipeline block is one (its statements go out before the one Sync). The batched reads
are checked against the one-session reads on both backends.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import NewMessage, SessionStore
from mnemic.sessions.search.shapes import SearchContext, browse, discover
from mnemic.sessions.store import SearchFilters

pytestmark = pytest.mark.postgres


class CountingConnection:
    """A psycopg connection that records every statement sent through it."""

    def __init__(self, conn: Any, log: list[str]) -> None:
        self._conn = conn
        self._log = log
        self._piped = 0

    def execute(self, query: Any, *args: Any, **kwargs: Any) -> Any:
        if self._piped:
            self._log[-1] += " + " + str(query)
        else:
            self._log.append(str(query))
        return self._conn.execute(query, *args, **kwargs)

    @contextlib.contextmanager
    def pipeline(self) -> Iterator[Any]:
        """Statements sent in pipeline mode share one round trip (one log entry)."""
        self._log.append("pipeline:")
        self._piped += 1
        try:
            with self._conn.pipeline() as pipe:
                yield pipe
        finally:
            self._piped -= 1

    def cursor(self, *args: Any, **kwargs: Any) -> Any:
        self._log.append("cursor")  # a cursor's statements would bypass execute above
        return self._conn.cursor(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


@pytest.fixture
def counted(pg_db: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, list[str]]]:
    """A PostgreSQL session store and the list its statements are logged into."""
    from mnemic.backends.postgres.sessions import PostgresSessionStore

    log: list[str] = []
    original = pg_db.connection

    @contextlib.contextmanager
    def connection(*args: Any, **kwargs: Any) -> Iterator[Any]:
        with original(*args, **kwargs) as conn:
            yield CountingConnection(conn, log)

    monkeypatch.setattr(pg_db, "connection", connection)
    store = PostgresSessionStore(pg_db)
    yield store, log
    store.close()


def _fill(store: SessionStore, sessions: int) -> None:
    """``sessions`` sessions of 12 messages, each mentioning "zephyrine" once; every
    third one continues the one before (a lineage), so roots matter."""
    previous = None
    for i in range(sessions):
        parent = previous if i % 3 == 2 else None
        sid = store.start_session(id=f"s{i:02d}", parent_id=parent, title=f"talk {i}")
        msgs = [NewMessage("user" if k % 2 == 0 else "assistant", f"line {k} of talk {i}")
                for k in range(12)]  # fmt: skip
        msgs[5] = NewMessage("user", f"the zephyrine question number {i}")
        store.append_messages(sid, msgs)
        previous = sid


def _statements(store: Any, log: list[str], limit: int) -> tuple[int, dict[str, Any]]:
    ctx = SearchContext(store)
    discover(ctx, "zephyrine", limit=1)  # warm: lexeme statistics, bm25 totals
    log.clear()
    out = discover(ctx, "zephyrine", limit=limit)
    return len(log), out


def test_a_discovery_query_makes_the_same_few_round_trips_for_one_result_or_ten(
    counted: tuple[Any, list[str]],
) -> None:
    store, log = counted
    _fill(store, 24)
    one, out_one = _statements(store, log, 1)
    ten, out_ten = _statements(store, log, 10)
    assert out_one["count"] == 1 and out_ten["count"] == 10
    assert all(r["messages"] and r["first_messages"] and r["last_messages"]
               for r in out_ten["results"])  # fmt: skip
    # the search itself (a rare word: its matches with their lexeme positions, then the
    # hit rows), the texts of the best direct matches (fresh facts first reads them to
    # find a later statement of the subject: docs/recall.md), the title lookup, the
    # roots, then one pipeline of sessions, windows and bookends: 6 (bm25's totals and
    # the store's size are fresh from the warm-up), +1 since a question that names one
    # speaker prefers that speaker's words (the speakers of the best candidates, one
    # read: docs/recall.md); the code before the batched reads took 11 for one result
    # and 77 for ten
    assert ten == one
    assert ten <= 7, log


def test_browse_reads_roots_and_previews_once_for_all_sessions(
    counted: tuple[Any, list[str]],
) -> None:
    store, log = counted
    _fill(store, 12)
    log.clear()
    out = browse(SearchContext(store), limit=6)
    assert out["count"] == 6
    assert all(r["preview"].startswith("line 0 of talk") for r in out["results"])
    assert len(log) <= 3, log  # sessions, roots, previews


def test_a_hybrid_discovery_reads_its_semantic_hits_in_two_statements(
    counted: tuple[Any, list[str]],
) -> None:
    pytest.importorskip("numpy")
    from mnemic.embedding.standin import StandinEmbedder
    from mnemic.sessions.search.embed import backfill

    store, log = counted
    _fill(store, 24)
    embedder = StandinEmbedder()
    backfill(store, embedder)
    ctx = SearchContext(store, embedder_loader=lambda: embedder)
    discover(ctx, "zephyrine question", limit=1, mode="hybrid")  # warm: state, totals
    counts = []
    for limit in (1, 10):
        log.clear()
        out = discover(ctx, "zephyrine question", limit=limit, mode="hybrid")
        assert out["retrieval"] == "hybrid" and out["count"] == limit
        counts.append(len(log))
    # the lexical part (four here), the vector search (four: the vector cache's
    # freshness, vectors, source filter, model check), fifty semantic candidates in two
    # reads (their messages, their sessions), the texts of the best direct matches
    # (fresh facts first), the speakers of the best candidates (the named speaker), then
    # title, roots and the result pipeline: 15; +1 since the lexical side weighs by the
    # share of the question's words the index holds at all (every word's probe in one
    # statement: docs/recall.md, recall 12). The code before read each candidate's
    # message and session on its own.
    assert counts[0] == counts[1] <= 16, log
    # a question in another language (German here) also reads the index's forms of its
    # words: one statement for the search's words, one for the held share's (recall 13;
    # the store holds no other form of them, so nothing else changes)
    german = []
    for inflect in (False, True):
        with pytest.MonkeyPatch.context() as patch:
            if not inflect:
                patch.setattr(type(store), "_inflected", lambda _store, queries: queries)
            discover(ctx, "Wo ist die zephyrine Frage?", limit=1, mode="hybrid")
            log.clear()
            discover(ctx, "Wo ist die zephyrine Frage?", limit=10, mode="hybrid")
            german.append(len(log))
    assert german[1] == german[0] + 2, log
    assert sum("unnest(m.tsv)" in statement for statement in log) == 2, log


# -- the batched reads give what the one-session reads give, on both backends -------------


@pytest.fixture(params=["sqlite", "postgres"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SessionStore]:
    if request.param == "sqlite":
        store: SessionStore = SQLiteSessionStore(tmp_path / "sessions.db")
    else:
        from mnemic.backends.postgres.sessions import PostgresSessionStore

        store = PostgresSessionStore(request.getfixturevalue("pg_db"))
    yield store
    store.close()


def test_batched_reads_equal_the_one_session_reads(any_store: SessionStore) -> None:
    store = any_store
    rng = random.Random(7)
    roles = ["user", "assistant", "tool", "system"]
    ids = []
    for i in range(8):
        parent = ids[rng.randrange(len(ids))] if ids and rng.random() < 0.5 else None
        sid = store.start_session(id=f"b{i}", parent_id=parent)
        n = rng.randrange(0, 30)
        store.append_messages(
            sid,
            [NewMessage(rng.choice(roles), rng.choice(["", f"text {k} gone" if k % 7 == 0
                        else f"text {k}"])) for k in range(n)],
        )  # fmt: skip
        ids.append(sid)
    store.forget("gone")  # gaps in seq
    spans = [(sid, rng.randrange(0, 25), rng.randrange(0, 35)) for sid in ids for _ in range(4)]
    spans += [("missing", 0, 10)]
    wins = store.windows(spans)
    ends = store.bookends(spans, count=2)
    for (sid, lo, hi), got, (first, last) in zip(spans, wins, ends, strict=True):
        if sid == "missing":
            assert got == [] and first == [] and last == []
            continue
        assert got == store.messages(sid, start=lo, stop=hi)
        assert first == store.edge_messages(sid, before_seq=lo, count=2)
        assert last == store.edge_messages(sid, after_seq=hi - 1, count=2)
    assert store.get_sessions([*ids, "missing"]) == {i: store.get_session(i) for i in ids}
    every = [m for sid in ids for m in store.messages(sid)]
    assert store.messages_by_id([m.id for m in every] + [10**9]) == {m.id: m for m in every}
    together = store.shown(spans, count=2)
    assert together.windows == wins and together.bookends == ends
    assert together.sessions == {i: store.get_session(i) for i in ids}
    assert store.roots([*reversed(ids), "missing"]) == {
        **{i: store.roots([i])[i] for i in ids},
        "missing": "missing",
    }


def test_roots_survive_a_cycle_of_parent_links(any_store: SessionStore, tmp_path: Path) -> None:
    store = any_store
    store.start_session(id="a")
    store.start_session(id="b", parent_id="a")
    store.start_session(id="c", parent_id="b")
    # a cycle can only come from outside (a hand edit): a's parent becomes c
    if isinstance(store, SQLiteSessionStore):
        import sqlite3

        with contextlib.closing(sqlite3.connect(tmp_path / "sessions.db")) as conn, conn:
            conn.execute("UPDATE sessions SET parent_id = 'c' WHERE id = 'a'")
    else:
        with store.db.connection() as conn:
            conn.execute(store.db.sql("UPDATE {s}.sessions SET parent_id = 'c' WHERE id = 'a'"))
    roots = store.roots(["c", "b", "a"])
    assert len(set(roots.values())) == 1 and roots["c"] in {"a", "b", "c"}
    assert sorted(store.lineage("b")) == ["a", "b", "c"]


def test_holds_tells_which_words_the_index_holds_on_both_backends(
    any_store: SessionStore,
) -> None:
    """``holds`` (recall 12): whether any message matches each query, whatever its
    session, as the lexical search would match it (stemmed, CJK bigrams, prefixes)."""
    from mnemic.sessions.index.query import parse_query

    store = any_store
    store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
    store.append_messages("a", [NewMessage("user", "We adopted two puppies 在北京 today")])
    store.start_session(id="b", started_at=1_750_000_100.0, source="cli")
    store.append_messages("b", [NewMessage("user", "The llama ate hay")])
    asked = ["puppies", "puppy", "llama", "perro", "北京", "上海", "adop*", "hay llama", ""]
    assert store.holds([parse_query(q) for q in asked]) == [
        True, True, True, False, True, False, True, True, False
    ]  # fmt: skip
    assert store.holds([]) == []


def test_a_questions_other_inflections_are_found_alike_on_both_backends(
    any_store: SessionStore,
) -> None:
    """Recall 13: a question in another language than English also matches the forms of
    its words the index holds in that language (the index's vocabulary: ``fts5vocab`` on
    SQLite, the matching vectors' lexemes on PostgreSQL), on both backends alike."""
    from mnemic.sessions.index.query import Query, Term, parse_query

    store = any_store
    store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
    store.append_messages(
        "a",
        [
            NewMessage("user", "Marco arbeitet bei Acme Robotics als Data Engineer."),
            NewMessage("user", "Ana toma café con leche cada mañana."),
            NewMessage("user", "The market sells tomatoes and working boots."),
        ],
    )
    assert store._vocabulary(["arbeit", "tom", "zzz"]) == {
        "arbeit": [("arbeitet", 1)],
        "tom": [("toma", 1), ("tomato", 1)],
        "zzz": [],
    }
    for question, seqs in (("Wo hat er früher gearbeitet?", [0]), ("¿Qué tomaba él?", [1])):
        hits = store.search(parse_query(question, match="any"), SearchFilters(), limit=10)
        assert [h.seq for h in hits] == seqs, question
    word = Term("gearbeitet", ("gearbeitet",))
    assert store.holds(
        [Query("gearbeitet", ((word,),), languages=("german",)), Query("gearbeitet", ((word,),))]
    ) == [True, False]


def test_the_speakers_of_many_positions_are_one_statement_equal_to_the_shared_reading(
    counted: tuple[Any, list[str]],
) -> None:
    """A discovery query asks whose words its best 100 candidates are: one statement
    joining the positions as arrays (a UNION of one SELECT a position took the server
    longer to plan than to run), with the shared reading's answer: repeats, unknown
    sessions and positions past a session's end included."""
    from mnemic.sessions.sql.reads import speakers_at

    store, log = counted
    _fill(store, 12)
    rng = random.Random(7)
    positions = [(f"s{rng.randrange(14):02d}", rng.randrange(14)) for _ in range(150)]
    log.clear()
    got = store.speakers_at(positions)
    assert len(log) == 1 and "UNION" not in log[0], log
    assert got == speakers_at(store, positions)
    assert store.roles_at(positions) == [s[0] if s else None for s in got]
    assert None in got and len({s for s in got if s}) > 1


def test_the_any_word_fallback_reuses_the_words_listings_until_something_commits(
    counted: tuple[Any, list[str]],
) -> None:
    """No message holds both words: discovery asks for any of them next, the same
    words' listings, kept from the all-words search while PostgreSQL's snapshot is
    unchanged. A commit in between (here a message holding both) is seen."""
    store, log = counted
    _fill(store, 6)
    ctx = SearchContext(store)
    discover(ctx, "zephyrine line", limit=3)  # warm: lexeme statistics, bm25 totals
    store.append_messages("s00", [NewMessage("user", "a committed write")])
    log.clear()
    out = discover(ctx, "zephyrine line", limit=3)
    assert out["count"] == 3
    listings = [s for s in log if "@@" in s]
    # each word listed once (the all-words search), none for the whole (the words'
    # listings were complete) nor for the any-word fallback: before, each word twice
    # and the whole once
    assert len(listings) == 2, listings
    assert sum("pg_current_snapshot" in s for s in log) == 2

    store.append_messages("s01", [NewMessage("user", "zephyrine on the line again")])
    again = discover(ctx, "zephyrine line", limit=3)
    assert again["results"][0]["session_id"] == "s01"
    assert any("again" in m["content"] for r in again["results"][:1] for m in r["messages"])
