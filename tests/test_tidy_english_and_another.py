"""Tidy 40: English against a text that writes no English word, read as two languages
with the embedder (:func:`mnemic.ops.tidy.across.english_and_another`, issue 26;
not shipped by tidy 40 and 41, shipped by tidy 42 on tidy_fresh17's test half).

A Latin-letter language with no function words in ``across._FUNCTION`` (Basque,
Hungarian, Javanese, Vietnamese ...) was read as one language with English, so the
embedder's anchored floor (0.88) never held for it and tidy 18's 0.965 kept the pair
apart. The cosine is given by hand, between the anchored floor and 0.925, as
:func:`plan` receives it; offline nothing changes."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.across import english_and_another, surely_two
from mnemic.ops.tidy.signals import profile
from mnemic.ops.tidy.thresholds import THRESHOLDS

BETWEEN = (THRESHOLDS.meaning_cosine_anchored + THRESHOLDS.meaning_cosine_across) / 2
"""A cosine the anchored floor joins and tidy 18's gate does not."""

REWORDINGS = [
    # Basque: no function word of across._FUNCTION's Basque row
    ("The rowing club has 35 members this year", "Arraun klubak 35 kide ditu aurten"),
    # Hungarian: "a" is Hungarian's article too
    ("Marta's boiler is serviced every October by Northwind Heating",
     "Marta kazánját minden októberben a Northwind Heating szervizeli"),
    # Javanese
    ("A listener in Lyon asked for more Sundanese songs",
     "Ana pamireng ing Lyon sing njaluk lagu-lagu Sundanese luwih akeh"),
    # Vietnamese
    ("Minh helps in the B1 class as a volunteer",
     "Minh giúp lớp B1 với tư cách tình nguyện viên"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), REWORDINGS)
def test_one_fact_in_english_and_a_language_without_function_words_is_merged(
    a: str, b: str
) -> None:
    """Failed before tidy 40 (no proposal: not read as two languages)."""
    assert english_and_another(profile(a), profile(b))
    assert english_and_another(profile(b), profile(a))
    assert surely_two(profile(a), profile(b))
    for learned in (False, True):
        [p] = planned(a, b, BETWEEN, learned=learned)
        assert p.kind == "merge" and set(p.entries) == {a, b}
    assert planned(a, b, THRESHOLDS.meaning_cosine_anchored - 0.01) == []


HONEST = [
    # another number, another name: read as two languages, the anchor fails
    ("The rowing club has 35 members this year", "Arraun klubak 40 kide ditu aurten"),
    ("Marta's boiler is serviced every October by Northwind Heating",
     "Tomasz kazánját minden októberben a Northwind Heating szervizeli"),
    # English notes: not read as another language
    ("Orla's boiler is serviced every October by Greenfield Heating",
     "Orla's car serviced October, Greenfield Heating"),
    ("The rowing club has 35 members this year", "Rowing club: 35 boats, two sheds"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), HONEST)
def test_two_facts_stay_apart(a: str, b: str) -> None:
    assert planned(a, b, BETWEEN) == []
    assert planned(a, b, BETWEEN, learned=True) == []


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a terse English note, mostly names: one word in lower case
        ("The car is serviced every October by Greenfield Garage",
         "Greenfield Garage: tyres, October"),
        # a word of the English side in lower case: "serviced"
        ("Orla's boiler is serviced every October", "Orla's car serviced October"),
        # an English word: "in"
        ("The boiler is serviced every October", "Boiler serviced in October"),
        # code mixed: English words on both sides
        ("Hive 3 is very calm, easy to inspect", "Ul 3 is very calm, łatwy do przeglądu"),
        # two languages, neither English: not this reading's
        ("Arraun klubak 35 kide ditu aurten", "Marta kazánját minden októberben"),
    ],
)  # fmt: skip
def test_not_english_against_another(a: str, b: str) -> None:
    assert not english_and_another(profile(a), profile(b))
    assert not english_and_another(profile(b), profile(a))


@pytest.mark.parametrize(("a", "b"), REWORDINGS + HONEST)
def test_offline_nothing_changes(a: str, b: str) -> None:
    """The reading is the embedder's: without a cosine these stay apart."""
    assert planned(a, b, None, learned=True) == []
