"""Tidy 29: a plan the newer entry says was called off, and an activity it says is "no
longer" done, are superseded, the newer kept (each pair was left apart, or merged,
before tidy 29); their honest twins (two trips to one place on two dates, another
class, another person, a plan beside its result, an older entry itself cancelled) stay
apart, before and after."""

from __future__ import annotations

import pytest

from _tidy_pairs import verdict
from mnemic.ops.tidy.cancelling import cancelled, reached
from mnemic.ops.tidy.signals import profile


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ausflug nach Bamberg am Samstag", "Der Ausflug nach Bamberg am Samstag fällt aus"),
        ("Maria flies to Lyon on 3 April", "Maria cancelled the trip to Lyon on 3 April"),
        ("Team offsite in Ghent next Thursday", "The Ghent offsite next Thursday is off"),
        ("Wir fahren im Juli nach Rügen", "Die Rügen-Reise im Juli ist abgesagt"),
        ("Zahnarzttermin am 9. Oktober", "Der Zahnarzttermin am 9. Oktober fällt aus"),
        (
            "Concierto del coro en Toledo el 5 de mayo",
            "Se cancela el concierto de Toledo del 5 de mayo",
        ),
        (
            "Sortie au Louvre avec la classe mercredi",
            "La sortie au Louvre de mercredi est annulée par le musée",
        ),
        ("Gita a Siena con la classe a marzo", "La gita a Siena di marzo è stata annullata"),
        ("We gaan in juni naar Texel", "De reis naar Texel in juni gaat niet door"),
        ("Wycieczka do Krakowa w maju", "Wycieczka do Krakowa w maju odwołana"),
        ("Поїздка до Одеси в серпні", "Поїздку до Одеси в серпні скасували"),
        ("3月に京都で研修を予定", "京都での3月の研修は中止"),
        ("다음 달 부산 출장이 있다", "다음 달 부산 출장은 취소됐다"),
    ],
)  # fmt: skip
def test_a_plan_the_newer_entry_says_was_called_off_is_an_update(a: str, b: str) -> None:
    assert cancelled(profile(a), profile(b)) is not None
    assert verdict(a, b) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("User plays squash on Tuesday evenings", "User no longer plays squash on Tuesdays"),
        ("Ana merge la înot în fiecare sâmbătă", "Ana nu mai merge la înot"),
    ],
)
def test_an_activity_no_longer_done_is_an_update(a: str, b: str) -> None:
    assert verdict(a, b) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # two trips to one place on two dates
        ("Conference in Porto on 12 May", "The Porto holiday in August is cancelled"),
        ("Wir fahren im Juli nach Rügen", "Die Rügen-Reise im September ist abgesagt"),
        # a class cancelled beside another class
        (
            "Pottery class on Tuesdays at the community hall",
            "The yoga class on Tuesdays is cancelled",
        ),
        # another person's plan
        ("Maria flies to Lyon on 3 April", "Pedro cancelled the trip to Lyon"),
        # one shared word: too little to say it is the same plan
        ("The heating in the office comes on at 7", "The heating is off"),
        # a plan beside its result: no word of calling off
        ("We plan to sell 30 jars of honey at the fair", "We sold 24 jars of honey at the fair"),
        # "no longer" with a word of its own: another activity
        ("User plays squash on Tuesdays", "User no longer eats meat"),
    ],
)  # fmt: skip
def test_a_called_off_plans_honest_twins_stay_apart(a: str, b: str) -> None:
    assert cancelled(profile(a), profile(b)) is None
    assert verdict(a, b) == "none"


def test_an_older_entry_itself_cancelled_is_not_read() -> None:
    # two entries that both say it was called off say one thing (a rewording), not an update
    a, b = profile("The Porto trip is cancelled"), profile("The Porto trip was called off")
    assert cancelled(a, b) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("User is working towards the payroll diploma", "User completed the payroll diploma"),
        ("Sara is engaged to Tom", "Sara married Tom in June"),
        ("Lena is applying to the Royal College", "Lena was accepted at the Royal College"),
        ("We are renovating the kitchen", "We finished renovating the kitchen"),
        ("Sie arbeitet an ihrer Masterarbeit", "Sie hat ihre Masterarbeit abgeschlossen"),
        ("Ana está estudiando para el examen de inglés", "Ana aprobó el examen de inglés"),
        ("Lucie prépare le concours d'infirmière", "Lucie a obtenu le concours d'infirmière"),
    ],
)  # fmt: skip
def test_a_state_reached_on_its_scale_is_an_update(a: str, b: str) -> None:
    assert reached(profile(a), profile(b)) is not None
    assert verdict(a, b) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # another course, another person, another room
        ("User is doing a pottery course", "User completed a first-aid course"),
        ("Sara is engaged to Tom", "Maria married Tom"),
        ("We are renovating the kitchen", "We finished renovating the bathroom"),
        # a part of the goal reached, not the goal
        ("User is working towards the diploma", "User completed the first module of the diploma"),
        # one of two applications settled: the other is still open
        ("Lena applied to Oxford and Durham", "Lena was accepted at Durham"),
    ],
)  # fmt: skip
def test_a_reached_states_honest_twins_stay_apart(a: str, b: str) -> None:
    assert reached(profile(a), profile(b)) is None
    assert verdict(a, b) == "none"
