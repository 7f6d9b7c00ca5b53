"""Expiry: an entry may carry a "valid until" time, kept in its write's audit record and
never in its text; once past, it leaves at the next session start (or ``mnemic gc``)
through a recorded write, into the archive with reason ``expired``.

Behaviour on both backends (``backend``). Times come from the memory's clock.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from _backends import Kit
from _cli import cli
from mnemic.agent import AgentSession
from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.curated.pressure import parse_expires
from mnemic.curated.scope import open_project
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.view import MemoryView
from mnemic.errors import InvalidArgument
from mnemic.home import Home
from mnemic.integrations.hook import run_claude_code_hook
from mnemic.ops.retention import collect_garbage

NOW = 1_780_000_000.0  # 2026-05-28T20:26Z
END = 1_780_099_200.0  # 2026-05-30T00:00Z: "2026-05-29" holds through that day
FREEZE = "The release branch is frozen; only hotfixes are merged."
STAYS = "The main branch deploys to staging on every merge."
PROJECT_FREEZE = "The repo's CI is paused for the migration."


def _mem(home: Path, t: float, origin: str = "agent") -> Memory:
    return Memory.open(home, origin=origin, session_id=f"s{int(t)}", clock=lambda: t)


def _home(backend: Kit) -> Path:
    home = backend.write_config()
    mem = _mem(home, NOW)
    mem.add("memory", STAYS)
    resp = run_memory_tool(mem, {"action": "add", "content": FREEZE, "expires": "2026-05-29"})
    assert resp["success"], resp
    return home


def test_expires_is_kept_in_the_record_not_in_the_text(backend: Kit) -> None:
    home = _home(backend)
    assert MemoryView.open(home).entries("memory") == [STAYS, FREEZE]
    assert "2026" not in (backend.raw("memory") or "")
    rec = [r for r in backend.journal().records() if r.get("action") == "add"][-1]
    assert list(rec["changes"]["memory"]["expires"].values()) == [END]
    prov = dict(MemoryView.open(home).provenance("memory"))
    assert (prov[FREEZE].expires, prov[STAYS].expires) == (END, None)


def test_an_expired_entry_leaves_at_the_next_session_start_into_the_archive(
    backend: Kit,
) -> None:
    home = _home(backend)
    clock = [NOW + 3600]
    running = Memory.open(home, origin="agent", session_id="long", clock=lambda: clock[0])
    frozen = running.snapshot.text
    assert FREEZE in frozen
    assert _mem(home, END - 1).expire() == []  # still valid on its last day
    clock[0] = END + 60
    later = _mem(home, END + 60)  # a session starting after it
    assert later.expire() == [("memory", FREEZE)]
    assert FREEZE not in later.new_session().text and STAYS in later.snapshot.text
    assert MemoryView.open(home).entries("memory") == [STAYS]
    [item] = archive.listing(MemoryView.open(home))
    assert (item.text, item.reason, item.archived_at) == (FREEZE, "expired", END + 60)
    # the running session's prompt stays byte for byte what it was
    assert running.snapshot.text == frozen
    running.begin_turn()
    assert running.snapshot.text == frozen
    assert FREEZE not in running.new_session().text  # its next session no longer has it


def test_an_agent_session_starts_without_expired_entries(backend: Kit) -> None:
    """The session runs on the real clock, long after the entry's day (2026-05-29)."""
    home = _home(backend)
    assert time.time() > END
    session = AgentSession.open(home, provider=None, cwd=home)
    try:
        assert FREEZE not in session.system_prompt and STAYS in session.system_prompt
    finally:
        session.close()
    [item] = archive.listing(MemoryView.open(home))
    assert (item.text, item.reason, item.by[0]) == (FREEZE, "expired", "model")


def test_the_claude_code_session_start_hook_starts_without_expired_entries(
    backend: Kit, tmp_path: Path
) -> None:
    """SessionStart is a session start like any other: the expired entries of the global
    store and of the session's project move to the archive before the snapshot is
    printed (real clock, long after the entry's day)."""
    home = _home(backend)
    if backend.name == "files":  # project scopes are a files-backend feature for now
        repo = tmp_path / "repo"
        repo.mkdir()
        proj = Memory.open(open_project(Home.open(home), repo, create=True), clock=lambda: NOW)
        resp = run_memory_tool(proj, {"action": "add", "content": PROJECT_FREEZE,
                                      "expires": "2026-05-29"})  # fmt: skip
        assert resp["success"], resp
    event = {"hook_event_name": "SessionStart", "session_id": "s1", "cwd": str(tmp_path / "repo")}
    result = run_claude_code_hook(json.dumps(event).encode(), home_path=str(home))
    assert result.ok, result
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert FREEZE not in context and STAYS in context
    assert "expired entries moved to the archive" in result.message
    [item] = archive.listing(MemoryView.open(home))
    assert (item.text, item.reason) == (FREEZE, "expired")
    if backend.name == "files":
        assert PROJECT_FREEZE not in context
        store = open_project(Home.open(home), tmp_path / "repo", create=False)
        assert [(a.text, a.reason) for a in archive.listing(MemoryView.open(store))] == [
            (PROJECT_FREEZE, "expired")
        ]
    # the next start finds nothing due and writes nothing
    again = run_claude_code_hook(json.dumps(event).encode(), home_path=str(home))
    assert again.message == "" and json.loads(again.stdout) == json.loads(result.stdout)


def test_the_snapshot_alone_never_expires_anything(backend: Kit) -> None:
    """A snapshot does not read the journal (render_snapshot, a bare Memory.open): the
    entry stays until an agent session starts or gc runs."""
    home = _home(backend)
    assert FREEZE in _mem(home, END + 60).snapshot.text
    assert MemoryView.open(home).entries("memory") == [STAYS, FREEZE]


def test_gc_archives_expired_entries_and_its_dry_run_only_lists_them(backend: Kit) -> None:
    home = _home(backend)
    dry = collect_garbage(home, dry_run=True, clock=lambda: END + 60)
    assert dry.counts() == {"expired_entry": 1}
    assert Memory.open(home, clock=lambda: NOW).entries("memory") == [STAYS, FREEZE]
    done = collect_garbage(home, clock=lambda: END + 60)
    assert done.counts() == {"expired_entry": 1}
    assert [(a.text, a.reason, a.by[0]) for a in archive.listing(MemoryView.open(home))] == [
        (FREEZE, "expired", "gc")
    ]


def test_adding_it_again_with_a_later_date_extends_it(backend: Kit) -> None:
    home = _home(backend)
    resp = run_memory_tool(
        _mem(home, NOW + 60), {"action": "add", "content": FREEZE, "expires": "2026-06-30"}
    )
    # The text stays, the expiry moves: the tool says the expiry changed (mend14), not
    # "Nothing needed to change", which told the model its date had been ignored.
    assert resp["success"] and "its expiry is now as given" in resp["note"]
    assert "Nothing needed to change" not in resp["note"]
    prov = dict(MemoryView.open(home).provenance("memory"))
    assert prov[FREEZE].expires == parse_expires("2026-06-30", NOW)
    assert prov[FREEZE].confirmed == NOW + 60
    assert FREEZE in _mem(home, END + 60).snapshot.text


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"action": "add", "content": "x fact", "expires": "2020-01-01"}, "expires"),
        ({"action": "add", "content": "x fact", "expires": "next week"}, "expires"),
        ({"action": "add", "content": "x fact", "expires": 20260601}, "expires"),
        ({"action": "remove", "old_text": "main", "expires": "2026-06-01"}, "expires"),
        (
            {"operations": [{"action": "add", "content": "x", "expires": "soon"}]},
            "operations[1].expires",
        ),
    ],
)
def test_a_bad_expires_is_refused_with_what_to_give(
    tmp_path: Path, args: dict[str, object], field: str
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    mem = _mem(home, NOW)
    resp = run_memory_tool(mem, args)
    assert resp["error_code"] == "invalid_argument", resp
    assert resp.get("field", field) == field
    assert "expires" in resp["error"]
    assert MemoryView.open(home).entries("memory") == []


def test_parse_expires_reads_dates_and_times_in_utc() -> None:
    assert parse_expires("2026-05-29", NOW) == END
    assert parse_expires("2026-05-29T12:00", NOW) == END - 12 * 3600
    assert parse_expires("2026-05-29T14:00+02:00", NOW) == END - 12 * 3600
    with pytest.raises(InvalidArgument):
        parse_expires("2026-05-27", NOW)


def test_the_calendars_last_day_is_refused_as_itself() -> None:
    """--expires 9999-12-31 was told "expires must be a date YYYY-MM-DD ..., got
    '9999-12-31'" (its end overflowed): it is a date, so it is told why it cannot be used."""
    with pytest.raises(InvalidArgument) as info:
        parse_expires("9999-12-31", NOW)
    said = info.value.to_llm()
    assert "9999-12-31 is the calendar's last day" in said and "must be a date" not in said
    assert parse_expires("9999-12-30", NOW) > NOW
    assert parse_expires("9999-12-31T12:00", NOW) > NOW


def test_the_cli_takes_expires_and_shows_it(backend: Kit) -> None:
    """In process (click's runner): ``memory add``'s own exit codes from the real entry
    point are tests/e2e's; four interpreters a backend were most of this test's time."""
    home = backend.write_config()
    env = {"MNEMIC_HOME": str(home), "COLUMNS": "160"}
    done = cli("memory", "add", "On call this week: Ada.", "--expires", "2999-01-01", env=env)
    assert done.exit_code == 0, done.stderr
    shown = cli("memory", "show", "--long", env=env)
    assert "valid through 2999-01-01 UTC" in shown.stdout  # the day given, not the next
    bad = cli("memory", "add", "Another fact.", "--expires", "yesterday", env=env)
    assert bad.exit_code == 1 and "YYYY-MM-DD" in bad.stderr
    out = cli("memory", "add", "Third fact.", "--expires", "2999-01-01", "--json", env=env)
    assert json.loads(out.stdout)["success"]


@pytest.mark.anyio
async def test_an_mcp_session_starts_without_expired_entries(home_path: Path) -> None:
    """The connection's memory runs on the real clock, long after the entry's day."""
    from _backends import FilesKit
    from test_mcp_server import connect, read

    home = _home(FilesKit(home_path))
    async with connect(home) as client:
        block = await read(client, "mnemic://memory")
    assert STAYS in block and FREEZE not in block
    [item] = archive.listing(MemoryView.open(home))
    assert (item.text, item.reason, item.by[0]) == (FREEZE, "expired", "mcp")
