"""A year of use (ux11): the read commands on a big home say how much there is and how
to see the rest, instead of assuming a small store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from _cli import cli, cli_json
from mnemic.curated.memory import Memory
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
    assert "5 sessions, the most recently active first." in cli(
        "sessions", "list", "--source", "cron"
    ).output
    assert "No sessions from these sources." in cli("sessions", "list", "--source", "x").output


@pytest.fixture
def long_archive(home_path: Path) -> Path:
    """A home whose archive holds 30 entries: one fact replaced 30 times (v0..v29
    archived, v30 live)."""
    home_path.mkdir(parents=True)
    mem = Memory.open(home_path)
    mem.add("memory", "Deploy target is version 0 of the staging host.")
    for n in range(1, 31):
        mem.replace("memory", f"version {n - 1} of", f"Deploy target is version {n} of the staging host.")
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
    assert "No entries on page 4: the archive holds 30 entries." in cli(
        "memory", "archive", "list", "--limit", "10", "--page", "4"
    ).output
    assert "30 entries, newest first." in cli("memory", "archive", "list").output
    page = cli_json("memory", "archive", "list", "--limit", "10", "--page", "2")
    assert page["count"] == 30
    assert [e["text"] for e in page["entries"]][0].startswith("Deploy target is version 19 ")
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
