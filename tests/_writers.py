"""Many processes writing one home at once: ``tests/workers/curated_writer.py`` workers,
started together by a start gun, their reports collected."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from _forker import Forker

WORKER = Path(__file__).parent / "workers" / "curated_writer.py"


def run_curated_writers(
    home: Path | str,
    writers: int,
    ops: int,
    seed: int,
    *,
    timeout: float = 240,
    env: Mapping[str, str] | None = None,
    fork: bool = False,
) -> list[dict[str, Any]]:
    """Start ``writers`` workers of ``ops`` writes each (worker ``i`` seeded ``seed + i``),
    release them together once every one has opened the store (before session 50 the
    gun went off at once, and a worker whose imports finished first could make all its
    writes before the last one started), and return each worker's final report
    (asserting that every worker exited 0).

    With ``fork``, the workers are forked from one process that imported mnemic
    (``tests/_forker.py``) instead of each starting an interpreter and importing it (the
    imports were about half the CPU of eight workers of 50 writes); the start gun is then
    a lock of a file beside the home, each report a file there. Each worker is still a
    process of its own that opens the store itself (after the fork)."""
    if fork:
        return _forked_writers(Path(home), writers, ops, seed)
    procs = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(home), str(i), str(ops), str(seed + i)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=None if env is None else dict(env),
        )
        for i in range(writers)
    ]
    for p in procs:  # every worker has opened the store (and connected)...
        assert p.stdout is not None
        assert p.stdout.readline() == "ready\n", p.communicate(timeout=timeout)[1][-2000:]
    for p in procs:  # ...before the start gun lets any of them write
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=timeout)
        assert p.returncode == 0, err[-2000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return reports


def _forked_writers(home: Path, writers: int, ops: int, seed: int) -> list[dict[str, Any]]:
    spool = Path(tempfile.mkdtemp(prefix="writers-", dir=home.parent))
    gun = spool / "gun"
    gun.touch()
    with Forker("curated_writer") as forker, gun.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # no worker writes before every one is open
        pids = [
            forker.fork(
                "forked", str(home), i, ops, seed + i, str(gun), str(spool / f"{i}.json"), until="o"
            )
            for i in range(writers)
        ]
        fcntl.flock(held, fcntl.LOCK_UN)  # the start gun
        for pid in pids:
            status = forker.wait(pid)
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    return [json.loads((spool / f"{i}.json").read_text()) for i in range(writers)]
