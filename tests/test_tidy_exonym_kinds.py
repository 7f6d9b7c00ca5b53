"""Tidy 42's names (``ops/tidy/exonyms.py``) read a language and its country as one value,
so two different facts that name a country on one side and its language on the other
join: living in Norway is not speaking Norwegian, teaching Spanish is not living in
Spain. Found by review 10 after tidy 42 shipped, with the cosines of the shipped
embedder (multilingual-e5-small) between the two texts; main before tidy 42
(``354ef55a``) kept both apart. Splitting a language from its country would undo tidy
42's own rewordings ("Spanish tour" / "gira por España"; Polish "do Polski" is the
country and "polski" the language), so the fix waits for a measured design: these are
strict expected failures until it lands (docs/lifecycle.md "tidy 42")."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned

HONEST = [
    # a country on one side, its language on the other: two facts
    ("Tomas lived in Norway for three years", "Tomas snakker norsk i tre år", 0.907),
    ("Lena teaches Spanish at the evening school",
     "Lena vive en España y trabaja en una escuela nocturna", 0.902),
]  # fmt: skip


@pytest.mark.xfail(strict=True, reason="issue 26: tidy 42 reads a language as its country")
@pytest.mark.parametrize(("a", "b", "cosine"), HONEST)
def test_a_country_and_its_language_are_two_facts(a: str, b: str, cosine: float) -> None:
    assert planned(a, b, cosine) == []
    assert planned(a, b, cosine, learned=True) == []
