"""Two versions of the code, one hybrid call each in turn, at 100,000 messages.

    git archive BASE src | tar -x -C /tmp/before
    ./x bench hybrid_versions --before /tmp/before/src --keep /tmp/h100k.db

A machine shared by several engineers makes two runs incomparable, so this runs both
versions in the same run: two worker processes (this checkout's ``src``, and the
``--before`` tree) open the same store (``bench/hybrid_stages.py``'s, built once), and
each LoCoMo dev question is asked of one and then the other (the order alternating per
question). Each call is a whole ``search_messages`` hybrid call (limit 50, floor off),
the query embedded live; each question is then asked a second time of both (what a
repeated question costs: the process may remember its vector). The two versions'
rankings are compared: same message ids in the same order, same scores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit, summarize_ms

HERE = Path(__file__).resolve().parent

WORKER = """
import json, os, sys, time
sys.path.insert(0, {bench!r})
from pathlib import Path
import mnemic
import hybrid_stages as hs
from _semantic import embedder
from mnemic.sessions import search_messages
from mnemic.sessions.search.retrieval import semantic_state
store = hs.open_store(Path({keep!r}), 0)
emb = embedder()
state = semantic_state(store, lambda: emb, max_age=1e9)
for q in ("warm up the matrix", "and the model", "and the page cache"):
    search_messages(store, q, mode="hybrid", limit=50, floor=False, state=state)
print(json.dumps({{"ready": mnemic.__file__}}), flush=True)
for line in sys.stdin:
    q = json.loads(line)
    a = time.perf_counter()
    r = search_messages(store, q, mode="hybrid", limit=50, floor=False, state=state)
    took = time.perf_counter() - a
    out = [[x.message_id, round(x.score, 9)] for x in sorted(r.results, key=lambda x: x.rank)]
    print(json.dumps({{"s": took, "ranked": out}}), flush=True)
"""


def _worker(src: Path, keep: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(src), OMP_NUM_THREADS="1")
    code = WORKER.format(bench=str(HERE), keep=str(keep))
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)  # fmt: skip
    assert proc.stdout is not None
    ready = json.loads(proc.stdout.readline())
    where = Path(ready["ready"]).resolve()
    if not where.is_relative_to(src.resolve()):
        raise SystemExit(f"the worker for {src} imported mnemic from {where}")
    return proc


def _ask(proc: subprocess.Popen[str], q: str) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(q) + "\n")
    proc.stdin.flush()
    return dict(json.loads(proc.stdout.readline()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the src tree to compare")
    parser.add_argument("--keep", type=Path, required=True, help="the store (built if absent)")
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    import hybrid_stages as hs

    if not args.keep.exists():
        hs.open_store(args.keep, args.messages).close()
    t0 = time.perf_counter()
    load0 = os.getloadavg()
    sides = {"before": _worker(args.before, args.keep), "after": _worker(HERE.parent / "src",
                                                                        args.keep)}  # fmt: skip
    qs = hs.questions()
    picked = qs[:: max(1, len(qs) // args.queries)][: args.queries]
    times: dict[str, list[float]] = {f"{s} {r}": [] for r in ("first", "again") for s in sides}
    ratios: list[float] = []
    same = 0
    differ: list[str] = []
    for n, q in enumerate(picked):
        for rnd in ("first", "again"):
            got: dict[str, dict[str, Any]] = {}
            for side in list(sides)[:: 1 if n % 2 else -1]:
                got[side] = _ask(sides[side], q)
                times[f"{side} {rnd}"].append(got[side]["s"])
            if rnd == "first":
                ratios.append(got["after"]["s"] / got["before"]["s"])
                if got["after"]["ranked"] == got["before"]["ranked"]:
                    same += 1
                else:
                    differ.append(q)
    load1 = os.getloadavg()
    for proc in sides.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    ratios.sort()
    out: dict[str, Any] = {
        "before": str(args.before),
        "queries": len(picked),
        "identical_rankings": same,
        "differing_questions": differ[:10],
        "load_average_start_end": [round(load0[0], 2), round(load1[0], 2)],
        "after_over_before_median_ratio_first_ask": round(ratios[len(ratios) // 2], 3),
    }
    for label, t in times.items():
        s = out[label.replace(" ", "_")] = summarize_ms(t)
        print(f"  {label:14s} p50 {s['p50_ms']:6.1f} ms  p99 {s['p99_ms']:6.1f} ms")
    print(f"  identical rankings: {same} of {len(picked)}; median after/before "
          f"{out['after_over_before_median_ratio_first_ask']}; load {load0[0]:.2f} -> "
          f"{load1[0]:.2f}")  # fmt: skip
    out["aim_ms"] = {"p50": 25, "p99": 50}
    out["seconds"] = round(time.perf_counter() - t0, 1)
    emit("hybrid-versions", out)


if __name__ == "__main__":
    main()
