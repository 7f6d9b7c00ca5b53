"""A memory write on PostgreSQL sends its statements in three batches: BEGIN, locks and
the targets' rows and ledgers; the writes with the audit head's lock (in a savepoint);
the audit record with the COMMIT. These tests make one statement of a batch fail on the
server (a trigger raises, as a full disk or a broken constraint would) and check that
the outcome is still all or nothing, and that the audit stays consistent with the data.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

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
    """Make the server refuse inserts and updates of ``table`` rows where ``condition``."""
    _sql(
        dsn,
        schema,
        "CREATE FUNCTION {s}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"IF {condition} THEN RAISE EXCEPTION 'refused by a test trigger'; END IF; "
        "RETURN NEW; END $$",
    )
    _sql(
        dsn,
        schema,
        f"CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON {{s}}.{table} "
        "FOR EACH ROW EXECUTE FUNCTION {s}.refuse()",
    )


def _allow(dsn: str, schema: str, table: str) -> None:
    _sql(dsn, schema, f"DROP TRIGGER refuse ON {{s}}.{table}")


def _state(dsn: str, schema: str) -> dict[str, Any]:
    return {
        "curated": _sql(dsn, schema, "SELECT target, body, version FROM {s}.curated ORDER BY 1"),
        "versions": _sql(dsn, schema, "SELECT target, seq, body FROM {s}.curated_versions"),
        "ledgers": _sql(dsn, schema, "SELECT target, ledger FROM {s}.curated_provenance"),
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
    assert "nothing was changed" in failed.value.to_llm().lower() or "rolled back" in str(
        failed.value
    )
    assert _state(pg_dsn, pg_schema) == before  # texts, versions and ledgers untouched
    _allow(pg_dsn, pg_schema, "curated")
    assert mem.add("memory", "after").written  # the connection is usable again
    assert Memory.open(home).entries("memory") == ["kept", "after"]
    report = _verify(home)
    assert report.ok and report.outside_changes == ()


def test_an_audit_record_the_server_refuses_leaves_the_write_committed_and_detectable(
    pg_home: Callable[..., Path],
    pg_dsn: str,
    pg_schema: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    home = pg_home()
    mem = Memory.open(home)
    mem.add("memory", "first")
    records = _sql(pg_dsn, pg_schema, "SELECT count(*) FROM {s}.audit")[0][0]
    _refuse(pg_dsn, pg_schema, "audit", "true")
    caplog.set_level(logging.WARNING, logger="mnemic")
    assert mem.add("memory", "second").written  # a failed append never fails the write
    assert "audit record" in caplog.text
    assert _sql(pg_dsn, pg_schema, "SELECT count(*) FROM {s}.audit")[0][0] == records
    _allow(pg_dsn, pg_schema, "audit")
    assert Memory.open(home).entries("memory") == ["first", "second"]
    mem.add("memory", "third")  # recorded again; its "before" shows the gap
    report = _verify(home)
    assert report.ok
    assert len(report.outside_changes) == 1


def test_a_ledger_the_server_refuses_never_fails_the_write(
    pg_home: Callable[..., Path],
    pg_dsn: str,
    pg_schema: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The ledger's upsert travels in the text's statement; when the server refuses it,
    # the batch is undone and the statements go one by one, the ledger in a savepoint:
    # the text is written, the ledger (advisory) is not.
    home = pg_home()
    mem = Memory.open(home)
    mem.add("memory", "kept")
    ledger = _sql(pg_dsn, pg_schema, "SELECT ledger FROM {s}.curated_provenance")
    _refuse(pg_dsn, pg_schema, "curated_provenance", "true")
    caplog.set_level(logging.WARNING, logger="mnemic")
    assert mem.add("memory", "no ledger").written
    assert "provenance of memory not recorded" in caplog.text
    assert _sql(pg_dsn, pg_schema, "SELECT ledger FROM {s}.curated_provenance") == ledger
    assert Memory.open(home).entries("memory") == ["kept", "no ledger"]
    versions = _sql(pg_dsn, pg_schema, "SELECT count(*) FROM {s}.curated_versions")
    assert versions[0][0] == 1  # one version, not two: the undone batch left nothing
    report = _verify(home)
    assert report.ok and report.outside_changes == ()


def mem_op(action: str, content: str, target: str | None = None) -> Any:
    from mnemic.curated.store import Op

    return Op(action, content, target=target)
