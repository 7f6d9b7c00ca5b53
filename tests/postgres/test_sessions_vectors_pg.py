"""Message vectors on PostgreSQL: this server has no pgvector, so the bytea fallback is
chosen, and it keeps, searches and unlinks vectors as SQLite does (stand-in embedder)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemic.embedding.standin import StandinEmbedder
from mnemic.home import Home
from mnemic.sessions import open_store
from mnemic.sessions.search.embed import backfill
from mnemic.sessions.store import NewMessage, SearchFilters

pytestmark = pytest.mark.postgres
pytest.importorskip("numpy")

TALK = [
    ("user", "I adopted a cat named Miso last spring"),
    ("assistant", "Lovely. How is Miso getting on with the dog?"),
    ("tool", "weather: rain in Lisbon"),
    ("user", "We went hiking in the Alps in August"),
    ("assistant", "The Alps in August sound wonderful"),
]


def vector_rows(db: Any) -> dict[int, str]:
    with db.connection() as conn:
        rows = conn.execute(db.sql("SELECT message_id, model FROM {s}.message_vectors"))
        return {int(i): str(m) for i, m in rows.fetchall()}


def test_pg_without_pgvector_uses_the_bytea_table_and_unlinks_vectors_with_their_text(
    pg_home: Callable[..., Path], pg_db: Any
) -> None:
    from mnemic.backends.postgres.vectors import pgvector_available

    assert not pgvector_available(pg_db)  # not installable on these machines
    home = Home.open(pg_home())
    e = StandinEmbedder()
    with open_store(home) as store:
        sources = {}
        for source in ("cli", "cron"):
            sid = store.start_session(source=source)
            ids = store.append_messages(sid, [NewMessage(r, t) for r, t in TALK])
            sources[source] = (sid, ids)
        assert backfill(store, e, batch=3).done == 8
        assert store.vectors.use_pgvector() == "exact"
        status = store.vectors.status(e.model_id)
        assert (status.embedded, status.total, status.stale) == (8, 8, False)
        q = e.embed_queries(["hiking in the Alps"])[0]
        hits = store.vectors.search(q, e.model_id, SearchFilters(sources=("cron",)), 2)
        cron_ids = sources["cron"][1]
        assert {i for i, _ in hits} == {cron_ids[3], cron_ids[4]}
        # forgetting unlinks the message's vector and the next one's (its passage)
        store.forget("named Miso")
        left = vector_rows(pg_db)
        for _, ids in sources.values():
            assert ids[0] not in left and ids[1] not in left and ids[3] in left
        hits = store.vectors.search(q, e.model_id, SearchFilters(), 10)
        assert set(left) == {i for i, _ in hits}
        # deleting a session removes its vectors; the cache follows
        store.delete_session(sources["cli"][0])
        hits = store.vectors.search(q, e.model_id, SearchFilters(), 10)
        assert {i for i, _ in hits} == {cron_ids[3], cron_ids[4]}
        assert set(vector_rows(pg_db)) == {cron_ids[3], cron_ids[4]}
        # a backfill re-embeds what forgetting unlinked (the messages that are left)
        assert backfill(store, e).done == 1  # cron's assistant reply (its user turn is gone)


def test_pg_model_change_replaces_vectors_and_never_mixes(
    pg_home: Callable[..., Path], pg_db: Any
) -> None:
    home = Home.open(pg_home())
    old, new = StandinEmbedder(model_id="old-1"), StandinEmbedder(model_id="new-2")
    with open_store(home) as store:
        sid = store.start_session(source="cli")
        store.append_messages(sid, [NewMessage(r, t) for r, t in TALK])
        backfill(store, old)
        q = new.embed_queries(["Miso"])[0]
        assert store.vectors.search(q, new.model_id, SearchFilters(), 10) == []
        backfill(store, new)
        assert set(vector_rows(pg_db).values()) == {"new-2"}
        assert len(store.vectors.search(q, new.model_id, SearchFilters(), 10)) == 4


def test_pg_a_schema_embedded_before_migration_14_gets_its_words_from_a_backfill(
    pg_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Migration 14 on a schema whose messages were embedded at version 13: the word
    tables come empty, the messages count as missing their words, and a backfill (what
    ``mnemic sessions embed`` runs) links them, embedding nothing but the words."""
    import uuid

    from mnemic.backends.postgres import migrations
    from mnemic.backends.postgres.db import Database
    from mnemic.backends.postgres.sessions import PostgresSessionStore
    from mnemic.sessions.sql.vector_cache import encode
    from mnemic.sessions.sql.words import message_words

    db = Database(pg_dsn, schema="v13_" + uuid.uuid4().hex[:10])
    e = StandinEmbedder()
    try:
        with monkeypatch.context() as m:
            m.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:13])
            m.setattr(migrations, "SCHEMA_VERSION", 13)
            assert migrations.migrate(db)[-1] == 13
        with db.raw_connection() as conn:
            conn.execute(db.sql(
                "INSERT INTO {s}.sessions (id, source, started_at, last_active, message_count) "
                "VALUES ('old', 'cli', 1, 1, 2)"
            ))  # fmt: skip
            for seq, (role, text) in enumerate(TALK[:2]):
                (mid,) = conn.execute(
                    db.sql(
                        "INSERT INTO {s}.messages (sid, seq, ts, role, content) "
                        "SELECT sid, %s, 1, %s, %s FROM {s}.sessions RETURNING id"
                    ),
                    (seq, role, text),
                ).fetchone()
                conn.execute(
                    db.sql("INSERT INTO {s}.message_vectors VALUES (%s, %s, %s, %s)"),
                    (mid, e.model_id, encode(e.embed_passages([text])[0]), seq + 1),
                )
        # 14 backfills the words (the migrations after it follow in the same call)
        assert migrations.migrate(db)[:1] == [14]
        store = PostgresSessionStore(db)
        assert store.words is not None
        assert (store.words.count(e.model_id), store.words.missing(e.model_id)) == (0, 2)
        made = backfill(store, e)
        assert made.done == 0  # every message had its vector
        wanted = {w for _, t in TALK[:2] for w in message_words(t, None)}
        assert made.words == len(wanted) == store.words.count(e.model_id)
        assert store.words.missing(e.model_id) == 0
        store.close()
    finally:
        with db.raw_connection() as conn:
            conn.execute(db.sql("DROP SCHEMA IF EXISTS {s} CASCADE"))
