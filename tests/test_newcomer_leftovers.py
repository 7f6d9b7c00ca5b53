"""What the newcomer walks of session 53 left (docs/first-week.md, rows 52, 61 and 63):
the Hermes import's report of an archive file no Hermes writes, the session search
notice's "background indexer", and the times of the search tool's answer over MCP.

Real homes, the real CLI (click's runner), the real tool.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tests.test_mcp_server import connect

import _hermes_home as hh
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.cli import main
from mnemic.home import Home
from mnemic.sessions import open_store
from mnemic.sessions.search.retrieval import semantic_state
from mnemic.sessions.store import NewMessage


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args])


def _hermes(tmp_path: Path) -> Path:
    root = tmp_path / "hermes"
    hh.write_memory(root, "MEMORY.md", hh.MEMORY)
    hh.write_memory(root, "USER.md", hh.USER)
    return root


def test_a_hermes_home_without_an_archive_file_is_not_told_it_is_missing(
    home_path: Path, tmp_path: Path
) -> None:
    """#61: every Hermes 0.19 home was told "ARCHIVE.jsonl: not in the Hermes home,
    skipped.", though no Hermes writes that file: the person looked for something
    missing. --json keeps saying the part is absent."""
    source = _hermes(tmp_path)
    r = _run(home_path, "import", "hermes", str(source))
    assert r.exit_code == 0, r.output
    assert "ARCHIVE.jsonl" not in r.stdout
    data = json.loads(_run(home_path, "import", "hermes", str(source), "--json").stdout)
    assert data["archive"]["missing"] is True


def test_an_archive_file_that_is_there_is_still_reported(home_path: Path, tmp_path: Path) -> None:
    source = _hermes(tmp_path)
    hh.write_archive(source, hh.ARCHIVE)
    r = _run(home_path, "import", "hermes", str(source))
    assert r.exit_code == 0, r.output
    assert any(line.startswith("ARCHIVE.jsonl: ") for line in r.stdout.splitlines())


class _Embedder:
    """Enough of an embedder for the vector count: the store has no vector of it."""

    model_id = "stand-in-model"
    dim = 4


def test_the_no_vectors_notice_says_what_embeds_and_the_command_that_does_it_now(
    tmp_path: Path,
) -> None:
    """#52's leftover: "run `mnemic sessions embed` (the background indexer also catches
    up)": nothing said what that indexer is, and none runs at the command line; the
    agents that record through mnemic embed what they record, not earlier messages."""
    with SQLiteSessionStore(tmp_path / "sessions.db", durable=False) as store:
        store.start_session(id="s1", started_at=1_750_000_000.0, source="cli")
        store.append_messages("s1", [NewMessage("user", "the staging database is on 5433")])
        state = semantic_state(store, lambda: _Embedder())  # type: ignore[arg-type,return-value]
    assert state.code == "stale" and state.notice is not None
    assert "background indexer" not in state.notice
    assert "run `mnemic sessions embed` to embed them now" in state.notice
    assert "`mnemic chat`" in state.notice and "`mnemic integrate hermes`" in state.notice


@pytest.fixture
def kolkata(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process's zone is Asia/Kolkata (+05:30) for the test, then back."""
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.anyio
async def test_the_search_tools_times_over_mcp_carry_their_offset(
    home_path: Path, kolkata: None
) -> None:
    """#63's leftover: over MCP, session_search gave `when`, `last_active` and each
    message's `time` as "2025-06-15 19:30": local time with no offset, so a model (or
    a client in another zone) could not tell when that was."""
    at = 1_750_000_000.0  # 2025-06-15 15:06:40 UTC = 20:36 in Kolkata
    with open_store(Home.open(home_path)) as store:
        sid = store.start_session(source="cli", started_at=at)
        said = NewMessage("user", "the staging database is on 5433", timestamp=at)
        store.append_message(sid, said)
    async with connect(home_path) as client:
        res = await client.call_tool("session_search", {"query": "staging database"})
    answer = res.structured_content
    assert not res.is_error and answer is not None
    (result,) = answer["results"]
    assert result["when"] == "2025-06-15 20:36 +05:30"
    assert result["last_active"].endswith(" +05:30")  # the append's time
    times = [m["time"] for m in result.get("messages") or []]
    assert times and set(times) == {"2025-06-15 20:36 +05:30"}
    async with connect(home_path) as client:
        res = await client.call_tool(
            "session_search", {"query": "staging database", "as_of": "2025-06-20"}
        )
    assert res.structured_content is not None
    assert res.structured_content["time"]["until"] == "2025-06-21 00:00 +05:30"


def test_json_keeps_its_utc_times_beside_the_offset_times(home_path: Path, kolkata: None) -> None:
    at = 1_750_000_000.0
    with open_store(Home.open(home_path)) as store:
        sid = store.start_session(source="cli", started_at=at)
        said = NewMessage("user", "the staging database is on 5433", timestamp=at)
        store.append_message(sid, said)
    data = json.loads(_run(home_path, "sessions", "search", "staging database", "--json").stdout)
    (result,) = data["results"]
    assert result["when_utc"] == "2025-06-15T15:06Z"
    assert result["when"] == "2025-06-15 20:36 +05:30"
