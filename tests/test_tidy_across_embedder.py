"""Tidy 35: one fact said in two languages, with the embedder. A pair the cosine gate
reads as two languages (:func:`mnemic.ops.tidy.across.two_languages_loose`, which holds
:func:`~mnemic.ops.tidy.languages.two_languages_strict`) is one fact from
:attr:`Thresholds.meaning_cosine_anchored` when a name or number both write carries it
and no value read in either language tells the two apart
(:func:`~mnemic.ops.tidy.across.anchored`); two colours keep two things apart
(:func:`~mnemic.ops.tidy.across.other_colour`). The cosine is given by hand, as
:func:`plan` receives it; offline nothing changes."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.across import anchored, colours, other_colour
from mnemic.ops.tidy.signals import profile
from mnemic.ops.tidy.thresholds import THRESHOLDS

ANCHORED = THRESHOLDS.meaning_cosine_anchored
ACROSS = THRESHOLDS.meaning_cosine_across


POSITIVE = [
    # English and Turkish (one script, read by function words): a city both write
    ("The spare tyres come from a dealer in Leeds",
     "Yedek lastikler Leeds'teki bir bayiden geliyor"),
    # two scripts: a number both write
    ("The choir warms up for 40 minutes before every concert",
     "Хор распевается 40 минут перед каждым концертом"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), POSITIVE)
def test_a_fact_carried_by_a_value_both_write_is_merged_from_the_anchored_floor(
    a: str, b: str
) -> None:
    """Failed before: below tidy 18's 0.925 (and for the Turkish pair, read as one
    language then, below 0.965) the cosine joined nothing; offline the rules leave them
    apart (one value, too few for :func:`.across.across`)."""
    assert anchored(profile(a), profile(b))
    assert planned(a, b, None) == []
    [p] = planned(a, b, (ANCHORED + ACROSS) / 2)
    assert p.kind == "merge" and set(p.entries) == {a, b}
    assert "same meaning in other words" in p.reasons[0]
    assert planned(a, b, ANCHORED - 0.01) == []


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # another city
        ("The spare tyres come from a dealer in Leeds",
         "Yedek lastikler York'taki bir bayiden geliyor"),
        # another number
        ("The choir warms up for 40 minutes before every concert",
         "Хор распевается 30 минут перед каждым концертом"),
        # one side negated
        ("The choir warms up for 40 minutes before every concert",
         "Хор не распевается 40 минут перед каждым концертом"),
        # nothing both write: no anchor, so tidy 18's floor still holds
        ("The workshop smells of linseed oil", "Warsztat pachnie olejem lnianym"),
    ],
)  # fmt: skip
def test_two_facts_in_two_languages_stay_apart_at_the_anchored_floor(a: str, b: str) -> None:
    """Honest look-alikes: apart before and after, at a cosine between the two floors."""
    assert planned(a, b, (ANCHORED + ACROSS) / 2) == []
    assert planned(a, b, (ANCHORED + ACROSS) / 2, learned=True) == []


def test_two_colours_keep_two_things_apart_across_languages() -> None:
    """Failed before: tidy 18's gate merged the grey and the blue Skoda from 0.925 (the
    names, Skoda and Octavia, are the same; the colour is what differs)."""
    a = "The family car is a grey Skoda Octavia"
    b = "Unser Familienauto ist ein blauer Skoda Octavia"
    assert colours(a) == {"grey"} and colours(b) == {"blue"}
    assert other_colour(profile(a), profile(b))
    assert planned(a, b, 0.94) == []
    c = "Unser Familienauto ist ein grauer Skoda Octavia"
    assert not other_colour(profile(a), profile(c))
    [p] = planned(a, c, 0.94)
    assert p.kind == "merge"


def test_a_colour_one_side_alone_names_vetoes_nothing() -> None:
    """Its word in the other language may be one the table does not hold."""
    a, b = "Kasia's bike is green and has 3 gears", "Rower Kasi ma 3 biegi"
    assert colours(a) == {"green"} and not colours(b)
    assert not other_colour(profile(a), profile(b))


@pytest.mark.parametrize(("a", "b"), POSITIVE)
def test_offline_nothing_changes(a: str, b: str) -> None:
    """The rule reads the embedder's cosine: without it the pairs stay apart, with the
    pair model too."""
    assert planned(a, b, None, learned=True) == []
