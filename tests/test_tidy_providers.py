"""Tidy 26: updates with no marker, the same role with another named value. The one
provider a service or function goes through ("card payments go *through* SumUp",
"broadband *is with* BT", "the vineyard *banks with* Abanca", :mod:`mnemic.ops.tidy.attributes`,
kind ``provider``) and the place one lives or a firm sits, said with more verbs (plural
subjects, Swedish and Danish "bor i", Czech, Ukrainian, Dutch "zit in", "tem sede");
each with the honest look-alikes that stay apart: two devices a user owns, two banks for
two purposes, a list, a trip, two people, two subjects."""

from __future__ import annotations

import pytest

from _tidy_pairs import verdict


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # each was left apart before: no marker, one provider named in its place
        (
            "Card payments at the stall go through a SumUp reader",
            "Card payments at the stall go through a Zettle reader",
        ),
        ("Broadband is with BT", "Broadband is with Virgin Media"),
        ("The vineyard banks with Abanca", "The vineyard banks with Banco Sabadell"),
        ("The horse is insured with NFU Mutual", "The horse is insured with Petplan Equine"),
        (
            "Export paperwork goes through the freight forwarder Transgalicia",
            "Export paperwork goes through the freight forwarder Kuehne+Nagel",
        ),
        ("Die Hausratversicherung ist bei der HUK", "Die Hausratversicherung ist bei der Allianz"),
        ("Die Buchhaltung läuft über Lexoffice", "Die Buchhaltung läuft über sevDesk"),
        ("La chorale communique par WhatsApp", "La chorale communique par Signal"),
        ("Paczki wysyłamy przez InPost", "Paczki wysyłamy przez DPD"),
        ("Команда собирает проект через Jenkins", "Команда собирает проект через GitLab CI"),
        ("Elavtalet är med Vattenfall", "Elavtalet är med Tibber"),
        ("Tensiunea o măsoară cu aparatul Omron", "Tensiunea o măsoară cu aparatul Beurer"),
        ("Ze maakt foto's met haar Canon", "Ze maakt foto's met haar iPhone"),
        ("Rui pays for fuel with the DKV card", "Rui pays for fuel with the Shell card"),
        # a model's number ending the entry is part of its name
        ("User tracks runs with a Garmin Forerunner 255", "User tracks runs with a Coros Pace 3"),
        ("The CI pipelines run on Jenkins", "The CI pipelines run on GitHub Actions"),
    ],
)
def test_one_provider_of_a_service(old: str, new: str) -> None:
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # with, mit, con... before a bare name or a definite plural: companions
        ("User plays tennis with Marco", "User plays tennis with Luca"),
        ("User goes hiking with the Smiths", "User goes hiking with the Joneses"),
        ("User goes climbing with his brother", "User goes climbing with his cousin"),
        # two banks for two purposes, two accounts of two things: two places changed
        ("User banks with Monzo for daily spending", "User banks with Barclays for the mortgage"),
        (
            "Rent for Elm Road goes into the Nationwide account",
            "Rent for Park Lane goes into the Barclays account",
        ),
        # two devices a user owns, a list, one more provider
        ("User has a MacBook", "User has an iPad"),
        ("User has a subscription to Netflix", "User has a subscription to Spotify"),
        ("The team uses GitLab", "The team uses Sentry"),
        ("Card payments go through SumUp", "Card payments also go through Zettle"),
        # no provider named; another amount with it; two subjects
        ("User pays through the app", "User pays through the bank"),
        ("Phone plan is with EE, 30 GB", "Phone plan is with Vodafone, 50 GB"),
        ("Till 1 takes card payments through SumUp", "Till 2 takes card payments through Zettle"),
        # the user said alone before a provider word
        ("User is with Anna", "User is with Ben"),
        # a route passes several places: a list of stops, not a provider
        ("The night train passes through Lyon", "The night train passes through Dijon"),
        ("Le car passe par Lyon", "Le car passe par Dijon"),
        # "via" naming a street, not a means
        ("Il magazzino è in via Roma", "Il magazzino è in via Garibaldi"),
    ],
)
def test_two_providers_that_may_both_hold_stay_apart(old: str, new: str) -> None:
    assert verdict(old, new) == "none"


def test_the_later_written_provider_is_kept() -> None:
    # the same rule reads both orders: the later written is kept, as for every swap
    assert verdict("Broadband is with Virgin Media", "Broadband is with BT") == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # each was left apart before: the verb of living or sitting was not read
        ("Die Enkel wohnen in Köln", "Die Enkel wohnen in Hamburg"),
        ("Ellie and Oscar live in Leeds", "Ellie and Oscar live in Bristol"),
        ("Användarens mamma bor i Umeå", "Användarens mamma bor i Luleå"),
        ("Marthas veninde Sofie bor i Aarhus", "Marthas veninde Sofie bor i Odense"),
        ("Babička bydlí v Olomouci", "Babička bydlí v Přerově"),
        ("Сестра Марти живе у Львові", "Сестра Марти живе в Києві"),
        ("De dierenarts zit in Zwolle", "De dierenarts zit in Kampen"),
        ("A Construtora Lima tem sede no Porto", "A Construtora Lima tem sede em Coimbra"),
    ],
)
def test_one_place_one_lives_or_sits(old: str, new: str) -> None:
    assert verdict(old, new) == "supersede"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User flies to Lisbon", "User flies to Porto"),  # two trips
        ("Die Enkel wohnen in Köln", "Die Eltern wohnen in Köln"),  # two people, one place
        ("Die Enkel wohnen in Köln", "Die Eltern wohnen in Hamburg"),
        ("Användarens mamma bor i Umeå", "Användarens syster bor i Luleå"),
        ("User lives in a flat", "User lives in London"),  # two kinds of value
        ("De gebruiker zit in een koor", "De gebruiker zit in Utrecht"),  # the user alone
    ],
)
def test_two_places_of_two_subjects_stay_apart(old: str, new: str) -> None:
    assert verdict(old, new) == "none"
