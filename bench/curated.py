"""Curated-store benchmark: tool-call latency against a bare durable write, snapshot cost.

Usage: ./x bench curated [--ops N] [--cold-runs N] [--baseline OLD/src] [--only-tool]

``--only-tool`` measures part 1 alone and keeps the other parts of the last result file
(naming when they were measured).

1. Tool level, near a full store (MEMORY ~90 % full, config.toml present): add, replace
   and remove of unique entries, each measured from JSON arguments in to JSON response
   out. Interleaved with the same number of bare durable writes of the same content (temp
   file, write, fsync, rename, directory fsync): the floor. Aim: p50 <= 1.3x the floor.
   A second floor adds what an audited write cannot skip (one ~870-byte record appended
   to a journal and fsynced): ``p50_ratio_to_floor_with_record`` says how far the
   tool call is from the cost of its two durable records alone.
   ``--baseline SRC`` runs the same calls with an older checkout's code (its ``src``) in a
   worker process, interleaved round by round with ours and the floor, so both ratios
   come from the same minutes of the same disk (``--worker-env KEY=VALUE`` sets the
   worker's environment: ``--baseline src --worker-env MNEMIC_MEMORY_DURABILITY=journal``
   runs this code in journal durability against itself in files). After each call the
   work it leaves to the background (audit flush, pruning) is finished untimed before
   anything else is timed, as the model's turn would let it.
2. Load + render of two full targets (fresh scan, as at session start). Aim <= 0.5 ms.
3. Cold start: `python -c "import mnemic; mnemic.render_snapshot()"` against a bare
   interpreter, interleaved, same run. No aim since the CLI loads commands on first use:
   the hook agents run is timed by `bench/startup.py`.
4. Contention: 8 and 16 processes writing one home at once (each alternates add and
   remove of its own entry through the memory tool), against a minimal reference writer
   run the same way in the same run (blocking flock, read, temp write, fsync, rename,
   directory fsync). Aim: throughput >= 0.8x and p99 <= 1.5x the reference's.
"""

from __future__ import annotations

import argparse
import compileall
import fcntl
import json
import multiprocessing
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
from _common import emit, summarize_ms
from mnemic.curated import snapshot as snapshot_mod
from mnemic.curated.entries import serialize
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.curated.tool import run_memory_tool

_RECORD = (json.dumps({"record": "x" * 840}) + "\n").encode()
"""About the size of one audit journal record of a tool call near a full store (~870 bytes)."""

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


def bare_recorded_write(directory: Path, path: Path, data: bytes, record: bytes) -> None:
    """The bare durable write plus what an audited write cannot skip: one record appended
    to a journal and made durable on its own (the second floor of part 1)."""
    bare_durable_write(directory, path, data)
    fd = os.open(directory / "journal.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, record)
        os.fsync(fd)
    finally:
        os.close(fd)


def _tool_home(audit_fsync: bool) -> tuple[Path, Memory]:
    root = Path(tempfile.mkdtemp(prefix="mnemic-bench-"))
    (root / "config.toml").write_text(
        "[memory]\nmemory_char_limit = 2200\nuser_char_limit = 1375\nhistory_limit = 50\n"
        f"[audit]\nfsync = {str(audit_fsync).lower()}\n"
    )
    mem = Memory.open(root)
    for e in fill(NOTES, 2200, 0.88):
        mem.add("memory", e)
    return root, mem


def _tool_round(mem: Memory, i: int) -> list[tuple[str, float]]:
    """One add, replace and remove of a unique entry, each timed from JSON arguments in
    to JSON response out."""
    new = f"Fact {i}: the staging DB snapshot runs nightly at 02:00 UTC."
    newer = f"Fact {i}: the staging DB snapshot runs nightly at 03:00 UTC."
    calls = [
        ("add", {"action": "add", "target": "memory", "content": new}),
        ("replace", {"action": "replace", "target": "memory", "old_text": new, "content": newer}),
        ("remove", {"action": "remove", "target": "memory", "old_text": newer}),
    ]
    out = []
    for name, args in calls:
        payload = json.dumps(args)
        t0 = time.perf_counter()
        resp = run_memory_tool(mem, payload)
        text = json.dumps(resp)
        out.append((name, time.perf_counter() - t0))
        if not resp.get("success"):
            raise SystemExit(f"benchmark call failed: {text}")
        _settle()
    mem.begin_turn()
    return out


def _settle() -> None:
    """Let the work that follows a call (the audit flush, history pruning: run by a
    background thread since the one-durable-step change) finish, untimed, before the
    floor or the next call is timed: a real tool call is followed by the model's turn,
    and a flush still running would slow the floor's fsyncs instead of the call."""
    try:
        from mnemic.backends.files.flusher import drain
    except ImportError:  # a baseline from before: nothing runs after its calls
        return
    drain()


def _tool_worker(audit_fsync: bool) -> None:
    """``--tool-worker``: rounds on request (one line in, one JSON line out), for a
    baseline checkout's code run interleaved with ours."""
    root, mem = _tool_home(audit_fsync)
    try:
        print("ready", flush=True)
        for line in sys.stdin:
            print(json.dumps(_tool_round(mem, int(line))), flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _ratios(times: dict[str, list[float]], floor_p50: float) -> dict[str, object]:
    stats = {name: summarize_ms(v) for name, v in times.items()}
    stats["all_ops"] = summarize_ms(times["add"] + times["replace"] + times["remove"])
    ratio = {
        k: round(stats[k]["p50_ms"] / floor_p50, 3) for k in ("add", "replace", "remove", "all_ops")
    }
    return {"latency": stats, "p50_ratio_to_floor": ratio}


def tool_level(
    ops: int,
    audit_fsync: bool = True,
    baseline: str | None = None,
    worker_env: dict[str, str] | None = None,
) -> dict[str, object]:
    root, mem = _tool_home(audit_fsync)
    worker = None
    if baseline:
        env = {**os.environ, "PYTHONPATH": baseline, **(worker_env or {})}
        worker = subprocess.Popen(
            [sys.executable, __file__, "--tool-worker", "--audit-fsync", str(audit_fsync)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert worker.stdin is not None and worker.stdout is not None
        if worker.stdout.readline().strip() != "ready":
            raise SystemExit("the baseline worker did not start")
    try:
        floor_dir = root / "floor"
        floor_dir.mkdir()
        floor_path = floor_dir / "MEMORY.md"
        times: dict[str, list[float]] = {
            "add": [],
            "replace": [],
            "remove": [],
            "floor": [],
            "floor_with_record": [],
        }
        old: dict[str, list[float]] = {"add": [], "replace": [], "remove": []}
        sizes: list[int] = []
        for i in range(ops):
            for name, took in _tool_round(mem, i):
                times[name].append(took)
                data = (root / "memories" / "MEMORY.md").read_bytes()
                sizes.append(len(data))
                t0 = time.perf_counter()
                bare_durable_write(floor_dir, floor_path, data)
                times["floor"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                bare_recorded_write(floor_dir, floor_path, data, _RECORD)
                times["floor_with_record"].append(time.perf_counter() - t0)
            if worker is not None:
                assert worker.stdin is not None and worker.stdout is not None
                worker.stdin.write(f"{i}\n")
                worker.stdin.flush()
                for name, took in json.loads(worker.stdout.readline()):
                    old[name].append(took)
        floor_p50 = summarize_ms(times["floor"])["p50_ms"]
        floors = ("floor", "floor_with_record")
        ours = _ratios({k: v for k, v in times.items() if k not in floors}, floor_p50)
        for name in floors:
            ours["latency"][name] = summarize_ms(times[name])  # type: ignore[index]
        recorded_p50 = summarize_ms(times["floor_with_record"])["p50_ms"]
        ours["p50_ratio_to_floor_with_record"] = {
            k: round(v["p50_ms"] / recorded_p50, 3)  # type: ignore[index]
            for k, v in ours["latency"].items()  # type: ignore[attr-defined]
            if k in ("add", "replace", "remove", "all_ops")
        }
        out: dict[str, object] = {
            "ops_per_action": ops,
            "file_bytes_mean": round(statistics.fmean(sizes)),
            "fill_ratio": round(len(serialize(fill(NOTES, 2200, 0.88))) / 2200, 3),
            **ours,
            "aim_p50_ratio": 1.3,
        }
        if worker is not None:
            out["baseline"] = {"src": baseline, "env": worker_env or {}, **_ratios(old, floor_p50)}
        return out
    finally:
        if worker is not None:
            assert worker.stdin is not None
            worker.stdin.close()
            worker.wait(timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def _mnemic_writer(root: str, ops: int, barrier: Any, out: Any) -> None:
    mem = Memory.open(root)
    me = os.getpid()
    lat: list[float] = []
    barrier.wait()
    for i in range(ops):
        text = f"Writer {me} note {i}: the nightly export finishes by 04:00 UTC."
        if i % 2 == 0:
            args = {"action": "add", "target": "memory", "content": text}
        else:
            prev = f"Writer {me} note {i - 1}: the nightly export finishes by 04:00 UTC."
            args = {"action": "remove", "target": "memory", "old_text": prev}
        t0 = time.perf_counter()
        resp = run_memory_tool(mem, json.dumps(args))
        lat.append(time.perf_counter() - t0)
        if not resp.get("success"):
            out.put(("error", json.dumps(resp)))
            return
        mem.begin_turn()
    out.put(("ok", lat))


def _reference_writer(root: str, ops: int, barrier: Any, out: Any) -> None:
    directory = Path(root)
    path = directory / "MEMORY.md"
    me = os.getpid()
    lat: list[float] = []
    barrier.wait()
    for i in range(ops):
        t0 = time.perf_counter()
        fd = os.open(directory / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            entries = path.read_text().split("\n\u00a7\n") if path.exists() else []
            if i % 2 == 0:
                entries.append(f"Writer {me} note {i}: the nightly export finishes by 04:00 UTC.")
            else:
                gone = f"Writer {me} note {i - 1}: the nightly export finishes by 04:00 UTC."
                entries = [e for e in entries if e != gone]
            bare_durable_write(directory, path, "\n\u00a7\n".join(entries).encode())
        finally:
            os.close(fd)  # releases the flock
        lat.append(time.perf_counter() - t0)
    out.put(("ok", lat))


def _contended_run(writer: Any, root: str, procs: int, ops: int) -> dict[str, float]:
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(procs + 1)
    out = ctx.Queue()
    workers = [ctx.Process(target=writer, args=(root, ops, barrier, out)) for _ in range(procs)]
    for w in workers:
        w.start()
    barrier.wait()
    t0 = time.perf_counter()
    lat: list[float] = []
    for _ in workers:
        status, data = out.get(timeout=600)
        if status != "ok":
            raise SystemExit(f"contention writer failed: {data}")
        lat.extend(data)
    wall = time.perf_counter() - t0
    for w in workers:
        w.join()
    lat.sort()
    return {
        "ops_per_s": round(len(lat) / wall, 1),
        "p50_ms": round(lat[len(lat) // 2] * 1000, 2),
        "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2),
        "max_ms": round(lat[-1] * 1000, 2),
    }


def contention(
    ops: int, procs_list: tuple[int, ...] = (8, 16), rounds: int = 1
) -> dict[str, object]:
    """The reference writer, mnemic and mnemic with ``group_commit = "queue"``,
    interleaved: each round runs the three one after another on fresh homes, each going
    first in turn; figures are the medians of the rounds, ratios the medians of the
    per-round ratios. ``batched`` is the share of the queue's writes that another
    process applied (a record naming a request)."""
    out: dict[str, object] = {"ops_per_process": ops, "rounds": rounds}
    for procs in procs_list:
        runs: dict[str, list[dict[str, float]]] = {"reference": [], "mnemic": [], "group": []}
        names = ("reference", "mnemic", "group")
        for r in range(rounds):
            for name in names[r % 3 :] + names[: r % 3]:
                runs[name].append(_contended_home(procs, ops, name))
        one: dict[str, object] = {k: _median_run(v) for k, v in runs.items()}
        for name in ("mnemic", "group"):
            for figure, key in (("ops_per_s", "throughput_ratio"), ("p99_ms", "p99_ratio")):
                ratios = [
                    ours[figure] / ref[figure]
                    for ours, ref in zip(runs[name], runs["reference"], strict=True)
                ]
                one[f"{name}_{key}"] = round(statistics.median(ratios), 3)
        gains = [
            g["ops_per_s"] / m["ops_per_s"]
            for g, m in zip(runs["group"], runs["mnemic"], strict=True)
        ]
        one["group_over_mnemic_throughput"] = round(statistics.median(gains), 3)
        one["per_round_ops_per_s"] = {k: [r["ops_per_s"] for r in v] for k, v in runs.items()}
        out[f"{procs}_processes"] = one
    out["aim"] = {"throughput_ratio_min": 0.8, "p99_ratio_max": 1.5}
    return out


def _contended_home(procs: int, ops: int, name: str) -> dict[str, float]:
    root = Path(tempfile.mkdtemp(prefix="mnemic-bench-"))
    try:
        group = "queue" if name == "group" else "off"
        (root / "config.toml").write_text(
            f'[memory]\nmemory_char_limit = 2200\ngroup_commit = "{group}"\n'
        )
        mem = Memory.open(root)
        for e in fill(NOTES, 2200, 0.5):
            mem.add("memory", e)
        if name != "reference":
            got = _contended_run(_mnemic_writer, str(root), procs, ops)
            if name == "group":
                lines = (root / "audit" / "journal.jsonl").read_text().splitlines()
                writes = [json.loads(line) for line in lines[-procs * ops :]]
                got["batched"] = round(sum("request" in w for w in writes) / len(writes), 3)
            return got
        ref_dir = root / "reference"
        ref_dir.mkdir()
        (ref_dir / "MEMORY.md").write_bytes((root / "memories" / "MEMORY.md").read_bytes())
        return _contended_run(_reference_writer, str(ref_dir), procs, ops)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _median_run(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(statistics.median(r[k] for r in runs), 2) for k in runs[0]}


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
            "note": "bytecode compiled first (as in an installed package); no aim: what agents "
            "run at start is the hook, timed by bench/startup.py",
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def filled_store(root: Path, size: int) -> Memory:
    """A store at ``root`` with its limits raised and ``size`` facts in MEMORY.md (the
    large-store figures here and in ``write_cpu.py``)."""
    (root / "config.toml").write_text(
        "[memory]\nmemory_char_limit = 10000000\nuser_char_limit = 10000000\n"
    )
    mem = Memory.open(root, origin="cli")
    facts = [
        f"Fact {i}: the nightly export of shard {i} finishes by 04:00 UTC." for i in range(size)
    ]
    for start in range(0, size, 500):
        mem.batch("memory", [Op("add", f) for f in facts[start : start + 500]])
    return mem


def large_store(ops: int, sizes: tuple[int, ...] = (100, 1500)) -> dict[str, object]:
    """An add with the limits raised, at ``sizes`` entries, against a bare durable write
    of the same bytes (temp file, fsync, rename, directory fsync), interleaved: a write
    must not cost more because the store holds more (audit on, the default)."""
    out: dict[str, object] = {}
    for size in sizes:
        root = Path(tempfile.mkdtemp(prefix="mnemic-bench-large-"))
        mem = filled_store(root, size)
        bare_dir = root / "bare"
        bare_dir.mkdir()
        adds: list[float] = []
        bares: list[float] = []
        path = root / "memories" / "MEMORY.md"
        for i in range(ops):
            t0 = time.perf_counter()
            mem.add("memory", f"Added {i}: a new fact about the build cache of service {i}.")
            adds.append((time.perf_counter() - t0) * 1000.0)
            data = path.read_bytes()
            t0 = time.perf_counter()
            bare_durable_write(bare_dir, bare_dir / "MEMORY.md", data)
            bares.append((time.perf_counter() - t0) * 1000.0)
        add_p50, bare_p50 = statistics.median(adds), statistics.median(bares)
        out[f"at_{size}"] = {
            "add_p50_ms": round(add_p50, 3),
            "bare_durable_write_p50_ms": round(bare_p50, 3),
            "ratio": round(add_p50 / bare_p50, 2),
        }
    first, last = (out[f"at_{n}"] for n in (sizes[0], sizes[-1]))
    assert isinstance(first, dict) and isinstance(last, dict)
    out[f"add_at_{sizes[-1]}_vs_at_{sizes[0]}"] = round(last["add_p50_ms"] / first["add_p50_ms"], 2)
    return out


def _emit_part(name: str, value: object, **more: object) -> None:
    """Save a partial run: these parts replace theirs in the last saved result, and the
    others are kept from the run that measured them, named as such."""
    from _common import RESULTS

    path = RESULTS / "curated.json"
    last = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    kept = {k: v for k, v in last.items() if k not in ("bench", "when", "machine")}
    fresh = {name: value, **more}
    kept.update(fresh)
    earlier = last.get("parts_from_an_earlier_run", {}).get("when", last.get("when"))
    others = sorted(k for k in kept if k not in fresh and k != "parts_from_an_earlier_run")
    kept["parts_from_an_earlier_run"] = {"when": earlier, "parts": others}
    emit("curated", kept)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ops", type=int, default=300, help="operations per action")
    ap.add_argument("--snapshot-reps", type=int, default=300)
    ap.add_argument("--cold-runs", type=int, default=25)
    ap.add_argument("--contention-ops", type=int, default=100, help="writes per process")
    ap.add_argument("--baseline", help="an older checkout's src dir, run interleaved")
    ap.add_argument("--only-tool", action="store_true", help="only the tool-level part")
    ap.add_argument(
        "--worker-env",
        action="append",
        default=[],
        help="KEY=VALUE for the --baseline worker (e.g. MNEMIC_MEMORY_DURABILITY=journal "
        "with --baseline src: this code in journal durability against itself in files)",
    )
    ap.add_argument("--only-large", action="store_true", help="only the large-store part")
    ap.add_argument("--only-contention", action="store_true", help="only the contention part")
    ap.add_argument("--contention-rounds", type=int, default=1, help="interleaved rounds")
    ap.add_argument("--large-ops", type=int, default=100, help="adds per store size")
    ap.add_argument("--tool-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--audit-fsync", default="True", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.tool_worker:
        _tool_worker(args.audit_fsync == "True")
        return
    if args.only_contention:
        contended = contention(args.contention_ops, rounds=args.contention_rounds)
        print(json.dumps(contended, indent=1), flush=True)
        _emit_part("contention", contended)
        return
    print(f"large store: {args.large_ops} adds at 100 and 1,500 entries ...", flush=True)
    large = large_store(args.large_ops)
    print("large store:", json.dumps(large), flush=True)
    if args.only_large:
        _emit_part("large_store", large)
        return
    print(f"tool-level: {args.ops} x add/replace/remove near a full store ...", flush=True)
    worker_env = dict(kv.split("=", 1) for kv in args.worker_env)
    tool = tool_level(args.ops, baseline=args.baseline, worker_env=worker_env)
    print("audit fsync on (default):", json.dumps(tool["p50_ratio_to_floor"]), flush=True)
    if "baseline" in tool:
        print("  baseline:", json.dumps(tool["baseline"]["p50_ratio_to_floor"]), flush=True)  # type: ignore[index]
    tool_nosync = tool_level(
        args.ops, audit_fsync=False, baseline=args.baseline, worker_env=worker_env
    )
    print("audit fsync off:", json.dumps(tool_nosync["p50_ratio_to_floor"]), flush=True)
    if "baseline" in tool_nosync:
        print("  baseline:", json.dumps(tool_nosync["baseline"]["p50_ratio_to_floor"]), flush=True)  # type: ignore[index]
    if args.only_tool:
        _emit_part("tool_level", tool, tool_level_audit_fsync_off=tool_nosync)
        return
    print("snapshot: load + render of two full targets ...", flush=True)
    snap = snapshot_cost(args.snapshot_reps)
    print(f"cold start: {args.cold_runs} runs per variant ...", flush=True)
    cold = cold_start(args.cold_runs)
    print(f"contention: 8 and 16 writers x {args.contention_ops} ops ...", flush=True)
    contended = contention(args.contention_ops, rounds=args.contention_rounds)
    for k, v in contended.items():
        if isinstance(v, dict) and "mnemic" in v:
            print(
                f"  {k}: mnemic {v['mnemic']}, group commit {v['group']}, "
                f"reference {v['reference']}",
                flush=True,
            )
    emit(
        "curated",
        {
            "tool_level": tool,
            "tool_level_audit_fsync_off": tool_nosync,
            "snapshot": snap,
            "cold_start": cold,
            "contention": contended,
            "large_store": large,
        },
    )


if __name__ == "__main__":
    main()
