"""bench/_passages.py, the variants ``./x bench recall --passages SPEC`` measures against
the shipped passage recipe: the spec's knobs, the texts each variant embeds, and that
installing a variant changes what the product's own backfill and search do."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import mnemic.sessions.search.embed as embed_module
import mnemic.sessions.sql.vector_cache as cache_module
from _passages import embedded_texts, install, parse, texts_of
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.embedding.standin import StandinEmbedder
from mnemic.sessions import NewMessage, NewSession
from mnemic.sessions.search.embed import backfill
from mnemic.sessions.sql.vectors import PendingText

LONG = " ".join(f"Sentence number {n} says something." for n in range(12))  # 430 chars


def pending(text: str) -> PendingText:
    return PendingText(1, "assistant", text, None, None, "Ada")


@pytest.fixture(autouse=True)
def _product_restored(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """install() patches the product's modules: put them back after each test."""
    monkeypatch.setattr(embed_module, "passages_of", embed_module.passages_of)
    monkeypatch.setattr(cache_module, "RESCORED", cache_module.RESCORED)
    monkeypatch.setattr(embed_module, "embed_pending", embed_module.embed_pending)
    yield


def test_a_spec_is_read_into_knobs_and_a_bad_one_is_refused() -> None:
    assert parse("off") is None
    assert parse("") == {}
    assert parse("size=300,pieces=3,from=400,rescored=all") == {
        "size": 300, "pieces": 3, "from": 400, "rescored": 10**9}  # fmt: skip
    for bad in ("size=0", "width=3", "pieces=x"):
        with pytest.raises(ValueError):
            parse(bad)


def test_each_variant_embeds_the_texts_it_names() -> None:
    assert len(texts_of(pending(LONG), None)) == 1  # off: the whole passage only
    shipped = texts_of(pending(LONG), {})
    assert len(shipped) == 4 and shipped[0].startswith("Ada: Sentence number 0")
    assert len(texts_of(pending(LONG), {"from": 500})) == 1  # too short for pieces
    assert len(texts_of(pending(LONG), {"pieces": 2})) == 3  # longer pieces, not fewer
    assert texts_of(pending(LONG), {"pieces": 2})[-1].endswith("number 11 says something.")


def test_an_installed_variant_is_what_the_backfill_stores(tmp_path: Path) -> None:
    counts = install("rescored=7")
    assert cache_module.RESCORED == 7
    store = SQLiteSessionStore(tmp_path / "s.db", durable=False)
    try:
        msgs = [NewMessage("user", "short"), NewMessage("assistant", LONG)]
        for _ in store.import_sessions([(NewSession("s1", "cli"), msgs)], workers=0):
            pass
        backfill(store, StandinEmbedder())
        assert (counts.messages, counts.passages) == (2, 1 + 4)
        install("off")
        assert embed_module.passages_of(pending(LONG)) == [embed_module.passage_of(pending(LONG))]
    finally:
        store.close()


def test_the_mean_variant_embeds_the_pieces_only_and_stores_their_mean_first(
    tmp_path: Path,
) -> None:
    import numpy as np

    texts = texts_of(pending(LONG), {})
    assert embedded_texts(texts, {"mean": 1}) == texts[1:]
    assert embedded_texts(texts[:1], {"mean": 1}) == texts[:1]
    install("mean=1")
    e = StandinEmbedder()
    store = SQLiteSessionStore(tmp_path / "s.db", durable=False)
    try:
        msgs = [NewMessage("user", "short"), NewMessage("assistant", LONG)]
        for _ in store.import_sessions([(NewSession("s1", "cli"), msgs)], workers=0):
            pass
        backfill(store, e)
        (blob,) = [bytes(r[0]) for r in store._read(
            "SELECT vec FROM {s}.message_vectors WHERE length(vec) > 768")]  # fmt: skip
        got = np.frombuffer(blob, "<f2").astype(np.float32).reshape(-1, 384)
        stored = texts_of(PendingText(0, "assistant", LONG, None, "short"), {})
        pieces = e.embed_passages(stored[1:])
        mean = pieces.mean(axis=0)
        assert np.allclose(got[0], mean / np.linalg.norm(mean), atol=2e-3)
        assert np.allclose(got[1:], pieces, atol=2e-3)
    finally:
        store.close()
