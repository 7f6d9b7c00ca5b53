"""Many processes writing one home at once: ``tests/workers/curated_writer.py`` workers,
started together by a start gun, their reports collected."""

from __future__ import annotations

import fcntl
import json
import os
import select
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
    writes before the last one started), let none make its second write before every one
    made its first (on a loaded machine one still made all 50 before the others woke:
    session 53), and return each worker's final report
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
    _tell(procs, "go\n")  # ...before the start gun lets any of them write
    for p in procs:  # every worker made its first write...
        assert p.stdout is not None
        assert p.stdout.readline() == "first\n", p.communicate(timeout=timeout)[1][-2000:]
    _tell(procs, "again\n")  # ...before any makes its second
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=timeout)
        assert p.returncode == 0, err[-2000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return reports


def _tell(procs: list[subprocess.Popen[str]], line: str) -> None:
    for p in procs:
        assert p.stdin is not None
        p.stdin.write(line)
        p.stdin.flush()


def _forked_writers(home: Path, writers: int, ops: int, seed: int) -> list[dict[str, Any]]:
    spool = Path(tempfile.mkdtemp(prefix="writers-", dir=home.parent))
    gun, second, firsts = spool / "gun", spool / "second", spool / "firsts"
    gun.touch()
    second.touch()
    os.mkfifo(firsts)
    with Forker("curated_writer") as forker, gun.open("rb") as held, second.open("rb") as later:
        fcntl.flock(held, fcntl.LOCK_EX)  # no worker writes before every one is open
        fcntl.flock(later, fcntl.LOCK_EX)  # nor writes twice before every one wrote once
        # read and write: the FIFO never reads as closed between two workers' bytes
        fifo = os.open(firsts, os.O_RDWR)
        try:
            pids = [
                forker.fork("forked", str(home), i, ops, seed + i, str(gun),
                            str(spool / f"{i}.json"), str(firsts), str(second), until="o")
                for i in range(writers)
            ]  # fmt: skip
            fcntl.flock(held, fcntl.LOCK_UN)  # the start gun
            got = 0
            while got < writers:  # a byte from each worker after its first write
                ready, _, _ = select.select([fifo], [], [], 240)
                assert ready, f"{writers - got} of {writers} workers never wrote once"
                got += len(os.read(fifo, writers - got))
            fcntl.flock(later, fcntl.LOCK_UN)  # the second gun
        finally:
            os.close(fifo)
        for pid in pids:
            status = forker.wait(pid)
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    return [json.loads((spool / f"{i}.json").read_text()) for i in range(writers)]
