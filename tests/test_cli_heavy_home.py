"""A year of use (ux11): the read commands on a big home say how much there is and how
to see the rest, instead of assuming a small store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from _cli import cli, cli_json
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.home import Home
from mnemic.sessions import NewMessage, NewSession, open_store


@pytest.fixture
def many_sessions(home_path: Path) -> Path:
    """A home with 45 sessions (5 of them cron), one a day, the newest last."""
    home_path.mkdir(parents=True)
    items = []
    for n in range(45):
        ts = 1.75e9 + n * 86400.0
        msgs = [NewMessage("user", f"question {n}", timestamp=ts),
                NewMessage("assistant", f"answer {n}", timestamp=ts + 5)]  # fmt: skip
        source = "cron" if n % 9 == 0 else "cli"
        items.append((NewSession(id=f"s-{n:03d}", source=source, started_at=ts), msgs))
    with open_store(Home.open(home_path)) as store:
        list(store.import_sessions(items, workers=0))
    return home_path


def test_sessions_list_says_how_many_and_how_to_see_older_ones(many_sessions: Path) -> None:
    out = cli("sessions", "list").output
    assert "s-044" in out and "s-025" in out and "s-024" not in out
    assert "Sessions 1-20 of 45, the most recently active first." in out
    assert "Older: mnemic sessions list --page 2" in out


def test_sessions_list_pages_through_all_of_them(many_sessions: Path) -> None:
    second = cli("sessions", "list", "--page", "2").output
    assert "s-024" in second and "s-005" in second and "s-025" not in second
    assert "Sessions 21-40 of 45" in second and "--page 3" in second
    last = cli("sessions", "list", "--page", "3").output
    assert "Sessions 41-45 of 45" in last and "Older:" not in last
    beyond = cli("sessions", "list", "--page", "4")
    assert beyond.exit_code == 0
    assert "No sessions on page 4: there are 45 sessions." in beyond.output
    # --json keeps its shape (a list), one page of it
    ids = [s["id"] for s in cli_json("sessions", "list", "--limit", "10", "--page", "2")]
    assert ids == [f"s-{n:03d}" for n in range(34, 24, -1)]


def test_sessions_list_counts_the_sources_asked_for(many_sessions: Path) -> None:
    out = cli("sessions", "list", "--source", "cron", "--limit", "2").output
    assert "Sessions 1-2 of 5" in out
    assert "Older: mnemic sessions list --page 2 --limit 2 --source cron" in out
    assert (
        "5 sessions, the most recently active first."
        in cli("sessions", "list", "--source", "cron").output
    )
    assert "No sessions from these sources." in cli("sessions", "list", "--source", "x").output


@pytest.fixture
def long_archive(home_path: Path) -> Path:
    """A home whose archive holds 30 entries: one fact replaced 30 times (v0..v29
    archived, v30 live)."""
    home_path.mkdir(parents=True)
    mem = Memory.open(home_path)
    mem.add("memory", "Deploy target is version 0 of the staging host.")
    for n in range(1, 31):
        mem.replace(
            "memory", f"version {n - 1} of", f"Deploy target is version {n} of the staging host."
        )
    return home_path


def test_archive_list_says_how_many_and_pages_through_them(long_archive: Path) -> None:
    first = cli("memory", "archive", "list", "--limit", "10").output
    assert "version 29 of" in first and "version 20 of" in first and "version 19 of" not in first
    assert (
        "Entries 1-10 of 30, newest first. Older: mnemic memory archive list --page 2 --limit 10"
        in first
    )
    last = cli("memory", "archive", "list", "--limit", "10", "--page", "3").output
    assert "version 9 of" in last and "version 0 of" in last and "version 10 of" not in last
    assert "Entries 21-30 of 30, newest first." in last and "Older:" not in last
    assert (
        "No entries on page 4: the archive holds 30 entries."
        in cli("memory", "archive", "list", "--limit", "10", "--page", "4").output
    )
    assert "30 entries, newest first." in cli("memory", "archive", "list").output
    page = cli_json("memory", "archive", "list", "--limit", "10", "--page", "2")
    assert page["count"] == 30
    assert page["entries"][0]["text"].startswith("Deploy target is version 19 ")
    assert page["note"] == "Entries 11-20 of 30, newest first."


def test_archive_list_reads_only_the_entries_it_shows(
    long_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each text shown is run through the threat scanner: a list of the newest 5 of an
    archive of thousands must not scan every one."""
    from mnemic.ops import archive_search

    shown: list[str] = []
    real = archive_search.display_entry

    def counting(target: str, text: str, level: str | None = None) -> Any:
        shown.append(text)
        return real(target, text, level)

    monkeypatch.setattr(archive_search, "display_entry", counting)
    assert cli("memory", "archive", "list", "--limit", "5").exit_code == 0
    assert len(shown) == 5
    shown.clear()
    assert cli("memory", "archive", "list", "--limit", "5", "--all-scopes").exit_code == 0
    assert len(shown) == 5


def test_audit_list_says_it_shows_the_newest_of_how_many(long_archive: Path) -> None:
    out = cli("audit", "list", "--limit", "10").output.splitlines()
    assert len(out) == 12  # the header, 10 records, the total
    assert out[-1] == (
        "The newest 10 of 31 records, oldest first; all of them: --limit 0 "
        "(or narrow with --action, --result)."
    )
    everything = cli("audit", "list", "--limit", "0").output
    assert "The newest" not in everything and len(everything.splitlines()) == 32
    assert cli("audit", "list", "--action", "forget").output == "No audit record matches.\n"


def _two_projects(home_path: Path, tmp_path: Path) -> None:
    """A home with a fact in each of two project stores, one with an id longer than the
    20 characters the STORE column had."""
    home_path.mkdir(parents=True)
    for name in ("a", "a-project-with-a-long-name"):
        (tmp_path / name).mkdir()
        assert (
            cli("memory", "add", f"A fact of {name}.", "--project", str(tmp_path / name)).exit_code
            == 0
        )


def test_audit_list_keeps_its_columns_with_long_project_ids(
    home_path: Path, tmp_path: Path
) -> None:
    """A project id is longer than the 20 characters the STORE column had: the columns
    after it were pushed right on that project's lines only."""
    _two_projects(home_path, tmp_path)
    lines = cli("audit", "list").output.splitlines()
    assert len(lines) == 3
    assert len({line.index("foreground/cli") for line in lines[1:]}) == 1
    assert lines[0].index("ACTOR/ORIGIN") == lines[1].index("foreground/cli")


def test_memory_status_lines_up_the_project_stores(home_path: Path, tmp_path: Path) -> None:
    _two_projects(home_path, tmp_path)
    out = cli("memory", "status").output.splitlines()
    rows = [line for line in out if line.startswith(f"  {tmp_path}")]
    assert len(rows) == 2
    assert len({line.index("% —") for line in rows}) == 1


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A 24-line terminal; what the pager was given (each call's text)."""
    import os

    from mnemic.cli import app

    paged: list[str] = []
    monkeypatch.setattr(app, "wants_pager", lambda: True)
    monkeypatch.setattr(os, "get_terminal_size", lambda *a: os.terminal_size((80, 24)))
    monkeypatch.setattr(app.click, "echo_via_pager", lambda text, **kw: paged.append(text))
    return paged


def test_memory_show_pages_a_big_store_on_a_terminal(
    long_archive: Path, terminal: list[str]
) -> None:
    mem = Memory.open(long_archive)
    for n in range(30):
        mem.add("memory", f"Fact number {n} about the release train.")
    result = cli("memory", "show")
    assert result.output == ""  # all of it went to the pager
    assert len(terminal) == 1 and "Fact number 29 about" in terminal[0]
    assert terminal[0].count("\n") > 24
    assert "Fact number 29 about" in terminal[0]
    long = cli("memory", "show", "--long")
    assert long.output == "" and "(31 entries)" in terminal[1]


def test_memory_show_prints_what_fits_without_a_pager(
    long_archive: Path, terminal: list[str]
) -> None:
    result = cli("memory", "show", "--target", "memory")
    assert "Deploy target is version 30" in result.output
    assert terminal == []


def test_the_pager_is_only_for_a_person_at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from mnemic.cli.app import wants_pager

    class Tty:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    monkeypatch.setattr(sys, "stdin", Tty(True))
    monkeypatch.setattr(sys, "stdout", Tty(True))
    assert wants_pager()
    for off in ("", "cat"):
        monkeypatch.setenv("MNEMIC_PAGER", off)
        assert not wants_pager()
    monkeypatch.delenv("MNEMIC_PAGER")
    monkeypatch.setattr(sys, "stdout", Tty(False))  # piped: never paged
    assert not wants_pager()


def test_memory_tidy_pages_many_proposals_on_a_terminal(
    home_path: Path, terminal: list[str]
) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text("[memory]\nverbose_chars = 40\n", encoding="utf-8")
    mem = Memory.open(home_path)
    for n in range(12):
        mem.add("memory", f"Long entry {n}: the release train leaves every second Tuesday at nine.")
    result = cli("memory", "tidy", "--lexical")
    assert result.exit_code == 0 and result.output == ""
    assert len(terminal) == 1 and "MEMORY.md: 1 proposal" in terminal[0]
    assert terminal[0].count("\n") > 24
    assert "Nothing was changed." in terminal[0]


def test_pending_list_marks_a_cut_summary(home_path: Path) -> None:
    """A staged replace of long entries: its summary was cut at 120 characters mid-word
    with nothing to say more follows (`pending show ID` has all of it)."""
    home_path.mkdir(parents=True)
    old = (
        "The staging database runs on host db-7.internal and is checked every night "
        "by the backup job."
    )
    Memory.open(home_path).add("memory", old)
    review = Memory.open(home_path, actor="background", origin="review")
    assert review.replace("memory", old, old + " (confirmed in review)").staged
    [row] = [line for line in cli("pending", "list").output.splitlines() if "replace in" in line]
    what = row[row.index("replace in") :]
    assert what.endswith("...") and len(what) == 120


def test_the_sessions_page_says_how_many_sessions_there_are(many_sessions: Path) -> None:
    from test_ui import client_for

    text = client_for(many_sessions).get("/sessions").text
    assert "The 30 most recently active of 45 sessions; a search finds any of them" in text
    assert text.count('<a href="/sessions/view?') == 30


def test_the_archive_notes_write_big_counts_with_separators(home_path: Path) -> None:
    """The MCP resource mnemic://archive and `archive list --json` said "The newest 200 of
    3038"."""
    from mnemic.curated.view import MemoryView
    from mnemic.ops.archive_search import archive_json, every_archive_json

    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text("[memory]\nmemory_char_limit = 40000\n")
    mem = Memory.open(home_path)
    mem.batch("memory", [Op("add", f"Fact number {n}.") for n in range(1002)])
    mem.batch("memory", [Op("remove", None, f"Fact number {n}.") for n in range(1001)])
    home = Home.open(home_path)
    assert archive_json(MemoryView.open(home), limit=200)["note"].startswith(
        "The newest 200 of 1,001;"
    )
    assert every_archive_json([home], limit=200)["note"].startswith("The newest 200 of 1,001;")


def test_prompt_pages_a_long_system_prompt_on_a_terminal(
    long_archive: Path, terminal: list[str]
) -> None:
    mem = Memory.open(long_archive)
    for n in range(30):
        mem.add("memory", f"Fact number {n} about the release train.")
    result = cli("prompt")
    assert result.exit_code == 0 and result.output == ""
    assert len(terminal) == 1 and terminal[0].startswith("System prompt of a new session:")
    assert "Fact number 29 about" in terminal[0]
    # --memory-only is what hooks read: never paged
    assert "Fact number 29 about" in cli("prompt", "--memory-only").output
    assert len(terminal) == 1
