"""Tidy 23: one fact said in other units or formats (:mod:`mnemic.ops.tidy.conversions`)
is merged (each pair was left apart before tidy 23); its honest twins (another value,
another number or name, a time that may be morning or evening, a negation) stay apart."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.quantities import quantities, reading


def _kind(a: str, b: str) -> str:
    found = [p for p in planned(a, b) if set(p.entries) == {a, b}]
    return found[0].kind if found else "none"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The cat weighs 4 kg", "The cat weighs about 8.8 lb"),
        ("The long run on Sunday is 32 km", "Sunday's long run: about 20 miles"),
        ("Easy pace is 6:00 per km", "Easy pace is 9:39 per mile"),
        ("Parcel 7 yielded 4,500 kg of Garnacha", "Parcel 7 gave about 9,920 lb of Garnacha"),
        ("Crianza costs importers €72 a case", "Importers pay seventy-two euros a case of Crianza"),
        ("Die Lieferung wiegt 2,5 t", "Die Lieferung wiegt 2.500 kg"),
        ("Le fût contient 2 hl", "Le fût contient 200 litres"),
        ("La carrera empieza a las 19:00", "La carrera empieza a las 7 pm"),
        ("С поля собрали 2,1 тонны винограда", "С поля собрали 2100 кг винограда"),
        ("The tasting is on 2027-03-14", "The tasting is on 14 March 2027"),
        ("The customs fee was CHF 1,200", "The customs fee was 1200 Swiss francs"),
    ],
)  # fmt: skip
def test_one_fact_in_other_units_or_formats_is_merged(a: str, b: str) -> None:
    assert _kind(a, b) == "merge"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # another value: two races, two sums in one currency
        ("The 10 km race is on Sunday", "The 10 mi race is on Sunday"),
        ("The pension is 1.200 €", "The pension is 1.235 €"),
        # another number or name beside the converted one: two parcels, two tastings
        ("Parcel 4 yielded 6,200 kg of Cabernet", "Parcel 5 yielded about 13,670 lb of Cabernet"),
        ("The Oslo importer pays €72 a case", "The Bergen importer pays seventy-two euros a case"),
        ("The Oslo tasting is at 15:00", "The Bergen tasting is at 3 pm"),
        # a time that may be morning or evening is no evidence
        ("Handover is at 7:30", "Handover is at 7:30 pm"),
        # a negation, another predicate of the same amount
        ("The van can carry 2 t", "The van cannot carry 2000 kg"),
        ("Day shift starts at 07:00", "Night shift ends at 7 pm"),
    ],
)  # fmt: skip
def test_its_honest_twins_are_not_merged(a: str, b: str) -> None:
    assert _kind(a, b) != "merge"


def test_thousands_tonnes_hectolitres_areas_paces_and_money_are_read() -> None:
    assert quantities("6,200 kg") == quantities("6200 kg") == {"mass": {6200.0}}
    assert quantities("2.000 Liter")["volume"] == quantities("20 hl")["volume"] == {2000.0}
    assert quantities("3,5 t")["mass"] == {3500.0}
    assert quantities("2.5 ha")["area"] == quantities("25,000 m²")["area"]
    assert quantities("6:00 per km")["pace"] == {360.0}
    assert quantities("€96") == quantities("ninety-six euros") == {"money:EUR": {96.0}}
    # a decimal comma or point and a number with no unit stay as they were
    assert quantities("1,5 kg")["mass"] == {1.5} and quantities("Room 204") == {}
    # "07:30" is a 24-hour clock; "7:30" may be morning or evening
    assert quantities("at 07:30")["clock"] == {450.0}
    assert quantities("at 7:30")["clock"] == {450.0, 1170.0}
    assert reading("Parcel 4 yielded 6,200 kg").rest == ("4",)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The new charge nurse is Svetlana Petrova", "Новая старшая медсестра — Светлана Петрова"),
        (
            "El importador Bodega Marín recibe la factura por email",
            "Bodega Marín gets the invoice by email",
        ),
        ("Tomasz Nowak brings the barrels on 14 May", "Tomasz Nowak livre les barriques le 14 mai"),
    ],
)  # fmt: skip
def test_one_fact_in_two_languages_with_its_names_and_numbers_is_merged(a: str, b: str) -> None:
    assert _kind(a, b) == "merge"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # another person, another place, another number: two facts in two languages
        ("Lolo Ramos is a retired teacher", "Lola Ramos ist eine pensionierte Lehrerin"),
        ("The Oslo tasting is on Friday with Ingrid", "La cata de Bergen con Ingrid es el viernes"),
        ("Bodega Marín pays 30 days after delivery", "Bodega Marín paga a 60 días"),
        # a name alone carries too little of the fact
        ("Grace leads the Swahili songs", "Grace anaongoza nyimbo za Kiswahili kwaya"),
    ],
)  # fmt: skip
def test_two_facts_in_two_languages_are_not_merged(a: str, b: str) -> None:
    assert _kind(a, b) != "merge"
