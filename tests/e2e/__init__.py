"""End-to-end tests: the CLI, the MCP server and the chat loop in real subprocesses.

Every test that runs the CLI goes through :func:`run_mnemic` (text) or
:func:`run_mnemic_bytes` (raw bytes), so a command is started the same way everywhere:
``python -m mnemic ARGS`` with this interpreter, ``MNEMIC_HOME`` set, a terminal width of
160 columns (tables and help text wrap the same on every machine), stdin given (empty
unless a test passes text) and a time limit.

A command that only prepares a home for the command under test (the entries a test
starts from) runs in this process instead, through :func:`prepare` (about 50 times
cheaper than a process start). A command whose answer is checked but whose process is
not the point (an argument refused, a listing read back, the files an install writes)
runs through :func:`run_here`: the same click group the script runs, in this process,
answered as :func:`run_mnemic` answers. What needs a process of its own stays in one:
start-up, the hook as Claude Code runs it, servers, signals, privileges, the fast path,
stdin and stdout as bytes, and at least one command of every family.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "compaction_event",
    "compile_stdlib_of",
    "mnemic_env",
    "prepare",
    "run_here",
    "run_mnemic",
    "run_mnemic_bytes",
]


def mnemic_env(home: Path, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment with ``MNEMIC_HOME=home`` and ``COLUMNS=160``, then
    ``env`` on top."""
    return {**os.environ, "MNEMIC_HOME": str(home), "COLUMNS": "160", **(env or {})}


def run_mnemic(
    home: Path,
    *args: str,
    stdin: str = "",
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
    python: str = sys.executable,
    **options: Any,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m mnemic ARGS`` on ``home`` and wait for it; text in and out.

    ``env`` adds to (or overrides) the environment; ``options`` go to
    :func:`subprocess.run` (``cwd``, ``preexec_fn``).
    """
    return subprocess.run(
        [python, "-m", "mnemic", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=mnemic_env(home, env),
        timeout=timeout,
        **options,
    )


def run_mnemic_bytes(
    home: Path, *args: str | bytes, stdin: bytes = b"", timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    """:func:`run_mnemic` with bytes: arguments, stdin and output are not decoded."""
    return subprocess.run(
        [sys.executable, "-m", "mnemic", *args],
        input=stdin,
        capture_output=True,
        env=mnemic_env(home),
        timeout=timeout,
    )


def run_here(
    home: Path,
    *args: str,
    stdin: str = "",
    env: Mapping[str, str] | None = None,
    cwd: Path | str | None = None,
) -> subprocess.CompletedProcess[str]:
    """:func:`run_mnemic`'s answer (exit code, stdout, stderr apart) from this process:
    ``mnemic ARGS`` through click's runner, with the same environment, stdin and working
    folder. An exception the command does not turn into an exit code propagates (in a
    process it would be a traceback and exit 1: here the test fails on it). What a
    process would drop at its exit and a command may set on its way (the root logger's
    handlers and level, the SIGINT and SIGTERM handlers) is put back as it was."""
    from click.testing import CliRunner

    from mnemic.cli import main

    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    signals = {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM)}
    try:
        with contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext():
            result = CliRunner().invoke(
                main,
                list(args),
                input=stdin,
                env=mnemic_env(home, env),
                catch_exceptions=False,
                prog_name="python -m mnemic",  # as click names it in run_mnemic's process
            )
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        for number, handler in signals.items():
            signal.signal(number, handler)
    return subprocess.CompletedProcess(
        ["mnemic", *args], result.exit_code, result.stdout, result.stderr
    )


def prepare(home: Path, *args: str, stdin: str = "") -> None:
    """``mnemic ARGS`` on ``home``, in this process (click's runner), to set a home up for
    the command a test runs in a subprocess; the command must succeed."""
    from click.testing import CliRunner

    from mnemic.cli import main

    result = CliRunner().invoke(main, list(args), input=stdin, env=mnemic_env(home))
    assert result.exit_code == 0, (args, result.output, result.exception)


def home_with_a_project(home_path: Path, tmp_path: Path) -> Path:
    """``home_path`` given a global and a user entry, and a project (``tmp_path/proj``)
    with an entry of its own (written in this process: see :func:`prepare`)."""
    prepare(home_path, "memory", "add", "The repo builds with make -j2.")
    prepare(home_path, "memory", "add", "--target", "user", "Prefers short answers.")
    project = tmp_path / "proj"
    project.mkdir()
    prepare(home_path, "--project", str(project), "memory", "add", "Tabs, not spaces.")
    return home_path


STDLIB_SKIPPED = (
    r"/(test|tests|idlelib|tkinter|turtledemo|lib2to3|ensurepip|site-packages|dist-packages"
    r"|config-[^/]*)/"
)
"""What of a standard library is never compiled for the suite's processes (see
``_bytecode_of_what_mnemic_imports`` in ``tests/conftest.py``)."""


def compile_stdlib_of(python: str) -> None:
    """Compile the standard library of the interpreter ``python`` into the session's
    pycache prefix (``PYTHONPYCACHEPREFIX``, which its processes inherit) when it is not
    this interpreter, whose standard library ``tests/conftest.py`` compiles already.

    A test that runs commands as another user needs an interpreter that user can reach
    (``/usr/bin/python3.11`` when the venv's lives under ``/root``); the prefix hides the
    ``__pycache__`` of its standard library, so each of those commands compiled
    ``json``, ``email``, ``asyncio``... from source again (``memory show`` as
    ``nobody``: 0.43 s of CPU, 0.17 s with them; session 52). Run as this user, once a
    test process (callers cache); files already compiled are only looked at."""
    prefix = os.environ.get("PYTHONPYCACHEPREFIX")
    if not prefix or os.path.realpath(python) == os.path.realpath(sys.executable):
        return
    script = (
        "import compileall, re, sysconfig\n"
        "compileall.compile_dir(sysconfig.get_paths()['stdlib'], quiet=2, "
        f"rx=re.compile({STDLIB_SKIPPED!r}))\n"
    )
    subprocess.run([python, "-c", script], capture_output=True, timeout=300, check=False)


def compaction_event(transcript: Path, session: str, text: str) -> str:
    """Claude Code's ``PreCompact`` hook event (JSON) for the session ``session``, its
    transcript written at ``transcript``: one user message ``text``; the event's working
    folder is the transcript's."""
    line = {
        "type": "user",
        "uuid": "u1",
        "sessionId": session,
        "timestamp": "2026-01-01T00:00:00Z",
        "message": {"role": "user", "content": text},
    }
    transcript.write_text(json.dumps(line) + "\n", encoding="utf-8")
    event = {
        "hook_event_name": "PreCompact",
        "session_id": session,
        "transcript_path": str(transcript),
        "cwd": str(transcript.parent),
    }
    return json.dumps(event)
