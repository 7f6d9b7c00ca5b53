"""Approval, the pending queue and the audit journal with their storage in PostgreSQL.

The approval suite's library-level tests run here against a home whose ``store`` is the
database (the suite's ``configure`` is wrapped to add the store lines); tests that read
the queue's or the journal's files are restated with SQL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import test_governance_approval as approval_suite
from mnemic.curated import Memory, Op
from mnemic.governance.storage import open_journal
from mnemic.home import Home
from mnemic.ops import PendingQueue

from .conftest import pg_config

pytestmark = pytest.mark.postgres


@pytest.fixture(autouse=True)
def _store_in_database(monkeypatch: pytest.MonkeyPatch, pg_dsn: str, pg_schema: str) -> None:
    original = approval_suite.configure

    def configure(home: Path, **approval: Any) -> None:
        original(home, **approval)
        text = (home / "config.toml").read_text(encoding="utf-8")
        (home / "config.toml").write_text(pg_config(pg_dsn, pg_schema) + text, encoding="utf-8")

    monkeypatch.setattr(approval_suite, "configure", configure)

    def file_bytes(home: Path, name: str = "MEMORY.md") -> bytes | None:
        target = "user" if name == "USER.md" else "memory"
        rows = _sql(pg_dsn, pg_schema, "SELECT body FROM {s}.curated WHERE target = %s", (target,))
        return rows[0][0].encode("utf-8") if rows else None

    def break_queue(home: Path) -> None:  # the queue's table is gone: every use fails
        _sql(pg_dsn, pg_schema, "ALTER TABLE {s}.pending RENAME TO pending_broken")

    monkeypatch.setattr(approval_suite, "file_bytes", file_bytes)
    monkeypatch.setattr(approval_suite, "break_queue", break_queue)


for _name in (
    "test_every_policy_and_actor",
    "test_background_batch_with_any_removal_is_staged_whole",
    "test_ask_with_an_approver",
    "test_ask_falls_back_to_stage_when_the_prompt_fails",
    "test_ask_never_prompts_for_unattended_or_mcp_actors",
    "test_nothing_to_change_needs_no_approval",
    "test_a_write_that_could_never_apply_is_refused_when_staged",
    "test_approve_applies_through_the_normal_path",
    "test_approval_after_the_entry_was_removed_fails_cleanly",
    "test_approval_when_the_file_filled_up_meanwhile",
    "test_approval_when_the_entry_changed_but_still_matches",
    "test_approve_all_and_reapproval_is_harmless",
    "test_cross_target_batch_is_staged_and_approved_as_one",
    "test_pending_writes_expire",
    "test_unreadable_queue_fails_closed_for_unattended_actors",
    "test_fail_open_is_configurable_per_actor",
    "test_a_full_queue_is_an_approval_failure",
    "test_blocked_refusal_names_the_setting",
    "test_staging_errors_are_the_same_typed_errors",
    "test_two_approvers_apply_a_write_once",
):
    globals()[_name] = getattr(approval_suite, _name)


def _sql(dsn: str, schema: str, text: str, params: tuple[Any, ...] = ()) -> list[Any]:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute(text.replace("{s}", f'"{schema}"'), params)
        return cur.fetchall() if cur.description else []


def test_queue_and_journal_live_in_the_database(
    home_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    approval_suite.configure(home_path, memory_background="stage")
    bg = Memory.open(home_path, actor="background", origin="review")
    res = bg.add("memory", "staged fact")
    assert res.staged and res.pending_id
    assert not (home_path / "pending").exists() and not (home_path / "audit").exists()
    rows = _sql(pg_dsn, pg_schema, "SELECT subsystem, id FROM {s}.pending")
    assert rows == [("memory", res.pending_id)]
    queue = PendingQueue.open(home_path)
    [outcome] = queue.approve(res.pending_id)
    assert outcome.ok and Memory.open(home_path).entries("memory") == ["staged fact"]
    assert _sql(pg_dsn, pg_schema, "SELECT count(*) FROM {s}.pending") == [(0,)]
    home = Home.open(home_path)
    actions = [(r["action"], r["result"]) for r in open_journal(home.root, home.settings).records()]
    assert actions == [("add", "staged"), ("approve", "ok")]


def test_unreadable_record_is_reported_not_fatal(
    home_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    approval_suite.configure(home_path, memory_background="stage")
    Memory.open(home_path, actor="background", origin="review").add("memory", "x")
    _sql(pg_dsn, pg_schema, "UPDATE {s}.pending SET record = '{not json'")
    queue = PendingQueue.open(home_path)
    assert queue.records() == []
    [(where, reason)] = queue.problems()
    assert "pending/memory/" in where and "not a pending record" in reason


def _journal(home_path: Path) -> Any:
    home = Home.open(home_path)
    return open_journal(home.root, home.settings)


def _three_records(home_path: Path) -> None:
    approval_suite.configure(home_path)
    mem = Memory.open(home_path)
    for text in ("one", "two", "three"):
        mem.add("memory", text)


def test_intact_journal_verifies(home_path: Path) -> None:
    _three_records(home_path)
    report = _journal(home_path).verify()
    assert report.ok and report.records == 3


def test_edited_row_is_detected(home_path: Path, pg_dsn: str, pg_schema: str) -> None:
    _three_records(home_path)
    _sql(
        pg_dsn,
        pg_schema,
        "UPDATE {s}.audit SET line = replace(line, '\"add\"', '\"remove\"') WHERE seq = 2",
    )
    report = _journal(home_path).verify()
    assert not report.ok and report.first_bad_line == 2 and "edited" in (report.problem or "")


def test_deleted_rows_are_detected(home_path: Path, pg_dsn: str, pg_schema: str) -> None:
    _three_records(home_path)
    _sql(pg_dsn, pg_schema, "DELETE FROM {s}.audit WHERE seq = 2")
    report = _journal(home_path).verify()
    assert not report.ok and report.first_bad_line == 2
    _sql(pg_dsn, pg_schema, "DELETE FROM {s}.audit WHERE seq = 3")
    report = _journal(home_path).verify()
    assert not report.ok and "truncated" in (report.problem or "")


def test_forget_user_in_the_database(home_path: Path, pg_dsn: str, pg_schema: str) -> None:
    from mnemic.ops import forget_user

    approval_suite.configure(home_path, memory_background="stage")
    mem = Memory.open(home_path)
    mem.add("user", "Name: Ada")
    mem.replace("user", "Ada", "Name: Ada L.")
    Memory.open(home_path, actor="background", origin="review").batch(
        "user", [Op("remove", old_text="Ada")], allow_empty=True
    )
    report = forget_user(home_path)
    assert report.pending and report.files
    for table in ("curated", "curated_versions", "curated_backups", "pending"):
        assert _sql(pg_dsn, pg_schema, f"SELECT count(*) FROM {{s}}.{table}") == [(0,)]
    assert _journal(home_path).verify().ok


def test_forget_sessions_in_the_database(home_path: Path, pg_dsn: str, pg_schema: str) -> None:
    from mnemic.ops import forget_sessions
    from mnemic.sessions import NewMessage, open_store

    approval_suite.configure(home_path)
    with open_store(Home.open(home_path)) as store:
        sid = store.start_session(id="s", title="about the secret-project")
        store.append_messages(
            sid, [NewMessage("user", "the SECRET-PROJECT code"), NewMessage("user", "other")]
        )
    report = forget_sessions(home_path, "secret-project")
    assert (report.messages, report.sessions) == (1, 1)
    rows = _sql(pg_dsn, pg_schema, "SELECT content FROM {s}.messages")
    assert rows == [("other",)]
    assert _sql(pg_dsn, pg_schema, "SELECT title FROM {s}.sessions") == [(None,)]
