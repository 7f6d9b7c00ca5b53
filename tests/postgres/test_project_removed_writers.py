"""A PostgreSQL project store's writer after ``mnemic project forget`` / ``move`` (issue 26,
mend20): refused explicitly by the server's write function, which reads the store's
tombstone under the target's lock (migration 15), on the direct path and through the
request queue (``[memory] group_commit = "queue"``), with what happened, when, and what
to do; a store whose rows are simply gone is told apart from a removed one; tombstones
go with ``mnemic gc`` past ``[retention] max_age_days``.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import mnemic.backends.postgres.curated_server as pg_server
from _backends import PostgresKit
from mnemic.backends.postgres.curated import PROJECT_TABLES, PostgresBackend
from mnemic.backends.postgres.db import Database
from mnemic.curated.memory import Memory
from mnemic.curated.scope import ProjectHome, open_project, stored_projects
from mnemic.errors import ProjectScopeError
from mnemic.home import Home
from mnemic.ops import project_stores
from mnemic.ops.project_stores import move_store, remove_store

pytestmark = pytest.mark.postgres


def _answers(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count what the server's write function answered (``removed`` included)."""
    seen: Counter[str] = Counter()
    real = pg_server._answered

    def counted(owner: Any, outcome: str, found: Any, line: Any) -> Any:
        seen[outcome.split(":")[0]] += 1
        return real(owner, outcome, found, line)

    monkeypatch.setattr(pg_server, "_answered", counted)
    return seen


def _waiting(kit: PostgresKit, n: int) -> None:
    """Until ``n`` sessions wait for an advisory lock (a condition, not a sleep)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        rows = kit.sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
        if rows[0][0] >= n:
            return
        time.sleep(0.01)
    raise AssertionError(f"{n} waiting session(s) never showed in pg_locks")


def _store(kit: PostgresKit, tmp_path: Path, **memory: object) -> tuple[Home, ProjectHome, Memory]:
    proj = tmp_path / "work" / "api"
    proj.mkdir(parents=True)
    home = Home.open(kit.write_config(lock_timeout=30, **memory))
    store = open_project(home, proj, create=True)
    writer = Memory.open(store, origin="cli")
    assert writer.add("memory", "API tests run with tox.").written  # the row, recorded
    assert writer.add("memory", "API lints with ruff.").written  # the server decides
    return home, store, writer


def _rows(kit: PostgresKit, pid: str) -> dict[str, int]:
    out = {}
    for table in (*PROJECT_TABLES, "projects"):
        column = "id" if table == "projects" else "project"
        out[table] = kit.sql(f"SELECT count(*) FROM {{s}}.{table} WHERE {column} = %s", (pid,))[0][
            0
        ]
    return out


def test_a_writer_opened_before_the_removal_is_refused_by_the_server_saying_when(
    home_path: Path, pg_dsn: str, pg_schema: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    home, store, writer = _store(kit, tmp_path)
    pid = store.project.id
    removal = remove_store(home, store, force=True)
    assert removal.removed and removal.bundle
    seen = _answers(monkeypatch)
    with pytest.raises(ProjectScopeError) as refused:
        writer.add("memory", "API deploys on tag.")
    err = refused.value
    assert seen == Counter({"removed": 1})  # the server's own answer, no fallback
    assert err.reason == "removed"
    assert f"Project store {pid} was removed at 20" in err.message
    assert "mnemic project forget" in err.message and "Nothing was saved" in err.message
    assert "mnemic import --bundle FILE" in err.message and "removed-projects" in err.message
    assert err.extra["removed_at"].endswith("UTC")
    assert sum(_rows(kit, pid).values()) == 0  # nothing made again


def test_a_writer_queued_behind_the_removal_is_refused_explicitly_not_left_unanswered(
    home_path: Path, pg_dsn: str, pg_schema: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the request queue: the writer leaves its request while another host holds
    the target's lock, behind the removal; the removal deletes the request with the
    store, and the writer, holding the lock next, writes itself and is refused by the
    server (``removed``). Before migration 15 the procedure found its request gone and
    answered nothing (an unknown outcome), which the failed write's look at the catalog
    then told as the generic ``removed``, with no time."""
    import psycopg

    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    home, store, writer = _store(kit, tmp_path, group_commit="queue")
    pid = store.project.id
    key = PostgresBackend(Database(kit.dsn, schema=kit.schema), project=pid).lock_key("memory")
    seen = _answers(monkeypatch)
    outcome: dict[str, Any] = {}

    def remove() -> None:
        outcome["removal"] = remove_store(home, store, force=True)

    def write() -> None:
        try:
            outcome["written"] = writer.add("memory", "API deploys on tag.")
        except Exception as exc:
            outcome["writer"] = exc

    with psycopg.connect(kit.dsn, autocommit=True) as other:  # another host's write
        other.execute("SELECT pg_advisory_lock(%s)", (key,))
        remover = threading.Thread(target=remove)
        remover.start()
        _waiting(kit, 1)  # the removal waits for the lock
        late = threading.Thread(target=write)
        late.start()
        _waiting(kit, 2)  # and the writer behind it, its request left in the queue
        queued = kit.sql("SELECT count(*) FROM {s}.curated_requests WHERE project = %s", (pid,))
        assert queued[0][0] == 1
        other.execute("SELECT pg_advisory_unlock(%s)", (key,))
    remover.join(60)
    late.join(60)
    assert outcome["removal"].removed
    err = outcome.get("writer")
    assert isinstance(err, ProjectScopeError), outcome
    assert err.reason == "removed" and f"{pid} was removed at " in err.message
    assert seen == Counter({"removed": 1})
    assert stored_projects(Home.open(home_path)) == []
    assert sum(_rows(kit, pid).values()) == 0


def test_a_writer_of_the_old_id_queued_behind_a_move_is_refused_naming_the_new_store(
    home_path: Path, pg_dsn: str, pg_schema: str, tmp_path: Path
) -> None:
    """The move deletes the old id's queued requests (it used to re-key them, for a
    holder of the new store to apply a write whose session opened the old one)."""
    import psycopg

    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    home, store, writer = _store(kit, tmp_path, group_commit="queue")
    pid = store.project.id
    new_dir = tmp_path / "work" / "api2"
    new_dir.mkdir()
    key = PostgresBackend(Database(kit.dsn, schema=kit.schema), project=pid).lock_key("memory")
    outcome: dict[str, Any] = {}

    def move() -> None:
        outcome["move"] = move_store(home, store, new_dir, force=True)

    def write() -> None:
        try:
            outcome["written"] = writer.add("memory", "API deploys on tag.")
        except Exception as exc:
            outcome["writer"] = exc

    with psycopg.connect(kit.dsn, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s)", (key,))
        mover = threading.Thread(target=move)
        mover.start()
        _waiting(kit, 1)
        late = threading.Thread(target=write)
        late.start()
        _waiting(kit, 2)
        other.execute("SELECT pg_advisory_unlock(%s)", (key,))
    mover.join(60)
    late.join(60)
    moved = outcome["move"]
    assert moved.moved
    err = outcome.get("writer")
    assert isinstance(err, ProjectScopeError), outcome
    assert err.reason == "removed"
    assert "was moved at 20" in err.message and moved.new_id in err.message
    assert "--project NEWDIR" in err.message
    assert err.extra["moved_to"] == moved.new_id
    requests = kit.sql("SELECT count(*) FROM {s}.curated_requests")
    assert requests[0][0] == 0
    after = Memory.open(open_project(Home.open(home_path), new_dir), origin="cli")
    assert after.entries("memory") == ["API tests run with tox.", "API lints with ruff."]


def test_a_failed_write_to_a_store_whose_rows_were_deleted_by_hand_says_missing_not_removed(
    home_path: Path, pg_dsn: str, pg_schema: str, tmp_path: Path
) -> None:
    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    _, store, writer = _store(kit, tmp_path)
    pid = store.project.id
    for table in PROJECT_TABLES:  # what a person with psql does: no tombstone
        kit.sql(f"DELETE FROM {{s}}.{table} WHERE project = %s", (pid,))
    kit.sql("DELETE FROM {s}.projects WHERE id = %s", (pid,))
    with pytest.raises(ProjectScopeError) as refused:
        writer.remove("memory", "ruff")  # nothing left to match: the write fails
    err = refused.value
    assert err.reason == "missing", err.message
    assert f"Project store {pid} has no rows" in err.message
    assert "no mnemic project forget or move" in err.message
    assert "was removed" not in err.message


def test_a_removed_store_told_as_removed_after_a_failed_write_says_when(
    home_path: Path, pg_dsn: str, pg_schema: str, tmp_path: Path
) -> None:
    """The same failed write on a store `project forget` removed: ``removed``, when."""
    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    home, store, writer = _store(kit, tmp_path)
    remove_store(home, store, force=True)
    with pytest.raises(ProjectScopeError) as refused:
        writer.remove("memory", "ruff")
    assert refused.value.reason == "removed"
    assert f"{store.project.id} was removed at 20" in refused.value.message


def test_move_refused_by_the_catalog_says_what_to_do_next(
    home_path: Path, pg_dsn: str, pg_schema: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The target directory got a store between the look and the move's transaction."""
    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    home, store, _ = _store(kit, tmp_path)
    new_dir = tmp_path / "work" / "api2"
    new_dir.mkdir()
    other = Memory.open(open_project(home, new_dir, create=True), origin="cli")
    assert other.add("memory", "api2 has its own.").written
    monkeypatch.setattr(project_stores, "stored_projects", lambda home: [])  # the look missed it
    with pytest.raises(ProjectScopeError) as refused:
        move_store(home, store, new_dir, force=True)
    err = refused.value
    assert err.reason == "target_has_store"
    assert "Nothing was moved" in err.message
    assert f"--project {store.project.id}" in err.message  # the next step names the store
    assert "mnemic project forget" in err.message


def test_gc_drops_tombstones_past_max_age_and_lists_them_dry(
    home_path: Path, pg_dsn: str, pg_schema: str, tmp_path: Path
) -> None:
    from mnemic.ops.retention import collect_garbage

    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    home, store, writer = _store(kit, tmp_path)
    pid = store.project.id
    remove_store(home, store, force=True)
    key = f"removed_project:{pid}"
    old = time.time() - 91 * 86400
    kit.sql("UPDATE {s}.meta SET value = %s WHERE key = %s", (repr(old), key))
    kit.sql("INSERT INTO {s}.meta (key, value) VALUES ('removed_project:fresh-1', %s)",
            (repr(time.time()),))  # fmt: skip
    dry = collect_garbage(Home.open(home_path), dry_run=True)
    gone = [r for r in dry.removed if r.kind == "tombstone"]
    assert [r.what for r in gone] == [f"project {pid}"]
    assert kit.sql("SELECT count(*) FROM {s}.meta WHERE key = %s", (key,))[0][0] == 1
    done = collect_garbage(Home.open(home_path))
    assert [r.what for r in done.removed if r.kind == "tombstone"] == [f"project {pid}"]
    left = kit.sql("SELECT key FROM {s}.meta WHERE key LIKE 'removed%%' ORDER BY key")
    assert left == [("removed_project:fresh-1",)]
    # past its tombstone, a writer that opened the store long ago makes it again
    assert writer.add("memory", "API deploys on tag.").written


def test_a_writer_whose_combined_read_fails_still_reads_the_tombstone(
    home_path: Path, pg_dsn: str, pg_schema: str, tmp_path: Path
) -> None:
    """The client's path in its careful mode (the combined read failed: a ledger table
    renamed, and the reads go one by one) reads the tombstone too: it used to skip it,
    and a removed store's writer made its rows again."""
    from mnemic.curated.store import Op

    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    home, store, writer = _store(kit, tmp_path)
    pid = store.project.id
    remove_store(home, store, force=True)
    kit.sql("ALTER TABLE {s}.curated_provenance RENAME TO curated_provenance_away")
    try:
        with pytest.raises(ProjectScopeError) as refused:  # a batch: the client's path
            writer.apply("memory", [Op("add", "API deploys on tag."), Op("add", "On Fridays.")],
                         batch=True)  # fmt: skip
    finally:
        kit.sql("ALTER TABLE {s}.curated_provenance_away RENAME TO curated_provenance")
    assert refused.value.reason == "removed"
    assert f"{pid} was removed at 20" in refused.value.message
    assert sum(_rows(kit, pid).values()) == 0
