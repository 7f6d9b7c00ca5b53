"""The light look at the audit journal that the session start takes before folding it
for expired entries (:class:`mnemic.registry.JournalPeek`): it may only ever say "no
expiry here" when no record holds one, so skipping the fold changes nothing."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from mnemic.backends.files import FILES
from mnemic.config import Settings
from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.view import MemoryView
from mnemic.home import Home
from mnemic.integrations.hook import run_claude_code_hook
from mnemic.registry import JournalPeek, backend_for

NOW = 1_780_000_000.0  # 2026-05-28T20:26Z, long past for the real clock of the hook


def _may_hold(root: Path) -> bool:
    return FILES.journal_may_hold(str(root), Settings(), "expires")


def test_the_files_store_can_peek_at_its_journal() -> None:
    assert isinstance(backend_for(Settings()), JournalPeek)


def test_only_a_record_with_an_expiry_makes_the_journal_hold_one(home_path: Path) -> None:
    assert not _may_hold(home_path)  # no home, no journal
    mem = Memory.open(home_path, clock=lambda: NOW)
    mem.add("memory", "The release branch is frozen.")
    # the word, even quoted, inside an entry's text is escaped in the record
    mem.add("memory", 'The token "expires" after an hour; the field is "expires":.')
    mem.remove("memory", "The release branch")
    assert (home_path / "audit" / "journal.jsonl").stat().st_size > 0
    assert not _may_hold(home_path)
    resp = run_memory_tool(
        mem, {"action": "add", "content": "CI is paused.", "expires": "2026-06-01"}
    )
    assert resp["success"], resp
    assert _may_hold(home_path)


def test_the_look_reads_past_its_chunks(home_path: Path) -> None:
    """A mention that straddles two of the look's 1 MiB reads is still found."""
    audit = home_path / "audit"
    audit.mkdir(parents=True)
    journal = audit / "journal.jsonl"
    pad = b"x" * ((1 << 20) - 4)
    journal.write_bytes(pad + b'{"expires":{}}\n')
    assert _may_hold(home_path)
    journal.write_bytes(pad + b'{"other":{}}\n')
    assert not _may_hold(home_path)


def test_a_journal_that_is_not_a_regular_file_is_looked_at_properly(home_path: Path) -> None:
    """A FIFO in place of the journal neither blocks the look nor hides an expiry; a
    symlink is not followed: both answer "may hold one" (the fold then decides)."""
    audit = home_path / "audit"
    audit.mkdir(parents=True)
    fifo = audit / "journal.jsonl"
    os.mkfifo(fifo)
    answer: list[bool] = []
    look = threading.Thread(target=lambda: answer.append(_may_hold(home_path)), daemon=True)
    look.start()
    look.join(10)
    assert answer == [True]
    fifo.unlink()
    target = home_path / "elsewhere.jsonl"
    target.write_bytes(b'{"other":{}}\n')
    fifo.symlink_to(target)
    assert _may_hold(home_path)


def test_a_project_with_an_expired_entry_is_expired_when_the_global_store_has_none(
    home_path: Path, tmp_path: Path
) -> None:
    """Each store is looked at on its own: the global journal holding no expiry does
    not skip the project's."""
    Memory.open(home_path, clock=lambda: NOW).add("memory", "Global note.")
    repo = tmp_path / "repo"
    repo.mkdir()
    project = open_project(Home.open(home_path), repo, create=True)
    resp = run_memory_tool(
        Memory.open(project, clock=lambda: NOW),
        {"action": "add", "content": "The CI is paused.", "expires": "2026-05-29"},
    )
    assert resp["success"], resp
    event = {"hook_event_name": "SessionStart", "session_id": "s1", "cwd": str(repo)}
    result = run_claude_code_hook(json.dumps(event).encode(), home_path=str(home_path))
    assert result.ok and "1 expired entries moved to the archive" in result.message
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Global note." in context and "The CI is paused." not in context
    store = open_project(Home.open(home_path), repo, create=False)
    listed = archive.listing(MemoryView.open(store))
    assert [(a.text, a.reason) for a in listed] == [("The CI is paused.", "expired")]


def test_both_readers_of_the_journal_file_read_past_a_mebibyte_alike(tmp_path: Path) -> None:
    """The snapshot and the reader of the lines after a position take the same bytes from
    the file (read in pieces of 1 MiB): every complete line, the torn tail kept apart."""
    from mnemic.backends.files.journal import FileJournalStore

    store = FileJournalStore(tmp_path)
    lines = [json.dumps({"seq": i, "pad": "x" * 700}).encode() for i in range(3000)]
    store.path.write_bytes(b"\n".join(lines) + b"\n" + b'{"torn')
    assert store.path.stat().st_size > 2 << 20
    snap = store.snapshot()
    assert snap.lines == lines and snap.torn == b'{"torn'
    ident, end, after = store.lines_after(None, 0)
    assert after == lines and end == snap.torn_offset
    with store.path.open("ab") as file:
        file.write(b'"}\n{"seq": "next"}\n')
    assert store.lines_after(ident, end)[2] == [b'{"torn"}', b'{"seq": "next"}']
