"""Tidy 31's protocol (bench/_tidy_pairfit31.py): what each recipe fits on, and its rule."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import _tidy_pairfit31 as t31
from _tidy_pairfit import LPair


def _pair(source: str, share: str) -> LPair:
    return LPair(source, share, "1", "honest", "a", "b")


@pytest.mark.parametrize(
    ("recipe", "source", "share", "role"),
    [
        # today: fresh1-3's test halves train, their dev halves choose the points
        ("today", "fresh2", "test", "train"),
        ("today", "fresh2", "dev", "dev"),
        ("today", "stranger-b", "dev", "dev"),
        ("today", "stranger-a", "train", "train"),
        ("today", "fresh7", "dev", "out"),
        # plus69: both halves of fresh6-9 train, the points as today's
        ("plus69", "fresh7", "test", "train"),
        ("plus69", "fresh7", "dev", "train"),
        ("plus69", "fresh2", "dev", "dev"),
        # plus69s: the points on the strangers' dev files only
        ("plus69s", "fresh2", "dev", "train"),
        ("plus69s", "stranger-d", "dev", "dev"),
        # in no recipe: fresh4-5 (spent halves, no shipped fit), the strangers' e and f
        ("plus69", "fresh4", "dev", "out"),
        ("plus69s", "stranger-e", "train", "out"),
        ("plus69s", "generated", "train", "train"),
    ],
)
def test_each_recipe_puts_each_share_where_its_protocol_says(
    recipe: str, source: str, share: str, role: str
) -> None:
    assert t31.role(t31.RECIPES[recipe], _pair(source, share)) == role


def test_fresh10_and_fresh11_are_in_no_recipe_and_no_fold() -> None:
    for name in t31.RECIPES:
        for half in ("test", "dev"):
            for s in t31.BEYOND:
                assert t31.role(t31.RECIPES[name], _pair(s, half)) == "out"
    assert not set(t31.BEYOND) & set(t31.LEFT_OUT)
    assert len(t31.LEFT_OUT) == 15


def test_recipe_pairs_keep_the_order_and_relabel_the_share() -> None:
    pairs = [_pair("fresh", "test"), _pair("fresh6", "dev"), _pair("fresh", "dev"),
             _pair("fresh5", "dev"), _pair("stranger-f", "dev")]  # fmt: skip
    got = t31.recipe_pairs("plus69", pairs)
    assert [(p.source, p.share) for p in got] == [
        ("fresh", "train"), ("fresh6", "train"), ("fresh", "dev")
    ]  # fmt: skip
    assert Counter(p.share for p in t31.recipe_pairs("today", pairs)) == {"train": 1, "dev": 1}


def _set(joined: int, merged: int = 0) -> dict[str, int]:
    return {"honest_joined": joined, "honest_merged": merged}


def _result(
    flagged: tuple[int, int, int], honest: int, beyond_rewording: int = 10
) -> dict[str, Any]:
    def pool(r: int, u: int, c: int) -> dict[str, Any]:
        return {"rewording": {"flagged": {"k": r}}, "update": {"flagged": {"k": u}},
                "contradiction": {"flagged": {"k": c}}}  # fmt: skip

    def row(r: int) -> dict[str, int]:
        return {"rewording": r, "update": 5, "contradiction": 5, **_set(1)}

    return {
        "loso": {
            "pooled": {"today": pool(100, 100, 100), "x": pool(*flagged)},
            "sets": {"fresh": {"today": _set(2), "x": _set(honest)}},
        },
        "beyond": {"fresh10": {"shipped": row(10), "x": row(beyond_rewording)}},
    }


def test_the_ship_rule_needs_a_gain_and_no_honest_pair_more_on_any_set() -> None:
    assert t31.verdict(_result((101, 100, 100), 2), "x")["passes"]
    assert t31.verdict(_result((100, 101, 99), 2), "x")["passes"]  # one pair less is allowed
    assert not t31.verdict(_result((100, 100, 100), 2), "x")["passes"]  # no gain
    assert t31.verdict(_result((103, 101, 98), 2), "x")["falls_by_more_than_one"] == [
        "contradiction"
    ]
    assert t31.verdict(_result((101, 100, 100), 3), "x")["honest_up_on"] == ["fresh"]
    assert t31.verdict(_result((101, 100, 100), 2, 9), "x")["fresh10_11_dev_worse"] == [
        "fresh10 rewording"
    ]


def test_auc_counts_a_tie_as_half_and_needs_both_sides() -> None:
    assert t31.auc([1.0, 2.0, 3.0], [0.0, 0.5]) == 1.0
    assert t31.auc([0.0], [1.0, 2.0]) == 0.0
    assert t31.auc([1.0], [1.0]) == 0.5
    assert t31.auc([0.9, 0.2], [0.5]) == 0.5
    assert t31.auc([], [0.5]) is None
