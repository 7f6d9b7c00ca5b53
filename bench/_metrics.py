"""Figures with their uncertainty: per-question values, their mean, n and a 95 % interval.

Every figure ``./x bench recall`` reports is a mean over questions of a per-question value
(a recall in 0..1, or 1/0 for "the update ranked first"). :func:`figure` gives the mean,
the number of questions and a percentile bootstrap 95 % interval (2,000 resamples, a fixed
seed, so a rerun prints the same interval).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

RESAMPLES = 2000
SEED = 20261204


def figure(values: Sequence[float]) -> dict[str, Any]:
    """``{"value", "n", "ci95"}`` of ``values`` (value and interval rounded to 4 places)."""
    n = len(values)
    if not n:
        return {"value": None, "n": 0, "ci95": None}
    arr = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(SEED)
    means = arr[rng.integers(0, n, size=(RESAMPLES, n))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return {"value": round(float(arr.mean()), 4), "n": n, "ci95": [round(lo, 4), round(hi, 4)]}


class Scores:
    """Per-question values by metric, overall and per group (a category, a language...)."""

    def __init__(self) -> None:
        self.values: dict[str, list[float]] = defaultdict(list)
        self.groups: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))

    def add(self, metric: str, value: float, groups: Iterable[str] = ()) -> None:
        """One question's ``value`` of ``metric``, counted overall and in each group."""
        self.values[metric].append(float(value))
        for g in groups:
            self.groups[g][metric].append(float(value))

    def result(self) -> dict[str, Any]:
        """Every metric as a :func:`figure`, overall and ``by`` group."""
        return {
            **{m: figure(v) for m, v in self.values.items()},
            "by": {
                g: {m: figure(v) for m, v in ms.items()} for g, ms in sorted(self.groups.items())
            },
        }


def recall_at(evidence: set[Any], ranked: Sequence[Any], k: int) -> float:
    """The share of ``evidence`` among the first ``k`` of ``ranked``."""
    return len(evidence & set(ranked[:k])) / len(evidence) if evidence else 0.0


def session_recall_at(evidence_sessions: set[str], ranked_sessions: Sequence[str], k: int) -> float:
    """The share of ``evidence_sessions`` among the first ``k`` distinct sessions."""
    distinct = list(dict.fromkeys(ranked_sessions))
    return recall_at(evidence_sessions, distinct, k)


Z = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


def wilson(k: int, n: int) -> list[float]:
    """The 95 % Wilson score interval of k successes in n, rounded to 4 places (the
    tidy and short-text floor benches report shares with it)."""
    if n == 0:
        return [0.0, 1.0]
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]
