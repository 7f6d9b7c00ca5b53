"""Curated-store benchmark: tool-call latency against a bare durable write, snapshot cost.

Usage: ./x bench curated [--ops N] [--cold-runs N]

1. Tool level, near a full store (MEMORY ~90 % full, config.toml present): add, replace
   and remove of unique entries, each measured from JSON arguments in to JSON response
   out. Interleaved with the same number of bare durable writes of the same content (temp
   file, write, fsync, rename, directory fsync): the floor. Aim: p50 <= 1.3x the floor.
2. Load + render of two full targets (fresh scan, as at session start). Aim <= 0.5 ms.
3. Cold start: `python -c "import mnemic; mnemic.render_snapshot()"` against a bare
   interpreter, interleaved, same run. Aim <= 50 ms above bare.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, summarize_ms
from mnemic.curated import Memory, snapshot as snapshot_mod
from mnemic.curated.entries import serialize
from mnemic.curated.tool import run_memory_tool

NOTES = [
    "Repo builds with `make -j2`; the release target also signs artifacts.",
    "CI runs on Debian 12 with Python 3.11; tests need a local PostgreSQL.",
    "Deploys go through staging first; prod needs a reviewer sign-off.",
    "The docs site is built by `make docs` and published from gh-pages.",
    "Flaky: test_network_timeout under load; rerun once before digging in.",
    "Use ruff for lint and format; mypy --strict must stay clean.",
    "The API gateway rate-limits at 100 req/s per token; batch calls.",
    "Logs live in /var/log/app; rotate weekly, keep 8 weeks.",
]
PROFILE = [
    "Name: Ada Lovelace. Senior compiler engineer at a small startup.",
    "Prefers short answers with code first, explanation after.",
    "Works in Europe/London time; usually online 09:00-18:00.",
    "Uses Neovim and tmux; dislikes GUI-only instructions.",
    "Wants metric units and ISO dates (YYYY-MM-DD).",
]


def fill(entries: list[str], limit: int, ratio: float) -> list[str]:
    out: list[str] = []
    i = 0
    while True:
        cand = f"{entries[i % len(entries)]} (#{i})"
        if len(serialize([*out, cand])) > limit * ratio:
            return out
        out.append(cand)
        i += 1


def bare_durable_write(directory: Path, path: Path, data: bytes) -> None:
    tmp = directory / f".bare.{os.urandom(6).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    dfd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def tool_level(ops: int, audit_fsync: bool = True) -> dict[str, object]:
    root = Path(tempfile.mkdtemp(prefix="mnemic-bench-"))
    try:
        (root / "config.toml").write_text(
            "[memory]\nmemory_char_limit = 2200\nuser_char_limit = 1375\nhistory_limit = 50\n"
            f"[audit]\nfsync = {str(audit_fsync).lower()}\n"
        )
        mem = Memory.open(root)
        base = fill(NOTES, 2200, 0.88)
        for e in base:
            mem.add("memory", e)
        floor_dir = root / "floor"
        floor_dir.mkdir()
        floor_path = floor_dir / "MEMORY.md"
        times: dict[str, list[float]] = {"add": [], "replace": [], "remove": [], "floor": []}
        sizes: list[int] = []
        for i in range(ops):
            new = f"Fact {i}: the staging DB snapshot runs nightly at 02:00 UTC."
            newer = f"Fact {i}: the staging DB snapshot runs nightly at 03:00 UTC."
            calls = [
                ("add", {"action": "add", "target": "memory", "content": new}),
                (
                    "replace",
                    {"action": "replace", "target": "memory", "old_text": new, "content": newer},
                ),
                ("remove", {"action": "remove", "target": "memory", "old_text": newer}),
            ]
            for name, args in calls:
                payload = json.dumps(args)
                t0 = time.perf_counter()
                resp = run_memory_tool(mem, payload)
                out = json.dumps(resp)
                t1 = time.perf_counter()
                if not resp.get("success"):
                    raise SystemExit(f"benchmark call failed: {out}")
                times[name].append(t1 - t0)
                data = (root / "memories" / "MEMORY.md").read_bytes()
                sizes.append(len(data))
                t0 = time.perf_counter()
                bare_durable_write(floor_dir, floor_path, data)
                times["floor"].append(time.perf_counter() - t0)
            mem.begin_turn()
        stats = {name: summarize_ms(v) for name, v in times.items()}
        floor_p50 = stats["floor"]["p50_ms"]
        all_ops = times["add"] + times["replace"] + times["remove"]
        stats["all_ops"] = summarize_ms(all_ops)
        ratio = {
            k: round(stats[k]["p50_ms"] / floor_p50, 3)
            for k in ("add", "replace", "remove", "all_ops")
        }
        return {
            "ops_per_action": ops,
            "file_bytes_mean": round(statistics.fmean(sizes)),
            "fill_ratio": round(len(serialize(base)) / 2200, 3),
            "latency": stats,
            "p50_ratio_to_floor": ratio,
            "aim_p50_ratio": 1.3,
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def snapshot_cost(reps: int) -> dict[str, object]:
    root = Path(tempfile.mkdtemp(prefix="mnemic-bench-"))
    try:
        mem = Memory.open(root)
        for e in fill(NOTES, 2200, 0.97):
            mem.add("memory", e)
        for e in fill(PROFILE, 1375, 0.97):
            mem.add("user", e)
        home = str(root)
        cold: list[float] = []
        warm: list[float] = []
        text = ""
        for _ in range(reps):
            snapshot_mod._scan_cache.clear()
            t0 = time.perf_counter()
            text = snapshot_mod.render_snapshot(home)
            cold.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            snapshot_mod.render_snapshot(home)
            warm.append(time.perf_counter() - t0)
        return {
            "chars_rendered": len(text),
            "entries": len(mem.entries("memory")) + len(mem.entries("user")),
            "fresh_scan": summarize_ms(cold),
            "cached_scan": summarize_ms(warm),
            "aim_ms": 0.5,
            "home": "two targets ~97% full",
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def cold_start(runs: int) -> dict[str, object]:
    src = Path(__file__).resolve().parent.parent / "src"
    compileall.compile_dir(str(src / "mnemic"), quiet=1)  # an installed package has bytecode
    root = Path(tempfile.mkdtemp(prefix="mnemic-bench-"))
    try:
        mem = Memory.open(root)
        for e in fill(NOTES, 2200, 0.9):
            mem.add("memory", e)
        for e in fill(PROFILE, 1375, 0.9):
            mem.add("user", e)
        env = {**os.environ, "MNEMIC_HOME": str(root)}
        variants = {
            "bare": "pass",
            "import_only": "import mnemic",
            "import_and_snapshot": "import mnemic; mnemic.render_snapshot()",
        }
        samples: dict[str, list[float]] = {k: [] for k in variants}
        for _ in range(runs):
            for name, code in variants.items():
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-c", code], env=env, check=True)
                samples[name].append(time.perf_counter() - t0)
        (root / "config.toml").write_text("[memory]\nmemory_char_limit = 2200\n")
        with_config: list[float] = []
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", variants["import_and_snapshot"]], env=env, check=True
            )
            with_config.append(time.perf_counter() - t0)
        med = {k: statistics.median(v) * 1000 for k, v in samples.items()}
        return {
            "runs": runs,
            "median_ms": {k: round(v, 1) for k, v in med.items()},
            "above_bare_ms": {
                "import_only": round(med["import_only"] - med["bare"], 1),
                "import_and_snapshot": round(med["import_and_snapshot"] - med["bare"], 1),
                "import_and_snapshot_with_config_toml": round(
                    statistics.median(with_config) * 1000 - med["bare"], 1
                ),
            },
            "aim_above_bare_ms": {"import_and_snapshot": 15, "with_config_toml": 20},
            "note": "bytecode compiled first (as in an installed package)",
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ops", type=int, default=300, help="operations per action")
    ap.add_argument("--snapshot-reps", type=int, default=300)
    ap.add_argument("--cold-runs", type=int, default=25)
    args = ap.parse_args()
    print(f"tool-level: {args.ops} x add/replace/remove near a full store ...", flush=True)
    tool = tool_level(args.ops)
    print("audit fsync on (default):", json.dumps(tool["p50_ratio_to_floor"]), flush=True)
    tool_nosync = tool_level(args.ops, audit_fsync=False)
    print("audit fsync off:", json.dumps(tool_nosync["p50_ratio_to_floor"]), flush=True)
    print("snapshot: load + render of two full targets ...", flush=True)
    snap = snapshot_cost(args.snapshot_reps)
    print(f"cold start: {args.cold_runs} runs per variant ...", flush=True)
    cold = cold_start(args.cold_runs)
    emit(
        "curated",
        {
            "tool_level": tool,
            "tool_level_audit_fsync_off": tool_nosync,
            "snapshot": snap,
            "cold_start": cold,
        },
    )


if __name__ == "__main__":
    main()
