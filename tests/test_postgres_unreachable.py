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
    r = cli("memory", "doctor", env={"MNEMIC_HOME": str(home_path), "MNEMIC_STORE": NOWHERE})
    assert r.exit_code == 1
    assert "Cannot reach PostgreSQL" in r.output and "Connection refused" in r.output
    assert "move the file by hand" not in r.output
    assert "fix what it names, then run mnemic memory doctor again" in r.output
