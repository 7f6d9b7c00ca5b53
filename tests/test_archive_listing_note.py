"""The note of an archive listing, one store's or every store's: a later page says what
it holds, a first page cut short says it holds the newest and where the older ones are,
a listing of everything says nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnemic.curated.memory import Memory
from mnemic.curated.view import MemoryView
from mnemic.home import Home
from mnemic.ops.archive_search import archive_json, every_archive_json


@pytest.mark.parametrize("listing", ["one store", "every store"])
def test_each_archive_listing_notes_its_page_alike(home_path: Path, listing: str) -> None:
    mem = Memory.open(home_path)
    for n in range(5):
        mem.add("memory", f"Fact number {n}.")
    for n in range(5):
        mem.remove("memory", f"Fact number {n}.")
    home = Home.open(home_path)

    def note(**page: Any) -> str | None:
        if listing == "one store":
            out = archive_json(MemoryView.open(home), **page)
        else:
            out = every_archive_json([home], **page)
        assert out["count"] == 5
        return out.get("note")

    older = "archive_search" if listing == "one store" else "--all-scopes"
    first = note(limit=2)
    assert first is not None and first.startswith("The newest 2 of 5; find older ones with ")
    assert older in first
    assert note(limit=2, offset=2) == "Entries 3-4 of 5, newest first."
    assert note(limit=2, offset=9) == "No entries past the newest 5."
    assert note() is None and note(limit=5) is None
