"""Tidy 21: updates said with no marker. A role with one holder named plainly with
another name, and an activity the newer entry says was stopped, are superseded (each
pair was left apart before tidy 21); their honest twins (another key, a person someone
has many of, the same name, a list, another activity or person) stay apart."""

from __future__ import annotations

import pytest

from _tidy_pairs import pair_kind
from mnemic.ops.tidy.holders import holder_swap
from mnemic.ops.tidy.signals import profile
from mnemic.ops.tidy.stopping import stopped


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The site safety officer is Mark", "Site safety officer: Joanna Reed"),
        (
            "Kierownikiem budowy na Polnej jest pan Wiśniewski",
            "Kierownikiem budowy na Polnej jest pani Lis",
        ),
        (
            "Ang tagapangulo ng samahan ay si Gng. Cruz",
            "Ang tagapangulo ng samahan ay si Bb. Ramos",
        ),
        ("Thủ quỹ của câu lạc bộ là chị Hoa", "Thủ quỹ của câu lạc bộ là anh Nam"),
        ("Koordynatorka wolontariuszy — Ewa", "Koordynator wolontariuszy — Piotr"),
        ("Ketua panitia adalah Bu Sari", "Ketua panitia adalah Pak Budi"),
        ("娘の担任は山本先生", "娘の担任は中村先生"),
        ("合唱团的指挥是李老师", "合唱团的指挥是张老师"),
    ],
)
def test_a_role_with_one_holder_named_with_another_name_is_an_update(a: str, b: str) -> None:
    assert holder_swap(profile(a), profile(b)) is not None
    assert pair_kind(a, b) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # two keys: two people's roles, two sites, two weekdays
        ("Anna's dentist is Dr. Moss", "Ben's dentist is Dr. Hart"),
        ("The site manager at Mill Lane is Tom", "The site manager at Quay Street is Ben"),
        ("Los lunes la encargada es Rosa", "Los jueves la encargada es Elena"),
        # a person someone has many of: two friends, two sisters
        ("Her friend is Anna", "Her friend is Maria"),
        ("Die Schwester ist Lena", "Die Schwester ist Jana"),
        # the same person, by another part of the name or misspelt
        ("The treasurer is Dr. Patel", "The treasurer is Dr. Anil Patel"),
        ("The choir's accompanist is Jordan", "The choir's accompanist is Jordon"),
        # a list or quoted items after a colon (German nouns have capitals)
        ("Einkaufsliste: Tomaten, Gurken", "Einkaufsliste: Kartoffeln"),
        ("Saatgut: Bohnen 'Cobra'", "Saatgut: Erbsen 'Hurst'"),
        # a weekday after "on" (no copula)
        ("The market opens at 7:00 on Saturdays", "The market opens at 7:00 on Sundays"),
    ],
)
def test_a_role_with_one_holders_honest_twins_stay_apart(a: str, b: str) -> None:
    assert holder_swap(profile(a), profile(b)) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a detail after the name's comma, with or without a marker (tidy 22)
        ("Our landlord is Mr Adams", "Our landlord is now Mr Okafor, from the agency"),
        ("The food bank coordinator is Sheila", "The food bank coordinator is Raj, since March"),
        ("Le chef de centre est Dieter Wolf", "Le chef de centre est Aylin Demir, élue en mars"),
        # the name first, the role after a copula and a word that makes it definite
        ("The food bank coordinator is Sheila", "Raj Patel is our food bank coordinator"),
        ("De penningmeester is Joost", "Femke is de penningmeester"),
        ("Priya is the tech lead for payments", "Oskar is now the tech lead for payments"),
        (
            "Die Kassenwartin des Vereins ist Frau Lang",
            "Frau Weber ist die Kassenwartin des Vereins",
        ),
    ],
)
def test_a_holder_named_with_a_detail_or_first_is_an_update(a: str, b: str) -> None:
    assert holder_swap(profile(a), profile(b)) is not None
    assert pair_kind(a, b) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a list after a colon, more items after a comma, another clause
        ("Packing list: Adapter, sunscreen", "Packing list: Charger, towel"),
        ("The chair is Tom, and Ann is the treasurer", "The chair is Joe"),
        ("Einkaufsliste: Tomaten, Gurken", "Einkaufsliste: Kartoffeln, Zwiebeln"),
        # a kind of person many are ("a nurse"), another key, the same name
        ("Ana is a nurse", "Bea is a nurse"),
        ("Priya is the tech lead for payments", "Oskar is the tech lead for search"),
        ("Lucía es la jefa de Carlos", "Lucía es la jefa de Elena"),
        ("Hugo est le responsable de Paul", "Inès est la responsable de Léa"),
        # a day at the head is no holder (left to the other rules); a state with a number
        ("Dinsdag is de ophaaldag", "Vrijdag is de ophaaldag"),
        ("Samstags ist der Laden bis 16 Uhr offen", "Sonntags ist der Laden bis 16 Uhr offen"),
        # a verb, not a copula: two people may do one thing
        ("Sheila coordinates the food bank", "Raj coordinates the food bank"),
        # a person someone has many of, named first
        ("Anna is her friend", "Maria is her friend"),
    ],
)
def test_a_holder_named_otherwise_has_honest_twins_that_stay_apart(a: str, b: str) -> None:
    assert holder_swap(profile(a), profile(b)) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Tom drives the school minibus on Fridays", "Tom gave up the minibus driving"),
        ("Marta toma clases de piano los jueves", "Marta dejó las clases de piano"),
        ("Hän soittaa viulua orkesterissa", "Hän lopetti viulun soittamisen orkesterissa"),
        ("Ele nada na piscina municipal", "Ele parou de nadar na piscina municipal"),
        ("用户每周三去游泳", "用户已经不游泳了"),
    ],
)
def test_an_activity_the_newer_entry_says_was_stopped_is_an_update(a: str, b: str) -> None:
    assert stopped(profile(a), profile(b)) is not None
    assert pair_kind(a, b) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # another activity, another person
        ("Tom walks the neighbour's dog every Tuesday", "Tom gave up smoking"),
        ("Tom walks the neighbour's dog every Tuesday", "Anna gave up walking the dog"),
        # "left" is not read: a thing left somewhere
        ("Tom keeps the keys in the car", "Tom left the keys in the car"),
        # both stopped, or the older one negated
        ("Tom stopped the gym", "Tom quit the gym"),
        ("用户不游泳", "用户已经不游泳了"),
    ],
)
def test_a_stopped_activitys_honest_twins_stay_apart(a: str, b: str) -> None:
    assert stopped(profile(a), profile(b)) is None
