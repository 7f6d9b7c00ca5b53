"""Tidy 42: names each language writes its own way, and weekdays, months and numbers in
Arabic, Persian, Urdu and Hindi words, read by the embedder's anchored floor
(``ops/tidy/exonyms.py``; ``bench/_tidy42.py``, ``docs/lifecycle.md`` "tidy 42").

The rewordings below are written after fresh10-17's dev misses (not copied), each with
another subject and value: on main they were kept apart ("Norway" / "Norge" read as two
names, "جمعرات" as no weekday, so no value carried the pair). The cosine is given by
hand, between the anchored floor and tidy 18's 0.925 for two languages; offline
nothing changes."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.exonyms import other_places, place, places, values
from mnemic.ops.tidy.thresholds import THRESHOLDS

BETWEEN = (THRESHOLDS.meaning_cosine_anchored + THRESHOLDS.meaning_cosine_across) / 2
"""A cosine the anchored floor joins and tidy 18's gate does not."""

REWORDINGS = [
    # a country by its own name
    ("The Nordic Star is registered in Norway but fishes out of Lerwick",
     "Nordic Star er registrert i Norge, men fisker fra Lerwick"),
    # a language by its own name, in lower case
    ("Marek translates tenancy contracts for the Hamburg housing office into Polish",
     "Marek tłumaczy na polski umowy najmu dla urzędu mieszkaniowego w Hamburgu"),
    # a language's name in Turkish with its ending
    ("The office translates school letters into Turkish for the Hansa parents' group",
     "Büro, Hansa veli grubu için okul mektuplarını Türkçeye çeviriyor"),
    # a city by its Arabic name
    ("Samir from the B2 class is a dentist from Aleppo",
     "سمير من صف B2 طبيب أسنان من حلب"),
    # Czech's own name in a case ending
    ("The Czech Centre's Steinway is tuned before every concert",
     "Steinway v Českém centru se ladí před každým koncertem"),
]  # fmt: skip
DATES = [
    # an Urdu weekday
    ("Zara goes to the swimming club on Thursdays", "زارا جمعرات کو سوئمنگ کلب جاتی ہے"),
    # a Persian month
    ("Reza renews the shop's insurance before the end of July",
     "رضا بیمه مغازه را پیش از پایان ژوئیه تمدید می‌کند"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), REWORDINGS + DATES)
def test_one_fact_with_a_name_or_date_each_language_writes_its_own_way_is_merged(
    a: str, b: str
) -> None:
    """Failed on main (no proposal): the name or date was read on one side only."""
    for learned in (False, True):
        [p] = planned(a, b, BETWEEN, learned=learned)
        assert p.kind == "merge" and set(p.entries) == {a, b}


HONEST = [
    # another country, another feast, another weekday, another month: no value carries them
    ("The Nordic Star is registered in Norway but fishes out of Lerwick",
     "Nordic Star är registrerad i Sverige men fiskar från Lerwick"),
    ("Marek translates tenancy contracts for the Hamburg housing office into Polish",
     "Marek tłumaczy na czeski umowy najmu dla urzędu mieszkaniowego w Hamburgu"),
    ("Tomas drives to Brno at Christmas to see his parents",
     "O Tomas vai de carro a Brno na Páscoa para visitar os pais"),
    ("Zara goes to the swimming club on Thursdays", "زارا جمعہ کو سوئمنگ کلب جاتی ہے"),
    ("Reza renews the shop's insurance before the end of July",
     "رضا بیمه مغازه را پیش از پایان ژوئن تمدید می‌کند"),
    ("Samir from the B2 class is a dentist from Aleppo",
     "سمير من صف B2 طبيب أسنان من دمشق"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), HONEST)
def test_another_place_feast_or_date_stays_apart(a: str, b: str) -> None:
    assert planned(a, b, BETWEEN) == []
    assert planned(a, b, BETWEEN, learned=True) == []


@pytest.mark.parametrize(("a", "b"), REWORDINGS + DATES + HONEST)
def test_offline_nothing_changes(a: str, b: str) -> None:
    """The readings are the embedder's: without a cosine these stay apart (HONEST[0],
    "Norway" / "Sverige", since tidy 43: see below)."""
    assert planned(a, b, None, learned=True) == []


OFFLINE_TWO_PLACES = [
    # tidy 42's finding: the offline pair model merged them ("shared:3")
    ("The Nordic Star is registered in Norway but fishes out of Lerwick",
     "Nordic Star är registrerad i Sverige men fiskar från Lerwick"),
    # a city in German, another city
    ("Lena's Steinway B is tuned in Munich by Klavierhaus Otto",
     "Lenas Steinway B wird in Prag von Klavierhaus Otto gestimmt"),
    # a city in Polish, in its locative case
    ("Lena's Steinway B is tuned in Munich by Klavierhaus Otto",
     "Steinway B Leny jest strojony w Pradze przez Klavierhaus Otto"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), OFFLINE_TWO_PLACES)
def test_offline_two_places_stay_apart(a: str, b: str) -> None:
    """Tidy 43 (issue 26): failed before it, each merged by the offline pair model (the
    rules alone proposed nothing); now its merge is vetoed when each side names a
    place the other does not write in its own language (:func:`other_places`)."""
    assert other_places(a, b)
    for learned in (False, True):
        assert planned(a, b, None, learned=learned) == []
        assert planned(a, b, BETWEEN, learned=learned) == []


OFFLINE_TWINS = [
    # the same country in two languages: the offline pair model merges it
    ("The Nordic Star is registered in Sweden but fishes out of Lerwick",
     "Nordic Star är registrerad i Sverige men fiskar från Lerwick"),
    # the rules merge these: one fact in two languages
    ("Pieter's company imports olive oil from Italy",
     "Het bedrijf van Pieter importeert olijfolie uit Italië"),
    ("Lukas flies to Warsaw for the trade fair in March",
     "Lukas fliegt im März zur Messe nach Warschau"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), OFFLINE_TWINS)
def test_offline_one_place_in_two_languages_still_merges(a: str, b: str) -> None:
    assert other_places(a, b) == ""
    [p] = planned(a, b, None, learned=True)
    assert p.kind == "merge" and set(p.entries) == {a, b}


def test_other_places_needs_a_place_on_each_side() -> None:
    assert other_places("User moved from Sweden to Norway", "User lives in Norway") == ""
    assert other_places("Trip to Prague in May", "Reise nach Prag im Mai") == ""
    assert other_places("Trip to Prague in May", "Reise nach Wien im Mai") == "'prague' / 'wien'"
    assert other_places("Natalie flies out on Monday", "Natalie fliegt am Montag") == ""


def test_a_place_by_its_names_and_endings() -> None:
    assert place("norge") == place("norway") == place("norges") >= 0
    assert place("polskiego") == place("polish") >= 0
    assert place("turkceye") == place("turkish") >= 0
    assert place("حلب") == place("aleppo") >= 0
    assert place("sverige") != place("norway")
    assert place("christmas") != place("pascoa")
    assert place("hamburg") == -1 and place("the") == -1
    # tidy 44: a country is not its language ("Spanish tour" / "gira por España" no
    # longer tie; "lived in Norway" / "snakker norsk" are two facts)
    assert places(("gira", "por", "espana")) == places(("spain",)) != places(("spanish",))


def test_dates_and_numbers_in_more_scripts() -> None:
    assert values("زارا جمعرات کو") == {"day 4"}
    assert values("پیش از پایان ژوئیه") == {"month 7"}
    assert values("निका शुक्रवार सुबह") == {"day 5"}
    assert values("بأكثر من ثلاثين يومًا") == {"30"}
    assert values("วันเสาร์ ร้าน") == {"day 6"}
    # Persian Tuesday is one word, not three and Saturday
    assert values("سه‌شنبه") == {"day 2"}
    assert values("Zara goes on Thursdays") == frozenset()
