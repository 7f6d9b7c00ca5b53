"""Hostile command lines of the lifecycle commands under ``--json`` (issue 32, hostile1):
a usage error is one JSON refusal on stdout, its words on stderr, exit status 2
(README, "Exit status"), also when the root finds it before the command parses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from _cli import cli


def _refusal(stdout: str) -> dict[str, object]:
    answer = json.loads(stdout)
    assert answer["success"] is False and answer["error_code"] == "usage"
    return answer


@pytest.mark.parametrize(
    "args",
    [
        ("forget", "--text", "caf\udce9", "--yes", "--json"),  # Latin-1 bytes, as Python hands them
        ("memory", "add", "caf\udce9", "--json"),
        ("--home", "{home}", "memory", "archive", "search", "\udcff", "--json"),
        ("memory", "move", "fact", "--to", "project", "--project", "/tmp/\udcff", "--json"),
    ],
)
def test_an_argument_that_is_not_utf8_is_a_json_refusal(home_path: Path, args: tuple[str]) -> None:
    """The root refused it before the command parsed: stdout was empty under --json."""
    argv = [a.replace("{home}", str(home_path)) for a in args]
    result = cli(*argv)
    assert result.exit_code == 2
    answer = _refusal(result.stdout)
    assert "is not valid UTF-8 text" in str(answer["error"])
    assert "is not valid UTF-8 text" in result.stderr
    assert not home_path.exists()


def test_the_root_project_before_a_command_without_it_is_a_json_refusal(
    home_path: Path, tmp_path: Path
) -> None:
    result = cli("--project", str(tmp_path), "gc", "--json")
    assert result.exit_code == 2
    assert "does not take --project" in str(_refusal(result.stdout)["error"])
    assert "does not take --project" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("memory", "add", "--", "caf\udce9", "--json"),  # after --: a text, not the option
        ("forget", "--text", "caf\udce9", "--yes"),
    ],
)
def test_without_json_stdout_stays_empty(home_path: Path, args: tuple[str]) -> None:
    result = cli(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert "is not valid UTF-8 text" in result.stderr


def test_a_latin1_argument_in_a_real_process(home_path: Path) -> None:
    env = {**os.environ, "MNEMIC_HOME": str(home_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "mnemic", "forget", "--text", b"caf\xe9", "--yes", "--json"],
        env=env,
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "is not valid UTF-8 text" in str(_refusal(proc.stdout.decode())["error"])
    assert b"Traceback" not in proc.stderr and b"is not valid UTF-8 text" in proc.stderr


def test_a_qualified_id_its_store_lacks_names_the_id_and_every_store(
    home_path: Path, tmp_path: Path
) -> None:
    """A project entry restored twice: the second refusal named the bare id ('2') and
    pointed to `mnemic memory archive list`, the global store's list, which lacks it."""
    repo = tmp_path / "repo"
    repo.mkdir()
    for args in (("add", "Build with make."), ("remove", "make")):
        assert cli("memory", *args, "--project", str(repo)).exit_code == 0
    listed = json.loads(cli("memory", "archive", "list", "--all-scopes", "--json").stdout)
    (ref,) = [e["ref"] for e in listed["entries"]]
    assert ":" in ref
    assert cli("memory", "archive", "restore", ref).exit_code == 0
    for command in ("restore", "show"):
        again = cli("memory", "archive", command, ref, "--json")
        assert again.exit_code == 1
        error = str(json.loads(again.stdout)["error"])
        assert f"No archived entry {ref!r}" in error
        assert f"project store {ref.partition(':')[0]}" in error
        assert "`mnemic memory archive list --all-scopes`" in error
        assert error in again.stderr
    gone = cli("memory", "archive", "show", "global:7")
    assert gone.exit_code == 1 and "the global store holds no '7'" in gone.stderr


@pytest.mark.parametrize("command", ["list", "search"])
def test_the_user_archive_of_a_project_is_refused_as_memory_show_refuses_it(
    home_path: Path, tmp_path: Path, command: str
) -> None:
    """`archive list/search --target user --project DIR` answered "the archive is empty"
    (a project has no USER.md): a person took a global entry for lost."""
    for args in (("add", "--target", "user", "Prefers tabs."), ("remove", "--target", "user")):
        assert cli("memory", *args, *(["tabs"] if args[0] == "remove" else [])).exit_code == 0
    query = ["tabs"] if command == "search" else []
    result = cli(
        "memory", "archive", command, *query, "--target", "user", "--project", str(tmp_path),
        "--json",
    )  # fmt: skip
    assert result.exit_code == 1
    answer = json.loads(result.stdout)
    assert answer["error_code"] == "project_scope" and "USER.md is global only" in answer["error"]
    every = cli("memory", "archive", command, *query, "--target", "user", "--all-scopes")
    assert every.exit_code == 0 and "Prefers tabs." in every.stdout


@pytest.mark.parametrize("how", ["handle", "text"])
def test_moving_a_user_entry_says_the_profile_is_global(
    home_path: Path, tmp_path: Path, how: str
) -> None:
    """It said "No MEMORY.md entry has the handle ...: it is mistyped, or the entry it
    named was removed", of a live USER.md entry."""
    from mnemic.curated.entries import entry_handle
    from mnemic.curated.view import MemoryView

    text = "Prefers tabs over spaces."
    assert cli("memory", "add", "--target", "user", text).exit_code == 0
    selector = entry_handle(text) if how == "handle" else "tabs over"
    result = cli(
        "memory", "move", selector, "--to", "project", "--project", str(tmp_path), "--json"
    )
    assert result.exit_code == 1
    answer = json.loads(result.stdout)
    assert answer["error_code"] == "project_scope"
    assert "names a USER.md entry" in answer["error"] and "global only" in answer["error"]
    assert MemoryView.open(home_path).entries("user") == [text]
    missing = cli("memory", "move", "no such words", "--to", "project", "--project", str(tmp_path))
    assert missing.exit_code == 1 and "No MEMORY.md entry contains" in missing.stderr


@pytest.mark.parametrize("selector", ["no such words", "entry:00000000", "Prefers tabs"])
def test_a_refused_move_makes_no_project_store(
    home_path: Path, tmp_path: Path, selector: str
) -> None:
    """`memory move TYPO --to project --project DIR` said "Nothing was changed" and made
    DIR's store: `memory status` then listed it, and the Claude Code hook took DIR (and
    every directory under it) for a project from then on."""
    assert cli("memory", "add", "A global fact.").exit_code == 0
    assert cli("memory", "add", "--target", "user", "Prefers tabs.").exit_code == 0
    result = cli("memory", "move", selector, "--to", "project", "--project", str(tmp_path))
    assert result.exit_code == 1 and "Nothing was changed" in result.stderr
    assert not (home_path / "projects").exists()
    assert "Project stores" not in cli("memory", "status").stdout
    moved = cli("memory", "move", "global fact", "--to", "project", "--project", str(tmp_path))
    assert moved.exit_code == 0, moved.output
    assert len(list((home_path / "projects").iterdir())) == 1
