"""PostgreSQL: an import that replaces a session (``existing="replace"``) locks the old
copy's messages in id order before deleting them, as forgetting, deleting a session and
the writers of words and vectors do (:func:`mnemic.sessions.sql.tables.lock_messages`),
so a writer of the chat's words waits for it, or it for the writer, and neither is
aborted as a deadlock (mend 13).

Real connections; the steps are ordered as in ``test_words_deletion_order``: a gate
transaction holds one message's row lock and ``pg_stat_activity`` says who waits, never
sleeping. Before: the replacing batch deleted the old messages in the order its plan read
them (the table holding them last first), so it held message 4 and 3 and waited for 2
while the writer held 1 and 2 and waited for 3; PostgreSQL aborted one of them (the import
would have retried quietly: its retries are turned off here so a deadlock shows).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest

from _backends import pg_config
from mnemic.home import Home
from mnemic.sessions import NewMessage, NewSession, open_store
from postgres.test_words_deletion_order import TEXTS, _embedded, _put, _race

pytestmark = pytest.mark.postgres


def _reverse_table(dsn: str, schema: str, ids: list[int]) -> None:
    """Rewrite the messages last first, so the table holds them in reverse id order and a
    DELETE of the session (the whole table, fresh statistics) reads them in that order."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        table = f'"{schema}".messages'
        for i in reversed(ids[:-1]):
            conn.execute(f"UPDATE {table} SET tokens = tokens WHERE id = %s", (i,))
        conn.execute(f"ANALYZE {table}")
        scanned = conn.execute(f"SELECT id FROM {table} WHERE sid = sid").fetchall()
        assert [r[0] for r in scanned] == ids[::-1]


@pytest.fixture
def home(home_path: Path, pg_dsn: str, pg_schema: str) -> Path:
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(pg_config(pg_dsn, pg_schema), encoding="utf-8")
    return home_path


def test_replacing_a_session_while_its_words_are_put_is_no_deadlock(
    home: Path, pg_dsn: str, pg_schema: str
) -> None:
    """Words put for every message of session ``a`` while an import replaces ``a``; the
    gate holds message 2. The import's retries are off (a deadlock it would retry is a
    failure here, as is the writer's)."""
    store, ids = _embedded(home)
    with store, open_store(Home.open(home)) as other:
        _reverse_table(pg_dsn, pg_schema, ids)
        retried: list[BaseException] = []

        def transient(exc: BaseException) -> bool:
            retried.append(exc)
            return False

        other._transient = transient  # type: ignore[method-assign]
        copy = (NewSession(id="a", started_at=1_750_000_000.0), [NewMessage("user", "the newt")])

        def replace() -> Any:
            return list(other.import_sessions([copy], existing="replace"))

        every = range(len(TEXTS))
        _race(pg_dsn, pg_schema, ids[1], _put(store, ids, every), replace)
        assert [str(e) for e in retried] == []
        left = store._read("SELECT content FROM {s}.messages ORDER BY id")
        assert [r[0] for r in left] == ["the newt"]
        # the old messages' words went with them; the new one has none yet
        assert store._read("SELECT count(*) FROM {s}.message_words")[0][0] == 0
        assert store._read("SELECT count(*) FROM {s}.chat_words")[0][0] == 0
