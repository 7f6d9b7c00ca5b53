"""An add to a large target: the entries it appended are known to the audit change, the
loop guards and the session's view without a pass over the whole target
(``entries.extended``, docs/performance.md "perf14"); each shortcut answers what
comparing the whole target answers, and a text changed by someone else is compared."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from mnemic.backends.files.flusher import drain
from mnemic.curated import entries
from mnemic.curated.entries import appended, came_and_went, extended, flipped, fresh_tail
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.curated.tool import run_memory_tool

texts = st.text(alphabet="abcdef", min_size=1, max_size=3)


def _forgotten() -> None:
    entries._extended = ((), ())


@pytest.mark.slow  # over a second of CPU: out of --quick, in the whole suite (session 58)
@settings(max_examples=400, deadline=None)
@given(
    st.lists(texts, unique=True, max_size=8),
    st.lists(texts, unique=True, max_size=4),
    st.lists(texts, max_size=8),
)
def test_a_pair_told_extended_reads_as_comparing_the_whole_target(
    before: list[str], tail: list[str], other: list[str]
) -> None:
    """``extended`` is told only what the store knows (new entries, none found before);
    for that pair each function answers what comparing the two answers, and for any
    other pair (equal texts in other tuples included) the comparison is made."""
    tail = [e for e in tail if e not in before]
    b, a = tuple(before), tuple(before + tail)
    _forgotten()
    long_way = (appended(b, a), came_and_went(b, a), list(flipped(b, a)), fresh_tail(b, a))
    assert extended(b, a) is a
    short = (appended(b, a), came_and_went(b, a), list(flipped(b, a)), fresh_tail(b, a))
    assert [list(x) if isinstance(x, tuple) else x for x in short] == [
        list(x) if isinstance(x, tuple) else x for x in long_way
    ]
    # other pairs, the memo still holding (b, a): compared as before
    for pair in ((tuple(before), tuple(before + tail)), (b, tuple(other)), (tuple(other), a)):
        got = (appended(*pair), came_and_went(*pair), sorted(flipped(*pair)), fresh_tail(*pair))
        extended((), ())  # forget (b, a)
        want = (appended(*pair), came_and_went(*pair), sorted(flipped(*pair)), fresh_tail(*pair))
        extended(b, a)
        assert got == want
    _forgotten()


def _count_whole_target_looks(monkeypatch: pytest.MonkeyPatch, size: int) -> list[tuple[str, int]]:
    """Every call of ``entries.not_in`` / ``entries.appended`` given a sequence of at
    least ``size`` entries to compare with (a pass over the whole target)."""
    seen: list[tuple[str, int]] = []
    not_in, appended_ = entries.not_in, entries.appended

    def counted_not_in(found: Sequence[str], among: Sequence[str]) -> list[str]:
        if len(among) >= size:
            seen.append(("not_in", len(among)))
        return not_in(found, among)

    def counted_appended(before: Sequence[str], after: Sequence[str]) -> Any:
        if len(before) >= size and entries._known_tail(before, after) is None:
            seen.append(("appended", len(before)))
        return appended_(before, after)

    monkeypatch.setattr(entries, "not_in", counted_not_in)
    monkeypatch.setattr(entries, "appended", counted_appended)
    return seen


def _call(mem: Memory, **args: Any) -> dict[str, Any]:
    resp = run_memory_tool(mem, json.dumps(args))
    assert resp.get("success"), resp
    return resp


def test_a_tool_add_to_a_large_target_compares_no_whole_target_after_its_duplicate_check(
    make_memory: Callable[..., Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The audit change (``diff``), the oscillation guard (before the write), the
    guard's count of flips and the session's view (after it) each found the new entry
    by comparing it with every entry of the target; the store appended it, so it knows."""
    mem = make_memory(memory_char_limit=10_000_000)
    mem.batch("memory", [Op("add", f"Fact {i}: shard {i} exports nightly.") for i in range(1200)])
    _call(mem, action="add", target="memory", content="Fact 1200: shard 1200 exports nightly.")
    seen = _count_whole_target_looks(monkeypatch, 1000)
    _call(mem, action="add", target="memory", content="Fact 1201: shard 1201 exports nightly.")
    monkeypatch.undo()
    assert seen == []
    drain()
    assert mem.governor is not None
    record = list(mem.governor.journal.records())[-1]
    assert [a["text"] for a in record["changes"]["memory"]["added"]] == [
        "Fact 1201: shard 1201 exports nightly."
    ]
    assert record["changes"]["memory"]["removed"] == []


@pytest.mark.parametrize("how", ["hand_edit_same_size", "other_process_add"])
def test_an_add_after_someone_else_changed_the_text_compares_it_whole(
    make_memory: Callable[..., Memory], how: str
) -> None:
    """The memo is of the tuple this session wrote; a text changed since (a hand edit of
    the same size and modification time, another process's add) is read afresh, so the
    record, the guards and the session's view see the change."""
    mem = make_memory(memory_char_limit=10_000_000)
    mem.batch("memory", [Op("add", f"Fact {i}: shard {i} exports nightly.") for i in range(40)])
    _call(mem, action="add", target="memory", content="Fact 40: shard 40 exports nightly.")
    path = mem.backend.path("memory")  # type: ignore[attr-defined]
    if how == "hand_edit_same_size":
        st_before = os.stat(path)
        old, new = "Fact 7: shard 7 exports nightly.", "Fact 7: shard 7 exports weekly!."
        text = path.read_text(encoding="utf-8").replace(old, new)
        path.write_text(text, encoding="utf-8")
        os.utime(path, ns=(st_before.st_atime_ns, st_before.st_mtime_ns))
        assert os.stat(path).st_size == st_before.st_size
        came, went = [new], [old]
    else:
        other = Memory.open(path.parent.parent)
        other.add("memory", "Fact 99: written by another session.")
        drain()
        came, went = ["Fact 99: written by another session."], []
    resp = _call(mem, action="add", target="memory", content="Fact 41: shard 41 exports nightly.")
    drain()
    assert mem.governor is not None
    record = list(mem.governor.journal.records())[-1]
    assert [a["text"] for a in record["changes"]["memory"]["added"]] == [
        "Fact 41: shard 41 exports nightly."
    ]
    assert resp["external_changes"]["added"] == came
    assert resp["external_changes"]["removed"] == went
    live = mem.entries("memory")
    assert live[-1] == "Fact 41: shard 41 exports nightly."
    assert all(e in live for e in came) and not any(e in live for e in went)
    assert mem.poll_external_changes() == []  # reported once


@pytest.mark.parametrize("how", ["batch_remove_then_adds", "eviction"])
def test_a_write_that_adds_and_takes_out_records_what_comparing_the_whole_target_finds(
    make_memory: Callable[..., Memory], how: str
) -> None:
    """Only a write of adds alone is told to ``extended``: one that also takes entries
    out (a batch's remove, an eviction by ``on_full``) ends with one entry more or as
    many, and its change is the whole comparison's."""
    if how == "eviction":
        mem = make_memory(memory_char_limit=400, on_full="archive_oldest")
    else:
        mem = make_memory(memory_char_limit=10_000_000)
    facts = [f"Fact {i}: shard {i} exports nightly, every night at 02:00 UTC." for i in range(5)]
    mem.batch("memory", [Op("add", f) for f in facts])
    before = mem.entries("memory")
    if how == "eviction":  # two adds that one eviction makes room for: one entry more
        adds = [f"New fact {c}: forty-five characters, give or take." for c in "AB"]
        mem.batch("memory", [Op("add", a) for a in adds])
    else:
        mem.batch(
            "memory",
            [Op("remove", None, facts[3]), Op("add", "New A."), Op("add", "New B.")],
        )
    drain()
    after = mem.entries("memory")
    assert mem.governor is not None
    change = list(mem.governor.journal.records())[-1]["changes"]["memory"]
    assert [a["text"] for a in change["added"]] == [e for e in after if e not in before]
    assert sorted(r["text"] for r in change["removed"]) == sorted(
        e for e in before if e not in after
    )
    assert change["removed"]  # something was taken out
    assert len(after) == len(before) + 1 or how != "eviction"


# -- whether a target's entries are all ASCII (the usage's token estimate) ---------------


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="abé", min_size=1, max_size=2), unique=True, max_size=6),
    st.lists(st.text(alphabet="abé", min_size=1, max_size=2), unique=True, max_size=3),
)
def test_all_ascii_answers_for_a_grown_tuple_what_looking_at_every_entry_answers(
    before: list[str], tail: list[str]
) -> None:
    tail = [e for e in tail if e not in before]
    b = tuple(before)
    assert entries.all_ascii(b) == all(e.isascii() for e in b)
    a = extended(b, tuple(before + tail))
    assert entries.all_ascii(a) == all(e.isascii() for e in a)
    entries.all_ascii(b)
    assert entries.all_ascii(("plain",)) is True  # asked about another tuple since b
    assert entries.all_ascii(a) == all(e.isascii() for e in a)
    # an equal tuple that is another object, and a list, are looked at whole
    assert entries.all_ascii(tuple(before + tail)) == all(e.isascii() for e in a)
    assert entries.all_ascii(["é", *before]) is False
    _forgotten()


def test_the_usage_of_an_add_to_a_large_target_looks_at_its_new_entry_only(
    make_memory: Callable[..., Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The token estimate asks whether every entry is ASCII; after an add, the answer
    for the entries before it is known, so only the new entry is looked at, and the
    estimate is the one the joined text gives (a non-ASCII entry included)."""
    from mnemic.curated import usage
    from mnemic.curated.entries import serialize
    from mnemic.tokens import estimate_tokens

    mem = make_memory(memory_char_limit=10_000_000)
    mem.batch("memory", [Op("add", f"Fact {i}: shard {i} exports nightly.") for i in range(1200)])
    mem.add("memory", "Fact 1200: shard 1200 exports nightly.")
    looked: list[int] = []

    def counting_map(fn: Any, *its: Any) -> Any:
        if fn is str.isascii:
            its = tuple(list(it) for it in its)
            looked.append(len(its[0]))
        return map(fn, *its)

    monkeypatch.setattr(usage, "map", counting_map, raising=False)
    monkeypatch.setattr(entries, "map", counting_map, raising=False)
    got = mem.add("memory", "Fact 1201: shard 1201 exports nightly.")
    monkeypatch.undo()
    assert sum(looked) <= 1
    live = mem.entries("memory")
    assert got.usage.tokens == estimate_tokens(serialize(live))
    got = mem.add("memory", "Fact 1202: café at shard 1202.")  # not ASCII
    assert got.usage.tokens == estimate_tokens(serialize(mem.entries("memory")))
    got = mem.add("memory", "Fact 1203: shard 1203 exports nightly.")
    assert got.usage.tokens == estimate_tokens(serialize(mem.entries("memory")))
