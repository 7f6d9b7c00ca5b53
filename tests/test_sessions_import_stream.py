"""Imports stream their input: memory does not grow with the file, progress follows the
writes (messages, rate, time left), and a session spread over a file arrives whole."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.cli.sessions import progress_text
from mnemic.sessions import ImportProgress, import_path

WORDS = [f"w{i}" for i in range(3000)]


def write_chat(path: Path, messages: int, per_session: int = 40, words: int = 100) -> Path:
    rng = random.Random(messages)
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(messages):
            text = " ".join(rng.choice(WORDS) for _ in range(words))
            role = "user" if i % 2 == 0 else "assistant"
            row = {"session_id": f"s{i // per_session}", "role": role, "content": text}
            fh.write(json.dumps(row) + "\n")
    return path


PEAK = textwrap.dedent(
    """
    import sys
    from mnemic.backends.files.sqlite import SQLiteSessionStore
    from mnemic.sessions import import_path

    store = SQLiteSessionStore(sys.argv[2], durable=False)
    report = import_path(store, sys.argv[1], format="jsonl", batch=1000)
    # VmHWM is this program's own peak; ru_maxrss would keep the forked test worker's
    # across exec, and a big worker would hide any growth
    peak = [int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")]
    print(report.messages, peak[0] * 1024)
    """
)


def peak_memory(path: Path, db: Path) -> tuple[int, int]:
    out = subprocess.run(
        [sys.executable, "-c", PEAK, str(path), str(db)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    messages, peak = out.stdout.split()
    return int(messages), int(peak)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="reads VmHWM from /proc/self/status")
def test_import_memory_does_not_grow_with_the_file(tmp_path: Path) -> None:
    """Peak memory of a real import process, for a file and one three times its size.

    Both sizes are past what the store's fixed caches hold (SQLite's page cache, the
    FTS5 hash), so what is left would be the input: holding it whole (as imports once
    did) costs several times the extra file size.
    """
    small = write_chat(tmp_path / "small.jsonl", 15_000)
    big = write_chat(tmp_path / "big.jsonl", 45_000)
    extra = big.stat().st_size - small.stat().st_size
    assert extra > 15_000_000
    n_small, peak_small = peak_memory(small, tmp_path / "small.db")
    n_big, peak_big = peak_memory(big, tmp_path / "big.db")
    assert (n_small, n_big) == (15_000, 45_000)
    assert peak_big - peak_small < 0.3 * extra, (peak_small, peak_big, extra)


def test_progress_follows_the_writes(tmp_path: Path) -> None:
    path = write_chat(tmp_path / "chat.jsonl", 3000, words=12)
    store = SQLiteSessionStore(tmp_path / "sessions.db", durable=False)
    seen: list[ImportProgress] = []
    try:
        report = import_path(store, path, batch=200, progress=seen.append, progress_every=0)
    finally:
        store.close()
    assert report.messages == 3000
    assert seen[-1].finished and seen[-1].messages == 3000 and seen[-1].eta == 0.0
    during = seen[:-1]
    assert len(during) >= 10
    # messages are written while the file is still being read: never all read up front
    first = next(p for p in during if p.messages)
    assert first.bytes_done < first.bytes_total / 2
    assert [p.messages for p in during] == sorted(p.messages for p in during)
    assert [p.bytes_done for p in during] == sorted(p.bytes_done for p in during)
    # the share of input reported is the input committed (lines are about the same size)
    assert all(abs(p.fraction - p.messages / 3000) < 0.02 for p in during), during
    assert all(p.bytes_total == path.stat().st_size for p in seen)


def test_progress_text_shows_count_rate_and_time_left() -> None:
    p = ImportProgress(250, 1000, 12_000, 30, elapsed=4.0)
    assert (p.fraction, p.rate, p.eta) == (0.25, 3000.0, 12.0)
    assert progress_text(p) == "12,000 messages  3,000/s  ETA 0:12"
    slow = ImportProgress(1, 1000, 10, 1, elapsed=7.0)
    assert progress_text(slow) == "10 messages  1/s  ETA 1:56:33"
    assert progress_text(ImportProgress(0, 1000, 0, 0, elapsed=0.0)) == "0 messages  -/s  ETA -"


def test_a_session_spread_over_the_file_arrives_whole(tmp_path: Path) -> None:
    """Lines of many sessions interleaved, more than a buffer holds: every session ends
    with all its messages, in file order, once each."""
    path = tmp_path / "mixed.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(5000):
            row = {"session_id": f"s{i % 7}", "role": "user", "content": f"line {i}"}
            fh.write(json.dumps(row) + "\n")
    store = SQLiteSessionStore(tmp_path / "sessions.db", durable=False)
    try:
        report = import_path(store, path, batch=300)
        assert report.messages == 5000 and report.sessions == 7
        for s in range(7):
            want = [f"line {i}" for i in range(s, 5000, 7)]
            assert [m.content for m in store.messages(f"s{s}")] == want
        assert import_path(store, path).messages == 0
    finally:
        store.close()
    assert os.path.exists(tmp_path / "sessions.db")
