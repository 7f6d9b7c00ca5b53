"""Waiting for a held sidecar lock: in the kernel, with a deadline, nothing left behind.

Synchronisation in these tests is on observable state (the kernel's lock table in
/proc/locks, thread names, open descriptors), each polled with a generous deadline;
no sleep stands in for an event.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from mnemic import fsio
from mnemic.errors import LockTimeout
from mnemic.fsio import SidecarLock

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/locks"), reason="needs the kernel's lock table (/proc/locks)"
)


def _until(condition: Callable[[], bool], what: str, deadline_s: float = 20.0) -> None:
    end = time.monotonic() + deadline_s
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.002)


def _blocked_waiters(path: Path) -> int:
    """Requests queued in the kernel behind a lock on ``path`` (lines marked ``->``)."""
    ino = os.stat(path).st_ino
    n = 0
    with open("/proc/locks") as fh:
        for line in fh:
            fields = line.split()
            if "->" in fields and any(f.endswith(f":{ino}") for f in fields):
                n += 1
    return n


def _fds_on(path: Path) -> int:
    """Descriptors of this process open on ``path``."""
    n = 0
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the descriptor listdir itself used
            n += os.readlink(f"/proc/self/fd/{fd}") == str(path)
    return n


def _waiter_threads() -> int:
    return sum(t.name == "mnemic-lock-wait" for t in threading.enumerate())


def test_a_waiter_queues_in_the_kernel_and_gets_the_lock_when_it_is_released(
    tmp_path: Path,
) -> None:
    path = tmp_path / "m.lock"
    holder = SidecarLock(path, 5)
    holder.acquire()
    waiter = SidecarLock(path, 60)
    got = threading.Event()

    def wait() -> None:
        waiter.acquire()
        got.set()

    t = threading.Thread(target=wait)
    t.start()
    # A polling waiter never appears in the kernel's queue; a blocking one does.
    _until(lambda: _blocked_waiters(path) == 1, "the waiter is queued in the kernel")
    assert not got.is_set()
    holder.release()
    t.join(60)
    assert got.is_set() and waiter.held
    assert _blocked_waiters(path) == 0
    waiter.release()


def test_shared_waiters_queue_behind_a_writer_too(tmp_path: Path) -> None:
    path = tmp_path / "m.lock"
    writer = SidecarLock(path, 5)
    writer.acquire()
    readers = [SidecarLock(path, 60, shared=True) for _ in range(3)]
    threads = [threading.Thread(target=r.acquire) for r in readers]
    for t in threads:
        t.start()
    _until(lambda: _blocked_waiters(path) == 3, "three readers are queued")
    writer.release()
    for t in threads:
        t.join(60)
    assert all(r.held for r in readers)  # shared: all three at once
    for r in readers:
        r.release()


def test_a_timed_out_wait_raises_and_leaves_no_lock_descriptor_or_thread(
    tmp_path: Path,
) -> None:
    path = tmp_path / "m.lock"
    holder = SidecarLock(path, 5)
    holder.acquire()
    threads = _waiter_threads()
    with pytest.raises(LockTimeout) as info:
        SidecarLock(path, 0.2).acquire()
    assert info.value.waited_s >= 0.2
    assert _fds_on(path) == 2  # the holder's, and the helper's still queued
    holder.release()
    # The helper gets the lock it no longer wants and lets go of it at once.
    _until(lambda: _waiter_threads() == threads, "the abandoned helper has finished")
    assert _fds_on(path) == 0
    assert fsio._abandoned == 0
    again = SidecarLock(path, 0)
    assert again.try_acquire()
    again.release()


def test_timed_out_waits_leave_a_bounded_number_of_helpers(tmp_path: Path) -> None:
    path = tmp_path / "m.lock"
    holder = SidecarLock(path, 5)
    holder.acquire()
    threads = _waiter_threads()
    for _ in range(fsio._MAX_ABANDONED + 4):
        with pytest.raises(LockTimeout):
            SidecarLock(path, 0.01).acquire()
    assert _waiter_threads() - threads == fsio._MAX_ABANDONED
    assert _blocked_waiters(path) == fsio._MAX_ABANDONED
    holder.release()
    _until(lambda: _waiter_threads() == threads, "every abandoned helper has finished")
    assert fsio._abandoned == 0


def test_a_zero_timeout_fails_at_once_without_a_helper(tmp_path: Path) -> None:
    path = tmp_path / "m.lock"
    holder = SidecarLock(path, 5)
    holder.acquire()
    threads = _waiter_threads()
    with pytest.raises(LockTimeout):
        SidecarLock(path, 0).acquire()
    assert _waiter_threads() == threads and _fds_on(path) == 1  # the holder's
    holder.release()


def test_a_waiter_reuses_the_helper_thread_an_earlier_wait_left_idle(tmp_path: Path) -> None:
    """Each hand-over of a busy lock starts no thread: the helper of a finished wait is
    kept, idle, and the next wait blocks in it."""
    path = tmp_path / "m.lock"

    def helpers(name: str) -> set[int | None]:
        return {t.ident for t in threading.enumerate() if t.name == name}

    def contended_wait() -> set[int | None]:
        holder = SidecarLock(path, 5)
        holder.acquire()
        waiter = SidecarLock(path, 60)
        t = threading.Thread(target=waiter.acquire)
        t.start()
        _until(lambda: _blocked_waiters(path) == 1, "the waiter is queued in the kernel")
        busy = helpers("mnemic-lock-wait")
        holder.release()
        t.join(60)
        assert waiter.held
        waiter.release()
        return busy

    first = contended_wait()
    _until(lambda: not first & helpers("mnemic-lock-wait"), "the first wait's helper is idle")
    idle = helpers("mnemic-lock-wait-idle")
    assert first & idle
    second = contended_wait()
    assert second & idle  # blocked in a helper kept from before, not a new thread
    assert len(helpers("mnemic-lock-wait-idle")) <= fsio._MAX_IDLE


def test_a_forked_child_waits_in_a_helper_of_its_own(tmp_path: Path) -> None:
    """A child forked while the parent keeps idle helpers has none of their threads: its
    first wait for a busy lock starts one of its own instead of handing the wait to a
    thread that does not exist (and timing out)."""
    path = tmp_path / "m.lock"
    holder = SidecarLock(path, 5)
    holder.acquire()
    waiter = SidecarLock(path, 60)
    t = threading.Thread(target=waiter.acquire)
    t.start()
    _until(lambda: _blocked_waiters(path) == 1, "the parent's waiter is queued")
    holder.release()
    t.join(60)
    waiter.release()
    _until(lambda: bool(fsio._idle), "the parent keeps an idle helper")
    holder.acquire()
    pid = os.fork()
    if pid == 0:  # the child: a wait that only a live helper can end
        code = 1
        try:
            holder.release()  # its copy of the parent's descriptor: the parent still holds it
            SidecarLock(path, 20).acquire()
            code = 0
        finally:
            os._exit(code)
    _until(lambda: _blocked_waiters(path) == 1, "the child's waiter is queued in the kernel")
    holder.release()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
