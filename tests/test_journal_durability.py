"""``[memory] durability = "journal"``: a write is durable by its audit record alone.

The call waits for one flush (the journal's ``fdatasync``); the temp file and the
directory are not fsynced, so a power cut may lose the text the rename put in place
(the page cache: the file empty, short, the previous text, or the rename itself). The
next writer's open rebuilds the exact text from the journal. A power cut is simulated:
the target replaced by each thing the page cache could lose, and the boot id changed
(a page cache loses nothing without a reboot; within one boot the files mean what they
mean in the files setting, which the kill tests below check in this mode).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import test_curated_crash as crash
import test_journal_crash as journal_crash
from mnemic.backends.files import curated as files_curated, lost as files_lost
from mnemic.backends.files.flusher import drain
from mnemic.backends.files.journal import AuditJournal
from mnemic.curated import archive
from mnemic.curated.entries import parse
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool


@pytest.fixture(autouse=True)
def journal_durability(_isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test here (the kill tests imported below included) in journal durability."""
    monkeypatch.setenv("MNEMIC_MEMORY_DURABILITY", "journal")
    monkeypatch.setattr(files_lost, "_BOOT", ["boot-1"])


# The kill tests of the write path, run again in this mode: a writer killed at any
# file-system call leaves the state before or after, provenance and causes true.
forker = crash.forker  # their children's forker (a module fixture of theirs)
test_kill_before_every_filesystem_call_of_a_write = (
    crash.test_kill_before_every_filesystem_call_of_a_write
)
test_a_write_killed_between_its_record_and_its_rename_leaves_every_entry_as_it_was = (
    crash.test_a_write_killed_between_its_record_and_its_rename_leaves_every_entry_as_it_was
)
test_a_write_killed_at_any_call_leaves_the_provenance_the_last_commit_recorded = (
    crash.test_a_write_killed_at_any_call_leaves_the_provenance_the_last_commit_recorded
)
test_changes_only_crashes_made_are_never_recorded_as_outside_edits = (
    crash.test_changes_only_crashes_made_are_never_recorded_as_outside_edits
)
test_random_kills_of_a_busy_writer_leave_provenance_and_causes_true = (
    crash.test_random_kills_of_a_busy_writer_leave_provenance_and_causes_true
)
test_a_first_append_killed_at_any_call_leaves_a_journal_that_verifies = (
    journal_crash.test_a_first_append_killed_at_any_call_leaves_a_journal_that_verifies
)

CALLS: list[dict[str, Any]] = [
    {"action": "add", "target": "memory", "content": "The repo builds with make -j2."},
    {"action": "add", "target": "memory", "content": "Staging deploys run at 02:00 UTC."},
    {"action": "add", "target": "user", "content": "The user prefers short answers."},
    {"action": "replace", "target": "memory", "old_text": "make", "content": "Builds use ninja."},
    {"action": "add", "target": "memory", "content": "Logs rotate weekly."},
    {"action": "remove", "target": "memory", "old_text": "Staging"},
]


def _call(mem: Memory, call: dict[str, Any]) -> dict[str, Any]:
    out = run_memory_tool(mem, json.dumps(call))
    assert out["success"], out
    return out


def _records(home: Path) -> list[dict[str, Any]]:
    drain()
    return list(AuditJournal(home / "audit").records())


def _state(home: Path) -> tuple[list[tuple[str, Any]], list[Any]]:
    """Provenance of every live entry and the archive, as a fresh reader sees them."""
    view = Memory.open(home)
    return view.provenance("memory"), archive.listing(view)


def _reboot(monkeypatch: pytest.MonkeyPatch, boot: str) -> None:
    monkeypatch.setattr(files_lost, "_BOOT", [boot])


# -- what a write waits for --------------------------------------------------------------


def _flushes(m: pytest.MonkeyPatch, during: list[bool]) -> list[tuple[str, bool, bool]]:
    """(call, in the caller's thread, while the call ran) of every fsync and fdatasync."""
    seen: list[tuple[str, bool, bool]] = []
    main = threading.get_ident()
    for name in ("fsync", "fdatasync"):
        real = getattr(os, name)

        def counted(fd: int, _real: Callable[[int], None] = real, _name: str = name) -> None:
            seen.append((_name, threading.get_ident() == main, during[0]))
            _real(fd)

        m.setattr(os, name, counted)
    return seen


@pytest.mark.parametrize("mode", ["files", "journal"])
def test_a_call_waits_for_two_flushes_in_files_mode_and_one_in_journal_mode(
    home_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    monkeypatch.setenv("MNEMIC_MEMORY_DURABILITY", mode)
    mem = Memory.open(home_path)
    _call(mem, CALLS[0])  # the journal's first record and the history's directory exist
    drain()
    for call in CALLS[1:4]:
        during = [True]
        with monkeypatch.context() as m:
            seen = _flushes(m, during)
            _call(mem, call)
            during[0] = False
            drain()
        fsyncs = [(main, d) for name, main, d in seen if name == "fsync"]
        datasyncs = [(main, d) for name, main, d in seen if name == "fdatasync"]
        if mode == "files":
            # the temp file's (its helper thread) and the directory's (the caller's),
            # both before the call returns; the journal's after it or beside it, never
            # waited for by the caller
            assert sorted(fsyncs) == [(False, True), (True, True)], call
            assert len(datasyncs) == 1 and datasyncs[0] != (True, True), call
        else:
            assert fsyncs == [], call
            assert datasyncs == [(True, True)], call  # the record's: the call waits for it


def test_files_mode_records_carry_no_replay(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MNEMIC_MEMORY_DURABILITY", "files")
    mem = Memory.open(home_path)
    for call in CALLS:
        _call(mem, call)
    assert not any("replay" in json.dumps(r) for r in _records(home_path))


def test_a_journal_mode_record_carries_what_rebuilds_the_text(home_path: Path) -> None:
    mem = Memory.open(home_path)
    for call in CALLS:
        _call(mem, call)
    commits = [r for r in _records(home_path) if r.get("result") == "ok" and r.get("changes")]
    ops = [
        (r["target"], r["changes"][r["target"]]["replay"][0]["op"])
        for r in commits
        if "replay" in r["changes"][r["target"]]
    ]
    # a new file's first text is whole, an add holds what it appended, a replace or a
    # remove the span it changed
    assert ops == [
        ("memory", "text"),
        ("memory", "append"),
        ("user", "text"),
        ("memory", "splice"),
        ("memory", "append"),
        ("memory", "splice"),
    ]
    assert AuditJournal(home_path / "audit").verify().ok


# -- a power cut -------------------------------------------------------------------------

LOSSES = ["empty", "zeros", "prefix", "previous text", "old inode", "missing"]


def _lose(path: Path, kind: str, previous: bytes | None, history: Path) -> None:
    """Replace ``path`` with what a power cut can leave of a text renamed without an
    fsync: the file empty or zero-filled (data never written), a prefix of it, the text
    before (the rename lost: the old inode back at the path), or no file."""
    data = path.read_bytes()
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "zeros":
        path.write_bytes(b"\x00" * len(data))
    elif kind == "prefix":
        path.write_bytes(data[: len(data) // 2])
    elif kind == "previous text":
        assert previous is not None
        path.write_bytes(previous)
    elif kind == "old inode":
        newest = sorted(os.listdir(history))[-1]
        os.unlink(path)
        os.link(history / newest, path)
    else:
        path.unlink()


@pytest.mark.parametrize("kind", LOSSES)
@pytest.mark.parametrize("last", range(len(CALLS)), ids=[c["action"] for c in CALLS])
def test_a_power_cut_after_a_committed_call_loses_nothing(
    home_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, last: int
) -> None:
    mem = Memory.open(home_path)
    target = CALLS[last]["target"]
    path = home_path / "memories" / ("MEMORY.md" if target == "memory" else "USER.md")
    previous = None
    for call in CALLS[: last + 1]:
        previous = path.read_bytes() if path.exists() else None
        _call(mem, call)
    drain()
    committed = path.read_bytes()
    state = _state(home_path)
    if kind in ("previous text", "old inode", "missing") and previous is None:
        pytest.skip("the first text of a file has no earlier one")
    _lose(path, kind, previous, home_path / "memories" / ".history")
    _reboot(monkeypatch, "boot-2")
    Memory.open(home_path)  # a writer's open rebuilds it
    assert path.read_bytes() == committed
    assert _state(home_path) == state
    last_record = _records(home_path)[-1]
    assert (last_record["action"], last_record["cause"]) == ("recovered", "replayed")
    assert AuditJournal(home_path / "audit").verify().ok


def test_doctor_says_what_a_power_cut_lost_and_was_rebuilt(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemic.curated import admin

    mem = Memory.open(home_path)
    _call(mem, CALLS[0])
    _call(mem, CALLS[1])
    path = home_path / "memories" / "MEMORY.md"
    committed = path.read_bytes()
    path.write_bytes(b"")
    _reboot(monkeypatch, "boot-2")
    problems = admin.doctor(Memory.open(home_path), fix=True)
    assert path.read_bytes() == committed
    said = [p for p in problems if "rebuilt from the audit journal" in p.message]
    assert [(p.target, p.fixed) for p in said] == [("memory", True)]


def test_the_next_write_rebuilds_before_it_reads(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An open that could not rebuild (the lock busy) leaves it to the next write,
    which rebuilds under its lock before it reads the text it changes."""
    mem = Memory.open(home_path)
    for call in CALLS[:2]:
        _call(mem, call)
    path = home_path / "memories" / "MEMORY.md"
    committed = parse(path.read_text(encoding="utf-8"))
    path.write_bytes(b"")
    _reboot(monkeypatch, "boot-2")
    with monkeypatch.context() as m:  # the lock busy for the open and its reads
        m.setattr(files_curated.FileBackend, "replay_pending", lambda self: [])
        m.setattr(files_curated.FileBackend, "_replay_free", lambda self, target: None)
        fresh = Memory.open(home_path)
        assert list(fresh.snapshot.entries["memory"]) == committed  # rebuilt in memory only
    assert path.read_bytes() == b""
    _call(fresh, {"action": "add", "target": "memory", "content": "A third fact."})
    assert parse(path.read_text(encoding="utf-8")) == [*committed, "A third fact."]


def test_a_checkpoint_makes_the_texts_durable_and_the_next_writes_replay_from_it(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every 32nd write takes the durable steps (no replay); a later power cut that
    damages the file rebuilds from the version that write left in the history."""
    monkeypatch.setattr(files_curated, "CHECKPOINT_EVERY", 3)
    mem = Memory.open(home_path)
    for i in range(5):
        _call(mem, {"action": "add", "target": "memory", "content": f"Fact number {i}."})
    records = [r for r in _records(home_path) if r.get("result") == "ok" and r.get("changes")]
    carries = ["replay" in r["changes"]["memory"] for r in records]
    assert carries == [True, True, False, True, True]
    path = home_path / "memories" / "MEMORY.md"
    committed = path.read_bytes()
    path.write_bytes(committed[:10])
    _reboot(monkeypatch, "boot-2")
    Memory.open(home_path)
    assert path.read_bytes() == committed


def test_a_hand_edit_after_a_reboot_is_still_a_hand_edit(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = Memory.open(home_path)
    for call in CALLS[:2]:
        _call(mem, call)
    path = home_path / "memories" / "MEMORY.md"
    edited = "An entry typed by hand.\n§\nThe repo builds with make -j2.\n"
    path.write_text(edited, encoding="utf-8")
    _reboot(monkeypatch, "boot-2")
    mem = Memory.open(home_path)
    assert path.read_text(encoding="utf-8") == edited
    _call(mem, {"action": "add", "target": "memory", "content": "A later fact."})
    causes = [r.get("cause") for r in _records(home_path) if r["action"] == "recovered"]
    assert causes == ["outside_edit"]


def test_a_file_emptied_by_hand_after_a_clean_exit_and_a_reboot_stays_empty(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exit's checkpoint records that the text is durable: after a reboot an emptied
    file is a person's edit, not damage to repair."""
    mem = Memory.open(home_path)
    for call in CALLS[:2]:
        _call(mem, call)
    files_curated._checkpoint_all()  # what the process's exit runs
    drain()
    assert _records(home_path)[-1]["action"] == "checkpoint"
    assert AuditJournal(home_path / "audit").verify().ok
    path = home_path / "memories" / "MEMORY.md"
    path.write_bytes(b"")
    _reboot(monkeypatch, "boot-2")
    Memory.open(home_path)
    assert path.read_bytes() == b""


def test_within_one_boot_a_changed_file_is_never_replayed(home_path: Path) -> None:
    """No reboot, no lost page cache: an emptied file is a person's edit."""
    mem = Memory.open(home_path)
    for call in CALLS[:2]:
        _call(mem, call)
    path = home_path / "memories" / "MEMORY.md"
    path.write_bytes(b"")
    Memory.open(home_path)
    assert path.read_bytes() == b""


def test_a_forgotten_text_is_not_replayed(home_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``forget`` drops replay texts as it drops entry texts: what was forgotten cannot
    come back through a replay (the file is then left as found, read as a hand edit)."""
    mem = Memory.open(home_path)
    _call(mem, CALLS[0])
    _call(mem, CALLS[1])
    journal = mem.governor.journal if mem.governor else None
    assert journal is not None
    dropped = journal.forget_texts(lambda rec, target, name, item: "Staging" in item["text"])
    assert dropped >= 2  # the added entry's text and the replay's
    assert "Staging" not in (home_path / "audit" / "journal.jsonl").read_text(encoding="utf-8")
    path = home_path / "memories" / "MEMORY.md"
    path.write_bytes(b"")
    _reboot(monkeypatch, "boot-2")
    Memory.open(home_path)
    assert path.read_bytes() == b""


# -- random writes and random power cuts -------------------------------------------------

_OPS = st.lists(
    st.tuples(
        st.sampled_from(["add", "replace", "remove", "cut"]),
        st.integers(min_value=0, max_value=30),
        st.sampled_from(LOSSES[:5]),
    ),
    min_size=1,
    max_size=14,
)


@pytest.fixture
def homes(tmp_path: Path) -> Iterator[Callable[[], Path]]:
    made: list[Path] = []

    def make() -> Path:
        home = tmp_path / f"home-{len(made)}"
        made.append(home)
        return home

    yield make
    for home in made:
        shutil.rmtree(home, ignore_errors=True)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=_OPS)
@example(
    ops=[
        ("add", 0, "empty"),
        ("cut", 0, "empty"),
        ("add", 2, "empty"),
        ("cut", 0, "empty"),
        ("add", 1, "empty"),
        ("cut", 0, "empty"),
    ]
)
def test_random_writes_and_power_cuts_leave_the_fold_and_the_last_committed_text(
    homes: Callable[[], Path], ops: list[tuple[str, int, str]]
) -> None:
    home = homes()
    path = home / "memories" / "MEMORY.md"
    files_lost._BOOT[:] = ["boot-1"]
    cuts = 0
    mem = Memory.open(home)
    committed: bytes | None = None
    previous: bytes | None = None
    durable = False
    for op, n, kind in ops:
        live = mem.entries("memory")
        if op == "cut":
            # a cut loses only what no flush made durable: nothing since the last cut's
            # rebuild (written durably) until the next write
            if committed is None or durable:
                continue
            if kind in ("previous text", "old inode") and previous is None:
                continue
            drain()
            _lose(path, kind, previous, home / "memories" / ".history")
            # every cut is a new boot: the id must differ from every earlier one (a
            # repeated id reads as the same boot, where an emptied file is a hand edit)
            cuts += 1
            files_lost._BOOT[:] = [f"boot-after-cut-{cuts}"]
            mem = Memory.open(home)
            assert path.read_bytes() == committed
            durable = True
            continue
        if op == "add" or not live:
            call = {"action": "add", "target": "memory", "content": f"Fact {n} of the run."}
        elif op == "replace":
            old = live[n % len(live)]
            call = {
                "action": "replace",
                "target": "memory",
                "old_text": old,
                "content": old + " (v2)",
            }
        else:
            call = {"action": "remove", "target": "memory", "old_text": live[n % len(live)]}
        before = path.read_bytes() if path.exists() else None
        out = run_memory_tool(mem, json.dumps(call))
        if out["success"] and path.exists() and path.read_bytes() != before:
            previous, committed, durable = before, path.read_bytes(), False
    drain()
    if committed is not None:
        fold = Memory.open(home).fold()
        assert fold is not None
        live_keys = set(fold.targets["memory"].live)
        from mnemic.curated.changes import entry_key

        assert live_keys == {entry_key(e) for e in parse(committed.decode("utf-8"))}
        assert AuditJournal(home / "audit").verify().ok


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="ab§\n", max_size=40),
    st.text(alphabet="ab§\n", max_size=40),
    st.sampled_from([1, 3, 4096]),
)
def test_a_splice_rebuilds_the_new_text_from_the_old(old: str, new: str, block: int) -> None:
    """What a replace's record holds (the span it changed) turns the old text into the
    new one, whatever the two texts share (compared a block at a time)."""
    saved = files_curated._BLOCK
    files_curated._BLOCK = block
    try:
        at = files_curated._common_prefix(old, new)
        tail = files_curated._common_suffix(old, new, min(len(old), len(new)) - at)
    finally:
        files_curated._BLOCK = saved
    assert old[:at] == new[:at] and old[len(old) - tail :] == new[len(new) - tail :]
    cut = len(old) - tail - at
    assert old[:at] + new[at : len(new) - tail] + old[at + cut :] == new
    assert at == next(
        (i for i, (x, y) in enumerate(zip(old, new, strict=False)) if x != y),
        min(len(old), len(new)),
    )


def test_the_kill_tests_children_see_the_boot_id_their_test_pinned(
    tmp_path: Path, forker: crash.Forker
) -> None:
    """The kill tests above fork their writers from a small process (``tests/_forker.py``),
    not from the test's own: a writer there read the machine's real boot id while the test
    read "boot-1", so every check after a kill saw a reboot (a power cut) that never was."""
    out = tmp_path / "boot"
    assert forker.wait(forker.fork("write_boot_id", str(out))) == 0
    assert out.read_text() == "boot-1"
