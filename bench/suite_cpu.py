"""Where the test suite's time goes: each test's CPU and wall time, per file, per worker.

Usage: ./x bench suite_cpu [--sample N] [--seed S] [--keep FILE] [PYTEST ARGS]
       ./x bench suite_cpu --from FILE        (summarise records a run kept)

Runs pytest as ``./x test`` does (``-q -n 2``, the project's configuration; PYTEST ARGS
after them, e.g. ``tests/e2e`` or ``-m 'not slow'``) with the plugin
``bench/_suite_cpu_plugin.py``, which measures every test's whole run (setup, call,
teardown) in the process that runs it: CPU is the worker's ``process_time`` plus
``RUSAGE_CHILDREN`` (the subprocesses it reaped meanwhile: the CLI, servers, forked writers),
wall is the test's own. ``--sample N`` keeps one test in N, chosen by a CRC-32 of the seed
and the test's id (the same tests in every run of the same suite: a before and an after
compare test for test).

Prints the files ranked by CPU, each worker's line (tests, CPU, wall, wall − CPU: time spent
waiting for processes, servers and the machine; collection's CPU; how long it ran alone at
the end, with the tests it ran then) and, last, one JSON object, saved to
``bench/results/suite_cpu.json`` (``files`` holds every file). On a machine shared with
other work, wall time is the load's as much as the suite's: compare CPU, and compare two
trees in the same minutes. ``--keep FILE`` saves the per-test records (JSON lines) to give
to ``--from`` later.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from _common import emit

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = Path(__file__).resolve().parent / "_suite_cpu_plugin.py"
TOP = 40  # files printed


def run(pytest_args: list[str], *, sample: int, seed: str, out: Path) -> dict[str, Any]:
    """Run pytest with the plugin, records into ``out``; its exit code, wall and summary."""
    with tempfile.TemporaryDirectory(prefix="suite-cpu-path-") as where:
        # a directory holding only the plugin: nothing else on the path changes
        (Path(where) / PLUGIN.name).symlink_to(PLUGIN)
        before = os.environ.get("PYTHONPATH", "")
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(p for p in (where, before) if p),
            "SUITE_CPU_PYTHONPATH": before,
            "SUITE_CPU_OUT": str(out),
            "SUITE_CPU_SAMPLE": str(sample),
            "SUITE_CPU_SEED": seed,
        }
        cmd = [sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", PLUGIN.stem, *pytest_args]
        print("suite_cpu:", " ".join(cmd[1:]), flush=True)
        wall0 = time.perf_counter()
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert proc.stdout is not None
        last = ""
        for line in proc.stdout:
            sys.stdout.write(line)
            if line.strip():
                last = line.strip()
        rc = proc.wait()
        wall = time.perf_counter() - wall0
    return {"pytest_rc": rc, "run_wall_s": round(wall, 1), "pytest_summary": last}


def load(out: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The test records and the session records of every process's file in ``out``."""
    tests: list[dict[str, Any]] = []
    sessions: list[dict[str, Any]] = []
    for path in sorted(out.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                (sessions if "session" in record else tests).append(record)
    return tests, sessions


def summarise(tests: list[dict[str, Any]], sessions: list[dict[str, Any]]) -> dict[str, Any]:
    """Per file (ranked by CPU), per worker and the tail, from the plugin's records."""
    files: dict[str, dict[str, float]] = defaultdict(
        lambda: {"n": 0, "cpu_s": 0.0, "own_s": 0.0, "children_s": 0.0, "wall_s": 0.0}
    )
    for t in tests:
        row = files[t["id"].split("::", 1)[0]]
        row["n"] += 1
        row["own_s"] += t["own"]
        row["children_s"] += t["children"]
        row["cpu_s"] += t["own"] + t["children"]
        row["wall_s"] += t["wall"]
    ranked = [
        {"file": name, **{k: round(v, 2) if k != "n" else int(v) for k, v in row.items()}}
        for name, row in sorted(files.items(), key=lambda kv: -kv[1]["cpu_s"])
    ]
    by_worker: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for t in tests:
        by_worker[t["worker"]].append(t)
    ends = {w: max(t["start"] + t["wall"] for t in ts) for w, ts in by_worker.items()}
    first = min((t["start"] for t in tests), default=0.0)
    last_end = max(ends.values(), default=0.0)
    others_end = sorted(ends.values())[-2] if len(ends) > 1 else last_end
    workers = []
    for name in sorted(by_worker):
        ts = by_worker[name]
        cpu = sum(t["own"] + t["children"] for t in ts)
        wall = sum(t["wall"] for t in ts)
        session = next((s for s in sessions if s["session"] == name), {})
        alone = [t for t in ts if t["start"] + t["wall"] > others_end] if len(ends) > 1 else []
        workers.append(
            {
                "worker": name,
                "tests": len(ts),
                "cpu_s": round(cpu, 1),
                "wall_s": round(wall, 1),
                "waiting_s": round(wall - cpu, 1),
                "span_s": round(ends[name] - min(t["start"] for t in ts), 1),
                "idle_at_end_s": round(last_end - ends[name], 1),
                "collection_cpu_s": session.get("collection_own"),
                "session_cpu_s": (
                    round(session["own"] + session["children"], 1) if session else None
                ),
                "session_wall_s": session.get("wall"),
                "alone_at_end": [
                    {"id": t["id"], "wall_s": round(t["wall"], 1)}
                    for t in sorted(ts, key=lambda t: t["start"])
                    if t in alone
                ][-10:],
            }
        )
    cpu = sum(t["own"] + t["children"] for t in tests)
    return {
        "tests": len(tests),
        "outcomes": {
            o: sum(1 for t in tests if t["outcome"] == o) for o in ("passed", "failed", "skipped")
        },
        "cpu_s": round(cpu, 1),
        "own_s": round(sum(t["own"] for t in tests), 1),
        "children_s": round(sum(t["children"] for t in tests), 1),
        "tests_wall_s": round(sum(t["wall"] for t in tests), 1),
        "span_s": round(last_end - first, 1),
        "tail_s": round(last_end - others_end, 1),
        "workers": workers,
        "slowest": [
            {"id": t["id"], "cpu_s": round(t["own"] + t["children"], 1), "wall_s": t["wall"]}
            for t in sorted(tests, key=lambda t: -t["wall"])[:15]
        ],
        "files": ranked,
    }


def show(result: dict[str, Any]) -> None:
    print(
        f"\n{result['tests']} tests: {result['cpu_s']} s of CPU "
        f"({result['own_s']} in the workers, {result['children_s']} in their children), "
        f"{result['tests_wall_s']} s of test wall; first start to last end {result['span_s']} s"
    )
    print(f"{'file':<64} {'n':>5} {'cpu s':>8} {'child s':>8} {'wall s':>8} {'cum %':>6}")
    total = sum(row["cpu_s"] for row in result["files"]) or 1.0
    cum = 0.0
    for row in result["files"][:TOP]:
        cum += row["cpu_s"]
        print(
            f"{row['file']:<64} {row['n']:>5} {row['cpu_s']:>8.1f} {row['children_s']:>8.1f} "
            f"{row['wall_s']:>8.1f} {100 * cum / total:>6.1f}"
        )
    print("\nworker  tests   cpu s  wall s  wait s  idle at end s  collection cpu s")
    for w in result["workers"]:
        print(
            f"{w['worker']:<7} {w['tests']:>5} {w['cpu_s']:>7.1f} {w['wall_s']:>7.1f} "
            f"{w['waiting_s']:>7.1f} {w['idle_at_end_s']:>14.1f} {w['collection_cpu_s']!s:>17}"
        )
        for t in w["alone_at_end"]:
            print(f"    alone at the end: {t['id']} ({t['wall_s']} s)")
    print(f"tail (one worker alone at the end): {result['tail_s']} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=1, help="keep one test in N")
    parser.add_argument("--seed", default="0", help="the sample's seed")
    parser.add_argument("--keep", type=Path, help="save the per-test records here")
    parser.add_argument("--from", dest="source", type=Path, help="summarise kept records")
    args, pytest_args = parser.parse_known_args()
    meta: dict[str, Any] = {"sample": args.sample, "seed": args.seed, "pytest_args": pytest_args}
    if args.source:
        records = [json.loads(x) for x in args.source.read_text().splitlines() if x.strip()]
        tests = [r for r in records if "session" not in r]
        sessions = [r for r in records if "session" in r]
        meta = {"from": str(args.source)}
    else:
        with tempfile.TemporaryDirectory(prefix="suite-cpu-") as out:
            meta.update(run(pytest_args, sample=args.sample, seed=args.seed, out=Path(out)))
            tests, sessions = load(Path(out))
        meta["load_after"] = [round(x, 1) for x in os.getloadavg()]
        if args.keep:
            lines = [json.dumps(r) for r in tests + sessions]
            args.keep.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = {**meta, **summarise(tests, sessions)}
    show(result)
    emit("suite_cpu", result)


if __name__ == "__main__":
    main()
