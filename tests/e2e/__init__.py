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
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "RawMcpClient",
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


class RawMcpClient:
    """A bare JSON-RPC client of ``mnemic mcp`` over its stdin/stdout: it sends raw bytes,
    so it can send what a careless or hostile client sends (the SDK's own client would
    refuse to). It initialises the session on start; ``stderr`` holds what the server
    wrote there once :meth:`close` returns."""

    REPLY_WAIT = 30.0
    """Seconds a reply may take on a loaded machine (only a missing reply waits this long)."""

    def __init__(self, home: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mnemic", "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "MNEMIC_HOME": str(home)},
        )
        self.stderr = b""
        self._buf = b""
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()
        init = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"},
        }
        assert "result" in self.request(0, "initialize", init)
        self.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        self.stderr = self.proc.stderr.read()

    def send(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def reply(self) -> dict[str, Any] | None:
        """The next line the server writes, or None when none comes within REPLY_WAIT."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + self.REPLY_WAIT
        while b"\n" not in self._buf:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        found: dict[str, Any] = json.loads(line)
        return found

    def request(self, rid: int, method: str, params: Any) -> dict[str, Any]:
        """Send one request (``params`` as JSON) and return its answer."""
        return self.request_raw(rid, method, json.dumps(params))

    def request_raw(self, rid: int, method: str, params: str) -> dict[str, Any]:
        """Send one request whose ``params`` is JSON text as given (escapes a client
        should not send, kept) and return its answer."""
        body = (
            f'{{"jsonrpc": "2.0", "id": {rid}, "method": {json.dumps(method)}, "params": {params}}}'
        )
        self.send(body.encode("ascii"))
        found = self.reply()
        assert found is not None and found.get("id") == rid, found
        return found

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=60)
        self._drain.join()
        return code
