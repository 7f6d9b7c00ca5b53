"""``mnemic project move`` killed at each file-system call (files store).

The move is three durable steps: the old id's tombstone (when, and the new id), the
rename of ``projects/<old>`` to ``projects/<new>`` (the step that moves the store), then
its ``project.json`` naming the new directory. A process killed at any call leaves one
store, whole, at its old id or its new one (then with the old id's tombstone naming
it); the move run again (by the id listed) finishes it, and the journal verifies.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from _forker import shared
from _killpoints import killed
from mnemic.backends.files.journal import AuditJournal
from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, project_id, stored_projects
from mnemic.curated.view import MemoryView
from mnemic.home import Home
from mnemic.ops.project_stores import find_store, move_store

TOX, RUFF, OLD = "API tests run with tox.", "API lint: ruff.", "API port was 8080."


def _seed(root: Path, old: Path, new: Path) -> str:
    old.mkdir(parents=True)
    mem = Memory.open(open_project(Home.open(root), old, create=True), origin="agent")
    for text in (TOX, RUFF, OLD):
        mem.add("memory", text)
    mem.remove("memory", "port was")
    old.rename(new)
    return project_id(old)


@pytest.mark.slow
def test_a_move_killed_at_any_call_leaves_one_whole_store_and_finishes_when_run_again(
    tmp_path: Path,
) -> None:
    seen: set[str] = set()
    completed = False
    for k in range(1, 3000):
        base = tmp_path / f"k{k}"
        root, old, new = base / "home", base / "work" / "api", base / "work" / "api-v2"
        pid = _seed(root, old, new)
        status = shared("kill_actions").run_killed_at(k, "move_project", str(root), pid, str(new))
        (store,) = stored_projects(Home.open(root))  # one store, never two or none
        assert store.project.id in (pid, project_id(new)), k
        seen.add("old" if store.project.id == pid else f"new, {store.project.path == str(new)}")
        mark = root / "projects" / ".tombstones" / pid
        if store.project.id != pid:  # moved: a writer of the old id is told where to
            assert mark.read_text(encoding="utf-8").endswith(f" moved:{project_id(new)}"), k
        elif mark.exists():  # killed between the tombstone and the rename
            seen.add("old, tombstone")  # the store at the old id supersedes it
        assert MemoryView.open(store).entries("memory") == [TOX, RUFF], k
        if not killed(status):
            assert status == 0, f"the move failed on its own at kill {k}"
            completed = True
        home = Home.open(root)
        move_store(home, find_store(home, store.project.id), new)  # run again: finished
        (done,) = stored_projects(Home.open(root))
        assert (done.project.id, done.project.path) == (project_id(new), str(new)), k
        view = MemoryView.open(done)
        assert view.entries("memory") == [TOX, RUFF], k
        assert [a.text for a in archive.listing(view)] == [OLD], k
        report = AuditJournal(done.root / "audit").verify()
        assert report.ok and report.outside_changes == (), (k, report)
        shutil.rmtree(base)
        if completed:
            break
    assert completed, "the move never completed: the kill points did not cover it"
    assert {"old", "old, tombstone", "new, False", "new, True"} <= seen, seen
