"""A negation in any language the sets hold makes a pair a contradiction, never a
duplicate: Arabic "غير"/"لا"/"ليس", Hindi "नहीं", Japanese "ない"/"ず", Korean "없다"/
"아니다", Turkish "yok"/"değil" and the verb ending "-me/-ma", Ukrainian "немає",
Swedish "inte", Vietnamese "không"; and the words that only look like one ("少ない",
"必ず", "không khí", "komedi", "Yılmaz") negate nothing."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.negation import NEGATION
from mnemic.ops.tidy.signals import profile


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("كلب المستخدم مطعّم ضد الكلب", "كلب المستخدم غير مطعّم ضد الكلب"),
        ("المستخدم يشرب القهوة", "المستخدم لا يشرب القهوة"),
        ("उपयोगकर्ता चाय पीता है", "उपयोगकर्ता चाय नहीं पीता है"),
        ("사용자는 자동차가 있다", "사용자는 자동차가 없다"),
        ("Kullanıcının pasaportu var", "Kullanıcının pasaportu yok"),
        ("Kullanıcı kahve içiyor", "Kullanıcı kahve içmiyor"),
        ("У користувача є дача", "У користувача немає дачі"),
        ("Användaren dricker kaffe", "Användaren dricker inte kaffe"),
        ("Người dùng ăn thịt bò", "Người dùng không ăn thịt bò"),
        ("Nguoi dung uong ca phe", "Nguoi dung khong uong ca phe"),  # typed without marks
    ],
)
def test_a_negation_in_each_language_is_a_contradiction(old: str, new: str) -> None:
    assert not profile(old).negated and profile(new).negated
    [p] = planned(old, new)
    assert p.kind == "supersede" and p.entries == (new, old)


@pytest.mark.parametrize(
    ("text", "negation"),
    [
        ("ユーザーは朝ごはんを食べず出かける", "べず"),
        ("ユーザーは肉を食べない", "ない"),
        ("사용자는 학생이 아니다", "아니다"),
        ("Kullanıcı vegan değil", "değil"),
        ("Kullanıcı et yemez", "yemez"),
        ("Kullanıcı toplantıya gelmedi", "gelmedi"),
    ],
)
def test_the_negating_form_is_read(text: str, negation: str) -> None:
    p = profile(text)
    assert p.negated and p.negation == negation


@pytest.mark.parametrize(
    "text",
    [
        "ユーザーの睡眠時間は少ない",  # few
        "ユーザーは必ず朝に走る",  # surely
        "Phòng làm việc có máy lọc không khí",  # an air purifier
        "Kullanıcı komedi filmlerini sever",  # comedy
        "Kullanıcının avukatı Ayşe Yılmaz",  # a name
        "Người dùng thích chả giò",  # spring rolls
        "Phong lam viec co may loc khong khi",  # air, typed without marks
        "La médica del usuario es la Dra. Gómez",  # a surname Turkish does not write
        "User's dentist is Dr Gomez",  # the same, typed without its mark
    ],
)
def test_a_word_that_only_looks_negated_is_not(text: str) -> None:
    assert NEGATION.search(text.casefold()) is None


def test_an_inflected_word_needs_a_shared_subject() -> None:
    """The stems "manag(er)" and "mañana" differ in their last letters only, but the two entries
    share no word: no statement and its negation."""
    a = "1:1 with the manager starts at 10:00 every time."
    b = "El usuario dejó de beber café solo por la mañana."
    assert planned(a, b) == []
