"""A project store whose directory was moved, renamed or deleted: listed as such, and
reached by its id (it was listed under its old path, which `--project` refused as a
missing directory: its entries could be neither read, moved out nor removed)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from _backends import Kit
from mnemic.cli import main
from mnemic.curated.scope import open_project, project_id
from mnemic.curated.view import MemoryView
from mnemic.errors import ProjectScopeError
from mnemic.home import Home


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _orphan(backend: Kit, tmp_path: Path) -> tuple[Path, str]:
    backend.write_config()
    proj = tmp_path / "work" / "api"
    proj.mkdir(parents=True)
    assert _cli("memory", "add", "--project", str(proj), "API tests run with tox.").exit_code == 0
    assert _cli("memory", "add", "--project", str(proj), "API lint: ruff.").exit_code == 0
    pid = project_id(proj)
    proj.rename(tmp_path / "work" / "api-renamed")
    return proj, pid


def test_an_orphaned_store_is_listed_and_reached_by_its_id(backend: Kit, tmp_path: Path) -> None:
    proj, pid = _orphan(backend, tmp_path)
    status = _cli("memory", "status").output
    assert f"(directory gone; --project {pid})" in status
    refused = _cli("memory", "show", "--project", str(proj))
    assert refused.exit_code == 1
    assert "does not exist" in refused.output and f"`--project {pid}` reaches it" in refused.output
    shown = _cli("memory", "show", "--project", pid)
    assert shown.exit_code == 0 and "API tests run with tox." in shown.output
    moved = _cli("memory", "move", "tox", "--to", "global", "--project", pid)
    assert moved.exit_code == 0, moved.output
    removed = _cli("memory", "remove", "--project", pid, "ruff")
    assert removed.exit_code == 0, removed.output
    # the next commands it names reach the store: its id, not the directory that is gone
    assert f"--project {pid}" in removed.output and str(proj) not in removed.output
    home = Home.open(backend.home)
    assert MemoryView.open(home).entries("memory") == ["API tests run with tox."]
    store = open_project(home, pid)
    assert MemoryView.open(store).entries("memory") == [] and store.project.path == str(proj)
    archived = _cli("memory", "archive", "list", "--project", pid).output
    assert "moved" in archived and "removed" in archived


def test_a_directory_named_like_an_id_wins_and_an_unknown_id_is_refused(
    backend: Kit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, pid = _orphan(backend, tmp_path)
    home = Home.open(backend.home)
    with pytest.raises(ProjectScopeError) as err:
        open_project(home, "api-000000000000")
    assert err.value.reason == "not_a_directory" and "reaches it" not in err.value.message
    here = tmp_path / "cwd"
    (here / pid).mkdir(parents=True)
    monkeypatch.chdir(here)
    local = open_project(home, pid)  # the directory of that name, as ever
    assert local.project.path == os.path.realpath(here / pid) and local.project.id != pid
