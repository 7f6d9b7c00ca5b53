"""The same held write proposed again waits once (docs/first-week.md row 26).

Before: a model in a later session cannot know its write waits for approval; proposing
it again queued a second record, so the person had two to reject. Now a change identical
to a live pending record (same target, actions, texts, scope) answers with that record's
id and says it already waits: in the tool's answer, the CLI and over MCP, on the files
and PostgreSQL queues, and for two processes proposing it at the same moment.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.test_mcp_server import connect

from _backends import Kit
from mnemic.cli import main
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool
from mnemic.ops import PendingQueue


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def stage_mcp(backend: Kit, extra: str = "") -> None:
    backend.write_config(f'[approval]\nmemory_mcp = "stage"\nskills_mcp = "stage"\n{extra}')


def session(home: Path, n: int, **kw: object) -> Memory:
    return Memory.open(home, actor="mcp", origin="mcp:desktop", session_id=f"s{n}", **kw)  # type: ignore[arg-type]


def test_the_same_write_from_a_later_session_answers_the_waiting_record(backend: Kit) -> None:
    stage_mcp(backend)
    add = {"action": "add", "target": "memory", "content": "Deploys go out on Tuesdays"}
    first = run_memory_tool(session(backend.home, 1), dict(add))
    again = run_memory_tool(session(backend.home, 2), dict(add))
    assert first["staged"] and again["staged"]
    assert again["pending_id"] == first["pending_id"]
    assert again["already_pending"] is True and "already_pending" not in first
    assert "already proposed and still waits" in again["message"]
    assert "no second copy was queued" in again["message"]
    assert [r.id for r in PendingQueue.open(backend.home).records()] == [first["pending_id"]]
    journal = list(session(backend.home, 3).governor.journal.records())  # type: ignore[union-attr]
    last = journal[-1]
    assert (last["decision"], last["result"], last["pending_id"]) == (
        "again",
        "staged",
        first["pending_id"],
    )


def test_a_different_text_target_or_action_is_a_new_record(backend: Kit) -> None:
    stage_mcp(backend)
    mem = session(backend.home, 1)
    ids = {
        mem.add("memory", "Deploys go out on Tuesdays").pending_id,
        mem.add("memory", "Deploys go out on Thursdays").pending_id,
        mem.add("user", "Deploys go out on Tuesdays").pending_id,
    }
    assert len(ids) == 3 and len(PendingQueue.open(backend.home).records()) == 3


def test_an_expired_record_does_not_count(backend: Kit) -> None:
    stage_mcp(backend, "pending_ttl_hours = 1.0\n")
    clock = Clock()
    first = session(backend.home, 1, clock=clock).add("memory", "Uses tabs")
    clock.now += 3600  # the first record has expired: it can no longer be approved
    second = session(backend.home, 2, clock=clock).add("memory", "Uses tabs")
    assert second.staged and not second.again and second.pending_id != first.pending_id
    clock.now += 1  # the second one is live: a third proposal answers with it
    third = session(backend.home, 3, clock=clock).add("memory", "Uses tabs")
    assert third.again and third.pending_id == second.pending_id


def test_the_same_skill_change_waits_once(backend: Kit) -> None:
    from mnemic.skills.governed import GovernedSkills

    stage_mcp(backend)
    body = "---\nname: deploy-docs\ndescription: Build the docs.\n---\n1. Run `make docs`.\n"
    args = {"action": "create", "name": "deploy-docs", "content": body}
    answers = []
    for n in (1, 2):
        mem = session(backend.home, n)
        assert mem.governor is not None
        answers.append(GovernedSkills(mem.governor).call("skill_manage", dict(args)))
    assert answers[0]["pending_id"] == answers[1]["pending_id"]
    assert answers[1]["already_pending"] is True
    assert len(PendingQueue.open(backend.home).records()) == 1


def test_the_cli_says_it_already_waits(backend: Kit) -> None:
    backend.write_config('[approval]\nmemory_foreground = "stage"\n')
    runner = CliRunner()
    argv = ["--home", str(backend.home), "memory", "add", "Prefers short answers"]
    first = runner.invoke(main, argv)
    second = runner.invoke(main, argv)
    assert first.exit_code == 0 and second.exit_code == 0, second.output
    [record] = PendingQueue.open(backend.home).records()
    assert f"Staged for approval as {record.id}" in first.output
    assert f"Already waiting for approval as {record.id}" in second.output
    as_json = runner.invoke(main, [*argv, "--json"])
    assert json.loads(as_json.stdout)["pending_id"] == record.id


@pytest.mark.anyio
async def test_over_mcp_the_second_proposal_names_the_first(home_path: Path) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text('[approval]\nmemory_mcp = "stage"\n')
    add = {"action": "add", "content": "Release notes live in CHANGES.md"}
    async with connect(home_path) as client:
        first = (await client.call_tool("memory", add)).structured_content
    async with connect(home_path) as client:  # a later session of the client
        again = (await client.call_tool("memory", add)).structured_content
    assert first is not None and again is not None
    assert again["pending_id"] == first["pending_id"] and again["already_pending"] is True
    assert len(PendingQueue.open(home_path).records()) == 1


WORKER = """
import sys
from mnemic.curated.memory import Memory
mem = Memory.open(sys.argv[1], actor="mcp", origin="mcp:desktop", session_id=sys.argv[2])
print("ready", flush=True)
assert sys.stdin.readline() == "go\\n"
result = mem.add("memory", "Both processes propose this")
print(result.pending_id, getattr(result, "again", False), flush=True)
"""


def test_two_processes_proposing_at_once_leave_one_record(backend: Kit) -> None:
    stage_mcp(backend)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(backend.home), f"p{i}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(3)
    ]
    for p in procs:  # every process has opened the store before any proposes
        assert p.stdout is not None
        assert p.stdout.readline() == "ready\n", p.communicate(timeout=120)[1][-2000:]
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    answers = []
    for p in procs:
        out, err = p.communicate(timeout=240)
        assert p.returncode == 0, err[-2000:]
        pid, again = out.split()
        answers.append((pid, again == "True"))
    [record] = PendingQueue.open(backend.home).records()
    assert {pid for pid, _ in answers} == {record.id}
    assert sorted(again for _, again in answers) == [False, True, True]
