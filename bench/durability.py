"""The two durability settings side by side, in one process, call by call (perf11).

Usage: ./x bench durability [--ops N] [--large-ops N]

Two homes near a full default store (``bench curated``'s tool level: MEMORY ~88 % full,
audit on), one with ``[memory] durability = "files"``, one with ``"journal"``. Each round
times one add, replace and remove in each home, the order of the two homes alternating
round by round, and after each call a bare durable write of the same bytes (temp file,
fsync, rename, directory fsync): the floor, from the same seconds of the same disk. The
work a call leaves to the background (the flusher) is finished untimed after it, as in
``bench curated``. Then the same for adds to a store of 1,500 entries (limits raised),
``--large-ops`` per mode, alternating. Prints p50s, each mode's ratio to the floor and
journal / files; the result lands in ``bench/results/durability.json``.

One process, both modes taking turns: ``bench curated --baseline src --worker-env ...``
runs the second mode in a worker process, and which mode sat in which process moved the
files mode's ratio by up to 4x on the shared disk (docs/performance.md, "perf11").
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import curated as bc
from _common import emit
from mnemic.backends.files.flusher import drain
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.curated.tool import run_memory_tool

MODES = ("files", "journal")


def _home(mode: str, large: bool) -> tuple[Path, Memory]:
    root = Path(tempfile.mkdtemp(prefix=f"mnemic-bench-{mode}-"))
    limits = (
        "memory_char_limit = 10000000\nuser_char_limit = 10000000\n"
        if large
        else "memory_char_limit = 2200\nuser_char_limit = 1375\n"
    )
    (root / "config.toml").write_text(
        f'[memory]\n{limits}history_limit = 50\ndurability = "{mode}"\n'
    )
    mem = Memory.open(root, origin="cli")
    if large:
        facts = [
            f"Fact {i}: the nightly export of shard {i} finishes by 04:00 UTC." for i in range(1500)
        ]
        for start in range(0, len(facts), 500):
            mem.batch("memory", [Op("add", f) for f in facts[start : start + 500]])
    else:
        for e in bc.fill(bc.NOTES, 2200, 0.88):
            mem.add("memory", e)
    drain()
    return root, mem


def _floor(root: Path) -> float:
    data = (root / "memories" / "MEMORY.md").read_bytes()
    floor_dir = root / "floor"
    floor_dir.mkdir(exist_ok=True)
    t0 = time.perf_counter()
    bc.bare_durable_write(floor_dir, floor_dir / "MEMORY.md", data)
    return time.perf_counter() - t0


def _p50(values: list[float]) -> float:
    return round(statistics.median(values) * 1000.0, 3)


def tool(ops: int) -> dict[str, object]:
    homes = {m: _home(m, large=False) for m in MODES}
    times: dict[str, dict[str, list[float]]] = {m: {} for m in MODES}
    floors: list[float] = []
    try:
        for i in range(ops):
            order = MODES if i % 2 == 0 else MODES[::-1]
            for mode in order:
                root, mem = homes[mode]
                new = f"Fact {i}: the staging DB snapshot runs nightly at 02:00 UTC."
                newer = f"Fact {i}: the staging DB snapshot runs nightly at 03:00 UTC."
                calls = [
                    ("add", {"action": "add", "target": "memory", "content": new}),
                    (
                        "replace",
                        {
                            "action": "replace",
                            "target": "memory",
                            "old_text": new,
                            "content": newer,
                        },
                    ),
                    ("remove", {"action": "remove", "target": "memory", "old_text": newer}),
                ]
                for name, args in calls:
                    t0 = time.perf_counter()
                    resp = run_memory_tool(mem, json.dumps(args))
                    took = time.perf_counter() - t0
                    if not resp.get("success"):
                        raise SystemExit(f"call failed: {resp}")
                    times[mode].setdefault(name, []).append(took)
                    times[mode].setdefault("all", []).append(took)
                    drain()
                    floors.append(_floor(root))
                mem.begin_turn()
    finally:
        for root, _ in homes.values():
            shutil.rmtree(root, ignore_errors=True)
    floor = _p50(floors)
    out: dict[str, object] = {"ops_per_action": ops, "floor_p50_ms": floor}
    for mode in MODES:
        out[mode] = {k: _p50(v) for k, v in times[mode].items()}
        out[f"{mode}_ratio_to_floor"] = round(_p50(times[mode]["all"]) / floor, 3)
    out["journal_over_files"] = round(
        _p50(times["journal"]["all"]) / _p50(times["files"]["all"]), 3
    )
    return out


def large(ops: int) -> dict[str, object]:
    homes = {m: _home(m, large=True) for m in MODES}
    adds: dict[str, list[float]] = {m: [] for m in MODES}
    floors: list[float] = []
    try:
        for i in range(ops):
            for mode in MODES if i % 2 == 0 else MODES[::-1]:
                root, mem = homes[mode]
                t0 = time.perf_counter()
                mem.add("memory", f"Added {i}: a new fact about the build cache of service {i}.")
                adds[mode].append(time.perf_counter() - t0)
                drain()
                floors.append(_floor(root))
    finally:
        for root, _ in homes.values():
            shutil.rmtree(root, ignore_errors=True)
    floor = _p50(floors)
    out: dict[str, object] = {"adds_per_mode": ops, "entries": 1500, "floor_p50_ms": floor}
    for mode in MODES:
        out[f"{mode}_add_p50_ms"] = _p50(adds[mode])
        out[f"{mode}_ratio_to_floor"] = round(_p50(adds[mode]) / floor, 3)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ops", type=int, default=100, help="rounds of add/replace/remove")
    ap.add_argument("--large-ops", type=int, default=50, help="adds per mode at 1,500 entries")
    args = ap.parse_args()
    t = tool(args.ops)
    print("tool:", json.dumps(t), flush=True)
    big = large(args.large_ops)
    print("large:", json.dumps(big), flush=True)
    emit("durability", {"tool": t, "large": big})


if __name__ == "__main__":
    main()
