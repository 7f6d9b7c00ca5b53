"""Crash injection: a writer killed at any point leaves the old or the new file, whole.

Two ways of killing the writer, both in a forked child so the parent can inspect the
home afterwards:
- deterministic: the child kills itself just before its K-th file-system call of one
  write (temp file open, write, fsync, rename, link, unlink...), for every K;
- random: the parent kills a child that writes in a tight loop after a random delay
  (the delay chooses the crash point; nothing waits on it), 200+ times.
After every kill the file must parse to the previous or the next state, the next open
must remove leftover temp files, and the lock must be free.
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest

from mnemic.curated import Memory
from mnemic.curated.entries import parse
from mnemic.fsio import SidecarLock, stale_temp_files

BASE = "base entry that is always present"


def _child_with_kill_at(home: Path, k: int, action: str) -> int:
    """Fork a child that performs one write and SIGKILLs itself at fs call number k."""
    pid = os.fork()
    if pid:
        return pid
    try:
        mem = Memory.open(home)
        calls = {"n": 0}
        real = {
            name: getattr(os, name)
            for name in (
                "open",
                "write",
                "fsync",
                "replace",
                "rename",
                "link",
                "unlink",
                "ftruncate",
                "close",
            )
        }

        def wrap(name: str):  # type: ignore[no-untyped-def]
            fn = real[name]

            def inner(*a, **kw):  # type: ignore[no-untyped-def]
                calls["n"] += 1
                if calls["n"] == k:
                    os.kill(os.getpid(), signal.SIGKILL)
                return fn(*a, **kw)

            return inner

        for name in real:
            setattr(os, name, wrap(name))
        if action == "add":
            mem.add("memory", "the new entry")
        else:
            mem.remove("memory", "the new entry")
        os._exit(0)
    except BaseException:
        os._exit(3)


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
    home_path: Path, action: str, history_limit: int
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
        pid = _child_with_kill_at(home_path, k, action)
        _, status = os.waitpid(pid, 0)
        killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        _check_home(home_path, [old, new], history_before)
        if not killed:
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
            assert Memory.open(home_path).entries("memory") == new
            completed = True
            break
    assert completed, "the write never completed: the kill points did not cover it"
    assert k > 5, "expected several file-system calls inside one write"


@pytest.mark.slow
def test_random_kills_of_a_busy_writer(home_path: Path) -> None:
    home_path.mkdir()
    Memory.open(home_path).add("memory", BASE)
    rng = random.Random(20261129)
    path = home_path / "memories" / "MEMORY.md"
    left_temp = 0
    for _ in range(220):
        state = parse(path.read_text(encoding="utf-8"))
        seed = rng.randrange(1_000_000)
        pid = os.fork()
        if pid == 0:
            try:
                mem = Memory.open(home_path)
                i = seed
                while True:  # alternates between `state` and `state + [fact i]`
                    mem.add("memory", f"fact {i}")
                    mem.remove("memory", f"fact {i}")
                    i += 1
            except BaseException:
                os._exit(3)
        # A random delay picks where in the loop the kill lands (not a synchronisation).
        time.sleep(rng.uniform(0.002, 0.03))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
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
