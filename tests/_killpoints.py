"""Crash injection for forked children: die just before the K-th file-system call."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

FS_CALLS = (
    "open",
    "write",
    "pwrite",
    "fsync",
    "fdatasync",
    "replace",
    "rename",
    "link",
    "unlink",
    "ftruncate",
    "close",
)


def arm_kill(k: int, names: tuple[str, ...] = FS_CALLS) -> None:
    """Make this process SIGKILL itself just before its ``k``-th call of ``os.<names>``.

    Only for a forked child that exits right after the operation under test.
    """
    count = {"n": 0}

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        def inner(*args: Any, **kwargs: Any) -> Any:
            count["n"] += 1
            if count["n"] == k:
                os.kill(os.getpid(), signal.SIGKILL)
            return fn(*args, **kwargs)

        return inner

    for name in names:
        setattr(os, name, wrap(getattr(os, name)))


def run_killed_at(k: int, action: Callable[[], object]) -> int:
    """Fork; the child arms the kill at call ``k`` and runs ``action``. Returns the
    child's wait status (killed, exit 0 when the action finished, 3 when it raised)."""
    pid = os.fork()
    if pid == 0:
        try:
            arm_kill(k)
            action()
            os._exit(0)
        except BaseException:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    return status
