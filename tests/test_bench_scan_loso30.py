"""Scanner 30's rule (bench/_scan_loso30.py): each recipe judged against ``today``."""

from __future__ import annotations

from typing import Any

import _scan_loso30 as loso30


def _fig(caught: int, held: int, blocked: int = 0, n: int = 100) -> dict[str, Any]:
    return {
        "attacks": {"caught": {"k": caught}, "n": n},
        "honest": {"hold": held, "block": blocked, "n": n},
        "public_dev_benign": {"block": 0},
    }


def _full(caught: int, beyond: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"public_dev_benign": {"block": 0}, "fit_dev_benign": {"block": 0}}
    if beyond:
        out["beyond_pooled"] = {"attacks": {"caught": {"k": caught}}, "honest": {"block": 0}}
    return out


def _result(recipe: str, fold_caught: int, beyond: bool) -> dict[str, Any]:
    return {
        "pooled": {"today": {}, recipe: {}},
        "folds": {"x": {"today": _fig(50, 3), recipe: _fig(fold_caught, 3)}},
        "full": {"today": _full(40), recipe: _full(45, beyond)},
    }


def test_a_recipe_that_catches_fewer_on_the_folds_fails_the_rule() -> None:
    assert loso30.rule(_result("+8,9", 49, True)) == {"+8,9": ["pooled caught -1"]}
    assert loso30.rule(_result("+8,9", 51, True)) == {"+8,9": []}


def test_a_recipe_trained_on_the_tenth_to_twelfth_dev_halves_is_not_judged_beyond_them() -> None:
    # Its fit on everything scores no fresh10-12 dev row (they are training rows): the
    # beyond-the-folds test does not apply, and the answer says so rather than failing it.
    res = loso30.rule(_result("+8,9+dev10-12", 51, False))
    assert res == {
        "+8,9+dev10-12": ["(note) fresh10-12 dev halves trained on: not judged beyond the folds"]
    }
    assert loso30.RECIPES["+8,9+dev10-12"].dev_halves == ("fresh10", "fresh11", "fresh12")


def test_english_and_the_other_languages_are_grouped_for_the_held_out_report() -> None:
    count = {"n": 2, "block": 1, "hold": 0, "allow": 1}
    fig = {
        "attacks_by_lang": {"en": count, "is": count, "mixed": count},
        "honest_by_lang": {"en": count},
    }
    out = loso30._groups(fig)
    assert out["attacks_en"]["n"] == 2 and out["attacks_other"]["n"] == 4
    assert out["attacks_other"]["caught"]["k"] == 2
    assert out["honest_other"]["n"] == 0
