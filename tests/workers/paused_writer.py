"""A writer of a files-store project store that stops at two points of one write, told
when to go on through its stdin (tests/test_project_store_debris.py: two sessions in the
first instant of a store made while ``mnemic gc`` looks at its directory).

Usage: python paused_writer.py HOME PROJECT_DIR TEXT

Opens the project store of PROJECT_DIR (made now when it does not exist: its
``project.json``), then adds TEXT to MEMORY.md, printing a line and waiting for one on
stdin at each stop:

- ``at-lock``: the write checked the store (its ``project.json``) and is about to take
  the target's lock (the transaction, which makes the store's directory if it is gone);
- ``read``: the write holds the lock it took and has read MEMORY.md.

Then it prints one JSON line: ``{"written": bool}`` or ``{"error": ..., "reason": ...}``.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from typing import Any

from mnemic.backends.files import curated
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.home import Home


def _stop(name: str) -> None:
    print(name, flush=True)
    if not sys.stdin.readline():
        raise SystemExit(f"stdin closed at {name}")


def main(home: str, project: str, text: str) -> None:
    transaction = curated.FileBackend.transaction
    read = curated._FileTxn.read
    stopped: set[str] = set()

    @contextlib.contextmanager
    def paused(self: Any, targets: Any, timeout: float, **kw: Any) -> Iterator[Any]:
        if "at-lock" not in stopped:
            stopped.add("at-lock")
            _stop("at-lock")
        with transaction(self, targets, timeout, **kw) as txn:
            yield txn

    def reading(self: Any, target: str) -> str | None:
        raw = read(self, target)
        if target == "memory" and "read" not in stopped:
            stopped.add("read")
            _stop("read")
        return raw

    curated.FileBackend.transaction = paused  # type: ignore[method-assign,assignment]
    curated._FileTxn.read = reading  # type: ignore[method-assign]
    mem = Memory.open(open_project(Home.open(home), project, create=True), origin="cli")
    try:
        result = mem.add("memory", text)
    except Exception as exc:  # the refusal is the report
        print(json.dumps({"error": type(exc).__name__, "reason": getattr(exc, "reason", None)}))
        return
    print(json.dumps({"written": bool(result.written)}), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
