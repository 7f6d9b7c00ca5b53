"""Tidy 27: one fact said in two languages, read by its attribute
(:mod:`mnemic.ops.tidy.across`), is merged, and another named value of a one-value
attribute in another language supersedes (each pair was left apart before tidy 27); the
honest twins (a list's other value, two people, another number, two attributes, a place
spelled in each language, one language) stay apart before and after."""

from __future__ import annotations

import pytest

from _tidy_pairs import pair_kind, verdict
from mnemic.ops.tidy.across import concepts, two_languages_loose
from mnemic.ops.tidy.signals import profile


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # an attribute of one value and a number or a name said twice
        ("User's rent is 900 euros a month", "L'affitto dell'utente è di 900 euro al mese"),
        ("The dog's vet is Dr. Haugen in Bergen", "Hundens veterinär är doktor Haugen i Bergen"),
        ("Acme's contact is Ms Lena Vogt", "La personne de contact chez Acme est Mme Lena Vogt"),
        # a list attribute: the subject and what the list holds, both said
        ("User is allergic to penicillin", "Kullanıcı penisiline alerjik"),
        ("User is allergic to penicillin", "Der Nutzer ist allergisch gegen Penicillin"),
        ("Maya is allergic to amoxicillin", "Maya es alérgica a la amoxicilina"),
        ("User takes 10 mg atorvastatin", "Пользователь принимает 10 мг аторвастатина"),
        # a date with its month in the other language's word
        ("User flies to Porto on 3 June", "Użytkownik leci do Porto 3 czerwca"),
        # no attribute: names, numbers and days carry it (tidy 23's rule, read anew)
        ("Tomek does the ordering on Friday mornings", "Tomek robi zamówienia w piątki rano"),
        ("Ines fills up at the Shell station in Minsk", "Инес заправляется на Shell в Минске"),
    ],
)  # fmt: skip
def test_one_fact_in_two_languages_by_its_attribute_is_merged(a: str, b: str) -> None:
    assert pair_kind(a, b) == "merge"


def test_another_named_value_in_another_language_supersedes() -> None:
    old, new = "Acme's contact is Lena Vogt", "Le contact chez Acme est Paul Girard"
    assert verdict(old, new) == "supersede"
    old, new = "User's insurer is ADMIRAL", "Die Versicherung des Nutzers ist die DEVK"
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a list's other value: what one is allergic to is not said twice
        ("Maya is allergic to peanuts", "Maya ist gegen Penicillin allergisch"),
        # two people
        ("Ellie is allergic to amoxicillin", "Oscar es alérgico a la amoxicilina"),
        # another number, another month
        ("User's rent is 900 euros a month", "El alquiler del usuario es de 950 euros al mes"),
        ("User flies to Porto on 3 June", "Użytkownik leci do Porto 3 lipca"),
        # two attributes: a vet and a doctor, rent and where one lives
        ("The dog's vet is Dr. Haugen", "Le médecin de l'utilisateur est le docteur Haugen"),
        ("User's rent is 900 euros a month", "L'utente abita a Roma da 900 giorni"),
        # another day; a German noun that may be a name, with no attribute to read
        ("Tomek does the ordering on Friday mornings", "Tomek robi zamówienia w soboty rano"),
        ("The family van is a grey Ford Transit", "Unser Familienbus ist ein roter Ford Transit"),
        # "also": two facts
        ("Maya is allergic to amoxicillin", "Maya también es alérgica a la amoxicilina"),
    ],
)  # fmt: skip
def test_its_honest_twins_are_not_merged(a: str, b: str) -> None:
    assert pair_kind(a, b) != "merge"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a place has a name in each language: never two values
        ("User lives in Munich", "Der Nutzer wohnt in München"),
        ("User's school is in Warsaw", "Szkoła użytkownika jest w Warszawie"),
        # a list holds two values
        ("User speaks Polish", "L'utilisateur parle espagnol"),
        # no subject both name
        ("Acme's contact is Lena Vogt", "Le contact chez Globex est Paul Girard"),
        # one language: the rules of one language judge it
        ("Acme's contact is Lena Vogt", "Acme's contact person is a friend of Paul Girard"),
    ],
)  # fmt: skip
def test_no_other_value_is_read_where_the_values_may_be_one(a: str, b: str) -> None:
    assert pair_kind(a, b) != "supersede"


def test_two_languages_and_concepts_are_read() -> None:
    assert two_languages_loose(profile("The farrier is Tom Aske"), profile("Kovářem je Tom Aske"))
    assert not two_languages_loose(profile("Dan works at Acme"), profile("Dan works at Globex"))
    assert concepts("Kullanıcı penisiline alerjik") == concepts("User is allergic to it")
    assert concepts("Die Autoversicherung läuft bei der DEVK") == {"insurance"}
    assert "flies" not in concepts("allergic to fly spray")
