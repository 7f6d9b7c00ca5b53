"""Losing the database: a clear error for the caller, nothing half-applied, reconnection."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool
from mnemic.errors import StorageError
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store

pytestmark = pytest.mark.postgres


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again: nothing listens there


def test_unreachable_server_is_a_clear_error(home_path: Path) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text(
        f'store = "postgresql://test@127.0.0.1:{_dead_port()}/postgres"\n'
        '[postgres]\nschema = "nowhere"\nconnect_timeout = 0.5\n',
        encoding="utf-8",
    )
    with pytest.raises(StorageError) as info:
        Memory.open(home_path).add("memory", "x")
    assert "Cannot reach PostgreSQL" in info.value.to_llm()
    assert "Nothing was changed" in info.value.to_llm()
    mem = Memory.open(home_path)  # a session still starts: without the memory blocks
    assert set(mem.snapshot.errors) == {"memory", "user"}
    resp = run_memory_tool(mem, {"action": "add", "target": "memory", "content": "x"})
    assert resp["success"] is False and "Cannot reach PostgreSQL" in resp["error"]


def test_schema_not_migrated_says_what_to_run(home_path: Path, pg_dsn: str) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text(
        f'store = "{pg_dsn}"\n[postgres]\nschema = "never_migrated"\n', encoding="utf-8"
    )
    with pytest.raises(StorageError) as info:
        Memory.open(home_path).add("memory", "x")
    assert "mnemic db migrate" in info.value.to_llm()


def test_migrate_on_start(home_path: Path, pg_dsn: str) -> None:
    import psycopg

    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text(
        f'store = "{pg_dsn}"\n[postgres]\nschema = "auto_migrated"\nmigrate_on_start = true\n',
        encoding="utf-8",
    )
    try:
        Memory.open(home_path).add("memory", "x")
        assert Memory.open(home_path).entries("memory") == ["x"]
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            conn.execute("DROP SCHEMA IF EXISTS auto_migrated CASCADE")


def _terminate_mnemic_connections(dsn: str) -> int:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        # The timeout makes the server wait until each backend has exited (its socket is
        # closed), so the pool's check sees the loss; without it the backend may still be
        # finishing when the next call takes the connection (a race, not a reconnect bug).
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid, 30000) FROM pg_stat_activity "
            "WHERE application_name = 'mnemic' AND pid <> pg_backend_pid()"
        ).fetchall()
    assert all(r[0] for r in rows)  # every one is gone
    return len(rows)


def test_dropped_connections_are_replaced(pg_home: Any, pg_dsn: str) -> None:
    home = Home.open(pg_home())
    mem = Memory.open(home.root)
    store = open_store(home)
    mem.add("memory", "before")
    sid = store.start_session(id="s")
    assert _terminate_mnemic_connections(pg_dsn) >= 1  # a server restart, a proxy timeout...
    mem.add("memory", "after")  # the pool notices the dead connection and reconnects
    store.append_message(sid, NewMessage("user", "still recording"))
    assert Memory.open(home.root).entries("memory") == ["before", "after"]
    assert store.get_session("s").message_count == 1
