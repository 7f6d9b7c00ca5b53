"""Tidy 25: contradictions by another value with no marker of change. A whole number
and a decimal of one unit in one sentence ("5 ml" / "7.5 ml"), and a person's blood
group (:mod:`mnemic.ops.tidy.kinds`); each with the honest look-alikes that stay apart."""

from __future__ import annotations

import pytest

from _tidy_pairs import verdict


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # each was left apart before: "5" read as a number, "7.5" as a version, two kinds
        ("Leo's fever syrup dose is 5 ml", "Leo's fever syrup dose is 7.5 ml"),
        ("The trailer is 4 m high", "The trailer is 4.5 m high"),
        ("O toldo mede 3 metros", "O toldo mede 4,5 metros"),
        ("The Cruceiro parcel is 2.5 hectares", "The Cruceiro parcel is 4 hectares"),
        ("Generator ma moc 3,5 kW", "Generator ma moc 7 kW"),
    ],
)
def test_a_whole_number_and_a_decimal_of_one_unit(old: str, new: str) -> None:
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The backend uses Python 3", "The backend uses Python 3.12"),  # no unit after it
        ("The north field is 2.5 hectares", "The south field is 4 hectares"),  # two fields
        ("Plot A is 2.5 hectares", "Plot B is 4 hectares"),  # a letter names which plot
        ("The dose is 5 ml in the morning", "The dose is 7.5 ml in the evening"),  # two doses
    ],
)
def test_amounts_of_two_things_stay_apart(old: str, new: str) -> None:
    assert verdict(old, new) == "none"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # each was left apart (or merged) before: one blood group for life
        ("Dana's blood group is O negative", "Dana's blood group is A positive"),
        ("Rui è di gruppo sanguigno A+", "Rui è di gruppo sanguigno B+"),
        ("उपयोगकर्ता का ब्लड ग्रुप O+ है", "उपयोगकर्ता का ब्लड ग्रुप AB+ है"),
    ],
)
def test_two_blood_groups_of_one_person(old: str, new: str) -> None:
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Dana's blood group is O negative", "Rui's blood group is A positive"),  # two people
        ("The donor needs O negative blood", "The ward stocks A positive blood"),
        ("Dana's blood group is O negative", "Dana's husband's blood group is A positive"),
        ("A positive outlook helps the team", "A positive outlook helps the user"),
    ],
)
def test_blood_groups_of_two_people_stay_apart(old: str, new: str) -> None:
    assert verdict(old, new) == "none"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # each was left apart before: one is born in one place
        ("Rui was born in Viseu", "Rui was born in Braga"),
        ("Dana was born in Maracaibo", "Dana was born in Valencia, Venezuela"),
        ("Ana s-a născut la Cluj", "Ana s-a născut la Iași"),
        ("Rui nasceu em Viseu", "Rui nasceu em Braga"),
    ],
)
def test_two_birthplaces_of_one_person(old: str, new: str) -> None:
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Dana was born in Maracaibo", "Dana's brother was born in Caracas"),  # two people
        ("Dana was born in 1990", "Dana was born in Maracaibo"),  # a year and a place
        ("User was born in Leeds", "User was born in a taxi"),  # a name and a thing
        ("The twins were born in Leeds", "The twins were born in York"),  # "were": several
        ("Rui was born in Viseu", "Rui lives in Braga"),  # another attribute
    ],
)
def test_birthplaces_look_alikes_stay_apart(old: str, new: str) -> None:
    assert verdict(old, new) == "none"
