"""The Python around a curated write, this checkout against an older one, interleaved.

Usage: ./x bench write_cpu --baseline OLD/src [--rounds N] [--ops N] [--contention-ops N]
       [--procs 8,16] [--parts contention,...]

Each round runs every part once with this checkout's code and once with the code under
``--baseline`` (each in its own process, ``PYTHONPATH`` naming its ``src``), the side
that goes first alternating, so that both sides meet the same minutes of a shared
machine and disk. Figures are medians over the rounds; ratios are medians of the
per-round ratios.

- ``tool_cpu``: the memory tool call near a full default store (add, replace, remove;
  JSON in to JSON out, audit on), fsync and fdatasync stubbed out: its CPU alone.
- ``large_cpu``: an add at 100 and at 1,500 entries (limits raised), fsync stubbed;
  wall time and the calling thread's CPU (``..._cpu_p50_ms``).
- ``context_cpu``: an add whose entry names an address (a URL: the scan at write reads
  it with every stored entry) and a plain add, taking turns, at 30 and 1,500 entries
  (limits raised, fsync stubbed, ``--large-ops`` of each); the calling thread's CPU.
- ``large_disk``: the same adds on the real disk, against a bare durable write of the
  same bytes in the same process (``bench curated --only-large``'s ratio).
- ``contention``: 8 processes (``--procs``: each count given) writing one home (add /
  remove through the tool) against the minimal flock writer, in the same process;
  throughput ratio, p99 and the writers' CPU per write (user + system of the forked
  writers, from fork to exit); figures of other counts than 8 end in ``_at_N``.
  ``--modes mnemic,group`` also runs the writers with ``group_commit = "queue"``
  (figures named ``group_...``).
- ``tool_threads``: ``tool_cpu``'s calls, timed by each thread's CPU clock (main, the
  fsync helper, the flusher) and the process's, per call; no wrappers.
- ``stages``: ``tool_cpu``'s calls with a timer around each stage (CPU and wall time of
  the main thread, mean per call; ``bench/_write_stages.py``); ``stages_disk``, the
  same on the real disk (fsync not stubbed: wall times hold the waits for the disk).
- ``queue_files``: group commit's request files alone, in one process on the temp
  directory's file system (``TMPDIR``): a request of a tool call's size left, claimed,
  answered (an answer of a half-full store's size) and taken back, ``--ops`` times; CPU
  (this thread's) and wall time per queued call.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _stub_fsync() -> None:
    os.fsync = lambda fd: None  # type: ignore[assignment]
    os.fdatasync = lambda fd: None  # type: ignore[assignment]


def _drain() -> None:
    from mnemic.backends.files.flusher import drain

    drain()


def _p50_ms(values: list[float]) -> float:
    return round(statistics.median(values) * 1000.0, 3)


def _tool_cpu(ops: int) -> dict[str, float]:
    _stub_fsync()
    import curated

    root, mem = curated._tool_home(True)
    try:
        took = [t for i in range(ops) for _, t in curated._tool_round(mem, i)]
        return {"p50_ms": _p50_ms(took), "min_ms": round(min(took) * 1000.0, 3)}
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _tool_threads(ops: int) -> dict[str, float]:
    """``tool_cpu``'s calls, timed by each thread's own CPU clock (no wrappers): the
    main thread, the fsync helper and the flusher, and the whole process, per call."""
    import threading

    _stub_fsync()
    import curated

    def clocks() -> dict[str, float]:
        out = {}
        for t in threading.enumerate():
            if t.ident is not None:
                out[t.name] = time.clock_gettime(time.pthread_getcpuclockid(t.ident))
        return out

    root, mem = curated._tool_home(True)
    try:
        for i in range(20):  # warm: the threads started, the history's first versions
            curated._tool_round(mem, 100000 + i)
        before, p0 = clocks(), time.process_time()
        for i in range(ops):
            curated._tool_round(mem, i)
        after, p1 = clocks(), time.process_time()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    calls = 3 * ops
    out = {"process_cpu_ms": round((p1 - p0) * 1000.0 / calls, 4)}
    for name in ("MainThread", "mnemic-fsync", "mnemic-flusher"):
        spent = after.get(name, 0.0) - before.get(name, 0.0)
        out[f"{name}_cpu_ms"] = round(spent * 1000.0 / calls, 4)
    return out


def _queue_files(ops: int) -> dict[str, float]:
    from mnemic.backends.files.requests import FileRequests

    entries = [
        f"Fact {i}: the nightly export of shard {i} finishes by 04:00 UTC." for i in range(16)
    ]
    request = {
        "target": "memory",
        "op": ["add", "A new fact about the build cache of service 7.", None, None],
        "author": ["cli", "cli", "session-7"],
        "fields": {"session": "session-7", "actor": "cli", "origin": "cli", "action": "add"},
        "known": entries,
        "frozen": [],
    }
    answer = {"status": "applied", "before": entries, "after": [*entries, "new"], "results": []}
    root = Path(tempfile.mkdtemp(prefix="mnemic-bench-queue-"))
    try:
        queue = FileRequests(root / ".queue")
        queue.withdraw("memory", queue.submit("memory", request))  # the folders made
        cpu: list[float] = []
        wall: list[float] = []
        for _ in range(ops):
            c0, t0 = time.thread_time(), time.perf_counter()
            rid = queue.submit("memory", request)
            ((got, _),) = queue.claim("memory")
            queue.answer("memory", got, answer)
            assert queue.result("memory", rid) is not None
            cpu.append(time.thread_time() - c0)
            wall.append(time.perf_counter() - t0)
        return {"cpu_p50_ms": _p50_ms(cpu), "wall_p50_ms": _p50_ms(wall)}
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _filled(root: Path, size: int) -> Any:
    """A store at ``root`` with its limits raised and ``size`` facts in MEMORY.md."""
    import curated

    return curated.filled_store(root, size)


def _large(ops: int, sizes: tuple[int, ...], stub: bool) -> dict[str, float]:
    if stub:
        _stub_fsync()
    import curated

    out: dict[str, float] = {}
    for size in sizes:
        root = Path(tempfile.mkdtemp(prefix="mnemic-bench-cpu-"))
        try:
            mem = _filled(root, size)
            bare_dir = root / "bare"
            bare_dir.mkdir()
            path = root / "memories" / "MEMORY.md"
            adds: list[float] = []
            cpus: list[float] = []
            bares: list[float] = []
            for i in range(ops):
                c0, t0 = time.thread_time(), time.perf_counter()
                mem.add("memory", f"Added {i}: a new fact about the build cache of service {i}.")
                adds.append(time.perf_counter() - t0)
                cpus.append(time.thread_time() - c0)
                _drain()
                if stub:  # no durable write to compare with: the add's CPU is the figure
                    continue
                data = path.read_bytes()
                t0 = time.perf_counter()
                curated.bare_durable_write(bare_dir, bare_dir / "MEMORY.md", data)
                bares.append(time.perf_counter() - t0)
            out[f"add_at_{size}_p50_ms"] = _p50_ms(adds)
            out[f"add_at_{size}_min_ms"] = round(min(adds) * 1000.0, 3)
            # the calling thread's CPU alone: what other jobs of a loaded machine add to
            # the wall time (waiting for a core) does not count here
            out[f"add_at_{size}_cpu_p50_ms"] = _p50_ms(cpus)
            if bares:
                out[f"bare_at_{size}_p50_ms"] = _p50_ms(bares)
                ratio = statistics.median(adds) / statistics.median(bares)
                out[f"ratio_at_{size}"] = round(ratio, 3)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    return out


def _context(ops: int, sizes: tuple[int, ...] = (30, 1500)) -> dict[str, float]:
    """CPU of an add whose entry names an address (read with every stored entry by the
    scan at write: the other half of a split instruction may be stored), and of a plain
    add in the same store, at ``sizes`` entries (fsync stubbed)."""
    _stub_fsync()

    out: dict[str, float] = {}
    for size in sizes:
        root = Path(tempfile.mkdtemp(prefix="mnemic-bench-ctx-"))
        try:
            mem = _filled(root, size)
            kinds = {
                "address": "Deploys of service {i} go through https://ci{i}.example.com/deploy.",
                "plain": "Added {i}: a new fact about the build cache of service {i}.",
            }
            cpus: dict[str, list[float]] = {k: [] for k in kinds}
            for i in range(ops):
                for kind, form in kinds.items():
                    c0 = time.thread_time()
                    mem.add("memory", form.format(i=i))
                    cpus[kind].append(time.thread_time() - c0)
                    _drain()
            for kind, got in cpus.items():
                out[f"{kind}_add_at_{size}_cpu_p50_ms"] = _p50_ms(got)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    return out


def _disk_speed(writes: int = 30) -> float:
    """The disk's speed in this minute: p50 of a bare durable write of 2 KB."""
    import curated

    directory = Path(tempfile.mkdtemp(prefix="mnemic-bench-"))
    try:
        took = []
        for _ in range(writes):
            t0 = time.perf_counter()
            curated.bare_durable_write(directory, directory / "MEMORY.md", b"x" * 2048)
            took.append(time.perf_counter() - t0)
        return _p50_ms(took)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _contention(procs_list: list[int], ops: int, modes: list[str]) -> dict[str, float]:
    import curated

    out: dict[str, float] = {"bare_write_p50_ms": _disk_speed()}
    for procs in procs_list:
        at = "" if procs == 8 else f"_at_{procs}"  # 8 writers keep the names of earlier runs
        for name in ("reference", *modes):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            got = curated._contended_home(procs, ops, name)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            out[f"{name}_ops_per_s{at}"] = got["ops_per_s"]
            out[f"{name}_p99_ms{at}"] = got["p99_ms"]
            out[f"{name}_cpu_ms_per_write{at}"] = round(cpu * 1000.0 / (procs * ops), 3)
        for name in modes:
            ratio = out[f"{name}_ops_per_s{at}"] / out[f"reference_ops_per_s{at}"]
            key = "throughput_ratio" if name == "mnemic" else f"{name}_throughput_ratio"
            out[f"{key}{at}"] = round(ratio, 3)
    return out


def _side(part: str, args: argparse.Namespace) -> dict[str, float]:
    if part == "stages":
        from _write_stages import stages

        return stages(args.ops)
    if part == "stages_disk":
        from _write_stages import stages

        return stages(args.ops, disk=True)
    if part == "tool_cpu":
        return _tool_cpu(args.ops)
    if part == "tool_threads":
        return _tool_threads(args.ops)
    if part == "queue_files":
        return _queue_files(args.ops)
    if part == "context_cpu":
        return _context(args.large_ops)
    if part == "large_cpu":
        return _large(args.large_ops, (100, 1500), stub=True)
    if part == "large_disk":
        return _large(args.large_ops, (100, 1500), stub=False)
    procs = [int(n) for n in args.procs.split(",")]
    return _contention(procs, args.contention_ops, args.modes.split(","))


def _run(
    src: str, part: str, args: argparse.Namespace, extra: dict[str, str] | None = None
) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": src, **(extra or {})}
    cmd = [sys.executable, __file__, "--side", part, "--ops", str(args.ops)]
    cmd += ["--large-ops", str(args.large_ops), "--contention-ops", str(args.contention_ops)]
    cmd += ["--procs", args.procs, "--modes", args.modes]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{part} ({src}) failed:\n{done.stderr[-3000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--baseline", help="an older checkout's src dir")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ops", type=int, default=100, help="tool rounds (3 calls each)")
    ap.add_argument("--large-ops", type=int, default=100, help="adds per store size")
    ap.add_argument("--contention-ops", type=int, default=100, help="writes per process")
    ap.add_argument("--procs", default="8", help="contention: writer counts, e.g. 8,16")
    ap.add_argument("--modes", default="mnemic", help="contention: mnemic and/or group")
    ap.add_argument("--parts", default="tool_cpu,large_cpu,large_disk,contention")
    ap.add_argument("--side", help=argparse.SUPPRESS)
    ap.add_argument(
        "--after-env",
        action="append",
        default=[],
        help="KEY=VALUE for the 'after' side (e.g. MNEMIC_MEMORY_DURABILITY=journal "
        "with --baseline src: this code in journal durability against itself in files)",
    )
    args = ap.parse_args()
    if args.side:
        print(json.dumps(_side(args.side, args)), flush=True)
        return
    if not args.baseline:
        raise SystemExit("--baseline OLD/src is required")
    ours = str(HERE.parent / "src")
    sides = {"after": ours, "before": args.baseline}
    result: dict[str, Any] = {
        "baseline": args.baseline,
        "rounds": args.rounds,
        "after_env": args.after_env,
    }
    for part in args.parts.split(","):
        runs: dict[str, list[dict[str, float]]] = {"after": [], "before": []}
        for r in range(args.rounds):
            order = ("after", "before") if r % 2 == 0 else ("before", "after")
            for name in order:
                extra = dict(kv.split("=", 1) for kv in args.after_env) if name == "after" else {}
                runs[name].append(_run(sides[name], part, args, extra))
            print(part, r, {n: runs[n][-1] for n in order}, flush=True)
        one: dict[str, Any] = {}
        for name, got in runs.items():
            one[name] = {k: round(statistics.median(g[k] for g in got), 3) for k in got[0]}
        one["after_over_before"] = {
            k: round(
                statistics.median(
                    a[k] / b[k] for a, b in zip(runs["after"], runs["before"], strict=True)
                ),
                3,
            )
            for k in runs["after"][0]
            if all(b[k] for b in runs["before"])
        }
        result[part] = one
        print(part, json.dumps(one), flush=True)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
