"""Tidy 42's names (``ops/tidy/exonyms.py``) read a language and its country as one value,
so two different facts that name a country on one side and its language on the other
join: living in Norway is not speaking Norwegian, teaching Spanish is not living in
Spain. Found by review 10 after tidy 42 shipped, with the cosines of the shipped
embedder (multilingual-e5-small) between the two texts; main before tidy 42
(``354ef55a``) kept both apart. Tidy 44 (issue 26): a country and its language are two
kinds of one row (``exonyms._LANDS``), tied only to their like; failed before it (strict
expected failures), pass now (docs/lifecycle.md "tidy 44")."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.exonyms import named

HONEST = [
    # a country on one side, its language on the other: two facts
    ("Tomas lived in Norway for three years", "Tomas snakker norsk i tre år", 0.907),
    ("Lena teaches Spanish at the evening school",
     "Lena vive en España y trabaja en una escuela nocturna", 0.902),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b", "cosine"), HONEST)
def test_a_country_and_its_language_are_two_facts(a: str, b: str, cosine: float) -> None:
    assert planned(a, b, cosine) == []
    assert planned(a, b, cosine, learned=True) == []
    assert planned(a, b, None, learned=True) == []


def test_a_country_ties_to_a_country_and_a_language_to_a_language() -> None:
    assert named("norway") == named("norge") != named("norsk") == named("norwegian")
    assert named("espana") != named("spanish")
    assert named("polski") >= named("polish") | named("poland")  # "do Polski", "na polski"
    assert named("suomi") >= named("finnish") | named("finland")
    assert named("ceskem") == named("czech")  # "v Českém centru": the adjective
    assert named("aleppo") and named("hamburg") == frozenset()
