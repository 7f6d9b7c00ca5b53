"""Crash injection: a writer killed at any point leaves the old or the new file, whole,
and what mnemic reports about it (who wrote each entry, what the audit journal says
caused a change) stays true.

Two ways of killing the writer, both in a forked child so the parent can inspect the
home afterwards:
- deterministic: the child kills itself just before its K-th file-system call of one
  write (temp file open, write, fsync, rename, link, unlink...), for every K, or at one
  chosen call (the data's rename: after the ledger and the history link);
- random: the parent kills a child that writes in a tight loop after a random delay
  (the delay chooses the crash point), :data:`RANDOM_KILLS` times a test. For three
  kills in four the delay starts once the child has opened the store (it says so down a
  pipe), so that it lands in the write loop, not in the open: that put about 9 kills in
  100 inside a write's temp-file window on a loaded machine, against 2 in 100 with every
  delay counted from the fork; the fourth still counts from the fork (kills in the open).
  Thousands of random kills are ``./x bench kill_storm`` (3,000 and more).
The loops' children are forked from a small process that imported mnemic (:mod:`_forker`),
not from pytest's (whose size made each fork and exit cost about 20 ms of CPU).
After every kill the file must parse to the previous or the next state, the next open
must remove leftover temp files, and the lock must be free.
"""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from _forker import Forker
from _killpoints import killed, run_killed_at
from mnemic.backends.files.flusher import drain
from mnemic.backends.files.journal import AuditJournal
from mnemic.curated import admin, archive
from mnemic.curated.entries import parse
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.curated.provenance import Provenance
from mnemic.curated.store import file_hash
from mnemic.fsio import SidecarLock, stale_temp_files

pytestmark = pytest.mark.usefixtures("either_commit")

BASE = "base entry that is always present"
RANDOM_KILLS = 110
"""Kills of each random-kill test (220 and 200 before session 50, with every delay from
the fork): half as many, each likelier to land inside a write (see the docstring)."""


@pytest.fixture(scope="module")
def forker() -> Iterator[Forker]:
    """Forks the kill tests' writers (``tests/workers/curated_kills.py``) from a process
    that imported only mnemic: from the test's own (a pytest worker of 300 MB and more),
    a fork and the killed child's exit cost about 20 ms of CPU in page tables alone. Each
    child runs in the environment of the test that asked for it."""
    with Forker("curated_kills") as f:
        yield f


KILLED_AT_WRITE = ("open", "write", "fsync", "replace", "rename", "link", "unlink", "ftruncate",
                   "close")  # fmt: skip
"""The calls :func:`test_kill_before_every_filesystem_call_of_a_write` counts."""


def _check_home(home: Path, allowed: list[list[str]], history_before: int) -> None:
    path = home / "memories" / "MEMORY.md"
    raw = path.read_text(encoding="utf-8") if path.exists() else ""
    assert parse(raw) in allowed, raw
    Memory.open(home)  # the next open cleans up
    assert stale_temp_files(path) == []
    lock = SidecarLock(home / "memories" / "MEMORY.md.lock", timeout=0)
    assert lock.try_acquire(), "a killed writer must not leave the lock held"
    lock.release()
    mem = Memory.open(home)
    for version in mem.backend.history("memory")[history_before:]:
        # a version created by the killed write is the state it replaced
        assert parse(mem.backend.read_version("memory", version.id)) == allowed[0]


@pytest.mark.slow
@pytest.mark.parametrize("history_limit", [50, 2], ids=["history", "recycling"])
@pytest.mark.parametrize("action", ["add", "remove"])
def test_kill_before_every_filesystem_call_of_a_write(
    home_path: Path, forker: Forker, action: str, history_limit: int
) -> None:
    home_path.mkdir()
    (home_path / "config.toml").write_text(f"[memory]\nhistory_limit = {history_limit}\n")
    old = [BASE] if action == "add" else [BASE, "the new entry"]
    new = [BASE, "the new entry"] if action == "add" else [BASE]
    completed = False
    for k in range(1, 60):
        mem = Memory.open(home_path)
        for e in list(mem.entries("memory")):
            mem.remove("memory", e)
        for e in old:
            mem.add("memory", e)
        history_before = len(mem.backend.history("memory"))
        status = forker.run_killed_at(k, "one_write", str(home_path), action, names=KILLED_AT_WRITE)
        _check_home(home_path, [old, new], history_before)
        if not killed(status):
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
            assert Memory.open(home_path).entries("memory") == new
            completed = True
            break
    assert completed, "the write never completed: the kill points did not cover it"
    assert k > 5, "expected several file-system calls inside one write"


@pytest.mark.slow
def test_random_kills_of_a_busy_writer(home_path: Path, forker: Forker) -> None:
    home_path.mkdir()
    Memory.open(home_path).add("memory", BASE)
    rng = random.Random(20261129)
    path = home_path / "memories" / "MEMORY.md"
    left_temp = 0
    for round_ in range(RANDOM_KILLS):
        state = parse(path.read_text(encoding="utf-8"))
        seed = rng.randrange(1_000_000)
        # alternates between `state` and `state + [fact i]`; the delay starts from the fork
        # for 1 in 4, from the open for 1 in 4, and once the loop runs (its first pair
        # written) for 2 in 4: under load a child given 30 ms from its open could still be
        # starting its first write in every round, and no kill landed inside a write
        until = (None, "o", "w", "w")[round_ % 4]
        pid = forker.fork("add_remove_loop", str(home_path), seed, until=until)
        # A random delay picks where in the loop the kill lands (not a synchronisation).
        time.sleep(rng.uniform(0.002, 0.03))
        os.kill(pid, signal.SIGKILL)
        status = forker.wait(pid)
        assert os.WIFSIGNALED(status), "the writer died on its own"
        left_temp += bool(stale_temp_files(path))
        after = parse(path.read_text(encoding="utf-8"))
        assert after == state or (after[:-1] == state and after[-1].startswith("fact ")), (
            state,
            after,
        )
        mem = Memory.open(home_path)
        assert stale_temp_files(path) == []
        if len(after) > 4:
            for extra in after[1:]:
                mem.remove("memory", extra)
    assert left_temp > 0, "no kill landed inside a write; the test did not test anything"


# -- what mnemic reports after a crash -------------------------------------------------------
T0 = 1_000_000.0
BEFORE = ("alpha fact", "beta fact", "gamma fact")
CHANGE = [
    Op("replace", "beta fact, revised", "beta fact"),
    Op("remove", None, "gamma fact"),
    Op("add", "delta fact"),
]
CHANGE_ARGS = [[op.action, op.content, op.old_text] for op in CHANGE]
"""CHANGE as ``tests/workers/curated_kills.py``'s batch takes it."""
AT_THE_RENAME = {"names": ("replace",)}
"""The data's rename is the write's first ``os.replace``: the history link and the
commit's audit record are already in place (the record goes first: write-ahead)."""


def _provenance(home: Path, *, record: bool = False) -> dict[str, Provenance]:
    return dict(Memory.open(home, clock=lambda: T0 + 500).provenance("memory", record=record))


def _seeded(home: Path) -> dict[str, Provenance]:
    home.mkdir(parents=True)
    mem = Memory.open(home, origin="agent", session_id="s1", clock=lambda: T0)
    mem.batch("memory", [Op("add", e) for e in BEFORE])
    return _provenance(home)


def _writer(home: Path) -> Memory:
    """The session whose write is killed (opened before the fork: the kill counts only
    the write's own calls)."""
    return Memory.open(home, origin="cli", session_id="s2", clock=lambda: T0 + 100)


def _after_the_change(before: dict[str, Provenance]) -> dict[str, Provenance]:
    """What a committed CHANGE records: the replace keeps the entry's created time."""
    beta = before["beta fact"]
    fresh = Provenance(T0 + 100, T0 + 100, "cli", "cli", "s2", T0 + 100)
    return {
        "alpha fact": before["alpha fact"],
        "beta fact, revised": Provenance(beta.created, T0 + 100, "cli", "cli", "s2", beta.seen),
        "delta fact": fresh,
    }


def test_a_write_killed_between_its_record_and_its_rename_leaves_every_entry_as_it_was(
    home_path: Path,
) -> None:
    """The record is appended before the text is renamed into place: killed between
    the two, the file is the old text and the journal's last record describes the new
    one. Every live entry reads as before (author, session, times), nothing it would
    have removed is in the archive, and so it stays after the next write, which records
    that the last record never committed."""
    before = _seeded(home_path)
    path = home_path / "memories" / "MEMORY.md"
    text = path.read_text(encoding="utf-8")
    for ops in ([CHANGE[0]], [CHANGE[1]], CHANGE):
        writer = _writer(home_path)
        status = run_killed_at(1, lambda w=writer, o=ops: w.batch("memory", o), **AT_THE_RENAME)
        assert killed(status)
        assert path.read_text(encoding="utf-8") == text
        last = list(_journal(home_path).records())[-1]
        assert last["before"]["memory"] == file_hash(text) != last["after"]["memory"]
        assert _provenance(home_path) == before
        assert archive.listing(Memory.open(home_path)) == []
        assert _provenance(home_path, record=True) == before
    Memory.open(home_path, origin="cli", session_id="s3", clock=lambda: T0 + 200).add(
        "memory", "epsilon fact"
    )
    after = _provenance(home_path)
    assert {e: after[e] for e in BEFORE} == before
    assert (after["epsilon fact"].actor, after["epsilon fact"].created) == ("cli", T0 + 200)
    assert archive.listing(Memory.open(home_path)) == []
    assert "not_committed" in _causes(home_path)


@pytest.mark.slow
def test_a_write_killed_at_any_call_leaves_the_provenance_the_last_commit_recorded(
    tmp_path: Path, forker: Forker
) -> None:
    """SIGKILL before each file-system call of a replace + remove + add in turn (the
    ledger's temp file and its two renames, the data's temp file, the history link, the
    rename, the journal...). After the next open, each live entry has exactly what the
    last committed write recorded: the old text's provenance, or the new one's."""
    completed = False
    for k in range(1, 80):
        home = tmp_path / f"kill-{k}"
        before = _seeded(home)
        # the writer opens the store before the kill is armed: it counts only the write's
        status = forker.run_killed_at(k, "batch", str(home), T0 + 100, CHANGE_ARGS)
        entries = Memory.open(home).entries("memory")
        if entries == list(BEFORE):
            assert _provenance(home) == before, k
        else:
            assert entries == ["alpha fact", "beta fact, revised", "delta fact"], k
            assert _provenance(home) == _after_the_change(before), k
        assert stale_temp_files(home / "memories" / "MEMORY.md") == []
        if not killed(status):
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
            completed = True
            break
    assert completed, "the write never completed: the kill points did not cover it"
    assert k > 10


def _journal(home: Path) -> AuditJournal:
    return AuditJournal(home / "audit")


def _causes(home: Path) -> list[str]:
    return [r.get("cause", "") for r in _journal(home).records() if r["action"] == "recovered"]


def _lose_a_record(home: Path, fact: str) -> None:
    """A write whose record a power cut lost: the write committed (its rename and the
    directory are durable), but nothing it appended to the journal reached the disk
    (the flusher had not run its fdatasync): the journal and its head are put back as
    they were before the write. Deterministic: no process races its flusher thread."""
    path = home / "memories" / "MEMORY.md"
    drain()
    journal_path = home / "audit" / "journal.jsonl"
    head_path = home / "audit" / "head"
    kept, kept_head = journal_path.read_bytes(), head_path.read_bytes()
    Memory.open(home).add("memory", fact)
    drain()
    journal_path.write_bytes(kept)
    head_path.write_bytes(kept_head)
    assert fact in parse(path.read_text(encoding="utf-8"))
    assert _journal(home).verify().last_states["memory"] != file_hash(path.read_text())


def _abort_a_write(home: Path, fact: str) -> None:
    """A write killed after linking the history, before its rename."""
    path = home / "memories" / "MEMORY.md"
    text = path.read_text(encoding="utf-8")
    mem = Memory.open(home)  # before the fork: opening may save the scan verdict cache
    status = run_killed_at(1, lambda: mem.add("memory", fact), **AT_THE_RENAME)
    assert killed(status)
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    "crashes",
    [
        ("lost", "aborted"),
        ("aborted", "aborted"),
        ("lost", "lost"),
        ("lost", "lost", "aborted"),
    ],
    ids=lambda c: "-".join(c),
)
@pytest.mark.parametrize("noticed_by", ["next write", "doctor --fix"])
def test_changes_only_crashes_made_are_never_recorded_as_outside_edits(
    home_path: Path, crashes: tuple[str, ...], noticed_by: str
) -> None:
    """A write killed between its record and its rename changes nothing but leaves a
    record behind (and a link); a power cut loses the records of writes whose flush had
    not run, one or several in a row. Whoever records the change afterwards (the next
    write, or doctor --fix) calls them a lost record and a record that never committed,
    never an outside edit, and audit verify says so.

    (A record lost right after one that never committed is told from a hand edit only
    by timing, which is not kept: that double fault is recorded as an outside edit.)"""
    home_path.mkdir()
    Memory.open(home_path).add("memory", "base fact")
    for i, crash in enumerate(crashes):
        (_lose_a_record if crash == "lost" else _abort_a_write)(home_path, f"fact {i}")
    mem = Memory.open(home_path)
    if noticed_by == "next write":
        mem.add("memory", "the next fact")
    else:
        admin.doctor(mem, fix=True)
    report = _journal(home_path).verify()
    assert report.ok and report.outside_changes == ()
    expected = [
        "not_committed" if crash == "aborted" else "lost_record"
        for i, crash in enumerate(crashes)
        if crash == "aborted" or i == 0 or crashes[i - 1] != "lost"
    ]
    assert _causes(home_path) == expected
    path = home_path / "memories" / "MEMORY.md"
    assert report.last_states["memory"] == file_hash(path.read_text())
    assert [v.id for v in mem.backend.history("memory")] == sorted(
        v.id for v in mem.backend.history("memory")
    )


@pytest.mark.parametrize("crash", ["none", "aborted", "lost"])
def test_a_hand_edit_is_still_an_outside_edit_after_crashes_and_back_and_forth_writes(
    home_path: Path, crash: str
) -> None:
    """The state the last record left appears further back in the history (an entry
    added and removed again): a hand edit now is still an outside edit, with or without
    a crashed write before it."""
    home_path.mkdir()
    mem = Memory.open(home_path)
    mem.add("memory", "base fact")
    mem.add("memory", "passing fact")
    mem.remove("memory", "passing fact")
    if crash == "aborted":
        _abort_a_write(home_path, "never written")
    path = home_path / "memories" / "MEMORY.md"
    path.write_text(path.read_text(encoding="utf-8") + "\n§\nadded by hand", encoding="utf-8")
    if crash == "lost":  # a lost record after the hand edit: one change, a hand edit in it
        _lose_a_record(home_path, "after the edit")
    Memory.open(home_path).add("memory", "the next fact")
    assert _causes(home_path) == ["outside_edit"]


def _as_written(entry: str) -> tuple[float, float, str, str | None, str | None]:
    """(created, updated, actor, origin, session) a busy writer recorded for ``entry``."""
    i = int(entry.split()[1])
    updated = 10.0 * i + (1 if entry.endswith(" revised") else 0)
    return 10.0 * i, updated, "cli", "cli", "storm"


def _check_storm_archive(home: Path, live: set[str]) -> None:
    """The archive a busy writer's committed writes leave, whatever kill came between:
    each replaced ``fact i`` once, at 10i + 1, replaced by its revision; each removed
    revision (odd i only) once, at 10i + 2; nothing still live; every revision seen
    (live or archived) with the entry it replaced archived."""
    items = archive.listing(Memory.open(home), "memory")
    texts = [a.text for a in items]
    assert len(texts) == len(set(texts)) and not set(texts) & live, texts
    storm = {a.text: a for a in items if a.by[2] == "storm"}
    for text, a in storm.items():
        assert text is not None
        i = int(text.split()[1])
        if text.endswith(" revised"):
            assert (a.reason, a.archived_at, i % 2) == ("removed", 10.0 * i + 2, 1), a
        else:
            assert (a.reason, a.archived_at) == ("replaced", 10.0 * i + 1), a
            assert a.replaced_by is not None
    for text in [*texts, *live]:
        if text is not None and text.endswith(" revised"):
            assert text.removesuffix(" revised") in storm, text


@pytest.mark.slow
def test_random_kills_of_a_busy_writer_leave_provenance_and_causes_true(
    home_path: Path, forker: Forker
) -> None:
    """A writer that adds, replaces and removes in a tight loop is killed at random
    points, :data:`RANDOM_KILLS` times. After each kill every live entry has the author,
    session and times its last committed write recorded, and the archive exactly what the
    committed replaces and removes left (:func:`_check_storm_archive`); at the end the journal
    accounts for every change, and each change recorded after the fact is a record that
    never committed (the record goes before the rename: a kill never loses one)."""
    home_path.mkdir()
    Memory.open(home_path, origin="agent", session_id="s1", clock=lambda: T0).add("memory", BASE)
    rng = random.Random(20261206)
    kills = 0
    for round_ in range(RANDOM_KILLS):
        start = rng.randrange(1, 10**6) * 1000
        # Every tenth writer tells the test when its first remove has committed, and the
        # random delay starts from there: removes are then in the archive however slow
        # the machine is (a writer reaches its first remove on its fifth write; under
        # heavy load none did within the delay, and the archive held no "removed").
        until = "r" if round_ % 10 == 0 else "o" if round_ % 4 != 0 else None
        pid = forker.fork("busy_writer", str(home_path), start, round_ % 10 == 0, until=until)
        # A random delay picks where in the loop the kill lands (not a synchronisation).
        time.sleep(rng.uniform(0.004, 0.03))
        os.kill(pid, signal.SIGKILL)
        status = forker.wait(pid)
        kills += killed(status)
        got = _provenance(home_path)
        base = got.pop(BASE)
        assert (base.actor, base.created, base.session_id) == ("model", T0, "s1")
        for entry, p in got.items():
            assert (p.created, p.updated, p.actor, p.origin, p.session_id) == _as_written(entry)
        _check_storm_archive(home_path, set(got))
        if len(got) > 6:
            Memory.open(home_path).batch("memory", [Op("remove", None, e) for e in got])
    assert kills == RANDOM_KILLS
    gone = archive.listing(Memory.open(home_path), "memory")
    assert {a.reason for a in gone if a.by[2] == "storm"} == {"replaced", "removed"}
    Memory.open(home_path).add("memory", "the last fact")
    report = AuditJournal(home_path / "audit").verify()
    assert report.ok and report.outside_changes == ()
    causes = {line.rpartition("cause: ")[2] for line in report.recovered}
    assert causes <= {"not_committed)"}, report.recovered  # a kill never loses a record
