"""A newcomer's week with the lifecycle on three projects (docs/first-week.md, rows 82
on): what `memory status` and `memory show` say of a project store and of entries past
their expiry, and what `forget --text` says of a live entry that holds the text.

Real homes, the real CLI (click's runner), the real write path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mnemic.cli import main
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.curated.tool import run_memory_tool
from mnemic.home import Home

THEN = 1_780_000_000.0  # 2026-05-28T20:26Z: the entry below expired long before today
ON_CALL = "Bob covers the pager this week."
STAYS = "The main branch deploys to staging on every merge."


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args])


def _with_an_expired_entry(home: Path) -> None:
    """A home whose MEMORY.md holds an entry past its expiry that no session start or
    `mnemic gc` moved yet (written by a clock of May 2026)."""
    home.mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home, origin="agent", clock=lambda: THEN)
    mem.add("memory", STAYS)
    answer = run_memory_tool(mem, {"action": "add", "content": ON_CALL, "expires": "2026-05-29"})
    assert answer["success"], answer


def test_status_of_a_project_names_it_and_its_commands_carry_it(
    home_path: Path, tmp_path: Path
) -> None:
    """#82: `memory status --project DIR` printed a bare "MEMORY.md ... /1,500 chars" row,
    read as the global MEMORY.md, and a nearly full project was told to run `mnemic
    memory show --long` and `mnemic memory remove TEXT`, which work on the global store."""
    project = tmp_path / "api"
    project.mkdir()
    (home_path).mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text("[project]\nmemory_char_limit = 200\n")
    mem = Memory.open(open_project(Home.open(home_path), project, create=True))
    for n in range(3):
        mem.add("memory", f"API note {n}: endpoint /v{n}/items is served by items_v{n}.")
    said = _run(home_path, "memory", "status", "--project", str(project)).stdout
    assert said.splitlines()[0] == f"Project {project}:"
    assert "nearly full" in said
    flag = f"--project {project}"
    for command in ("memory tidy", "memory show --long", "memory remove TEXT"):
        assert f"`mnemic {command} {flag}`" in said


def test_show_of_an_empty_project_names_it(home_path: Path, tmp_path: Path) -> None:
    """#82: `memory show --project .` in a directory with no store yet (a project moved to
    it) said "MEMORY.md: empty", as the global file's empty state reads."""
    project = tmp_path / "web2"
    project.mkdir()
    home_path.mkdir(parents=True, exist_ok=True)
    Memory.open(home_path).add("memory", STAYS)
    said = _run(home_path, "memory", "show", "--project", str(project)).stdout
    assert said.strip() == f"MEMORY.md of project {project}: empty (no block in the prompt)"


def test_status_lists_entries_past_their_expiry(home_path: Path) -> None:
    """#83: with an entry past its expiry still in MEMORY.md (and in what `prompt
    --memory-only` pastes), `memory status` said nothing of it."""
    _with_an_expired_entry(home_path)
    said = _run(home_path, "memory", "status").stdout
    assert (
        "MEMORY.md: 1 entry past its expiry, still in the file: the next session start "
        "(or `mnemic gc`) moves it to the archive:" in said
    )
    assert f"[2] {ON_CALL}  (valid through 2026-05-29 UTC)" in said
    rows = json.loads(_run(home_path, "memory", "status", "--json").stdout)
    (row,) = [r for r in rows if r["target"] == "memory"]
    (gone,) = row["expired"]
    assert (gone["index"], gone["entry"], gone["expires_utc"]) == (
        2,
        ON_CALL,
        "2026-05-30T00:00:00Z",
    )


def test_show_says_the_next_session_will_not_hold_an_expired_entry(home_path: Path) -> None:
    """#83: `memory show`, "exactly what the next session's prompt gets", showed an entry
    past its expiry as any other, though the next session start moves it to the archive
    first."""
    _with_an_expired_entry(home_path)
    said = _run(home_path, "memory", "show").stdout
    block, _, after = said.partition(STAYS)
    assert ON_CALL in block + after
    assert (
        "1 entry above is past its expiry: the next session start (or `mnemic gc`) moves it "
        "to the archive first, so the next session's prompt will not hold it:" in after
    )
    assert f"  expired: {ON_CALL}" in after
    assert "past its expiry" not in _run(home_path, "memory", "show", "--raw").stdout


def test_forget_of_a_live_entry_says_it_stays_and_how_to_take_it_out(
    home_path: Path, tmp_path: Path
) -> None:
    """#84: `forget --text` of a fact still in MEMORY.md said "Removed 1 copies of memory
    entry texts ... (a live entry stays in its file)": the fact stayed in every prompt,
    and which entry, and what to run, was left to the reader."""
    project = tmp_path / "infra"
    project.mkdir()
    home_path.mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home_path)
    mem.add("memory", "The oncall rota is on the wiki page OnCall/Rota.")
    mem.add("memory", STAYS)
    Memory.open(open_project(Home.open(home_path), project, create=True)).add(
        "memory", "The oncall rota for infra is in PagerDuty."
    )
    r = _run(home_path, "forget", "--text", "oncall rota", "--yes")
    assert r.exit_code == 0, r.output
    assert "Removed 2 memory entry texts from the audit journal." in r.stdout  # two stores
    assert "Not forgotten: 2 live entries still hold it" in r.stdout
    assert f"  MEMORY.md of project {project}: The oncall rota for infra" in r.stdout
    data = json.loads(_run(home_path, "forget", "--text", "oncall rota", "--json", "--yes").stdout)
    live = data[0]["live"]
    assert [(x["target"], x["project"]) for x in live] == [
        ("memory", None),
        ("memory", str(project)),
    ]
    first, second = (x["handle"] for x in live)
    assert f"`mnemic memory remove {first}`" in r.stdout
    assert f"`mnemic memory remove {second} --project {project}`" in r.stdout
    assert "then run `mnemic forget --text 'oncall rota'` again" in r.stdout


def test_forget_says_one_copy(home_path: Path) -> None:
    """#84: "Removed 1 copies of memory entry texts" (the add's record of a live entry)."""
    home_path.mkdir(parents=True, exist_ok=True)
    Memory.open(home_path).add("memory", "The oncall rota is on the wiki page OnCall/Rota.")
    r = _run(home_path, "forget", "--text", "wiki page OnCall", "--yes")
    assert r.exit_code == 0, r.output
    assert "Removed 1 memory entry text from the audit journal." in r.stdout


def test_show_and_status_in_a_project_directory_say_its_sessions_get_its_block(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#87: in a project's directory, `memory show` ("what the next session's prompt
    gets") showed the global blocks alone, though a Claude Code session started there
    gets the project's block too; `memory status` listed the project among others."""
    project = tmp_path / "api"
    (project / "src").mkdir(parents=True)
    home_path.mkdir(parents=True, exist_ok=True)
    home = Home.open(home_path)
    Memory.open(home).add("memory", STAYS)
    Memory.open(open_project(home, project, create=True)).add("memory", "API tests need the db.")
    monkeypatch.chdir(project / "src")
    note = (
        f"This directory is in project {project}: a session started here (the Claude Code "
        "hook, an MCP client whose root it is) also gets its PROJECT MEMORY block, shown by "
        f"`mnemic memory show --project {project}`."
    )
    assert note in _run(home_path, "memory", "show").stdout
    assert note in _run(home_path, "memory", "status").stdout
    assert "This directory" not in _run(home_path, "memory", "show", "--project", ".").stdout
    monkeypatch.chdir(tmp_path)
    assert "This directory" not in _run(home_path, "memory", "show").stdout


def _mcp_banner(home: Path, *args: str) -> str:
    """The first line `mnemic mcp` prints on stderr (stdin empty: it ends at once)."""
    env = {k: v for k, v in os.environ.items() if k != "MNEMIC_PROJECT"}
    done = subprocess.run(
        [sys.executable, "-m", "mnemic", "--home", str(home), "mcp", *args],
        input="", capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stderr.splitlines()[0]


@pytest.mark.e2e  # starts the real `mnemic mcp` (out of the quick loop)
def test_the_mcp_banner_names_the_project_it_serves(home_path: Path, tmp_path: Path) -> None:
    """#88: `mnemic mcp --project DIR` said only "serving HOME over stdio": nothing told
    which project's memory its scope="project" calls reach (a moved directory's new path
    reaches an empty store)."""
    project = tmp_path / "api"
    project.mkdir()
    home_path.mkdir(parents=True, exist_ok=True)
    Memory.open(home_path).add("memory", STAYS)
    assert _mcp_banner(home_path, "--project", str(project)).startswith(
        f"mnemic mcp: serving {home_path} (and the memory of project {project}) over stdio"
    )
    assert _mcp_banner(home_path, "--any-project").startswith(
        f"mnemic mcp: serving {home_path} (and the project each memory call names) over stdio"
    )
    assert _mcp_banner(home_path).startswith(f"mnemic mcp: serving {home_path} over stdio")


def test_tidy_after_a_rejection_says_how_to_keep_one_wording(home_path: Path) -> None:
    """#90: a merge rejected because the other wording was wanted was listed again, "--stage
    passes it over", and the listing ended "Nothing was changed, and --stage would pass
    every one over.": nothing said how to keep the other entry."""
    home_path.mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home_path)
    mem.add("memory", "The staging database runs PostgreSQL 15 on port 5433.")
    mem.add("memory", "Staging DB: PostgreSQL 15, port 5433.")
    staged = _run(home_path, "memory", "tidy", "--stage", "--lexical")
    assert staged.exit_code == 0 and "A proposal you rejected" not in staged.stdout
    assert _run(home_path, "pending", "reject", "all").exit_code == 0
    said = _run(home_path, "memory", "tidy", "--lexical").stdout
    assert "--stage passes it over: a person rejected this proposal before" in said
    assert (
        "A proposal you rejected stays listed here: to keep one of its entries yourself, "
        "`mnemic memory remove` the other (the archive keeps it)." in said
    )


def test_the_prompt_names_entries_a_session_start_moves_out(home_path: Path) -> None:
    """#96: `mnemic prompt`, "the whole system prompt a new session gets", showed an entry
    past its expiry in the memory block, though a session start moves it out first."""
    _with_an_expired_entry(home_path)
    said = _run(home_path, "prompt").stdout
    head = said.partition("─" * 72)[0]
    assert (
        "Past its expiry: 1 MEMORY.md entry below; a session start moves it to the archive "
        f"first, so its prompt will not hold it: '{ON_CALL}'" in head
    )
    only = _run(home_path, "prompt", "--memory-only").stdout  # the hook's bare snapshot
    assert "Past its expiry" not in only and ON_CALL in only


def test_a_restore_says_so_first_then_what_it_caused(home_path: Path) -> None:
    """#93: `archive restore` under `on_full` printed "Entry added.", the eviction lines
    and the warning, and only last "restored from the archive: 30.1": the restore came
    after what it caused."""
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(
        '[memory]\nmemory_char_limit = 200\non_full = "archive_oldest"\n'
    )
    mem = Memory.open(home_path)
    mem.add("memory", "Deploys go through ./deploy.sh on Tuesdays.")
    mem.remove("memory", "deploy.sh")
    for n in range(3):
        mem.add("memory", f"Service {n} listens on port 80{n}0 in the staging network.")
    r = _run(home_path, "memory", "archive", "restore", "2")
    assert r.exit_code == 0, r.output
    first, *rest = r.stdout.splitlines()
    assert first.startswith("Entry restored from the archive: 2 (it is no longer archived).")
    assert any("evicted to the archive" in line for line in rest)
    assert not any("restored from the archive" in line for line in rest)
