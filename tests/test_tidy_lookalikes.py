"""Tidy 28: more look-alikes that say two facts stay apart (a list and one of its items,
two people named, an identifier changed in one character, another measure, a plan beside its result,
someone's sister in Bengali), and each one's true twin (the same shape saying one fact,
or one fact changed) is still flagged. Every pair of the first kind was merged or
superseded before tidy 28."""

from __future__ import annotations

import pytest

from _tidy_pairs import pair_kind
from mnemic.ops.tidy.lookalikes import (
    another_measure,
    identifier_changed,
    list_and_item,
    plan_beside_result,
    two_named,
)
from mnemic.ops.tidy.people import relatives
from mnemic.ops.tidy.signals import profile

PANTRY = "Pantry: rice, lentils, chickpeas, oats"
MAREK = "Marek teaches the beginners' group"
TWO_FACTS = [
    # a list and one of its items
    ("Pantry: rice, lentils, chickpeas, oats", "We keep chickpeas in the pantry"),
    ("Im Werkzeugschrank: Hammer, Zangen, Sägen, Feilen", "Die Sägen liegen im Werkzeugschrank"),
    # two people named, one after the same verb
    ("Marek teaches the beginners' group", "Olga teaches the beginners' group when Marek is away"),
    ("Sofia repara los frenos", "Lucas repara los frenos los domingos cuando Sofia descansa"),
    # an identifier changed in one character, naming which thing
    ("Ema zo 5.C chodí na krúžok šachu", "Ema zo 5.D chodí na krúžok šachu"),
    ("Nurse Ali covers bay 3A at night", "Nurse Ali covers bay 3B at night"),
    # another measure of one quantity
    ("Ivan's blitz rating is 1720", "Ivan's peak blitz rating was 1804"),
    ("User's resting pulse is 52", "User's max pulse is 181"),
    # a plan beside its result
    ("Ons beplan om Vrydag die tuin te skoffel", "Die tuin is Vrydag geskoffel"),
    ("Next month the choir will record the carol album", "The choir recorded the carol album"),
    # someone's sister (Bengali): two people
    ("অনিকের রেটিং ১৫১০", "অনিকের বোনের রেটিং ১৫১০"),
]


@pytest.mark.parametrize(("a", "b"), TWO_FACTS)
def test_honest_look_alikes_are_kept_apart(a: str, b: str) -> None:
    assert pair_kind(a, b) == "none"
    assert pair_kind(a, b, learned=True) == "none"


@pytest.mark.parametrize(
    ("a", "b", "kind"),
    [
        # the list said again with its items, or most of them: one fact
        (PANTRY, "The pantry has rice, lentils, chickpeas and oats", "merge"),
        (PANTRY, "Pantry: rice, lentils, chickpeas", "merge"),
        # one person, the same name
        (MAREK, "Marek teaches the beginners' group on Tuesdays", "merge"),
        # an identifier after a copula or an update marker is the value: it changed
        ("User's seat is 14C", "User's seat is 14D", "supersede"),
        # the same measure, a new value
        ("Ivan's peak blitz rating was 1804", "Ivan's peak blitz rating is now 1830", "supersede"),
        # the first forms' losses: a time with its unit, a role's new holder, minutes
        ("The plumber arrives at 8h", "The plumber arrives at 9h", "supersede"),
        ("Mila is the team lead for billing", "Jonas is the team lead for billing", "supersede"),
        ("The kettle takes 3 min to boil", "The kettle takes three minutes to boil", "merge"),
        # details of one fact, an update's parts: no list
        ("Gym: Fitbox, card FB-2231, renews 1 May", "Gym is with Fitbox, renews 1 May", "merge"),
        ("Yoga: Mondays at 6, room A", "Yoga moved to Fridays at 7, room B, from May", "supersede"),
        # two plans, another date; a plan given up
        ("Ons beplan om op 12 Mei te trou", "Ons beplan om op 19 Mei te trou", "supersede"),
        ("Ons beplan om die dak te verf", "Ons beplan om nie die dak te verf nie", "supersede"),
    ],
)  # fmt: skip
def test_their_true_twins_are_still_flagged(a: str, b: str, kind: str) -> None:
    assert pair_kind(a, b) == kind


def test_each_veto_names_what_it_read() -> None:
    p = profile
    assert list_and_item(p("Pantry: rice, lentils, chickpeas, oats"), p("We keep oats")) == "oat"
    assert two_named(p("Marek teaches yoga"), p("Olga teaches yoga")) == "Marek / Olga"
    assert not two_named(p("Marek teaches yoga"), p("Marrek teaches yoga"))  # a typo
    assert not two_named(p("Monday classes are full"), p("Tuesday classes are full"))
    assert identifier_changed(p("Ema zo 5.C hrá"), p("Ema zo 5.D hrá")) == "5.c / 5.d"
    assert not identifier_changed(p("Bay 3A is free"), p("Bay 4B is free"))  # two characters
    assert another_measure(p("Rating: 1610"), p("Peak rating: 1655")) == "peak rating"
    # "target" is also a verb (a generated paraphrase the first list lost), "min" minutes
    assert not another_measure(p("PRs for the site target main"), p("The site's default is main"))
    assert not another_measure(p("Naps 90 min after lunch"), p("Naps ninety minutes after lunch"))
    assert plan_beside_result(p("Tomorrow Ana will paint the fence"), p("Ana painted the fence"))
    assert relatives("অনিকের বোনের রেটিং") == {"বোন"}
