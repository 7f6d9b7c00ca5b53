"""Importers (JSONL, OpenAI messages, Claude Code, LoCoMo) and export round trips."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.errors import ImportFailed
from mnemic.sessions import ImportProgress, SearchFilters, export_session, import_path, parse_query
from mnemic.sessions.importing.importers import detect_format

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo-dev.json"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteSessionStore]:
    s = SQLiteSessionStore(tmp_path / "sessions.db", durable=False)
    yield s
    s.close()


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text(
        "\n".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in rows)
        + "\n",
        encoding="utf-8",
    )
    return path


def found(store: SQLiteSessionStore, text: str) -> list[str]:
    return sorted({h.session_id for h in store.search(parse_query(text), SearchFilters())})


def test_jsonl_messages(store: SQLiteSessionStore, tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "m.jsonl",
        [
            {"session_id": "a", "role": "user", "content": "hello pelican", "timestamp": 10,
             "source": "telegram", "title": "Birds"},
            {"session_id": "b", "role": "user", "content": "other",
             "timestamp": "2026-05-01T10:00:00Z"},
            {"session_id": "a", "role": "assistant", "content": "pelicans fish", "timestamp": 11},
            "this is not json",
            {"session_id": "a", "role": "narrator", "content": "x"},
            {"role": "user", "content": "no session"},
            {"session_id": "a", "role": "user", "content": ""},
            [1, 2],
            "",
        ],
    )  # fmt: skip
    progress: list[ImportProgress] = []
    report = import_path(store, path, progress=progress.append)
    assert report.format == "jsonl"
    assert (report.sessions, report.messages) == (2, 3)
    reasons = dict(report.skipped)
    assert reasons == {
        "line is not valid JSON": 1,
        "missing or unknown role": 1,
        "no session_id": 1,
        "empty message": 1,
        "line is not a JSON object": 1,
    }
    assert report.examples["line is not valid JSON"].startswith("m.jsonl:4 (Expecting value")
    a = store.get_session("a")
    assert a.source == "telegram" and a.title == "Birds" and a.message_count == 2
    assert a.started_at == 10.0
    assert store.get_session("b").started_at == 1777629600.0
    assert found(store, "pelican") == ["a"]
    assert progress[-1].finished and progress[-1].fraction == 1.0
    assert progress[-1].messages == 3 and progress[-1].bytes_done == path.stat().st_size
    again = import_path(store, path)
    assert again.sessions == 0 and again.existing == 2 and again.messages == 0


def test_export_round_trip(store: SQLiteSessionStore, tmp_path: Path) -> None:
    sid = store.start_session(id="orig", source="cli", title="T", model="m", metadata={"k": 1})
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": '{"q": 1}'}}
    from mnemic.sessions import NewMessage

    store.append_messages(
        sid,
        [
            NewMessage("user", "question about 超时", timestamp=5.0),
            NewMessage("assistant", None, tool_calls=[call], timestamp=6.0),
            NewMessage("tool", "answer", tool_call_id="c", tool_name="f", timestamp=7.0),
        ],
    )
    store.end_session(sid, "user_exit", ended_at=9.0)
    records = list(export_session(store, sid))
    assert records[0]["title"] == "T" and records[0]["metadata"] == {"k": 1}
    path = write_jsonl(tmp_path / "export.jsonl", records)
    other = SQLiteSessionStore(tmp_path / "other.db")
    report = import_path(other, path)
    assert report.messages == 3
    a, b = store.get_session(sid), other.get_session(sid)
    assert (b.title, b.model, b.source, b.end_reason, b.ended_at) == (
        a.title, a.model, a.source, a.end_reason, a.ended_at,
    )  # fmt: skip
    assert [m.to_dict() | {"id": 0} for m in other.messages(sid)] == [
        m.to_dict() | {"id": 0} for m in store.messages(sid)
    ]
    other.close()


@pytest.mark.parametrize("shape", ["list", "object", "list_of_objects", "jsonl"])
def test_openai_messages(store: SQLiteSessionStore, tmp_path: Path, shape: str) -> None:
    conv = [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": [{"type": "text", "text": "describe"},
                                      {"type": "image_url", "image_url": {"url": "x"}}]},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "1", "type": "function",
                         "function": {"name": "lookup", "arguments": "{\"q\": \"walrus\"}"}}]},
        {"role": "tool", "tool_call_id": "1", "content": "walrus facts"},
        {"role": "assistant", "content": "Walruses are large."},
        {"role": "martian", "content": "??"},
    ]  # fmt: skip
    path = tmp_path / "conv.json"
    if shape == "list":
        path.write_text(json.dumps(conv))
    elif shape == "object":
        path.write_text(json.dumps({"messages": conv, "title": "Walrus"}))
    elif shape == "list_of_objects":
        path.write_text(json.dumps([{"messages": conv}, {"messages": conv[:2]}, {"nope": 1}]))
    else:
        write_jsonl(path, [{"messages": conv}, {"messages": conv[:2]}])
    report = import_path(store, path, format="auto" if shape != "jsonl" else "openai")
    assert report.format == "openai"
    assert report.skipped["missing or unknown role"] >= 1
    assert found(store, "walrus")
    sid = found(store, "walrus")[0]
    msgs = store.messages(sid)
    assert msgs[1].content == "describe\n[image]"
    assert msgs[2].tool_calls and msgs[3].tool_call_id == "1"
    again = import_path(store, path, format="openai")
    assert again.sessions == 0 and again.existing >= 1


def _claude_lines(session: str) -> list[dict[str, Any]]:
    base = {"sessionId": session, "cwd": "/repo", "gitBranch": "main", "version": "2.0"}
    return [
        {"type": "summary", "summary": "Fix flaky test", "leafUuid": "u9"},
        {**base, "type": "user", "timestamp": "2026-01-02T03:04:05Z",
         "message": {"role": "user", "content": "the test_login is flaky"}},
        {**base, "type": "assistant", "timestamp": "2026-01-02T03:04:06Z",
         "message": {"role": "assistant", "model": "claude-x", "content": [
             {"type": "thinking", "thinking": "hmm"},
             {"type": "text", "text": "Let me look."},
             {"type": "tool_use", "id": "tu1", "name": "Bash",
              "input": {"command": "pytest -k login"}},
         ]}},
        {**base, "type": "user", "timestamp": "2026-01-02T03:04:07Z",
         "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "tu1",
              "content": [{"type": "text", "text": "1 failed"}]},
         ]}},
        {**base, "type": "user", "isSidechain": True,
         "message": {"role": "user", "content": "sub"}},
        {**base, "type": "user", "isMeta": True, "message": {"role": "user", "content": "meta"}},
        {**base, "type": "file-history-snapshot"},
        {**base, "type": "assistant", "timestamp": "2026-01-02T03:05:00Z",
         "message": {"role": "assistant",
                     "content": [{"type": "text", "text": "Fixed the race."}]}},
    ]  # fmt: skip


def test_claude_code_transcripts(store: SQLiteSessionStore, tmp_path: Path) -> None:
    root = tmp_path / "projects"
    (root / "-repo").mkdir(parents=True)
    write_jsonl(root / "-repo" / "s1.jsonl", _claude_lines("s1"))
    write_jsonl(root / "-repo" / "s2.jsonl", [*_claude_lines("s2"), "{broken"])
    assert detect_format(root) == "claude"
    report = import_path(store, root)
    assert report.format == "claude" and report.files == 2 and report.sessions == 2
    assert report.skipped["sidechain (subagent) message"] == 2
    assert report.skipped["meta message"] == 2
    assert report.skipped["thinking block"] == 2
    assert report.skipped["line is not valid JSON"] == 1
    info = store.get_session("s1")
    assert info.source == "claude-code" and info.title == "Fix flaky test"
    assert info.model == "claude-x" and info.metadata["gitBranch"] == "main"
    roles = [m.role for m in store.messages("s1")]
    assert roles == ["user", "assistant", "tool", "assistant"]
    calls = store.messages("s1")[1].tool_calls
    assert calls and calls[0]["function"]["name"] == "Bash"
    assert found(store, "pytest") == ["s1", "s2"]  # tool-call arguments are searchable
    assert found(store, "race") == ["s1", "s2"]


@pytest.mark.parametrize("size", [200_000, 17 << 20])
def test_a_transcript_whose_first_line_is_long_is_still_known(tmp_path: Path, size: int) -> None:
    """A first message with a pasted image (its base64 on the first line) is longer than
    the bytes the guess reads; the file is still known as a Claude Code transcript, and a
    Codex file with a long first record as Codex."""
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                         "data": "A" * size}}  # fmt: skip
    first = {"type": "user", "message": {"role": "user", "content": [image]},
             "sessionId": "s1", "uuid": "u1", "timestamp": "2026-01-02T03:04:00Z"}  # fmt: skip
    path = tmp_path / "s1.jsonl"
    write_jsonl(path, [first, *_claude_lines("s1")])
    assert detect_format(path) == "claude"
    codex = tmp_path / "rollout.jsonl"
    meta = {"timestamp": "2026-01-15T10:00:00Z", "type": "session_meta",
            "payload": {"id": "c1", "instructions": "x" * size}}  # fmt: skip
    write_jsonl(codex, [meta])
    assert detect_format(codex) == "codex"


def test_a_tool_output_over_the_line_limit_is_kept_shortened(
    store: SQLiteSessionStore, tmp_path: Path
) -> None:
    """A 20 MB tool result on one transcript line: the message keeps the first 4 MiB and
    says how much was left out; the report names the line; the lines after it import."""
    lines = _claude_lines("s1")
    huge = "x" * (20 << 20)
    lines[3]["message"]["content"][0]["content"][0]["text"] = huge
    report = import_path(store, write_jsonl(tmp_path / "s1.jsonl", lines), format="claude")
    reason = "part of a text left out (a line over 16 MiB keeps 4 MiB of each text)"
    assert report.skipped[reason] == 1 and report.examples[reason] == "s1.jsonl:4"
    tool = store.messages("s1")[2]
    assert tool.role == "tool" and tool.content is not None
    kept, _, note = tool.content.partition("\n[\u2026 ")
    assert kept == "x" * (4 << 20)
    assert (
        note == f"{(20 << 20) - (4 << 20):,} more bytes left out: mnemic keeps 4,194,304 "
        "bytes of each text of a line over 16,777,216 bytes]"
    )
    assert [m.content for m in store.messages("s1")][-1] == "Fixed the race."


@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not present")
def test_locomo(store: SQLiteSessionStore) -> None:
    report = import_path(store, LOCOMO)
    assert report.format == "locomo" and report.sessions > 100
    info = store.get_session("locomo-conv-26-s1")
    assert info.title == "conv-26 session 1" and info.source == "locomo"
    first = store.messages("locomo-conv-26-s1")[0]
    assert first.name == "Caroline" and first.role == "user"
    assert "locomo-conv-26-s1" in found(store, "LGBTQ support group")
    captions = [
        m for m in store.messages("locomo-conv-26-s1") if "shares a photo" in (m.content or "")
    ]
    assert captions


def test_bad_inputs(store: SQLiteSessionStore, tmp_path: Path) -> None:
    with pytest.raises(ImportFailed):
        import_path(store, tmp_path / "missing.jsonl")
    odd = tmp_path / "odd.txt"
    odd.write_text("just words\n")
    with pytest.raises(ImportFailed, match="format"):
        import_path(store, odd)
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2, 3]")
    report = import_path(store, bad, format="openai")
    assert report.sessions == 0 and report.skipped
    assert import_path(store, bad, format="locomo").skipped["sample without a conversation"] == 3
    obj = tmp_path / "obj.json"
    obj.write_text('{"a": 1}')
    with pytest.raises(ImportFailed, match="list of LoCoMo samples"):
        import_path(store, obj, format="locomo")
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes(
        b'{"session_id": "x", "role": "user", "content": "caf\xe9"}\n'
        b'{"session_id": "x", "role": "user", "content": "fine"}\n'
    )
    report = import_path(store, latin1, format="jsonl")
    assert report.skipped == {"line is not valid UTF-8": 1} and report.messages == 1
    assert report.examples["line is not valid UTF-8"] == "latin1.jsonl:1 (byte 52)"


def test_replace_and_source_override(store: SQLiteSessionStore, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "m.jsonl", [{"session_id": "a", "role": "user", "content": "v1"}])
    import_path(store, path)
    write_jsonl(path, [{"session_id": "a", "role": "user", "content": "v2 edited"}])
    report = import_path(store, path, replace=True, source="backup")
    assert report.replaced == 1 and report.sessions == 1
    assert store.messages("a")[0].content == "v2 edited"
    assert store.get_session("a").source == "backup"
