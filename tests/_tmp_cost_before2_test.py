"""Tidy's cost on a big store (tidycost, issue 26): each pair judged once, each entry's
words read once, counted on a generated store with deterministic counters (never times).

Before tidycost, the learned pair layer judged every pair a second time and the rules
stemmed each entry's words again beside every other entry: both grew as n² per store.
That the proposals stay the same is checked against the code before the change by
``bench/tidy_cost.py`` (every tidy data set and random stores); the rewritings that are
not a cache are checked here against their plain form."""

from __future__ import annotations

import json
import random
import unicodedata
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mnemic.ops.tidy import detect, lexicon, plan

THINGS = ["the staging database", "the CI cache", "the nightly export", "the auth proxy",
          "the search index", "the release branch", "the backup bucket"]  # fmt: skip
VERBS = ["runs on", "lives in", "is rebuilt by", "is owned by", "is checked by", "is served from"]
WHERE = ["host db-{n}.internal", "port {n}", "bucket logs-{n}", "the channel #ops-{n}",
         "cron at {n}:15 UTC", "region eu-west-{n}"]  # fmt: skip
TOOLS = ["uv", "ruff", "pytest", "docker", "terraform", "kubectl", "make", "npm"]


def store(n: int, seed: int = 26) -> list[str]:
    """``n`` distinct entries in the shape of ``bench/heavy_home.py``'s, six of them
    reworded near-duplicates of others."""
    rng = random.Random(seed)
    out = [
        f"{rng.choice(THINGS).capitalize()} {rng.choice(VERBS)} "
        f"{rng.choice(WHERE).format(n=k)}; check it with {rng.choice(TOOLS)} (fact {k})."
        for k in range(n - 6)
    ]
    return out + [e.replace("; check it with", "; verify it with") for e in out[:6]]


class _Counting:
    """A stemmer that counts the words it is asked to stem."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.calls = inner, 0

    def stemWord(self, word: str) -> str:  # noqa: N802: snowballstemmer's name
        self.calls += 1
        return str(self.inner.stemWord(word))


N = 120


def test_each_pair_is_judged_once_and_each_word_stemmed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    entries = store(N)
    times: list[float | None] = [1_000.0 + k for k in range(N)]  # file order: oldest first
    judged = 0
    judge = detect.judge

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal judged
        judged += 1
        return judge(*args, **kwargs)

    stemmer = _Counting(lexicon._english())
    monkeypatch.setattr(detect, "judge", counting)
    monkeypatch.setattr(lexicon, "_english", lambda: stemmer)
    proposals = plan("memory", entries, times, now=2_000.0, stale_after_days=90,
                     verbose_chars=400)  # fmt: skip
    pairs = N * (N - 1) // 2
    assert len(proposals) >= 6  # the six rewordings, each with its original
    # once per pair (the learned layer reads find's verdict; an acronym's second reading
    # may add a few): before, the learned layer judged each pair it read again
    print("JUDGED", judged, "STEMS", stemmer.calls, "BOUND", 3 * len({w for e in entries for w in e.casefold().split()}) + 5 * N)
    # each distinct word once: bounded by the store's words, where before the rules
    # stemmed an entry's words beside each other entry (tens of thousands of calls)
    words = {w for e in entries for w in e.casefold().split()}
    assert stemmer.calls <= 3 * len(words) + 5 * N

