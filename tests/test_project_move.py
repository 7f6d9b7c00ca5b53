"""``mnemic project move ID NEWDIR``: a store whose directory moved, taken over to the new
path (issue 26).

A project store's id is the hash of its directory's path: a moved or renamed directory
no longer led to its store, which could only be read by its id and emptied entry by
entry. The store is now re-keyed to the new directory's id, all of it at once (files:
one rename; PostgreSQL: one transaction), nothing of it rewritten: the journal verifies
as before.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from _backends import FilesKit, Kit, PostgresKit
from mnemic.cli import main
from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, project_id, stored_projects
from mnemic.curated.store import Op
from mnemic.curated.view import MemoryView
from mnemic.errors import ProjectScopeError
from mnemic.home import Home

TOX, RUFF, OLD = "API tests run with tox.", "API lint: ruff.", "API port was 8080."


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _moved(backend: Kit, tmp_path: Path) -> tuple[Path, str, Path]:
    """A store whose directory was renamed: (old directory, old id, new directory)."""
    backend.write_config()
    old = tmp_path / "work" / "api"
    old.mkdir(parents=True)
    for args in (("add", TOX), ("add", RUFF), ("add", OLD), ("remove", "port was")):
        out = _cli("memory", args[0], "--project", str(old), args[1])
        assert out.exit_code == 0, out.output
    new = tmp_path / "work" / "api-v2"
    old.rename(new)
    return old, project_id(old), new


def _intact(home: Path, new: Path) -> None:
    (store,) = stored_projects(Home.open(home))
    assert store.project.id == project_id(new) and store.project.path == str(new)
    view = MemoryView.open(store)
    assert view.entries("memory") == [TOX, RUFF]
    assert [a.text for a in archive.listing(view)] == [OLD]
    assert _cli("audit", "verify").exit_code == 0


def test_a_store_is_taken_over_to_its_directorys_new_path(backend: Kit, tmp_path: Path) -> None:
    _, pid, new = _moved(backend, tmp_path)
    dry = _cli("project", "move", pid, str(new), "--dry-run")
    assert dry.exit_code == 0 and "Would move project store" in dry.output
    assert [s.project.id for s in stored_projects(Home.open(backend.home))] == [pid]
    out = _cli("project", "move", pid, str(new), "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["moved"] and data["new_project_id"] == project_id(new) and data["entries"] == 2
    _intact(backend.home, new)
    shown = _cli("memory", "show", "--project", str(new))
    assert TOX in shown.output and RUFF in shown.output
    assert "directory gone" not in _cli("memory", "status").output
    if isinstance(backend, PostgresKit):
        from mnemic.backends.postgres.curated import PROJECT_TABLES

        for table in PROJECT_TABLES:
            left = backend.sql(f"SELECT count(*) FROM {{s}}.{table} WHERE project = %s", (pid,))
            assert left[0][0] == 0, table
    # the next write goes on the same chain
    assert _cli("memory", "add", "--project", str(new), "API deploys on tag.").exit_code == 0
    assert _cli("audit", "verify").exit_code == 0


def test_a_directory_with_a_store_and_a_live_old_directory_are_refused(
    backend: Kit, tmp_path: Path
) -> None:
    old, pid, new = _moved(backend, tmp_path)
    other = tmp_path / "work" / "other"
    other.mkdir()
    assert _cli("memory", "add", "--project", str(other), "Other builds with make.").exit_code == 0
    out = _cli("project", "move", pid, str(other))
    assert out.exit_code != 0 and "has a project store of its own" in out.output
    old.mkdir()  # the old directory is back: its sessions still use the store
    out = _cli("project", "move", pid, str(new))
    assert out.exit_code != 0 and "still exists" in out.output and "--force" in out.output
    assert len(stored_projects(Home.open(backend.home))) == 2
    assert _cli("project", "move", pid, str(new), "--force").exit_code == 0
    ids = {s.project.id for s in stored_projects(Home.open(backend.home))}
    assert ids == {project_id(new), project_id(other)}


def test_a_writer_of_the_old_id_is_refused(backend: Kit, tmp_path: Path) -> None:
    _, pid, new = _moved(backend, tmp_path)
    writer = Memory.open(open_project(Home.open(backend.home), pid), origin="cli")
    assert _cli("project", "move", pid, str(new)).exit_code == 0
    with pytest.raises(ProjectScopeError) as refused:
        writer.apply("memory", [Op("add", "API deploys on tag.")])
    assert refused.value.reason == "removed" and "moved" in refused.value.message
    _intact(backend.home, new)


def test_a_move_killed_between_its_rename_and_its_path_is_finished_by_running_it_again(
    home_path: Path, tmp_path: Path
) -> None:
    """Files: the rename re-keys the store; ``project.json`` then names the new path. A
    process killed between the two leaves the store at its new id, reached by the new
    directory; the move run again writes the path."""
    old, pid, new = _moved(FilesKit(home_path), tmp_path)
    os.rename(home_path / "projects" / pid, home_path / "projects" / project_id(new))
    shown = _cli("memory", "show", "--project", str(new))
    assert TOX in shown.output
    (half,) = stored_projects(Home.open(home_path))
    assert half.project.path == str(old)
    assert _cli("project", "move", project_id(new), str(new)).exit_code == 0
    _intact(home_path, new)
