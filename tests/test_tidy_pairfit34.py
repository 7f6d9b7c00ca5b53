"""Tidy 34's ship rule (``bench/_tidy_pairfit34.py``): a tie goes to the file the tree
rebuilds; the old file stays only on a lead or an honest excess whose 95 % interval
lies above zero."""

from __future__ import annotations

from typing import Any

import _tidy_pairfit34 as t34


def _cmp(old_only: int, rebuilt_only: int, honest_rebuilt: int, honest_old: int) -> dict[str, Any]:
    """Step 3's counts over 140 true pairs and 75 honest ones: ``old_only`` true pairs
    only the old file flags, ``rebuilt_only`` only the rebuild; ``honest_rebuilt``
    honest pairs only the rebuild joins, ``honest_old`` only the old file."""
    true = [{"kind": "rewording"}] * old_only
    honest = [{"kind": "honest"}] * honest_rebuilt
    cmp: dict[str, Any] = {
        "flagged": {"old_lead_ci95": t34.t33.paired(old_only, rebuilt_only, 140)},
        "total": {"honest": {"n": 75}},
        "rebuilt_worse_pairs": true + honest,
        "rebuilt_better_pairs": [{"kind": "update"}] * rebuilt_only
        + [{"kind": "honest"}] * honest_old,
    }
    cmp["honest_excess"] = t34.honest_excess(cmp)
    return cmp


def test_a_tie_ships_the_rebuild() -> None:
    """3 pairs against 1 and 2 honest against 1: no interval above zero."""
    got = t34.decide(_cmp(3, 1, 2, 1))
    assert got["ships"] == "rebuilt"
    assert not got["old_lead_significant"] and not got["rebuilt_honest_excess_significant"]


def test_a_clear_lead_keeps_the_old_file() -> None:
    got = t34.decide(_cmp(12, 0, 0, 0))
    assert got["ships"] == "old" and got["old_lead_significant"]


def test_a_clear_honest_excess_keeps_the_old_file() -> None:
    """The rebuild flags more, but joins 8 honest pairs the old file keeps apart."""
    cmp = _cmp(0, 6, 8, 0)
    assert cmp["honest_excess"]["rebuilt_only"] == 8 and cmp["honest_excess"]["old_only"] == 0
    got = t34.decide(cmp)
    assert got["ships"] == "old" and got["rebuilt_honest_excess_significant"]
