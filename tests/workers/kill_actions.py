"""The actions of the kill-point loops (``_forker.shared("kill_actions")``): each function
returns the action a child runs with the kill armed, opening what it needs inside it, as
the loops' lambdas did (the open's own calls are kill points too)."""

from __future__ import annotations

import fcntl
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mnemic.backends.files.journal import AuditJournal
from mnemic.backends.files.requests import FileRequests
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.curated.scope import open_project, project_id
from mnemic.curated.tool import run_memory_tool
from mnemic.home import Home
from mnemic.ops.move import move_entry

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: _killpoints

from _killpoints import arm_kill

Tell = Callable[[bytes], None]
Action = Callable[[], object]


def warm() -> None:
    """Each action once in a scratch home: what a first call imports and compiles is
    then loaded before the forks, as in the test process that forked them before."""
    with tempfile.TemporaryDirectory() as scratch:
        root, repo = Path(scratch) / "home", Path(scratch) / "repo"
        repo.mkdir()
        mem = Memory.open(root, origin="agent", session_id="warm")
        mem.add("memory", "fact 1")
        mem.add("memory", "fact 2")
        mem.add("user", "Name: A")
        mem.batch(
            "memory", [Op("add", "fact 3"), Op("replace", "Name: B", "Name: A", target="user")]
        )
        mem.replace("memory", "fact 3", "fact 3 revised")
        mem.remove("memory", "fact 3 revised")
        move_entry(Home.open(root), repo, "fact 2", to="project")
        Memory.open(open_project(Home.open(root), repo, create=True)).entries("memory")
        AuditJournal(root / "audit").append(action="probe", result="ok")
        run_memory_tool(mem, json.dumps({"action": "add", "target": "memory", "content": "x"}))
        # forget_project and move_project: importing project stores (the bundle's writer
        # and reader with them: 287 modules) was 0.4 s of CPU in each of their children,
        # a kill loop of 143 forks paid it 143 times
        from mnemic.ops.project_stores import find_store, remove_store

        home = Home.open(root)
        remove_store(home, find_store(home, project_id(repo)), force=True)


def open_memory(tell: Tell, home: str) -> Action:
    return lambda: Memory.open(home)


def add(tell: Tell, home: str, text: str) -> Action:
    return lambda: Memory.open(home).add("memory", text)


def batch(tell: Tell, home: str, ops: list[dict[str, Any]]) -> Action:
    """``Memory.open(home).batch("memory", ops)``, each op as :class:`Op`'s fields."""
    return lambda: Memory.open(home).batch("memory", [Op(**op) for op in ops])


def journal_append(tell: Tell, home: str) -> Action:
    return lambda: AuditJournal(Path(home) / "audit").append(action="probe", result="ok")


def move(tell: Tell, root: str, repo: str, text: str, to: str) -> Action:
    return lambda: move_entry(Home.open(root), Path(repo), text, to=to)


def _writer(home: str, clock: float, origin: str, session: str) -> Memory:
    """The writer the loops open before the kill is armed (its open is no kill point)."""
    return Memory.open(home, origin=origin, session_id=session, clock=lambda: clock)


def opened_batch(
    tell: Tell, home: str, clock: float, origin: str, session: str, ops: list[dict[str, Any]]
) -> Action:
    mem = _writer(home, clock, origin, session)
    return lambda: mem.batch("memory", [Op(**op) for op in ops])


def opened_add(tell: Tell, home: str, clock: float, origin: str, session: str, text: str) -> Action:
    mem = _writer(home, clock, origin, session)
    return lambda: mem.add("memory", text)


def provenance_writer(tell: Tell, home: str, name: str, count: int, gun: str) -> None:
    """``tests/test_provenance.py``'s concurrent writer: opens the store as the agent's
    session ``name``, tells ``o``, waits for the start gun (a shared lock of ``gun``, which
    the test holds until every writer is open) and adds ``count`` facts."""
    mem = Memory.open(home, origin="agent", session_id=name)
    tell(b"o")
    with open(gun, "rb") as fh:
        fcntl.flock(fh, fcntl.LOCK_SH)
    for i in range(count):
        mem.add("memory", f"{name} fact {i}")


def vector_writer(tell: Tell, root: str, seed: int, rounds: int, gun: str, done: str) -> None:
    """``tests/test_vector_cache.py``'s writer: rewrites one scope's file ``rounds`` times
    with its own set of 20 vectors (each ``seed``), from the start gun (a shared lock of
    ``gun``) on; tells ``o`` when ready and makes the file ``done`` when through."""
    import numpy as np

    from mnemic.embedding.vector_cache import VectorCache, text_key

    cache = VectorCache(root)
    texts = [f"text {seed} {i}" for i in range(20)]
    vectors = [np.full(8, seed, np.float32) for _ in texts]
    tell(b"o")
    with open(gun, "rb") as fh:
        fcntl.flock(fh, fcntl.LOCK_SH)
    for _ in range(rounds):
        cache.write("m", "s", [text_key(t) for t in texts], vectors)
    Path(done).touch()


def group_holder(tell: Tell, home: str, kill_at: int, gun: str, text: str) -> None:
    """``tests/test_group_commit.py``'s holder: adds ``text`` holding the lock; just
    before it claims the queued requests it tells ``r``, waits for the start gun (a
    shared lock of ``gun``) and arms the kill at call ``kill_at``."""
    mem = Memory.open(home, origin="cli", session_id="holder")
    real = FileRequests.claim

    def claim(self: FileRequests, target: str) -> list[Any]:
        tell(b"r")
        with open(gun, "rb") as fh:
            fcntl.flock(fh, fcntl.LOCK_SH)
        arm_kill(kill_at)
        return real(self, target)

    FileRequests.claim = claim  # type: ignore[method-assign]
    mem.add("memory", text)


def group_writer(tell: Tell, home: str, name: str, call: dict[str, Any], out: str) -> None:
    """A writer of session ``name``: its memory tool ``call``, the answer to ``out/name``."""
    mem = Memory.open(home, origin="cli", session_id=name)
    Path(out, name).write_text(json.dumps(run_memory_tool(mem, json.dumps(call))))


def forget_project(tell: Tell, root: str, pid: str) -> Action:
    from mnemic.ops.project_stores import find_store, remove_store

    def run() -> object:
        home = Home.open(root)
        return remove_store(home, find_store(home, pid), force=True)

    return run


def move_project(tell: Tell, root: str, pid: str, directory: str) -> Action:
    from mnemic.ops.project_stores import find_store, move_store

    def run() -> object:
        home = Home.open(root)
        return move_store(home, find_store(home, pid), directory)

    return run
