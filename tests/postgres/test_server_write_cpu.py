"""The server's CPU per curated write (perf16): a process's writes in turn go to one
server process, and the write's function plans its statements once per server process
(generic plans), not again for each of its first five calls."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemic.curated.memory import Memory

pytestmark = pytest.mark.postgres

SRC = str(Path(__file__).resolve().parents[2] / "src")

WRITER = r"""
import contextlib, json, sys
from mnemic.backends.postgres.db import Database
from mnemic.curated.memory import Memory
seen = set()
handed = Database.raw_connection

@contextlib.contextmanager
def noted(self):
    with handed(self) as conn:
        seen.add(conn.info.backend_pid)
        yield conn

Database.raw_connection = noted
mem = Memory.open(sys.argv[1])
for i in range(6):
    mem.add("memory", f"fact {i} written in turn")
print(json.dumps({"pool": mem.backend.db.pool.get_stats()["pool_size"], "pids": len(seen)}))
"""


def test_a_process_writing_in_turn_is_served_by_one_server_process(
    pg_home: Callable[..., Path],
) -> None:
    # A pool asked for a connection while its first was still being made opened a
    # second, and handed the two out in turn: each server process planned the write's
    # statements and filled its caches for half the writes.
    home = pg_home()
    out = subprocess.run(
        [sys.executable, "-c", WRITER, str(home)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "HOME": str(home)},
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"pool": 1, "pids": 1}


def _sql(dsn: str, schema: str, text: str) -> list[Any]:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute(text.replace("{s}", f'"{schema}"'))
        return cur.fetchall() if cur.description else []


def test_the_server_write_runs_its_statements_on_generic_plans(
    pg_home: Callable[..., Path], pg_dsn: str, pg_schema: str
) -> None:
    # curated_fill runs inside curated_write: a copy of it that also notes the plan
    # cache mode in effect tells what the function's statements were planned with
    _sql(pg_dsn, pg_schema, "CREATE TABLE {s}.seen_modes (mode text)")
    _sql(
        pg_dsn,
        pg_schema,
        r"""CREATE OR REPLACE FUNCTION {s}.curated_fill(
    frags text[], slots text[], names text[], vals text[])
RETURNS text LANGUAGE plpgsql VOLATILE AS $fill$
DECLARE
    out text := frags[1];
BEGIN
    INSERT INTO {s}.seen_modes VALUES (current_setting('plan_cache_mode'));
    FOR i IN 1 .. coalesce(array_length(slots, 1), 0) LOOP
        out := out || vals[array_position(names, slots[i])] || frags[i + 1];
    END LOOP;
    RETURN out;
END
$fill$""",
    )
    mem = Memory.open(pg_home())
    mem.add("memory", "the first entry makes the row")  # no row yet: the client's path
    mem.add("memory", "the second entry is the server's")
    mem.remove("memory", "first entry")
    assert [e for e in mem.entries("memory")] == ["the second entry is the server's"]
    modes = [row[0] for row in _sql(pg_dsn, pg_schema, "SELECT mode FROM {s}.seen_modes")]
    assert modes and set(modes) == {"force_generic_plan"}
