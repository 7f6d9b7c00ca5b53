"""``sessions import --replace`` killed or run twice at once, on PostgreSQL: every
session stays whole, old or new, never missing and never twice (the checks of
``test_sessions_replace_crash``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from test_sessions_replace_crash import run_concurrent, run_kills, seed

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def test_pg_replace_import_killed_midway_leaves_every_session_old_or_new(
    pg_home: Callable[..., Path], pg_db: Any, tmp_path: Path
) -> None:
    """Before each kill the stored copies are put back by copying their rows from a
    schema beside (a few statements in the server), not imported again through the
    library: ``run_kills`` checks them whole each time all the same."""
    home = pg_home()
    seed(home)
    kept = f'"{pg_db.schema}_seeded"'
    with pg_db.connection() as conn:
        conn.execute(f"CREATE SCHEMA {kept}")
        for table in _SEEDED:
            conn.execute(pg_db.sql(f"CREATE TABLE {kept}.{table} AS SELECT * FROM {{s}}.{table}"))

    def reset() -> None:
        with pg_db.connection() as conn, conn.transaction():
            conn.execute(pg_db.sql("TRUNCATE " + ", ".join(f"{{s}}.{t}" for t in _SEEDED)))
            for table in reversed(_SEEDED):  # sessions before the messages that refer to them
                conn.execute(pg_db.sql(f"INSERT INTO {{s}}.{table} SELECT * FROM {kept}.{table}"))

    try:
        run_kills(home, tmp_path, reset)
    finally:
        with pg_db.connection() as conn:
            conn.execute(f"DROP SCHEMA {kept} CASCADE")


_SEEDED = ("message_attachments", "messages", "sessions")
"""The tables ``seed`` writes (and the one that refers to them), in TRUNCATE's order."""


def test_pg_two_concurrent_replace_imports_leave_each_session_once(
    pg_home: Callable[..., Path], tmp_path: Path
) -> None:
    home = pg_home()
    seed(home)
    run_concurrent(home, tmp_path)


def test_pg_two_concurrent_imports_write_each_message_once(
    pg_home: Callable[..., Path], tmp_path: Path
) -> None:
    run_concurrent(pg_home(), tmp_path, replace=False)
