"""A memory write on PostgreSQL sends its statements in three batches: BEGIN, locks and
the targets' rows; the writes with the audit head's lock; the audit record with the
COMMIT. These tests make one statement of a batch fail on the server (a trigger raises,
as a full disk or a broken constraint would) and check that the outcome is still all or
nothing, and that the audit stays consistent with the data: the audit record is the
write's one durable account of itself, so a write whose record the server refuses is
refused. The fold's cache (``journal_fold``) is only a cache: the server refusing it
never fails a write or a read.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemic.curated import fold_cache
from mnemic.curated.memory import Memory
from mnemic.errors import WriteFailed
from mnemic.governance.storage import open_journal
from mnemic.home import Home

pytestmark = pytest.mark.postgres


def _sql(dsn: str, schema: str, text: str) -> list[Any]:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute(text.replace("{s}", f'"{schema}"'))
        return cur.fetchall() if cur.description else []


def _refuse(dsn: str, schema: str, table: str, condition: str) -> None:
    """Make the server refuse inserts and updates of ``table`` rows where ``condition``;
    each refusal is counted (:func:`_refusals`: a sequence, which no rollback undoes)."""
    _sql(dsn, schema, "CREATE SEQUENCE {s}.refusals")
    _sql(
        dsn,
        schema,
        "CREATE FUNCTION {s}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"IF {condition} THEN PERFORM nextval('{{s}}.refusals'); "
        "RAISE EXCEPTION 'refused by a test trigger'; END IF; "
        "RETURN NEW; END $$".replace("{s}", f'"{schema}"'),
    )
    _sql(
        dsn,
        schema,
        f"CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON {{s}}.{table} "
        "FOR EACH ROW EXECUTE FUNCTION {s}.refuse()",
    )


def _refusals(dsn: str, schema: str) -> int:
    """How many rows the trigger of :func:`_refuse` refused so far."""
    row = _sql(dsn, schema, "SELECT last_value, is_called FROM {s}.refusals")[0]
    return int(row[0]) if row[1] else 0


def _allow(dsn: str, schema: str, table: str) -> None:
    _sql(dsn, schema, f"DROP TRIGGER refuse ON {{s}}.{table}")


def _state(dsn: str, schema: str) -> dict[str, Any]:
    return {
        "curated": _sql(dsn, schema, "SELECT target, body, version FROM {s}.curated ORDER BY 1"),
        "versions": _sql(dsn, schema, "SELECT target, seq, body FROM {s}.curated_versions"),
        "ledgers": _sql(dsn, schema, "SELECT target, ledger FROM {s}.curated_provenance"),
        "audit": _sql(dsn, schema, "SELECT seq, line FROM {s}.audit ORDER BY seq"),
        "audit_targets": _sql(dsn, schema, "SELECT * FROM {s}.audit_targets ORDER BY 1"),
    }


def _verify(home: Path) -> Any:
    h = Home.open(home)
    return open_journal(h.root, h.settings).verify()


def test_a_text_the_server_refuses_in_the_write_batch_changes_nothing(
    pg_home: Callable[..., Path], pg_dsn: str, pg_schema: str
) -> None:
    home = pg_home()
    mem = Memory.open(home)
    mem.add("memory", "kept")
    mem.add("user", "user kept")
    before = _state(pg_dsn, pg_schema)
    _refuse(pg_dsn, pg_schema, "curated", "NEW.body LIKE '%doomed%'")
    with pytest.raises(WriteFailed) as failed:
        # both targets: the first statement of the batch succeeds, the second fails
        mem.batch("memory", [mem_op("add", "fine entry"), mem_op("add", "doomed", "user")])
    assert "USER.md" in str(failed.value)  # the text the server refused
    assert "nothing was changed" in failed.value.to_llm().lower()
    assert _refusals(pg_dsn, pg_schema) >= 1
    after = _state(pg_dsn, pg_schema)
    # texts, versions, ledgers and the targets' recorded states are untouched ...
    assert {k: v for k, v in after.items() if k != "audit"} == {
        k: v for k, v in before.items() if k != "audit"
    }
    # ... and the journal gains one record: the refused attempt's, which changed nothing
    assert after["audit"][: len(before["audit"])] == before["audit"]
    (refused,) = [json.loads(line) for _, line in after["audit"][len(before["audit"]) :]]
    assert (refused["result"], refused["error"]) == ("failed", "write_failed")
    assert "changes" not in refused and refused["before"] == refused["after"]
    _allow(pg_dsn, pg_schema, "curated")
    assert mem.add("memory", "after").written  # the connection is usable again
    assert Memory.open(home).entries("memory") == ["kept", "after"]
    report = _verify(home)
    assert report.ok and report.outside_changes == ()


def test_an_audit_record_the_server_refuses_refuses_the_write_and_changes_nothing(
    pg_home: Callable[..., Path], pg_dsn: str, pg_schema: str
) -> None:
    # The record is the write's one durable account of itself (docs/ARCHITECTURE.md,
    # "The one durable record"): it travels with the COMMIT, so when the server refuses
    # it nothing of the write commits. (Before the journal was that record, the write
    # committed without it and `audit verify` listed the change as unrecorded.)
    home = pg_home()
    mem = Memory.open(home)
    mem.add("memory", "first")
    before = _state(pg_dsn, pg_schema)
    _refuse(pg_dsn, pg_schema, "audit", "true")
    with pytest.raises(WriteFailed) as failed:
        mem.add("memory", "second")
    # the server answered (a refusal, not a lost connection): the outcome is known
    assert "nothing was changed" in failed.value.to_llm().lower()
    assert "applied completely or not at all" not in str(failed.value)
    assert _refusals(pg_dsn, pg_schema) >= 1
    assert _state(pg_dsn, pg_schema) == before  # not the text, its version or a record
    _allow(pg_dsn, pg_schema, "audit")
    assert mem.add("memory", "third").written  # the connection is usable again
    assert Memory.open(home).entries("memory") == ["first", "third"]
    report = _verify(home)
    assert report.ok and report.outside_changes == ()  # nothing committed unrecorded


def test_a_write_without_a_record_whose_text_the_server_refuses_changes_nothing(
    pg_dsn: str, pg_schema: str, pg_db: Any
) -> None:
    # With no audit record (a bare store), the texts travel with the COMMIT itself: a
    # refusal there is a known outcome, not a connection lost while committing.
    from mnemic.backends.postgres.curated import PostgresBackend
    from mnemic.backends.postgres.migrations import migrate
    from mnemic.config import MemorySettings
    from mnemic.curated.store import CuratedStore, Op

    migrate(pg_db)
    store = CuratedStore(PostgresBackend(pg_db), MemorySettings())
    assert store.apply("memory", [Op("add", "kept")]).written
    before = _state(pg_dsn, pg_schema)
    _refuse(pg_dsn, pg_schema, "curated", "NEW.body LIKE '%doomed%'")
    with pytest.raises(WriteFailed) as failed:
        store.apply("memory", [Op("add", "doomed")])
    assert "MEMORY.md" in str(failed.value)
    assert "applied completely or not at all" not in str(failed.value)
    assert _refusals(pg_dsn, pg_schema) >= 1
    assert _state(pg_dsn, pg_schema) == before


def test_a_fold_cache_the_server_refuses_never_fails_a_write_or_a_read(
    pg_home: Callable[..., Path],
    pg_dsn: str,
    pg_schema: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Provenance is folded from the journal; the `journal_fold` row only caches the fold
    # (written back, on a connection of its own, by a reader that folded records past
    # it). A cache the server refuses stays as it was, and nothing else notices: the
    # next reader folds the records after it.
    home = pg_home()
    mem = Memory.open(home)
    mem.add("memory", "cached")
    mem.provenance("memory")  # a read: the fold is cached
    cached = _sql(pg_dsn, pg_schema, "SELECT ident, body FROM {s}.journal_fold")
    assert len(cached) == 1
    _refuse(pg_dsn, pg_schema, "journal_fold", "true")
    caplog.set_level(logging.INFO, logger="mnemic")
    assert mem.add("memory", "not cached").written
    listed = dict(mem.provenance("memory"))
    assert _refusals(pg_dsn, pg_schema) >= 1  # the cache was written back, and refused
    assert "fold cache" in caplog.text
    assert _sql(pg_dsn, pg_schema, "SELECT ident, body FROM {s}.journal_fold") == cached
    assert list(listed) == ["cached", "not cached"]
    first, second = listed["cached"], listed["not cached"]
    assert second.actor == first.actor != "unknown"
    assert first.updated is not None and second.updated is not None
    assert second.updated >= first.updated
    assert mem.journal is not None
    fold_cache.forget_cached(mem.journal)  # the next reader starts from the stale row
    assert dict(Memory.open(home).provenance("memory")) == listed
    report = _verify(home)
    assert report.ok and report.outside_changes == ()


def mem_op(action: str, content: str, target: str | None = None) -> Any:
    from mnemic.curated.store import Op

    return Op(action, content, target=target)
