"""bench/_standing.py, recall 19's "half the standing" rule (measured on dev and dropped,
``docs/recall.md``): a turn a list ranks ``r`` is placed no lower than ``2r`` in the fused
list, the fused order kept wherever it meets that, each place keeping its score."""

from __future__ import annotations

import random
from types import SimpleNamespace

from hypothesis import given, settings, strategies as st

import mnemic.sessions.search.hybrid as hybrid
import mnemic.sessions.search.retrieval as retrieval
from _standing import _ASKED, keep_standing, standing_fuse, trusted
from mnemic.sessions.index.query import parse_query
from mnemic.sessions.search.hybrid import FusedMessage, SemanticHit, fuse
from mnemic.sessions.search.ranking import RankedMessage
from mnemic.sessions.store import Hit


def lexical(scores: list[tuple[tuple[str, int], float]]) -> list[RankedMessage]:
    return [
        RankedMessage(sid, seq, score, Hit(100 + i, sid, seq, "user", 0.0, "cli", -score, 60))
        for i, ((sid, seq), score) in enumerate(scores)
    ]


def semantic(cosines: list[tuple[tuple[str, int], float]]) -> list[SemanticHit]:
    return [
        SemanticHit(500 + i, sid, seq, cos, 60, "cli")
        for i, ((sid, seq), cos) in enumerate(cosines)
    ]


def order(fused: list[FusedMessage]) -> list[tuple[str, int]]:
    return [(f.session_id, f.seq) for f in fused]


# LoCoMo dev's "What does Joanna do while she writes?" in small: the evidence 4th in the
# lexical list and held by no semantic candidate; the lexical list's 5th to 10th near the
# question by meaning, with twenty turns of other sessions below them
EVIDENCE = ("a", 12)
LEX = [(("a", 0), 1.0), (("a", 3), 0.93), (("a", 6), 0.86), (EVIDENCE, 0.79)]
LEX += [(("a", 3 * i + 20), 0.7 - 0.05 * i) for i in range(6)]
SEM = [(("a", 3 * i + 20), 0.86 - 0.001 * i) for i in range(6)]
SEM += [((("b", "c")[i % 2], 5 * i), 0.85 - 0.002 * i) for i in range(20)]


def test_the_blend_places_a_turn_fourth_by_words_only_below_the_first_eight() -> None:
    assert order(fuse(lexical(LEX), semantic(SEM))).index(EVIDENCE) >= 8


def test_the_rule_keeps_it_in_the_first_eight_and_every_place_keeps_its_score() -> None:
    plain = fuse(lexical(LEX), semantic(SEM))
    for absent_only in (False, True):
        kept = standing_fuse(absent_only)(lexical(LEX), semantic(SEM))
        assert order(kept).index(EVIDENCE) < 8
        assert [f.score for f in kept] == [f.score for f in plain]
        assert sorted(order(kept)) == sorted(order(plain))


def test_a_question_the_lexical_side_cannot_read_is_promised_nothing_by_it() -> None:
    plain = fuse(lexical(LEX), semantic(SEM), readable=0.0)
    assert standing_fuse(False)(lexical(LEX), semantic(SEM), readable=0.0) == plain


positions = st.lists(
    st.tuples(st.sampled_from("abc"), st.integers(0, 30)), unique=True, min_size=1, max_size=40
)


@settings(max_examples=100, deadline=None)
@given(positions, positions, st.randoms(use_true_random=False))
def test_every_turn_is_placed_no_lower_than_twice_its_best_rank(
    lex: list[tuple[str, int]], sem: list[tuple[str, int]], rnd: random.Random
) -> None:
    scores = sorted((rnd.random() for _ in lex), reverse=True)
    lexical_list = lexical(list(zip(lex, scores, strict=True)))
    cosines = sorted((0.7 + 0.2 * rnd.random() for _ in sem), reverse=True)
    semantic_list = semantic(list(zip(sem, cosines, strict=True)))
    kept = standing_fuse(False)(lexical_list, semantic_list)
    place = {pos: i + 1 for i, pos in enumerate(order(kept))}
    ranked_lex = hybrid._lexical_side(lexical_list)[0]
    ranked_sem = hybrid._semantic_side(semantic_list, hybrid.SEMANTIC_CONTEXT)[0]
    for side in (ranked_lex, ranked_sem):
        for pos, (rank, _) in side.items():
            if rank <= 50:
                assert place[pos] <= 2 * rank


def test_keep_standing_moves_only_what_would_be_late() -> None:
    ordered = [("x", i) for i in range(6)]
    ranks = {("x", 5): (1, 1.0), ("x", 0): (2, 0.9)}
    assert keep_standing(ordered, [(ranks, 2.0)]) == [
        ("x", 0), ("x", 5), ("x", 1), ("x", 2), ("x", 3), ("x", 4)
    ]  # fmt: skip
    assert keep_standing(ordered, [(ranks, 0.0)]) == ordered  # factor 0: no promise


class _Texts:
    """What the ``trusted`` rule reads of a store: the messages' texts and the forms."""

    def __init__(self, texts: dict[int, str]) -> None:
        self.texts = texts

    def messages_by_id(self, ids: list[int]) -> dict[int, SimpleNamespace]:
        return {i: SimpleNamespace(content=self.texts[i]) for i in ids if i in self.texts}

    def forms_of(self, query: object) -> object:
        return query


def test_trusted_weighs_the_lexical_list_by_the_word_share_of_its_head() -> None:
    # the lexical head holds "balcony" of "Marta", "repot", "balcony": a third
    query = parse_query("Marta repot balcony", match="any")
    words = [(("a", 0), 1.0), (("a", 3), 0.9)]
    meaning = [(("b", 0), 0.88), (("a", 3), 0.84)]
    texts = {100: "The balcony door is stuck again.", 101: "A new balcony railing."}
    with trusted():
        _ASKED.update(store=_Texts(texts), query=query)
        got = retrieval.fuse(lexical(words), semantic(meaning))
    assert got == fuse(lexical(words), semantic(meaning), readable=1 / 3)
    assert got != fuse(lexical(words), semantic(meaning))
    assert retrieval.fuse is fuse  # switched off after the block
