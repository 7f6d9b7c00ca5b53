"""PostgreSQL backend beside the embedded default, measured in the same run.

    ./x bench postgres                      # 1,000,000 messages (several minutes)
    ./x bench postgres --messages 100000    # smaller run
    ./x bench postgres --dsn postgresql://user@host/db   # an existing server
    ./x bench postgres --baseline /path/to/older/checkout/src   # writers of both, interleaved

Without ``--dsn`` (or ``TEST_PG_DSN``) a throwaway server is started on loopback with
its default durability (fsync on, synchronous commit), so both sides pay for durable
commits, and ``shared_buffers = 1GB`` (a server's usual sizing; the default 128 MB is
for tiny machines and would make every search read the table through the kernel).

1. Curated mutations with 1, 4 and 16 concurrent writers, each a separate process with
   its own connection(s), all writing MEMORY.md of one home (a mix of add, replace and
   remove of the writer's own entries, through ``Memory.apply``: gate, lock, re-read,
   validate, write, version, audit). Per-operation latency (p50/p99) measured inside the
   writers; throughput = all operations / wall time from the start signal to the last
   writer's end. Same workload on the files backend (sidecar flock, fsync'd files).
2. Session search at ``--messages`` messages: the synthetic corpus of ``bench/sessions.py``
   bulk-imported into SQLite and into PostgreSQL, then the ``session_search`` discovery
   shape for the same queries on both (consecutive words of recorded messages, and
   independently drawn words). Bulk import rates are reported too.

The machine has 2 cores: 16 writer processes and the server share them, so the 16-writer
figures measure contention, not parallel speed-up.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import emit, summarize_ms
from sessions import Corpus, build

WRITER = r"""
import json, random, sys, time
from mnemic.curated import Memory, Op
home, wid, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(wid)
mem = Memory.open(home)
mem.entries("memory")  # connected and warm
print("ready", flush=True)
sys.stdin.readline()
mine, lat, failed = [], [], 0
for k in range(n):
    if mine and (len(mine) >= 4 or rng.random() < 0.3):
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
print(json.dumps({"lat": lat, "failed": failed}), flush=True)
"""


def _env(src: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    src = src or str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


def mutations(home: Path, writers: int, ops: int, src: str | None = None) -> dict[str, Any]:
    """Run ``writers`` processes of ``ops`` mutations each on one home (with the mnemic
    of ``src``, default this checkout's)."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(home), str(i), str(ops)],
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
    start = time.perf_counter()
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    lat: list[float] = []
    failed = 0
    for p in procs:
        out, err = p.communicate(timeout=1800)
        if p.returncode != 0:
            raise RuntimeError(f"writer failed: {err[-2000:]}")
        data = json.loads(out.strip().splitlines()[-1])
        lat.extend(data["lat"])
        failed += data["failed"]
    wall = time.perf_counter() - start
    stats = summarize_ms(lat)
    stats["ops_per_s"] = round(len(lat) / wall, 1)
    stats["failed"] = failed
    stats["writers"] = writers
    return stats


def new_home(root: Path, name: str, config: str) -> Path:
    home = root / name
    home.mkdir(parents=True)
    (home / "config.toml").write_text(config, encoding="utf-8")
    return home


def discovery(store: Any, queries: list[str]) -> dict[str, Any]:
    from mnemic.config import SessionSettings
    from mnemic.sessions import run_session_search

    settings = SessionSettings()
    run_session_search(store, {"query": queries[0]}, settings=settings)  # warm up
    lat: list[float] = []
    found = 0
    for q in queries:
        t = time.perf_counter()
        resp = run_session_search(store, {"query": q}, settings=settings)
        lat.append(time.perf_counter() - t)
        found += bool(resp.get("count"))
    return {**summarize_ms(lat), "queries": len(queries), "with_results": found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--ops", type=int, default=400, help="mutations per writer count")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20260517)
    parser.add_argument("--dsn", default=os.environ.get("TEST_PG_DSN"))
    parser.add_argument(
        "--baseline",
        help="src directory of another mnemic checkout: its PostgreSQL writers run too, "
        "interleaved with this one's, on a schema it migrates itself",
    )
    args = parser.parse_args()

    from mnemic.testing.postgres import start_server

    server = None
    dsn = args.dsn
    if not dsn:
        server = start_server(durable=True, settings={"shared_buffers": "1GB"})
        dsn = server.dsn
        print(f"started a throwaway PostgreSQL at {dsn}", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="mnemic-bench-pg-"))
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
        if args.baseline:
            old = f"{schema}_baseline"
            subprocess.run(
                [sys.executable, "-c", "import sys; from mnemic.backends.postgres.db import "
                 "Database; from mnemic.backends.postgres.migrations import migrate; "
                 "migrate(Database(sys.argv[1], schema=sys.argv[2]))", dsn, old],
                env=_env(args.baseline), check=True,
            )  # fmt: skip
            base_config = f'store = "{dsn}"\n[postgres]\nschema = "{old}"\n'
            runs.insert(0, ("postgres_baseline", base_config, args.baseline))
            result["mutations"]["postgres_baseline"] = {"src": args.baseline}
        for writers in (1, 4, 16):
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
        from mnemic.backends.postgres.sessions import PostgresSessionStore
        from mnemic.sessions import SQLiteSessionStore

        stores: dict[str, Any] = {
            "sqlite": SQLiteSessionStore(workdir / "sessions.db"),
            "postgres": PostgresSessionStore(db),
        }
        for name, store in stores.items():
            t0 = time.perf_counter()
            imported = sum(len(r.message_ids or ()) for r in store.import_sessions(items))
            seconds = time.perf_counter() - t0
            result["search"][f"{name}_bulk_import"] = {
                "messages": imported,
                "seconds": round(seconds, 1),
                "messages_per_s": round(imported / seconds),
            }
            print(f"bulk import {name}: {imported / seconds:,.0f} messages/s", flush=True)
        del items
        stats = stores["postgres"].stats()
        result["search"]["postgres_bytes_per_text_byte"] = round(stats.db_bytes / text_bytes, 3)
        for key, make in (
            ("discovery", corpus.recall_query),
            ("discovery_random_words", corpus.query),
        ):
            queries = [make() for _ in range(args.queries)]
            for name, store in stores.items():
                figures = discovery(store, queries)
                result["search"][f"{name}_{key}"] = figures
                print(
                    f"{key} {name:8}: p50 {figures['p50_ms']:7.2f} ms  p99 {figures['p99_ms']:7.2f}"
                    f" ms  ({figures['with_results']}/{len(queries)} with results)",
                    flush=True,
                )
            result["search"][f"{key}_examples"] = queries[:6]
        for store in stores.values():
            store.close()
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
