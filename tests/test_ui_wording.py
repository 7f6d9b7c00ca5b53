"""The console as a newcomer reads it: times as the CLI shows them (local, with the
offset), an empty journal said in words, archive ids as the CLI takes them, counts in
the right number."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from _zone import in_zone
from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.sessions import open_store
from mnemic.sessions.store import NewMessage
from test_ui import PAGES, client_for

STAMP = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?Z?(?: [+-]\d\d:\d\d)?")


@pytest.fixture
def zone() -> Iterator[None]:
    with in_zone():
        yield


def _times(html: str) -> list[str]:
    return STAMP.findall(html)


def test_the_audit_table_shows_local_times_with_their_offset(home_path: Path, zone: None) -> None:
    Memory.open(home_path, origin="cli").add("memory", "Deploys go through staging.")
    page = client_for(home_path).get("/audit").text
    assert "time (UTC)" not in page
    stamps = _times(page)
    assert stamps and all(s.endswith(" +05:30") for s in stamps), stamps


def test_search_results_show_their_time_as_every_page_does(home_path: Path, zone: None) -> None:
    with open_store(Home.open(home_path)) as store:
        sid = store.start_session(source="cli")
        store.append_message(sid, NewMessage("user", "the billing deploy hit ERR_QUOTA_7731"))
        store.end_session(sid, "user_exit")
    page = client_for(home_path).get("/sessions?q=ERR_QUOTA_7731").text
    assert "ERR_QUOTA_7731" in page
    stamps = _times(page)
    assert stamps and all(s.endswith(" +05:30") for s in stamps), stamps


def test_an_empty_journal_is_said_in_words(home_path: Path) -> None:
    Home.open(home_path)
    page = client_for(home_path).get("/audit").text
    assert "the journal is empty" in page
    assert "0 record(s)" not in page and "Head <code>0000" not in page


def test_archive_ids_are_shown_as_the_cli_takes_them(home_path: Path) -> None:
    mem = Memory.open(home_path, origin="cli")
    mem.add("memory", "The staging host is stg-3.")
    mem.remove("memory", "stg-3")
    page = client_for(home_path).get("/archive").text
    shown = re.findall(r"mnemic memory archive show ([0-9.]+)", page)
    assert shown and all("." not in s for s in shown), shown


def test_counts_are_in_the_right_number(home_path: Path) -> None:
    Memory.open(home_path, origin="cli").add("memory", "Deploys go through staging.")
    client = client_for(home_path)
    audit = client.get("/audit").text
    assert "(s)" not in audit and "Chain intact: 1 record checked." in audit
    assert "1 of 1 record," in audit
    assert "(s)" not in client.get("/memory").text


def test_every_link_within_a_page_leads_somewhere(home_path: Path) -> None:
    """The prompt page linked its empty sections (system, context) to anchors that no
    section carried: a click that did nothing."""
    Memory.open(home_path, origin="cli").add("memory", "Deploys go through staging.")
    client = client_for(home_path)
    for path in PAGES:
        page = client.get(path).text
        ids = set(re.findall(r'id="([^"]+)"', page))
        anchors = set(re.findall(r'href="#([^"]+)"', page))
        assert anchors <= ids, (path, anchors - ids)
    prompt = client.get("/prompt").text
    assert "empty: not in the prompt" in prompt


def test_an_empty_file_is_not_shown_as_a_numbered_entry(home_path: Path) -> None:
    """'1. No entries yet.' read as an entry whose text was that sentence."""
    Memory.open(home_path, origin="cli").add("memory", "Deploys go through staging.")
    page = client_for(home_path).get("/memory").text
    assert '<li class="muted">No entries yet.</li>' not in page
    assert "No entries yet." in page  # USER.md is empty
    assert "1 entry</span>" in page and "0 entries</span>" in page


def test_the_history_address_alone_leads_to_the_versions(home_path: Path) -> None:
    """/memory/history without a file and version said "Unknown target ''" (400)."""
    Home.open(home_path)
    r = client_for(home_path).get("/memory/history")
    assert r.status_code == 303 and r.headers["location"] == "/memory"


@pytest.mark.parametrize("path", ["/prompt", "/tidy"])
def test_an_unreadable_memory_file_leaves_the_prompt_and_tidy_pages_up(
    home_path: Path, path: str
) -> None:
    """With MEMORY.md not valid UTF-8, /prompt and /tidy answered 409 "Refused" as a whole
    page (the usage chart and the tidy queue check read the file), while `mnemic prompt`
    and `mnemic memory tidy` go on with USER.md and say why MEMORY.md is left out."""
    Memory.open(home_path).add("user", "Name is Ana.")
    broken = b"Repo builds\n\xc2\xa7\nbad \xff\xfe bytes"
    (home_path / "memories" / "MEMORY.md").write_bytes(broken)
    r = client_for(home_path).get(path)
    assert r.status_code == 200, r.text
    assert "not valid UTF-8" in r.text
    assert (home_path / "memories" / "MEMORY.md").read_bytes() == broken


def test_a_nearly_full_file_points_to_the_tidy_page_and_says_what_on_full_does(
    home_path: Path,
) -> None:
    """The Memory page's pressure note names the next step the CLI names (tidy), and
    under [memory] on_full says what the next write that does not fit will do."""
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text("[memory]\nmemory_char_limit = 120\n")
    Memory.open(home_path).add(
        "memory", "The staging host stg-1 runs postgres 15 behind pgbouncer."
    )
    Memory.open(home_path).add("memory", "Deploys go out on Tuesdays after the freeze.")
    page = client_for(home_path).get("/memory").text
    (note,) = re.findall(r'<span class="warn">nearly full: (.*?)</span>', page, re.S)
    assert "merge or remove stale entries" in note and '<a href="/tidy">' in note
    (home_path / "config.toml").write_text(
        '[memory]\nmemory_char_limit = 120\non_full = "archive_oldest"\n'
    )
    page = client_for(home_path).get("/memory").text
    (note,) = re.findall(r'<span class="warn">nearly full: (.*?)</span>', page, re.S)
    assert "moves the entries best dropped to the archive" in note
    assert "merge or remove" not in note
