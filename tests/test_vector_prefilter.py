"""The sign-code prefilter that replaces exact vector search past ``EXACT_MAX`` vectors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.embedding.standin import StandinEmbedder
from mnemic.sessions.search.embed import backfill
from mnemic.sessions.store import NewMessage, SearchFilters

np = pytest.importorskip("numpy")

from mnemic.embedding.topk import code_columns, prefiltered_topk, sign_codes, topk  # noqa: E402
from mnemic.sessions.sql.vector_cache import VectorCache  # noqa: E402


def unit_rows(rng: object, n: int, dim: int, offset: float = 0.0) -> object:
    gen = np.random.default_rng(rng)
    m = gen.standard_normal((n, dim)).astype(np.float32) + np.float32(offset)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 120),
    dim=st.sampled_from([8, 24, 64]),
    k=st.integers(1, 30),
    keep=st.floats(0.0, 1.0),
)
def test_the_prefilter_is_exact_when_its_candidates_cover_the_kept_rows(
    seed: int, n: int, dim: int, k: int, keep: float
) -> None:
    m = unit_rows(seed, n, dim)
    q = unit_rows(seed + 1, 1, dim)[0]
    mask = np.random.default_rng(seed + 2).random(n) < keep
    center = m.mean(axis=0)
    codes = sign_codes(m, center)
    exact = topk(m, q, k, mask=mask)
    approx = prefiltered_topk(m, codes, center, q, k, candidates=n, mask=mask)
    assert approx[0].tolist() == exact[0].tolist()


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(20, 300),
    candidates=st.integers(1, 20),
    keep=st.floats(0.05, 1.0),
)
def test_the_prefilter_never_returns_a_masked_row_and_scores_what_it_returns_exactly(
    seed: int, n: int, candidates: int, keep: float
) -> None:
    m = unit_rows(seed, n, 64)
    q = unit_rows(seed + 1, 1, 64)[0]
    mask = np.random.default_rng(seed + 2).random(n) < keep
    center = m.mean(axis=0)
    rows, scores = prefiltered_topk(
        m, sign_codes(m, center), center, q, 10, candidates=candidates, mask=mask
    )
    assert all(mask[r] for r in rows.tolist())
    assert len(rows) <= 10 and len(set(rows.tolist())) == len(rows)
    assert np.allclose(scores, m[rows] @ q, atol=1e-5)
    assert list(scores) == sorted(scores, reverse=True)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(20, 400),
    dim=st.sampled_from([64, 128, 384]),
    candidates=st.integers(1, 40),
    keep=st.floats(0.05, 1.0),
    ties=st.booleans(),
)
def test_the_code_columns_give_the_same_candidates_and_scores_as_the_rows(
    seed: int, n: int, dim: int, candidates: int, keep: float, ties: bool
) -> None:
    m = unit_rows(seed, n, dim)
    if ties:  # repeated rows: equal distances at the candidates' edge
        m = m[np.random.default_rng(seed + 3).integers(0, max(1, n // 4), n)]
    q = unit_rows(seed + 1, 1, dim)[0]
    mask = np.random.default_rng(seed + 2).random(n) < keep
    center = m.mean(axis=0)
    codes = sign_codes(m, center)
    columns = code_columns(codes)
    assert columns is not None and columns.shape == (dim // 64, n)
    by_rows = prefiltered_topk(m, codes, center, q, 10, candidates=candidates, mask=mask)
    by_columns = prefiltered_topk(
        m, codes, center, q, 10, candidates=candidates, mask=mask, columns=columns
    )
    assert by_columns[0].tolist() == by_rows[0].tolist()
    assert by_columns[1].tolist() == by_rows[1].tolist()


def test_codes_of_a_width_not_made_of_whole_words_have_no_columns() -> None:
    m = unit_rows(1, 30, 24)  # 3 bytes of code a row
    assert code_columns(sign_codes(m, m.mean(axis=0))) is None


def test_centring_the_codes_keeps_far_more_of_the_exact_top_ten() -> None:
    # vectors sharing a common direction, as sentence embeddings do: without the centre
    # nearly every bit is the same for every row and the Hamming distance says little
    n, dim = 20_000, 64
    m = unit_rows(3, n, dim, offset=3.0)
    queries = m[np.random.default_rng(4).integers(0, n, 100)]
    queries = queries + np.random.default_rng(5).standard_normal(queries.shape) * 0.05

    def recall(center: object) -> float:
        codes = sign_codes(m, center)
        kept = []
        for q in queries.astype(np.float32):
            exact = set(topk(m, q, 10)[0].tolist())
            got = prefiltered_topk(m, codes, center, q, 10, candidates=n // 20)[0]
            kept.append(len(exact & set(got.tolist())) / 10)
        return float(np.mean(kept))

    centred, raw = recall(m.mean(axis=0)), recall(np.zeros(dim, np.float32))
    assert centred >= 0.6
    assert centred >= 1.5 * raw


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteSessionStore]:
    with SQLiteSessionStore(tmp_path / "sessions.db", durable=False) as s:
        yield s


def talk(store: SQLiteSessionStore, words: list[str]) -> list[int]:
    sid = store.start_session(source="cli")
    return store.append_messages(sid, [NewMessage("user", f"we talked about {w}") for w in words])


def test_a_large_cache_searches_by_codes_and_finds_vectors_added_after_they_were_made(
    store: SQLiteSessionStore,
) -> None:
    e = StandinEmbedder(dim=64)
    first = talk(store, [f"topic{i} alpha{i % 7}" for i in range(60)])
    backfill(store, e)
    cache = VectorCache(e.model_id, exact_max=10)
    exact = VectorCache(e.model_id, exact_max=10**9)
    for c in (cache, exact):
        c.refresh(store)
    q = e.embed_queries(["we talked about topic17 alpha3"])[0]
    got = cache.search(store, q, SearchFilters(), 5)
    assert cache.codes.shape[0] == 60 and got[0][0] == first[17]
    assert got[0] == exact.search(store, q, SearchFilters(), 5)[0]
    later = talk(store, ["a zebra crossing at dawn"])  # coded with the kept centre
    backfill(store, e)
    cache.refresh(store)
    hit = cache.search(store, e.embed_queries(["a zebra crossing at dawn"])[0], SearchFilters(), 3)
    assert cache.codes.shape[0] == 61 and hit[0][0] == later[0]
    assert cache.columns is not None  # the new row's code is in the columns searched
    assert cache.columns.shape == (1, 61) and cache.columns[0, 60] == cache.codes[60].view(
        np.uint64
    )
