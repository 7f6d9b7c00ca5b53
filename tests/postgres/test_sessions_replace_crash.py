"""``sessions import --replace`` killed or run twice at once, on PostgreSQL: every
session stays whole, old or new, never missing and never twice (the checks of
``test_sessions_replace_crash``).

The killed imports are forked from a process that has loaded mnemic once (a zygote)
instead of each starting an interpreter (2-3 s of a loaded machine's CPU each, nine
times): each is still a process of its own, with its own connections, SIGKILLed after
its k-th committed write; the run left alone to finish starts the real way.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from test_sessions_replace_crash import (
    CHILD,
    SESSIONS,
    check_whole,
    new_file,
    run_concurrent,
    seed,
    spawn,
)

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def test_pg_replace_import_killed_midway_leaves_every_session_old_or_new(
    pg_home: Callable[..., Path], pg_db: Any, tmp_path: Path
) -> None:
    """``run_kills`` of the SQLite test, with the imports forked from a zygote (the
    module docstring). Before each kill the stored copies are put back by copying their
    rows from a schema beside (a few statements in the server), not imported again
    through the library: they are checked whole each time all the same."""
    home = pg_home()
    seed(home)
    kept = f'"{pg_db.schema}_seeded"'
    with pg_db.connection() as conn:
        conn.execute(f"CREATE SCHEMA {kept}")
        for table in _SEEDED:
            conn.execute(pg_db.sql(f"CREATE TABLE {kept}.{table} AS SELECT * FROM {{s}}.{table}"))

    def reset() -> None:
        with pg_db.connection() as conn, conn.transaction():
            conn.execute(pg_db.sql("TRUNCATE " + ", ".join(f"{{s}}.{t}" for t in _SEEDED)))
            for table in reversed(_SEEDED):  # sessions before the messages that refer to them
                conn.execute(pg_db.sql(f"INSERT INTO {{s}}.{table} SELECT * FROM {kept}.{table}"))

    path = new_file(tmp_path)
    rng = random.Random(20260517)
    points = [0, 1, 2, *sorted(rng.sample(range(3, SESSIONS), 5))]  # as run_kills
    killed = 0
    try:
        with zygote(home, path, tmp_path / "zygote.err") as fork:
            for reports in points:
                reset()
                assert check_whole(home) == (SESSIONS, 0)
                killed += fork(reports)
                old, new = check_whole(home)
                assert old + new == SESSIONS
    finally:
        with pg_db.connection() as conn:
            conn.execute(f"DROP SCHEMA {kept} CASCADE")
    assert killed >= len(points) - 1, "the imports finished before they could be killed"
    # and a run that is left alone replaces everything: a process started the real way
    proc = spawn(home, path)
    assert proc.wait(timeout=300) == 0, proc.stderr.read() if proc.stderr else ""
    assert check_whole(home) == (0, SESSIONS)


ZYGOTE = textwrap.dedent(
    """
    import os, sys, traceback
    from mnemic.home import Home
    from mnemic.sessions import open_store
    open_store(Home.open(sys.argv[1])).close()  # what an import loads, loaded once
    print("zygote", flush=True)
    for _ in sys.stdin:
        pid = os.fork()
        if pid == 0:
            print("pid", os.getpid(), flush=True)
            code = 0
            try:
                exec(compile(sys.argv[3], "child", "exec"), {"__name__": "__main__"})
            except BaseException:
                traceback.print_exc()
                code = 1
            sys.stdout.flush()
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        print("exit", status, flush=True)
    """
)
"""Forks one child per line it reads; a child prints its pid, then runs the code of
``sys.argv[3]`` (``CHILD``, its ``sys.argv[1:3]`` the home and the file); the zygote
prints ``exit <wait status>`` once the child is gone."""


@contextlib.contextmanager
def zygote(home: Path, path: Path, err: Path) -> Iterator[Callable[[int], bool]]:
    """A zygote for ``CHILD`` on ``home`` and ``path``; yields ``fork(k)``: fork an
    import and SIGKILL it right after its k-th progress line, True if it was killed,
    False if it finished first (the same rule as ``kill_after``)."""
    env = {**os.environ, "MNEMIC_HOME": str(home)}
    with open(err, "w", encoding="utf-8") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-c", ZYGOTE, str(home), str(path), CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            env=env,
        )
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout

    def line() -> str:
        text = stdout.readline()
        assert text, f"the zygote ended: {err.read_text(encoding='utf-8')[-2000:]}"
        return text.strip()

    def fork(reports: int) -> bool:
        stdin.write("go\n")
        stdin.flush()
        kind, pid = line().split()
        assert kind == "pid"
        assert line() == "ready"
        seen, status = 0, None
        while seen < reports:
            text = line()
            if text.startswith("exit"):  # gone without "done": a failure, shown below
                status = int(text.split()[1])
                break
            if text == "done":
                break
            seen += 1
        else:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)
        if status is None:
            status = _drain(line)
        if os.WIFSIGNALED(status):
            assert os.WTERMSIG(status) == signal.SIGKILL
            return True
        assert os.WEXITSTATUS(status) == 0, err.read_text(encoding="utf-8")[-2000:]
        return False

    assert line() == "zygote"
    try:
        yield fork
    finally:
        stdin.close()
        proc.wait(timeout=60)


def _drain(line: Callable[[], str]) -> int:
    """Read to the zygote's ``exit`` line (the child is gone); its wait status."""
    while True:
        text = line()
        if text.startswith("exit"):
            return int(text.split()[1])


_SEEDED = ("message_attachments", "messages", "sessions")
"""The tables ``seed`` writes (and the one that refers to them), in TRUNCATE's order."""


def test_pg_two_concurrent_replace_imports_leave_each_session_once(
    pg_home: Callable[..., Path], tmp_path: Path
) -> None:
    home = pg_home()
    seed(home)
    run_concurrent(home, tmp_path)


def test_pg_two_concurrent_imports_write_each_message_once(
    pg_home: Callable[..., Path], tmp_path: Path
) -> None:
    run_concurrent(pg_home(), tmp_path, replace=False)
