"""What a ``mnemic`` process leaves for the interpreter's exit (:func:`mnemic.cli.run`).

The interpreter's last collections walk every object still alive; for a short-lived call
that walk was most of its exit (on PostgreSQL, psycopg and asyncio double the heap). The
command freezes what is alive once it is done, after collecting what is garbage, so the
walk skips them; a finalizer of garbage made by the command still runs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from . import mnemic_env

PROBE = r"""
import atexit, gc, sys

class Cycle:
    def __init__(self):
        self.me = self
    def __del__(self):
        print("finalized", file=sys.stderr, flush=True)

def at_exit():  # registered before the command: runs after its own handlers
    print(f"frozen {gc.get_freeze_count()}", file=sys.stderr, flush=True)

atexit.register(at_exit)
Cycle()  # garbage in a cycle, made before the command ends
sys.argv = ["mnemic", *sys.argv[1:]]
from mnemic.cli import run
run()
"""


def _run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        env=mnemic_env(home),
        timeout=120,
    )


def test_a_command_leaves_its_live_objects_frozen_and_its_garbage_finalized(
    home_path: Path,
) -> None:
    done = _run(home_path, "memory", "add", "The repo builds with make -j2.")
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stderr.splitlines()
    frozen = [int(line.split()[1]) for line in lines if line.startswith("frozen ")]
    assert frozen and frozen[0] > 1000, done.stderr[-2000:]
    assert lines.index("finalized") < lines.index(f"frozen {frozen[0]}")


def test_a_refused_command_ends_the_same_way(home_path: Path) -> None:
    done = _run(home_path, "memory", "remove", "nothing like this is stored")
    assert done.returncode == 1
    assert any(
        line.startswith("frozen ") and line != "frozen 0" for line in done.stderr.splitlines()
    )
