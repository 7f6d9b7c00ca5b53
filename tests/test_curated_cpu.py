"""Work a write skips because its answer is known: each shortcut gives what the long way
gives (the CPU of one tool call, docs/performance.md)."""

from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from mnemic.curated.operations import Op, OpResult
from mnemic.curated.store import _apply_one, _dedupe, _in_place
from mnemic.errors import ToolError

texts = st.sampled_from(["a", "b", "c", "d", "e"])
ops = st.one_of(
    texts.map(lambda t: Op("add", t)),
    st.tuples(texts, texts).map(lambda p: Op("replace", p[1], p[0])),
    texts.map(lambda t: Op("remove", None, t)),
)


def _sorted_by_origin(before: list[str], working: list[str], results: list[OpResult]) -> list[str]:
    """The long way: a set of the whole target, and when an entry added is one of it
    (taken out and added back), every entry sorted by the place it came from."""
    was = set(before)
    if not any(r.action == "add" and r.status == "added" and r.entry in was for r in results):
        return working
    origin = {e: float(i) for i, e in enumerate(before)}
    for r in results:
        if r.action == "replace" and r.entry is not None and r.previous is not None:
            origin[r.entry] = min(origin.get(r.entry, math.inf), origin.get(r.previous, math.inf))
    return sorted(working, key=lambda e: origin.get(e, math.inf))


@settings(max_examples=600, deadline=None)
@given(st.lists(texts, unique=True, max_size=5), st.lists(ops, min_size=1, max_size=5))
def test_a_batch_keeps_the_order_the_whole_target_s_set_gives(
    before: list[str], batch: list[Op]
) -> None:
    working = list(before)
    results = []
    for op in batch:
        try:
            results.append(_apply_one(working, op, "memory", None))
        except ToolError:
            return  # an old text not found: the write is refused
    if any(op.action == "replace" for op in batch):
        working = _dedupe(working)
    assert _in_place(before, working, results) == _sorted_by_origin(before, working, results)
