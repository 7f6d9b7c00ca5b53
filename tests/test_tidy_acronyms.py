"""An acronym against its full name is one name: "GKE" and "Google Kubernetes Engine"
meet, and the reason says which acronym stood for which words; a function
word never gives a letter ("the admin panel is" is no API)."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.acronyms import spelled


@pytest.mark.parametrize(
    ("a", "b", "said"),
    [
        (
            "The Kubernetes cluster runs on GKE",
            "The Kubernetes cluster runs on Google Kubernetes Engine",
            "GKE = Google Kubernetes Engine",
        ),
        (
            "User works for the NHS",
            "User works for the National Health Service",
            "NHS = National Health Service",
        ),
        (
            "Le build passe par l'intégration continue",
            "Le build passe par l'IC",
            "IC = intégration continue",
        ),
    ],
)
def test_an_acronym_and_its_full_name_are_merged(a: str, b: str, said: str) -> None:
    [p] = planned(a, b)
    assert p.kind == "merge" and set(p.entries) == {a, b}
    assert said in p.reasons[0]


def test_an_acronym_spelled_out_is_put_in_place() -> None:
    assert spelled("CI runs nightly", "Continuous integration runs nightly") == (
        "CI runs nightly",
        "CI runs nightly",
        "CI = Continuous integration",
    )
    assert spelled("The API is rate limited", "The admin panel is rate limited") is None
    assert planned("The API is rate limited", "The admin panel is also rate limited") == []
