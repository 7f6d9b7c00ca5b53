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
    home = pg_home()

    def reset() -> None:
        with pg_db.connection() as conn:
            conn.execute(pg_db.sql("TRUNCATE {s}.message_attachments, {s}.messages, {s}.sessions"))
        seed(home)

    run_kills(home, tmp_path, reset)


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
