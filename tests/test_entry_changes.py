"""The change a write makes to a target's entries (``diff``, the oscillation guard's
``flipped``): an add is found from its appended entries without going over the whole
target, and says exactly what the comparison of the whole target says."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from mnemic.curated import changes
from mnemic.curated.changes import diff
from mnemic.curated.entries import appended, came_and_went, flipped
from mnemic.curated.operations import OpResult

texts = st.text(alphabet="abc", min_size=1, max_size=3)
unique = st.lists(texts, unique=True, max_size=12)


@given(
    unique,
    st.lists(texts, max_size=10),
    st.lists(texts, max_size=4),
    st.lists(texts, max_size=4),
)
def test_the_change_of_an_add_is_what_comparing_the_whole_target_finds(
    before: list[str], tail: list[str], restored: list[str], expiring: list[str]
) -> None:
    """Entries appended (a few or many, some already there or repeated), restored and
    expiring texts: the change is the one the general comparison makes."""
    after = before + tail
    results = [OpResult("add", "added", e, target="memory") for e in tail]
    kwargs = {
        "author": ("agent", "mcp", "s1"),
        "restored": {t: f"id-{t}" for t in restored},
        "expires": {t: 1.0 + i for i, t in enumerate(expiring)},
    }
    shortcut = diff(before, tuple(after), results, **kwargs)  # type: ignore[arg-type]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(changes, "fresh_tail", lambda before, after: None)
        whole = diff(before, tuple(after), results, **kwargs)  # type: ignore[arg-type]
    assert shortcut == whole


@given(unique, st.lists(texts, max_size=12), st.lists(texts, max_size=10))
def test_the_entries_a_write_flips_are_the_symmetric_difference(
    before: list[str], other: list[str], tail: list[str]
) -> None:
    for after in (other, before + tail):
        found = list(flipped(before, after))
        assert len(found) == len(set(found))
        assert set(found) == set(before).symmetric_difference(after)


@given(unique, st.lists(texts, max_size=12), st.lists(texts, max_size=10))
def test_what_came_and_went_is_found_in_the_order_of_each_side(
    before: list[str], other: list[str], tail: list[str]
) -> None:
    """What another session's writes did, as a session's next answer reports it."""
    for after in (other, before + tail):
        came, went = came_and_went(before, after)
        assert came == [e for e in after if e not in set(before)]
        assert went == [e for e in before if e not in set(after)]


def test_only_entries_added_at_the_end_are_an_append() -> None:
    assert appended(["a", "b"], ("a", "b", "c")) == ("c",)
    assert appended(("a", "b"), ["a", "b", "c", "d"]) == ["c", "d"]
    assert appended(["a", "b"], ["a", "b"]) is None
    assert appended(["a", "b"], ["b", "a", "c"]) is None
    assert appended(["a", "b"], ["a"]) is None
