"""An archive restore killed between its record and its rename (issue 26; found by the
kill storm, ``./x bench kill_storm``).

The restore's record (write-ahead) takes the item out of the archive; killed before its
rename, the record is void and the entry is not live. Readers used to take back only
what a void record archived, not what it took out: until the next writer recorded the
void record, the archive did not list the entry and ``archive restore`` of the same id
said there was no such entry, so the person could not retry."""

from __future__ import annotations

from pathlib import Path

from _killpoints import killed, run_killed_at
from mnemic.backends.files.journal import AuditJournal
from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.curated.store import file_hash
from mnemic.curated.view import MemoryView

KEPT, GONE = "a fact that stays", "a fact that was removed"


def test_a_restore_that_never_committed_leaves_the_entry_archived_and_restorable(
    home_path: Path,
) -> None:
    home_path.mkdir()
    mem = Memory.open(home_path, origin="cli", session_id="s1")
    mem.add("memory", KEPT)
    mem.add("memory", GONE)
    mem.remove("memory", GONE)
    [item] = archive.listing(MemoryView.open(home_path))
    writer = Memory.open(home_path, origin="cli", session_id="s2")
    status = run_killed_at(1, lambda: archive.restore(writer, item.id), names=("replace",))
    assert killed(status)  # at the rename: the record is in the journal, the text is not
    last = list(AuditJournal(home_path / "audit").records())[-1]
    assert last["changes"]["memory"]["restored"] == [item.id]
    text = (home_path / "memories" / "MEMORY.md").read_text(encoding="utf-8")
    assert last["before"]["memory"] == file_hash(text) != last["after"]["memory"]
    view = MemoryView.open(home_path)
    assert view.entries("memory") == [KEPT]
    assert [(a.id, a.text, a.reason) for a in archive.listing(view)] == [(item.id, GONE, "removed")]
    assert archive.show(view, item.id).text == GONE
    archive.restore(Memory.open(home_path, origin="cli", session_id="s3"), item.id)  # a retry
    view = MemoryView.open(home_path)
    assert view.entries("memory") == [KEPT, GONE]
    assert archive.listing(view) == []
