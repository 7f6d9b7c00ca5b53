"""One side of ``bench/hermes_pair.py``, run in that side's own interpreter.

The same harness drives both stores, so the two figures differ only by the store:

    python _pair_side.py SIDE prepare HOME SPEC      fill a fresh home (untimed)
    python _pair_side.py SIDE contend HOME SPEC      PROCS forked writers, one JSON line out
    python _pair_side.py SIDE tool HOME SPEC         serve timed rounds: "I" in, JSON line out

``SIDE`` is ``mnemic`` (the project's venv) or ``hermes`` (a venv holding
``hermes-agent``: its real ``tools.memory_tool.MemoryStore`` and ``memory_tool``
dispatcher are driven, nothing of Hermes is copied here). ``SPEC`` is a JSON object:
``limits`` ``[memory, user]``, ``fill`` (entries added before anything is timed),
``workload`` (``grow``: each writer adds ``ops`` unique entries; ``churn``: each writer
adds then removes ``ops`` unique entries), ``procs``, ``ops``, and ``profile`` (a
directory: each writer dumps a cProfile there). Only the standard library is imported
here; each side's package is imported by its adapter.

Every call is timed the same way on both sides: from the JSON arguments in to the JSON
response out, in the writer's own process.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

NOTE = "the nightly export of shard {i} finishes by 04:00 UTC."


class Side:
    """A store opened in one process: ``call`` runs one tool call from its JSON text."""

    def call(self, payload: str) -> tuple[float, dict[str, Any]]:
        """Run one tool call; return its duration (seconds) and the parsed response."""
        raise NotImplementedError

    def turn(self) -> None:
        """Between two calls (untimed): a new user turn (re-arms a circuit breaker)."""

    def settle(self) -> None:
        """Untimed: let the work a call left to the background finish, as the model's
        turn that follows a real call would (the single-call workload only)."""

    def finish(self) -> None:
        """Before a writer reports: whatever the process still owes the disk."""


class MnemicSide(Side):
    def __init__(self, home: str, spec: dict[str, Any]) -> None:
        from mnemic.curated.memory import Memory
        from mnemic.curated.tool import run_memory_tool

        mem_limit, user_limit = spec["limits"]
        config = Path(home) / "config.toml"
        if not config.exists():
            Path(home).mkdir(parents=True, exist_ok=True)
            config.write_text(
                f"[memory]\nmemory_char_limit = {mem_limit}\nuser_char_limit = {user_limit}\n"
            )
        self._mem = Memory.open(home)
        self._run = run_memory_tool

    def call(self, payload: str) -> tuple[float, dict[str, Any]]:
        t0 = time.perf_counter()
        resp = self._run(self._mem, payload)
        json.dumps(resp)
        took = time.perf_counter() - t0
        return took, resp

    def turn(self) -> None:
        self._mem.begin_turn()

    def settle(self) -> None:
        from mnemic.backends.files.flusher import drain

        drain()  # the audit flush and history pruning a call leaves to its thread

    def finish(self) -> None:
        from mnemic.backends.files.flusher import drain

        drain()  # a forked child ends with os._exit: flush its journal records first


class HermesSide(Side):
    def __init__(self, home: str, spec: dict[str, Any]) -> None:
        os.environ["HERMES_HOME"] = home  # read by Hermes on every call
        from tools.memory_tool import MemoryStore, memory_tool

        mem_limit, user_limit = spec["limits"]
        self._store = MemoryStore(memory_char_limit=mem_limit, user_char_limit=user_limit)
        self._store.load_from_disk()  # as the agent does when it is built
        self._tool = memory_tool

    def call(self, payload: str) -> tuple[float, dict[str, Any]]:
        t0 = time.perf_counter()
        out = self._tool(**json.loads(payload), store=self._store)
        took = time.perf_counter() - t0
        return took, json.loads(out)

    def turn(self) -> None:
        self._store.reset_consolidation_failures()  # its per-turn circuit breaker


SIDES: dict[str, type[Side]] = {"mnemic": MnemicSide, "hermes": HermesSide}


def calls(workload: str, writer: int, ops: int) -> list[str]:
    """The JSON arguments of one writer's calls, the same text on both sides."""
    out: list[str] = []
    for i in range(ops):
        text = f"Writer {writer} note {i}: " + NOTE.format(i=i)
        out.append(json.dumps({"action": "add", "target": "memory", "content": text}))
        if workload == "churn":
            out.append(json.dumps({"action": "remove", "target": "memory", "old_text": text}))
    if workload not in ("grow", "churn"):
        raise SystemExit(f"unknown workload {workload!r} (grow, churn)")
    return out


def prepare(side: str, home: str, spec: dict[str, Any]) -> None:
    store = SIDES[side](home, spec)
    for entry in spec["fill"]:
        _, resp = store.call(json.dumps({"action": "add", "target": "memory", "content": entry}))
        if not resp.get("success"):
            raise SystemExit(f"{side}: filling the store failed: {json.dumps(resp)}")
        store.settle()
        store.turn()
    store.finish()


def _writer(side: str, home: str, spec: dict[str, Any], n: int, barrier: Any, out: Any) -> None:
    store = SIDES[side](home, spec)
    todo = calls(spec["workload"], n, spec["ops"])
    prof = None
    if spec.get("profile"):
        import cProfile

        prof = cProfile.Profile()
    warm = f"Writer {n} warm-up: " + NOTE.format(i=n)
    for payload in (
        json.dumps({"action": "add", "target": "memory", "content": warm}),
        json.dumps({"action": "remove", "target": "memory", "old_text": warm}),
    ):  # untimed, before the release: lazy imports and first-call caches on both sides
        _, resp = store.call(payload)
        if not resp.get("success"):
            out.put(("error", json.dumps(resp)))
            barrier.abort()
            return
        store.turn()
    lat: list[float] = []
    barrier.wait()
    if prof is not None:
        prof.enable()
    cpu0 = os.times()
    for payload in todo:
        took, resp = store.call(payload)
        lat.append(took)
        if not resp.get("success"):
            out.put(("error", json.dumps(resp)))
            return
        if resp.get("staged"):
            out.put(("error", f"the write was staged, not applied: {json.dumps(resp)}"))
            return
        store.turn()
    store.finish()
    cpu1 = os.times()  # the process's threads, its background flushes included
    if prof is not None:
        prof.disable()
        prof.dump_stats(os.path.join(spec["profile"], f"{side}-{spec['workload']}-{n}.prof"))
    out.put(("ok", (lat, cpu1.user - cpu0.user + cpu1.system - cpu0.system)))


def contend(side: str, home: str, spec: dict[str, Any]) -> dict[str, Any]:
    """``procs`` forked writers released at once; wall time until the last reports."""
    ctx = multiprocessing.get_context("fork")
    procs = spec["procs"]
    barrier = ctx.Barrier(procs + 1)
    out = ctx.Queue()
    workers = [
        ctx.Process(target=_writer, args=(side, home, spec, n, barrier, out)) for n in range(procs)
    ]
    for w in workers:
        w.start()
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        raise SystemExit(f"{side}: a writer failed to warm up: {out.get(timeout=60)[1]}") from None
    t0 = time.perf_counter()
    lat: list[float] = []
    cpu = 0.0
    for _ in workers:
        status, data = out.get(timeout=1800)
        if status != "ok":
            raise SystemExit(f"{side}: a writer failed: {data}")
        lat.extend(data[0])
        cpu += data[1]
    wall = time.perf_counter() - t0
    for w in workers:
        w.join()
    return {"calls": len(lat), "wall_s": wall, "cpu_s": cpu, "latencies_s": lat}


def serve_tool(side: str, home: str, spec: dict[str, Any]) -> None:
    """Timed add, replace and remove of a unique entry per request (background work
    finished untimed after each call), for a run interleaved with the other side."""
    store = SIDES[side](home, spec)
    print("ready", flush=True)
    for line in sys.stdin:
        i = int(line)
        new = f"Fact {i}: the staging DB snapshot runs nightly at 02:00 UTC."
        newer = f"Fact {i}: the staging DB snapshot runs nightly at 03:00 UTC."
        round_ = [
            ("add", {"action": "add", "target": "memory", "content": new}),
            (
                "replace",
                {"action": "replace", "target": "memory", "old_text": new, "content": newer},
            ),
            ("remove", {"action": "remove", "target": "memory", "old_text": newer}),
        ]
        took: list[tuple[str, float]] = []
        for name, args in round_:
            seconds, resp = store.call(json.dumps(args))
            if not resp.get("success") or resp.get("staged"):
                raise SystemExit(f"{side}: {name} failed: {json.dumps(resp)}")
            took.append((name, seconds))
            store.settle()
            store.turn()
        print(json.dumps(took), flush=True)


def main() -> None:
    side, command, home, spec_text = sys.argv[1:5]
    if side not in SIDES:
        raise SystemExit(f"unknown side {side!r} (mnemic, hermes)")
    spec = json.loads(spec_text)
    if command == "prepare":
        prepare(side, home, spec)
    elif command == "contend":
        print(json.dumps(contend(side, home, spec)), flush=True)
    elif command == "tool":
        serve_tool(side, home, spec)
    else:
        raise SystemExit(f"unknown command {command!r} (prepare, contend, tool)")


if __name__ == "__main__":
    main()
