"""bench/_recall29.py, recall 29 (issue 33; measured on strangers5 and LoCoMo dev and not
shipped, ``docs/recall.md``): the user's statement a winning assistant reply answers is
placed above the reply (or swaps with it) when it has its own lexical match."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from _recall29 import statement_step
from mnemic.sessions.search.hybrid import FusedMessage, SemanticHit
from mnemic.sessions.store import Hit


class _Said(NamedTuple):
    session_id: str
    seq: int
    role: str
    content: str


class _Store:
    def __init__(self, turns: Sequence[tuple[str, str]]) -> None:
        self.said = [_Said("s", i, role, text) for i, (role, text) in enumerate(turns)]

    def windows(self, spans: Sequence[tuple[str, int, int]]) -> list[list[Any]]:
        return [[m for m in self.said if start <= m.seq < stop] for _, start, stop in spans]


def _fused(*rows: tuple[int, float, bool]) -> list[FusedMessage]:
    """(seq, fused score, whether it is a lexical hit of its own), best first."""
    out = []
    for seq, score, lexical in rows:
        hit = Hit(seq, "s", seq, "user", 0.0, "cli", -3.0, 6) if lexical else None
        sem = SemanticHit(seq, "s", seq, 0.8, 6)
        matched = ("lexical", "semantic") if lexical else ("semantic",)
        out.append(FusedMessage("s", seq, score, matched, hit, sem))
    return out


TURNS = [
    ("user", "Parsnip is terrified of the hoover. He ran behind the sofa."),
    ("assistant", "Fear of the vacuum cleaner is very common in ex-racing dogs."),
    ("user", "Is that normal for greyhounds?"),
    ("assistant", "Yes, many are wary of loud household appliances."),
]


def _order(ranked: list[FusedMessage], form: str = "statement") -> list[int]:
    return [f.seq for f in statement_step(_Store(TURNS), ranked, form)]


def test_the_statement_a_winning_reply_answers_goes_above_it_or_swaps() -> None:
    ranked = _fused((1, 1.0, False), (3, 0.9, False), (0, 0.5, True))
    assert _order(ranked) == [0, 1, 3]
    assert _order(ranked, "statementswap") == [0, 3, 1]


def test_a_question_before_the_reply_or_a_statement_without_its_own_words_stays() -> None:
    asked = _fused((3, 1.0, False), (2, 0.5, True), (1, 0.4, False))
    assert _order(asked) == [3, 2, 1]  # turn 2 asks
    wordless = _fused((1, 1.0, False), (0, 0.5, False))
    assert _order(wordless) == [1, 0]  # turn 0 has no lexical match of its own


def test_a_user_winner_or_a_statement_already_above_is_left_alone() -> None:
    assert _order(_fused((0, 1.0, True), (1, 0.9, False))) == [0, 1]
    assert _order(_fused((2, 1.0, True), (1, 0.9, False), (0, 0.1, False))) == [2, 1, 0]
