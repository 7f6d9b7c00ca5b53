"""Worker for the concurrency test: mixed memory tool calls on a shared home.

Usage: python curated_writer.py HOME WORKER_ID OPS SEED
Opens the store, prints ``ready``, waits for a line on stdin (the start signal), then
prints one JSON report.
"""

from __future__ import annotations

import json
import random
import sys

from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool


def main() -> None:
    home, wid, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    mem = Memory.open(home)
    mine: list[str] = []
    gone: list[str] = []
    writes = 0
    problems: list[str] = []
    print("ready", flush=True)
    sys.stdin.readline()
    for k in range(n):
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
    print(json.dumps({"worker": wid, "mine": mine, "writes": writes, "problems": problems}))


if __name__ == "__main__":
    main()
