"""Tidy 36: the weak anchors of the embedder's anchored floor across two languages
(:func:`mnemic.ops.tidy.across.anchored`, :attr:`Thresholds.meaning_cosine_anchored`).
A first word both sides write in the same place is no anchor (the items of one list); the
two languages must be read surely (:func:`~mnemic.ops.tidy.across.surely_two`:
:func:`~mnemic.ops.tidy.quantities.language` knows seven languages and reads an Irish
entry as English or French); a number alone anchors only with the same measure read on
both sides. The cosine is given by hand, between the anchored floor and tidy 18's
0.925, as :func:`plan` receives it; offline nothing changes."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy import across
from mnemic.ops.tidy.signals import profile
from mnemic.ops.tidy.thresholds import THRESHOLDS

BETWEEN = (THRESHOLDS.meaning_cosine_anchored + THRESHOLDS.meaning_cosine_across) / 2
"""A cosine the anchored floor joins and tidy 18's gate does not."""

HONEST = [
    # (1) two items of one Irish agenda: "Rudaí" is both sides' first word (tidy 35's
    # held-out pair, merged)
    ("Rudaí le plé ag an gcruinniú: cíos na bplotaí",
     "Rudaí le plé ag an gcruinniú: an leithreas nua"),
    # (2) both Irish: quantities.language reads one as English ("an"), the other as
    # French ("le"); Niamh, both write, carried the pair
    ("Tá an cruinniú ar an teach le Niamh", "Bhí an cruinniú le Niamh sa teach le cara"),
    # (3) a number alone, of another measure or none on each side
    ("Passwords must be at least 12 characters", "Кластер состоит из 12 узлов"),
    ("The parking permit costs 3000 yen", "Парковка стоит 3000 гривень"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), HONEST)
def test_two_facts_carried_by_a_weak_anchor_are_no_longer_merged(a: str, b: str) -> None:
    """Failed before: tidy 35's anchored floor merged each of these pairs, with the rules
    and with the pair model; they are two facts."""
    assert not across.anchored(profile(a), profile(b))
    assert planned(a, b, BETWEEN) == []
    assert planned(a, b, BETWEEN, learned=True) == []


def test_an_irish_entry_is_not_read_surely_as_two_languages() -> None:
    """Failed before (no such reading): by seven languages' function words one side is
    English and the other French; by every language tidy holds, one is Irish and the
    other ties."""
    a, b = HONEST[1]
    assert not across.surely_two(profile(a), profile(b))
    assert across.surely_two(profile("The lease ends in March"), profile("Аренда до марта"))


STILL = [
    # a number with the same measure on both sides
    ("The water tank holds 80 litres", "Бак для воды вмещает 80 литров"),
    ("The choir warms up for 40 minutes before every concert",
     "Хор распевается 40 минут перед каждым концертом"),
    # a month both state: its own measure
    ("The lease on the flat ends in March", "Аренда квартиры заканчивается в марте"),
    # a name both write, not as both first words
    ("The spare tyres come from a dealer in Leeds",
     "Yedek lastikler Leeds'teki bir bayiden geliyor"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), STILL)
def test_rewordings_carried_by_a_strong_anchor_are_still_merged(a: str, b: str) -> None:
    """One fact in two languages, joined from the anchored floor before and after."""
    assert across.anchored(profile(a), profile(b))
    for learned in (False, True):
        [p] = planned(a, b, BETWEEN, learned=learned)
        assert p.kind == "merge" and set(p.entries) == {a, b}
    assert planned(a, b, THRESHOLDS.meaning_cosine_anchored - 0.01) == []


@pytest.mark.parametrize(("a", "b"), HONEST + STILL)
def test_offline_nothing_changes(a: str, b: str) -> None:
    """The rule reads the embedder's cosine: without it these pairs stay apart."""
    assert planned(a, b, None, learned=True) == []
