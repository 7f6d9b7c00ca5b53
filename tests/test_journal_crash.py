"""The audit journal's first append killed at each file-system call (issue 26).

A new journal has no head file until its first records are flushed. A process killed
between the first record's write and the head's creation used to leave a journal with
records and no head, which no later append creates ("a deleted head stays missing"):
``audit verify`` then said the head was deleted (tampered) for the life of the home,
although only a crash had happened. The head is now created (counting no record)
before the first line goes in, so a crash anywhere leaves a head that is at most
behind, which verify reads as a crash the next append repairs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from _killpoints import killed, run_killed_at
from mnemic.backends.files import flusher
from mnemic.backends.files.journal import AuditJournal


@pytest.mark.parametrize("fsync", [True, False], ids=["flushed", "no-fsync"])
def test_a_first_append_killed_at_any_call_leaves_a_journal_that_verifies(
    tmp_path: Path, fsync: bool
) -> None:
    completed = False
    for k in range(1, 200):
        where = tmp_path / f"k{k}" / "audit"
        status = run_killed_at(
            k, lambda w=where: AuditJournal(w, fsync=fsync).append(action="first", result="ok")
        )
        journal = AuditJournal(where, fsync=fsync)
        report = journal.verify()
        assert report.ok, (k, report)
        journal.append(action="next", result="ok")  # the next append repairs what is left
        report = journal.verify()
        assert report.ok and report.records in (1, 2), (k, report)
        if not killed(status):
            assert status == 0, k
            completed = True
            break
    assert completed, "the append never completed: the kill points did not cover it"
    assert k > 3


def test_a_flush_left_for_later_never_counts_old_records_in_a_journal_made_again_there(
    tmp_path: Path,
) -> None:
    """The head of a journal is moved by the flusher thread after the append returns. A
    home deleted and made again at the same path before that flush ran got the old
    journal's count in its head ('the journal ends after record 1 but the head says
    4: truncated'), which the kill storm saw when it recreated its stores at the same
    path; that flush now leaves a journal that is not the file it appended to alone."""
    where = tmp_path / "audit"
    old = AuditJournal(where)
    old.append(action="first", result="ok")  # a new journal: flushed before it returns
    with flusher.flusher()._running:  # the thread runs nothing until the block ends
        for _ in range(3):
            old.append(action="more", result="ok")  # their flush is left to the thread
        shutil.rmtree(where)
        AuditJournal(where).append(action="again", result="ok")  # a new journal, flushed
    flusher.drain()  # the old journal's flush has run
    report = AuditJournal(where).verify()
    assert report.ok and report.records == 1 and report.head_count == 1, report


def test_an_instance_never_chains_onto_the_tail_of_an_old_journal_at_the_same_path(
    tmp_path: Path,
) -> None:
    """A long-lived process (an MCP server) keeps the tail of the journal it last
    appended to. A home made again at the same path may give the new journal the old
    one's inode number (ext4 reuses them: simulated by writing the new journal over the
    old file in place); when the new one also had the old one's length, the next record
    was chained onto the old journal's last hash and ``audit verify`` found the chain
    broken (the tail was recognised by inode and size alone)."""
    old, new = tmp_path / "old", tmp_path / "new"
    kept = AuditJournal(old, clock=lambda: 1_000.0, fsync=False)
    other = AuditJournal(new, clock=lambda: 1_000.0, fsync=False)
    for i in range(3):
        kept.append(action=f"alpha {i}", result="ok")
        other.append(action=f"bravo {i}", result="ok")
    data = (new / "journal.jsonl").read_bytes()
    assert data != (old / "journal.jsonl").read_bytes()
    assert len(data) == (old / "journal.jsonl").stat().st_size  # the same length
    with open(old / "journal.jsonl", "r+b") as fh:  # the same inode
        fh.write(data)
        fh.truncate()
    shutil.copyfile(new / "head", old / "head")
    kept.append(action="charlie", result="ok")
    report = AuditJournal(old, fsync=False).verify()
    assert report.ok and report.records == 4, report
