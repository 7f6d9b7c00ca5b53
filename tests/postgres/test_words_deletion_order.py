"""PostgreSQL: a writer of the chat's words and a deletion of many messages take the
messages' row locks in the same order (id order) before the words' counter, so the one
waits for the other and neither is aborted as a deadlock (mend 12).

Real connections; the steps are ordered by a third transaction holding a message's row
lock (the gate) and by ``pg_stat_activity`` (who waits for a lock), never by sleeping.
Before: the deletion deleted its messages one by one, each deletion's trigger taking the
words' counter, so it held the counter while it went on to a message the writer had
locked, and the writer, holding that message, waited for the counter: PostgreSQL aborted
one of them."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import psycopg
import pytest

from _backends import pg_config
from mnemic.embedding.standin import StandinEmbedder
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store
from mnemic.sessions.search.embed import embed_pending
from mnemic.sessions.sql.words import message_words

pytestmark = pytest.mark.postgres

STANDIN = StandinEmbedder()

TEXTS = [
    "the wombat sleeps under the zzgone porch",  # deleted, its words linked before
    "the kayak is red",  # its words put while the deletion runs
    "the otter swims past the zzgone dock",  # deleted, its words put meanwhile
    "the heron waits",
]


def _waiting(watch: psycopg.Connection[Any], schema: str) -> int:
    """Statements on ``schema`` waiting for a lock."""
    row = watch.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
        "AND datname = current_database() AND query LIKE %s",
        (f"%{schema}%",),
    ).fetchone()
    return int(row[0]) if row else 0


def _start(work: Callable[[], object], failed: list[BaseException]) -> threading.Thread:
    def run() -> None:
        try:
            work()
        except BaseException as exc:  # reported by the test
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _until(thread: threading.Thread, check: Callable[[], bool]) -> None:
    """Until ``check`` holds (the thread got where it waits) or the thread ended."""
    while thread.is_alive() and not check():
        thread.join(0.01)


def _race(
    dsn: str, schema: str, gate_id: int, put: Callable[[], object], delete: Callable[[], object]
) -> None:
    """Start ``put`` while a gate transaction holds message ``gate_id``'s row, then
    ``delete`` once the writer waits for it; open the gate once both wait (the writer is
    first in line). Neither may fail."""
    failed: list[BaseException] = []
    with psycopg.connect(dsn) as gate, psycopg.connect(dsn, autocommit=True) as watch:
        sql = f'SELECT id FROM "{schema}".messages WHERE id = %s FOR UPDATE'
        gate.execute(sql, (gate_id,))
        writer = _start(put, failed)
        _until(writer, lambda: _waiting(watch, schema) >= 1)
        deleter = _start(delete, failed)
        _until(deleter, lambda: _waiting(watch, schema) >= 2)
        gate.commit()
        writer.join()
        deleter.join()
    assert [str(e) for e in failed] == []


def _embedded(home: Path) -> tuple[Any, list[int]]:
    """The store holding TEXTS as session ``a``, each with a vector (no words yet)."""
    store = open_store(Home.open(home))
    store.start_session(id="a", started_at=1_750_000_000.0, source="cli")
    ids = store.append_messages("a", [NewMessage("user", t) for t in TEXTS])
    assert store.vectors is not None and store.words is not None
    embed_pending(store.vectors, STANDIN, store.vectors.pending(STANDIN.model_id))
    return store, ids


def _put(store: Any, ids: list[int], which: Sequence[int]) -> Callable[[], object]:
    """Put the words of TEXTS[k] for each k in ``which`` (``ids``: their messages)."""
    held = [(ids[k], message_words(TEXTS[k], None)) for k in which]
    return lambda: store.words.put(STANDIN.model_id, held, STANDIN.embed_queries)


@pytest.fixture
def home(home_path: Path, pg_dsn: str, pg_schema: str) -> Path:
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(pg_config(pg_dsn, pg_schema), encoding="utf-8")
    return home_path


def test_forgetting_many_messages_while_their_words_are_put_is_no_deadlock(
    home: Path, pg_dsn: str, pg_schema: str
) -> None:
    """Words put for messages 2 and 3 while forgetting deletes 1 and 3 (1's words were
    linked before, so deleting it takes the words' counter); the gate holds 3."""
    store, ids = _embedded(home)
    with store, open_store(Home.open(home)) as other:
        _put(store, ids, [0])()
        _race(pg_dsn, pg_schema, ids[2], _put(store, ids, [1, 2]), lambda: other.forget("zzgone"))
        left = store._read("SELECT id FROM {s}.messages ORDER BY id")
        assert [r[0] for r in left] == [ids[1], ids[3]]
        linked = store._read("SELECT message_id FROM {s}.message_words ORDER BY message_id")
        assert [r[0] for r in linked] == [ids[1]]  # the deleted messages' words went
        refs = store._read("SELECT word, refs FROM {s}.chat_words ORDER BY word")
        assert {str(w) for w, _ in refs} == message_words(TEXTS[1], None)
        assert all(int(n) == 1 for _, n in refs)


def test_deleting_a_session_while_its_words_are_put_is_no_deadlock(
    home: Path, pg_dsn: str, pg_schema: str
) -> None:
    """Words put for every message of a session while it is deleted, the table holding
    its rows in reverse id order (a DELETE reads them in its plan's order); the gate
    holds message 2."""
    store, ids = _embedded(home)
    with store, open_store(Home.open(home)) as other:
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            # rows written again, last first (as the index's counts are): the table holds
            # them in reverse id order, and with fresh statistics a DELETE of the session
            # (the whole table) reads it in that order
            table = f'"{pg_schema}".messages'
            for i in reversed(ids[:-1]):
                conn.execute(f"UPDATE {table} SET tokens = tokens WHERE id = %s", (i,))
            conn.execute(f"ANALYZE {table}")
            plan = conn.execute(f"EXPLAIN DELETE FROM {table} WHERE sid = sid").fetchall()
            assert "Seq Scan" in str(plan)
            scanned = conn.execute(f"SELECT id FROM {table} WHERE sid = sid").fetchall()
            assert [r[0] for r in scanned] == ids[::-1]
        every = range(len(TEXTS))
        _race(pg_dsn, pg_schema, ids[1], _put(store, ids, every), lambda: other.delete_session("a"))
        assert store._read("SELECT count(*) FROM {s}.messages")[0][0] == 0
        assert store._read("SELECT count(*) FROM {s}.message_words")[0][0] == 0
        assert store._read("SELECT count(*) FROM {s}.chat_words")[0][0] == 0
