"""Work a write skips because its answer is known: each shortcut gives what the long way
gives (the CPU of one tool call, docs/performance.md)."""

from __future__ import annotations

import hashlib
import math
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from _passes import count_whole_passes
from mnemic.backends.files.curated import FileBackend
from mnemic.backends.files.flusher import drain
from mnemic.curated import entries
from mnemic.curated.entries import DELIMITER, char_count, counted
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op, OpResult
from mnemic.curated.store import _apply_one, _dedupe, _in_place
from mnemic.curated.usage import Usage
from mnemic.errors import MnemicError, ToolError, UnreadableFile, WriteFailed

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


# -- the files backend's codec memo: bytes read or written, and their text ---------------


def _backend(tmp_path: Path) -> FileBackend:
    return FileBackend(tmp_path / "memories")


def test_an_add_writes_the_whole_texts_utf8_when_only_its_new_part_is_encoded(
    tmp_path: Path,
) -> None:
    mem = Memory.open(tmp_path)
    facts = ["Café opens at 08:00.", "Ünïcode ✓ fact", "plain ascii fact", "日本語のメモ"]
    for fact in facts:
        mem.add("memory", fact)
        on_disk = (tmp_path / "memories" / "MEMORY.md").read_bytes()
        assert on_disk == DELIMITER.join(mem.entries("memory")).encode("utf-8")
    assert mem.entries("memory") == facts


def test_a_target_another_process_rewrote_reads_as_its_new_bytes(tmp_path: Path) -> None:
    """Same length, same modification time, another process: the bytes decide."""
    backend = _backend(tmp_path)
    path = backend.path("memory")
    with backend.transaction(["memory"], 5.0) as txn:
        txn.write({"memory": "first fact"})
    assert backend.read("memory") == "first fact"
    st = os.stat(path)
    code = (
        "import os, sys; p = sys.argv[1]; open(p, 'wb').write('fïrst fact'.encode()[:10]);"
        "os.utime(p, ns=(int(sys.argv[2]), int(sys.argv[2])))"
    )
    subprocess.run([sys.executable, "-c", code, str(path), str(st.st_mtime_ns)], check=True)
    assert os.stat(path).st_size == st.st_size and os.stat(path).st_mtime_ns == st.st_mtime_ns
    assert backend.read("memory") == "fïrst fac"
    with backend.transaction(["memory"], 5.0) as txn:
        txn.write({"memory": "fïrst fac\n§\nsecond"})
    assert path.read_bytes() == "fïrst fac\n§\nsecond".encode()


def test_a_text_is_refused_where_it_cannot_be_encoded_past_the_text_read(
    tmp_path: Path,
) -> None:
    backend = _backend(tmp_path)
    with backend.transaction(["memory"], 5.0) as txn:
        txn.write({"memory": "fact one"})
    assert backend.read("memory") == "fact one"
    with (
        pytest.raises(WriteFailed, match="at character 12\\)"),
        backend.transaction(["memory"], 5.0) as txn,
    ):
        txn.write({"memory": "fact one\n§\nx\ud800"})
    assert backend.read("memory") == "fact one"


@pytest.mark.parametrize("raw", [b"\xef\xbb\xbffact one", b"fact\x00one", b"fact \xff one"])
def test_a_file_read_twice_is_read_the_same_way_each_time(tmp_path: Path, raw: bytes) -> None:
    """A BOM dropped, a NUL or bad UTF-8 refused: the second read as the first."""
    backend = _backend(tmp_path)
    backend.path("memory").write_bytes(raw)
    first: object
    try:
        first = backend.read("memory")
    except UnreadableFile as exc:
        first = type(exc)
    for _ in range(2):
        try:
            assert backend.read("memory") == first
        except UnreadableFile as exc:
            assert type(exc) is first


# -- the budget's count of an add: the entries added, not the whole target joined ------

pool = st.sampled_from(["alpha fact", "béta fact", "gamma fact ✓", "delta", "epsilon fact"])
batch_op = st.one_of(
    pool.map(lambda t: Op("add", t)),
    st.tuples(pool, pool).map(lambda p: Op("replace", p[1], p[0])),
    pool.map(lambda t: Op("remove", None, t)),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(batch_op, min_size=1, max_size=4), min_size=1, max_size=5))
def test_the_usage_of_a_write_counts_the_entries_it_leaves(batches: list[list[Op]]) -> None:
    """Whatever was added, replaced or removed (single operations and batches), the
    chars a write reports and budgets are those of its entries joined."""
    with tempfile.TemporaryDirectory() as root:
        mem = Memory.open(Path(root))
        for ops in batches:
            try:
                got = mem.apply("memory", ops, batch=len(ops) > 1)
            except MnemicError:
                continue  # an old text not there, a batch emptying the target
            entries = mem.entries("memory")
            assert got.usage.chars == len(DELIMITER.join(entries)) == char_count(entries)
            assert got.usage.chars == Usage.of("memory", list(entries), 10**6).chars


def test_a_tuple_counted_by_its_maker_is_its_own_count_and_no_other() -> None:
    made = counted(tuple(["a", "bc"]), 6)
    other = tuple(["a", "bc"])
    assert other is not made
    assert char_count(made) == char_count(other) == char_count(["a", "bc"]) == 6
    assert char_count(("a",)) == 1


# -- the text a replace or a remove wrote is known to the next write -------------------


@pytest.mark.parametrize("change", ["replace", "remove"])
def test_a_write_after_a_replace_or_remove_goes_over_the_text_it_wrote_neither_to_parse_nor_hash(
    make_memory: Callable[..., Memory], monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """A replace or a remove rewrites the whole text, which it reads back to check it;
    that read-back is the text's parse (and its drift), and its hash is the audit
    record's: the next write, finding that text under the lock, does neither again."""
    mem = make_memory(memory_char_limit=10_000_000)
    mem.batch("memory", [Op("add", f"Fact {i}: shard {i} exports nightly.") for i in range(300)])
    if change == "replace":
        mem.replace("memory", "Fact 7: shard 7", "Fact 7: shard 7 exports weekly.")
    else:
        mem.remove("memory", "Fact 7: shard 7")
    path = mem.backend.path("memory")  # type: ignore[attr-defined]
    passes, whole = count_whole_passes(monkeypatch, len(path.read_text(encoding="utf-8")) - 100)
    mem.add("memory", "Fact 301: shard 301 exports nightly.")
    monkeypatch.undo()
    assert (passes, whole) == ([], [])
    drain()
    assert mem.governor is not None
    record = list(mem.governor.journal.records())[-1]
    text = path.read_text(encoding="utf-8")
    head = text[: -len("\n§\nFact 301: shard 301 exports nightly.")]
    assert record["before"] == {"memory": hashlib.sha256(head.encode()).hexdigest()}
    assert record["after"] == {"memory": hashlib.sha256(text.encode()).hexdigest()}
    assert mem.entries("memory") == entries.parse(text)
