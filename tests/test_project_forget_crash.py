"""``mnemic project forget`` killed at each file-system call (files store).

The removal is four durable steps: the bundle (written aside, renamed into place), the
tombstone (``projects/.tombstones/<id>``: when, for a writer that still holds the
store), the rename of ``projects/<id>`` out of the listing (the step that removes the
store), and the deletion of what was renamed. A process killed at any call leaves
either the store whole (its entries, archive and journal as they were; a tombstone
beside it is superseded by it) or no store, its tombstone and a whole bundle that
``mnemic import --bundle`` brings back: never a half-removed store, never a loss, never
a removed store a writer cannot be told about.
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
from mnemic.ops.bundle.restore import import_bundle
from mnemic.ops.project_stores import clear_debris

TOX, RUFF, OLD = "API tests run with tox.", "API lint: ruff.", "API port was 8080."


def _seed(root: Path, repo: Path) -> str:
    repo.mkdir(parents=True)
    mem = Memory.open(open_project(Home.open(root), repo, create=True), origin="agent")
    for text in (TOX, RUFF, OLD):
        mem.add("memory", text)
    mem.remove("memory", "port was")
    repo.rmdir()
    return project_id(repo)


def _whole(root: Path, pid: str) -> None:
    (store,) = stored_projects(Home.open(root))
    assert store.project.id == pid
    view = MemoryView.open(store)
    assert view.entries("memory") == [TOX, RUFF]
    assert [a.text for a in archive.listing(view)] == [OLD]
    report = AuditJournal(store.root / "audit").verify()
    assert report.ok and report.outside_changes == (), report


PARTS = 4
"""The kill loop in parts, each its own test: part ``p`` kills at calls ``p + 1``,
``p + 1 + PARTS``, ... until the removal completes. Together they kill at every call, as
the one loop did (171 s alone on a quiet machine, session 56: it ran past the 300 s
timeout at a load of 30); each part still sees the three states (the calls leaving the
store and its bundle were 96-119 of 143, session 57) and the removal completing."""


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_a_removal_killed_at_any_call_leaves_the_store_or_its_bundle(
    tmp_path: Path, part: int
) -> None:
    seen: set[str] = set()
    completed = False
    for k in range(1 + part, 3000, PARTS):
        base = tmp_path / f"k{k}"
        root, repo = base / "home", base / "repo"
        pid = _seed(root, repo)
        status = shared("kill_actions").run_killed_at(k, "forget_project", str(root), pid)
        stores = stored_projects(Home.open(root))
        kept = sorted((root / "removed-projects").glob("*.mnemic"))
        mark = root / "projects" / ".tombstones" / pid
        if stores:
            _whole(root, pid)
            seen.add("store" if not kept else "store and bundle")
            if mark.exists():  # killed between the tombstone and the rename
                seen.add("store, bundle and tombstone")  # the store supersedes it
        else:
            assert len(kept) == 1, f"kill {k}: the store is gone and no bundle holds it"
            assert mark.is_file(), f"kill {k}: the store is gone and no tombstone says when"
            seen.add("bundle")
            clear_debris(Home.open(root))
            import_bundle(Home.open(root), kept[0])
            _whole(root, pid)
            assert not mark.exists(), k  # the store is back: no longer removed
        if not killed(status):
            assert status == 0, f"the removal failed on its own at kill {k}"
            assert not stores
            completed = True
        shutil.rmtree(base)
        if completed:
            break
    assert completed, "the removal never completed: the kill points did not cover it"
    assert {"store", "store and bundle", "store, bundle and tombstone", "bundle"} <= seen, seen
