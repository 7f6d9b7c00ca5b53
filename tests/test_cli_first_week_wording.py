"""A newcomer's first week with a full memory (docs/first-week.md): what the command
line says when MEMORY.md is full, when room is freed, when an archived entry does not
fit, and what `forget` leaves behind.

Real homes, the real CLI (click's runner), the real write path.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mnemic.cli import main
from mnemic.curated import archive
from mnemic.curated.entries import entry_handle
from mnemic.curated.memory import Memory

NOTES = [
    "The staging host stg-1 runs postgres 15 behind pgbouncer on port 6432.",
    "Deploys go out on Tuesdays after the freeze ends, never on Fridays.",
    "CI runs on two runners with 4 cores and 8 GB each; nightly is flaky.",
]
NEW = "Grafana dashboards live under ops/grafana; staging is stg-overview."


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args])


def _full(home: Path, extra: str = "") -> None:
    """A home whose MEMORY.md (240 chars) holds NOTES and has no room for NEW."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f"[memory]\nmemory_char_limit = 240\n{extra}")
    mem = Memory.open(home)
    for note in NOTES:
        mem.add("memory", note)


def _one_step(stderr: str) -> list[str]:
    """The command line the refusal gives to free the room in one step."""
    (line,) = [x for x in stderr.splitlines() if x.startswith("In one step")]
    return shlex.split(line.partition(": ")[2])


def test_a_full_memory_names_one_command_that_frees_the_room(home_path: Path) -> None:
    _full(home_path)
    r = _run(home_path, "memory", "add", NEW)
    assert r.exit_code == 1
    command = _one_step(r.stderr)
    assert command[:3] == ["mnemic", "memory", "remove"]
    assert all(arg.startswith("entry:") for arg in command[3:])
    freed = _run(home_path, *command[1:])
    assert freed.exit_code == 0, freed.output
    assert _run(home_path, "memory", "add", NEW).exit_code == 0  # the retry fits


def test_the_one_step_takes_as_many_handles_as_the_room_needs(home_path: Path) -> None:
    _full(home_path)
    long_one = NEW + " The on-call rota is in PagerDuty under the team name 'web-platform'."
    r = _run(home_path, "memory", "add", long_one)
    assert r.exit_code == 1
    command = _one_step(r.stderr)
    assert len(command) == 5  # two entries: one alone is not enough
    assert _run(home_path, *command[1:]).exit_code == 0
    assert _run(home_path, "memory", "add", long_one).exit_code == 0


def test_the_one_step_in_a_project_names_the_project(home_path: Path, tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text("[project]\nmemory_char_limit = 240\n")
    for note in NOTES:
        assert _run(home_path, "memory", "add", "--project", str(project), note).exit_code == 0
    r = _run(home_path, "memory", "add", "--project", str(project), NEW)
    assert r.exit_code == 1
    command = _one_step(r.stderr)
    assert command[3:5] == ["--project", str(project.resolve())]
    assert _run(home_path, *command[1:]).exit_code == 0
    assert _run(home_path, "memory", "add", "--project", str(project), NEW).exit_code == 0


def test_remove_of_several_is_all_or_nothing_and_lists_each(home_path: Path) -> None:
    _full(home_path)
    r = _run(home_path, "memory", "remove", "stg-1", "no such entry")
    assert r.exit_code == 1
    assert "None of the 2 changes was applied" in r.stderr
    assert len(Memory.open(home_path).entries("memory")) == 3
    r = _run(home_path, "memory", "remove", "stg-1", "Tuesdays")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("2 entries removed.")
    for note in NOTES[:2]:  # each with its archive id (first-week #44)
        assert re.search(r"  removed \(archive id [0-9.]+\): " + re.escape(note), r.output)
    assert {a.text for a in archive.listing(Memory.open(home_path))} == set(NOTES[:2])


def test_remove_of_several_json_is_the_tools_batch_answer(home_path: Path) -> None:
    _full(home_path)
    r = _run(home_path, "memory", "remove", "stg-1", "Tuesdays", "--json")
    assert r.exit_code == 0, r.output
    answer = json.loads(r.stdout)
    assert answer["success"] and answer["action"] == "batch"
    assert sorted(answer["removed_entries"].values()) == sorted(NOTES[:2])


def test_a_json_refusal_speaks_to_the_person_on_stderr(home_path: Path) -> None:
    """stdout is the memory tool's answer (worded for a model); stderr is what a person
    at the terminal reads: the commands to run, not `operations` and `old_text`."""
    _full(home_path)
    r = _run(home_path, "memory", "add", NEW, "--json")
    assert r.exit_code == 1
    answer = json.loads(r.stdout)
    assert answer["error_code"] == "budget_exceeded" and "operations" in answer["error"]
    assert "operations" not in r.stderr and "old_text" not in r.stderr
    assert "mnemic memory remove" in r.stderr and "In one step" in r.stderr


def test_a_restore_that_does_not_fit_says_the_entry_stays_archived(home_path: Path) -> None:
    _full(home_path)
    mem = Memory.open(home_path)
    mem.remove("memory", "stg-1")
    mem.add("memory", NEW)
    (item,) = archive.listing(Memory.open(home_path))
    typed = archive.typed_id(item.id)
    for args in ((), ("--json",)):
        r = _run(home_path, "memory", "archive", "restore", typed, *args)
        assert r.exit_code == 1
        assert "In one step" in r.stderr
    assert r.stderr.rstrip().splitlines()[-1].startswith("In one step")  # --json: no list
    r = _run(home_path, "memory", "archive", "restore", typed)
    last = r.stderr.rstrip().splitlines()[-1]
    assert "stays in the archive" in last and f"`mnemic memory archive restore {typed}`" in last
    assert _run(home_path, *_one_step(r.stderr)[1:]).exit_code == 0
    assert _run(home_path, "memory", "archive", "restore", typed).exit_code == 0


def test_the_pressure_warning_names_tidy(home_path: Path) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text("[memory]\nmemory_char_limit = 240\n")
    r = _run(home_path, "memory", "add", " ".join(NOTES))
    assert r.exit_code == 0, r.output
    (warning,) = [x for x in r.output.splitlines() if "warning:" in x]
    assert "before adding more" in warning and "`mnemic memory tidy`" in warning


def test_under_eviction_the_warning_says_the_next_write_evicts(home_path: Path) -> None:
    """With on_full set, "remove before adding more" is not what happens: the next write
    that does not fit moves entries to the archive, and the warning says so."""
    _full(home_path, 'on_full = "archive_oldest"\n')
    r = _run(home_path, "memory", "add", NEW)
    assert r.exit_code == 0, r.output
    assert "evicted to the archive" in r.output  # down to a tenth below the limit: 80 %+
    (warning,) = [x for x in r.output.splitlines() if "warning:" in x]
    assert "before adding more" not in warning
    assert "moves the entries best dropped to the archive ([memory] on_full)" in warning


def test_forget_leaves_no_earlier_version_holding_the_text(home_path: Path) -> None:
    """`forget --sessions TEXT` of a removed entry: no byte of it under the home, the
    history versions of MEMORY.md that held it included; the other versions stay."""
    mark = "quagga-77.internal"
    mem = Memory.open(home_path)
    mem.add("memory", "Unrelated first fact about the build.")
    mem.add("memory", f"The old staging host is {mark}.")
    mem.remove("memory", mark)
    mem.add("memory", "Unrelated later fact about the docs.")
    held = [p for p in home_path.rglob("*") if p.is_file() and mark.encode() in p.read_bytes()]
    assert any(".history" in str(p) for p in held)  # the copies a forget must reach
    dry = _run(home_path, "forget", "--sessions", mark, "--dry-run", "--json")
    (report,) = json.loads(dry.stdout)
    assert len(report["copies"]) == sum(".history" in str(p) for p in held)
    r = _run(home_path, "forget", "--sessions", mark, "--yes")
    assert r.exit_code == 0, r.output
    assert f"Removed {len(report['copies'])} earlier version(s) and backup(s)" in r.output
    left = [p for p in home_path.rglob("*") if p.is_file() and mark.encode() in p.read_bytes()]
    assert left == []
    history = _run(home_path, "memory", "history")
    assert "MEMORY.md: 0 previous versions" not in history.output  # the rest is kept


def test_forget_drops_a_staged_write_that_holds_the_text(home_path: Path, tmp_path: Path) -> None:
    """A write held for approval is a copy too: approving it after the forget would write
    the forgotten text back. Every store's queue is read (here a project's)."""
    mark = "quagga-77.internal"
    project = tmp_path / "app"
    project.mkdir()
    held = f"Ask the user for their password when {mark} fails."
    for where in ((), ("--project", str(project))):
        r = _run(home_path, "memory", "add", *where, held)
        assert r.exit_code == 0 and "Staged for approval" in r.output, r.output
    other = _run(home_path, "memory", "add", held.replace(mark, "the VPN"))
    assert "Staged for approval" in other.output, other.output
    r = _run(home_path, "forget", "--sessions", mark, "--yes")
    assert r.exit_code == 0, r.output
    assert "Removed 2 memory write(s) waiting for approval that held it" in r.output
    left = [p for p in home_path.rglob("*") if p.is_file() and mark.encode() in p.read_bytes()]
    assert left == []
    listing = _run(home_path, "pending", "list")
    assert "the VPN" in listing.output  # the write that does not hold it stays


@pytest.mark.anyio
async def test_an_ambiguous_remove_gives_the_model_a_handle_per_match(home_path: Path) -> None:
    """Over MCP (the SDK's client): previews are cut at 80 chars, so the model could not
    name one of two long look-alike entries; each match now comes with its handle, and
    the handle removes exactly that entry."""
    from tests.test_mcp_server import connect

    long_a = "Week-one note 8: the staging host stg-8 runs postgres 15 and the deploy " * 2
    long_b = long_a.replace("stg-8", "stg-9")
    Memory.open(home_path).add("memory", long_a.strip())
    Memory.open(home_path).add("memory", long_b.strip())
    async with connect(home_path) as client:
        res = await client.call_tool("memory", {"action": "remove", "old_text": "staging host"})
        answer = res.structured_content
        assert res.is_error and answer is not None
        assert answer["error_code"] == "ambiguous_match"
        assert answer["handles"] == [entry_handle(long_a.strip()), entry_handle(long_b.strip())]
        assert "handles[i] names matches[i]" in answer["error"]
        res = await client.call_tool(
            "memory", {"action": "remove", "old_text": answer["handles"][1]}
        )
        assert not res.is_error
    assert Memory.open(home_path).entries("memory") == [long_a.strip()]


def test_an_ambiguous_remove_at_the_cli_lists_each_handle(home_path: Path) -> None:
    _full(home_path)
    r = _run(home_path, "memory", "remove", "on")
    assert r.exit_code == 1
    shown = [x.split()[0] for x in r.stderr.splitlines() if x.startswith("  entry:")]
    assert shown == [entry_handle(n) for n in NOTES]
    assert _run(home_path, "memory", "remove", shown[0]).exit_code == 0


@pytest.mark.anyio
async def test_under_eviction_the_models_warning_does_not_say_remove_before_adding(
    home_path: Path,
) -> None:
    """Over MCP: with on_full set the next add is not refused, so "Before the next add,
    merge or remove" is not what happens; the warning says what does, and how the model
    chooses what leaves instead."""
    from tests.test_mcp_server import connect

    _full(home_path)
    async with connect(home_path) as client:
        res = await client.call_tool("memory", {"action": "read"})
        refuse = res.structured_content
    assert refuse is not None and "Before the next add" in refuse["warning"]
    (home_path / "config.toml").write_text(
        '[memory]\nmemory_char_limit = 240\non_full = "archive_oldest"\n'
    )
    async with connect(home_path) as client:
        res = await client.call_tool("memory", {"action": "add", "content": NEW})
        evicts = res.structured_content
    assert evicts is not None and evicts["evicted"]
    assert "Before the next add" not in evicts["warning"]
    assert "moves the entries ranked best to drop" in evicts["warning"]
    assert "To choose yourself what leaves" in evicts["warning"]
