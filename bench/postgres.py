"""PostgreSQL backend beside the embedded default, measured in the same run.

    ./x bench postgres                      # 1,000,000 messages (several minutes)
    ./x bench postgres --messages 100000    # smaller run
    ./x bench postgres --dsn postgresql://user@host/db   # an existing server
    ./x bench postgres --baseline /path/to/older/checkout/src   # both checkouts, interleaved
    ./x bench postgres --messages 200000 --no-writes   # search and import only
    ./x bench postgres --interleaved-writes 4 --baseline OLD/src   # writers only, see 3.
    ./x bench postgres --interleaved-writes 8 --ops 320 --workloads grow,tool,pairs \
        --baseline OLD/src     # many short rounds: paired ratios with 95 % intervals

Without ``--dsn`` (or ``TEST_PG_DSN``) a throwaway server is started on loopback with
its default durability (fsync on, synchronous commit), so both sides pay for durable
commits, and ``shared_buffers = 1GB`` (a server's usual sizing; the default 128 MB is
for tiny machines and would make every search read the table through the kernel).

1. Curated mutations with 1, 4 and 16 concurrent writers, each a separate process with
   its own connection(s), all writing MEMORY.md of one home (a mix of add, replace and
   remove of the writer's own entries, through ``Memory.apply``: gate, lock, re-read,
   validate, write, version, audit). Per-operation latency (p50/p99) measured inside the
   writers; throughput = all operations / wall time from the start signal to the end of
   the last write (``ops_per_s``; to the last writer process's exit, as every figure
   before 2026-12-06's guarded-call run: ``ops_per_s_to_exit``). Same workload on the
   files backend (sidecar flock, fsync'd files).
2. Session search at ``--messages`` messages: the synthetic corpus of ``bench/sessions.py``
   bulk-imported into SQLite and into PostgreSQL, then the ``session_search`` discovery
   shape for the same queries on both (consecutive words of recorded messages, and
   independently drawn words). Bulk import rates are reported too. With ``--baseline``
   the older checkout imports into a schema of its own and searches it (and the same
   SQLite file) too: imports take turns in two slices, searches in blocks of 20 queries
   whose order flips each block, each checkout in its own process; the ratios
   PostgreSQL / SQLite are reported per checkout.

3. ``--interleaved-writes ROUNDS``: only the writers, PostgreSQL against files (and the
   PostgreSQL writers of ``--baseline``) at 8 and 16 processes, taking turns each round
   (:func:`interleaved_writes`), with the ratio PostgreSQL / files per round; saved as
   ``bench/results/postgres-writes.json``. ``--counts`` and ``--workloads`` choose the
   writer counts and workloads (:data:`WORKLOADS`: ``pairs`` and ``grow`` through
   ``Memory.apply``, ``tool`` and ``replace`` through the memory tool, as the MCP server
   calls it). Each run also gives the CPU a write of the writers (``os.times()`` over
   their writes) and, on a throwaway server, of the server (every server process, from
   ``/proc``: the live ones and those the postmaster has reaped); each round the load
   average. The summary of a workload is the geometric mean of its per-round ratios
   with a 95 % interval (:func:`paired`): PostgreSQL / files and, with ``--baseline``,
   this checkout / the baseline, for throughput and for CPU. On a shared machine use
   many short rounds (``--ops 320`` is 20 writes a writer at 16 writers): a round's two
   sides run minutes apart at most, so the load, which moves a run by more than a
   change does, cancels in the ratio. ``--statements`` loads ``pg_stat_statements``
   (nested statements too) and keeps each PostgreSQL run's statements per write.

The machine has 2 cores: 16 writer processes and the server share them, so the 16-writer
figures measure contention, not parallel speed-up.
"""

from __future__ import annotations

import argparse
import contextlib
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

from _common import RESULTS, emit, paired, summarize_ms
from sessions import Corpus, build

WRITER = r"""
import json, os, random, sys, time
from mnemic.curated.memory import Memory
from mnemic.curated.store import Op
from mnemic.curated.tool import memory_call
home, wid, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
workload = sys.argv[4] if len(sys.argv) > 4 else "mix"
rng = random.Random(wid)
mem = Memory.open(home)
mem.entries("memory")  # connected and warm
if workload != "mix":  # the first write's one-off start-up (~0.2 s) is not a write's cost
    mem.apply("user", [Op("add", f"warm-up {wid}")])
    mem.apply("user", [Op("remove", old_text=f"warm-up {wid}")])
mine = []
if workload == "replace":  # the entry this writer replaces again and again
    mine.append(f"writer {wid} note start")
    memory_call(mem, {"action": "add", "target": "memory", "content": mine[0]})
print("ready", flush=True)
sys.stdin.readline()
lat, failed = [], 0
t0 = os.times()
for k in range(n):
    if workload in ("tool", "replace"):  # the memory tool's guarded calls (the MCP server's)
        if workload == "replace":
            args = {"action": "replace", "target": "memory", "old_text": mine[0],
                    "content": f"writer {wid} note {k}"}
            mine[0] = args["content"]
        elif mine:
            args = {"action": "remove", "target": "memory", "old_text": mine.pop()}
        else:
            mine.append(f"writer {wid} note {k}")
            args = {"action": "add", "target": "memory", "content": mine[-1]}
        t = time.perf_counter()
        try:
            memory_call(mem, args)
        except Exception:
            failed += 1
        lat.append(time.perf_counter() - t)
        continue
    if workload == "pairs":  # add, then remove it: the store stays small
        op = Op("remove", old_text=mine.pop()) if mine else Op("add", f"writer {wid} note {k}")
        if op.action == "add":
            mine.append(op.content)
    elif workload == "grow":  # adds only: the text grows with every write
        op = Op("add", f"writer {wid} note {k}: {'x' * 40}")
    elif mine and (len(mine) >= 4 or rng.random() < 0.3):
        op = Op("remove", old_text=mine.pop(rng.randrange(len(mine))))
    elif mine and rng.random() < 0.5:
        old = mine.pop(rng.randrange(len(mine)))
        new = f"writer {wid} note {k} (replaced)"
        op = Op("replace", new, old)
        mine.append(new)
    else:
        new = f"writer {wid} note {k}"
        op = Op("add", new)
        mine.append(new)
    t = time.perf_counter()
    try:
        mem.apply("memory", [op])
    except Exception:
        failed += 1
    lat.append(time.perf_counter() - t)
t1 = os.times()
cpu = t1.user + t1.system - t0.user - t0.system  # this writer's CPU over its writes
print(json.dumps({"lat": lat, "failed": failed, "end": time.monotonic(), "cpu": cpu}), flush=True)
"""


SEARCHER = r"""
import json, sys, time
from mnemic.backends.postgres.db import Database
from mnemic.backends.postgres.sessions import PostgresSessionStore
from mnemic.config import SessionSettings
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import run_session_search
dsn, schema, sqlite_path, first = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
stores = {"sqlite": SQLiteSessionStore(sqlite_path), "postgres": PostgresSessionStore(
    Database(dsn, schema=schema))}
settings = SessionSettings()
for store in stores.values():
    run_session_search(store, {"query": first}, settings=settings)  # connected and warm
print("ready", flush=True)
for line in sys.stdin:
    ask = json.loads(line)
    store, lat, found = stores[ask["backend"]], [], 0
    for q in ask["queries"]:
        t = time.perf_counter()
        resp = run_session_search(store, {"query": q}, settings=settings)
        lat.append(time.perf_counter() - t)
        found += bool(resp.get("count"))
    print(json.dumps({"lat": lat, "found": found}), flush=True)
"""

IMPORTER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from sessions import Corpus, build
from mnemic.backends.postgres.db import Database
from mnemic.backends.postgres.sessions import PostgresSessionStore
dsn, schema, seed, total, part, parts = sys.argv[2], sys.argv[3], *map(int, sys.argv[4:8])
items = build(Corpus(seed), total)[0][part::parts]
store = PostgresSessionStore(Database(dsn, schema=schema))
t = time.perf_counter()
n = sum(len(r.message_ids or ()) for r in store.import_sessions(items))
print(json.dumps({"messages": n, "seconds": time.perf_counter() - t}), flush=True)
"""


def _env(src: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    src = src or str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a server's postmaster: its backends and
    auxiliary processes)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
    return out


def server_cpu(pid: int) -> float:
    """CPU seconds a server has used: its postmaster's own and its reaped children's
    (``cutime``/``cstime``: every backend that has exited), plus its live children's."""
    tick = os.sysconf("SC_CLK_TCK")

    def times(p: int, reaped: bool) -> float:
        with contextlib.suppress(OSError, IndexError, ValueError):
            f = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            # fields after the name: state=0 ... utime=11 stime=12 cutime=13 cstime=14
            return sum(int(x) for x in f[11 : 15 if reaped else 13]) / tick
        return 0.0

    return times(pid, True) + sum(times(c, False) for c in _children(pid))


def mutations(
    home: Path,
    writers: int,
    ops: int,
    src: str | None = None,
    workload: str = "mix",
    server_pid: int | None = None,
    at_start: Any = None,
) -> dict[str, Any]:
    """Run ``writers`` processes of ``ops`` mutations each on one home (with the mnemic
    of ``src``, default this checkout's); ``workload``: ``mix`` (add, replace, remove),
    ``pairs`` (add then remove: a small store) or ``grow`` (adds only).

    CPU per write: the writers' own (``client_cpu_ms``, from each writer's ``os.times()``
    over its writes) and, with ``server_pid`` (a throwaway server's postmaster), the
    server's (``server_cpu_ms``: every server process's CPU from the start signal until
    the writers' server processes have exited, background writers included).
    ``at_start``: called once every writer is ready, just before the start signal."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(home), str(i), str(ops), workload],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(src),
        )
        for i in range(writers)
    ]
    for p in procs:
        assert p.stdout is not None
        line = p.stdout.readline().strip()
        if line != "ready":
            raise RuntimeError(f"writer did not start: {p.communicate()[1][-2000:]}")
    if at_start is not None:
        at_start()
    before = set(_children(server_pid)) if server_pid else set()
    cpu0 = server_cpu(server_pid) if server_pid else 0.0
    start = time.monotonic()  # CLOCK_MONOTONIC: one clock for every process here
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    lat: list[float] = []
    failed = 0
    ends: list[float] = []
    client_cpu = 0.0
    for p in procs:
        out, err = p.communicate(timeout=1800)
        if p.returncode != 0:
            raise RuntimeError(f"writer failed: {err[-2000:]}")
        data = json.loads(out.strip().splitlines()[-1])
        lat.extend(data["lat"])
        failed += data["failed"]
        ends.append(float(data.get("end", 0.0)))
        client_cpu += float(data.get("cpu", 0.0))
    exited = time.monotonic() - start
    server_cpu_s = None
    if server_pid:  # the writers' server processes exit after them: wait until reaped
        deadline = time.monotonic() + 20
        while set(_children(server_pid)) - before and time.monotonic() < deadline:
            time.sleep(0.02)
        server_cpu_s = server_cpu(server_pid) - cpu0
    stats = summarize_ms(lat)
    # to the last write's end: the writers' exits (a PostgreSQL writer's pool and
    # threads closing take ~0.1 s of CPU each) are not writes
    last = max(ends) - start if ends and min(ends) > start else exited
    stats["ops_per_s"] = round(len(lat) / last, 1)
    stats["ops_per_s_to_exit"] = round(len(lat) / exited, 1)
    stats["failed"] = failed
    stats["writers"] = writers
    stats["client_cpu_ms"] = round(client_cpu * 1000 / max(1, len(lat)), 3)
    if server_cpu_s is not None:
        stats["server_cpu_ms"] = round(server_cpu_s * 1000 / max(1, len(lat)), 3)
    return stats


def _commit_of(src: str | None) -> str | None:
    """The git commit checked out at ``src`` (None: no baseline, or not a checkout)."""
    if not src:
        return None
    out = subprocess.run(
        ["git", "-C", src, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return out.stdout.strip() or None


def new_home(root: Path, name: str, config: str) -> Path:
    home = root / name
    home.mkdir(parents=True)
    (home / "config.toml").write_text(config, encoding="utf-8")
    return home


class Searcher:
    """A process searching one schema (and the SQLite store) with the mnemic of ``src``:
    blocks of queries are sent to it, so two checkouts can be measured interleaved."""

    def __init__(self, dsn: str, schema: str, sqlite: Path, first: str, src: str | None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SEARCHER, dsn, schema, str(sqlite), first],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=_env(src),
        )
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "ready":
            raise RuntimeError("searcher did not start")

    def run(self, backend: str, queries: list[str]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"backend": backend, "queries": queries}) + "\n")
        self.proc.stdin.flush()
        out: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return out

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def interleaved_search(
    searchers: dict[str, Searcher], queries: list[str], block: int = 20
) -> dict[str, dict[str, Any]]:
    """Every searcher runs ``queries`` on SQLite and on PostgreSQL, a block at a time,
    taking turns (the order flips each block), so a noisy machine hits all alike."""
    lat: dict[str, list[float]] = {}
    found: dict[str, int] = {}
    for turn, start in enumerate(range(0, len(queries), block)):
        part = queries[start : start + block]
        names = list(searchers)
        for name in names if turn % 2 == 0 else names[::-1]:
            for backend in ("sqlite", "postgres"):
                got = searchers[name].run(backend, part)
                key = f"{name}_{backend}"
                lat.setdefault(key, []).extend(got["lat"])
                found[key] = found.get(key, 0) + int(got["found"])
    out: dict[str, dict[str, Any]] = {}
    for key, values in lat.items():
        out[key] = {**summarize_ms(values), "queries": len(values), "with_results": found[key]}
    return out


def interleaved_import(
    dsn: str, schemas: dict[str, tuple[str, str | None]], seed: int, total: int, parts: int = 2
) -> dict[str, dict[str, Any]]:
    """Bulk-import the corpus into each schema (``name -> (schema, src)``), in ``parts``
    slices taking turns, each slice in a fresh process (cold tokenizer caches alike)."""
    bench_dir = str(Path(__file__).resolve().parent)
    done: dict[str, list[float]] = {name: [0.0, 0.0] for name in schemas}
    for part in range(parts):
        names = list(schemas)
        for name in names if part % 2 == 0 else names[::-1]:
            schema, src = schemas[name]
            out = subprocess.run(
                [sys.executable, "-c", IMPORTER, bench_dir, dsn, schema, str(seed), str(total),
                 str(part), str(parts)],
                env=_env(src), check=True, capture_output=True, text=True,
            )  # fmt: skip
            got = json.loads(out.stdout.strip().splitlines()[-1])
            done[name][0] += got["messages"]
            done[name][1] += got["seconds"]
    return {
        name: {
            "messages": int(n),
            "seconds": round(sec, 1),
            "messages_per_s": round(n / sec) if sec else None,
        }
        for name, (n, sec) in done.items()
    }


MIGRATE = (
    "import sys; from mnemic.backends.postgres.db import Database; from "
    "mnemic.backends.postgres.migrations import migrate; "
    "migrate(Database(sys.argv[1], schema=sys.argv[2]))"
)
"""Migrate a schema with the mnemic on ``PYTHONPATH`` (a baseline checkout migrates its own)."""

WORKLOADS = ("pairs", "grow", "tool", "replace")
"""The interleaved writers' workloads (see :data:`WRITER`): ``tool`` is ``pairs`` through
the memory tool (the MCP server's guarded calls), ``replace`` a tool call replacing the
writer's own entry each time."""


def _statements(dsn: str, writes: int, top: int = 20) -> list[dict[str, Any]]:
    """The statements ``pg_stat_statements`` counted since its last reset, the costliest
    first: calls and milliseconds (execution, planning) per write."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT calls, total_exec_time, total_plan_time, toplevel, query "
            "FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT %s",
            (top,),
        ).fetchall()
    return [
        {
            "calls_per_write": round(calls / writes, 3),
            "exec_ms_per_write": round(ex / writes, 4),
            "plan_ms_per_write": round(pl / writes, 4),
            "toplevel": toplevel,
            "query": " ".join(str(q).split())[:300],
        }
        for calls, ex, pl, toplevel, q in rows
    ]


def _reset_statements(dsn: str) -> None:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_statements_reset()")


def interleaved_writes(
    dsn: str,
    workdir: Path,
    rounds: int,
    ops: int,
    baseline: str | None = None,
    counts: tuple[int, ...] = (8, 16),
    workloads: tuple[str, ...] = ("pairs", "grow"),
    queue: bool = False,
    server_pid: int | None = None,
    statements: bool = False,
    baseline_files: bool = False,
) -> dict[str, Any]:
    """PostgreSQL and files (and, with ``baseline``, the PostgreSQL writers of that
    checkout's src; with ``baseline_files`` its files writers too), taking turns: each
    round runs every writer count and workload on each side (the order flips each
    round), each run on a fresh home (and a fresh schema, migrated by its side's
    checkout), and prints the ratio PostgreSQL / files of
    that round, each side's CPU a write (client, and with ``server_pid`` the server's)
    and the load average. The summary of each workload and count is the geometric mean
    of the paired per-round ratios with its 95 % interval (:func:`paired`): PostgreSQL /
    files, with ``baseline`` this checkout / the baseline (and with ``baseline_files``
    the baseline's PostgreSQL / its files). Many short rounds give a
    narrower interval than a few long ones on a shared machine. ``queue``: one more
    side, ``postgres_queue``, this checkout's writers with ``[memory] group_commit =
    "queue"`` (group commit in the server). ``statements``: the server has
    ``pg_stat_statements`` loaded; each PostgreSQL run's statements per write are kept."""
    import psycopg

    if statements:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    runs: dict[str, dict[str, Any]] = {}
    for rnd in range(rounds):
        for writers in counts:
            for workload in workloads:
                key = f"{workload}_{writers}"
                got: dict[str, dict[str, Any]] = {}
                sides = ["postgres", "files"] + (["postgres_baseline"] if baseline else [])
                sides += ["files_baseline"] if baseline and baseline_files else []
                sides += ["postgres_queue"] if queue else []
                load = os.getloadavg()[0]
                for side in sides if rnd % 2 == 0 else sides[::-1]:
                    src = baseline if side.endswith("_baseline") else None
                    config = "[memory]\nmemory_char_limit = 1000000\n"
                    if side == "postgres_queue":
                        config += 'group_commit = "queue"\n'
                    schema = f"bench_w_{os.getpid()}_{rnd}_{key}"
                    if not side.startswith("files"):
                        subprocess.run(
                            [sys.executable, "-c", MIGRATE, dsn, schema], env=_env(src), check=True
                        )
                        config = f'store = "{dsn}"\n[postgres]\nschema = "{schema}"\n' + config
                    home = new_home(workdir, f"{side}-{key}-{rnd}", config)
                    watch = statements and not side.startswith("files")
                    try:
                        got[side] = mutations(
                            home,
                            writers,
                            max(1, ops // writers),
                            src,
                            workload,
                            server_pid,
                            (lambda: _reset_statements(dsn)) if watch else None,
                        )
                        if watch:
                            got[side]["statements"] = _statements(dsn, got[side]["n"])
                        if side == "postgres_queue":  # how many writes found the lock busy
                            got[side].update(_queued(dsn, schema))
                    finally:
                        if not side.startswith("files"):
                            with psycopg.connect(dsn, autocommit=True) as conn:
                                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
                fs = got["files"]
                load = max(load, os.getloadavg()[0])
                line = f"round {rnd} {workload:5} {writers:2} writers (load {load:4.1f}):"
                row: dict[str, Any] = {"files": fs, "load": round(load, 2)}
                for side in [s for s in sides if s != "files"]:
                    pg = got[side]
                    ratio = {
                        "ops_per_s": round(pg["ops_per_s"] / fs["ops_per_s"], 3),
                        "p99": round(pg["p99_ms"] / fs["p99_ms"], 3),
                    }
                    if side == "postgres_baseline" and "files_baseline" in got:
                        fb = got["files_baseline"]  # the baseline's PostgreSQL / its files
                        row["postgres_baseline_over_files_baseline"] = {
                            "ops_per_s": round(pg["ops_per_s"] / fb["ops_per_s"], 3),
                            "p99": round(pg["p99_ms"] / fb["p99_ms"], 3),
                        }
                    row[side] = pg
                    row[f"{side}_over_files"] = ratio
                    line += (
                        f" {side} {pg['ops_per_s']:6.1f} ops/s p50 {pg['p50_ms']:5.1f}"
                        f" p99 {pg['p99_ms']:6.1f} cpu {pg['client_cpu_ms']:.2f}"
                        + (f"+{pg['server_cpu_ms']:.2f}" if "server_cpu_ms" in pg else "")
                        + f" (/files: ops {ratio['ops_per_s']:.2f} p99 {ratio['p99']:.2f})"
                        + (
                            f" queued {pg['queued']} batches {pg['batches']}"
                            if "queued" in pg
                            else ""
                        )
                        + " |"
                    )
                line += f" files {fs['ops_per_s']:6.1f} ops/s p50 {fs['p50_ms']:5.1f}"
                line += f" p99 {fs['p99_ms']:6.1f} cpu {fs['client_cpu_ms']:.2f}"
                failed = sum(got[s]["failed"] for s in sides)
                print(line + (f"  FAILED {failed}" if failed else ""), flush=True)
                runs.setdefault(key, {}).setdefault("rounds", []).append(row)
    for key, figures in runs.items():
        rows = figures["rounds"]
        summary = f"{key:9}"
        for side in ("postgres", "postgres_baseline", "postgres_queue", "files_baseline"):
            ratios = [r[f"{side}_over_files"]["ops_per_s"] for r in rows if side in r]
            if ratios:
                figures[f"{side}_over_files_median_ops"] = round(statistics.median(ratios), 3)
                figures[f"{side}_over_files_ops"] = paired(ratios)
                got_ci = figures[f"{side}_over_files_ops"]
                summary += f" {side}/files {got_ci['geomean']:.2f} {got_ci.get('ci95', '')}"
            for part in ("client_cpu_ms", "server_cpu_ms"):
                values = [r[side][part] for r in rows if side in r and part in r[side]]
                if values:
                    figures[f"{side}_{part}"] = round(statistics.fmean(values), 3)
        own = [r["postgres_baseline_over_files_baseline"] for r in rows if "files_baseline" in r]
        if own:
            figures["postgres_baseline_over_files_baseline_ops"] = paired(
                [o["ops_per_s"] for o in own]
            )
            figures["postgres_baseline_over_files_baseline_p99"] = paired([o["p99"] for o in own])
            got_ci = figures["postgres_baseline_over_files_baseline_ops"]
            summary += f" baseline pg/files {got_ci['geomean']:.2f} {got_ci.get('ci95', '')}"
        figures["files_client_cpu_ms"] = round(
            statistics.fmean(r["files"]["client_cpu_ms"] for r in rows), 3
        )
        if baseline:
            ratios = [
                r["postgres"]["ops_per_s"] / r["postgres_baseline"]["ops_per_s"] for r in rows
            ]
            figures["postgres_over_baseline_ops"] = paired(ratios)
            for part in ("client_cpu_ms", "server_cpu_ms"):
                if all(part in r["postgres"] for r in rows):
                    figures[f"postgres_over_baseline_{part}"] = paired(
                        [r["postgres"][part] / r["postgres_baseline"][part] for r in rows]
                    )
            got_ci = figures["postgres_over_baseline_ops"]
            summary += f" | this/baseline {got_ci['geomean']:.2f} {got_ci.get('ci95', '')}"
        print(summary, flush=True)
    return runs


def _queued(dsn: str, schema: str) -> dict[str, int]:
    """Group commit in the server, counted in ``schema``: the requests writers left in
    the queue (they found the lock busy) and the holders' transactions (batches)."""
    import psycopg

    out = {}
    with psycopg.connect(dsn, autocommit=True) as conn:
        for name, seq in (
            ("queued", "curated_requests_id_seq"),
            ("batches", "curated_requests_batch"),
        ):
            row = conn.execute(f'SELECT last_value, is_called FROM "{schema}".{seq}').fetchone()
            out[name] = int(row[0]) if row and row[1] else 0
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--ops", type=int, default=400, help="mutations per writer count")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20260517)
    parser.add_argument("--dsn", default=os.environ.get("TEST_PG_DSN"))
    parser.add_argument("--no-writes", action="store_true", help="skip the curated writers")
    parser.add_argument(
        "--baseline",
        help="src directory of another mnemic checkout: its PostgreSQL writers run too, "
        "interleaved with this one's, on a schema it migrates itself",
    )
    parser.add_argument(
        "--interleaved-writes",
        type=int,
        metavar="ROUNDS",
        help="only the writers: PostgreSQL and files taking turns for ROUNDS rounds at 8 "
        "and 16 writers (add/remove pairs on a small store, adds growing it), with the "
        "ratio PostgreSQL / files per round",
    )
    parser.add_argument(
        "--counts",
        default="8,16",
        help="writer counts of --interleaved-writes, comma-separated (1 gives one writer's p50)",
    )
    parser.add_argument(
        "--workloads",
        default="pairs,grow",
        help=f"workloads of --interleaved-writes, comma-separated, of {', '.join(WORKLOADS)}",
    )
    parser.add_argument(
        "--statements",
        action="store_true",
        help="with --interleaved-writes on a throwaway server: load pg_stat_statements and "
        "keep each PostgreSQL run's statements per write (calls, execution and planning time)",
    )
    parser.add_argument(
        "--queue",
        action="store_true",
        help="with --interleaved-writes: also this checkout's PostgreSQL writers with "
        '[memory] group_commit = "queue" (group commit in the server)',
    )
    parser.add_argument(
        "--baseline-files",
        action="store_true",
        help="with --interleaved-writes and --baseline: the baseline's files writers too "
        "(its PostgreSQL / its files each round, beside this checkout's)",
    )
    args = parser.parse_args()

    from _pgserver import start_server

    server = None
    dsn = args.dsn
    if not dsn:
        settings = {"shared_buffers": "1GB"}
        if args.statements:
            settings.update({"shared_preload_libraries": "pg_stat_statements",
                             "pg_stat_statements.track": "all"})  # fmt: skip
        server = start_server(durable=True, settings=settings)
        dsn = server.dsn
        print(f"started a throwaway PostgreSQL at {dsn}", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="mnemic-bench-pg-"))
    if args.interleaved_writes:
        try:
            counts = tuple(int(c) for c in args.counts.split(","))
            loads = tuple(w for w in args.workloads.split(",") if w)
            unknown = [w for w in loads if w not in WORKLOADS]
            if unknown:
                parser.error(f"unknown workload(s) {unknown}: use {', '.join(WORKLOADS)}")
            writes = interleaved_writes(
                dsn,
                workdir,
                args.interleaved_writes,
                args.ops,
                args.baseline,
                counts,
                loads,
                args.queue,
                server.pid() if server is not None else None,
                args.statements and server is not None,
                args.baseline_files,
            )
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
            if server is not None:
                server.stop()
        emit("postgres-writes", {"server": "throwaway (durable defaults, shared_buffers 1GB)"
                                 if server else "given",
                                 "ops_per_run": args.ops, "baseline": args.baseline,
                                 "queue": args.queue,
                                 "baseline_commit": _commit_of(args.baseline),
                                 "writes": writes})  # fmt: skip
        return
    schema = f"bench_{os.getpid()}"
    result: dict[str, Any] = {
        "server": "throwaway (durable defaults, shared_buffers 1GB)" if server else "given"
    }
    try:
        from mnemic.backends.postgres.db import Database
        from mnemic.backends.postgres.migrations import migrate

        db = Database(dsn, schema=schema)
        migrate(db)
        with db.raw_connection() as conn:
            row = conn.execute("SHOW server_version").fetchone()
            result["server_version"] = str(row[0]) if row else "?"

        # 1. mutations
        pg_config = f'store = "{dsn}"\n[postgres]\nschema = "{schema}"\n'
        result["mutations"] = {"postgres": {}, "files": {}}
        runs: list[tuple[str, str, str | None]] = [
            ("postgres", pg_config, None),
            ("files", "", None),
        ]
        old = f"{schema}_baseline"
        if args.baseline:
            subprocess.run(
                [sys.executable, "-c", MIGRATE, dsn, old], env=_env(args.baseline), check=True
            )
            base_config = f'store = "{dsn}"\n[postgres]\nschema = "{old}"\n'
            runs.insert(0, ("postgres_baseline", base_config, args.baseline))
            result["mutations"]["postgres_baseline"] = {"src": args.baseline}
        if args.no_writes:  # keep the last measured writers, marked as such
            with contextlib.suppress(OSError, ValueError, KeyError):
                last = json.loads((RESULTS / "postgres.json").read_text(encoding="utf-8"))
                kept = last["mutations"].get("kept_from", last["when"])
                result["mutations"] = {**last["mutations"], "kept_from": kept}
        for writers in () if args.no_writes else (1, 4, 16):
            per = max(1, args.ops // writers)
            for backend, config, src in runs:
                home = new_home(workdir, f"{backend}-{writers}", config)
                if backend.startswith("postgres"):
                    target = schema if src is None else f"{schema}_baseline"
                    with db.connection() as conn:
                        conn.execute(f'TRUNCATE "{target}".curated, "{target}".curated_versions')
                stats = mutations(home, writers, per, src)
                result["mutations"][backend][str(writers)] = stats
                print(
                    f"mutations {backend:17} {writers:2} writer(s): {stats['ops_per_s']:8.1f} ops/s"
                    f"  p50 {stats['p50_ms']:7.2f} ms  p99 {stats['p99_ms']:7.2f} ms"
                    f"  failed {stats['failed']}",
                    flush=True,
                )

        # 2. search at scale
        corpus = Corpus(args.seed)
        items, text_bytes = build(corpus, args.messages)
        n_messages = sum(len(m) for _, m in items)
        result["search"] = {"messages": n_messages, "sessions": len(items)}
        print(f"generated {n_messages:,} messages in {len(items):,} sessions", flush=True)
        from mnemic.backends.files.sqlite import SQLiteSessionStore
        from mnemic.backends.postgres.sessions import PostgresSessionStore

        sqlite_path = workdir / "sessions.db"
        sqlite = SQLiteSessionStore(sqlite_path)
        t0 = time.perf_counter()
        imported = sum(len(r.message_ids or ()) for r in sqlite.import_sessions(items))
        seconds = time.perf_counter() - t0
        result["search"]["sqlite_bulk_import"] = {
            "messages": imported,
            "seconds": round(seconds, 1),
            "messages_per_s": round(imported / seconds),
        }
        print(f"bulk import sqlite: {imported / seconds:,.0f} messages/s", flush=True)
        sqlite.close()
        del items
        sides: dict[str, tuple[str, str | None]] = {"postgres": (schema, None)}
        if args.baseline:
            sides = {"postgres_baseline": (old, args.baseline), **sides}
        imports = interleaved_import(dsn, sides, args.seed, args.messages)
        for name, figures in imports.items():
            result["search"][f"{name}_bulk_import"] = figures
            print(f"bulk import {name}: {figures['messages_per_s']:,} messages/s", flush=True)
        stats = PostgresSessionStore(db).stats()
        result["search"]["postgres_bytes_per_text_byte"] = round(stats.db_bytes / text_bytes, 3)
        searchers = {
            "new" if name == "postgres" else "baseline": Searcher(
                dsn, schema_name, sqlite_path, "warm up", src
            )
            for name, (schema_name, src) in sides.items()
        }
        try:
            for key, make in (
                ("discovery", corpus.recall_query),
                ("discovery_random_words", corpus.query),
            ):
                queries = [make() for _ in range(args.queries)]
                figures = interleaved_search(searchers, queries)
                for side_backend, fig in figures.items():
                    side, backend = side_backend.split("_")
                    name = backend if side == "new" else f"{backend}_baseline"
                    result["search"][f"{name}_{key}"] = fig
                    print(
                        f"{key} {name:17}: p50 {fig['p50_ms']:7.2f} ms  p99 {fig['p99_ms']:7.2f}"
                        f" ms  ({fig['with_results']}/{len(queries)} with results)",
                        flush=True,
                    )
                for side in searchers:
                    pg, lite = figures[f"{side}_postgres"], figures[f"{side}_sqlite"]
                    ratio = {
                        "p50": round(pg["p50_ms"] / lite["p50_ms"], 2),
                        "p99": round(pg["p99_ms"] / lite["p99_ms"], 2),
                    }
                    suffix = "" if side == "new" else "_baseline"
                    result["search"][f"{key}_postgres_over_sqlite{suffix}"] = ratio
                    print(f"{key} postgres/sqlite ({side}): {ratio}", flush=True)
                result["search"][f"{key}_examples"] = queries[:6]
        finally:
            for searcher in searchers.values():
                searcher.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        if server is not None:
            server.stop()
        else:
            import psycopg

            with psycopg.connect(dsn, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}_baseline" CASCADE')
    emit("postgres", result)


if __name__ == "__main__":
    main()
