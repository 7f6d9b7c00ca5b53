"""Importing a session that is already stored adds the messages it lacks, by message key:
a Claude Code transcript that grew, a JSONL file that grew, a database created before
message keys were kept."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from _cli import cli
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.backends.files.sqlite.schema import FOLD, MIGRATIONS, SCHEMA_VERSION
from mnemic.sessions import SearchFilters, import_path, parse_query
from mnemic.sessions.index.fields import FieldIndexer
from mnemic.sessions.index.segment import DEFAULT_SEGMENTER


def claude_lines(start: int, stop: int, session: str = "cc1") -> list[dict[str, Any]]:
    base = {"sessionId": session, "cwd": "/repo", "gitBranch": "main"}
    out: list[dict[str, Any]] = []
    for i in range(start, stop):
        if i % 2 == 0:
            out.append(
                {
                    **base,
                    "type": "user",
                    "uuid": f"{session}-u{i}",
                    "timestamp": f"2026-01-02T03:{i // 60:02d}:{i % 60:02d}Z",
                    "message": {"role": "user", "content": f"question {i} about widgets"},
                }
            )
        else:
            out.append(
                {
                    **base,
                    "type": "assistant",
                    "uuid": f"{session}-u{i}",
                    "timestamp": f"2026-01-02T03:{i // 60:02d}:{i % 60:02d}Z",
                    "message": {
                        "role": "assistant",
                        "model": "claude-x",
                        "content": [
                            {"type": "text", "text": f"answer {i}"},
                            {
                                "type": "tool_use",
                                "id": f"t{i}",
                                "name": "Bash",
                                "input": {"command": f"ls {i}"},
                            },
                        ],
                    },
                }
            )
            out.append(
                {
                    **base,
                    "type": "user",
                    "uuid": f"{session}-r{i}",
                    "message": {
                        "role": "user",
                        "content": [
                            {"type": "tool_result", "tool_use_id": f"t{i}", "content": "ok"}
                        ],
                    },
                }
            )
    return out  # fmt: skip


def append_lines(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")


def contents(store: SQLiteSessionStore, sid: str) -> list[tuple[int, str, str]]:
    return [(m.seq, m.role, m.content or "") for m in store.messages(sid)]


@pytest.fixture
def store(tmp_path: Path) -> Any:
    s = SQLiteSessionStore(tmp_path / "sessions.db", durable=False)
    yield s
    s.close()


def test_a_grown_claude_transcript_adds_only_its_new_messages(
    store: SQLiteSessionStore, tmp_path: Path
) -> None:
    path = tmp_path / "cc1.jsonl"
    append_lines(path, claude_lines(0, 10))
    first = import_path(store, path)
    assert (first.sessions, first.messages) == (1, 15)
    before = contents(store, "cc1")
    append_lines(path, claude_lines(10, 16))
    grown = import_path(store, path)
    assert (grown.sessions, grown.extended, grown.messages) == (0, 1, 9)
    after = contents(store, "cc1")
    assert after[: len(before)] == before  # nothing old touched, nothing twice
    assert [c for _, _, c in after[len(before) :]][:2] == ["question 10 about widgets", "answer 11"]
    assert [s for s, _, _ in after] == list(range(len(after)))
    assert store.get_session("cc1").message_count == 24
    assert len(store.search(parse_query("widgets"), SearchFilters(), limit=100)) == 8
    again = import_path(store, path)
    assert (again.messages, again.existing) == (0, 1)
    assert contents(store, "cc1") == after


def test_jsonl_without_message_ids_is_keyed_by_position_and_content(
    store: SQLiteSessionStore, tmp_path: Path
) -> None:
    path = tmp_path / "chat.jsonl"
    rows = [{"session_id": "j", "role": "user", "content": "same words"} for _ in range(3)]
    append_lines(path, rows)
    assert import_path(store, path).messages == 3  # repeated text is kept: positions differ
    append_lines(path, [{"session_id": "j", "role": "assistant", "content": "a reply"}])
    grown = import_path(store, path)
    assert grown.messages == 1 and grown.extended == 1
    assert [c for _, _, c in contents(store, "j")] == ["same words"] * 3 + ["a reply"]
    # a line carrying message_id is keyed by it, wherever it sits
    append_lines(path, [{"session_id": "j", "role": "user", "content": "x", "message_id": 7}])
    import_path(store, path)
    rows_by_key = store._read("SELECT source_id FROM messages ORDER BY seq")
    assert rows_by_key[-1][0] == "7" and rows_by_key[0][0].startswith("0:")


def v1_rows() -> list[tuple[str, str, str | None, str | None]]:
    """``(role, content, tool_calls, tool_call_id)`` of the messages version 1 stored for
    ``claude_lines(0, 10)``."""
    out: list[tuple[str, str, str | None, str | None]] = []
    for line in claude_lines(0, 10):
        msg = line["message"]
        if isinstance(msg["content"], str):
            out.append(("user", msg["content"], None, None))
        elif line["type"] == "assistant":
            text, use = msg["content"]
            arguments = json.dumps(use["input"])
            call = {"id": use["id"], "type": "function",
                    "function": {"name": "Bash", "arguments": arguments}}  # fmt: skip
            out.append(("assistant", text["text"], json.dumps([call], separators=(",", ":")), None))
        else:
            out.append(("tool", "ok", None, msg["content"][0]["tool_use_id"]))
    return out


def _v1_database(path: Path) -> None:
    """A sessions.db as the schema of version 1 made it, with sessions imported the way
    that version did (no message keys)."""
    conn = sqlite3.connect(path, isolation_level=None)
    fields = FieldIndexer(DEFAULT_SEGMENTER)
    conn.create_function("mnemic_fts_body", 1, fields.body, deterministic=True)
    conn.create_function("mnemic_fts_aux", 4, fields.aux, deterministic=True)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(
        "CREATE TABLE _migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at REAL)"
    )
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")

    class Spec:
        tokenizer = "porter unicode61 remove_diacritics 2 tokenchars '-_.@/:+~#%?=&'"
        segmenter_key = f"{DEFAULT_SEGMENTER.id}/{DEFAULT_SEGMENTER.version}"

    number, name, step = MIGRATIONS[0]
    assert number == 1
    conn.execute("BEGIN")
    step(conn, Spec())
    conn.execute("INSERT INTO _migrations VALUES (1, ?, 0)", (name,))
    conn.execute(
        "INSERT INTO sessions(id, source, title, started_at, model, last_active, metadata, "
        "message_count) VALUES ('cc1', 'claude-code', NULL, 1, 'claude-x', 1, '{}', 15)"
    )
    for n, row in enumerate(v1_rows()):
        conn.execute(
            "INSERT INTO messages(sid, seq, role, content, tool_calls, tool_call_id, ts, "
            "tokens) VALUES (1, ?, ?, ?, ?, ?, 1, 1)",
            (n, *row),
        )
    conn.execute(FOLD)
    conn.execute("DELETE FROM fts_pending")
    conn.execute("COMMIT")
    conn.close()


def test_a_database_of_the_old_schema_migrates_and_merges_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    _v1_database(db)
    store = SQLiteSessionStore(db)  # migrates to the current version
    try:
        assert store.stats().schema_version == SCHEMA_VERSION
        assert len(store.messages("cc1")) == 15
        assert {m.is_error for m in store.messages("cc1")} == {None}  # no flag was kept then
        assert len(store.search(parse_query("widgets"), SearchFilters(), limit=100)) == 5
        path = tmp_path / "cc1.jsonl"
        append_lines(path, claude_lines(0, 16))  # the transcript, grown since
        report = import_path(store, path)
        assert (report.extended, report.messages) == (1, 9), report.to_dict()
        assert len(store.messages("cc1")) == 24
        keys = store._read("SELECT COUNT(*) FROM messages WHERE source_id IS NULL")
        assert keys[0][0] == 0  # the old messages were matched and now carry their key
        assert import_path(store, path).messages == 0
    finally:
        store.close()


def test_cli_reimport_of_a_grown_transcript(home_path: Path, tmp_path: Path) -> None:
    """What ``mnemic sessions import`` says of a transcript imported before, in-process
    (three real processes were 1.3 s of CPU; ``tests/e2e/test_sessions_cli.py`` runs the
    command as a process of its own)."""
    root = tmp_path / "projects" / "-repo"
    root.mkdir(parents=True)
    append_lines(root / "cc1.jsonl", claude_lines(0, 4))
    env = {"MNEMIC_HOME": str(home_path)}

    def run() -> str:
        r = cli("sessions", "import", str(tmp_path / "projects"), env=env)
        assert r.exit_code == 0, r.stderr
        return r.stdout

    assert "Imported 6 messages in 1 session " in run()
    append_lines(root / "cc1.jsonl", claude_lines(4, 6))
    out = run()
    assert "Imported 3 messages in 1 session " in out
    assert "1 of those sessions was imported before and gained 3 new messages" in out
    assert "has nothing new" in run()
