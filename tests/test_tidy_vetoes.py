"""Tidy 20: look-alikes that say two facts stay apart (a plan beside a fact, a number or
letter that names which thing, another person as the subject), and each one's true twin
(the same shape saying one fact, or one fact changed) is still flagged. Every pair of
the first kind was merged or superseded before tidy 20."""

from __future__ import annotations

import pytest

from _tidy_pairs import pair_kind
from mnemic.ops.tidy.people import other_relatives, relatives
from mnemic.ops.tidy.signals import profile
from mnemic.ops.tidy.vetoes import (
    apart,
    changed_in_place,
    names_which,
    other_subject,
    plan_beside_fact,
)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("User wants to visit Lisbon in June", "User visited Lisbon last June"),
        ("On a un scooter", "On pense acheter un vélo électrique quand le scooter lâchera"),
        ("Marta vorrebbe andare in Islanda l'anno prossimo", "Marta è stata in Islanda nel 2021"),
    ],
)
def test_a_plan_beside_a_fact_is_two_facts(a: str, b: str) -> None:
    assert plan_beside_fact(profile(a), profile(b))
    assert pair_kind(a, b) == "none"
    assert pair_kind(a, b, learned=True) == "none"


def test_a_plan_beside_a_fact_is_kept_from_the_learned_layer() -> None:
    a, b = "Nhà dùng bếp ga", "Nhà định chuyển sang bếp từ vào năm sau"
    assert apart(profile(a), profile(b))
    assert pair_kind(a, b, learned=True) == "none"  # the pair model superseded it before


@pytest.mark.parametrize(
    ("a", "b", "kind"),
    [
        # a wish for a thing is a preference, no plan: one fact in other words
        ("Address the user as Sam", "User wants to be called Sam", "merge"),
        # two plans, another month: the plan changed
        ("User plans to visit Lisbon in June", "User plans to visit Lisbon in July", "supersede"),
    ],
)
def test_the_plans_true_twins_are_still_flagged(a: str, b: str, kind: str) -> None:
    assert not plan_beside_fact(profile(a), profile(b))
    assert pair_kind(a, b) == kind


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Tram 7 leaves at 7:50", "Tram 17 leaves at 7:50"),
        ("Parking for flat 3C is in row 2", "Parking for flat 4D is in row 2"),
        ("Miete Gartenstraße 5: 640 € kalt", "Miete Gartenstraße 9: 640 € kalt"),
        ("De repetitie van koor 1 is op donderdag", "De repetitie van koor 2 is op donderdag"),
        ("C동 외벽 공사는 4월에 끝난다", "D동 외벽 공사는 6월에 끝난다"),
    ],
)
def test_a_number_that_names_which_thing_is_two_things(a: str, b: str) -> None:
    assert names_which(profile(a), profile(b))
    assert pair_kind(a, b) == "none"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # the number after a copula is the value the sentence states
        ("George's allotment is plot 17", "George's allotment is plot 31"),
        # the same tram, another time
        ("Tram 7 leaves at 7:50", "Tram 7 leaves at 8:10"),
        # a number with what it counts is an amount
        ("The dev laptop has 16 GB of RAM", "The dev laptop has 32 GB of RAM"),
        ("C동 외벽 공사는 4월에 끝난다", "C동 외벽 공사는 6월에 끝난다"),
    ],
)
def test_a_number_that_is_the_value_still_contradicts(a: str, b: str) -> None:
    assert not names_which(profile(a), profile(b))
    assert pair_kind(a, b) == "supersede"


def test_a_name_in_the_users_place_is_another_person() -> None:
    a = "De gebruiker heeft een afspraak bij de kapper op maandag"
    b = "Pieter heeft een afspraak bij de kapper op woensdag"
    assert other_subject(profile(a), profile(b)) == "Pieter"
    assert pair_kind(a, b) == "none"
    twin = "De gebruiker heeft een afspraak bij de kapper op woensdag"
    assert not other_subject(profile(a), profile(twin))
    assert pair_kind(a, twin) == "supersede"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Sie trinkt abends Kamillentee", "Ihr Mann trinkt abends Kamillentee"),
        ("Il prend le bus 21 le matin", "Sa femme prend le bus 21 le matin"),
        ("Η Σάρα πετάει στις 3 Μαΐου", "Η μητέρα της Σάρα πετάει στις 3 Μαΐου"),
        ("Kasia gra na skrzypcach", "Kasia ma siostrę Zosię, która gra na skrzypcach"),
    ],
)
def test_someones_husband_mother_or_sister_is_another_person(a: str, b: str) -> None:
    assert other_relatives(a, b)
    assert pair_kind(a, b) == "none"


def test_one_person_with_another_value_still_contradicts() -> None:
    a, b = "Ihr Mann nimmt morgens Ramipril 5 mg", "Ihr Mann nimmt morgens Ramipril 10 mg"
    assert not other_relatives(a, b)
    assert pair_kind(a, b) == "supersede"
    assert relatives("Der Mann am Empfang heißt Karl") == set()  # nobody's: a man
    assert relatives("La femme de ménage vient le lundi") == set()


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("চাল কেনা হয় করিম স্টোর থেকে", "ডাল কেনা হয় করিম স্টোর থেকে"),
        ("화요일 합창 연습은 오후 7시에 시작한다", "목요일 합창 연습은 오후 7시에 시작한다"),
        ("The flat is in council tax band B", "The flat is in council tax band E"),
    ],
)
def test_one_word_changed_by_a_letter_is_no_near_duplicate(a: str, b: str) -> None:
    assert changed_in_place(profile(a), profile(b))
    assert pair_kind(a, b) != "merge"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("User's debit card is a Visa Gold", "User's debit card is a Visa Gol"),
        ("Jonas kümmert sich um die Backups", "Jonas kümert sich um die Backups"),
    ],
)
def test_a_typo_in_place_is_still_a_near_duplicate(a: str, b: str) -> None:
    assert not changed_in_place(profile(a), profile(b))
    assert pair_kind(a, b) == "merge"


def test_a_name_written_in_two_alphabets_is_no_change_in_place() -> None:
    a = "Anna tłumaczy w piątki teksty z niemieckiego dla klienta Wołkow"
    assert not changed_in_place(profile(a), profile(a.replace("Wołkow", "Wolkov")))
    assert changed_in_place(profile(a), profile(a.replace("Wołkow", "Wolski")))


def test_the_user_misspelt_is_no_name_in_the_users_place() -> None:
    a = "Användaren tränar på gymmet måndag och torsdag"
    b = "Anvädaren tränar på gymet måndag och torsdag"
    assert not other_subject(profile(a), profile(b))
    assert not apart(profile(a), profile(b))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Bác sĩ chỉ định thuốc huyết áp buổi sáng", "Bác sĩ kê thuốc huyết áp buổi sáng"),
        ("Lịch tập cố định vào thứ Hai", "Lịch tập vào thứ Hai"),
        ("会議は月曜の予定", "会議は月曜"),
        ("用户的保险计划是基础版", "用户的保险是基础版"),
    ],
)
def test_a_word_for_plan_that_names_a_thing_is_no_plan(a: str, b: str) -> None:
    assert not plan_beside_fact(profile(a), profile(b))
