"""``mnemic sessions`` and ``mnemic tool session_search``, run as a user runs them: the
escape sequences of an imported session against a real process's stdout, the rest in this
process (:func:`run_here`: what is checked is the command's answer, not its process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnemic.testing import FakeLLMServer

from . import run_here, run_mnemic

LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo" / "locomo-dev.json"


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    return path


def seed(home: Path, tmp_path: Path) -> None:
    rows: list[dict[str, object]] = [
        {"session_id": "s-deploy", "role": "user", "content": "deploy v2.3.1 to staging",
         "timestamp": 1_700_000_000, "title": "Staging deploy", "source": "cli"},
        {"session_id": "s-deploy", "role": "assistant",
         "content": "Done; mailed ops@example.com", "timestamp": 1_700_000_060},
        {"session_id": "s-zh", "role": "user", "content": "我们讨论了会话历史的设计",
         "timestamp": 1_700_100_000, "source": "telegram"},
        {"session_id": "s-zh", "role": "assistant", "content": "会话历史存在数据库里",
         "timestamp": 1_700_100_060},
        {"session_id": "s-old", "role": "user", "content": "an ancient conversation",
         "timestamp": 1_000_000_000},
        {"broken": True},
    ]  # fmt: skip
    # a history without vectors (the import would embed a first share): these tests are
    # about lexical search and what semantic search says when it cannot run
    seed_file = str(write_jsonl(tmp_path / "seed.jsonl", rows))
    r = run_here(home, "sessions", "import", "--no-embed", seed_file)
    assert r.returncode == 0, r.stderr
    assert "Imported 5 messages in 3 sessions" in r.stdout
    assert "no session_id" in r.stdout


def test_import_list_show_search_stats(home_path: Path, tmp_path: Path) -> None:
    seed(home_path, tmp_path)
    r = run_here(home_path, "sessions", "list")
    assert r.returncode == 0 and "s-deploy" in r.stdout and "Staging deploy" in r.stdout
    listed = json.loads(run_here(home_path, "sessions", "list", "--json").stdout)
    assert [s["id"] for s in listed] == ["s-zh", "s-deploy", "s-old"]

    r = run_here(home_path, "sessions", "show", "s-deploy")
    assert r.returncode == 0 and "deploy v2.3.1 to staging" in r.stdout and "assistant" in r.stdout
    shown = json.loads(run_here(home_path, "sessions", "show", "s-deploy", "--json").stdout)
    assert shown["session"]["title"] == "Staging deploy" and len(shown["messages"]) == 2

    r = run_here(home_path, "sessions", "search", "会话")
    assert r.returncode == 0 and "s-zh" in r.stdout
    found = json.loads(
        run_here(home_path, "sessions", "search", "ops@example.com", "--json").stdout
    )
    assert found["success"] and found["results"][0]["session_id"] == "s-deploy"
    assert ">>>" in found["results"][0]["snippet"]
    none = run_here(home_path, "sessions", "search", "xylophone")
    assert none.returncode == 0 and "No matching" in none.stdout
    filtered = json.loads(
        run_here(
            home_path, "sessions", "search", "会话 OR deploy", "--source", "cli", "--json"
        ).stdout
    )
    assert [x["session_id"] for x in filtered["results"]] == ["s-deploy"]

    stats = json.loads(run_here(home_path, "sessions", "stats", "--json").stdout)
    assert stats["sessions"] == 3 and stats["messages"] == 5
    assert "sessions" in run_here(home_path, "sessions", "stats").stdout


def test_imported_text_never_reaches_the_terminal_with_an_escape_sequence(
    home_path: Path, tmp_path: Path
) -> None:
    # clears the screen, retitles the window; the Persian word's joiner is spelling, kept
    evil = "deploy \x1b[2J done \x1b]0;pwned\x07 ok می\u200cخواهم"
    rows: list[dict[str, object]] = [
        {"session_id": "s-evil", "role": "user", "content": evil, "timestamp": 1_700_000_000},
    ]
    r = run_mnemic(home_path, "sessions", "import", str(write_jsonl(tmp_path / "e.jsonl", rows)))
    assert r.returncode == 0, r.stderr
    for args in (("sessions", "show", "s-evil"), ("sessions", "search", "deploy")):
        out = run_mnemic(home_path, *args).stdout
        assert "\x1b" not in out and "\x07" not in out, args
        assert "\ufffd[2J" in out and "\ufffd]0;pwned\ufffd" in out, args
        assert "می\u200cخواهم" in out, args
    shown = json.loads(run_mnemic(home_path, "sessions", "show", "s-evil", "--json").stdout)
    assert shown["messages"][0]["content"] == evil  # stored as it came; only display changes


_CONTROLS = ("\x1b", "\x07", "\x9b", "\x7f")
"""ESC, BEL, the 8-bit CSI and DEL: none may reach the terminal."""


def test_session_fields_from_a_file_never_reach_the_terminal_as_control_characters(
    home_path: Path, tmp_path: Path
) -> None:
    """Every stored field the CLI prints (id, source, title, model, end reason, parent,
    participant and tool names, the import report's reasons and places) comes from a file
    someone else wrote; a title in rich's markup stays text (no hyperlink escape)."""
    call = {"id": "c1", "type": "function", "function": {"name": "grep\x1b[7m", "arguments": "{}"}}
    rows: list[dict[str, object]] = [
        {"session_id": "s-\x1b[2Jx", "role": "user", "content": "about quokkas",
         "timestamp": 1_700_000_000, "source": "src\x1b[31m\x9b1m",
         "title": "[link=https://evil.example]Quokka notes[/link]",
         "model": "model\x1b]0;pwned\x07", "parent_session_id": "parent\x1b[1m",
         "end_reason": "done\x1b[5m\x7f", "ended_at": 1_700_000_100},
        {"session_id": "s-\x1b[2Jx", "role": "assistant", "content": "quokkas smile",
         "name": "bot\x1b[4m", "tool_calls": [call], "timestamp": 1_700_000_060},
    ]  # fmt: skip
    r = run_here(home_path, "sessions", "import", str(write_jsonl(tmp_path / "e.jsonl", rows)))
    assert r.returncode == 0, r.stderr
    transcript = tmp_path / "odd.jsonl"
    write_jsonl(transcript, [{"type": "\x1b]0;retitled\x07", "sessionId": "t"}])
    report = run_here(home_path, "sessions", "import", "--format", "claude", str(transcript))
    assert report.returncode == 0 and "\ufffd]0;retitled\ufffd line" in report.stdout

    sid = "s-\x1b[2Jx"
    outputs = {"import": report.stdout}
    for args in (("sessions", "list"), ("sessions", "show", sid), ("sessions", "search",
                 "quokkas"), ("sessions", "stats"), ("sessions", "export", sid),
                 ("sessions", "show", sid, "--json"), ("sessions", "list", "--json")):  # fmt: skip
        done = run_here(home_path, *args)
        assert done.returncode == 0, (args, done.stderr)
        outputs[" ".join(args)] = done.stdout
    for args, out in outputs.items():
        assert not [c for c in _CONTROLS if c in out], args
    shown = outputs[f"sessions show {sid}"]
    for text in ("s-\ufffd[2Jx", "src\ufffd[31m\ufffd1m", "model\ufffd]0;pwned\ufffd",
                 "continues parent\ufffd[1m", "ended (done\ufffd[5m\ufffd)", "(bot\ufffd[4m)",
                 "[calls grep\ufffd[7m]"):  # fmt: skip
        assert text in shown, text
    assert "[link=https://evil.example]Quokka notes[/link]" in outputs["sessions list"]
    exported = [json.loads(line) for line in outputs[f"sessions export {sid}"].splitlines()]
    assert exported[0]["source"] == "src\x1b[31m\x9b1m"  # the data itself is kept
    assert "\\u009b" in outputs[f"sessions show {sid} --json"]


def test_export_import_delete_prune(home_path: Path, tmp_path: Path) -> None:
    seed(home_path, tmp_path)
    exported = run_here(home_path, "sessions", "export", "s-deploy")
    assert exported.returncode == 0
    lines = [json.loads(x) for x in exported.stdout.splitlines()]
    assert lines[0]["title"] == "Staging deploy" and len(lines) == 2
    as_json = json.loads(run_here(home_path, "sessions", "export", "s-deploy", "--json").stdout)
    assert as_json == lines

    other = tmp_path / "other-home"
    (tmp_path / "exp.jsonl").write_text(exported.stdout)
    r = run_here(
        other, "sessions", "import", "--format", "jsonl", str(tmp_path / "exp.jsonl"), "--json"
    )
    assert json.loads(r.stdout)["messages"] == 2

    r = run_here(home_path, "sessions", "delete", "s-deploy", "--yes")
    assert r.returncode == 0 and "Deleted s-deploy (2 messages)" in r.stdout
    r = run_here(home_path, "sessions", "delete", "s-deploy", "--yes")
    assert r.returncode == 1 and "No session 's-deploy'" in r.stderr

    dry = json.loads(
        run_here(
            home_path, "sessions", "prune", "--older-than", "3650", "--dry-run", "--json"
        ).stdout
    )
    assert dry["sessions"] == ["s-old"] and dry["dry_run"]
    r = run_here(home_path, "sessions", "prune", "--older-than", "3650", "--yes")
    assert r.returncode == 0 and "Deleted 1 session " in r.stdout
    assert run_here(home_path, "sessions", "show", "s-old").returncode == 1
    assert run_here(home_path, "sessions", "prune").returncode == 2  # --older-than is required


def test_tool_session_search(home_path: Path, tmp_path: Path) -> None:
    seed(home_path, tmp_path)
    r = run_here(home_path, "tool", "session_search", '{"query": "v2.3.1"}')
    assert r.returncode == 0, r.stderr
    resp = json.loads(r.stdout)
    assert resp["mode"] == "discover" and resp["results"][0]["session_id"] == "s-deploy"
    r = run_here(home_path, "tool", "session_search", "-", stdin='{"session_id": "s-zh"}')
    assert json.loads(r.stdout)["mode"] == "read"
    r = run_here(home_path, "tool", "session_search", "{}")
    assert json.loads(r.stdout)["mode"] == "browse"
    r = run_here(home_path, "tool", "session_search", '{"limit": "lots"}')
    assert r.returncode == 1 and json.loads(r.stdout)["error_code"] == "invalid_argument"
    r = run_here(home_path, "tool", "session_search", "not json")
    assert r.returncode == 1 and "not valid JSON" in json.loads(r.stdout)["error"]
    # the live session named by MNEMIC_SESSION_ID is not "the past"
    r = run_here(
        home_path,
        "tool",
        "session_search",
        '{"query": "v2.3.1"}',
        env={"MNEMIC_SESSION_ID": "s-deploy"},
    )
    assert json.loads(r.stdout)["count"] == 0


def test_summary_through_configured_endpoint(home_path: Path, tmp_path: Path) -> None:
    seed(home_path, tmp_path)
    with FakeLLMServer(["They deployed billing v2.3.1 to staging."]) as server:
        env = {"MNEMIC_LLM_BASE_URL": server.base_url, "MNEMIC_LLM_MODEL": "fake"}
        r = run_here(
            home_path,
            "sessions",
            "search",
            "v2.3.1",
            "--summarize",
            "--json",
            env=env,
        )
        assert r.returncode == 0, r.stderr
        result = json.loads(r.stdout)["results"][0]
        assert result["summary_kind"] == "llm" and "staging" in result["summary"]
        assert server.requests and server.requests[0]["model"] == "fake"
    r = run_here(home_path, "sessions", "search", "v2.3.1", "--summarize", "--json")
    result = json.loads(r.stdout)["results"][0]
    assert result["summary_kind"] == "extractive" and "llm.base_url" in result["summary_note"]


@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not present")
def test_import_locomo_and_claude_directory(home_path: Path, tmp_path: Path) -> None:
    r = run_here(home_path, "sessions", "import", str(LOCOMO), "--json")
    report = json.loads(r.stdout)
    assert report["format"] == "locomo" and report["sessions"] > 100
    root = tmp_path / "projects" / "-x"
    root.mkdir(parents=True)
    write_jsonl(
        root / "abc.jsonl",
        [
            {"type": "user", "sessionId": "abc", "timestamp": "2026-01-01T00:00:00Z",
             "message": {"role": "user", "content": "rename the frobnicator"}},
            {"type": "assistant", "sessionId": "abc", "isSidechain": True,
             "message": {"role": "assistant", "content": "sub"}},
        ],
    )  # fmt: skip
    r = run_here(home_path, "sessions", "import", "--format", "claude", str(tmp_path / "projects"))
    assert r.returncode == 0 and "Imported 1 message in 1 session " in r.stdout
    assert "sidechain (subagent) message" in r.stdout
    r = run_here(home_path, "sessions", "import", "--format", "claude", str(tmp_path / "projects"))
    assert "1 session was imported before and has nothing new" in r.stdout


def test_search_mode_semantic_without_vectors_answers_lexically_with_a_notice(
    home_path: Path, tmp_path: Path
) -> None:
    seed(home_path, tmp_path)
    r = run_here(home_path, "sessions", "search", "staging", "--mode", "semantic", "--json")
    assert r.returncode == 0, r.stderr
    found = json.loads(r.stdout)
    assert found["success"] and found["retrieval"] == "lexical"
    assert found["results"][0]["session_id"] == "s-deploy"
    assert found["results"][0]["matched"] == ["lexical"]
    assert "mnemic sessions embed" in found["notice"]
    shown = run_here(home_path, "sessions", "search", "staging", "--mode", "semantic")
    assert shown.returncode == 0 and "mnemic sessions embed" in shown.stdout
    bad = run_here(home_path, "sessions", "search", "staging", "--mode", "vector")
    assert bad.returncode == 2 and "vector" in bad.stderr
