"""bench/_recall27.py and bench/_near.py, recall 27 (issue 33; measured on LoCoMo dev and
dropped, ``docs/recall.md``): where a missed evidence turn is put among the brief's causes,
and rule A's words of the same meaning, read from the chat's word vectors."""

from __future__ import annotations

from typing import Any

import numpy as np

from _near import neighbours
from _recall27 import first_cause, fitting
from mnemic.sessions.sql.words import WordMatrix

TOP = [("s1", 4), ("s2", 0), ("s3", 7)]


def _cause(
    turn: tuple[str, int],
    speaker: str,
    speakers: dict[Any, str],
    *,
    found: set[str] | None = None,
    dated: bool = False,
    shares: bool = True,
) -> str:
    return first_cause(fitting(turn, speaker, TOP, speakers, found or set(), dated, shares))


def test_a_missed_turn_next_to_a_hit_is_a_reply_or_a_neighbour_by_who_said_the_hit() -> None:
    assert _cause(("s1", 3), "Mel", {("s1", 4): "Jon"}) == "reply"
    assert _cause(("s1", 2), "Mel", {("s1", 4): "Mel"}) == "neighbour"
    # three turns away is no neighbour: the turn is outranked
    assert _cause(("s1", 1), "Mel", {("s1", 4): "Mel"}) == "outranked"


def test_a_second_sessions_turn_is_a_second_hop_only_when_its_session_is_not_in_the_top() -> None:
    assert _cause(("s9", 2), "Mel", {}, found={"s2"}) == "second hop"
    assert _cause(("s3", 2), "Mel", {}, found={"s2"}) == "outranked"  # its session found
    assert _cause(("s9", 2), "Mel", {}, found={"s9"}) == "outranked"  # only its own session


def test_date_comes_before_words_differ_and_words_differ_before_outranked() -> None:
    assert _cause(("s9", 2), "Mel", {}, dated=True, shares=False) == "date"
    assert _cause(("s9", 2), "Mel", {}, shares=False) == "words differ"
    assert _cause(("s9", 2), "Mel", {}) == "outranked"


def _unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, np.float32)
    return v / np.linalg.norm(v)


class _Words:
    def __init__(self, table: WordMatrix) -> None:
        self.table = table

    def matrix(self, _model: str) -> WordMatrix:
        return self.table


class _Store:
    def __init__(self, table: WordMatrix) -> None:
        self.words = _Words(table)


class _Embedder:
    model_id = "m"

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return np.stack([_unit(1.0, 0.05, 0.0, 0.0) for _ in texts])  # "animals" is like "pets"


def test_rule_a_keeps_the_chat_words_near_a_question_word_and_leaves_out_its_own_forms() -> None:
    words = ["pets", "pet", "dog", "cat", "melanie", "three", "the"]
    mat = np.stack(
        [
            _unit(1, 0, 0, 0),  # pets
            _unit(1, 0.02, 0, 0),  # pet: the same stem, already searched
            _unit(1, 0.2, 0, 0),  # dog: cosine 0.98
            _unit(1, 0.9, 0, 0),  # cat: cosine 0.74, below TAU
            _unit(1, 0.01, 0.01, 0),  # melanie: a speaker's name
            _unit(0, 0, 1, 0),  # three
            _unit(1, 0.03, 0, 0),  # the: a function word
        ]
    )
    store = _Store(WordMatrix(words, mat, {"melanie"}))
    got = neighbours(store, _Embedder(), "Which pets does Melanie have?")
    assert got == ["dog"]


def test_rule_a_embeds_a_question_word_the_chat_does_not_write() -> None:
    words = ["dog", "cat", "three"]
    mat = np.stack([_unit(1, 0.1, 0, 0), _unit(0, 1, 0, 0), _unit(0, 0, 1, 0)])
    store = _Store(WordMatrix(words, mat, set()))
    assert neighbours(store, _Embedder(), "What animals?") == ["dog"]
