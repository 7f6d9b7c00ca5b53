"""A ``Memory`` (and session store) opened before ``os.fork()``, used on both sides.

The child inherits the parent's pooled connections: the same sockets, mid-protocol,
shared by two processes. Using them from the child corrupts both sides' sessions (the
child's writes fail and then hang, and the parent's connections break). The child must
open its own connections; the parent's must stay untouched (closing them in the child
would end the parent's sessions too).
"""

from __future__ import annotations

import atexit
import logging
import os
import select
from collections.abc import Callable
from pathlib import Path

import pytest

from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(120)]


def wait_child(pid: int, ready_fd: int) -> int:
    """Wait for the child's exit; a child that hangs fails the test (pytest timeout)."""
    select.select([ready_fd], [], [])  # the pipe closes when the child exits
    _, status = os.waitpid(pid, 0)
    return status


def fork_child(work: Callable[[], None]) -> tuple[int, int]:
    """Fork a child that runs ``work`` and then exits as a Python program does (atexit
    handlers run: that is where a pool would close the connections it inherited).
    Returns (pid, fd that reaches end-of-file when the child is gone)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        code = 0
        try:
            work()
        except BaseException:
            import traceback

            traceback.print_exc()
            code = 3
        try:
            atexit._run_exitfuncs()
        finally:
            os._exit(code)
    os.close(write_fd)
    return pid, read_fd


def in_child(work: Callable[[], None]) -> int:
    """Run ``work`` in a forked child; return its exit code (0 ok, 3 it raised)."""
    pid, fd = fork_child(work)
    try:
        status = wait_child(pid, fd)
    finally:
        os.close(fd)
    assert os.WIFEXITED(status), status
    return os.WEXITSTATUS(status)


def test_a_memory_opened_before_fork_writes_from_the_child_and_the_parent(
    pg_home: Callable[..., Path], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="psycopg.pool")
    home = pg_home()
    mem = Memory.open(home)
    mem.add("memory", "written by the parent before the fork")
    for n in range(3):
        code = in_child(lambda n=n: mem.add("memory", f"written by child {n}"))
        assert code == 0
        mem.add("memory", f"written by the parent after child {n}")
    entries = Memory.open(home).store.load("memory")
    assert entries == [
        "written by the parent before the fork",
        "written by child 0",
        "written by the parent after child 0",
        "written by child 1",
        "written by the parent after child 1",
        "written by child 2",
        "written by the parent after child 2",
    ]
    assert [r["result"] for r in mem.governor.journal.records()].count("ok") == 7  # type: ignore[union-attr]
    # The children never closed the parent's connections (the pool had none to discard).
    assert not [r for r in caplog.records if "discarding" in r.getMessage()]


def test_a_session_store_opened_before_fork_serves_both_processes(
    pg_home: Callable[..., Path],
) -> None:
    home = pg_home()
    store = open_store(Home.open(home))
    sid = store.start_session(source="cli")
    store.append_message(sid, NewMessage("user", "from the parent"))

    def child() -> None:
        store.append_message(sid, NewMessage("user", "from the child"))

    assert in_child(child) == 0
    store.append_message(sid, NewMessage("user", "from the parent again"))
    texts = [m.content for m in store.messages(sid)]
    assert texts == ["from the parent", "from the child", "from the parent again"]
    store.close()


def test_parent_and_child_write_at_the_same_time(pg_home: Callable[..., Path]) -> None:
    home = pg_home()
    mem = Memory.open(home)
    mem.add("memory", "before the fork")
    go_r, go_w = os.pipe()

    def child() -> None:
        os.read(go_r, 1)  # start together with the parent
        for i in range(20):
            mem.add("memory", f"child {i}")

    pid, fd = fork_child(child)
    os.write(go_w, b"x")
    for i in range(20):
        mem.add("memory", f"parent {i}")
    status = wait_child(pid, fd)
    os.close(fd)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    entries = Memory.open(home).store.load("memory")
    assert sorted(entries) == sorted(
        ["before the fork"] + [f"child {i}" for i in range(20)] + [f"parent {i}" for i in range(20)]
    )


def test_the_child_never_uses_a_connection_of_the_parent(pg_home: Callable[..., Path]) -> None:
    from mnemic.backends.postgres.db import Database

    home = pg_home()
    mem = Memory.open(home)
    mem.add("memory", "warms the pool up")
    db = Database.for_settings(Home.open(home).settings)
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'mnemic'"
        ).fetchall()
    parents = {int(r[0]) for r in rows}
    assert parents
    out_r, out_w = os.pipe()

    def child() -> None:
        mem.add("memory", "from the child")
        with db.connection() as conn:
            os.write(out_w, str(conn.info.backend_pid).encode())

    assert in_child(child) == 0
    os.close(out_w)
    child_pid = int(os.read(out_r, 64))
    os.close(out_r)
    assert child_pid not in parents
    mem.add("memory", "the parent goes on")
    assert Memory.open(home).store.load("memory")[-2:] == ["from the child", "the parent goes on"]
