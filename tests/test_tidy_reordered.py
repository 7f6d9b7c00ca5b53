"""Tidy 34: one fact said again in another order, its one verb changed, is one fact
(:mod:`mnemic.ops.tidy.reordered`); the same sentence with one word swapped in place,
a phrase moved whole with a value swapped inside it, or another name, stays two."""

from __future__ import annotations

import pytest

from mnemic.ops.tidy import plan
from mnemic.ops.tidy.reordered import reordered
from mnemic.ops.tidy.signals import compare, profile

NOW = 1_800_000_000.0


def proposed(a: str, b: str) -> str:
    """What the rules alone propose for ``a`` then ``b`` (none, merge, supersede)."""
    got = plan("memory", [a, b], [NOW - 2, NOW - 1], now=NOW, stale_after_days=90,
               verbose_chars=10_000, learned=False)  # fmt: skip
    return got[0].kind if got else "none"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Šahovski krožek vodim ob četrtkih", "Ob četrtkih imam šahovski krožek"),
        ("Las colmenas del páramo se tratan con timol en agosto",
         "En agosto se aplica timol a las colmenas del páramo"),
        ("Azido sulfurikoa armairu berdean gordetzen da", "Armairu berdean dago azido sulfurikoa"),
        ("Kyselinu šťaveľovú dávame v decembri", "V decembri aplikujeme kyselinu šťaveľovú"),
        ("Priya leads the data platform team", "The data platform team is headed by Priya"),
    ],
)  # fmt: skip
def test_one_fact_rebuilt_around_another_verb_is_merged(a: str, b: str) -> None:
    """Each was left apart before (dev halves of fresh10-12 and fresh2)."""
    assert proposed(a, b) == "merge"
    pa, pb = profile(a), profile(b)
    assert reordered(pa, pb, compare(pa, pb)) is not None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Year 10 chemistry is in Lab 3", "Year 10 physics is in Lab 3"),  # in place
        ("Rehearsals are in the church hall on Tuesdays",
         "On Tuesdays rehearsals are in the school hall"),  # a phrase moved, a value inside
        ("Jonas' bester Freund Kai wohnt in Hamburg",
         "Kai, Jonas' bester Freund, wohnt in München"),  # another place, named
        ("The tram to the old harbour leaves every 12 minutes",
         "Every 15 minutes the tram leaves for the old harbour"),  # another number
    ],
)  # fmt: skip
def test_a_value_swapped_is_no_rebuilt_sentence(a: str, b: str) -> None:
    pa, pb = profile(a), profile(b)
    assert reordered(pa, pb, compare(pa, pb)) is None
    assert proposed(a, b) != "merge"
