"""Fusion of lexical and semantic candidates (sessions.search.hybrid): properties and cases."""

from __future__ import annotations

import itertools

from hypothesis import given, settings, strategies as st

from mnemic.sessions.search.hybrid import (
    FusedMessage,
    SemanticHit,
    blend,
    fuse,
    rrf,
    semantic_context,
)
from mnemic.sessions.search.ranking import RankedMessage
from mnemic.sessions.store import Hit

SESSIONS = ("a", "b", "c")


def lexical_list(positions: list[tuple[str, int]], neighbours: set[int]) -> list[RankedMessage]:
    """Ranked lexical positions, best first, scores decreasing; some are neighbours."""
    out = []
    n = len(positions)
    for i, (sid, seq) in enumerate(positions):
        hit = None
        if i not in neighbours:
            hit = Hit(1000 + i, sid, seq, "user", 0.0, "cli", -float(n - i), 50)
        out.append(RankedMessage(sid, seq, float(n - i), hit))
    return out


def semantic_list(positions: list[tuple[str, int]]) -> list[SemanticHit]:
    n = len(positions)
    return [
        SemanticHit(2000 + i, sid, seq, 0.9 - 0.5 * i / max(1, n), 50, "cli")
        for i, (sid, seq) in enumerate(positions)
    ]


positions = st.lists(
    st.tuples(st.sampled_from(SESSIONS), st.integers(0, 12)), unique=True, max_size=15
)


def key(f: FusedMessage) -> tuple[str, int]:
    return (f.session_id, f.seq)


@settings(max_examples=200, deadline=None)
@given(positions, positions, st.sets(st.integers(0, 14)))
def test_fused_list_holds_every_candidate_exactly_once(
    lex: list[tuple[str, int]], sem: list[tuple[str, int]], neighbours: set[int]
) -> None:
    lexical = lexical_list(lex, neighbours)
    semantic = semantic_list(sem)
    for method in (rrf, blend):
        fused = method(lexical, semantic, context=())
        keys = [key(f) for f in fused]
        assert len(keys) == len(set(keys))
        assert set(keys) == set(lex) | set(sem)
        for f in fused:
            in_lex = (f.session_id, f.seq) in [p for i, p in enumerate(lex) if i not in neighbours]
            in_sem = (f.session_id, f.seq) in sem
            assert f.matched == tuple(
                name for name, yes in (("lexical", in_lex), ("semantic", in_sem)) if yes
            )
        scores = [f.score for f in fused]
        assert scores == sorted(scores, reverse=True)


@settings(max_examples=200, deadline=None)
@given(positions, positions, st.data())
def test_rrf_a_message_in_both_lists_ranks_no_lower_than_with_either_list_alone(
    lex: list[tuple[str, int]], sem: list[tuple[str, int]], data: st.DataObject
) -> None:
    both = [p for p in lex if p in sem]
    if not both:
        return
    target = data.draw(st.sampled_from(both))
    fused = [key(f) for f in rrf(lexical_list(lex, set()), semantic_list(sem), context=())]
    without_sem = [
        key(f)
        for f in rrf(
            lexical_list(lex, set()), semantic_list([p for p in sem if p != target]), context=()
        )
    ]
    without_lex = [
        key(f)
        for f in rrf(
            lexical_list([p for p in lex if p != target], set()), semantic_list(sem), context=()
        )
    ]
    assert fused.index(target) <= without_sem.index(target)
    assert fused.index(target) <= without_lex.index(target)


@settings(max_examples=100, deadline=None)
@given(positions, positions, st.sets(st.integers(0, 14)))
def test_fusion_is_deterministic_whatever_the_input_order_of_equal_scores(
    lex: list[tuple[str, int]], sem: list[tuple[str, int]], neighbours: set[int]
) -> None:
    a = rrf(lexical_list(lex, neighbours), semantic_list(sem))
    b = rrf(lexical_list(lex, neighbours), semantic_list(sem))
    assert a == b
    # equal scores break by position, direct matches before neighbours
    for x, y in itertools.pairwise(a):
        if x.score == y.score:
            assert (not x.direct, x.session_id, x.seq) <= (not y.direct, y.session_id, y.seq)


def test_ties_between_the_two_lists_break_by_position_not_by_list() -> None:
    # the same rank in each list: equal RRF scores
    lexical = lexical_list([("b", 3)], set())
    semantic = semantic_list([("a", 7)])
    fused = rrf(lexical, semantic, context=())
    assert [key(f) for f in fused] == [("a", 7), ("b", 3)]
    assert fused[0].score == fused[1].score
    assert fused[0].matched == ("semantic",) and fused[1].matched == ("lexical",)


def test_a_message_both_parts_found_beats_ones_found_by_one_part() -> None:
    lexical = lexical_list([("a", 1), ("a", 2)], set())
    semantic = semantic_list([("b", 5), ("a", 2)])
    fused = rrf(lexical, semantic, context=())
    assert key(fused[0]) == ("a", 2)
    assert fused[0].matched == ("lexical", "semantic")
    assert fused[0].message_id == 1001  # the lexical hit's id wins


@settings(max_examples=100, deadline=None)
@given(positions, positions)
def test_semantic_context_adds_neighbours_that_matched_nothing_and_drops_no_candidate(
    lex: list[tuple[str, int]], sem: list[tuple[str, int]]
) -> None:
    fused = fuse(lexical_list(lex, set()), semantic_list(sem))
    keys = [key(f) for f in fused]
    assert len(keys) == len(set(keys)) and set(lex) | set(sem) <= set(keys)
    for f in fused:
        if key(f) not in set(lex) | set(sem):
            assert f.matched == () and f.message_id is None


def test_a_neighbour_ranked_only_through_context_matched_nothing() -> None:
    lexical = lexical_list([("a", 1), ("a", 2)], {1})
    fused = rrf(lexical, [])
    assert fused[1].matched == () and not fused[1].direct
    assert fused[1].message_id is None


def test_semantic_context_lends_strength_to_neighbours_inside_the_session_only() -> None:
    hits = [SemanticHit(1, "a", 0, 0.9, 2), SemanticHit(2, "b", 4, 0.5, 6)]
    ranked = semantic_context(hits, (0.5,))
    found = {pos: score for pos, score, _ in ranked}
    assert found[("a", 1)] == 0.5  # half of the best candidate's strength (1.0)
    assert ("a", -1) not in found and ("a", 2) not in found  # bounded by the session
    assert found[("b", 3)] == 0.0 and found[("b", 5)] == 0.0  # the worst candidate lends 0
    assert ranked[0][0] == ("a", 0)


def test_blend_alpha_moves_the_winner_between_the_parts() -> None:
    lexical = lexical_list([("a", 1), ("a", 9)], set())
    semantic = semantic_list([("b", 2), ("a", 9)])
    assert key(blend(lexical, semantic, alpha=0.9)[0]) == ("a", 1)
    assert key(blend(lexical, semantic, alpha=0.1)[0]) == ("b", 2)


def test_fuse_with_no_semantic_candidates_keeps_the_lexical_order() -> None:
    lexical = lexical_list([("a", 4), ("c", 1), ("b", 2)], {2})
    assert [key(f) for f in fuse(lexical, [])] == [("a", 4), ("c", 1), ("b", 2)]


def test_a_question_asked_in_the_history_keeps_half_its_meaning_for_a_first_person_question() -> (
    None
):
    hits = [
        SemanticHit(1, "a", 0, 0.90, 10, asks=True),  # "Which city should I visit?"
        SemanticHit(2, "a", 5, 0.88, 10),  # "I visited Ghent."
        SemanticHit(3, "b", 0, 0.80, 10),
    ]
    assert key(fuse([], hits)[0]) == ("a", 0)  # meaning alone: the nearer question first
    statements = fuse([], hits, statements=True)
    assert key(statements[0]) == ("a", 5)
    assert statements[[key(f) for f in statements].index(("a", 0))].score == 0.5 * (1 - 0.6)
