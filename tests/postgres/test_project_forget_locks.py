"""``mnemic project forget`` on PostgreSQL under other writers (issue 26).

The removal is one transaction under the advisory locks every writer of the store takes
first: another host holding one makes the removal wait; a writer that queued behind the
removal gets the lock once the rows are gone and is refused (``removed``), writing no
row of the store again.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from _backends import PostgresKit
from mnemic.backends.postgres.curated import PROJECT_TABLES, PostgresBackend
from mnemic.backends.postgres.db import Database
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, stored_projects
from mnemic.errors import ProjectScopeError
from mnemic.home import Home
from mnemic.ops.project_stores import find_store, remove_store

pytestmark = pytest.mark.postgres


def _waiting(kit: PostgresKit, n: int) -> None:
    """Until ``n`` sessions wait for an advisory lock (a condition, not a sleep)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        rows = kit.sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
        if rows[0][0] >= n:
            return
        time.sleep(0.01)
    raise AssertionError(f"{n} waiting session(s) never showed in pg_locks")


def test_a_writer_queued_behind_the_removal_is_refused_and_writes_no_row(
    home_path: Path, pg_dsn: str, pg_schema: str, tmp_path: Path
) -> None:
    import psycopg

    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    proj = tmp_path / "work" / "api"
    proj.mkdir(parents=True)
    home = Home.open(kit.write_config(lock_timeout=30))
    store = open_project(home, proj, create=True)
    writer = Memory.open(store, origin="cli")
    assert writer.add("memory", "API tests run with tox.").written
    pid = store.project.id
    key = PostgresBackend(Database(kit.dsn, schema=kit.schema), project=pid).lock_key("memory")
    outcome: dict[str, Any] = {}

    def remove() -> None:
        outcome["removal"] = remove_store(home, find_store(home, pid), force=True)

    def write() -> None:
        try:
            writer.add("memory", "API deploys on tag.")
        except ProjectScopeError as exc:
            outcome["writer"] = exc

    with psycopg.connect(kit.dsn, autocommit=True) as other:  # another host's write
        other.execute("SELECT pg_advisory_lock(%s)", (key,))
        remover = threading.Thread(target=remove)
        remover.start()
        _waiting(kit, 1)  # the removal waits for the lock
        late = threading.Thread(target=write)
        late.start()
        _waiting(kit, 2)  # and the writer behind it
        other.execute("SELECT pg_advisory_unlock(%s)", (key,))
    remover.join(60)
    late.join(60)
    assert outcome["removal"].removed
    refused = outcome["writer"]
    assert refused.reason == "removed" and "Nothing was saved" in refused.message
    assert stored_projects(Home.open(home_path)) == []
    for table in (*PROJECT_TABLES, "projects"):
        column = "id" if table == "projects" else "project"
        found = kit.sql(f"SELECT count(*) FROM {{s}}.{table} WHERE {column} = %s", (pid,))
        assert found[0][0] == 0, table
