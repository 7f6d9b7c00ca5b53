"""The bytes a transcript import reports it read are the file's bytes, each counted once.

hostile3 (session 55): a 60 MB transcript made of one long line was reported as "read
111,611,629 bytes": looking for the end of the line past the first segment read 52 MB
that the segment then read again, and both were counted.
"""

from __future__ import annotations

import json
from pathlib import Path

from _backends import Kit
from mnemic.home import Home
from mnemic.integrations.hook import run_claude_code_hook
from mnemic.sessions import import_growing, open_store
from mnemic.sessions.importing.resume import CHECK_WINDOW

SESSION = "6a2f0c4a-7d2b-4c3e-9f10-8a6b5c4d3e2f"


def _line(n: int, size: int) -> bytes:
    """Message ``n`` in Claude Code's format, ``size`` bytes of text or so."""
    obj = {
        "type": "user",
        "uuid": f"u-{n:06d}",
        "sessionId": SESSION,
        "timestamp": "2026-11-30T09:00:00.000Z",
        "message": {"role": "user", "content": f"m{n} " + "x" * size},
    }
    return json.dumps(obj).encode() + b"\n"


def test_one_long_line_is_counted_once(backend: Kit, tmp_path: Path) -> None:
    home = Home.open(backend.write_config())
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_bytes(_line(0, 200_000))  # one line, fifty segments of 4 KB
    size = path.stat().st_size
    with open_store(home) as store:
        done = import_growing(store, path, session_id=SESSION, segment=4096)
    assert done.complete and done.report.messages == 1
    assert done.bytes_read == size  # before: 527,333 (the scan ahead, the line, the check)


def test_a_resumed_run_counts_the_check_and_the_new_part(backend: Kit, tmp_path: Path) -> None:
    home = Home.open(backend.write_config())
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_bytes(b"".join(_line(n, 100_000) for n in range(3)))
    imported = path.stat().st_size
    with open_store(home) as store:
        import_growing(store, path, session_id=SESSION, segment=4096)
    path.write_bytes(path.read_bytes() + _line(3, 150_000))
    added = path.stat().st_size - imported
    with open_store(home) as store:
        again = import_growing(store, path, session_id=SESSION, segment=4096)
    assert (again.start, again.report.messages) == (imported, 1)
    # the check of the part imported before (both ends of it), then the new line once
    assert again.bytes_read == 2 * CHECK_WINDOW + added


def test_the_hook_reports_the_file_size_for_a_whole_read(backend: Kit, tmp_path: Path) -> None:
    home = Home.open(backend.write_config())
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_bytes(_line(0, 600_000))  # longer than the hook's 256 KB segment here
    payload = {"session_id": SESSION, "transcript_path": str(path), "hook_event_name": "PreCompact"}
    result = run_claude_code_hook(
        json.dumps(payload).encode(), home_path=str(home.root), segment=256 << 10, embed=0
    )
    assert result.ok, result.message
    assert f"read {path.stat().st_size:,} bytes, the whole file" in result.stdout
