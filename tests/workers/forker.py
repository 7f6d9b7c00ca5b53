"""The small process of :class:`_forker.Forker`: imports ``MODULE`` (and mnemic with it),
then forks a child per request and reports on it.

Usage: python forker.py MODULE  (a module of ``tests/workers``)
Calls ``MODULE.warm()`` first if there is one. Reads one JSON request a line on stdin,
answers one JSON line on stdout:
- ``{"fork": FN, "args": [...], "env": {...}, "kill_at": K, "names": [...], "after": NAME,
  "until": B}``: fork a child that, in environment ``env``, runs ``MODULE.FN(tell,
  *args)``; when that returns a callable, the child arms the kill at call ``K`` of
  ``os.<names>`` (``_killpoints.arm_kill``) and runs it. The child exits 0 when done, 3
  when it raised. With ``until``, the answer waits for the child to ``tell(B)`` (one
  byte; ``"died"`` in the answer if it exited first); with ``"count": N`` too, for the
  N-th time it tells that byte, and with ``"kill": true`` this process SIGKILLs the
  child right then (``"killed"`` in the answer; not when it exited first). Answer:
  ``{"pid": PID}``.
- ``{"wait": PID}``: reap the child; answer ``{"status": WAIT_STATUS}``.
The child's stdout is /dev/null (this one's is the protocol); its stderr is this one's.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: _killpoints

from _killpoints import FS_CALLS, arm_kill


def _child(module: object, req: dict[str, Any], tell_fd: int) -> None:
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)

        os.environ.clear()  # the test's environment when it asked for the fork
        os.environ.update(req["env"])
        if "boot" in req:  # and its boot id (empty: read from the system when needed)
            from mnemic.backends.files import lost

            lost._BOOT[:] = req["boot"]

        def tell(byte: bytes) -> None:
            os.write(tell_fd, byte)

        fn: Callable[..., object] = getattr(module, req["fork"])
        action = fn(tell, *req.get("args", []))
        if callable(action):
            if req.get("kill_at") is not None:
                names = tuple(req.get("names") or FS_CALLS)
                arm_kill(req["kill_at"], names, after=req.get("after"))
            action()
        os._exit(0)
    except BaseException:
        os._exit(3)


def main() -> None:
    module = importlib.import_module(f"workers.{sys.argv[1]}")
    warm = getattr(module, "warm", None)
    if warm is not None:  # what a first write imports and compiles, done once here
        warm()
    tells: dict[int, int] = {}
    for line in sys.stdin:
        req = json.loads(line)
        if "wait" in req:
            pid = int(req["wait"])
            _, status = os.waitpid(pid, 0)
            os.close(tells.pop(pid))
            answer: dict[str, Any] = {"status": status}
        else:
            tell_r, tell_w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(tell_r)
                _child(module, req, tell_w)
            os.close(tell_w)
            tells[pid] = tell_r  # kept open until the child is reaped: it may tell more
            answer = {"pid": pid}
            until = req.get("until")
            if until is not None:
                for _ in range(int(req.get("count") or 1)):
                    while (got := os.read(tell_r, 1)) != until.encode():
                        if not got:
                            answer["died"] = True
                            break
                    if answer.get("died"):
                        break
                if req.get("kill") and not answer.get("died"):
                    os.kill(pid, signal.SIGKILL)  # at once: the child may be mid-write
                    answer["killed"] = True
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
