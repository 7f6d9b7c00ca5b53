"""`mnemic db copy --sessions-only` (mend15, item 6; docs/first-week.md row 78).

A third host with a memory of its own could not bring its session history into the
team's schema: the copy stopped at "already holds a different MEMORY.md", and
--overwrite replaced the team's memory. --sessions-only copies the history alone (with
its tombstones) and leaves the curated memory, pending writes and journal of both sides
as they are. Shown between two file homes: the copy is the same code for a database.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from mnemic.cli import main
from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.sessions import open_store
from mnemic.sessions.store import NewMessage


def _host(root: Path, fact: str, session: str) -> Path:
    Memory.open(Home.open(root), origin="cli").add("memory", fact)
    with open_store(Home.open(root)) as store:
        sid = store.start_session(id=session, title=f"{session} work")
        store.append_messages(sid, [NewMessage("user", f"hello from {session}")])
    return root


def _memory(root: Path) -> str:
    return (root / "memories" / "MEMORY.md").read_text(encoding="utf-8")


def test_a_host_with_its_own_memory_brings_its_sessions_alone(tmp_path: Path) -> None:
    team = _host(tmp_path / "team", "The team deploys on Fridays.", "team-1")
    third = _host(tmp_path / "third", "Host C keeps its builds in /srv/c.", "c-1")
    before = _memory(team)
    run = CliRunner()
    plain = run.invoke(main, ["db", "copy", "--from", str(third), "--to", str(team)])
    assert plain.exit_code == 1 and "already holds a different MEMORY.md" in plain.output
    done = run.invoke(
        main,
        ["db", "copy", "--from", str(third), "--to", str(team), "--sessions-only", "--json"],
    )
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["verified"] is True
    assert report["kinds"]["sessions"]["copied"] == 1
    assert report["kinds"]["messages"]["copied"] == 1
    assert not any(w in k for k in report["kinds"] for w in ("MEMORY.md", "audit", "pending"))
    assert _memory(team) == before
    assert "Host C" not in _memory(team)
    with open_store(Home.open(team)) as store:
        assert sorted(s.id for s in store.list_sessions()) == ["c-1", "team-1"]


def test_sessions_only_with_overwrite_is_a_usage_error(tmp_path: Path) -> None:
    done = CliRunner().invoke(
        main,
        ["db", "copy", "--from", str(tmp_path / "a"), "--to", str(tmp_path / "b"),
         "--sessions-only", "--overwrite"],
    )  # fmt: skip
    assert done.exit_code == 2
    assert "which --sessions-only leaves" in done.output
