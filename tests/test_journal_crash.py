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

from pathlib import Path

import pytest

from _killpoints import killed, run_killed_at
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
