"""``sessions import --replace`` killed or run twice at once: every session stays whole,
either the old copy or the new one, never missing and never twice.

A real import process is SIGKILLed at chosen and random points: it tells a byte after
each committed write of its store (each session a batch commits, each deletion), and
the kill follows the k-th (no sleeps). The import is a child forked from a small process
that imported mnemic once (``tests/workers/sessions_import.py``, ``tests/_forker.py``),
not an interpreter started for each kill point.
The same checks run against PostgreSQL in ``tests/postgres/test_sessions_replace_crash``.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from _forker import Forker, shared
from mnemic.home import Home
from mnemic.sessions import NewMessage, NewSession, SearchFilters, open_store, parse_query
from workers.sessions_import import PROGRESS

pytestmark = pytest.mark.slow

SESSIONS = 600
OLD, NEW = 3, 5  # messages per session in the stored copy and in the file


def seed(home: Path) -> None:
    """The stored copies: SESSIONS sessions of OLD messages each."""
    with open_store(Home.open(home)) as store:
        items = [
            (
                NewSession(id=f"s{i:03d}", source="import", title=f"old {i}"),
                [NewMessage("user", f"oldword s{i:03d} m{k}") for k in range(OLD)],
            )
            for i in range(SESSIONS)
        ]
        assert len(list(store.import_sessions(items))) == SESSIONS


def new_file(tmp_path: Path) -> Path:
    """The file to import: the same sessions, NEW messages each, one after the other."""
    path = tmp_path / "new.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(SESSIONS):
            for k in range(NEW):
                row = {
                    "session_id": f"s{i:03d}",
                    "role": "user",
                    "title": f"new {i}",
                    "content": f"newword s{i:03d} m{k}",
                    "timestamp": 1_700_000_000 + k,
                }
                fh.write(json.dumps(row) + "\n")
    return path


def check_whole(home: Path) -> tuple[int, int]:
    """Every session is there once, whole and old or whole and new; return (old, new)."""
    with open_store(Home.open(home)) as store:
        infos = store.list_sessions(limit=10 * SESSIONS)
        ids = [i.id for i in infos]
        assert sorted(ids) == [f"s{i:03d}" for i in range(SESSIONS)], "a session is missing"
        old = new = 0
        for info in infos:
            texts = [m.content for m in store.messages(info.id)]
            if texts == [f"oldword {info.id} m{k}" for k in range(OLD)]:
                old += 1
                assert info.title and info.title.startswith("old")
            else:
                assert texts == [f"newword {info.id} m{k}" for k in range(NEW)], (info.id, texts)
                assert info.title and info.title.startswith("new")
                new += 1
            assert info.message_count == len(texts)
        # the full-text index agrees with the rows
        hits = store.search(parse_query("newword"), SearchFilters(), limit=100_000)
        assert len(hits) == new * NEW
        hits = store.search(parse_query("oldword"), SearchFilters(), limit=100_000)
        assert len(hits) == old * OLD
    return old, new


def kill_after(forker: Forker, home: Path, path: Path, reports: int) -> bool:
    """Run a ``--replace`` import of ``path`` into ``home`` (``workers/sessions_import``)
    and SIGKILL it right after its ``reports``-th committed write; False if it finished
    first."""
    fn = "replace_import"
    pid, killed = forker.kill_after(fn, str(home), str(path), byte=PROGRESS, count=reports + 1)
    status = forker.wait(pid)
    if not killed:
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    return killed


def run_kills(home: Path, tmp_path: Path, reset: Callable[[], None]) -> None:
    path = new_file(tmp_path)
    rng = random.Random(20260517)
    points = [0, 1, 2, *sorted(rng.sample(range(3, SESSIONS), 5))]
    killed = 0
    forker = shared("sessions_import")  # forked children: no interpreter start-up each
    for reports in points:
        reset()
        assert check_whole(home) == (SESSIONS, 0)
        killed += kill_after(forker, home, path, reports)
        old, new = check_whole(home)
        assert old + new == SESSIONS
    assert killed >= len(points) - 1, "the imports finished before they could be killed"
    # and a run that is left alone replaces everything
    pid = forker.fork("replace_import", str(home), str(path))
    status = forker.wait(pid)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    assert check_whole(home) == (0, SESSIONS)


def run_concurrent(home: Path, tmp_path: Path, *, replace: bool = True) -> None:
    """Two imports of one file at once: with ``--replace`` over the stored copies, or
    (``replace=False``) into an empty history, where each adds what the other has not."""
    path = new_file(tmp_path)
    env = {**os.environ, "MNEMIC_HOME": str(home)}
    flag = ["--replace"] if replace else []
    cmd = [sys.executable, "-m", "mnemic", "sessions", "import", *flag, "--json", str(path)]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for _ in range(2)]  # fmt: skip
    reports = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        reports.append(json.loads(out))
    assert check_whole(home) == (0, SESSIONS)
    assert all(r["skipped"] == [] for r in reports)
    if replace:  # between them the two runs replaced every session
        assert sum(r["replaced_sessions"] for r in reports) >= SESSIONS
    else:  # and between them they wrote every message exactly once
        assert sum(r["messages"] for r in reports) == SESSIONS * NEW


def test_replace_import_killed_midway_leaves_every_session_old_or_new(
    home_path: Path, tmp_path: Path
) -> None:
    seed(home_path)
    pristine = tmp_path / "pristine.db"
    shutil.copy(home_path / "sessions.db", pristine)
    assert not (home_path / "sessions.db-wal").exists()

    def reset() -> None:
        for suffix in ("-wal", "-shm"):
            (home_path / f"sessions.db{suffix}").unlink(missing_ok=True)
        shutil.copy(pristine, home_path / "sessions.db")

    run_kills(home_path, tmp_path, reset)


def test_two_concurrent_replace_imports_leave_each_session_once(
    home_path: Path, tmp_path: Path
) -> None:
    seed(home_path)
    run_concurrent(home_path, tmp_path)


def test_two_concurrent_imports_write_each_message_once(home_path: Path, tmp_path: Path) -> None:
    run_concurrent(home_path, tmp_path, replace=False)
