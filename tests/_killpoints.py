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


def arm_kill(k: int, names: tuple[str, ...] = FS_CALLS, *, after: str | None = None) -> None:
    """Make this process SIGKILL itself just before its ``k``-th call of ``os.<names>``.

    With ``after``, calls are counted only once a call of ``os.<after>`` has returned
    (``after="replace", names=("open",)``: the first file opened after a rename).
    Only for a forked child that exits right after the operation under test.
    """
    count = {"n": 0, "armed": after is None}

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        def inner(*args: Any, **kwargs: Any) -> Any:
            if count["armed"]:
                count["n"] += 1
                if count["n"] == k:
                    os.kill(os.getpid(), signal.SIGKILL)
            return fn(*args, **kwargs)

        return inner

    def arm_after(fn: Callable[..., Any]) -> Callable[..., Any]:
        def inner(*args: Any, **kwargs: Any) -> Any:
            result = fn(*args, **kwargs)
            count["armed"] = True
            return result

        return inner

    for name in names:
        setattr(os, name, wrap(getattr(os, name)))
    if after is not None:
        setattr(os, after, arm_after(getattr(os, after)))


def run_killed_at(
    k: int,
    action: Callable[[], object],
    names: tuple[str, ...] = FS_CALLS,
    *,
    after: str | None = None,
) -> int:
    """Fork; the child arms the kill at call ``k`` (see :func:`arm_kill`) and runs
    ``action``. Returns the child's wait status (killed, exit 0 when the action
    finished, 3 when it raised)."""
    pid = os.fork()
    if pid == 0:
        try:
            arm_kill(k, names, after=after)
            action()
            os._exit(0)
        except BaseException:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    return status


def killed(status: int) -> bool:
    """Whether a wait status says the child died of SIGKILL."""
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
