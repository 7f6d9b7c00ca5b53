"""A pair of entries as tidy plans it: MEMORY.md holding ``a`` (written nine days ago)
and ``b`` (two days ago), judged now, by the signal tests of tidy."""

from __future__ import annotations

from mnemic.ops.tidy import TidyProposal, plan

DAY = 86_400.0
NOW = 1_800_000_000.0
OLD, NEW = NOW - 9 * DAY, NOW - 2 * DAY


def planned(
    a: str, b: str, cosine: float | None = None, *, learned: bool = False
) -> list[TidyProposal]:
    """What tidy's rules plan for MEMORY.md holding ``a`` (written first) and ``b``;
    ``cosine``: the two entries' cosine, as the embedder would give it (``None``:
    offline); ``learned``: with the shipped pair model beside the rules (these tests
    judge the rules: ``tests/test_tidy_pairmodel.py`` judges the model)."""
    cosines = None if cosine is None else [[1.0, cosine], [cosine, 1.0]]
    return plan(
        "memory", [a, b], [OLD, NEW], now=NOW, stale_after_days=90, verbose_chars=280,
        cosines=cosines, learned=learned,
    )  # fmt: skip
