"""What the newcomer walks of session 53 left (docs/first-week.md, rows 52, 61 and 63):
the Hermes import's report of an archive file no Hermes writes, the session search
notice's "background indexer", and the times of the search tool's answer over MCP.

Real homes, the real CLI (click's runner), the real tool.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

import _hermes_home as hh
from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.cli import main
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
