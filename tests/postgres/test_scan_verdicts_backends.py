"""The verdicts writers share (``tests/test_scan_verdicts_shared.py``) on each backend.

Issue 32 (perf20): 16 writers growing a PostgreSQL home to 1,600 entries scanned again
one in eight of the entries the others added, evicted from slots of one verdict. Here
three sessions of one home write in turn (as many writers do), one of them adding texts
whose verdicts fall in one slot, and a fourth shows them all: counted as scanner calls,
on the files store and on PostgreSQL (the server's write and the client's).
"""

from __future__ import annotations

import pytest
from tests.test_scan_verdicts import Scans
from tests.test_scan_verdicts_shared import MINE, _same_slot

from _backends import Kit
from mnemic.curated import verdicts
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool

pytestmark = pytest.mark.postgres


def test_other_writers_entries_sharing_a_slot_are_shown_without_scanning(
    backend: Kit, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = backend.write_config()
    scans = Scans(monkeypatch)
    writer, third, shower = Memory.open(home), Memory.open(home), Memory.open(home)
    third.add("memory", "The release train leaves on Thursdays.")
    writer.add("memory", "Backups run at 02:00 UTC.")  # sees another session: shares now
    shower.add("memory", "The CI runs make check.")
    texts = _same_slot(verdicts.SLOT_LINES)
    for i, text in enumerate(texts):
        third.add("memory", f"Release note {i}: nothing to report.")
        writer.add("memory", text)
    scans.new_process()
    resp = run_memory_tool(shower, {"action": "add", "target": "memory", "content": MINE})
    shown = resp["external_changes"]["added"]
    assert [t for t in shown if t in texts] == texts  # shown as themselves: clean
    assert MINE in scans.texts and not set(texts) & set(scans.texts)
