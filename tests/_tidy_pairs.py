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


def pair_kind(a: str, b: str, *, learned: bool = False) -> str:
    """The kind of the proposal tidy plans for exactly ``a`` and ``b`` ("merge",
    "supersede"…), or "none"."""
    found = [p for p in planned(a, b, learned=learned) if set(p.entries) == {a, b}]
    return found[0].kind if found else "none"


def verdict(a: str, b: str) -> str:
    """What tidy plans for a proposal holding both: "supersede" (``b`` kept),
    "supersede-old" (``a`` kept), "merge" or "none"."""
    for q in planned(a, b):
        if set(q.entries) >= {a, b}:
            if q.kind == "supersede":
                return "supersede" if q.entries[0] == b else "supersede-old"
            return q.kind
    return "none"
