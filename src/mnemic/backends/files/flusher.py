"""Work that follows a commit but need not delay it: one background thread per process.

A memory write is durable when its call returns (temp file fsync, rename, directory
fsync, all under the target's lock; with ``[memory] durability = "journal"``, the
record's own ``fdatasync`` in the caller's thread instead, and here only the head's
move). Two pieces of work follow it that the caller does not have to wait for:

- the flush of the audit journal (``fdatasync``, then the journal's head moved to the
  last flushed record): the record itself was written under the lock, in commit order,
  before the call returned; a crash that loses it before the flush is repaired by the
  next write (a ``recovered`` record, see :mod:`mnemic.governance.chain`);
- dropping history versions past the limit (the file backend's prune).

Each is submitted under a key; a task submitted again before it ran replaces the
earlier one (a flush flushes whatever was appended before it, a prune drops whatever is
past the limit), so a burst of writes costs one flush. The thread runs a task as soon
as it is submitted; the disk work then overlaps with the caller's next steps.

:func:`drain` runs everything submitted so far, in the calling thread, and returns once
it is done (a batch the thread is running included). It runs at interpreter exit, so a
short-lived process (the CLI) still flushes before it ends; a process killed before
that, or ending with ``os._exit`` (as multiprocessing's children do), leaves its last
records unflushed in the page cache, where they survive anything but a power cut (the
head catches up at the next flush of any process; old versions go at the next write).
A forked child starts with no tasks and no thread of its own.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
from collections.abc import Callable, Hashable

__all__ = ["Flusher", "drain", "flusher", "submit"]

log = logging.getLogger(__name__)


class Flusher:
    """A keyed queue of after-commit tasks and the daemon thread that runs them."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._running = threading.Lock()
        """Held while a batch runs, so :meth:`drain` waits for the thread's batch."""
        self._tasks: dict[Hashable, Callable[[], None]] = {}
        self._thread: threading.Thread | None = None

    def submit(self, key: Hashable, task: Callable[[], None]) -> None:
        """Run ``task`` soon in the background (replacing a queued task of ``key``)."""
        with self._cond:
            self._tasks[key] = task
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._loop, name="mnemic-flusher", daemon=True
                )
                self._thread.start()
            self._cond.notify()

    def pending(self) -> int:
        """How many tasks wait to run (not counting a batch being run)."""
        with self._cond:
            return len(self._tasks)

    def drain(self) -> None:
        """Run every task submitted so far now; return when all of them are done."""
        with self._running:
            self._run(self._take())

    def _take(self) -> list[Callable[[], None]]:
        with self._cond:
            tasks = list(self._tasks.values())
            self._tasks.clear()
        return tasks

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._tasks:
                    self._cond.wait()
            with self._running:
                self._run(self._take())

    @staticmethod
    def _run(tasks: list[Callable[[], None]]) -> None:
        for task in tasks:
            try:
                task()
            except Exception:  # the write it follows has committed: log, never raise
                log.exception("after-commit work failed (the write itself is committed)")


_FLUSHER = Flusher()


def flusher() -> Flusher:
    """This process's flusher."""
    return _FLUSHER


def submit(key: Hashable, task: Callable[[], None]) -> None:
    """Run ``task`` soon in this process's flusher thread (see :class:`Flusher`)."""
    _FLUSHER.submit(key, task)


def drain() -> None:
    """Run every after-commit task of this process now (tests, shutdown)."""
    _FLUSHER.drain()


def _after_fork_in_child() -> None:
    global _FLUSHER
    _FLUSHER = Flusher()  # the parent runs its own tasks; the child has no thread yet


atexit.register(lambda: _FLUSHER.drain())
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
