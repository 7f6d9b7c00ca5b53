"""A full target: the refusal names what to drop first, with handles and why.

Behaviour on both backends (``backend``: files and a throwaway PostgreSQL server).
Times come from the memory's clock, so "oldest" is decided by the test.
"""

from __future__ import annotations

from pathlib import Path

from _backends import Kit
from mnemic.curated.entries import entry_handle
from mnemic.curated.memory import Memory
from mnemic.curated.store import Op
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.view import MemoryView

T0 = 1_000_000.0
DAY = 86_400.0
OLD = "The build server runs Debian 12 with Python 3.11 installed."
NEWER = "Releases are tagged on the main branch every second Tuesday."
CONFIRMED = "The staging database listens on port 6543, not 5432."
COPY = "staging database listens on port 6543"


def _mem(home: Path, t: float) -> Memory:
    return Memory.open(home, origin="agent", session_id="s1", clock=lambda: t)


def _full_home(backend: Kit) -> Path:
    """MEMORY.md nearly full: OLD written first, NEWER a day later, CONFIRMED first
    written before both but added again (confirmed) on day 3, COPY a near copy of it."""
    limit = len(OLD) + len(NEWER) + len(CONFIRMED) + len(COPY) + 3 * 3 + 20
    home = backend.write_config(memory_char_limit=limit)
    _mem(home, T0).add("memory", CONFIRMED)
    _mem(home, T0 + DAY).add("memory", OLD)
    _mem(home, T0 + 2 * DAY).add("memory", NEWER)
    _mem(home, T0 + 2 * DAY).add("memory", COPY)
    confirm = _mem(home, T0 + 3 * DAY).add("memory", CONFIRMED)
    assert not confirm.written
    return home


def test_re_adding_an_entry_or_replacing_it_by_itself_confirms_it(backend: Kit) -> None:
    home = _full_home(backend)
    prov = dict(MemoryView.open(home).provenance("memory"))
    assert prov[CONFIRMED].updated == T0
    assert prov[CONFIRMED].last_confirmed == T0 + 3 * DAY
    assert prov[OLD].last_confirmed == T0 + DAY
    _mem(home, T0 + 5 * DAY).replace("memory", "Debian 12", OLD)
    prov = dict(MemoryView.open(home).provenance("memory"))
    assert prov[OLD].confirmed == T0 + 5 * DAY
    assert prov[OLD].created == T0 + DAY  # confirming rewrites nothing


def test_an_add_that_overflows_lists_candidates_with_handles_and_reasons(backend: Kit) -> None:
    home = _full_home(backend)
    mem = _mem(home, T0 + 4 * DAY)
    new = "Deploys need the VPN profile named corp-eu-west."
    resp = run_memory_tool(mem, {"action": "add", "content": new})
    assert resp["error_code"] == "budget_exceeded"
    cands = resp["candidates"]
    assert [c["entry"] for c in cands] == [COPY, OLD, NEWER, CONFIRMED]
    assert cands[0]["reasons"][0] == f"duplicate of {entry_handle(CONFIRMED)}"
    assert cands[1]["reasons"] == ["oldest unconfirmed: last written or confirmed 1970-01-13"]
    assert cands[3]["last_confirmed"] == "1970-01-15"
    assert all(c["handle"] == entry_handle(c["entry"]) for c in cands)
    assert resp["free_at_least"] > 0
    assert f"{cands[0]['handle']} (duplicate of" in resp["error"]
    # the model frees room in one call, naming the candidate by its handle
    ops = [
        {"action": "remove", "old_text": cands[0]["handle"]},
        {"action": "add", "content": new},
    ]
    done = run_memory_tool(mem, {"operations": ops})
    assert done["success"], done
    assert Memory.open(home).entries("memory") == [CONFIRMED, OLD, NEWER, new]


def test_a_refusal_not_about_room_lists_no_candidates(backend: Kit) -> None:
    home = _full_home(backend)
    mem = _mem(home, T0 + 4 * DAY)
    resp = run_memory_tool(mem, {"action": "remove", "old_text": "no such entry"})
    assert resp["error_code"] == "no_match"
    assert "candidates" not in resp
    huge = run_memory_tool(mem, {"action": "add", "content": "x" * 5000})
    assert huge["error_code"] == "budget_exceeded"
    assert "candidates" not in huge  # it can never fit: nothing to drop helps


def test_a_batch_that_overflows_lists_candidates(backend: Kit) -> None:
    home = _full_home(backend)
    mem = _mem(home, T0 + 4 * DAY)
    ops = [Op("add", "A first new fact about the deploy pipeline and its secrets vault.")]
    ops.append(Op("add", "A second new fact about the release calendar of the mobile app."))
    resp = run_memory_tool(
        mem, {"operations": [{"action": o.action, "content": o.content} for o in ops]}
    )
    assert resp["error_code"] == "budget_exceeded"
    assert resp["candidates"][0]["handle"] == entry_handle(COPY)


def test_the_cli_refusal_names_what_to_drop_and_the_command(backend: Kit) -> None:
    from tests.e2e import run_mnemic

    home = _full_home(backend)
    done = run_mnemic(home, "memory", "add", "Deploys need the VPN profile named corp-eu-west.")
    assert done.returncode == 1
    assert f"{entry_handle(COPY)} (duplicate of {entry_handle(CONFIRMED)}" in done.stderr
    assert "`mnemic memory remove HANDLE`" in done.stderr
