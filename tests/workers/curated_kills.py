"""The children of ``tests/test_curated_crash.py``'s kill tests, forked by
``tests/workers/forker.py`` (see ``tests/_forker.py``). Each gets ``tell`` (one byte to
the test) first; a function that returns an action has the kill armed before it."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op

Tell = Callable[[bytes], None]


def warm() -> None:
    """Write once in a scratch home: the modules a first write imports and the patterns
    it compiles are then loaded before the fork, as in a test process that has written
    (a child's first write took 40 ms of CPU, longer than most random delays)."""
    with tempfile.TemporaryDirectory() as scratch:
        mem = Memory.open(scratch, origin="cli", session_id="warm", clock=lambda: 1.0)
        mem.add("memory", "fact 1")
        mem.replace("memory", "fact 1", "fact 1 revised")
        mem.batch("memory", [Op("remove", None, "fact 1 revised"), Op("add", "fact 2")])
        mem.remove("memory", "fact 2")


def one_write(tell: Tell, home: str, action: str) -> Callable[[], object]:
    """Open the store, then (armed) add or remove ``the new entry``."""
    mem = Memory.open(home)
    if action == "add":
        return lambda: mem.add("memory", "the new entry")
    return lambda: mem.remove("memory", "the new entry")


def batch(tell: Tell, home: str, clock: float, ops: list[list[Any]]) -> Callable[[], object]:
    """Open the store as the cli's session ``s2`` at ``clock``, then (armed) apply
    ``ops`` (``[kind, new, old]`` each) in one batch."""
    mem = Memory.open(home, origin="cli", session_id="s2", clock=lambda: clock)
    return lambda: mem.batch("memory", [Op(kind, new, old) for kind, new, old in ops])


def add_remove_loop(tell: Tell, home: str, start: int) -> None:
    """Open the store, tell ``o``, then add and remove ``fact i`` in turn until killed;
    tell ``w`` once the first pair is written (the loop is running: every moment after it
    is inside a write or between two)."""
    mem = Memory.open(home)
    tell(b"o")
    i = start
    while True:  # alternates between the state and the state + [fact i]
        mem.add("memory", f"fact {i}")
        mem.remove("memory", f"fact {i}")
        if i == start:
            tell(b"w")
        i += 1


def busy_writer(tell: Tell, home: str, start: int, tell_removes: bool) -> None:
    """Adds ``fact i`` at time 10i, replaces it with ``fact i revised`` at 10i + 1 and
    removes every other one at 10i + 2, until killed; tells ``o`` once the store is open
    and, with ``tell_removes``, ``r`` after each committed remove."""
    now = [0.0]
    mem = Memory.open(home, origin="cli", session_id="storm", clock=lambda: now[0])
    tell(b"o")
    i = start
    while True:
        now[0] = 10.0 * i
        mem.add("memory", f"fact {i}")
        now[0] += 1
        mem.replace("memory", f"fact {i}", f"fact {i} revised")
        if i % 2:
            now[0] += 1
            mem.remove("memory", f"fact {i} revised")
            if tell_removes:
                tell(b"r")
        i += 1


def write_boot_id(tell: Tell, path: str) -> None:
    """Write the boot id this child sees to ``path`` (the forker's hand-over of a test's
    pinned boot id, checked by tests/test_journal_durability.py)."""
    from mnemic.backends.files import lost

    Path(path).write_text(str(lost.boot_id()))
