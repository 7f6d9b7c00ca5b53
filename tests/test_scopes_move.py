"""Moving an entry between the global memory and a project's (``mnemic memory move``).

Two recorded writes, add to the destination then remove from the source into its
archive with reason ``moved``: a refusal or a staged add changes nothing in the
source, and a move cut between its two writes leaves a duplicate that running it again
finishes. Files backend (project scopes).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _cli import cli
from mnemic.curated import archive as arch
from mnemic.curated.entries import entry_handle
from mnemic.curated.memory import Memory
from mnemic.curated.scope import ProjectHome, open_project
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.view import MemoryView
from mnemic.errors import AmbiguousMatch, BudgetExceeded, NoMatch
from mnemic.home import Home
from mnemic.ops.move import move_entry

NOW = 1_780_000_000.0
SSH = "The user signs commits with SSH keys, never GPG."
TESTS = "Tests of this repo run with ./x test."


def _setup(tmp_path: Path, config: str = "") -> tuple[Home, ProjectHome, Path]:
    root = tmp_path / "home"
    repo = tmp_path / "repo"
    repo.mkdir()
    where = open_project(Home.open(root), repo, create=True)
    mem = Memory.open(where, origin="agent", session_id="w")
    mem.add("memory", TESTS)
    mem.add("memory", SSH)
    if config:  # after the entries went in: it may stage every write
        (root / "config.toml").write_text(config)
    home = Home.open(root)
    return home, open_project(home, repo, create=False), repo


def _archived(where: Home) -> list[tuple[str | None, str]]:
    return [(a.text, a.reason) for a in arch.listing(MemoryView.open(where))]


def test_an_entry_moves_from_a_project_to_global_and_the_project_archives_it(
    tmp_path: Path,
) -> None:
    home, where, repo = _setup(tmp_path)
    result = move_entry(home, repo, "signs commits", to="global")
    assert result.done and (result.source, result.destination) == (f"project {repo}", "global")
    assert MemoryView.open(home).entries("memory") == [SSH]
    assert MemoryView.open(where).entries("memory") == [TESTS]
    assert _archived(where) == [(SSH, "moved")]
    assert _archived(home) == []
    # the global copy is credited to the move's writer, the archive keeps who wrote it first
    [item] = arch.listing(MemoryView.open(where))
    assert item.provenance.origin == "agent" and item.by[1] == "cli"


def test_an_entry_moves_from_global_into_a_new_project_store_with_its_expiry(
    tmp_path: Path,
) -> None:
    root = tmp_path / "home"
    mem = Memory.open(root, origin="agent", session_id="w", clock=lambda: NOW)
    resp = run_memory_tool(mem, {"action": "add", "content": TESTS, "expires": "2026-06-30"})
    assert resp["success"], resp
    expires = dict(MemoryView.open(root).provenance("memory"))[TESTS].expires
    repo = tmp_path / "repo"
    repo.mkdir()
    home = Home.open(root)
    result = move_entry(home, repo, entry_handle(TESTS), to="project")  # by its handle
    assert result.done
    where = open_project(home, repo, create=False)
    assert where.project.exists
    assert dict(MemoryView.open(where).provenance("memory"))[TESTS].expires == expires
    assert MemoryView.open(home).entries("memory") == []
    assert _archived(home) == [(TESTS, "moved")]


def test_a_move_that_does_not_fit_changes_neither_store(tmp_path: Path) -> None:
    home, where, repo = _setup(tmp_path, "[memory]\nmemory_char_limit = 100\n")
    laptop = "The laptop runs Debian testing; its disk is encrypted with LUKS2 and TPM."
    Memory.open(home).add("memory", laptop)  # 74 of 100 chars: SSH's 48 do not fit
    with pytest.raises(BudgetExceeded):
        move_entry(home, repo, SSH, to="global")
    assert MemoryView.open(where).entries("memory") == [TESTS, SSH]
    assert MemoryView.open(home).entries("memory") == [laptop]
    assert _archived(where) == [] and _archived(home) == []


def test_a_selector_must_name_one_entry_of_the_source(tmp_path: Path) -> None:
    home, where, repo = _setup(tmp_path)
    with pytest.raises(NoMatch):
        move_entry(home, repo, "not there", to="global")
    with pytest.raises(AmbiguousMatch):
        move_entry(home, repo, "e", to="global")
    assert MemoryView.open(where).entries("memory") == [TESTS, SSH]


def test_a_staged_add_leaves_the_entry_in_the_source(tmp_path: Path) -> None:
    home, where, repo = _setup(tmp_path, '[approval]\nmemory_foreground = "stage"\n')
    result = move_entry(home, repo, SSH, to="global")
    assert not result.done and result.added.staged and result.added.pending_id
    assert "waits for approval" in result.message()
    assert MemoryView.open(where).entries("memory") == [TESTS, SSH]
    assert MemoryView.open(home).entries("memory") == []


def test_a_move_cut_after_its_add_is_finished_by_running_it_again(tmp_path: Path) -> None:
    """The crash between the two writes: the entry is in both stores (added to global,
    not yet removed from the project); nothing is lost and the second run finishes."""
    home, where, repo = _setup(tmp_path)
    Memory.open(home).add("memory", SSH)  # the first write of a move that stopped there
    result = move_entry(home, repo, SSH, to="global")
    assert result.done and result.added.results[0].status == "duplicate"
    assert MemoryView.open(home).entries("memory") == [SSH]
    assert MemoryView.open(where).entries("memory") == [TESTS]


def test_the_cli_moves_and_says_where_and_asks_for_a_project(tmp_path: Path) -> None:
    """In-process (CliRunner, with ``run_mnemic``'s environment: three interpreters were
    0.5 s of CPU; the memory commands run as processes of their own in ``tests/e2e``)."""
    home, where, repo = _setup(tmp_path)
    env = {"MNEMIC_HOME": str(home.root), "COLUMNS": "160"}
    done = cli("memory", "move", "signs commits", "--to", "global", "--project", str(repo),
               "--json", env=env)  # fmt: skip
    assert done.exit_code == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["success"], data["entry"], data["to"]) == (True, SSH, "global")
    back = cli("--project", str(repo), "memory", "move", SSH, "--to", "project", env=env)
    assert back.exit_code == 0, back.stderr
    assert "Moved to the project" in back.stdout
    assert MemoryView.open(where).entries("memory") == [TESTS, SSH]
    bare = cli("memory", "move", SSH, "--to", "global", env=env)
    assert bare.exit_code == 2 and "--project DIR" in bare.stderr
