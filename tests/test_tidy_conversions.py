"""Tidy 23: one fact said in other units or formats (:mod:`mnemic.ops.tidy.conversions`)
is merged (each pair was left apart before tidy 23); its honest twins (another value,
another number or name, a time that may be morning or evening, a negation) stay apart."""

from __future__ import annotations

import pytest

from _tidy_pairs import pair_kind
from mnemic.ops.tidy.numerals import digits
from mnemic.ops.tidy.quantities import close, quantities, reading


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
    assert pair_kind(a, b) == "merge"


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
    assert pair_kind(a, b) != "merge"


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
    assert pair_kind(a, b) == "merge"


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
    assert pair_kind(a, b) != "merge"


# Tidy 24: more units, durations and amounts in words (each pair left apart before)
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The car's tyre pressure should be 2.3 bar", "The car's tyre pressure should be 33 psi"),
        ("The chest freezer draws 0.9 kWh a day", "The chest freezer draws 900 Wh a day"),
        ("The water tank holds 1.6 m³", "The water tank holds 1,600 litres"),
        ("The ferry cruises at 20 knots", "The ferry cruises at 37 km/h"),
        ("The speed limit on the bypass is 50 mph", "The speed limit on the bypass is 80 km/h"),
        ("Grandpa weighs 12 stone", "Grandpa weighs 76 kg"),
        ("Allure seuil : 4 min 40 au kilomètre", "Allure seuil : 7:31 par mile"),
        ("Backups are kept for 90 days", "Backups are kept for three months"),
        ("The warranty covers a fortnight", "The warranty covers 14 days"),
        ("The plank challenge lasts 1.5 h", "The plank challenge lasts 90 min"),
        ("The pond is half a mile from the barn", "The pond is 800 m from the barn"),
        ("Biscuit weighs 4.5 kg", "Biscuit weighs four and a half kilos"),
        ("Die Miete beträgt 1.450 Euro", "Die Miete beträgt eintausendvierhundertfünfzig Euro"),
        ("Der Stundensatz beträgt 95 Euro", "Der Stundensatz beträgt fünfundneunzig Euro"),
        ("The loan is $412 a month", "The loan is four hundred and twelve dollars a month"),
        ("O alvará custa R$ 1.200 por ano", "O alvará custa mil e duzentos reais por ano"),
        ("El alquiler es de 350 euros", "El alquiler es de trescientos cincuenta euros"),
        ("Dana takes 3 mg of melatonin", "Dana takes ٣ mg of melatonin"),
        # the words of an amount as written are no subject ("litrů", "min ... au kilomètre")
        ("Čerpadlo: 1 600 litrů", "Čerpadlo hasičů: 1,6 m³"),
        # a unit of time where no duration is read is part of the subject (merged before
        # too: a guard for durations' words)
        ("Ana swims 2 km three times a week", "Ana swims 2000 metres three times a week"),
    ],
)  # fmt: skip
def test_more_units_durations_and_amounts_in_words_are_merged(a: str, b: str) -> None:
    assert pair_kind(a, b) == "merge"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The car's tyre pressure should be 2.3 bar", "The car's tyre pressure should be 36 psi"),
        ("The ferry cruises at 20 knots", "The ferry cruises at 20 km/h"),
        ("Backups are kept for 3 months", "Backups are kept for 3 weeks"),
        ("The warranty covers a fortnight", "The warranty covers 7 days"),
        ("The pond is half a mile from the barn", "The pond is 500 m from the barn"),
        ("Der Stundensatz beträgt 95 Euro", "Der Stundensatz beträgt fünfundachtzig Euro"),
        ("The loan is $412 a month", "The loan is four hundred and two dollars a month"),
        # two amounts joined by "and" are two numbers, not one
        ("Tom has three and Ana four kids", "Tom has 7 kids"),
        ("Dana takes 3 mg of melatonin", "Dana takes ٥ mg of melatonin"),
        # a time of day said with hours is no duration
        ("The meeting is at 10 heures", "The meeting lasts 600 minutes"),
        ("La réunion est à 10 heures", "La réunion dure 600 minutes"),
    ],
)  # fmt: skip
def test_their_honest_twins_are_not_merged(a: str, b: str) -> None:
    assert pair_kind(a, b) != "merge"


def test_more_units_durations_and_words_are_read() -> None:
    assert quantities("2.3 bar")["pressure"] == quantities("33.4 psi")["pressure"] or close(
        quantities("2.3 bar")["pressure"], quantities("33.4 psi")["pressure"]
    )
    assert quantities("0.9 kWh") == quantities("900 Wh")
    assert quantities("1.6 m³")["volume"] == {1600.0}
    assert quantities("a fortnight") == quantities("14 days") == {"duration": {14 * 1440.0}}
    assert quantities("1.5 h") == quantities("90 min")
    assert quantities("à 16h")["clock"] == {960.0}  # a time of day stays one
    assert digits("fünfundneunzig euro") == "95 euro"
    assert digits("zweihundertfünfzig gäste") == "250 gäste"
    assert digits("mil e duzentos reais") == "1200 reais"
    assert digits("treinta y dos") == "32"
    assert digits("three and four") == "3 and 4"
    assert digits("٣ ३ ๓ ௩") == "3 3 3 3"
    # a word made of number words' pieces and others is no number
    assert digits("achtung dreieck") == "achtung dreieck"
