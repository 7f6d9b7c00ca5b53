"""A short-lived process on PostgreSQL (a CLI call, a hook): what a curated write loads,
and what is left when it exits.

A process pays for every module it imports twice: at start-up, and again at exit, where
the interpreter's last collections walk every object those imports made (a PostgreSQL
writer took about 2.7 times the CPU of a files writer to exit). A curated write needs
the curated backend, the audit journal and the schema check, never the session search.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.e2e import run_mnemic

from _backends import pg_config

pytestmark = pytest.mark.postgres

SESSION_SEARCH = (
    "mnemic.sessions.sql",
    "mnemic.backends.postgres.sessions",
    "mnemic.backends.postgres.fulltext",
    "mnemic.backends.postgres.lexer",
    "mnemic.backends.postgres.vectors",
    "sqlite3",
)


def _imported(stderr: str) -> set[str]:
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:") and line.count("|") == 2
    }


def test_a_curated_write_loads_nothing_of_the_session_search(
    home_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text(pg_config(pg_dsn, pg_schema), encoding="utf-8")
    done = run_mnemic(
        home_path,
        "memory",
        "add",
        "The staging database is rebuilt nightly.",
        env={"PYTHONPROFILEIMPORTTIME": "1"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    modules = _imported(done.stderr)
    assert "mnemic.backends.postgres.curated" in modules  # it did write to the database
    loaded = {m for m in modules if any(m == p or m.startswith(f"{p}.") for p in SESSION_SEARCH)}
    assert loaded == set()
    shown = run_mnemic(home_path, "memory", "show")
    assert "rebuilt nightly" in shown.stdout
