"""Batches across MEMORY.md and USER.md: both files commit or neither, even when the
writer is killed at any file-system call of the commit."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from _forker import shared
from mnemic.backends.files.journal import AuditJournal
from mnemic.curated.admin import doctor
from mnemic.curated.entries import parse
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.curated.tool import run_memory_tool
from mnemic.errors import BatchFailed, BudgetExceeded, UnreadableFile
from mnemic.fsio import SidecarLock, stale_temp_files

OLD = {"memory": ["note one"], "user": ["Name: Ada"]}
NEW = {"memory": ["note one", "note two"], "user": ["Name: Ada Lovelace"]}
BATCH = [
    Op("add", "note two"),
    Op("replace", "Name: Ada Lovelace", "Name: Ada", target="user"),
]


def state(home: Path) -> dict[str, list[str]]:
    out = {}
    for target, name in (("memory", "MEMORY.md"), ("user", "USER.md")):
        p = home / "memories" / name
        out[target] = parse(p.read_text(encoding="utf-8")) if p.exists() else []
    return out


def reset(home: Path) -> None:
    mem = Memory.open(home)
    for target, entries in OLD.items():
        for e in list(mem.entries(target)):
            mem.apply(target, [Op("remove", old_text=e)], gate=False)
        for e in entries:
            mem.apply(target, [Op("add", e)], gate=False)


def test_batch_spanning_both_targets_commits_both(home_path: Path) -> None:
    reset(home_path)
    mem = Memory.open(home_path)
    result = mem.batch("memory", BATCH)
    assert result.written and [o.target for o in result.others] == ["user"]
    assert [r.target for r in result.results] == ["memory", "user"]
    assert state(home_path) == NEW
    assert not (home_path / "memories" / ".txn.intent").exists()
    # each file keeps its previous version
    assert (
        parse(mem.backend.read_version("user", mem.backend.history("user")[-1].id)) == OLD["user"]
    )


def test_tool_call_spanning_both_targets(home_path: Path) -> None:
    reset(home_path)
    resp = run_memory_tool(
        Memory.open(home_path),
        {
            "target": "memory",
            "operations": [
                {"action": "add", "content": "note two"},
                {
                    "action": "replace",
                    "old_text": "Name: Ada",
                    "content": "Name: Ada Lovelace",
                    "target": "user",
                },
            ],
        },
    )
    assert resp["success"] is True and resp["other_targets"][0]["target"] == "user"
    assert state(home_path) == NEW


def test_one_failing_target_applies_neither(home_path: Path) -> None:
    reset(home_path)
    mem = Memory.open(home_path)
    with pytest.raises(BatchFailed) as info:  # one entry longer than the whole budget
        mem.batch("memory", [Op("add", "note two"), Op("add", "u" * 2000, target="user")])
    assert isinstance(info.value.cause, BudgetExceeded) and info.value.index == 2
    with pytest.raises(BudgetExceeded):  # the final state of one target over its budget
        mem.batch(
            "memory",
            [
                Op("add", "note two"),
                Op("add", "u" * 1000, target="user"),
                Op("add", "v" * 1000, target="user"),
            ],
        )
    with pytest.raises(BatchFailed) as info:
        mem.batch("memory", [Op("add", "note two"), Op("remove", old_text="nobody", target="user")])
    assert info.value.index == 2
    assert state(home_path) == OLD


def test_schema_has_no_top_level_combinators() -> None:
    from mnemic.curated.tool import MEMORY_TOOL

    params = MEMORY_TOOL.parameters
    assert not {"oneOf", "anyOf", "allOf"} & set(params)
    op = params["properties"]["operations"]["items"]
    assert op["properties"]["target"]["enum"] == ["memory", "user"]


def test_a_single_target_writer_completes_an_interrupted_commit_first(home_path: Path) -> None:
    reset(home_path)
    mem = Memory.open(home_path)
    d = home_path / "memories"
    # What a writer killed right after writing its intent leaves behind:
    (d / ".MEMORY.md.txn-abc.tmp").write_text("note one\n§\nnote two")
    (d / ".USER.md.txn-abc.tmp").write_text("Name: Ada Lovelace")
    (d / ".txn.intent").write_text(
        json.dumps(
            {
                "id": "abc",
                "files": [
                    ["MEMORY.md", ".MEMORY.md.txn-abc.tmp"],
                    ["USER.md", ".USER.md.txn-abc.tmp"],
                ],
            }
        )
    )
    mem.add("user", "Likes tea")  # only takes USER.md's lock: must not write over a half state
    assert state(home_path) == {"memory": NEW["memory"], "user": [*NEW["user"], "Likes tea"]}
    assert not (d / ".txn.intent").exists()


def test_temp_files_without_an_intent_are_rolled_back(home_path: Path) -> None:
    reset(home_path)
    d = home_path / "memories"
    (d / ".MEMORY.md.txn-abc.tmp").write_text("note one\n§\nnote two")
    (d / "..txn.intent.0123.tmp").write_text("{")
    Memory.open(home_path)  # the open cleans up
    assert state(home_path) == OLD
    assert sorted(p.name for p in d.iterdir() if p.name.endswith(".tmp")) == []


def test_an_unreadable_intent_stops_writes_and_doctor_reports_it(home_path: Path) -> None:
    reset(home_path)
    d = home_path / "memories"
    (d / ".txn.intent").write_bytes(b"\xff\xfe")
    mem = Memory.open(home_path)
    with pytest.raises(UnreadableFile):
        mem.add("memory", "anything")
    assert state(home_path) == OLD
    problems = doctor(mem)
    assert any("interrupted two-file commit is unreadable" in p.message for p in problems)


# -- crash injection --------------------------------------------------------------------


BATCH_FIELDS = [{f: getattr(op, f) for f in op.__slots__} for op in BATCH]
"""BATCH as ``tests/workers/kill_actions.py``'s batch takes it: a child forked from a
small process runs ``Memory.open(home).batch("memory", BATCH)`` (``_forker.shared``)."""


def _check_after_crash(home: Path) -> dict[str, list[str]]:
    Memory.open(home)  # the next open completes or rolls back
    after = state(home)
    assert after in (OLD, NEW), after
    d = home / "memories"
    assert not (d / ".txn.intent").exists()
    assert [p.name for p in d.iterdir() if p.name.endswith(".tmp")] == []
    for name in ("MEMORY.md.lock", "USER.md.lock"):
        lock = SidecarLock(d / name, timeout=0)
        assert lock.try_acquire(), "a killed writer must not leave a lock held"
        lock.release()
    assert AuditJournal(home / "audit").verify().ok
    return after


@pytest.mark.usefixtures("either_commit")
@pytest.mark.slow
@pytest.mark.parametrize("history_limit", [50, 1], ids=["history", "recycling"])
def test_kill_before_every_filesystem_call_of_a_two_file_commit(
    home_path: Path, history_limit: int
) -> None:
    home_path.mkdir()
    (home_path / "config.toml").write_text(f"[memory]\nhistory_limit = {history_limit}\n")
    seen = set()
    completed = False
    for k in range(1, 120):
        reset(home_path)
        status = shared("kill_actions").run_killed_at(k, "batch", str(home_path), BATCH_FIELDS)
        after = _check_after_crash(home_path)
        seen.add("new" if after == NEW else "old")
        if os.WIFEXITED(status):
            assert os.WEXITSTATUS(status) == 0
            assert after == NEW
            completed = True
            break
    assert completed, "the commit never completed: the kill points did not cover it"
    assert seen == {"old", "new"}, "kills landed only on one side of the commit point"
    assert k > 12


@pytest.mark.usefixtures("either_commit")
@pytest.mark.slow
def test_kill_during_recovery_is_recovered_again(home_path: Path) -> None:
    reset(home_path)
    d = home_path / "memories"
    for k in range(1, 30):
        (d / ".MEMORY.md.txn-abc.tmp").write_text("note one\n§\nnote two")
        (d / ".USER.md.txn-abc.tmp").write_text("Name: Ada Lovelace")
        (d / ".txn.intent").write_text(
            json.dumps(
                {
                    "id": "abc",
                    "files": [
                        ["MEMORY.md", ".MEMORY.md.txn-abc.tmp"],
                        ["USER.md", ".USER.md.txn-abc.tmp"],
                    ],
                }
            )
        )
        status = shared("kill_actions").run_killed_at(k, "open_memory", str(home_path))
        Memory.open(home_path)
        assert state(home_path) == NEW
        assert not (d / ".txn.intent").exists()
        if os.WIFEXITED(status):
            break
        reset(home_path)
    assert os.WIFEXITED(status)


@pytest.mark.usefixtures("either_commit")
@pytest.mark.slow
def test_random_kills_of_a_two_file_writer(home_path: Path) -> None:
    reset(home_path)
    rng = random.Random(20261130)
    landed = 0
    for round_ in range(60):
        before = state(home_path)
        told_r, told_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(told_r)
                mem = Memory.open(home_path)
                i = 0
                while True:  # flips both files between two consistent states
                    mem.batch(
                        "memory", [Op("add", f"pair {i}"), Op("add", f"pair {i}", target="user")]
                    )
                    mem.batch(
                        "memory",
                        [
                            Op("remove", old_text=f"pair {i}"),
                            Op("remove", old_text=f"pair {i}", target="user"),
                        ],
                    )
                    if i == 0:  # the loop runs: every moment from here is in a commit or between
                        os.write(told_w, b"w")
                    i += 1
            except BaseException:
                os._exit(3)
        os.close(told_w)
        # the delay starts from the fork in odd rounds and, in even ones, once the loop has
        # flipped its first pair: under load a child given 30 ms from its fork could still
        # be opening the store in every round, and no kill landed inside a commit
        if round_ % 2 == 0:
            os.read(told_r, 1)
        os.close(told_r)
        time.sleep(rng.uniform(0.002, 0.03))  # picks the kill point; not a synchronisation
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        d = home_path / "memories"
        landed += bool(stale_temp_files(d / "USER.md") or (d / ".txn.intent").exists())
        Memory.open(home_path)
        after = state(home_path)
        extra_m = [e for e in after["memory"] if e.startswith("pair ")]
        extra_u = [e for e in after["user"] if e.startswith("pair ")]
        assert extra_m == extra_u, (before, after)  # never one file without the other
        mem = Memory.open(home_path)
        for e in extra_m:
            mem.batch("memory", [Op("remove", old_text=e), Op("remove", old_text=e, target="user")])
    assert landed > 0, "no kill landed inside a commit; the test did not test anything"


@pytest.mark.usefixtures("either_commit")
@pytest.mark.slow
def test_concurrent_two_file_and_single_file_writers(home_path: Path) -> None:
    reset(home_path)
    pids = []
    for w in range(4):
        pid = os.fork()
        if pid == 0:
            try:
                rng = random.Random(w)
                mem = Memory.open(home_path)
                mine: list[str] = []
                for k in range(40):
                    if w == 3:  # a plain single-file writer in the middle of it all
                        mem.add("user", f"solo {k}")
                        mem.remove("user", f"solo {k}")
                        continue
                    if mine and rng.random() < 0.4:
                        e = mine.pop(rng.randrange(len(mine)))
                        mem.batch(
                            "memory",
                            [Op("remove", old_text=e), Op("remove", old_text=e, target="user")],
                        )
                    else:
                        e = f"pair {w}-{k}"
                        mem.batch("memory", [Op("add", e), Op("add", e, target="user")])
                        mine.append(e)
                (home_path / f"mine-{w}.json").write_text(json.dumps(mine))
                os._exit(0)
            except BaseException:
                import traceback

                traceback.print_exc()
                os._exit(3)
        pids.append(pid)
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    after = state(home_path)
    pairs_m = sorted(e for e in after["memory"] if e.startswith("pair "))
    pairs_u = sorted(e for e in after["user"] if e.startswith("pair "))
    expected = sorted(
        e for w in range(3) for e in json.loads((home_path / f"mine-{w}.json").read_text())
    )
    assert pairs_m == pairs_u == expected
    assert not any(e.startswith("solo ") for e in after["user"])
    assert AuditJournal(home_path / "audit").verify().ok
