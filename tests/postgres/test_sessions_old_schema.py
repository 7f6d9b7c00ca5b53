"""A PostgreSQL schema created by version 1 (before message keys) migrates cleanly, and a
grown transcript imported into it adds only its new messages."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemic.sessions import SearchFilters, import_path, parse_query
from test_sessions_import_merge import append_lines, claude_lines, v1_rows

pytestmark = pytest.mark.postgres


@pytest.fixture
def v1_db(pg_dsn: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A schema migrated to version 1 only, holding one Claude Code session imported the
    way version 1 did (rows without a message key)."""
    import psycopg

    from mnemic.backends.postgres import migrations
    from mnemic.backends.postgres.db import Database

    name = "v1_" + uuid.uuid4().hex[:10]
    db = Database(pg_dsn, schema=name)
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:1])
        m.setattr(migrations, "SCHEMA_VERSION", 1)
        assert migrations.migrate(db) == [1]
    with db.raw_connection() as conn:
        conn.execute(db.sql(
            "INSERT INTO {s}.sessions (id, source, started_at, model, last_active, "
            "message_count) VALUES ('cc1', 'claude-code', 1, 'claude-x', 1, 15)"
        ))  # fmt: skip
        for n, row in enumerate(v1_rows()):
            conn.execute(
                db.sql(
                    "INSERT INTO {s}.messages (sid, seq, ts, role, content, tool_calls, "
                    "tool_call_id) SELECT sid, %s, 1, %s, %s, %s, %s FROM {s}.sessions"
                ),
                (n, *row),
            )
    yield db
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def test_pg_old_schema_migrates_and_merges_cleanly(v1_db: Any, tmp_path: Path) -> None:
    from mnemic.backends.postgres.migrations import MIGRATIONS, current_version, migrate
    from mnemic.backends.postgres.sessions import PostgresSessionStore

    assert current_version(v1_db) == 1
    assert migrate(v1_db) == [version for version, _, _ in MIGRATIONS[1:]]
    store = PostgresSessionStore(v1_db)
    store.reindex()  # the rows above were written without vectors
    assert len(store.messages("cc1")) == 15
    assert {m.is_error for m in store.messages("cc1")} == {None}  # no flag was kept then
    assert len(store.search(parse_query("widgets"), SearchFilters(), limit=100)) == 5
    path = tmp_path / "cc1.jsonl"
    append_lines(path, claude_lines(0, 16))
    report = import_path(store, path)
    assert (report.extended, report.messages) == (1, 9), report.to_dict()
    assert [m.seq for m in store.messages("cc1")] == list(range(24))
    unkeyed = store._read("SELECT count(*) FROM {s}.messages WHERE source_id IS NULL")
    assert unkeyed[0][0] == 0
    assert import_path(store, path).messages == 0
    assert len(store.search(parse_query("widgets"), SearchFilters(), limit=100)) == 8
