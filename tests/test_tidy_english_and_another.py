"""Tidy 40: English against a text that writes no English word, read as two languages
with the embedder (issue 26): measured once on the dev halves and **not shipped**
(``bench/_tidy40.py``, ``docs/lifecycle.md`` "tidy 40").

A Latin-letter language with no function words in ``across._FUNCTION`` (Basque,
Hungarian, Javanese, Vietnamese ...) is read as one language with English, so the
embedder's anchored floor (0.88) never holds for it and tidy 18's 0.965 keeps the pair
apart. Tidy 40's reading (``across.english_and_another`` at ``f3706d5e``) joined these
rewordings (the strict ``xfail``: the open defect, to pass when a rule ships) and kept
the honest pairs below apart; its keep-rule failed on one unrelated cross-row pair of
fresh16 dev newly merged, and on tidy_fresh16's test half (tidy 41,
``bench/_tidy41.py``) its (d), redefined, failed by one pair again while no verdict
moved. The cosine is given by hand, between the anchored floor and 0.925, as
:func:`plan` receives it; offline nothing changes."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
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


@pytest.mark.xfail(strict=True, reason="issue 26: tidy 40's reading, not shipped (tidy 40, 41)")
@pytest.mark.parametrize(("a", "b"), REWORDINGS)
def test_one_fact_in_english_and_a_language_without_function_words_is_merged(
    a: str, b: str
) -> None:
    """The open defect: no proposal (not read as two languages). Passed with tidy 40's
    reading (``f3706d5e``), rules alone and with the pair model."""
    for learned in (False, True):
        [p] = planned(a, b, BETWEEN, learned=learned)
        assert p.kind == "merge" and set(p.entries) == {a, b}


HONEST = [
    # another number, another name: a reading of two languages must still find no anchor
    ("The rowing club has 35 members this year", "Arraun klubak 40 kide ditu aurten"),
    ("Marta's boiler is serviced every October by Northwind Heating",
     "Tomasz kazánját minden októberben a Northwind Heating szervizeli"),
    # English notes: not another language ("serviced" both write; two words in lower case)
    ("Orla's boiler is serviced every October by Greenfield Heating",
     "Orla's car serviced October, Greenfield Heating"),
    ("The rowing club has 35 members this year", "Rowing club: 35 boats, two sheds"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b"), HONEST)
def test_two_facts_stay_apart(a: str, b: str) -> None:
    """A guard for the next reading of two languages (these passed with tidy 40's)."""
    assert planned(a, b, BETWEEN) == []
    assert planned(a, b, BETWEEN, learned=True) == []


@pytest.mark.parametrize(("a", "b"), REWORDINGS + HONEST)
def test_offline_nothing_changes(a: str, b: str) -> None:
    """The reading is the embedder's: without a cosine these stay apart."""
    assert planned(a, b, None, learned=True) == []
