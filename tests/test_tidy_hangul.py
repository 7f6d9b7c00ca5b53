"""Korean in tidy: a Hangul word is read by its stem (particles and common verb endings
cut off), "사용자" is the generic subject, "이제" marks an update and "않" a negation; so
one fact said twice meets, and a changed place is a contradiction."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.hangul import hangul_stem
from mnemic.ops.tidy.signals import GENERIC, profile


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("사용자는", "사용자"),
        ("대전에서", "대전"),
        ("당근을", "당근"),
        ("싫어해요", "싫어"),
        ("있는", ""),
    ],
)
def test_a_hangul_word_is_read_by_its_stem(word: str, stem: str) -> None:
    assert hangul_stem(word) == stem


def test_the_korean_user_is_the_generic_subject() -> None:
    assert profile("사용자는 당근을 싫어한다").words == {"사용자", "당근", "싫어"}
    assert "사용자" in GENERIC


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("사용자는 당근을 싫어한다", "사용자는 당근을 싫어해요"),
        ("매주 금요일에 사용자는 수영을 한다", "사용자는 수영을 매주 금요일에 한다"),
    ],
)
def test_one_korean_fact_said_twice_is_merged(a: str, b: str) -> None:
    [p] = planned(a, b)
    assert p.kind == "merge" and set(p.entries) == {a, b}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("사용자는 대전에 산다", "사용자는 이제 광주에 산다"),
        ("사용자는 커피를 좋아한다", "사용자는 커피를 좋아하지 않는다"),
    ],
)
def test_a_korean_update_or_negation_supersedes(old: str, new: str) -> None:
    [p] = planned(old, new)
    assert p.kind == "supersede" and p.entries == (new, old)


def test_two_korean_facts_stay_apart() -> None:
    assert planned("사용자는 술을 마시지 않는다", "사용자는 유제품을 먹지 않는다") == []
