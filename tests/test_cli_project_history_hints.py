"""``memory history`` and an unknown version of a project's MEMORY.md name the
``--project`` they need: run as printed without it, each would read the global store."""

from __future__ import annotations

import shlex
from pathlib import Path

from tests.e2e import run_here

from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.home import Home


def _project_with_history(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "home"
    repo = tmp_path / "my repo"  # a space: the flag must come back quoted for a shell
    repo.mkdir()
    mem = Memory.open(open_project(Home.open(root), repo, create=True), origin="agent")
    mem.add("memory", "Tests of this repo run with ./x test.")
    mem.replace("memory", "./x test", "Tests of this repo run with ./x test --quick.")
    return root, repo


def test_history_of_a_project_prints_its_next_commands_with_the_project(tmp_path: Path) -> None:
    root, repo = _project_with_history(tmp_path)
    r = run_here(root, "memory", "history", "--project", str(repo))
    assert r.returncode == 0, r.stderr
    flag = f"--project {shlex.quote(str(repo.resolve()))}"
    assert f"mnemic memory diff VERSION {flag}" in r.stdout
    assert f"mnemic memory restore VERSION {flag}" in r.stdout


def test_the_global_history_prints_no_project(tmp_path: Path) -> None:
    root = tmp_path / "home"
    Memory.open(Home.open(root), origin="agent").add("memory", "The build runs on two cores.")
    r = run_here(root, "memory", "history")
    assert r.returncode == 0, r.stderr
    assert "Bring back: mnemic memory restore VERSION\n" in r.stdout


def test_an_unknown_version_of_a_project_points_to_its_own_history(tmp_path: Path) -> None:
    root, repo = _project_with_history(tmp_path)
    r = run_here(root, "memory", "restore", "999", "--yes", "--project", str(repo))
    assert r.returncode != 0
    flag = f"--project {shlex.quote(str(repo.resolve()))}"
    assert f"`mnemic memory history {flag}`" in r.stderr
