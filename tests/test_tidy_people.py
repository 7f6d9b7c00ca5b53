"""Two relatives are two people: "the aunt" and "the nephew" with one fact each are two
facts, never a duplicate nor a contradiction; and a Russian, Polish or Turkish negation
reads as one ("не женат" against "женат" is a contradiction, never a duplicate)."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.people import holders, other_relatives, relatives


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("User's uncle is allergic to penicillin", "User's son is allergic to penicillin"),
        ("User's father has asthma", "User's father-in-law has asthma"),
        ("El hijo del usuario vive en Quito", "La hija del usuario vive en Quito"),
        ("Сын пользователя живёт в Твери", "Дочь пользователя живёт в Твери"),
        ("Kullanıcının annesi emekli doktor", "Kullanıcının teyzesi emekli doktor"),
        ("用户的父亲住在杭州", "用户的儿子住在杭州"),
    ],
)
def test_two_relatives_are_two_facts(a: str, b: str) -> None:
    assert other_relatives(a, b)
    assert planned(a, b) == []


def test_the_same_relative_in_other_words_is_not_vetoed() -> None:
    assert relatives("User's mother-in-law lives in Bath") == {"mother-in-law"}
    assert not other_relatives("User's son plays chess", "The son of the user plays chess")
    assert not other_relatives("User's wife is Elena", "User is married to Elena")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Пользователь курит", "Пользователь не курит"),
        ("Użytkownik ma samochód służbowy", "Użytkownik nie ma samochodu służbowego"),
    ],
)
def test_a_russian_or_polish_negation_is_a_contradiction(old: str, new: str) -> None:
    [p] = planned(old, new)
    assert p.kind == "supersede" and p.entries == (new, old)


def test_a_word_that_starts_like_a_turkish_relative_is_none() -> None:
    assert relatives("Kullanıcının oğlu ve dayım") == {"oğl", "dayı"}
    assert relatives("The annex building is closed for annealing") == frozenset()
    assert not other_relatives("User's sister uses the annex", "User's sister uses the shed")


def test_a_korean_relative_is_a_whole_stem() -> None:
    assert relatives("사용자의 아들이 축구를 한다") == {"아들"}
    assert relatives("사용자는 딸기를 좋아한다") == frozenset()  # a strawberry, no daughter
    assert planned("사용자의 아들은 서울에 산다", "사용자의 딸은 서울에 산다") == []


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("User drives a blue Honda Jazz", "User's husband drives a blue Honda Jazz"),
        ("La usuaria es diabética", "La madre de la usuaria es diabética"),
        ("Der Nutzer spielt Tennis im Verein", "Die Freundin des Nutzers spielt Tennis im Verein"),
        ("用户喜欢爬山", "用户的妻子喜欢爬山"),
        ("사용자는 부산에 산다", "사용자의 아내는 부산에 산다"),
        ("Користувач має алергію на пилок", "Дружина користувача має алергію на пилок"),
        ("The user is on CET", "The user's manager is on CET"),
        ("Time zone of the user's dentist: CET", "Time zone of the user: CET"),
        ("User's husband has a work permit", "User has a Dutch work permit"),  # a name more
    ],
)
def test_whose_fact_it_is_keeps_two_holders_apart(a: str, b: str) -> None:
    """One entry says whose the fact is (a person among its first words), the other
    names nobody: two holders, at any cosine."""
    assert other_relatives(a, b)
    assert planned(a, b) == []
    assert planned(a, b, 0.99) == []


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("والدة المستخدم مصابة بالسكري", "جدة المستخدم مصابة بالسكري"),
        ("उपयोगकर्ता की माँ दिल्ली में रहती है", "उपयोगकर्ता के पिता दिल्ली में रहते हैं"),
        ("Con gái người dùng học piano", "Con trai người dùng học piano"),
        ("Батько користувача живе у Львові", "Тесть користувача живе у Львові"),
        ("Användarens dotter bor i Malmö", "Användarens bror bor i Malmö"),
        ("User's flatmate works at the bakery", "User's girlfriend works at the bakery"),
    ],
)
def test_two_people_in_more_languages(a: str, b: str) -> None:
    assert other_relatives(a, b)
    assert planned(a, b, 0.99) == []


def test_a_person_named_later_or_said_otherwise_is_no_holder() -> None:
    assert holders("User visits a friend in Leeds") == frozenset()
    assert holders("Time zone of the user's manager: UTC") == {"manager"}
    assert relatives("The package manager is pnpm") == frozenset()
    assert not other_relatives("User visits his mother in Leeds", "User visits Leeds monthly")
    assert relatives("User's mum lives in Bath") == relatives("User's mother lives in Bath")
    assert relatives("الأم") == {"أم"} and relatives("أم") == frozenset()  # also "or"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's partner drives a grey Yaris", "User's partner now drives a red Corolla"),
        ("Die Mutter des Nutzers wohnt in Köln", "Die Mutter des Nutzers wohnt jetzt in Bonn"),
        ("用户的妻子住在杭州", "用户的妻子现在住在上海"),
    ],
)
def test_one_holder_changing_a_value_is_still_a_contradiction(old: str, new: str) -> None:
    [p] = planned(old, new)
    assert p.kind == "supersede" and p.entries == (new, old)
