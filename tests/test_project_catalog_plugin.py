"""A third-party backend's project catalog (the ``mnemic.backends`` entry points).

``mnemic project forget`` / ``move`` (session 55) need a catalog that removes or
re-keys a store whole. Those two methods were first added to
:class:`~mnemic.registry.ProjectCatalog` itself, which is ``runtime_checkable``: a
plugin's catalog with only ``projects`` and ``add_project`` stopped being one, so its
home refused every project store. They are now a protocol of their own
(:class:`~mnemic.registry.ProjectForgetMove`): the catalog keeps working, and only
the two commands refuse its home, before anything is written.
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
