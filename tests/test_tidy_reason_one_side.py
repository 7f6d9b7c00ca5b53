"""A tidy merge's reason when only one wording has everyday words of its own
(docs/first-week.md, row 86): the CLI and the console's Tidy page printed "only everyday
words differ ('-' / 'requires')", a dash for the side that has none."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned

PAIRS = [
    ("Code review needs two approvals in the payments repo.",
     "The payments repo requires two approvals for every code review.", "requires"),
    ("用户晚上喝绿茶。", "晚上的时候用户会喝绿茶。", "的时候"),
]  # fmt: skip


@pytest.mark.parametrize(("a", "b", "word"), PAIRS)
def test_the_reason_says_which_words_one_wording_adds(a: str, b: str, word: str) -> None:
    [p] = planned(a, b)
    assert p.kind == "merge"
    (reason,) = [r for r in p.reasons if "only everyday words differ" in r]
    assert reason.endswith(f"only everyday words differ (one adds '{word}')")
    assert "'-'" not in reason
