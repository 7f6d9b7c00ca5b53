"""PostgreSQL fixtures on top of ``pg_dsn`` and ``pg_schema`` (``tests/conftest.py``: one
throwaway server per test session, one schema per test), and ``make_memory`` on each
backend for the suites here that re-run the main suite's library tests.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from _backends import Kit, pg_config


@pytest.fixture
def pg_db(pg_dsn: str, pg_schema: str) -> Any:
    """A :class:`~mnemic.backends.postgres.db.Database` on this test's schema."""
    from mnemic.backends.postgres.db import Database

    return Database(pg_dsn, schema=pg_schema)


@pytest.fixture
def pg_home(home_path: Path, pg_dsn: str, pg_schema: str) -> Callable[..., Path]:
    """Write the test home's config.toml for the database; return the home."""

    def make(**memory_settings: object) -> Path:
        home_path.mkdir(parents=True, exist_ok=True)
        text = pg_config(pg_dsn, pg_schema, **memory_settings)
        (home_path / "config.toml").write_text(text, encoding="utf-8")
        return home_path

    return make


@pytest.fixture
def make_memory(backend: Kit) -> Callable[..., Any]:
    """``make_memory`` of the main suite, on each backend in turn."""
    return backend.make
