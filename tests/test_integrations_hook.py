"""The Claude Code hook handler in-process: bounded input, the watchdog, and failures of
the store reported as one line (a hook must never break Claude Code)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

import mnemic.sessions
from _backends import Kit
from mnemic.errors import IntegrationError
from mnemic.home import Home
from mnemic.integrations.hook import Watchdog, read_hook_input, run_claude_code_hook
from mnemic.sessions import open_store

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "claude_code_transcript.jsonl"
SESSION = "3f1c2a7e-5b9d-4e61-9a0c-2d8b7f4e1c55"


def _payload(transcript: Path, event: str = "PreCompact") -> bytes:
    return json.dumps(
        {"session_id": SESSION, "transcript_path": str(transcript), "hook_event_name": event}
    ).encode()


def test_watchdog_reports_the_step_it_gave_up_on() -> None:
    fired = threading.Event()
    messages: list[str] = []

    def expired(message: str) -> None:
        messages.append(message)
        fired.set()

    dog = Watchdog(3600.0, on_expiry=expired)
    dog.reset(0.01, "the PreCompact hook")  # a shorter deadline counts at once
    assert fired.wait(30)
    assert messages == [
        "mnemic: gave up the PreCompact hook: it took too long; Claude Code goes on without it."
    ]


def test_a_cancelled_watchdog_never_fires() -> None:
    messages: list[str] = []
    # An hour-long deadline: a short one could pass on a loaded machine before cancel()
    # runs (the test failed that way once). The thread must still end at once: cancel()
    # wakes it rather than letting it sleep out the hour.
    dog = Watchdog(3600, on_expiry=messages.append)
    dog.cancel()
    dog._thread.join(30)
    assert not dog._thread.is_alive() and messages == []


def test_read_hook_input_reads_to_end_of_file() -> None:
    r, w = os.pipe()
    os.write(w, b'{"hook_event_name": "SessionStart"}')
    os.close(w)
    try:
        assert read_hook_input(r) == b'{"hook_event_name": "SessionStart"}'
    finally:
        os.close(r)


def test_read_hook_input_stops_at_the_limit() -> None:
    r, w = os.pipe()
    writer = threading.Thread(target=lambda: (os.write(w, b"x" * 4096), os.close(w)))
    writer.start()
    try:
        with pytest.raises(IntegrationError, match="larger than 1,000 bytes"):
            read_hook_input(r, limit=1000)
    finally:
        writer.join()
        os.close(r)


def test_read_hook_input_does_not_wait_forever_for_an_open_pipe() -> None:
    r, w = os.pipe()
    os.write(w, b"{")
    try:
        with pytest.raises(IntegrationError, match=r"did not end within 0\.2 seconds"):
            read_hook_input(r, timeout=0.2)
    finally:
        os.close(w)
        os.close(r)


def test_a_busy_session_store_is_reported_and_the_import_retried_next_time(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = tmp_path / f"{SESSION}.jsonl"
    lines = FIXTURE.read_bytes().splitlines(keepends=True)
    transcript.write_bytes(b"".join(lines[:8]))
    assert run_claude_code_hook(_payload(transcript), home_path=str(home_path)).ok
    transcript.write_bytes(b"".join(lines))

    monkeypatch.setenv("MNEMIC_SESSIONS_WRITE_TIMEOUT", "0.3")
    holder = sqlite3.connect(Home.open(home_path).sessions_db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the database
    try:
        busy = run_claude_code_hook(_payload(transcript), home_path=str(home_path))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not busy.ok and busy.stdout == ""
    assert busy.message.startswith("mnemic: PreCompact hook skipped: ") and "\n" not in busy.message
    with open_store(Home.open(home_path)) as store:
        assert len(list(store.messages(SESSION))) == 4  # nothing half-imported

    later = run_claude_code_hook(_payload(transcript, "SessionEnd"), home_path=str(home_path))
    assert later.ok and "2 new message(s)" in later.stdout


def test_an_unexpected_failure_becomes_one_line(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = tmp_path / f"{SESSION}.jsonl"
    shutil.copy(FIXTURE, transcript)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire\nsecond line")

    # stands in for a bug anywhere below the hook: no real part fails this way on demand
    monkeypatch.setattr(mnemic.sessions, "import_growing", broken)
    result = run_claude_code_hook(_payload(transcript), home_path=str(home_path))
    assert not result.ok
    expected = "mnemic: PreCompact hook failed: RuntimeError: disk on fire second line"
    assert result.message == expected


def test_an_unreadable_memory_file_still_starts_the_session(home_path: Path) -> None:
    memories = home_path / "memories"
    memories.mkdir(parents=True)
    (memories / "USER.md").write_bytes(b"\xff\xfe not utf-8")
    (memories / "MEMORY.md").write_text("The build uses make\n", encoding="utf-8")
    result = run_claude_code_hook(b'{"hook_event_name": "SessionStart"}', home_path=str(home_path))
    assert result.ok
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "The build uses make" in context and "USER PROFILE" not in context


def test_the_hooks_work_the_same_on_every_backend(backend: Kit, tmp_path: Path) -> None:
    """Snapshot at session start, then an incremental import at compaction and at the end,
    on the files home and on a PostgreSQL database."""
    mem = backend.make()
    mem.add("user", "User reviews every migration by hand")
    home = str(backend.home)
    start = run_claude_code_hook(b'{"hook_event_name": "SessionStart"}', home_path=home)
    context = json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "User reviews every migration by hand" in context

    transcript = tmp_path / f"{SESSION}.jsonl"
    lines = FIXTURE.read_bytes().splitlines(keepends=True)
    transcript.write_bytes(b"".join(lines[:8]))
    first = run_claude_code_hook(_payload(transcript), home_path=home)
    assert first.ok and "4 new message(s)" in first.stdout, first.message
    transcript.write_bytes(b"".join(lines))
    end = json.loads(_payload(transcript, "SessionEnd"))
    end["reason"] = "clear"
    second = run_claude_code_hook(json.dumps(end).encode(), home_path=home)
    assert second.ok and "2 new message(s)" in second.stdout, second.message
    with open_store(Home.open(backend.home)) as store:
        roles = [m.role for m in store.messages(SESSION)]
        info = store.get_session(SESSION)
    assert roles == ["user", "assistant", "tool", "assistant", "user", "assistant"]
    assert info.end_reason == "claude-code:clear"


def test_control_characters_of_the_hook_input_never_reach_the_terminal(
    home_path: Path, tmp_path: Path
) -> None:
    """The event name is quoted back on stderr and the end reason is stored (and shown
    by ``sessions show``): an escape sequence in either arrives as U+FFFD."""
    odd = json.dumps({"hook_event_name": "Pre\x1b]0;pwned\x07Compact\x9b2J"}).encode()
    result = run_claude_code_hook(odd, home_path=str(home_path))
    assert (
        result.message
        == "mnemic: nothing to do for the Pre\ufffd]0;pwned\ufffdCompact\ufffd2J hook"
    )

    transcript = tmp_path / f"{SESSION}.jsonl"
    shutil.copy(FIXTURE, transcript)
    end = json.loads(_payload(transcript, "SessionEnd"))
    end["reason"] = "logout\x1b[2J"
    assert run_claude_code_hook(json.dumps(end).encode(), home_path=str(home_path)).ok
    with open_store(Home.open(home_path)) as store:
        assert store.get_session(SESSION).end_reason == "claude-code:logout\ufffd[2J"
