"""A third-party backend's project catalog (the ``mnemic.backends`` entry points).

``mnemic project forget`` / ``move`` (session 55) need a catalog that removes or
re-keys a store whole. Those two methods were first added to
:class:`~mnemic.registry.ProjectCatalog` itself, which is ``runtime_checkable``: a
plugin's catalog with only ``projects`` and ``add_project`` stopped being one, so its
home refused every project store. They are now a protocol of their own
(:class:`~mnemic.registry.ProjectForgetMove`): the catalog keeps working, and only
the two commands refuse its home, before anything is written.

Below, the files store's removal and move: they hold every lock its writers take, the
lock files no write made yet included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, stored_projects
from mnemic.errors import ProjectScopeError
from mnemic.home import Home
from mnemic.ops import project_stores
from mnemic.registry import ProjectCatalog, ProjectForgetMove


class OlderCatalog:
    """A plugin's catalog as the protocol asked before session 55."""

    def projects(self, home: Any) -> dict[str, str]:
        return {}

    def add_project(self, home: Any, project_id: str, path: str) -> None:
        return None


def test_a_catalog_without_forget_and_move_is_still_a_project_catalog() -> None:
    catalog = OlderCatalog()
    assert isinstance(catalog, ProjectCatalog)
    assert not isinstance(catalog, ProjectForgetMove)


@pytest.fixture
def older_home(home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A files home with one project store whose directory is gone, the removal and move
    asking a catalog that can do neither."""
    proj = tmp_path / "work" / "api"
    proj.mkdir(parents=True)
    home = Home.open(home_path)
    Memory.open(open_project(home, proj), origin="cli").add("memory", "API tests run with tox.")
    proj.rmdir()
    monkeypatch.setattr(project_stores, "project_catalog", lambda settings: OlderCatalog())
    return home


def test_forget_refuses_a_catalog_that_cannot_remove_a_store_and_writes_no_bundle(
    older_home: Home,
) -> None:
    (store,) = stored_projects(older_home)
    with pytest.raises(ProjectScopeError) as refused:
        project_stores.remove_store(older_home, store)
    assert refused.value.reason == "unsupported"
    assert "Nothing was removed" in refused.value.message
    assert "mnemic memory move" in refused.value.message
    assert not (older_home.root / project_stores.REMOVED_DIR).exists()
    assert [s.project.id for s in stored_projects(older_home)] == [store.project.id]
    # a dry run only reads: it still says what would go
    assert project_stores.remove_store(older_home, store, dry_run=True).entries == 1


def test_move_refuses_a_catalog_that_cannot_rekey_a_store(older_home: Home, tmp_path: Path) -> None:
    (store,) = stored_projects(older_home)
    new = tmp_path / "work" / "api2"
    new.mkdir()
    with pytest.raises(ProjectScopeError) as refused:
        project_stores.move_store(older_home, store, new)
    assert refused.value.reason == "unsupported" and "Nothing was moved" in refused.value.message
    assert [s.project.id for s in stored_projects(older_home)] == [store.project.id]


# -- the files store: the writers' locks, even those no write made yet ------------------


def _lock_is_free(path: Path) -> bool:
    from mnemic.errors import LockTimeout
    from mnemic.fsio import SidecarLock

    lock = SidecarLock(path, 0.0)
    try:
        lock.acquire()
    except LockTimeout:
        return False
    lock.release()
    return True


def test_removal_holds_the_lock_a_first_writer_would_make(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store made but never written has no lock file. The removal used to take only
    the lock files it found, so a first writer that made its lock after that look wrote
    (and was told it had) into a directory renamed away a moment later, not in the
    bundle. Now, while the removal checks the journal and renames, the lock is held."""
    proj = tmp_path / "work" / "fresh"
    proj.mkdir(parents=True)
    home = Home.open(home_path)
    store = open_project(home, proj, create=True)
    lock = store.project.root / "memories" / "MEMORY.md.lock"
    assert not lock.exists()
    seen: list[bool] = []
    head = project_stores._head
    calls: list[str] = []

    def spy(s: Any) -> str | None:
        calls.append("head")
        if len(calls) == 2:  # the second look: under the removal's locks
            seen.append(_lock_is_free(lock))
        return head(s)

    monkeypatch.setattr(project_stores, "_head", spy)
    project_stores.remove_store(home, store, force=True)
    assert len(calls) == 2 and seen == [False]
    assert stored_projects(home) == []


def test_move_holds_the_lock_a_first_writer_would_make(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for a move: its rename runs under the lock a first writer would make."""
    proj, new = tmp_path / "work" / "fresh", tmp_path / "work" / "fresh2"
    proj.mkdir(parents=True)
    new.mkdir()
    home = Home.open(home_path)
    store = open_project(home, proj, create=True)
    proj.rmdir()
    seen: list[bool] = []
    synced = project_stores.fsync_dir

    def spy(directory: Any) -> None:  # right after the rename, under the locks
        moved = open_project(home, new).project.root
        seen.append(_lock_is_free(moved / "memories" / "MEMORY.md.lock"))
        synced(directory)

    monkeypatch.setattr(project_stores, "fsync_dir", spy)
    project_stores.move_store(home, store, new)
    assert seen == [False]
    assert [s.project.path for s in stored_projects(home)] == [str(new.resolve())]
