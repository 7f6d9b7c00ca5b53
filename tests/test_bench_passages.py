"""bench/_passages.py, the passage-vector experiment of ``./x bench recall --passages``:
how a long message is cut into passages, and that its best passage stands for it in a
real SQLite store searched by the product's vector search (stand-in embedder)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")

from _passages import install, pieces, use_passages
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.embedding.standin import StandinEmbedder
from mnemic.sessions import NewMessage, NewSession, SearchFilters
from mnemic.sessions.search import embed as embed_module
from mnemic.sessions.search.embed import backfill


def test_a_long_text_is_cut_after_whole_sentences_within_the_size() -> None:
    text = " ".join(f"Sentence number {n} says something." for n in range(40))
    got = pieces(text, 200)
    assert len(got) > 1
    assert all(len(p) <= 200 for p in got)
    assert all(p.endswith(".") for p in got)
    assert got[1].startswith(got[0].rsplit(". ", 1)[-1])  # the overlap: the last sentence


def test_a_short_text_is_one_piece_and_pieces_are_bounded_in_number() -> None:
    assert pieces("One short sentence.", 200) == ["One short sentence."]
    assert len(pieces("word " * 5000, 100, limit=3)) == 3


def test_a_sentence_longer_than_the_size_is_cut_at_a_space() -> None:
    got = pieces("alpha " * 100, 50)
    assert all(len(p) <= 50 for p in got)
    assert all(set(p.split()) == {"alpha"} for p in got)


def test_a_fact_deep_in_a_long_message_is_found_by_its_passage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embed_module, "embed_pending", embed_module.embed_pending)
    filler = " ".join(f"Water seedling row {n} early when soil feels dry." for n in range(10))
    long_reply = f"{filler} The spare key hides under the blue flowerpot."
    store = SQLiteSessionStore(tmp_path / "s.db", durable=False)
    try:
        msgs = [NewMessage("user", "where is my spare key"),
                NewMessage("user", "where should I plant tomatoes"),
                NewMessage("assistant", long_reply)]  # fmt: skip
        for _ in store.import_sessions([(NewSession("s1", "cli"), msgs)], workers=0):
            pass
        emb = StandinEmbedder()
        install(150, whole=False)
        use_passages(store, emb.model_id, emb.dim)
        backfill(store, emb)
        vectors = store.vectors
        assert vectors is not None
        query = emb.embed_queries(["spare key hides under the blue flowerpot"])[0]
        hits = vectors.search(query, emb.model_id, SearchFilters(), 3)
        reply_id = store.messages("s1")[2].id
        assert hits[0][0] == reply_id  # its whole-message vector ranks below the short one
        assert len({mid for mid, _ in hits}) == len(hits) == 3  # one row per message
        assert vectors.status(emb.model_id).embedded == 3
    finally:
        store.close()
