"""Tidy 37 (issue 26): two languages read surely for the embedder's anchored floor, and
numbers, times of day, months and units in more languages read offline.

Step A, tidy 36's rule 2 alone (:func:`mnemic.ops.tidy.across.surely_two`): the
anchored floor (:attr:`Thresholds.meaning_cosine_anchored`, 0.88) holds only for two
languages read surely; two entries of one language that :func:`.quantities.language`
alone reads as two (Irish "an" as English, "le" as French) keep tidy 18's 0.925. Each
honest pair below was merged from a cosine between the two floors before (tidy 35's
rule); offline nothing changes. The cosine is given by hand, as :func:`plan` receives
it (``bench/_tidy37.py``, ``docs/lifecycle.md`` "tidy 37")."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.across import anchored, surely_two
from mnemic.ops.tidy.signals import profile
from mnemic.ops.tidy.thresholds import THRESHOLDS

BETWEEN = (THRESHOLDS.meaning_cosine_anchored + THRESHOLDS.meaning_cosine_across) / 2
"""A cosine the anchored floor joins and tidy 18's gate does not."""

ONE_LANGUAGE = [
    # both Irish, read as English ("an") and French ("le"); the name both write was the
    # anchor (tidy 36's pair (2)): a meeting at the house, a meeting with a friend
    ("Tá an cruinniú ar an teach le Niamh", "Bhí an cruinniú le Niamh sa teach le cara"),
    # the shop on the square and the shop in the town
    ("Tá an siopa ar an gcearnóg le Niamh", "Bhí an siopa le Niamh sa chathair le cara"),
    # the boat at the quay and the boat in the harbour for a year
    ("Tá an bád ar an gcé le Pádraig", "Bhí an bád le Pádraig sa chuan le bliain"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), ONE_LANGUAGE)
def test_one_language_read_as_two_is_not_joined_from_the_anchored_floor(a: str, b: str) -> None:
    """Failed before (each merged from the anchored floor): the two sides are not surely
    two languages, so 0.925 holds; at it they may still join, as any pair."""
    assert not surely_two(profile(a), profile(b))
    assert not anchored(profile(a), profile(b))
    for learned in (False, True):
        assert planned(a, b, BETWEEN, learned=learned) == []
    assert planned(a, b, None, learned=True) == []


SURELY = [
    # two scripts
    ("The water tank holds 80 litres", "Бак для воды вмещает 80 литров"),
    # English against another language by every language's function words
    ("The spare tyres come from a dealer in Leeds",
     "Yedek lastikler Leeds'teki bir bayiden geliyor"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), SURELY)
def test_two_languages_read_surely_keep_the_anchored_floor(a: str, b: str) -> None:
    """One fact in two languages: still surely two, anchored, joined between the floors."""
    assert surely_two(profile(a), profile(b))
    [p] = planned(a, b, BETWEEN, learned=True)
    assert p.kind == "merge" and set(p.entries) == {a, b}
