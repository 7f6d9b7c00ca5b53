"""A new holder of a role someone has one of, and a promotion (:mod:`mnemic.ops.tidy.roles`):
updates said with no marker of change; their look-alikes (a role a person has several
of, someone else's role, a wish, the same title) stay apart."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.roles import new_holder, promotion
from mnemic.ops.tidy.signals import profile


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("User's GP is Dr. Patel.", "User registered with a new GP, Dr. Hughes.",
         "a new GP, Hughes (was Patel)"),
        ("User's dentist is Dr Lee.", "User has a new dentist, Dr Park.", "a new dentist, Park"),
        ("User's manager is Tom.", "User has a new manager, Sara.", "a new manager, Sara"),
        ("User's landlord is Mr Brown.", "User has a new landlord.", "a new landlord (was"),
        ("Anna's manager is Tom.", "Anna has a new manager, Sara.", "a new manager, Sara"),
        ("Der Hausarzt des Nutzers ist Dr. Weber.",
         "Der Nutzer hat einen neuen Hausarzt, Dr. Kaya.", "a new Hausarzt, Kaya"),
        ("El médico del usuario es el Dr. Ruiz.",
         "El usuario tiene un nuevo médico, la Dra. Gómez.", "a new médico, Gómez"),
        ("El jefe del usuario es Pedro.", "El usuario tiene un nuevo jefe, Juan.",
         "a new jefe, Juan"),
        ("Врач пользователя — доктор Иванов.", "У пользователя новый врач, доктор Петров.",
         "a new врач, Петров"),
        ("Il medico di base dell'utente è il dottor Rossi.",
         "L'utente ha un nuovo medico di base, il dottor Bianchi.", "a new medico di base"),
        ("User's primary care physician is Dr Lee.",
         "User has a new primary care physician, Dr Park.", "Park (was Lee)"),
        ("Der Vorgesetzte des Nutzers ist Herr Vogel.",
         "Der Nutzer hat einen neuen Vorgesetzten, Herrn Braun.", "Braun (was Vogel)"),
        ("User's phone is a Pixel 7.", "User has a new phone, an iPhone 15.",
         "a new phone, iPhone (was Pixel)"),
        ("Das Auto des Nutzers ist ein Golf.", "Der Nutzer hat ein neues Auto, einen Tesla.",
         "a new Auto, Tesla"),
    ],
)  # fmt: skip
def test_a_new_holder_of_a_role_someone_has_one_of_is_an_update(
    old: str, new: str, said: str
) -> None:
    """Left apart before: "a new GP" named nobody's GP, so the people veto parted them."""
    [p] = planned(old, new)
    assert (p.kind, p.entries) == ("supersede", (new, old))
    assert said in p.reasons[0]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("User has a client called Acme.", "User also has a new client, Globex."),
        ("User's manager is Tom.", "A new colleague, Sara, joined the user's team."),
        ("User's friend is Tom.", "User has a new friend, Sara."),
        ("User's GP is Dr. Patel.", "User's daughter has a new GP, Dr. Hughes."),
        ("User's GP is Dr. Patel.", "Anna has a new GP, Dr. Hughes."),
        ("Anna's manager is Tom.", "Ben has a new manager, Sara."),
        ("User's manager is Tom.", "User's team has a new manager, Sara."),
        ("El jefe del usuario es Pedro.", "El equipo del usuario tiene un nuevo jefe, Juan."),
        ("User's GP is Dr. Patel.", "User has a new dentist, Dr. Hughes."),
        ("User's GP is Dr. Patel.", "User's GP Dr. Patel moved to a new practice."),
        ("User's GP practice is in Camden.", "User registered with a new GP, Dr. Hughes."),
        ("User's work laptop is a ThinkPad.", "User has a new laptop, a MacBook."),
        ("User's car is a Honda Civic.", "User's wife has a new car, a Tesla."),
        ("User's car is a Honda Civic.", "User bought a new car for his son, a Tesla."),
        # "GP" read as the other's "gebruiker programmeert": no role and no holder
        ("De gebruiker programmeert met PyCharm", "User registered with a new GP, Dr. Hughes"),
    ],
)  # fmt: skip
def test_a_new_one_of_many_or_of_someone_else_stays_apart(a: str, b: str) -> None:
    assert "supersede" not in [p.kind for p in planned(a, b)]
    assert new_holder(profile(a), profile(b)) is None


def test_a_new_holder_who_is_the_old_one_is_no_change() -> None:
    old, new = profile("User's GP is Dr. Patel."), profile("User has a new GP, Dr. Patel.")
    assert new_holder(old, new) is None


@pytest.mark.parametrize(
    ("old", "new", "title"),
    [
        ("User's job title is Senior Engineer.", "User was promoted to Staff Engineer.",
         "Staff Engineer"),
        ("User is a Senior Engineer at Acme.", "User got promoted to Staff Engineer last May.",
         "Staff Engineer"),
        ("User works as a data analyst.", "User was promoted to analytics lead.", "analytics lead"),
        ("Der Nutzer arbeitet als Entwickler.", "Der Nutzer wurde zum Teamleiter befördert.",
         "Teamleiter"),
        ("El usuario trabaja como analista.", "El usuario fue ascendido a jefe de equipo.",
         "jefe de equipo"),
        ("Пользователь работает инженером.", "Пользователь повышен до старшего инженера.",
         "старшего инженера"),
        ("用户的职位是工程师。", "用户晋升为高级工程师。", "高级工程师"),
        ("Le poste de l'utilisateur est développeur.",
         "L'utilisateur a été promu au poste de chef de projet.", "chef de projet"),
        ("Stanowisko użytkownika to programista.", "Użytkownik awansował na kierownika zespołu.",
         "kierownika zespołu"),
    ],
)  # fmt: skip
def test_a_promotion_is_a_new_job_title(old: str, new: str, title: str) -> None:
    """Left apart before: "promoted to" was no marker of change, and the two entries
    share one word at most."""
    [p] = planned(old, new)
    assert (p.kind, p.entries) == ("supersede", (new, old))
    assert f"promoted to {title}" in p.reasons[0]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("User's job title is Senior Engineer.", "User wants to be promoted to Staff Engineer."),
        ("User's job title is Senior Engineer.", "User hopes to get promoted to Staff Engineer."),
        ("User's job title is Senior Engineer.", "Anna was promoted to Staff Engineer."),
        ("User's job title is Senior Engineer.", "User's manager was promoted to Director."),
        ("User's job title is Staff Engineer.", "User was promoted to Staff Engineer."),
        ("User's job title is Senior Engineer.", "User was not promoted to Staff Engineer."),
        ("User likes Python.", "User was promoted to Staff Engineer."),
        ("User is a keen cyclist.", "User was promoted to Staff Engineer."),
        ("User is a member of the chess club.", "User was promoted to club captain."),
        ("User is a Senior Engineer.", "User was promoted to Staff Engineer in the choir."),
    ],
)  # fmt: skip
def test_a_wish_someone_elses_promotion_or_the_same_title_stays_apart(a: str, b: str) -> None:
    assert "supersede" not in [p.kind for p in planned(a, b)]
    assert promotion(profile(a), profile(b)) is None
