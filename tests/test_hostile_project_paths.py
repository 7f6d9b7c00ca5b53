"""Hostile project directories (issue 32, hostile1): a path the store cannot record is
refused with what to do, before anything is created; odd ``project`` arguments of the
memory tool are refused and write nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from _cli import cli
from mnemic.curated.memory import Memory
from mnemic.curated.scope import find_project, open_project, project_id
from mnemic.curated.tool import run_memory_tool
from mnemic.errors import ProjectScopeError
from mnemic.home import Home


def _latin1_dir(tmp_path: Path) -> Path:
    raw = os.path.join(os.fsencode(tmp_path), b"caf\xe9")  # "café" in Latin-1
    try:
        os.mkdir(raw)
    except OSError:  # a file system that takes UTF-8 names only
        pytest.skip("this file system refuses names that are not UTF-8")
    return Path(os.fsdecode(raw))


def test_a_project_directory_not_in_utf8_is_refused_before_anything_is_made(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`mnemic memory add --project .` in a directory named in Latin-1 failed with a
    UnicodeEncodeError traceback, after making the store's directory (no project.json)."""
    directory = _latin1_dir(tmp_path)
    monkeypatch.chdir(directory)
    assert cli("memory", "add", "Global fact.").exit_code == 0
    for args in (("add", "--project", ".", "Build with make."), ("show", "--project", ".")):
        result = cli("memory", *args)
        assert result.exit_code == 1, result.output
        assert "not UTF-8 text" in result.output and "Rename the directory" in result.output
        assert "caf\\xe9" in result.output and "Traceback" not in result.output
    assert not (home_path / "projects").exists()
    with pytest.raises(ProjectScopeError) as caught:
        open_project(Home.open(home_path), directory, create=True)
    assert caught.value.reason == "not_utf8"
    assert Memory.open(home_path).entries("memory") == ["Global fact."]


def test_a_latin1_project_directory_through_a_real_process(home_path: Path, tmp_path: Path) -> None:
    directory = _latin1_dir(tmp_path)
    env = {**os.environ, "MNEMIC_HOME": str(home_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "mnemic", "memory", "add", "--project", ".", "Build with make."],
        cwd=os.fsencode(directory),
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert "not UTF-8 text" in proc.stderr
    assert not (home_path / "projects").exists()


@pytest.mark.parametrize(
    ("project", "says"),
    [
        ("relative/dir", "absolute path"),
        ("..", "absolute path"),
        ("", "absolute path"),
        (5, "absolute path"),
        (["/tmp"], "absolute path"),
        ("/no/such/directory/anywhere", "does not exist"),
        ("/tmp/\x00nul", "does not exist"),
        ("/" + "a" * 5000, "does not exist"),
    ],
)
def test_odd_project_arguments_are_refused_and_write_nothing(
    home_path: Path, project: object, says: str
) -> None:
    home_path.mkdir(parents=True)
    mem = Memory.open(home_path)
    opened: list[str] = []

    def project_at(directory: str) -> Memory:
        opened.append(directory)
        return Memory.open(open_project(Home.open(home_path), directory, create=True))

    args = {"action": "add", "scope": "project", "project": project, "content": "A fact."}
    resp = run_memory_tool(mem, args, project_at=project_at)
    assert resp["success"] is False, resp
    assert resp["error_code"] in ("invalid_argument", "project_scope")
    assert says in resp["error"]
    assert mem.entries("memory") == []
    assert not (home_path / "projects").exists()


def test_a_file_where_a_project_directory_is_named_is_refused(
    home_path: Path, tmp_path: Path
) -> None:
    home_path.mkdir(parents=True)
    a_file = tmp_path / "not-a-dir"
    a_file.write_text("x", encoding="utf-8")
    result = cli("memory", "add", "--project", str(a_file), "A fact.")
    assert result.exit_code == 1 and "not a directory" in result.output
    assert not (home_path / "projects").exists()


def test_the_file_system_root_is_no_project(home_path: Path, tmp_path: Path) -> None:
    """`--project /` (or a model's ``project="/"`` under `mnemic mcp --any-project`) made
    a store for the root: as the nearest parent of every directory, its notes then came
    into every Claude Code session with no closer project, as "notes for this project
    only"."""
    result = cli("memory", "add", "--project", "/", "A fact for everywhere.")
    assert result.exit_code == 1, result.output
    assert "cannot be a project" in result.output and "global memory" in result.output
    assert not (home_path / "projects").exists()
    # A root store made before the refusal is no nearest project of any directory.
    root = home_path / "projects" / project_id("/")
    root.mkdir(parents=True)
    (root / "project.json").write_text('{"path": "/"}', encoding="utf-8")
    assert find_project(home_path, tmp_path) is None
    (tmp_path / "repo").mkdir()
    assert cli("memory", "add", "--project", str(tmp_path / "repo"), "Repo fact.").exit_code == 0
    found = find_project(home_path, tmp_path / "repo")
    assert found is not None and found.path == str((tmp_path / "repo").resolve())


def test_the_root_from_mnemic_project_says_where_it_came_from(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MNEMIC_PROJECT", "/")
    result = cli("memory", "add", "A fact.")
    assert result.exit_code == 1
    assert "cannot be a project" in result.stderr
    assert "MNEMIC_PROJECT" in result.stderr and "unset MNEMIC_PROJECT" in result.stderr
    assert not (home_path / "projects").exists()


def test_a_session_project_directory_deleted_since_is_told_in_the_model_s_terms(
    home_path: Path, tmp_path: Path
) -> None:
    """The library's refusal ended "Pass the project's directory (e.g. --project .)":
    a flag the model cannot pass; its session's project is fixed."""
    home_path.mkdir(parents=True)
    mem = Memory.open(home_path)
    gone = tmp_path / "repo"
    gone.mkdir()
    gone.rmdir()

    def project() -> Memory:
        return Memory.open(open_project(Home.open(home_path), gone, create=True))

    args = {"action": "add", "scope": "project", "content": "A fact."}
    resp = run_memory_tool(mem, args, project=project)
    assert resp["success"] is False and resp["error_code"] == "project_scope"
    assert "project directory no longer exists" in resp["error"]
    assert 'scope="global"' in resp["error"] and "--project" not in resp["error"]
    assert mem.entries("memory") == [] and not (home_path / "projects").exists()
