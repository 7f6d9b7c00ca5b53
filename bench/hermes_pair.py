"""mnemic side by side with Hermes Agent's memory store, same machine, one interleaved run.

Usage: ./x bench hermes_pair [--hermes-python PATH] [--rounds N] [--ops N] [--tool-ops N]
                              [--procs N] [--profile DIR] [--only WORKLOAD]

Hermes is not a dependency of mnemic and nothing here installs it: put it in a throwaway
venv outside the repository and name that venv (or its python) with ``--hermes-python``
or ``MNEMIC_HERMES_PYTHON``:

    python3 -m venv /tmp/hermes-venv && /tmp/hermes-venv/bin/pip install hermes-agent==0.19.0

Its real store is driven (``tools.memory_tool.MemoryStore`` through the ``memory_tool``
dispatcher, as its agent loop calls it); ``bench/_pair_side.py`` is the one harness
both sides run, each in its own interpreter, so the figures differ only by the store.
Every call is timed from the JSON arguments in to the JSON response out.

Workloads (issue: a write must not cost more because the store holds more):

a. ``grow``: PROCS processes x OPS adds of unique entries with the limits raised to
   10,000,000 characters, from an empty store (it grows to PROCS x OPS entries).
b. ``churn``: PROCS processes x OPS add/remove pairs of unique entries (2 x OPS calls
   each), default limits, the store half full and staying small.
c. ``tool``: one add, replace and remove near a full default store (88 %), one process,
   the two sides' rounds alternating call by call; after each call the work it leaves to
   the background is finished untimed (mnemic's audit flush), as the model's turn would.
   A bare durable write of the same bytes (temp file, fsync, rename, directory fsync) is
   timed in the same loop as the floor.

a and b run ROUNDS times, the sides alternating which goes first, each run on a fresh
home. Throughput is the median of the rounds (calls / wall time from the writers'
release to the last report); latencies pool every call of every round. Ratios are
mnemic / Hermes: throughput above 1 means mnemic does more; a latency ratio above 1
means mnemic takes longer. Both sides scan at their default level (mnemic's learned
classifier, Hermes's strict patterns) and keep their audit defaults (mnemic's journal
on, fsync on).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, percentile, summarize_ms
from curated import NOTES, bare_durable_write, fill

SIDE = Path(__file__).resolve().parent / "_pair_side.py"
RAISED = [10_000_000, 10_000_000]
DEFAULT = [2200, 1375]
INSTALL = (
    "python3 -m venv /tmp/hermes-venv && /tmp/hermes-venv/bin/pip install hermes-agent==0.19.0"
)
PROBE = (
    "import importlib.metadata as m, tools.memory_tool as t; "
    "assert hasattr(t, 'MemoryStore') and hasattr(t, 'memory_tool'); "
    "print(m.version('hermes-agent'))"
)


def hermes_python(given: str | None) -> tuple[str, str]:
    """The Hermes venv's interpreter and the installed hermes-agent version; exits with
    how to install it when there is none."""
    if not given:
        raise SystemExit(
            "hermes_pair: no Hermes venv given. Install Hermes Agent outside the repository,"
            f" then pass it:\n  {INSTALL}\n  ./x bench hermes_pair --hermes-python "
            "/tmp/hermes-venv   (or set MNEMIC_HERMES_PYTHON)"
        )
    path = Path(given)
    if path.is_dir():
        path = path / "bin" / "python"
    if not path.exists():
        raise SystemExit(
            f"hermes_pair: {path} does not exist. Install Hermes Agent with:\n  {INSTALL}"
        )
    probe = subprocess.run(
        [str(path), "-c", PROBE], capture_output=True, text=True, cwd=tempfile.gettempdir()
    )
    if probe.returncode != 0:
        raise SystemExit(
            f"hermes_pair: {path} cannot import Hermes's memory store (tools.memory_tool):\n"
            f"{probe.stderr.strip()[-800:]}\nInstall it with:\n  {INSTALL}"
        )
    return str(path), probe.stdout.strip().splitlines()[-1]


def _run_side(python: str, side: str, command: str, home: Path, spec: dict[str, Any]) -> str:
    done = subprocess.run(
        [python, str(SIDE), side, command, str(home), json.dumps(spec)],
        capture_output=True,
        text=True,
        cwd=home.parent,
    )
    if done.returncode != 0:
        raise SystemExit(f"hermes_pair: the {side} side failed ({command}):\n{done.stderr[-2000:]}")
    return done.stdout


def contended(pythons: dict[str, str], spec: dict[str, Any], rounds: int) -> dict[str, object]:
    """``rounds`` runs of each side on fresh homes, alternating which side goes first."""
    walls: dict[str, list[float]] = {side: [] for side in pythons}
    rates: dict[str, list[float]] = {side: [] for side in pythons}
    lats: dict[str, list[float]] = {side: [] for side in pythons}
    sides = list(pythons)
    for r in range(rounds):
        for side in sides if r % 2 == 0 else sides[::-1]:
            scratch = Path(tempfile.mkdtemp(prefix=f"mnemic-pair-{side}-"))
            try:
                home = scratch / "home"
                home.mkdir()
                _run_side(pythons[side], side, "prepare", home, spec)
                got = json.loads(
                    _run_side(pythons[side], side, "contend", home, spec).splitlines()[-1]
                )
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            walls[side].append(got["wall_s"])
            rates[side].append(got["calls"] / got["wall_s"])
            lats[side].extend(got["latencies_s"])
            print(f"  round {r + 1} {side}: {rates[side][-1]:.1f} calls/s", flush=True)
    out: dict[str, object] = {}
    for side in sides:
        ms = [s * 1000.0 for s in lats[side]]
        out[side] = {
            "ops_per_s": round(statistics.median(rates[side]), 1),
            "ops_per_s_rounds": [round(x, 1) for x in rates[side]],
            "p50_ms": round(percentile(ms, 50), 2),
            "p99_ms": round(percentile(ms, 99), 2),
            "max_ms": round(max(ms), 2),
        }
    m, h = out["mnemic"], out["hermes"]
    assert isinstance(m, dict) and isinstance(h, dict)
    out["mnemic_over_hermes"] = {
        "throughput": round(m["ops_per_s"] / h["ops_per_s"], 3),
        "p50": round(m["p50_ms"] / h["p50_ms"], 3),
        "p99": round(m["p99_ms"] / h["p99_ms"], 3),
    }
    return out


def _tool_worker(python: str, side: str, home: Path, spec: dict[str, Any]) -> subprocess.Popen[str]:
    _run_side(python, side, "prepare", home, spec)
    worker = subprocess.Popen(
        [python, str(SIDE), side, "tool", str(home), json.dumps(spec)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=home.parent,
    )
    assert worker.stdout is not None
    if worker.stdout.readline().strip() != "ready":
        raise SystemExit(f"hermes_pair: the {side} tool worker did not start")
    return worker


def tool_calls(pythons: dict[str, str], ops: int) -> dict[str, object]:
    """Near a full default store: add, replace, remove; the sides alternate round by
    round, with a bare durable write of mnemic's file after each call as the floor."""
    spec = {"limits": DEFAULT, "fill": fill(NOTES, DEFAULT[0], 0.88)}
    scratch = Path(tempfile.mkdtemp(prefix="mnemic-pair-tool-"))
    workers: dict[str, subprocess.Popen[str]] = {}
    try:
        for side, python in pythons.items():
            (scratch / side / "home").mkdir(parents=True)
            workers[side] = _tool_worker(python, side, scratch / side / "home", spec)
        floor_dir = scratch / "floor"
        floor_dir.mkdir()
        ours = scratch / "mnemic" / "home" / "memories" / "MEMORY.md"
        times: dict[str, dict[str, list[float]]] = {
            side: {"add": [], "replace": [], "remove": []} for side in workers
        }
        floor: list[float] = []
        sides = list(workers)
        for i in range(ops):
            for side in sides if i % 2 == 0 else sides[::-1]:
                w = workers[side]
                assert w.stdin is not None and w.stdout is not None
                w.stdin.write(f"{i}\n")
                w.stdin.flush()
                line = w.stdout.readline()
                if not line:
                    raise SystemExit(f"hermes_pair: the {side} tool worker stopped")
                for name, took in json.loads(line):
                    times[side][name].append(took)
            data = ours.read_bytes()
            for _ in range(3):
                t0 = time.perf_counter()
                bare_durable_write(floor_dir, floor_dir / "MEMORY.md", data)
                floor.append(time.perf_counter() - t0)
        out: dict[str, object] = {"rounds": ops, "fill_ratio": 0.88}
        for side in sides:
            every = [t for v in times[side].values() for t in v]
            out[side] = {
                **{name: summarize_ms(v) for name, v in times[side].items()},
                "all_calls": summarize_ms(every),
            }
        out["floor_bare_durable_write"] = summarize_ms(floor)
        m, h = out["mnemic"], out["hermes"]
        assert isinstance(m, dict) and isinstance(h, dict)
        out["mnemic_over_hermes_p50"] = {
            name: round(m[name]["p50_ms"] / h[name]["p50_ms"], 3)
            for name in ("add", "replace", "remove", "all_calls")
        }
        floor_p50 = summarize_ms(floor)["p50_ms"]
        out["p50_over_floor"] = {
            side: round(out[side]["all_calls"]["p50_ms"] / floor_p50, 3)  # type: ignore[index]
            for side in sides
        }
        return out
    finally:
        for w in workers.values():
            assert w.stdin is not None
            w.stdin.close()
            w.wait(timeout=60)
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--hermes-python",
        default=os.environ.get("MNEMIC_HERMES_PYTHON"),
        help="the Hermes venv (or its python); default $MNEMIC_HERMES_PYTHON",
    )
    ap.add_argument("--rounds", type=int, default=3, help="runs of each contended workload")
    ap.add_argument("--procs", type=int, default=8, help="writer processes")
    ap.add_argument("--ops", type=int, default=200, help="adds (grow) or pairs (churn) per writer")
    ap.add_argument("--tool-ops", type=int, default=200, help="rounds of the single-call workload")
    ap.add_argument("--only", choices=("grow", "churn", "tool"), help="run one workload")
    ap.add_argument("--profile", help="a directory: each contended writer dumps a cProfile there")
    args = ap.parse_args()
    python, version = hermes_python(args.hermes_python)
    pythons = {"mnemic": sys.executable, "hermes": python}
    print(f"hermes-agent {version} ({python}) against mnemic ({sys.executable})", flush=True)
    profile = str(Path(args.profile).resolve()) if args.profile else None
    if profile:
        Path(profile).mkdir(parents=True, exist_ok=True)
    result: dict[str, object] = {"hermes_agent": version}
    base = {"procs": args.procs, "ops": args.ops, "profile": profile}
    specs = {
        "grow": {**base, "workload": "grow", "limits": RAISED, "fill": []},
        "churn": {
            **base,
            "workload": "churn",
            "limits": DEFAULT,
            "fill": fill(NOTES, DEFAULT[0], 0.5),
        },
    }
    for name, spec in specs.items():
        if args.only and args.only != name:
            continue
        calls = args.ops * (2 if name == "churn" else 1)
        print(
            f"{name}: {args.procs} processes x {calls} calls, {args.rounds} rounds ...", flush=True
        )
        result[name] = {
            "procs": args.procs,
            "calls_per_process": calls,
            **contended(pythons, spec, args.rounds),
        }
        print(f"{name}:", json.dumps(result[name]["mnemic_over_hermes"]), flush=True)  # type: ignore[index]
    if not args.only or args.only == "tool":
        print(
            f"tool: {args.tool_ops} rounds of add/replace/remove near a full store ...", flush=True
        )
        result["tool"] = tool_calls(pythons, args.tool_ops)
        print("tool:", json.dumps(result["tool"]["mnemic_over_hermes_p50"]), flush=True)  # type: ignore[index]
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    emit("hermes_pair", result)


if __name__ == "__main__":
    main()
