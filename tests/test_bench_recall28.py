"""bench/_recall28.py, recall 28 (issue 33; measured on LoCoMo dev and not shipped,
``docs/recall.md``): inside a winning exchange, the turn that answers a question in the
chat, or the turn of the strongest own match, is placed next to the winner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import pytest

from _recall28 import asks, exchange_step, own_matches
from mnemic.sessions.search.hybrid import FusedMessage, SemanticHit
from mnemic.sessions.store import Hit


class _Said(NamedTuple):
    session_id: str
    seq: int
    role: str
    name: str | None
    content: str


class _Store:
    def __init__(self, turns: Sequence[tuple[str, str]]) -> None:
        self.said = [_Said("s", i, "user", name, text) for i, (name, text) in enumerate(turns)]

    def windows(self, spans: Sequence[tuple[str, int, int]]) -> list[list[Any]]:
        return [[m for m in self.said if start <= m.seq < stop] for _, start, stop in spans]


def _hit(seq: int, bm25: float) -> Hit:
    return Hit(seq, "s", seq, "user", 0.0, "cli", -bm25, 6)


def _sem(seq: int, cosine: float) -> SemanticHit:
    return SemanticHit(seq, "s", seq, cosine, 6)


def _fused(*rows: tuple[int, float, float | None, float | None]) -> list[FusedMessage]:
    """(seq, fused score, own bm25 or None, own cosine or None), best first."""
    out = []
    for seq, score, bm25, cosine in rows:
        hit = _hit(seq, bm25) if bm25 is not None else None
        sem = _sem(seq, cosine) if cosine is not None else None
        matched = tuple(n for n, f in (("lexical", hit), ("semantic", sem)) if f is not None)
        out.append(FusedMessage("s", seq, score, matched, hit, sem))
    return out


TURNS = [
    ("Mel", "I painted a lake sunrise last year."),
    ("Caro", "Lovely! Anything you're excited for in the adoption process?"),
    ("Mel", "I'm thrilled to make a family for kids who need one."),
    ("Caro", "That is so kind."),
    ("Mel", "Thanks!"),
    ("Caro", "See you soon"),
]
# the asking turn 1 wins on the question's words; its answer, turn 2, ranks third
RANKED = _fused((1, 1.0, 5.0, 0.9), (0, 0.8, 4.0, 0.8), (2, 0.5, None, 0.7), (3, 0.2, None, 0.5))


def _order(form: str, text: str = "What is Mel excited about in the adoption?") -> list[int]:
    return [f.seq for f in exchange_step(_Store(TURNS), RANKED, text, 1.0, form)]


def test_a_turn_asks_when_it_ends_with_a_question_mark() -> None:
    assert asks("Anything new?  ")
    assert asks("你喜欢吗？")
    assert not asks("Is it? I think so.")
    assert not asks(None)


def test_the_answer_to_an_asking_winner_is_placed_above_below_or_in_its_place() -> None:
    assert _order("pair2") == [2, 1, 0, 3]
    assert _order("pairbelow") == [1, 2, 0, 3]
    assert _order("pairswap") == [2, 0, 1, 3]


def test_round_two_keeps_every_score_but_the_moved_turns() -> None:
    out = exchange_step(_Store(TURNS), RANKED, "What is Mel excited about?", 1.0, "pair2")
    scores = {f.seq: f.score for f in out}
    assert scores[1] == 1.0 and scores[0] == 0.8 and scores[3] == 0.2
    assert scores[2] == pytest.approx(1.0)


@pytest.mark.parametrize(
    "turns",
    [
        # the next turn is the same speaker's: no answer
        [TURNS[0], TURNS[1], ("Caro", "I'm thrilled to make a family."), *TURNS[3:]],
        # the next turn asks too: a question answered by a question
        [TURNS[0], TURNS[1], ("Mel", "Why do you ask?"), ("Mel", "Just curious."), *TURNS[4:]],
    ],
)
def test_no_answer_no_move(turns: list[tuple[str, str]]) -> None:
    out = exchange_step(_Store(turns), RANKED, "What is Mel excited about?", 1.0, "pair2")
    assert [f.seq for f in out] == [1, 0, 2, 3]


def test_the_own_match_is_the_blend_without_context() -> None:
    own = own_matches(RANKED, 1.0)
    # bm25 5.0 is the best (1.0); cosines rescaled between 0.5 and 0.9
    assert own[("s", 1)] == pytest.approx(0.6 * 1.0 + 0.4 * 1.0)
    assert own[("s", 2)] == pytest.approx(0.4 * 0.5)
    assert own[("s", 3)] == pytest.approx(0.0)
    # a question the lexical side cannot read weighs its words by that share
    assert own_matches(RANKED, 0.0)[("s", 1)] == pytest.approx(1.0)


def test_the_exchange_form_places_the_stronger_own_match_above_an_asking_winner() -> None:
    # turn 1 asks (its own match halved: 0.6 * 0.2 + 0.4 * 1.0 = 0.52, then 0.26);
    # turn 2 answers with the stronger words of the two
    ranked = _fused((1, 1.0, 1.0, 0.9), (2, 0.9, 5.0, 0.5), (0, 0.3, None, 0.6))
    out = exchange_step(_Store(TURNS), ranked, "What is Mel excited about?", 1.0, "exchange")
    assert [f.seq for f in out][:2] == [2, 1]
