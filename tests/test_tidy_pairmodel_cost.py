"""The learned pair layer's cost (tidy 33, issue 26): ``plan`` scores each pair the rules
left with :meth:`PairModel.probabilities` (the heads' probabilities alone, to the last bit
of :meth:`PairModel.score`'s) and ranks the features that weighed most only for a pair it
proposes. That the proposals stay the same on every tidy data set is checked against the
code before by ``./x bench tidy_cost --against REV``."""

from __future__ import annotations

import math
from typing import Any

import pytest

from _tidy_fresh import SETS, load_halves
from mnemic.ops.tidy import plan
from mnemic.ops.tidy.pairmodel import CASES, PairModel, pair_model, read, values
from mnemic.ops.tidy.signals import compare, profile
from test_tidy_cost import store


def _names(limit: int = 300) -> list[list[str]]:
    pairs = load_halves(SETS["fresh2"])["dev"][:limit]
    out = []
    for p in pairs:
        a, b = profile(p.a), profile(p.b)
        out.append(read(a, b, compare(a, b, 0.9), False, 1))
        out.append(read(a, b, compare(a, b, 0.9), True, 1))
    return out


def test_probabilities_are_the_scores_to_the_last_bit() -> None:
    model = pair_model()
    for names in _names():
        for case in CASES:
            s = model.score(names, case)
            assert model.probabilities(names, case) == (s.merge, s.change)


def test_values_weigh_the_words_of_one_side_apart() -> None:
    """The plain form: the ``oa:``/``ob:`` words share 0.5 between them, the rest 1."""
    for names in _names(60):
        words = sum(n[:3] in ("oa:", "ob:") for n in names)
        rest = len(names) - words
        plain = [0.5 / math.sqrt(words) if n[:3] in ("oa:", "ob:") else 1 / math.sqrt(rest)
                 for n in names]  # fmt: skip
        assert values(names) == plain


def test_plan_ranks_the_weighing_features_only_for_what_it_proposes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before, ``plan`` ranked every pair's features (a sort per pair, most of the
    learned layer's time on a big store) and used the ranking for none but proposals."""
    ranked: list[Any] = []
    score = PairModel.score

    def counting(self: PairModel, names: Any, case: str) -> Any:
        ranked.append(names)
        return score(self, names, case)

    monkeypatch.setattr(PairModel, "score", counting)
    entries = store(60)
    found = plan("memory", entries, [None] * len(entries), now=3e9, stale_after_days=10**6,
                 verbose_chars=10_000)  # fmt: skip
    learned = [p for p in found if any("learned pair model" in r for r in p.reasons)]
    assert len(ranked) == len(learned)
