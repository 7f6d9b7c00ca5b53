"""Lifecycle in a project store: expiry, eviction and usage counting apply per store.

A project store is a complete curated store (:mod:`mnemic.curated.scope`), so what keeps
the global store small applies to it on its own: its expired entries leave when a
session with the project starts and at ``mnemic gc``, a full project evicts its own
entries under ``[memory] on_full``, and the sessions an entry mattered in are counted in
the project's own sidecar cache. Each test runs on the files store and on PostgreSQL
(the ``backend`` fixture), where the project's rows sit beside the global ones.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from tests.e2e import run_mnemic

from _backends import Kit
from mnemic.agent import AgentSession
from mnemic.curated import archive as arch
from mnemic.curated.memory import Memory
from mnemic.curated.provenance import entry_key
from mnemic.curated.scope import ProjectHome, open_project
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.usage_log import read_counts
from mnemic.curated.view import MemoryView
from mnemic.home import Home
from mnemic.ops.entry_usage import count_usage
from mnemic.ops.retention import collect_garbage
from mnemic.sessions import open_store
from mnemic.sessions.store import NewMessage, NewSession

NOW = 1_780_000_000.0  # 2026-05-28T20:26Z
END = 1_780_099_200.0  # 2026-05-30T00:00Z: "2026-05-29" holds through that day
FREEZE = "The release branch of this repo is frozen; only hotfixes are merged."
STAYS = "Tests of this repo run with ./x test."
GLOBAL = "The laptop runs Debian testing."
PORT = "The staging database listens on port 6543, not 5432."


def _project(backend: Kit, tmp_path: Path) -> tuple[Home, ProjectHome, Path]:
    directory = tmp_path / "work" / "repo"
    directory.mkdir(parents=True)
    if not (backend.home / "config.toml").exists():
        backend.write_config()
    home = Home.open(backend.home)
    return home, open_project(home, directory, create=True), directory


def _expiring(home: Home, where: ProjectHome) -> None:
    """A global entry, and a project store with a lasting and an expiring entry."""
    Memory.open(home, clock=lambda: NOW).add("memory", GLOBAL)
    mem = Memory.open(where, origin="agent", session_id="w", clock=lambda: NOW)
    mem.add("memory", STAYS)
    resp = run_memory_tool(mem, {"action": "add", "content": FREEZE, "expires": "2026-05-29"})
    assert resp["success"], resp


def _archived(where: Home) -> list[tuple[str | None, str]]:
    return [(a.text, a.reason) for a in arch.listing(MemoryView.open(where))]


def test_an_agent_session_with_a_project_starts_without_its_expired_entries(
    backend: Kit, tmp_path: Path
) -> None:
    """The session runs on the real clock, long after the entry's day (2026-05-29)."""
    home, where, directory = _project(backend, tmp_path)
    _expiring(home, where)
    assert time.time() > END
    session = AgentSession.open(home, provider=None, cwd=directory, project=directory)
    try:
        prompt = session.system_prompt
        assert STAYS in prompt and GLOBAL in prompt and FREEZE not in prompt
    finally:
        session.close()
    assert MemoryView.open(where).entries("memory") == [STAYS]
    assert _archived(where) == [(FREEZE, "expired")]
    assert _archived(home) == []  # the global store's archive is its own


def test_gc_archives_the_expired_entries_of_each_project_store_and_names_the_project(
    backend: Kit, tmp_path: Path
) -> None:
    home, where, directory = _project(backend, tmp_path)
    _expiring(home, where)
    dry = collect_garbage(home, dry_run=True, clock=lambda: END + 60)
    assert dry.counts() == {"expired_entry": 1}
    assert MemoryView.open(where).entries("memory") == [STAYS, FREEZE]
    done = collect_garbage(home, clock=lambda: END + 60)
    [removal] = [r for r in done.removed if r.kind == "expired_entry"]
    assert removal.what.endswith(f"of project {directory}")
    assert MemoryView.open(where).entries("memory") == [STAYS]
    assert _archived(where) == [(FREEZE, "expired")]
    assert MemoryView.open(home).entries("memory") == [GLOBAL]


@pytest.mark.anyio
async def test_an_mcp_server_with_a_project_starts_without_its_expired_entries(
    backend: Kit, tmp_path: Path
) -> None:
    """The connection's memory runs on the real clock, long after the entry's day."""
    import mcp_types as types
    from mcp import Client

    from mnemic.mcp_server import MnemicMCP

    home, where, directory = _project(backend, tmp_path)
    _expiring(home, where)
    srv = MnemicMCP(home, project=str(directory))
    try:
        async with Client(srv.server) as c:
            prompt = await c.get_prompt("memory_context")
    finally:
        srv.close()
    content = prompt.messages[0].content
    assert isinstance(content, types.TextContent)
    assert STAYS in content.text and FREEZE not in content.text
    assert _archived(where) == [(FREEZE, "expired")]


def test_a_full_project_evicts_its_own_entries_never_a_global_one(
    backend: Kit, tmp_path: Path
) -> None:
    backend.write_config("[project]\nmemory_char_limit = 200\n", on_full="archive_oldest")
    home, where, _ = _project(backend, tmp_path)
    Memory.open(home).add("memory", GLOBAL)
    mem = Memory.open(where, origin="agent", session_id="w")
    facts = [f"Project fact number {n} about the build of module {n}." for n in range(4)]
    for fact in facts[:3]:
        mem.add("memory", fact)
    resp = run_memory_tool(mem, {"action": "add", "content": facts[3]})
    assert resp["success"], resp
    assert [e["entry"] for e in resp["evicted"]] == [facts[0]]
    assert MemoryView.open(where).entries("memory") == facts[1:]
    assert _archived(where) == [(facts[0], "evicted")]
    assert MemoryView.open(home).entries("memory") == [GLOBAL]


def _session(home: Home, text: str) -> str:
    with open_store(home) as store:
        sid = store.start_session(NewSession(source="test"))
        store.append_messages(sid, [NewMessage("user", text, timestamp=time.time())])
    return sid


def test_count_usage_of_a_project_store_counts_into_its_own_cache(
    backend: Kit, tmp_path: Path
) -> None:
    home, where, _ = _project(backend, tmp_path)
    Memory.open(home).add("memory", GLOBAL)
    Memory.open(where).add("memory", PORT)
    _session(home, "which port does the staging database listen on?")
    with open_store(home) as store:
        assert count_usage(where, store).written
        assert count_usage(home, store).written
    assert read_counts(where.root).of(entry_key(PORT)).uses == 1
    assert read_counts(home.root).of(entry_key(PORT)).uses == 0  # not a global entry


def test_an_agent_session_with_a_project_counts_its_project_entries(
    backend: Kit, tmp_path: Path
) -> None:
    home, where, directory = _project(backend, tmp_path)
    Memory.open(home).add("memory", GLOBAL)
    Memory.open(where).add("memory", PORT)
    session = AgentSession.open(home, provider=None, cwd=directory, project=directory)
    session.begin_turn("Which port does the staging database listen on?")
    session.add_assistant("Port 6543.")
    session.end_turn()
    session.close()
    assert read_counts(where.root).of(entry_key(PORT)).uses == 1
    shown = run_mnemic(backend.home, "memory", "show", "--long", "--project", str(directory))
    assert shown.returncode == 0, shown.stderr
    assert "mattered in 1 session" in shown.stdout


def test_the_claude_code_hook_counts_the_project_of_its_cwd(backend: Kit, tmp_path: Path) -> None:
    _, where, directory = _project(backend, tmp_path)
    fixtures = "Prefers fixtures over module globals in tests."
    Memory.open(where, clock=lambda: 1_700_000_000.0).add("memory", fixtures)
    fixture = Path(__file__).resolve().parent / "fixtures" / "claude_code_transcript.jsonl"
    (directory / "src").mkdir()
    payload = {
        "session_id": "3f1c2a7e-5b9d-4e61-9a0c-2d8b7f4e1c55",
        "transcript_path": str(fixture),
        "hook_event_name": "SessionEnd",
        "cwd": str(directory / "src"),  # the project of its nearest parent with a store
    }
    done = run_mnemic(backend.home, "hook", "claude-code", stdin=json.dumps(payload))
    assert done.returncode == 0 and "new message(s)" in done.stdout, done.stderr
    assert read_counts(where.root).of(entry_key(fixtures)).uses == 1
