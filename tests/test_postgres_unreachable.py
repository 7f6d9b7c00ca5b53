"""A PostgreSQL URL that does not answer: one refusal with the server's reason, soon; no
server is needed (port 1 of this machine refuses every connection)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from _cli import cli
from mnemic.backends.postgres.db import Database
from mnemic.errors import StorageError

NOWHERE = "postgresql://127.0.0.1:1/x"


def test_an_unreachable_server_is_refused_once_with_its_reason(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """`MNEMIC_STORE=postgresql://127.0.0.1:1/x mnemic memory show` printed psycopg_pool's
    'error connecting in ...' warning (two lines) at every background attempt, then a
    refusal whose reason was "couldn't get a connection after 5.00 sec", once per file, each
    after its own full wait (memory show 12 s, memory doctor 31 s)."""
    db = Database(NOWHERE, connect_timeout=1.0)
    try:
        with caplog.at_level(logging.INFO, logger="psycopg.pool"):
            with pytest.raises(StorageError) as first, db.connection():
                pass
            with pytest.raises(StorageError) as again, db.connection():
                pass
        said = str(first.value)
        assert said.startswith("Cannot reach PostgreSQL at postgresql://127.0.0.1:1/x")
        assert "Connection refused" in said and "couldn't get a connection" not in said
        assert "MNEMIC_STORE" in said and "Nothing was changed" in said
        # the second is the first's refusal, given without waiting on the pool again
        assert str(again.value) == said and again.value.__cause__ is None
        assert not [r for r in caplog.records if "error connecting" in r.getMessage()]
    finally:
        db.pool.close(timeout=1.0)


def test_other_pools_warnings_still_pass(caplog: pytest.LogCaptureFixture) -> None:
    record = logging.LogRecord(
        "psycopg.pool", logging.WARNING, __file__, 1, "error connecting in %r: %s",
        ("their-pool", OSError("refused")), None,
    )  # fmt: skip
    with caplog.at_level(logging.WARNING, logger="psycopg.pool"):
        logging.getLogger("psycopg.pool").handle(record)
    assert [r.getMessage() for r in caplog.records] == ["error connecting in 'their-pool': refused"]


def test_doctor_does_not_send_a_person_to_repair_a_file_for_an_unreachable_server(
    home_path: Path,
) -> None:
    # the store waits connect_timeout once for a server that refuses (docs/postgres.md):
    # a second, not the default five, here
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text("[postgres]\nconnect_timeout = 1.0\n")
    r = cli("memory", "doctor", env={"MNEMIC_HOME": str(home_path), "MNEMIC_STORE": NOWHERE})
    assert r.exit_code == 1
    assert "Cannot reach PostgreSQL" in r.output and "Connection refused" in r.output
    assert "within 1s" in r.output  # the setting was read: the wait was a second
    assert "move the file by hand" not in r.output
    assert "fix what it names, then run mnemic memory doctor again" in r.output


def test_a_pool_closed_by_its_user_is_opened_again_for_the_next_database() -> None:
    """The pool is shared per process and URL: once a caller closed it (``db.pool.close()``,
    as the first test here does), every later :class:`Database` of the same URL and
    settings in that process failed with "the pool ... is already closed" instead of
    reaching (or failing to reach) the server."""
    first = Database(NOWHERE, connect_timeout=1.0)
    first.pool.close(timeout=1.0)
    later = Database(NOWHERE, connect_timeout=1.0)
    try:
        with pytest.raises(StorageError) as refused, later.connection():
            pass
        assert "Cannot reach PostgreSQL" in str(refused.value), str(refused.value)
        assert "already closed" not in str(refused.value)
    finally:
        later.pool.close(timeout=1.0)
