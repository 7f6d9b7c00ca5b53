"""Tidy 30: updates as new hands write them. An event the newer entry says was moved to
another date (postponed, brought forward, rescheduled) is superseded, the newer kept; one
amount written with a currency's sign and a decimal, or in two groups of digits
(thousands, a range), that changed; a new value said with since when in words of its
own; a role's holder said with "our" or with the holder's firm (most pairs were left
apart before tidy 30; a few of the moved dates were read by an update marker already).
Their honest twins (another event, a one-off change beside a habit, a reason of its
own, a list of numbered things, a version, a condition, someone else's role, another
role) stay apart."""

from __future__ import annotations

import pytest

from _tidy_pairs import verdict
from mnemic.ops.tidy.holders import holder_swap
from mnemic.ops.tidy.rescheduling import rescheduled
from mnemic.ops.tidy.signals import profile
from mnemic.ops.tidy.since import since_words


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Lena's knee MRI at the clinic is on 4 May", "The knee MRI was postponed to 18 May"),
        (
            "The parents' evening is on 9 March",
            "The parents' evening was brought forward to 2 March",
        ),
        (
            "Der Zahnarzttermin von Jonas ist am 3. Juni",
            "Der Zahnarzttermin ist auf den 10. Juni verschoben",
        ),
        (
            "La revisión de la caldera es el 12 de abril",
            "La revisión de la caldera se ha aplazado al 26 de abril",
        ),
        (
            "Le contrôle technique de la voiture est le 5 juin",
            "Le contrôle technique est reporté au 19 juin",
        ),
        (
            "La riunione di condominio è il 7 ottobre",
            "La riunione di condominio è stata rinviata al 21 ottobre",
        ),
        (
            "A consulta de pediatria é a 3 de julho",
            "A consulta de pediatria foi adiada para 17 de julho",
        ),
        (
            "De jaarvergadering van de club is op 14 november",
            "De jaarvergadering van de club is uitgesteld tot 28 november",
        ),
        ("Egzamin z chemii jest 15 czerwca", "Egzamin z chemii przełożono na 22 czerwca"),
        ("Собрание жильцов в четверг", "Собрание жильцов перенесли на понедельник"),
        ("Yoga with Priya is on Tuesdays", "Yoga with Priya was rescheduled to Thursdays"),
        ("The boiler service is at 9:00 on Friday", "The boiler service was moved to 14:00"),
    ],
)  # fmt: skip
def test_an_event_the_newer_entry_says_was_moved_is_an_update(a: str, b: str) -> None:
    assert rescheduled(profile(a), profile(b)) is not None
    assert verdict(a, b) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # another event on another date
        ("The knee MRI is on 4 May", "The dental check-up was postponed to 18 May"),
        ("Egzamin z chemii jest 15 czerwca", "Egzamin z fizyki przełożono na 22 czerwca"),
        # another meeting: a compound with a word of its own
        ("Die Teamsitzung ist montags", "Die Vorstandssitzung wurde auf Mittwoch vorverlegt"),
        ("The team meeting is on Mondays", "The board meeting was brought forward to Friday"),
        # a reason of its own
        (
            "The bin collection is on Tuesday",
            "Because of the bank holiday the bin collection is delayed to Wednesday",
        ),
        # no new date: postponed, but not to when
        ("The knee MRI is on 4 May", "The knee MRI was postponed"),
        # another person's appointment
        ("Lena's knee MRI is on 4 May", "Tom's knee MRI was postponed to 18 May"),
    ],
)  # fmt: skip
def test_a_moved_date_of_another_event_is_not_an_update(a: str, b: str) -> None:
    assert rescheduled(profile(a), profile(b)) is None
    assert rescheduled(profile(b), profile(a)) is None
    assert verdict(a, b) != "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The lunch menu is $9", "The lunch menu is $10.50"),
        (
            "Le loyer du garage est 12 400 euros par an",
            "Le loyer du garage est 13 100 euros par an",
        ),
        ("Членский взнос клуба 4 500 рублей", "Членский взнос клуба 5 200 рублей"),
        ("Die Bibliothek ist samstags 10–13 offen", "Die Bibliothek ist samstags 9–14 offen"),
    ],
)
def test_one_amount_written_with_a_sign_or_in_two_groups_that_changed_is_an_update(
    a: str, b: str
) -> None:
    assert verdict(a, b) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a one-off change beside a habit: a date beside a weekday
        (
            "Choir practice is every Wednesday",
            "Choir practice on 24 December was moved to 23 December",
        ),
        # a span of its own
        ("Swimming lessons are on Saturdays", "Swimming lessons are moved to Sunday this week"),
    ],
)  # fmt: skip
def test_a_one_off_move_is_not_read_as_a_moved_date(a: str, b: str) -> None:
    # other rules read these pairs as before (a slot that differs, "moved" as a marker);
    # the moved-date rule itself leaves them
    assert rescheduled(profile(a), profile(b)) is None
    assert rescheduled(profile(b), profile(a)) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # numbered subjects: a label and a value change together
        ("Service 19 listens on port 8019", "Service 20 listens on port 8020"),
        ("Rooms 12-14 are on the second floor", "Room 15 is on the third floor"),
        # a version, no sign nor unit
        ("The server runs Python 3", "The server runs Python 3.12"),
        # two amounts of two things
        ("The lunch menu is $9", "The dinner menu is $10.50"),
    ],
)
def test_two_numbered_things_or_a_version_are_not_one_amount_changed(a: str, b: str) -> None:
    assert verdict(a, b) != "supersede"


def test_a_sign_before_the_amount_is_its_unit_only_on_both_sides() -> None:
    # one side with a sign, the other with none: no one unit, no verdict of one amount
    assert verdict("The lunch menu is $9", "The lunch menu is 10.50") == "none"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "The community hall seats 80",
            "The community hall seats 110 since the extension opened",
        ),
        ("Der Chor hat 40 Mitglieder", "Seit der Fusion mit Eichwalde hat der Chor 65 Mitglieder"),
        (
            "Абонемент у басейн коштує 600 гривень",
            "З цього року абонемент у басейн коштує 750 гривень",
        ),
        (
            "La scuola elementare ci paga 300 euro a spettacolo",
            "Quest'anno la scuola elementare ci paga 350 euro a spettacolo",
        ),
        ("Kahvi maksaa kahvilassa 3 euroa", "Tammikuusta lähtien kahvi maksaa kahvilassa 4 euroa"),
    ],
)  # fmt: skip
def test_a_new_value_said_with_since_when_in_words_of_its_own_is_an_update(a: str, b: str) -> None:
    assert since_words(profile(b).folded, profile(b).words - profile(a).words)
    assert verdict(a, b) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a condition, not since when
        ("Dad takes 5 mg in the morning", "Dad takes 10 mg after the evening meal"),
        # another subject besides the phrase
        ("The main hall seats 90", "The studio seats 40 since the refit"),
        # "з" (with) before no relative time: a companion, not since when
        ("Оля бігає по 5 км щоранку", "Андрій бігає по 10 км з братом"),
    ],
)
def test_a_phrase_that_says_no_since_when_keeps_two_facts_apart(a: str, b: str) -> None:
    assert verdict(a, b) == "none"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # "our X" and "the X": one role in the notes the user keeps
        ("Unser Hausarzt ist Dr. Weber", "Der Hausarzt ist Dr. Braun"),
        ("Notre plombier est M. Dubois", "Le plombier est M. Garnier"),
        # the holder's firm said after the name
        (
            "The club's vet is Dr Lowe at Westgate Vets",
            "The club's vet is Dr Okoro at Riverside Animal Clinic",
        ),
    ],
)
def test_a_holder_said_with_our_or_with_the_firm_is_an_update(a: str, b: str) -> None:
    assert holder_swap(profile(a), profile(b)) is not None
    assert verdict(a, b) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # someone else's role: "their" is not "our"
        ("Their GP is Dr Weber", "Our GP is Dr Braun"),
        # the same name: the same holder, who moved firm (not a new holder)
        (
            "The club's vet is Dr Lowe at Westgate Vets",
            "The club's vet is Dr Lowe at Riverside Vets",
        ),
        # another role (a paediatrician beside the GP)
        ("Unser Hausarzt ist Dr. Weber", "Unsere Kinderärztin ist Dr. Braun"),
    ],
)  # fmt: skip
def test_a_holder_said_with_our_or_a_firm_has_honest_twins(a: str, b: str) -> None:
    assert holder_swap(profile(a), profile(b)) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "Mia è iscritta al corso di ceramica di marzo",
            "Mia ha disdetto l'iscrizione al corso di ceramica di marzo",
        ),
        (
            "Jonas ist Mitglied im Fitnessstudio am Markt",
            "Jonas hat die Mitgliedschaft im Fitnessstudio am Markt gekündigt",
        ),
        (
            "Sanne heeft een abonnement op de sportschool in Delft",
            "Sanne heeft het abonnement op de sportschool in Delft opgezegd",
        ),
    ],
)
def test_a_booking_or_membership_called_off_is_an_update(a: str, b: str) -> None:
    assert verdict(a, b) == "supersede"


def test_another_course_called_off_stays_apart() -> None:
    a = "Mia è iscritta al corso di ceramica di marzo"
    b = "Mia ha disdetto l'iscrizione al corso di yoga di marzo"
    assert verdict(a, b) == "none"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "Mila is collected from the childminder at 5 on Mondays",
            "Mila is collected from the childminder at 5:45 on Mondays",
        ),
        ("Der Yogakurs beginnt dienstags um 18", "Der Yogakurs beginnt dienstags um 18.30"),
    ],
)
def test_a_whole_hour_and_a_time_with_minutes_are_one_time_changed(a: str, b: str) -> None:
    assert verdict(a, b) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # another subject
        ("The shop opens at 9 on Saturdays", "The bakery opens at 9:30 on Saturdays"),
        # no hour of the day
        ("The boiler pressure is set at 30", "The boiler pressure is set at 30.5"),
    ],
)
def test_a_time_of_another_thing_or_no_time_is_not_one_time_changed(a: str, b: str) -> None:
    assert verdict(a, b) == "none"
