"""Tool calls are searchable: their tool, arguments and outcome (ok or error, exit code,
error text) from imported Claude Code transcripts and from recorded sessions, filtered by
tool and by failure through session_search and `mnemic sessions search --tool --failed`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from _backends import Kit
from mnemic.cli import main
from mnemic.home import Home
from mnemic.sessions import (
    NewMessage,
    export_session,
    import_path,
    open_store,
    run_session_search,
)
from mnemic.sessions.search.toolcalls import outcome


def line(kind: str, uuid: str, ts: str, content: Any, sid: str = "cc-1") -> str:
    return json.dumps(
        {"type": kind, "sessionId": sid, "uuid": uuid, "timestamp": ts,
         "message": {"role": kind, "content": content}}
    )  # fmt: skip


def call(uuid: str, ts: str, call_id: str, name: str, inp: dict[str, Any], out: str,
         *, error: bool = False, sid: str = "cc-1") -> list[str]:  # fmt: skip
    """An assistant line with one tool_use and the user line with its tool_result."""
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": out}
    if error:
        result["is_error"] = True
    use = {"type": "tool_use", "id": call_id, "name": name, "input": inp}
    return [line("assistant", uuid, ts, [use], sid), line("user", uuid + "r", ts, [result], sid)]


@pytest.fixture
def home(backend: Kit, tmp_path: Path) -> Path:
    """A home (on each backend) with one Claude Code transcript: pytest failing twice,
    then passing; a failing npm build; a read of a missing file."""
    lines = [line("user", "u0", "2026-03-01T09:00:00Z", "Fix the refund tests.")]
    lines += call("a1", "2026-03-01T09:01:00Z", "t1", "Bash",
                  {"command": "pytest tests/test_refund.py -x"},
                  "Exit code 1\nFAILED tests/test_refund.py::test_partial - KeyError: 'refund_id'",
                  error=True)  # fmt: skip
    lines += call("a2", "2026-03-01T09:05:00Z", "t2", "Bash", {"command": "npm run build"},
                  "Exit code 2\nnpm ERR! Missing script: build", error=True)  # fmt: skip
    lines += call("a3", "2026-03-01T09:09:00Z", "t3", "Read", {"file_path": "src/gone.py"},
                  "<tool_use_error>File does not exist.</tool_use_error>", error=True)  # fmt: skip
    lines += call("a4", "2026-03-01T09:12:00Z", "t4", "Bash",
                  {"command": "pytest tests/test_auth.py"},
                  "Exit code 1\nFAILED tests/test_auth.py::test_login - AssertionError: 503",
                  error=True)  # fmt: skip
    lines += call("a5", "2026-03-01T09:20:00Z", "t5", "Bash",
                  {"command": "pytest tests/test_refund.py"}, "5 passed in 0.3s")  # fmt: skip
    path = backend.write_config()
    transcript = tmp_path / "cc-1.jsonl"
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with open_store(Home.open(path)) as store:
        import_path(store, transcript, format="claude")
    return path


def search(home: Path, args: dict[str, Any], **kw: Any) -> dict[str, Any]:
    with open_store(Home.open(home)) as store:
        return run_session_search(store, args, **kw)


def test_the_last_failing_pytest_run_comes_first_with_its_exit_code_and_error(
    home: Path,
) -> None:
    resp = search(home, {"tool": "pytest", "failed": True})
    assert resp["success"] and resp["mode"] == "tool_calls"
    got = [(r["tool"], json.loads(r["arguments"])["command"]) for r in resp["results"]]
    # the passing run is left out; the latest failure first
    assert got == [("Bash", "pytest tests/test_auth.py"),
                   ("Bash", "pytest tests/test_refund.py -x")]  # fmt: skip
    first = resp["results"][0]
    assert first["status"] == "error" and first["exit_code"] == 1
    assert "AssertionError: 503" in first["error"] and first["session_id"] == "cc-1"
    assert first["when"].startswith("2026-03-01")


def test_a_tool_name_finds_every_call_of_it_and_query_words_rank_them(home: Path) -> None:
    every = search(home, {"tool": "Bash", "limit": 10})
    statuses = [r["status"] for r in every["results"]]
    assert len(statuses) == 4 and statuses[0] == "ok"  # the latest (passing) run first
    refund = search(home, {"tool": "pytest", "query": "refund"})
    assert [json.loads(r["arguments"])["command"] for r in refund["results"][:2]] == [
        "pytest tests/test_refund.py",
        "pytest tests/test_refund.py -x",
    ]
    by_error = search(home, {"failed": True, "query": "KeyError refund_id"})
    assert by_error["results"][0]["error"].startswith("FAILED tests/test_refund.py")
    read = search(home, {"tool": "Read", "failed": True})
    assert [r["error"] for r in read["results"]] == ["File does not exist."]


def test_recorded_tool_calls_with_json_outcomes_are_searchable(tmp_path: Path) -> None:
    with open_store(Home.open(tmp_path / "home")) as store:
        sid = store.start_session(source="cli")
        calls = [{"id": "c1", "type": "function",
                  "function": {"name": "memory", "arguments": '{"action": "add"}'}}]  # fmt: skip
        store.append_message(sid, NewMessage("assistant", "", tool_calls=calls))
        store.append_message(sid, NewMessage(
            "tool", '{"success": false, "error": "Memory is full (2200 chars)."}',
            tool_call_id="c1", tool_name="memory"))  # fmt: skip
        store.end_session(sid, "user_exit")
        resp = run_session_search(store, {"tool": "memory", "failed": True})
        assert resp["results"][0]["error"] == "Memory is full (2200 chars)."
        # the caller's own session is not "the past"
        own = run_session_search(store, {"tool": "memory"}, current_session_id=sid)
        assert own["results"] == [] and "No call of 'memory'" in own["message"]


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("Exit code 1\nFAILED x - boom", ("error", 1, "FAILED x - boom")),
        ("Exit code 0", ("ok", 0, None)),
        ("<tool_use_error>File does not exist.</tool_use_error>",
         ("error", None, "File does not exist.")),
        ('{"success": false, "error": "No such entry."}', ("error", None, "No such entry.")),
        ('{"stdout": "", "stderr": "segfault", "exit_code": 139}', ("error", 139, "segfault")),
        ('{"stdout": "fine", "exit_code": 0}', ("ok", 0, None)),
        # Codex CLI's shell tool: the exit code sits in the output's metadata
        ('{"output": "ls: cannot access \'x\'", "metadata": {"exit_code": 2}}',
         ("error", 2, "ls: cannot access 'x'")),
        ('{"output": "hello.md", "metadata": {"exit_code": 0}}', ("ok", 0, None)),
        ("Traceback (most recent call last):\n  ...\nValueError: x",
         ("error", None, "Traceback (most recent call last): ... ValueError: x")),
        ("3 files changed", ("ok", None, None)),
    ],
)  # fmt: skip
def test_the_outcome_is_read_from_the_output(
    output: str, expected: tuple[str, int | None, str | None]
) -> None:
    assert outcome(output) == expected


@pytest.mark.parametrize(
    ("output", "flag", "expected"),
    [
        ("File does not exist.", True, ("error", None, "File does not exist.")),
        ("<tool_use_error>Bad offset</tool_use_error>", True, ("error", None, "Bad offset")),
        ("Exit code 1\nFAILED x - boom", True, ("error", 1, "FAILED x - boom")),
        ("Error: the word alone is not a failure", False, ("ok", None, None)),
        ("Exit code 0", False, ("ok", 0, None)),
        ("File does not exist.", None, ("ok", None, None)),
    ],
)  # fmt: skip
def test_the_source_flag_decides_the_outcome_before_the_text(
    output: str, flag: bool | None, expected: tuple[str, int | None, str | None]
) -> None:
    assert outcome(output, flag) == expected


def test_a_result_flagged_failed_is_found_as_failed_and_kept_through_export(
    backend: Kit, tmp_path: Path
) -> None:
    """A Claude Code ``tool_result`` with ``is_error: true`` whose text carries no error
    mark ("File does not exist.") is a failed call, before and after export / import."""
    lines = [line("user", "u0", "2026-03-02T10:00:00Z", "Read the config.", sid="cc-2")]
    lines += call("b1", "2026-03-02T10:01:00Z", "r1", "Read", {"file_path": "conf/app.toml"},
                  "File does not exist.", error=True, sid="cc-2")  # fmt: skip
    lines += call("b2", "2026-03-02T10:02:00Z", "r2", "Read", {"file_path": "conf/base.toml"},
                  "     1\t[app]\n     2\tname = 'x'", sid="cc-2")  # fmt: skip
    transcript = tmp_path / "cc-2.jsonl"
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with open_store(Home.open(backend.write_config())) as store:
        import_path(store, transcript, format="claude")

        def failed_reads() -> list[tuple[str, str, str]]:
            resp = run_session_search(store, {"tool": "Read", "failed": True, "limit": 10})
            return [(json.loads(r["arguments"])["file_path"], r["status"], r["error"])
                    for r in resp["results"]]  # fmt: skip

        assert failed_reads() == [("conf/app.toml", "error", "File does not exist.")]
        # asked for failures alone (no tool, no word), it is found by its flag too
        alone = run_session_search(store, {"failed": True})["results"]
        assert [(r["tool"], r["error"]) for r in alone] == [("Read", "File does not exist.")]
        flags = [m.is_error for m in store.messages("cc-2") if m.role == "tool"]
        assert flags == [True, None]
        exported = tmp_path / "export.jsonl"
        records = list(export_session(store, "cc-2"))
        exported.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        assert store.delete_session("cc-2")
        import_path(store, exported, format="jsonl")
        assert [m.is_error for m in store.messages("cc-2") if m.role == "tool"] == flags
        assert failed_reads() == [("conf/app.toml", "error", "File does not exist.")]


def test_failed_alone_lists_the_latest_failures_of_any_tool(home: Path) -> None:
    resp = search(home, {"failed": True, "limit": 10})
    assert [r["tool"] for r in resp["results"]] == ["Bash", "Read", "Bash", "Bash"]
    assert {r["status"] for r in resp["results"]} == {"error"}


def test_bad_tool_arguments_are_clear_refusals(home: Path) -> None:
    bad = search(home, {"tool": 3})
    assert not bad["success"] and "tool must be a string" in bad["error"]
    nothing = search(home, {"tool": "()"})  # no searchable word
    assert not nothing["success"] and "Name a tool" in nothing["error"]


def test_the_cli_lists_failed_calls_with_exit_code_and_error(home: Path) -> None:
    runner = CliRunner()
    env = {"MNEMIC_HOME": str(home), "COLUMNS": "200"}
    out = runner.invoke(main, ["sessions", "search", "--tool", "pytest", "--failed"], env=env)
    assert out.exit_code == 0, out.output
    assert "pytest tests/test_auth.py" in out.output and "error (exit 1)" in out.output
    assert "AssertionError: 503" in out.output and "5 passed" not in out.output
    as_json = runner.invoke(
        main, ["sessions", "search", "refund", "--tool", "pytest", "--json"], env=env
    )
    assert json.loads(as_json.output)["results"][0]["status"] == "ok"
    empty = runner.invoke(main, ["sessions", "search"], env=env)
    assert empty.exit_code == 2 and "--tool" in empty.output
