"""The Claude Code hook's stdin and stdout, with nothing of mnemic imported: shared by
the handler (:mod:`.hook`) and the cached SessionStart answer (:mod:`.snapcache`), which
serves a hit before the rest of mnemic is loaded."""

from __future__ import annotations

import contextlib
import os
import select
import sys
import time
from typing import NoReturn

__all__ = ["MAX_INPUT", "READ_TIMEOUT", "InputProblem", "emit", "read_bounded"]

MAX_INPUT = 1 << 20
"""Bytes of hook input read at most (Claude Code sends well under a kilobyte)."""
READ_TIMEOUT = 5.0
"""Seconds to wait for the end of the hook input."""


class InputProblem(ValueError):
    """Stdin cannot be the hook's input: ``where`` (``stdin`` or the input) and ``why``."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where} {why}")
        self.where = where
        self.why = why


def read_bounded(fd: int, *, limit: int = MAX_INPUT, timeout: float = READ_TIMEOUT) -> bytes:
    """Everything on ``fd`` up to end of file: at most ``limit`` bytes, within ``timeout``
    seconds (POSIX; elsewhere the caller's watchdog bounds the wait). A terminal is
    refused. Raises :class:`InputProblem` (``OSError`` when ``fd`` cannot be read)."""
    if os.isatty(fd):
        raise InputProblem("stdin", "is a terminal, not a hook's JSON input")
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    total = 0
    while True:
        if os.name == "posix":
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise InputProblem(
                    "the hook input", f"did not end within {timeout:g} seconds (stdin left open)"
                )
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > limit:
            why = f"is larger than {limit:,} bytes; a Claude Code hook sends far less"
            raise InputProblem("the hook input", why)
        chunks.append(chunk)


def emit(stdout: str, message: str) -> NoReturn:
    """Print what Claude Code reads on stdout and the one-line ``message`` on stderr, and
    exit 0; a reader that went away ends the process with exit 1 without a word, as
    click does."""
    try:
        if stdout:
            sys.stdout.write(stdout)
            sys.stdout.flush()
        if message:
            sys.stderr.write(message + "\n")
            sys.stderr.flush()
    except BrokenPipeError:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
        sys.exit(1)
    sys.exit(0)
