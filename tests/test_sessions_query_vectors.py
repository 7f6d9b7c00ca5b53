"""A question asked again in the same process is not embedded again: the query vectors
are remembered by model and text (bounded, least recently used first out), served only
to the embedder that made them, and the rankings stay exactly those of a fresh
embedding. Real SQLite stores; the embedder is the deterministic stand-in (the shipped
model is too slow for a unit test; what it embeds does not matter here)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")

import numpy as np

import mnemic.sessions.search.query_vectors as query_vectors
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.embedding.standin import StandinEmbedder
from mnemic.sessions import NewMessage, NewSession, search_messages
from mnemic.sessions.search.embed import backfill
from mnemic.sessions.search.retrieval import QUERY_CHARS, semantic_state

T0 = 1_750_000_000.0
TALK = [
    ("user", "Which tram goes up to the castle in Lisbon?"),
    ("assistant", "Number 28 from Martim Moniz climbs there."),
    ("user", "And where can I find good custard tarts?"),
    ("assistant", "Pasteis de Belem, near the monastery."),
    ("user", "My sister flies in from Porto on Friday."),
]


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    remembered = query_vectors._vectors
    remembered.clear()
    yield
    remembered.clear()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteSessionStore]:
    s = SQLiteSessionStore(tmp_path / "sessions.db", durable=False)
    msgs = [NewMessage(r, t, timestamp=T0 + 60 * i) for i, (r, t) in enumerate(TALK)]
    for _ in s.import_sessions([(NewSession("trip", "import", "Lisbon", started_at=T0), msgs)],
                               workers=0):  # fmt: skip
        pass
    backfill(s, StandinEmbedder())
    yield s
    s.close()


def ranked(store: SQLiteSessionStore, embedder: Any, text: str) -> list[tuple[int, float]]:
    state = semantic_state(store, lambda: embedder, max_age=0)
    got = search_messages(store, text, mode="hybrid", limit=10, floor=False, state=state)
    assert got.mode == "hybrid"
    return [(r.message_id, r.score) for r in got.results]


class Counting(StandinEmbedder):
    """The stand-in, recording each text it is asked to embed as a query."""

    def __init__(self, model_id: str = "standin-hash-1") -> None:
        super().__init__(model_id=model_id)
        self.asked: list[str] = []

    def embed_queries(self, texts: Sequence[str]) -> Any:
        self.asked += list(texts)
        return super().embed_queries(texts)


def test_a_question_asked_again_is_not_embedded_again_and_ranks_the_same(
    store: SQLiteSessionStore,
) -> None:
    e = Counting()
    first = ranked(store, e, "tram to the castle")
    again = ranked(store, e, "tram to the castle")
    assert e.asked == ["tram to the castle"]
    assert again == first
    fresh = Counting()  # a new embedder object embeds afresh: the same ranking
    assert ranked(store, fresh, "tram to the castle") == first
    assert fresh.asked == ["tram to the castle"]


def test_the_remembered_vector_is_the_embedders_own_and_cannot_be_changed(
    store: SQLiteSessionStore,
) -> None:
    e = Counting()
    ranked(store, e, "custard tarts")
    (key, (_, vec)), *_ = query_vectors._vectors.items()
    assert key == (e.model_id, "custard tarts")
    assert np.array_equal(vec, StandinEmbedder().embed_queries(["custard tarts"])[0])
    with pytest.raises(ValueError, match="read-only"):
        vec[0] = 1.0


def test_vectors_are_kept_per_model_and_never_lent_to_another_embedder(
    store: SQLiteSessionStore,
) -> None:
    one, other = Counting("standin-hash-1"), Counting("standin-hash-1")
    ranked(store, one, "sister from Porto")
    ranked(store, other, "sister from Porto")  # the same model id, another object
    assert one.asked == other.asked == ["sister from Porto"]
    renamed = Counting("standin-hash-2")
    backfill(store, renamed)
    ranked(store, renamed, "sister from Porto")
    assert renamed.asked == ["sister from Porto"]
    assert ("standin-hash-2", "sister from Porto") in query_vectors._vectors


def test_the_cache_is_bounded_and_drops_the_least_recently_asked_first(
    store: SQLiteSessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(query_vectors, "QUERY_CACHE", 2)
    e = Counting()
    for text in ("castle", "tarts", "castle", "Porto"):  # "castle" asked again: kept
        ranked(store, e, text)
    assert len(query_vectors._vectors) == 2
    ranked(store, e, "castle")
    ranked(store, e, "tarts")  # dropped when "Porto" came: embedded again
    assert e.asked == ["castle", "tarts", "Porto", "tarts"]


def test_a_long_query_is_remembered_by_the_text_that_was_embedded(
    store: SQLiteSessionStore,
) -> None:
    e = Counting()
    head = "tram castle " * (QUERY_CHARS // 12 + 1)
    ranked(store, e, head + "first tail")
    ranked(store, e, head + "another tail")  # the same embedded text, a new lexical query
    assert e.asked == [head[:QUERY_CHARS]]


def test_switched_off_every_question_is_embedded(
    store: SQLiteSessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(query_vectors, "QUERY_CACHE", 0)
    e = Counting()
    ranked(store, e, "castle")
    ranked(store, e, "castle")
    assert e.asked == ["castle", "castle"] and not query_vectors._vectors


def test_the_vector_search_runs_while_the_lexical_search_does(
    store: SQLiteSessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert store.vectors is not None
    vector_started = threading.Event()
    overlapped: list[bool] = []
    search_vectors, search_words = store.vectors.search, store.search

    def vectors(*a: Any, **k: Any) -> Any:
        vector_started.set()
        return search_vectors(*a, **k)

    def words(*a: Any, **k: Any) -> Any:  # the guard only bounds a failure's wait
        overlapped.append(vector_started.wait(timeout=10))
        return search_words(*a, **k)

    monkeypatch.setattr(store.vectors, "search", vectors)
    monkeypatch.setattr(store, "search", words)
    e = Counting()
    ranked(store, e, "tram to the castle")
    assert overlapped == [True]
    again = ranked(store, e, "tram to the castle")  # a remembered vector: the same
    assert overlapped == [True, True] and e.asked == ["tram to the castle"]
    monkeypatch.undo()
    assert ranked(store, e, "tram to the castle") == again


def test_a_failing_lexical_search_returns_only_after_the_vector_search_is_done(
    store: SQLiteSessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert store.vectors is not None
    failed = threading.Event()
    done: list[str] = []
    search_vectors = store.vectors.search

    def vectors(*a: Any, **k: Any) -> Any:
        failed.wait(timeout=10)  # still searching when the lexical search fails
        found = search_vectors(*a, **k)
        done.append("vectors")
        return found

    def words(*a: Any, **k: Any) -> Any:
        failed.set()
        raise RuntimeError("full-text index unreadable")

    monkeypatch.setattr(store.vectors, "search", vectors)
    monkeypatch.setattr(store, "search", words)
    with pytest.raises(RuntimeError, match="unreadable"):
        ranked(store, Counting(), "tram to the castle")
    assert done == ["vectors"]  # no read of the store left running behind the caller
