"""Tidy's cost, and that a change to it proposes exactly what the code before it did.

    ./x bench tidy_cost --against REV [--sets fresh,fixtures,random,heavy]

Plans the same stores with this tree's code and with revision ``REV``'s (its ``src``,
exported with ``git archive`` into a temp dir, run in a child process with the same
interpreter), offline, and compares every store's proposals (kind, entries, operations,
reasons, result) as text. The stores:

* ``fresh``: each labelled pair of every hand-written set (``bench/data/tidy_fresh*``,
  both halves: no figure is read, only whether the two runs agree), in both orders;
* ``fixtures``: 40 generated stores of each half of ``_tidy_fixtures``;
* ``random``: 12 stores of 60-70 entries drawn from the hand-written sets (labelled
  pairs kept together), random times, half of them with random cosines in [0.75, 1]
  so that the rules that read the embedder's cosine run;
* ``heavy``: ``heavy_home``'s home (about 400 MEMORY.md and 40 USER.md entries) through
  :func:`mnemic.ops.tidy.propose`, as ``mnemic memory tidy`` runs it offline.

Prints, and saves, the CPU seconds of each set on each side and the stores that differ
(none, for a change that keeps every verdict). Slow on the code before tidycost: the
heavy home alone took minutes of CPU there.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
SETS = ("fresh", "fixtures", "random", "heavy")


def _fresh_pairs() -> list[tuple[str, str]]:
    out = []
    for path in sorted((BENCH / "data").glob("tidy_fresh*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            if line:
                d = json.loads(line)
                out.append((d["a"], d["b"]))
    return out


def dump(out: Path, sets: list[str], home: Path | None) -> None:
    """Plan every store of ``sets`` with the ``mnemic`` on ``sys.path``: one JSON line per
    store (its name and its proposals' reprs) into ``out``, and the CPU seconds per set
    as the last line."""
    from _tidy_fixtures import build_stores, split
    from mnemic.ops.tidy.plan import plan

    cpu: dict[str, float] = {}
    with out.open("w", encoding="utf-8") as f:

        def run(name: str, entries: list[str], times: list[float | None], cos: Any = None) -> None:
            found = plan("memory", entries, times, now=3e9, stale_after_days=10**6,
                         verbose_chars=10_000, cosines=cos)  # fmt: skip
            f.write(json.dumps([name, [repr(p) for p in found]]) + "\n")

        pairs = _fresh_pairs()
        if "fresh" in sets:
            start = time.process_time()
            for k, (a, b) in enumerate(pairs):
                run(f"fresh{k}", [a, b], [1.0, 2.0])
                run(f"fresh{k}r", [b, a], [2.0, 1.0])
            cpu["fresh"] = time.process_time() - start
        if "fixtures" in sets:
            start = time.process_time()
            halves = split()
            for half, seed in (("dev", 20261), ("test", 20262)):
                for k, st in enumerate(build_stores(halves[half], 40, seed)):
                    run(f"fixtures-{half}{k}", st.entries, list(st.times))
            cpu["fixtures"] = time.process_time() - start
        if "random" in sets:
            start = time.process_time()
            rng = random.Random(26)
            flat = sorted({x for pair in pairs for x in pair})
            for k in range(12):
                entries = rng.sample(flat, 50)
                for a, b in rng.sample(pairs, 10):
                    entries += [a, b]
                entries = list(dict.fromkeys(entries))
                times = [rng.choice([None, rng.uniform(1e9, 2e9)]) for _ in entries]
                cos = None
                if k % 2:
                    cos = [[1.0] * len(entries) for _ in entries]
                    for i in range(len(entries)):
                        for j in range(i + 1, len(entries)):
                            cos[i][j] = cos[j][i] = rng.uniform(0.75, 1.0)
                run(f"random{k}", entries, times, cos)
            cpu["random"] = time.process_time() - start
        if "heavy" in sets and home is not None:
            from mnemic.curated.memory import Memory
            from mnemic.home import Home
            from mnemic.ops.tidy.proposals import propose

            memory = Memory.open(Home.open(home), origin="cli")
            start = time.process_time()
            report = propose(memory, now=1.8e9)
            cpu["heavy"] = time.process_time() - start
            f.write(json.dumps(["heavy", [repr(p) for p in report.proposals]]) + "\n")
        f.write(json.dumps(["cpu", cpu]) + "\n")


def _export(rev: str, into: Path) -> Path:
    data = subprocess.run(["git", "archive", rev, "src"], cwd=ROOT, check=True,
                          capture_output=True).stdout  # fmt: skip
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def _child(src: Path, out: Path, sets: list[str], home: Path | None) -> None:
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = [sys.executable, __file__, "--dump", str(out), "--sets", ",".join(sets)]
    if home is not None:
        cmd += ["--home", str(home)]
    subprocess.run(cmd, env=env, check=True)


def _read(path: Path) -> tuple[dict[str, list[str]], dict[str, float]]:
    stores: dict[str, list[str]] = {}
    cpu: dict[str, float] = {}
    for line in path.read_text("utf-8").splitlines():
        name, value = json.loads(line)
        if name == "cpu":
            cpu = value
        else:
            stores[name] = value
    return stores, cpu


def _cpu(before: float, after: float) -> dict[str, float | None]:
    return {
        "before": round(before, 2),
        "after": round(after, 2),
        "ratio": round(before / after, 1) if after else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", help="the revision to compare with (git rev)")
    parser.add_argument("--sets", default=",".join(SETS), help="of: " + ",".join(SETS))
    parser.add_argument("--dump", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--home", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    sets = [s for s in args.sets.split(",") if s]
    if args.dump is not None:
        dump(args.dump, sets, args.home)
        return
    if not args.against:
        parser.error("--against REV: the revision whose proposals this tree must repeat")
    with tempfile.TemporaryDirectory(prefix="mnemic-tidy-cost-") as tmp:
        work = Path(tmp)
        home = None
        if "heavy" in sets:
            from heavy_home import build

            home = work / "home"
            build(home)
        before, after = work / "before.jsonl", work / "after.jsonl"
        _child(_export(args.against, work / "rev"), before, sets, home)
        _child(ROOT / "src", after, sets, home)
        (was, cpu_was), (now, cpu_now) = _read(before), _read(after)
    differ = sorted(k for k in was.keys() | now.keys() if was.get(k) != now.get(k))
    result = {
        "against": args.against,
        "stores": len(now),
        "proposals": sum(len(v) for v in now.values()),
        "differ": differ,
        "identical": not differ,
        "cpu_seconds": {s: _cpu(cpu_was[s], cpu_now[s]) for s in cpu_now if s in cpu_was},
    }
    from _common import emit

    emit("tidy_cost", result)


if __name__ == "__main__":
    main()
