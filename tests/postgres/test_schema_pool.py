"""The schemas ``pg_schema`` hands out (``tests/_pgschemas.py``) are what a fresh migration
leaves: a schema a test wrote into, analysed and advanced the sequences of comes back
under a new name with no row, statistic or sequence value of that test, its functions
naming the new schema; a schema a test changed in shape is dropped, never handed out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from _backends import PostgresKit
from _pgschemas import SchemaPool, rows, shape
from mnemic.curated.memory import Memory

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def pool(pg_dsn: str) -> Iterator[SchemaPool]:
    """A pool of this module's own (the session's is shared with every other test)."""
    made = SchemaPool(pg_dsn)
    yield made
    made.close()


def _sequences(conn: Any, name: str) -> list[tuple[str, int, bool]]:
    out = []
    for (seq,) in conn.execute(
        "SELECT sequencename FROM pg_sequences WHERE schemaname = %s ORDER BY 1", (name,)
    ).fetchall():
        last, called = conn.execute(
            f'SELECT last_value, is_called FROM "{name}"."{seq}"'
        ).fetchone()
        out.append((seq, last, called))
    return out


def _state(pool: SchemaPool, name: str) -> dict[str, Any]:
    """What a test could see of a schema: its shape, rows (the columns made again left
    out), sequences, planner statistics and table counters."""
    conn = pool.conn()
    found = rows(conn, name)
    for table, columns in pool.remade.items():
        for row in found[table]:
            for column in columns:
                row.pop(column)
    stats = conn.execute("SELECT count(*) FROM pg_stats WHERE schemaname = %s", (name,)).fetchone()[
        0
    ]
    return {
        "shape": shape(conn, name),
        "rows": found,
        "sequences": _sequences(conn, name),
        "stats": stats,
    }


def _use(home: Path, dsn: str, schema: str) -> PostgresKit:
    """Write through the library (curated memory by the server's function, a session),
    then analyse every table."""
    kit = PostgresKit(home, dsn, schema)
    kit.write_config()
    mem = Memory.open(home)
    for i in range(30):
        mem.add("memory", f"fact number {i} about the pool")
    kit.sql(
        "INSERT INTO {s}.sessions (id, source, started_at, last_active) "
        "SELECT 's' || g, 'test', g, g FROM generate_series(1, 200) g"
    )
    kit.sql(
        "INSERT INTO {s}.messages (sid, seq, ts, role, content) "
        "SELECT sid, 0, 0, 'user', 'hello pool' FROM {s}.sessions"
    )
    kit.sql("ANALYZE {s}.messages")
    kit.sql("ANALYZE {s}.sessions")
    return kit


def test_a_schema_given_back_is_handed_out_as_a_fresh_migration_leaves_it(
    pool: SchemaPool, pg_dsn: str, tmp_path: Path
) -> None:
    learned, migrated, reused, dropped = pool.shape, pool.migrated, pool.reused, pool.dropped
    first = pool.take()  # learn() migrates two schemas first; then none is migrated
    assert pool.migrated == migrated + (0 if learned else 2) and pool.reused == reused + 1
    fresh = _state(pool, pool.migrate())
    assert _state(pool, first) == fresh
    kit = _use(tmp_path / "a", pg_dsn, first)
    assert kit.sql("SELECT count(*) FROM {s}.curated WHERE clean IS NOT NULL") == [(1,)]
    (generation,) = kit.sql("SELECT generation FROM {s}.audit_head")
    used = _state(pool, first)
    assert used["stats"] > 0 and used["rows"] != fresh["rows"]
    pool.give_back(first)
    second = pool.take()
    assert second != first and pool.reused == reused + 2 and pool.dropped == dropped
    assert pool.conn().execute("SELECT to_regnamespace(%s)", (first,)).fetchone()[0] is None
    assert _state(pool, second) == fresh
    again = PostgresKit(tmp_path / "b", pg_dsn, second)
    assert again.sql("SELECT generation FROM {s}.audit_head") != [generation]
    # the functions name the schema they are in: the server's write works there
    assert again.sql(
        "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
        "WHERE n.nspname = %s AND p.prosrc LIKE %s",
        (second, f"%{first}%"),
    ) == [(0,)]
    _use(tmp_path / "b", pg_dsn, second)
    assert again.sql("SELECT count(*) FROM {s}.curated WHERE clean IS NOT NULL") == [(1,)]
    assert Memory.open(again.home).entries("memory")[:2] == [
        "fact number 0 about the pool",
        "fact number 1 about the pool",
    ]


CHANGES: dict[str, Callable[[PostgresKit], None]] = {
    "table renamed": lambda kit: kit.sql("ALTER TABLE {s}.pending RENAME TO pending_broken"),
    "function dropped": lambda kit: kit.sql("DROP FUNCTION {s}.curated_write"),
    "column added": lambda kit: kit.sql("ALTER TABLE {s}.curated ADD COLUMN extra int"),
    "index added": lambda kit: kit.sql("CREATE INDEX extra ON {s}.curated (body)"),
    "table added": lambda kit: kit.sql("CREATE TABLE {s}.extra (x int)"),
    "privilege granted": lambda kit: kit.sql("GRANT SELECT ON {s}.curated TO PUBLIC"),
    "view elsewhere": lambda kit: kit.sql(
        "CREATE VIEW public.extra_view AS SELECT * FROM {s}.curated"
    ),
    "schema dropped": lambda kit: kit.sql("DROP SCHEMA {s} CASCADE"),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_schema_a_test_changed_is_dropped_not_handed_out(
    pool: SchemaPool, pg_dsn: str, tmp_path: Path, change: str
) -> None:
    first = pool.take()
    CHANGES[change](PostgresKit(tmp_path, pg_dsn, first))
    pool.give_back(first)  # the next schema the pool tries
    dropped = pool.dropped
    second = pool.take()
    assert second != first and shape(pool.conn(), second) == pool.shape
    assert pool.conn().execute("SELECT to_regnamespace(%s)", (first,)).fetchone()[0] is None
    assert pool.dropped == dropped + 1
    pool.give_back(second)
    if change == "view elsewhere":
        assert pool.conn().execute("SELECT to_regclass('public.extra_view')").fetchone() == (None,)
