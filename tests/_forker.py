"""Fork the children of a kill test from a small process (``tests/workers/forker.py``).

A fork copies the forking process's page tables, and the killed child's exit unmaps them:
from a pytest worker that has collected the suite (280 MB resident after collection, 350
to 450 MB later in a run) that is about 9 ms of CPU a fork and 11 ms a child's exit at
300 MB (session 52, a micro-benchmark), against under 1 ms from a process that imported
only mnemic and the worker module. The child runs the same code either way
(a function of a ``tests/workers`` module, in a process of its own, killed by the test);
the test checks the home in its own process as before.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from types import TracebackType
from typing import Any

FORKER = Path(__file__).parent / "workers" / "forker.py"


class Forker:
    """``with Forker("curated_kills") as f: pid = f.fork("busy", home, until="o")``."""

    def __init__(self, module: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(FORKER), module],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.live: set[int] = set()
        """Children forked and not yet reaped (killed if the test fails)."""

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, f"the forker exited ({self.proc.wait()})"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def fork(
        self,
        fn: str,
        *args: Any,
        kill_at: int | None = None,
        names: tuple[str, ...] | None = None,
        after: str | None = None,
        until: str | None = None,
    ) -> int:
        """Fork a child that runs ``fn(tell, *args)`` (and the callable it returns, with
        the kill armed at call ``kill_at``) in this process's environment as it is now
        (a forker may serve several tests, each with its own home); with ``until``,
        return once the child has told that byte (asserting it did not die first).
        Returns the child's pid."""
        from mnemic.backends.files import lost

        # the boot id as this process sees it (a test may pin it, as journal durability's
        # tests do): a child forked from the test's own process saw the same
        request = dict(fork=fn, args=list(args), env=dict(os.environ), kill_at=kill_at,
                       names=names, after=after, boot=list(lost._BOOT))  # fmt: skip
        answer = self._ask({**request, "until": until})
        self.live.add(int(answer["pid"]))
        assert not answer.get("died"), f"the child of {fn} died before it told {until!r}"
        return int(answer["pid"])

    def kill_after(self, fn: str, *args: Any, byte: str, count: int) -> tuple[int, bool]:
        """Fork a child that runs ``fn(tell, *args)`` and SIGKILL it (from the forker, at
        once) when it has told ``byte`` ``count`` times; (its pid, whether it was killed:
        not when it exited first). Reap it with :meth:`wait`."""
        from mnemic.backends.files import lost

        request = dict(fork=fn, args=list(args), env=dict(os.environ), until=byte,
                       count=count, kill=True, boot=list(lost._BOOT))  # fmt: skip
        answer = self._ask(request)
        self.live.add(int(answer["pid"]))
        return int(answer["pid"]), bool(answer.get("killed"))

    def wait(self, pid: int) -> int:
        """Reap the child; its wait status."""
        status = int(self._ask({"wait": pid})["status"])
        self.live.discard(pid)
        return status

    def run_killed_at(self, k: int, fn: str, *args: Any, **kill: Any) -> int:
        """As :func:`_killpoints.run_killed_at`: the wait status of a child that ran
        ``fn``'s action with the kill armed at call ``k``."""
        return self.wait(self.fork(fn, *args, kill_at=k, **kill))

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        assert self.proc.wait(timeout=60) == 0

    def __enter__(self) -> Forker:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if kind is None:
            self.close()
        else:  # a child left running (a busy writer) would write on forever
            for pid in self.live:
                os.kill(pid, signal.SIGKILL)
            self.proc.kill()
            self.proc.wait()


_SHARED: dict[str, Forker] = {}


def shared(module: str) -> Forker:
    """This process's forker of ``module``, started on first use and closed at exit: the
    kill-point loops of several test files share one (each child gets the environment of
    the test that asks, as a child forked from it would)."""
    if module not in _SHARED:
        _SHARED[module] = Forker(module)
        atexit.register(_SHARED[module].close)
    return _SHARED[module]
