"""Hostile input to the Claude Code hook (`mnemic hook claude-code`): whatever the JSON
holds (wrong types, lone surrogates, control and bidi characters, a transcript path that
is a directory, a FIFO, a symlink, relative, missing), the handler answers with one line
and never fails with an exception's name: only a bug may reach its catch-all."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemic.home import Home
from mnemic.integrations.hook import run_claude_code_hook
from mnemic.sessions import open_store

TRANSCRIPT = (
    '{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-12-07T10:00:00Z",'
    '"message":{"role":"user","content":"the deploy hit ERR_QUOTA_7731"}}\n'
)


def _sessions(home: Path) -> list[str]:
    if not (home / "sessions.db").exists():
        return []
    with open_store(Home.open(home)) as store:
        return sorted(s.id for s in store.list_sessions())


@pytest.mark.parametrize("field", ["transcript_path", "session_id"])
@pytest.mark.parametrize("event", ["PreCompact", "SessionEnd"])
def test_a_lone_surrogate_in_a_field_the_import_uses_is_named(
    home_path: Path, tmp_path: Path, field: str, event: str
) -> None:
    """It ended the hook as "hook failed: UnicodeEncodeError: 'utf-8' codec can't encode
    character '\\ud800'..." (the catch-all for bugs)."""
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(TRANSCRIPT)
    body = {"hook_event_name": event, "transcript_path": str(transcript), "session_id": "s1"}
    body[field] = "/tmp/\ud800.jsonl" if field == "transcript_path" else "\ud800"
    result = run_claude_code_hook(json.dumps(body).encode(), home_path=str(home_path))
    assert not result.ok
    assert "lone surrogate" in result.message and f'"{field}"' in result.message
    assert "Error" not in result.message and "\n" not in result.message
    assert _sessions(home_path) == []


def _hostile_text() -> st.SearchStrategy[str]:
    return st.text(
        alphabet=st.sampled_from(["a", "/", ".", "\x00", "\x1b", "\u202e", "\ud800", "é", "\n"]),
        max_size=12,
    )


def _value() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        _hostile_text(),
        st.lists(st.integers(), max_size=2),
    )


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    event=st.sampled_from(["SessionStart", "PreCompact", "SessionEnd", "Stop", "\ud800", 5]),
    path=st.sampled_from(["transcript", "dir", "fifo", "link", "missing", "relative", "odd"]),
    fields=st.dictionaries(
        st.sampled_from(["session_id", "cwd", "reason", "source", "trigger"]), _value()
    ),
)
def test_any_hook_input_is_one_line_and_never_the_catch_all(
    home_path: Path, tmp_path: Path, event: Any, path: str, fields: dict[str, Any]
) -> None:
    work = tmp_path / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    transcript = work / "t.jsonl"
    transcript.write_text(TRANSCRIPT)
    (work / "d.jsonl").mkdir()
    os.mkfifo(work / "f.jsonl")
    (work / "l.jsonl").symlink_to(work / "f.jsonl")
    paths = {
        "transcript": str(transcript),
        "dir": str(work / "d.jsonl"),
        "fifo": str(work / "f.jsonl"),
        "link": str(work / "l.jsonl"),
        "missing": str(work / "gone.jsonl"),
        "relative": "t.jsonl",
        "odd": str(work / "\u202e\x1b.jsonl"),
    }
    body = {"hook_event_name": event, "transcript_path": paths[path], **fields}
    result = run_claude_code_hook(json.dumps(body).encode(), home_path=str(home_path))
    assert "hook failed" not in result.message, result.message
    assert "\n" not in result.message.rstrip("\n")
    for ch in ("\x00", "\x1b", "\ud800"):
        assert ch not in result.message and ch not in result.stdout
    if result.stdout:
        if event == "SessionStart":
            json.loads(result.stdout)
        else:
            assert result.stdout.startswith("mnemic: ") and result.stdout.count("\n") == 1
    assert set(_sessions(home_path)) <= {"s1"}


def test_a_deep_cwd_is_walked_up_once_not_resolved_at_every_level(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cwd 2,000 directories deep (4,000 characters, within PATH_MAX): the project
    search and the cached answer's recorder resolved every parent again (realpath of a
    path N deep is N lstat calls: N² in all), and SessionStart gave up after its 20 s,
    leaving the session without its memory. Counted, not timed: realpath calls stay a
    handful, whatever the depth."""
    from mnemic.curated.memory import Memory

    Memory.open(home_path).add("memory", "Deploys go through staging first.")
    depth = 2000
    calls: list[int] = []
    real = os.path.realpath

    def counting(path: Any, *args: Any, **kwargs: Any) -> str:
        calls.append(os.fspath(path).count("/"))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os.path, "realpath", counting)
    body = {"hook_event_name": "SessionStart", "cwd": "/a" * depth}
    result = run_claude_code_hook(json.dumps(body).encode(), home_path=str(home_path))
    assert result.ok and "staging first" in result.stdout
    deep = [n for n in calls if n > depth // 2]
    assert len(deep) <= 4, f"{len(deep)} realpath calls on paths over {depth // 2} deep"
