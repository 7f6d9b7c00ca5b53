"""``forget --sessions`` on PostgreSQL: no table or column of the schema, and none of the
planner's statistics about it, still holds the text afterwards."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemic.home import Home
from mnemic.ops import forget_sessions
from mnemic.sessions import open_store
from test_governance_privacy import MARK, check_every_field_forgotten, record_every_field

pytestmark = pytest.mark.postgres


def holders(db: Any) -> list[str]:
    """Every ``table.column`` of the schema whose text holds MARK (any case), and every
    column whose statistics (``pg_stats``: common values, histogram bounds) do."""
    found = []
    with db.connection() as conn:
        columns = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = %s ORDER BY 1, 2",
            (db.schema,),
        ).fetchall()
        assert len(columns) > 20  # every table of the schema, not only the sessions
        for table, column in columns:
            row = conn.execute(
                f'SELECT count(*) FROM "{db.schema}"."{table}" '
                f'WHERE strpos(lower("{column}"::text), lower(%s)) > 0',
                (MARK,),
            ).fetchone()
            if row and row[0]:
                found.append(f"{table}.{column}")
        stats = conn.execute(
            "SELECT tablename, attname FROM pg_stats WHERE schemaname = %s AND "
            "strpos(lower(concat(most_common_vals::text, histogram_bounds::text)), "
            "lower(%s)) > 0",
            (db.schema, MARK),
        ).fetchall()
        found.extend(f"pg_stats {t}.{c}" for t, c in stats)
    return found


def test_pg_forget_sessions_leaves_the_text_in_no_column(
    pg_home: Callable[..., Path], pg_db: Any, tmp_path: Path
) -> None:
    home = Home.open(pg_home())
    with open_store(home) as store:
        renamed_from = record_every_field(store, tmp_path)
    with pg_db.connection() as conn:
        conn.execute(pg_db.sql("ANALYZE {s}.sessions"))
        conn.execute(pg_db.sql("ANALYZE {s}.messages"))
    before = holders(pg_db)
    for column in ("sessions.id", "sessions.source", "sessions.model", "sessions.metadata",
                   "sessions.parent_id", "sessions.end_reason", "messages.content",
                   "messages.name", "messages.tool_name", "messages.tool_calls",
                   "messages.tool_call_id", "messages.source_id", "messages.tsv"):  # fmt: skip
        assert column in before
    assert any(h.startswith("pg_stats") for h in before)
    report = forget_sessions(home, MARK)
    assert holders(pg_db) == []
    assert (report.messages, report.sessions) == (6, 3)
    with open_store(home) as store:
        check_every_field_forgotten(store, renamed_from)


def test_a_copy_into_the_database_keeps_what_was_forgotten_out(
    home_path: Path, pg_dsn: str, pg_schema: str, tmp_path: Path
) -> None:
    """The tombstones travel with ``mnemic db copy``: a transcript imported into the
    database after the move does not bring back what was forgotten before it."""
    from mnemic.backends.postgres.copy import copy_memory, open_side
    from mnemic.sessions import import_path

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "claude_code_transcript.jsonl"
    home = Home.open(home_path)
    with open_store(home) as store:
        import_path(store, fixture, format="claude")
    assert forget_sessions(home, "pytest with xdist").messages == 1
    report = copy_memory(
        open_side(str(home_path)), open_side(pg_dsn, schema=pg_schema, migrate=True)
    )
    assert report.verified and report.kinds["tombstones"].copied == 2  # key and fields
    host = tmp_path / "host"
    host.mkdir()
    (host / "config.toml").write_text(
        f'store = "{pg_dsn}"\n[postgres]\nschema = "{pg_schema}"\n', encoding="utf-8"
    )
    with open_store(Home.open(host)) as store:
        again = import_path(store, fixture, format="claude")
        assert (again.messages, again.forgotten) == (0, 1)
        (info,) = store.list_sessions()
        assert info.message_count == 5
