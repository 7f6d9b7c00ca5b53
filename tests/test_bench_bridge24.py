"""bench/_bridge24.py, recall 24's variants: a Chinese question read piece by piece (CJK
bigrams at word boundaries), each piece's nearest word of the chat, function words and
speakers' names not asked about, a word kept where a message the question's meaning found
writes it, and the lexical share the fraction of the question read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import _bridge24 as bridge
from _bridge24 import RECIPES, segment_words

DIM = 64


def _unit(i: int) -> Any:
    v = np.zeros(DIM, np.float32)
    v[i] = 1.0
    return v


class _Embedder:
    """Words on axes of their own; a piece at a given cosine to one word (the rest of its
    vector on an axis no word uses)."""

    model_id = "fake"

    def __init__(self, words: list[str], pieces: dict[str, tuple[str, float]]) -> None:
        self.axis = {w: i for i, w in enumerate(words)}
        self.pieces = pieces
        self.spare = len(words)

    def _vec(self, text: str) -> Any:
        if text in self.axis:
            return _unit(self.axis[text])
        word, cos = self.pieces.get(text, ("", 0.0))
        self.spare += 1
        v = np.sqrt(1 - cos * cos) * _unit(self.spare % DIM)
        return v + cos * _unit(self.axis[word]) if word else v

    def embed_queries(self, texts: list[str]) -> Any:
        return np.stack([self._vec(t) for t in texts])


@dataclass
class _Message:
    content: str
    name: str


@dataclass
class _Info:
    id: str


class _Vectors:
    def __init__(self, found: list[int]) -> None:
        self.found = found

    def search(self, *_args: Any) -> list[tuple[int, float]]:
        return [(i, 0.9) for i in self.found]


class _Store:
    def __init__(self, said: list[_Message], found: list[int]) -> None:
        self.said = said
        self.vectors = _Vectors(found)

    def list_sessions(self, limit: int) -> list[_Info]:
        return [_Info("s")]

    def messages(self, _session: str) -> list[_Message]:
        return self.said

    def messages_by_id(self, ids: list[int]) -> dict[int, _Message]:
        return {i: self.said[i] for i in ids}


@pytest.fixture(autouse=True)
def _fresh_caches() -> None:
    for cache in (bridge._CONTENT, bridge._EVERY, bridge._NAMES, bridge._FOUND):
        cache.clear()


SAID = [
    _Message("I did some research on adoption agencies", "Caroline"),
    _Message("The cake was lovely", "Melanie"),
]
CHAT_WORDS = ["adoption", "agencies", "cake", "caroline", "did", "lovely", "melanie", "research",
              "some", "the", "was", "on"]  # fmt: skip
PIECES = {
    "卡罗": ("caroline", 0.9),
    "罗琳": ("caroline", 0.8),
    "琳研": ("research", 0.5),
    "研究": ("research", 1.0),
    "究了": ("research", 0.6),
    "了蛋": ("cake", 0.3),
    "蛋糕": ("cake", 0.95),
    "糕什": ("cake", 0.4),
    "什么": ("did", 0.9),
}


def _words(question: str, found: list[int]) -> tuple[list[str], float]:
    embedder = _Embedder(CHAT_WORDS, PIECES)
    store = _Store(SAID, found)
    vec = embedder.embed_queries([question])[0]
    return segment_words(store, embedder, question, vec, RECIPES["bridgeseg2"])


def test_a_piece_at_a_word_boundary_bridges_its_word_and_the_name_and_what_are_not_asked() -> None:
    # 卡罗 is the name (Caroline: the speaker step's), 什么 a function word ("did"); 琳研
    # and 究了 lose to 研究 at the boundary: one content piece, read
    assert _words("卡罗琳研究了什么", [0]) == (["research"], 1.0)


def test_a_word_no_message_the_meaning_found_writes_is_not_bridged_but_counts() -> None:
    # the nearest message (0) writes "research" and not "cake": one of two pieces read
    assert _words("卡罗琳研究了蛋糕什么", [0]) == (["research"], 0.5)
    assert _words("卡罗琳研究了蛋糕什么", [0, 1]) == (["research", "cake"], 1.0)


def test_the_time_steps_words_are_left_to_it() -> None:
    words, share = _words("2022年2月7日卡罗琳研究了什么", [0])
    assert (words, share) == (["research"], 1.0)
