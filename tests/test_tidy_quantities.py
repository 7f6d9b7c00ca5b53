"""Tidy 17: what two entries in different units, formats or scripts share, read without
a translator (:mod:`mnemic.ops.tidy.quantities`), and the pair model's version 2
features built on it (:func:`mnemic.ops.tidy.pairmodel.features`)."""

from __future__ import annotations

import pytest

from mnemic.ops.tidy.pairmodel import features
from mnemic.ops.tidy.quantities import close, latin, quantities, same_name
from mnemic.ops.tidy.signals import compare, profile


@pytest.mark.parametrize(
    ("a", "b", "dim"),
    [
        ("User weighs 80 kg", "User weighs 176 lb", "mass"),
        ("The sauna is kept at 80 °C", "The sauna is kept at 176°F", "temperature"),
        ("User runs 5 km on Sundays", "User runs about three miles on Sundays", "distance"),
        ("The tank holds 20 litres", "The tank holds 5.3 gallons", "volume"),
        ("Standup is at 7pm", "Standup is at 19:00", "clock"),
        ("Standup is at 7 p.m.", "Das Standup ist um 19 Uhr", "clock"),
        ("Rent is due 2026-03-05", "Rent is due on 5 March", "date"),
        ("Rent is due March 5th", "房租3月5日到期", "date"),
        ("Der Termin ist am 5. März", "El turno es el 5 de marzo", "date"),
        ("Zwei Kilo Mehl", "2 kg of flour", "mass"),
    ],
)  # fmt: skip
def test_one_amount_in_two_units_or_formats_is_read_as_one(a: str, b: str, dim: str) -> None:
    qa, qb = quantities(a), quantities(b)
    assert dim in qa and dim in qb, (qa, qb)
    assert close(qa[dim], qb[dim])


def test_other_amounts_stay_other_and_a_number_is_no_time() -> None:
    assert not close(
        quantities("User weighs 80 kg")["mass"], quantities("User weighs 80 lb")["mass"]
    )
    assert not close(quantities("Standup at 7am")["clock"], quantities("Standup at 19:00")["clock"])
    assert quantities("Python version 3.12") == {}
    assert quantities("Room 204") == {}
    # a day-first or month-first date: both readings, so either writer's date matches
    assert quantities("Due 05/03/2026")["date"] == {305, 503}


def test_names_across_scripts_are_matched_in_latin_letters() -> None:
    assert latin("берлин") == "berlin"
    assert latin("αθήνα") == "athina"
    assert latin("são") == "sao"
    assert same_name(latin("москва"), "moskau")
    assert not same_name(latin("мюнхен"), "munchen")  # opening letters differ: no guess
    assert latin("東京") == "東京"  # another script comes back as it was


def _names(a: str, b: str, version: int = 2) -> list[str]:
    pa, pb = profile(a), profile(b)
    return features(pa, pb, compare(pa, pb), "none", None, version)


def test_version_2_features_say_what_a_conversion_or_a_script_shares() -> None:
    f = _names("User weighs 80 kg", "User weighs 176 lb")
    assert "q:mass:same" in f and "q:converted" in f
    f = _names("User weighs 80 kg", "User weighs 95 kg")
    assert "q:mass:differ" in f and "q:converted" not in f
    f = _names("Пользователь живёт в Берлине", "The user lives in Berlin")
    assert "script:differ" in f and "xs:name:1" in f
    f = _names("User has two cats", "User has 2 cats")
    assert "nw:same" in f
    # version 1 (tidy 15's model, the baseline in tidy 17's loop) has none of them
    assert not [n for n in _names("User weighs 80 kg", "User weighs 176 lb", 1)
                if n.startswith(("q:", "nw:", "xs:"))]  # fmt: skip


def test_two_languages_in_latin_letters_are_told_apart_and_weighed_with_what_they_share() -> None:
    from mnemic.ops.tidy.quantities import language

    assert language("The user lives in Berlin") == "en"
    assert language("Der Nutzer wohnt in Berlin") == "de"
    assert language("El usuario vive en Berlín") == "es"
    assert language("Ines") == ""  # no function word: no guess
    f = _names("The user's flight lands at 7pm", "Der Flug des Nutzers landet um 19 Uhr")
    assert "lang:differ" in f and "q:clock:same" in f and "lang:differ&q:converted" in f
