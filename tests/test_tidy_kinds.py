"""Tidy 14: what the words do not say. Update markers in more languages (sv, uk, pl, de,
vi, ar, ko, hi), a Devanagari word read whole, and (:mod:`mnemic.ops.tidy.kinds`) a
value switched for another of a kind a person has one of in use at a time; each with
the honest look-alikes that stay apart."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.signals import GENERIC, profile


def verdict(a: str, b: str) -> str:
    """"supersede" (``b`` kept), "supersede-old", "merge" or "none"."""
    for q in planned(a, b):
        if set(q.entries) >= {a, b}:
            if q.kind == "supersede":
                return "supersede" if q.entries[0] == b else "supersede-old"
            return q.kind
    return "none"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # each was left apart before: its marker was not read in its language
        ("사용자의 부모님은 대구에 사신다", "사용자의 부모님은 부산으로 이사하셨다"),
        ("Użytkownik mieszka w Krakowie", "Od maja użytkownik mieszka w Gdańsku"),
        ("يقود المستخدم سيارة تويوتا كامري", "منذ الشهر الماضي يقود المستخدم سيارة هيونداي توسان"),
    ],
)
def test_a_marker_in_its_language_says_the_update(old: str, new: str) -> None:
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("text", "marked"),
    [
        ("Användaren har flyttat till Göteborg", True),
        ("Користувач тепер працює в Києві", True),
        ("Người dùng bây giờ đi xe Honda SH", True),
        ("Der Nutzer hat den Corsa gegen einen Skoda eingetauscht", True),
        ("Användaren bor i Göteborg", False),
        ("Користувач працює в Києві", False),
    ],
)
def test_update_markers_of_more_languages(text: str, marked: bool) -> None:
    assert profile(text).marked is marked


def test_since_reads_every_month_of_polish_and_russian() -> None:
    # the longest 24 of the month and day forms left out "maja", "мая", "июня", "июля"
    for text in ("Od maja użytkownik mieszka w Gdańsku", "С мая пользователь живёт в Казани",
                 "С июня пользователь живёт в Казани"):  # fmt: skip
        assert profile(text).update, text


def test_a_devanagari_word_is_read_whole() -> None:
    # "उपयोगकर्ता" (user) was two words cut at its vowel signs, "उपय" and "गकर"
    words = profile("उपयोगकर्ता पुणे में रहता है").words
    assert "पुणे" in words and words & GENERIC and "में" not in words
