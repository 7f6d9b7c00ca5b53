"""Worker for the concurrency test: mixed memory tool calls on a shared home.

Usage: python curated_writer.py HOME WORKER_ID OPS SEED
Opens the store, prints ``ready``, waits for a line on stdin (the start signal), makes its
first write, prints ``first`` and waits for a second line (every worker has written once),
then prints one JSON report. :func:`forked` is the same worker forked by
``tests/workers/forker.py`` (``run_curated_writers(..., fork=True)``).
"""

from __future__ import annotations

import fcntl
import json
import random
import sys
from collections.abc import Callable
from typing import Any

from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool


def write(
    home: str,
    wid: int,
    n: int,
    seed: int,
    ready: Callable[[], object],
    regroup: Callable[[], object],
) -> dict[str, Any]:
    """Open the store, call ``ready`` (which returns at the start gun), make ``n`` writes;
    the report. ``regroup`` is called after the first write and returns once every
    worker made its first: no worker can make all its writes before another starts (on a
    loaded machine one did, and never wrote after another's write)."""
    rng = random.Random(seed)
    mem = Memory.open(home)
    mine: list[str] = []
    gone: list[str] = []
    writes = 0
    problems: list[str] = []
    ready()
    for k in range(n):
        if k == 1:
            regroup()
        roll = rng.random()
        if mine and (len(mine) >= 6 or roll < 0.25):
            victim = rng.choice(mine)
            resp = run_memory_tool(
                mem, {"action": "remove", "target": "memory", "old_text": victim}
            )
            if resp.get("success"):
                mine.remove(victim)
                gone.append(victim)
        elif mine and roll < 0.5:
            old = rng.choice(mine)
            new = f"w{wid}-{k}r"
            resp = run_memory_tool(
                mem, {"action": "replace", "target": "memory", "old_text": old, "content": new}
            )
            if resp.get("success"):
                mine[mine.index(old)] = new
                gone.append(old)
        else:
            new = f"w{wid}-{k}"
            resp = run_memory_tool(mem, {"action": "add", "target": "memory", "content": new})
            if resp.get("success"):
                mine.append(new)
        if not resp.get("success"):
            problems.append(json.dumps(resp))
            continue
        writes += 1
        live = set(mem.entries("memory"))
        missing = [e for e in mine if e not in live]
        resurrected = [e for e in gone if e in live]
        if missing or resurrected:
            problems.append(f"after op {k}: missing {missing}, resurrected {resurrected}")
    if n < 2:
        regroup()
    return {"worker": wid, "mine": mine, "writes": writes, "problems": problems}


def forked(
    tell: Callable[[bytes], None],
    home: str,
    wid: int,
    n: int,
    seed: int,
    gun: str,
    report: str,
    firsts: str,
    second_gun: str,
) -> None:
    """A worker forked by ``tests/workers/forker.py``: tells ``o`` once the store is open,
    waits for the start gun (a shared lock of ``gun``, which the test holds exclusively
    until every worker is open), after its first write puts a byte in the FIFO
    ``firsts`` and waits for ``second_gun`` alike, writes its report to ``report``."""

    def ready() -> None:
        tell(b"o")
        with open(gun, "rb") as fh:
            fcntl.flock(fh, fcntl.LOCK_SH)

    def regroup() -> None:
        with open(firsts, "wb", buffering=0) as fifo:
            fifo.write(b"1")
        with open(second_gun, "rb") as fh:
            fcntl.flock(fh, fcntl.LOCK_SH)

    done = write(home, wid, n, seed, ready, regroup)
    with open(report, "w", encoding="utf-8") as fh:
        json.dump(done, fh)


def main() -> None:
    home, wid, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

    def ready() -> None:
        print("ready", flush=True)
        sys.stdin.readline()

    def regroup() -> None:
        print("first", flush=True)
        sys.stdin.readline()

    print(json.dumps(write(home, wid, n, seed, ready, regroup)))


if __name__ == "__main__":
    main()
