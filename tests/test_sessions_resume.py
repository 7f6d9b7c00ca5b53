"""A Claude Code transcript imported again and again as it grows: each run reads only
what was added (the import mark), a changed file is read whole again, and a transcript
too large for one hook's time limit is completed over successive runs.

How "reads only what was added" is shown without timing: the run reports the bytes it
read, and the middle of the part imported before is overwritten with bytes that are not
JSON (the check reads only both ends of it): a run that read it would skip bad lines.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from _backends import Kit
from mnemic.home import Home
from mnemic.integrations.hook import run_claude_code_hook
from mnemic.sessions import GrowingImport, import_growing, open_store
from mnemic.sessions.importing.resume import CHECK_WINDOW

SESSION = "5e1f0c4a-7d2b-4c3e-9f10-8a6b5c4d3e2f"
TEXT = "the quick brown fox jumps over the lazy dog; " * 6


def line(n: int, *, uuid: bool = True) -> bytes:
    """Message ``n`` of the session, in Claude Code's format (about 400 bytes)."""
    obj: dict[str, object] = {
        "type": "user" if n % 2 == 0 else "assistant",
        "sessionId": SESSION,
        "timestamp": "2026-11-30T09:00:00.000Z",
        "message": {"role": "user" if n % 2 == 0 else "assistant", "content": f"m{n} {TEXT}"},
    }
    if uuid:
        obj["uuid"] = f"u-{n:06d}"
    return json.dumps(obj).encode() + b"\n"


def lines(start: int, stop: int, **kw: bool) -> bytes:
    return b"".join(line(n, **kw) for n in range(start, stop))


def _home(backend: Kit) -> Home:
    return Home.open(backend.write_config())


def _numbers(home: Home) -> list[int]:
    """The message numbers stored, in order."""
    with open_store(home) as store:
        return [int((m.content or "").split()[0][1:]) for m in store.messages(SESSION)]


def _import(home: Home, path: Path) -> GrowingImport:
    with open_store(home) as store:
        return import_growing(store, path, session_id=SESSION)


def test_each_run_reads_only_what_was_added(backend: Kit, tmp_path: Path) -> None:
    home = _home(backend)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_bytes(lines(0, 1000))  # about 400 KB
    first = _import(home, path)
    assert (first.report.messages, first.start, first.reread) == (1000, 0, None)
    assert first.complete and first.end == path.stat().st_size

    imported = path.stat().st_size
    middle = bytearray(path.read_bytes())
    middle[CHECK_WINDOW + 10 : imported - CHECK_WINDOW - 10] = b"\xff" * (
        imported - 2 * CHECK_WINDOW - 20
    )
    path.write_bytes(bytes(middle) + lines(1000, 1010))
    second = _import(home, path)
    assert (second.report.messages, second.start) == (10, imported)
    assert second.report.skipped == {}  # the overwritten middle was never read
    added = path.stat().st_size - imported
    assert second.bytes_read <= added + 4 * CHECK_WINDOW  # the new lines and the checks

    third = _import(home, path)  # nothing new: only the checks are read
    assert third.report.messages == 0 and third.bytes_read <= 2 * CHECK_WINDOW
    assert _numbers(home) == list(range(1010))


def test_a_changed_or_shorter_file_is_read_whole_again(backend: Kit, tmp_path: Path) -> None:
    home = _home(backend)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_bytes(lines(0, 300))
    _import(home, path)
    rewritten = path.read_bytes().replace(b"m299 the quick", b"m299 THE quick")
    path.write_bytes(rewritten + lines(300, 305))
    again = _import(home, path)
    assert again.start == 0 and again.reread == "the part imported before has changed"
    assert again.report.messages == 5  # the rest is recognised by its keys
    path.write_bytes(lines(0, 100))
    shorter = _import(home, path)
    assert shorter.start == 0 and shorter.reread is not None and "shorter" in shorter.reread
    assert _numbers(home) == list(range(305))


def test_a_deleted_session_is_imported_whole_again(backend: Kit, tmp_path: Path) -> None:
    """``sessions delete`` takes the session's marks with it: the next import of its
    transcript brings the whole session back, not only the lines added since."""
    home = _home(backend)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_bytes(lines(0, 50))
    _import(home, path)
    with open_store(home) as store:
        assert store.delete_session(SESSION) == 50
        assert store.import_mark(SESSION, str(path)) is None
    path.write_bytes(lines(0, 60))
    again = _import(home, path)
    assert (again.start, again.report.messages) == (0, 60)
    assert _numbers(home) == list(range(60))


def test_a_line_being_written_is_read_again(backend: Kit, tmp_path: Path) -> None:
    """The mark stops before a last line without its newline; position keys (lines
    without a uuid) carry on where the last run stopped."""
    home = _home(backend)
    path = tmp_path / f"{SESSION}.jsonl"
    half = line(3, uuid=False)[:150]
    path.write_bytes(lines(0, 3, uuid=False) + half)
    first = _import(home, path)
    assert first.report.messages == 3 and sum(first.report.skipped.values()) == 1
    assert first.end == len(lines(0, 3, uuid=False))
    path.write_bytes(lines(0, 6, uuid=False))
    second = _import(home, path)
    assert (second.start, second.report.messages) == (first.end, 3)
    assert _numbers(home) == list(range(6))
    path.write_bytes(lines(0, 6, uuid=False).replace(b"m0 the", b"m0 THE"))
    whole = _import(home, path)  # read again from the start: the same position keys
    assert whole.start == 0 and whole.report.messages == 1  # only the changed line is new


def _hook(home: Home, path: Path, event: str) -> str:
    """One hook call with a budget of zero and 256 KB segments: one segment a call (and
    no embedding after it: tests/test_sessions_catchup.py)."""
    payload = {"session_id": SESSION, "transcript_path": str(path), "hook_event_name": event}
    result = run_claude_code_hook(
        json.dumps(payload).encode(),
        home_path=str(home.root),
        budget=0.0,
        segment=256 << 10,
        embed=0,
    )
    assert result.ok, result.message
    return result.stdout


def test_a_transcript_too_large_for_one_hook_is_completed_by_the_next(
    backend: Kit, tmp_path: Path
) -> None:
    """Each hook call has a time budget; with a budget of zero it imports one segment
    (the first always runs), so a large transcript is completed over successive calls
    and the session end is recorded even when the last call could not finish."""
    home = _home(backend)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_bytes(lines(0, 5000))  # about 2 MB, 8 segments of 256 KB
    size = path.stat().st_size
    seen = []
    for _ in range(3):
        out = _hook(home, path, "PreCompact")
        assert "bytes are left for the next hook" in out
        seen.append(len(_numbers(home)))
    assert 0 < seen[0] < seen[1] < seen[2] < 5000
    end = _hook(home, path, "SessionEnd")
    assert "bytes are left" in end and end.rstrip().endswith("session marked ended")
    with open_store(home) as store:
        assert store.get_session(SESSION).end_reason == "claude-code:other"
    runs = 4
    while "bytes are left" in _hook(home, path, "PreCompact"):
        runs += 1
        assert runs < 20
    assert runs >= size // (256 << 10)
    assert _numbers(home) == list(range(5000))


CHILD = textwrap.dedent(
    """
    import sys
    from mnemic.home import Home
    from mnemic.sessions import import_growing, open_store


    class Reporting:
        \"\"\"The store, printing a line after each import mark it saves.\"\"\"

        def __init__(self, store):
            self.store = store

        def __getattr__(self, name):
            return getattr(self.store, name)

        def save_import_mark(self, session_id, source, mark):
            self.store.save_import_mark(session_id, source, mark)
            print("mark", mark.offset, flush=True)


    store = Reporting(open_store(Home.open(sys.argv[1])))
    import_growing(store, sys.argv[2], session_id=sys.argv[3], segment=65536)
    print("done", flush=True)
    """
)


def test_a_killed_run_keeps_the_segments_it_committed(home_path: Path, tmp_path: Path) -> None:
    """The watchdog ends a hook with ``os._exit``; here a real import process is
    SIGKILLed after its third saved mark: the next run starts at that mark, and every
    message is stored once."""
    home = Home.open(home_path)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_bytes(lines(0, 2000))
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(home_path), str(path), SESSION],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "MNEMIC_HOME": str(home_path)},
    )
    assert proc.stdout is not None
    marks = []
    for out in proc.stdout:
        if out.startswith("mark"):
            marks.append(int(out.split()[1]))
            if len(marks) == 3:
                proc.send_signal(signal.SIGKILL)
                break
    proc.wait(60)
    assert proc.returncode == -signal.SIGKILL and len(marks) == 3
    with open_store(home) as store:
        saved = store.import_mark(SESSION, str(path))
    assert saved is not None and saved.offset >= marks[-1]
    again = _import(home, path)
    assert again.start == saved.offset and again.complete
    assert _numbers(home) == list(range(2000))
