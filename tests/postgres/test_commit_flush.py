"""A curated write on PostgreSQL releases its locks at its COMMIT, before the commit is
flushed, and answers only once it is flushed (``docs/postgres.md``, "Locks released
before the flush").

The write's transaction commits with ``synchronous_commit = off``; a second transaction
in the same round trip writes one WAL message and commits with the session's own
setting, so the server answers once the WAL up to it is flushed (and replicated, with
synchronous standbys). These tests use a server of their own with a synchronous standby
named that never connects: a commit waiting for it shows where the locks are while a
write waits for its durability.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from _backends import pg_config
from mnemic.curated.memory import Memory
from mnemic.errors import StorageError

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    """A durable throwaway server (synchronous commit on), the test's alone: its
    ``synchronous_standby_names`` is changed."""
    pytest.importorskip("psycopg")
    from _pgserver import find_bindir, start_server

    if find_bindir() is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) not found")
    srv = start_server(durable=True)
    try:
        _sql(srv.dsn, "CREATE ROLE plain LOGIN")
        _sql(srv.dsn, "GRANT CREATE ON DATABASE postgres TO plain")
        yield srv
    finally:
        srv.stop()


def _sql(dsn: str, text: str) -> list[Any]:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute(text)
        return cur.fetchall() if cur.description else []


def _home(root: Path, dsn: str, schema: str) -> Path:
    from mnemic.backends.postgres.db import Database
    from mnemic.backends.postgres.migrations import migrate

    migrate(Database(dsn, schema=schema))
    root.mkdir(parents=True)
    (root / "config.toml").write_text(pg_config(dsn, schema), encoding="utf-8")
    return root


def _until(check: Any, what: str, seconds: float = 60.0) -> None:
    """Poll ``check()`` until it is true (a condition the server reaches by itself)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def _standby(dsn: str, name: str) -> None:
    """Name a synchronous standby (``''``: none) and wait until new sessions see it."""
    _sql(dsn, f"ALTER SYSTEM SET synchronous_standby_names = '{name}'")
    _sql(dsn, "SELECT pg_reload_conf()")
    _until(
        lambda: _sql(dsn, "SHOW synchronous_standby_names")[0][0] == name,
        "the configuration to be reloaded",
    )


def _plain(dsn: str) -> str:
    return dsn.replace("test@", "plain@")


def test_a_write_releases_its_lock_before_its_commit_is_durable_and_answers_after(
    server: Any, tmp_path: Path
) -> None:
    # Before: the write's COMMIT waited for the flush (here, for the standby) with the
    # target's advisory lock held, so every other writer waited for it too.
    from mnemic.backends.postgres.db import Database

    home = _home(tmp_path / "home", server.dsn, "released")
    mem = Memory.open(home)
    assert mem.add("memory", "first").written  # connected; the server asked once
    key = Database(server.dsn, schema="released").key("memory")
    _standby(server.dsn, "nobody")  # every durable commit now waits, forever
    done: list[Any] = []
    writer = threading.Thread(target=lambda: done.append(mem.add("memory", "second")))
    writer.start()
    try:
        _until(
            lambda: (
                _sql(
                    server.dsn,
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE application_name = 'mnemic' AND wait_event = 'SyncRep'",
                )[0][0]
                == 1
            ),
            "the write to wait for its standby",
        )
        # the write waits for its durability, its lock already released ...
        got = _sql(server.dsn, f"SELECT pg_try_advisory_lock({key})")[0][0]
        if got:
            _sql(server.dsn, f"SELECT pg_advisory_unlock({key})")
        assert got, "the target's lock is held while the commit waits to be durable"
        # ... and has not answered yet
        assert writer.is_alive() and not done
    finally:
        _standby(server.dsn, "")
        writer.join(timeout=60)
    assert not writer.is_alive()
    assert done and done[0].written
    assert Memory.open(home).entries("memory") == ["first", "second"]


def test_a_role_that_may_not_send_the_flush_commits_as_before(server: Any, tmp_path: Path) -> None:
    from mnemic.backends.postgres.db import Database

    dsn = _plain(server.dsn)
    home = _home(tmp_path / "home", dsn, "refused")
    _sql(server.dsn, "REVOKE EXECUTE ON FUNCTION pg_logical_emit_message(bool, text, text) "
         "FROM PUBLIC")  # fmt: skip
    try:
        mem = Memory.open(home)
        assert mem.add("memory", "one").written
        assert mem.add("memory", "two").written
        assert Memory.open(home).entries("memory") == ["one", "two"]
        db = Database.for_settings(mem.settings)
        assert db.flushes is False  # asked once, refused: commits keep the locks
    finally:
        _sql(server.dsn, "GRANT EXECUTE ON FUNCTION pg_logical_emit_message(bool, text, text) "
             "TO PUBLIC")  # fmt: skip


def test_a_flush_refused_after_the_commit_leaves_the_outcome_unknown(
    server: Any, tmp_path: Path
) -> None:
    # The write committed (its locks released) and the flush after it failed: the
    # caller must not be told "nothing was changed".
    dsn = _plain(server.dsn)
    home = _home(tmp_path / "home", dsn, "unknown")
    mem = Memory.open(home)
    assert mem.add("memory", "one").written  # the server said yes to the flush
    _sql(server.dsn, "REVOKE EXECUTE ON FUNCTION pg_logical_emit_message(bool, text, text) "
         "FROM PUBLIC")  # fmt: skip
    try:
        with pytest.raises(StorageError) as failed:
            mem.add("memory", "two")
    finally:
        _sql(server.dsn, "GRANT EXECUTE ON FUNCTION pg_logical_emit_message(bool, text, text) "
             "TO PUBLIC")  # fmt: skip
    message = str(failed.value)
    assert "not known" in message and "read the current state" in message
    assert Memory.open(home).entries("memory") == ["one", "two"]  # it had committed
    assert mem.add("memory", "three").written  # the connection is usable again
