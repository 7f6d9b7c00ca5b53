"""The memory tool's ``read`` says which writes to the target wait for a person's approval
(docs/first-week.md row 26): how many, their pending ids, not to propose them again, and
how a person decides. Before, a model that read the target after its write was staged
saw entries without it and nothing else, and proposed it again."""

from __future__ import annotations

from pathlib import Path

from _backends import Kit
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool
from mnemic.governance.held import waiting_note
from mnemic.ops import PendingQueue


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def session(home: Path, n: int, **kw: object) -> Memory:
    return Memory.open(home, actor="mcp", origin="mcp:desktop", session_id=f"s{n}", **kw)  # type: ignore[arg-type]


def read(home: Path, n: int, target: str = "memory", **kw: object) -> dict[str, object]:
    return run_memory_tool(session(home, n, **kw), {"action": "read", "target": target})


def test_read_names_the_writes_waiting_for_approval(backend: Kit) -> None:
    backend.write_config('[approval]\nmemory_mcp = "stage"\npending_ttl_hours = 1.0\n')
    clock = Clock()
    add = {"action": "add", "target": "memory", "content": "Deploys go out on Tuesdays"}
    first = run_memory_tool(session(backend.home, 1, clock=clock), add)
    assert first["staged"]
    pid = str(first["pending_id"])

    got = read(backend.home, 2, clock=clock)
    assert got["entries"] == [] and got["pending"] == 1 and got["pending_ids"] == [pid]
    note = str(got["pending_note"])
    assert note.startswith(f"1 write to MEMORY.md waits for a person's approval (pending id {pid})")
    assert "do not propose it again" in note
    assert f"`mnemic pending approve {pid}`" in note and f"`mnemic pending reject {pid}`" in note
    assert "pending" not in read(backend.home, 2, "user", clock=clock)  # another target

    clock.now += 60
    more = dict(add, content="Releases are tagged vYYYY.MM")
    second = str(run_memory_tool(session(backend.home, 3, clock=clock), more)["pending_id"])
    got = read(backend.home, 4, clock=clock)
    assert got["pending"] == 2 and got["pending_ids"] == [pid, second]
    assert str(got["pending_note"]).startswith("2 writes to MEMORY.md wait")
    assert "`mnemic pending approve ID`" in str(got["pending_note"])

    PendingQueue.open(backend.home).reject(pid)  # decided: no longer waits
    assert read(backend.home, 5, clock=clock)["pending_ids"] == [second]
    clock.now += 3600  # expired: can no longer be approved, so it waits no more
    assert "pending" not in read(backend.home, 6, clock=clock)


def test_the_note_reads_as_one_sentence_for_one_and_for_several() -> None:
    one = waiting_note(["p1"], "USER.md")
    assert "1 write to USER.md waits" in one and "is not in these entries" in one
    two = waiting_note(["p1", "p2"], "USER.md")
    assert "2 writes to USER.md wait for" in two and "(pending ids p1, p2)" in two
    assert "are not in these entries" in two and "do not propose them again" in two
