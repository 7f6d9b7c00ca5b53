"""The user's home directory is no project: `--project ~` was accepted, and its store
then became the nearest project of every directory under the home that had none of its
own, its notes shown in each such session as notes for this project only (the file
system's root was refused for the same reason: tests/test_hostile_project_paths.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mnemic.cli import main
from mnemic.curated.memory import Memory
from mnemic.curated.scope import PROJECTS_DIR, find_project, open_project, project_id
from mnemic.curated.tool import run_memory_tool
from mnemic.errors import ProjectScopeError
from mnemic.home import Home


def _cli(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "user"
    (home / "src" / "app").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    return home


def test_the_home_directory_is_refused_as_a_project(home_path: Path, user_home: Path) -> None:
    for given in (str(user_home), f"{user_home}/", "~"):
        result = _cli("memory", "add", "--project", given, "A fact for everywhere.")
        assert result.exit_code == 1, result.output
        assert "home directory" in result.output and "cannot be a project" in result.output
        assert "global memory" in result.output
    from_env = _cli("memory", "add", "A fact.", env={"MNEMIC_PROJECT": str(user_home)})
    assert from_env.exit_code == 1 and "unset MNEMIC_PROJECT" in from_env.output
    assert not (home_path / PROJECTS_DIR).exists()
    # a directory inside the home is a project as before
    app = user_home / "src" / "app"
    assert _cli("memory", "add", "--project", str(app), "App fact.").exit_code == 0
    found = find_project(home_path, app / "sub")
    assert found is not None and found.path == str(app)


def test_a_home_directory_store_made_before_is_no_nearest_project(
    home_path: Path, user_home: Path
) -> None:
    made = home_path / PROJECTS_DIR / project_id(user_home)
    made.mkdir(parents=True)
    (made / "project.json").write_text(json.dumps({"path": str(user_home)}), encoding="utf-8")
    assert find_project(home_path, user_home / "src" / "app") is None
    assert find_project(home_path, user_home) is None


def test_a_model_naming_the_home_directory_is_refused(home_path: Path, user_home: Path) -> None:
    """As `mnemic mcp --any-project` runs a call naming its directory."""
    home = Home.open(home_path)

    def project_at(directory: str) -> Memory:
        return Memory.open(open_project(home, directory))

    res = run_memory_tool(
        Memory.open(home),
        {"action": "add", "scope": "project", "project": str(user_home), "content": "x"},
        project_at=project_at,
    )
    assert res["success"] is False and res["error_code"] == "project_scope"
    assert "--project" not in res["error"]  # a model is told in its own terms
    with pytest.raises(ProjectScopeError) as err:
        project_at(str(user_home))
    assert err.value.reason == "home"
    assert not (home_path / PROJECTS_DIR).exists()
