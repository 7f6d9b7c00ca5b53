"""A ``memory move`` killed at each file-system call (issue 26).

A move is two recorded writes with no common commit: the add to the destination, then
the remove from the source into its archive (reason ``moved``). A process killed at any
call of it leaves the entry in the source, the destination, or both (the documented
rule: a duplicate, never a loss); running the move again then finishes it. After that
the entry is in the destination only, the source's archive holds it once with reason
``moved``, the destination's archive holds nothing, and each store's journal verifies
with no change it does not account for.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from _forker import shared
from _killpoints import killed
from mnemic.backends.files.journal import AuditJournal
from mnemic.curated import archive as arch
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.curated.view import MemoryView
from mnemic.home import Home
from mnemic.ops.move import move_entry

SSH = "The user signs commits with SSH keys, never GPG."
TESTS = "Tests of this repo run with ./x test."
LAPTOP = "The laptop runs Debian testing."


def _seed(root: Path, repo: Path, to: str) -> None:
    """A global store and a project store; the entry to move is in the source."""
    repo.mkdir(parents=True)
    Memory.open(root, origin="agent", session_id="w").add("memory", LAPTOP)
    if to == "global":  # the project store exists and holds the entry
        mem = Memory.open(open_project(Home.open(root), repo, create=True), origin="agent")
        mem.add("memory", TESTS)
        mem.add("memory", SSH)
    else:  # the project store does not exist yet: the move creates it
        Memory.open(root, origin="agent", session_id="w").add("memory", SSH)


def _stores(root: Path, repo: Path) -> tuple[Home, Home]:
    home = Home.open(root)
    return home, open_project(home, repo, create=True)


def _verified(where: Home) -> None:
    report = AuditJournal(where.root / "audit").verify()
    assert report.ok and report.outside_changes == (), report


@pytest.mark.slow
@pytest.mark.parametrize("to", ["global", "project"])
def test_a_move_killed_at_any_call_is_finished_by_running_it_again(tmp_path: Path, to: str) -> None:
    seen: set[tuple[bool, bool]] = set()
    completed = False
    for k in range(1, 2000):
        base = tmp_path / f"k{k}"
        root, repo = base / "home", base / "repo"
        _seed(root, repo, to)
        # move_entry(Home.open(root), repo, SSH, to=to), forked from a small process
        status = shared("kill_actions").run_killed_at(k, "move", str(root), str(repo), SSH, to)
        home, where = _stores(root, repo)
        src, dst = (where, home) if to == "global" else (home, where)
        in_src = SSH in MemoryView.open(src).entries("memory")
        in_dst = SSH in MemoryView.open(dst).entries("memory")
        assert in_src or in_dst, f"kill {k} lost the entry"
        seen.add((in_src, in_dst))
        if not killed(status):
            assert status == 0, f"the move failed on its own at kill {k}"
            assert (in_src, in_dst) == (False, True)
            completed = True
        elif in_src:  # not done yet: the second run finishes it
            assert move_entry(home, repo, SSH, to=to).done
        assert SSH not in MemoryView.open(src).entries("memory"), k
        assert MemoryView.open(dst).entries("memory").count(SSH) == 1, k
        assert [(a.text, a.reason) for a in arch.listing(MemoryView.open(src))] == [
            (SSH, "moved")
        ], k
        assert arch.listing(MemoryView.open(dst)) == [], k
        _verified(src)
        _verified(dst)
        shutil.rmtree(base)
        if completed:
            break
    assert completed, "the move never completed: the kill points did not cover it"
    # the kills landed before the add, between the two writes, and after the remove
    assert {(True, False), (True, True), (False, True)} <= seen, seen
