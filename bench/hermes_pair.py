"""mnemic side by side with Hermes Agent's memory store, same machine, one interleaved run.

Usage: ./x bench hermes_pair [--hermes-python PATH] [--rounds N] [--ops N] [--tool-ops N]
                              [--procs N] [--only WORKLOAD] [--baseline OLD/src]
                              [--profile DIR]

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
c. ``tool``: one add, replace and remove near a full default store (88 %), one process
   per side, the sides taking turns round by round; after each call the work it leaves
   to the background is finished untimed (mnemic's audit flush), as the model's turn
   would. Bare durable writes of mnemic's file (temp file, fsync, rename, directory
   fsync) are timed in the same loop as the floor.

a and b run ROUNDS times, each participant going first in turn, each run on a fresh
home; each writer makes one untimed add and remove of its own before the release (lazy
imports, first-call caches). Throughput is the median of the rounds (calls / wall time
from the writers' release to the last report), and ``throughput_paired`` the median of
the per-round ratios (steadier: the machine's speed drifts within a run); latencies
pool every call of every round; ``throughput_geomean`` is the geometric mean of the
per-round ratios with its 95 % interval (Student's t on the logarithms), and
``cpu_per_call_geomean`` the same for the writers' CPU a call (all their threads, from
the release to the end); each round's load average is kept. Ratios are mnemic /
Hermes: throughput above 1 means mnemic does more; a latency ratio above 1 means mnemic
takes longer (for the single call: the ratio of the p50s).
``--baseline OLD/src`` adds an older checkout's code as a third participant, run by the
same harness in the same turns (``mnemic_over_baseline``). Both sides scan at their
default level (mnemic's learned classifier, Hermes's strict patterns) and keep their
audit defaults (mnemic's journal on, fsync on).
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, paired, percentile, summarize_ms
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


@dataclass(frozen=True)
class Who:
    """One participant: an interpreter, the adapter of ``_pair_side.py`` it runs, and
    the environment it runs with (``PYTHONPATH`` for a baseline checkout)."""

    label: str
    python: str
    side: str
    env: dict[str, str] | None = None

    def run(self, command: str, home: Path, spec: dict[str, Any]) -> str:
        done = subprocess.run(
            [self.python, str(SIDE), self.side, command, str(home), json.dumps(spec)],
            capture_output=True,
            text=True,
            cwd=home.parent,
            env=self.env,
        )
        if done.returncode != 0:
            raise SystemExit(
                f"hermes_pair: {self.label} failed ({command}):\n{done.stderr[-2000:]}"
            )
        return done.stdout

    def serve(self, home: Path, spec: dict[str, Any]) -> subprocess.Popen[str]:
        self.run("prepare", home, spec)
        worker = subprocess.Popen(
            [self.python, str(SIDE), self.side, "tool", str(home), json.dumps(spec)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=home.parent,
            env=self.env,
        )
        assert worker.stdout is not None
        if worker.stdout.readline().strip() != "ready":
            raise SystemExit(f"hermes_pair: the {self.label} tool worker did not start")
        return worker


def _turns(people: list[Who], r: int) -> list[Who]:
    """Round ``r``'s order: each participant goes first in turn."""
    k = r % len(people)
    return people[k:] + people[:k]


def _over(a: dict[str, Any], b: dict[str, Any], keys: dict[str, str]) -> dict[str, float]:
    return {name: round(a[key] / b[key], 3) for name, key in keys.items()}


def _ratios(out: dict[str, Any], keys: dict[str, str]) -> None:
    out["mnemic_over_hermes"] = _over(out["mnemic"], out["hermes"], keys)
    if "mnemic_baseline" in out:
        out["mnemic_over_baseline"] = _over(out["mnemic"], out["mnemic_baseline"], keys)
        out["baseline_over_hermes"] = _over(out["mnemic_baseline"], out["hermes"], keys)


def contended(people: list[Who], spec: dict[str, Any], rounds: int) -> dict[str, Any]:
    """``rounds`` runs of each participant on fresh homes, taking turns going first."""
    rates: dict[str, list[float]] = {p.label: [] for p in people}
    cpus: dict[str, list[float]] = {p.label: [] for p in people}
    lats: dict[str, list[float]] = {p.label: [] for p in people}
    loads: list[float] = []
    for r in range(rounds):
        loads.append(round(os.getloadavg()[0], 2))
        for who in _turns(people, r):
            scratch = Path(tempfile.mkdtemp(prefix=f"mnemic-pair-{who.label}-"))
            try:
                home = scratch / "home"
                home.mkdir()
                who.run("prepare", home, spec)
                got = json.loads(who.run("contend", home, spec).splitlines()[-1])
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            rates[who.label].append(got["calls"] / got["wall_s"])
            cpus[who.label].append(got["cpu_s"] / got["calls"] * 1000.0)
            lats[who.label].extend(got["latencies_s"])
            print(
                f"  round {r + 1} {who.label}: {rates[who.label][-1]:.1f} calls/s,"
                f" CPU {cpus[who.label][-1]:.2f} ms a call (load {loads[-1]})",
                flush=True,
            )
    out: dict[str, Any] = {"load_per_round": loads}
    for who in people:
        ms = [s * 1000.0 for s in lats[who.label]]
        out[who.label] = {
            "ops_per_s": round(statistics.median(rates[who.label]), 1),
            "ops_per_s_rounds": [round(x, 1) for x in rates[who.label]],
            "cpu_ms_per_call": round(statistics.median(cpus[who.label]), 3),
            "cpu_ms_per_call_rounds": [round(x, 3) for x in cpus[who.label]],
            "p50_ms": round(percentile(ms, 50), 2),
            "p99_ms": round(percentile(ms, 99), 2),
            "max_ms": round(max(ms), 2),
        }
    _ratios(out, {"throughput": "ops_per_s", "p50": "p50_ms", "p99": "p99_ms"})
    # The machine's speed drifts within a run (other work, the disk's flushes): the
    # ratio of two participants' rates in the same round is steadier than the ratio of
    # their medians, so the median of those per-round ratios is given too, and their
    # geometric mean with its 95 % interval (``paired``), for throughput and for the
    # writers' CPU a call (every thread of every writer, from the release to its end).
    for key in [k for k in out if "_over_" in k]:
        a, b = (n.replace("baseline", "mnemic_baseline") for n in key.split("_over_"))
        ratios = [x / y for x, y in zip(rates[a], rates[b], strict=True)]
        out[key]["throughput_paired"] = round(statistics.median(ratios), 3)
        out[key]["throughput_rounds"] = [round(x, 3) for x in ratios]
        out[key]["throughput_geomean"] = paired(ratios)
        out[key]["cpu_per_call_geomean"] = paired(
            [x / y for x, y in zip(cpus[a], cpus[b], strict=True)]
        )
    return out


def tool_calls(people: list[Who], ops: int) -> dict[str, Any]:
    """Near a full default store: add, replace, remove; the participants take turns
    round by round, with bare durable writes of mnemic's file as the floor."""
    spec = {"limits": DEFAULT, "fill": fill(NOTES, DEFAULT[0], 0.88)}
    scratch = Path(tempfile.mkdtemp(prefix="mnemic-pair-tool-"))
    workers: dict[str, subprocess.Popen[str]] = {}
    try:
        for who in people:
            (scratch / who.label / "home").mkdir(parents=True)
            workers[who.label] = who.serve(scratch / who.label / "home", spec)
        floor_dir = scratch / "floor"
        floor_dir.mkdir()
        ours = scratch / "mnemic" / "home" / "memories" / "MEMORY.md"
        times: dict[str, dict[str, list[float]]] = {
            p.label: {"add": [], "replace": [], "remove": []} for p in people
        }
        floor: list[float] = []
        for i in range(ops):
            for who in _turns(people, i):
                w = workers[who.label]
                assert w.stdin is not None and w.stdout is not None
                w.stdin.write(f"{i}\n")
                w.stdin.flush()
                line = w.stdout.readline()
                if not line:
                    raise SystemExit(f"hermes_pair: the {who.label} tool worker stopped")
                for name, took in json.loads(line):
                    times[who.label][name].append(took)
            data = ours.read_bytes()
            for _ in range(3):
                t0 = time.perf_counter()
                bare_durable_write(floor_dir, floor_dir / "MEMORY.md", data)
                floor.append(time.perf_counter() - t0)
        out: dict[str, Any] = {"rounds": ops, "fill_ratio": 0.88}
        for who in people:
            every = [t for v in times[who.label].values() for t in v]
            out[who.label] = {
                **{name: summarize_ms(v) for name, v in times[who.label].items()},
                "all_calls": summarize_ms(every),
            }
        out["floor_bare_durable_write"] = summarize_ms(floor)
        flat = {
            label: {name: stats["p50_ms"] for name, stats in out[label].items()} for label in times
        }
        _ratios(flat, {name: name for name in ("add", "replace", "remove", "all_calls")})
        out.update({k: v for k, v in flat.items() if "_over_" in k})
        floor_p50 = out["floor_bare_durable_write"]["p50_ms"]
        out["p50_over_floor"] = {
            label: round(out[label]["all_calls"]["p50_ms"] / floor_p50, 3) for label in times
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
    ap.add_argument("--baseline", help="an older checkout's src dir, a third participant")
    ap.add_argument("--profile", help="a directory: each contended writer dumps a cProfile there")
    args = ap.parse_args()
    python, version = hermes_python(args.hermes_python)
    people = [Who("mnemic", sys.executable, "mnemic"), Who("hermes", python, "hermes")]
    if args.baseline:
        src = str(Path(args.baseline).resolve())
        people.append(
            Who("mnemic_baseline", sys.executable, "mnemic", {**os.environ, "PYTHONPATH": src})
        )
    print(f"hermes-agent {version} ({python}) against mnemic ({sys.executable})", flush=True)
    profile = str(Path(args.profile).resolve()) if args.profile else None
    if profile:
        Path(profile).mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {"hermes_agent": version}
    if args.baseline:
        result["baseline_src"] = args.baseline
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
        print(f"{name}: {args.procs} processes x {calls} calls, {args.rounds} rounds", flush=True)
        result[name] = {
            "procs": args.procs,
            "calls_per_process": calls,
            **contended(people, spec, args.rounds),
        }
        print(f"{name}:", json.dumps(result[name]["mnemic_over_hermes"]), flush=True)
    if not args.only or args.only == "tool":
        print(f"tool: {args.tool_ops} rounds of add/replace/remove near a full store", flush=True)
        result["tool"] = tool_calls(people, args.tool_ops)
        print("tool:", json.dumps(result["tool"]["mnemic_over_hermes"]), flush=True)
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    emit("hermes_pair", result)


if __name__ == "__main__":
    main()
