"""Tidy 14: what the words do not say. Update markers in more languages (sv, uk, pl, de,
vi, ar, ko, hi), a Devanagari word read whole, and (:mod:`mnemic.ops.tidy.kinds`) a
value switched for another of a kind a person has one of in use at a time; each with
the honest look-alikes that stay apart."""

from __future__ import annotations

import pytest

from _tidy_pairs import verdict
from mnemic.ops.tidy.signals import GENERIC, profile


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


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # each was left apart before: that both values are of one kind is knowledge
        ("User uses VS Code", "User switched to Zed"),
        ("El usuario usa Firefox", "El usuario se pasó a Brave"),
        ("De gebruiker drinkt koemelk", "De gebruiker is overgestapt op havermelk"),
        ("ユーザーの携帯はドコモ", "ユーザーは携帯を楽天モバイルに乗り換えた"),
        ("用户喜欢喝咖啡", "用户现在改喝茶了"),
        ("User prefers tabs", "User switched to spaces"),
        ("User's shell is bash", "User's shell is zsh"),  # a kind one uses one of: no marker
        ("User banks with Monzo", "User now banks with Revolut"),
        ("L'utente usa Safari", "Da gennaio l'utente usa Firefox"),
    ],
)
def test_a_value_switched_for_another_of_its_kind(old: str, new: str) -> None:
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User has two phones: work and personal", "User switched to an iPhone"),
        ("User uses VS Code for Python", "User switched to Zed"),  # a purpose: maybe both
        ("User's partner uses Firefox", "User switched to Brave"),  # another person
        ("User uses Firefox", "User now also uses Brave"),  # adds one
        ("User doesn't use Firefox", "User switched to Brave"),
        ("The staging cluster runs on AWS", "The production cluster now runs on GCP"),
        ("User banks with Monzo", "User banks with Revolut"),  # two banks: no marker
        ("User drinks coffee", "User drinks tea"),  # both, often
        ("User eats fish on Fridays", "User switched to zsh"),  # fish the food, no shell
        ("User is brave about heights", "User switched to Firefox"),  # the adjective
        ("Al usuario le gusta el café solo", "用户现在改喝茶了"),  # two scripts
    ],
)
def test_look_alikes_of_a_switch_stay_apart(old: str, new: str) -> None:
    assert verdict(old, new) != "supersede"


def test_two_values_of_a_kind_in_one_entry_are_a_list() -> None:
    from mnemic.ops.tidy.kinds import kind_switch

    a = profile("User uses VS Code for Python and Neovim for notes")
    assert kind_switch(a, profile("User switched to Neovim")) is None
    assert kind_switch(a, profile("User switched to Zed")) is None


def test_the_kinds_table_names_each_form_once() -> None:
    from mnemic.ops.tidy.kinds import kinds, values_in

    seen: dict[str, str] = {}
    for kind in kinds():
        assert kind.values, kind.name
        for value in kind.values:
            for form in value:
                assert form not in seen, f"{form}: {seen.get(form)} and {kind.name}"
                seen[form] = kind.name
                assert [v[:2] for v in values_in(f"x {form} y")] == [(kind.name, value[0])], form


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a new holder of a role someone has one of, named with no "new" (was left apart)
        ("The user's GP is Dr Lee", "The user sees Dr Park as GP now"),
        ("User's landlord is Mr Brown", "Since May the user rents from Mrs Green, the landlord"),
        (
            "El médico del usuario es el Dr. Ruiz",
            "Desde marzo el usuario va a la Dra. Gómez como médico",
        ),
    ],
)
def test_a_new_holder_named_with_a_marker_of_change(old: str, new: str) -> None:
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's GP is Dr. Patel", "User now sees the GP monthly"),  # no holder named
        ("User's GP is Dr. Patel", "Anna now sees Dr Park as GP"),  # Anna's GP
        ("User's GP is Dr Lee", "User's daughter now sees Dr Park as GP"),
        ("User's laptop is a ThinkPad X1", "L'utente ora usa Linux sul portatile"),  # a thing
    ],
)
def test_a_holder_named_with_a_marker_look_alikes(old: str, new: str) -> None:
    assert verdict(old, new) != "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # two states of a person that exclude each other (each was left apart before)
        ("User has a brother", "User is an only child"),
        ("Der Nutzer ist Einzelkind", "Der Nutzer hat eine Schwester"),
        ("User owns the flat", "User rents the flat"),
        ("User manages people", "User is an individual contributor with no reports"),
    ],
)
def test_two_states_that_exclude_each_other(old: str, new: str) -> None:
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's wife has a brother", "User is an only child"),  # the wife's brother
        ("User's son is an only child", "User has a sister"),
        ("User owns the flat", "User rents the garage"),  # two things
        ("User owns a car", "User rents a flat"),
        ("User has no siblings", "User has a brother"),  # the negation rules' case
    ],
)
def test_states_of_two_people_or_things_stay_apart(old: str, new: str) -> None:
    from mnemic.ops.tidy.kinds import states_apart

    assert states_apart(profile(old), profile(new)) is None or verdict(old, new) != "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # "a new X" in Chinese, Japanese and Korean (no name rule read their values)
        ("用户的手机是Pixel 7", "用户换了新手机，是iPhone 15"),
        ("ユーザーのスマホはiPhone 12", "ユーザーは新しいスマホを買った"),
        ("사용자의 휴대폰은 갤럭시 S21", "사용자는 새 휴대폰을 샀다"),
        ("用户的医生是王医生", "用户有了新的家庭医生"),
    ],
)
def test_a_new_one_in_chinese_japanese_and_korean(old: str, new: str) -> None:
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("用户的手机是Pixel 7", "用户想买新手机"),  # a wish
        ("用户女儿的手机是Pixel 7", "用户换了新手机"),  # the daughter's phone
        ("用户的手机是Pixel 7", "用户的女儿换了新手机"),
        ("ユーザーのスマホはiPhone 12", "ユーザーは新しいスマホを買いたい"),
    ],
)
def test_a_new_one_in_cjk_look_alikes(old: str, new: str) -> None:
    assert verdict(old, new) != "supersede"


def test_a_replacement_in_vietnamese_and_polish_names_the_old_value() -> None:
    # "đổi X sang Y", "wymienił X na Y": the old value was not read
    assert profile("Người dùng đã đổi xe Vision sang Honda SH").was == ("xe", "vision")
    assert "thinkp" in profile("Użytkownik wymienił ThinkPada T480 na T14s").was
    assert verdict(
        "Người dùng đi xe Honda Vision", "Người dùng đã đổi xe Vision sang Honda SH"
    ) == ("supersede")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # "stopped" in Russian and Ukrainian was no negation
        ("Пользователь играет в теннис", "Пользователь перестал играть в теннис"),
        ("Користувач грає у волейбол", "Користувач перестав грати у волейбол"),
    ],
)
def test_stopped_in_russian_and_ukrainian(old: str, new: str) -> None:
    assert profile(new).negated
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a key someone has one of, then は / 은, 는 / 是, with two values (left apart before)
        ("User の車はホンダのフィット", "User の車はマツダのデミオ"),
        ("ユーザーの上司は佐藤さん", "ユーザーの上司は田中さん"),
        ("사용자의 차는 소나타", "사용자의 차는 아반떼"),
        ("用户的手机是华为", "用户的手机是小米"),
    ],
)
def test_a_cjk_key_held_once_with_two_values(old: str, new: str) -> None:
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("ユーザーの友達は佐藤さん", "ユーザーの友達は田中さん"),  # several friends
        ("ユーザーの車は月曜日に洗う", "ユーザーの車は日曜日に洗う"),  # a schedule
        ("ユーザーの妻の車はホンダ", "ユーザーの車はマツダ"),  # the wife's car
    ],
)
def test_a_cjk_key_look_alikes(old: str, new: str) -> None:
    assert verdict(old, new) != "supersede"
