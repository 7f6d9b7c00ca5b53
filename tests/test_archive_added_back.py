"""An archived entry added back is marked in memory (docs/first-week.md row 22).

Before: the memory tool tells a model to bring an archived entry back by adding its text;
after it did, `mnemic memory archive list` (and search, and their --json) still listed
the entry as any other archived one, with nothing saying it was live again. The archive
keeps it (it is what left, folded from the journal: an add is no restore), and every
listing now marks it ``in_memory`` as the tool's archive_search does.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from mnemic.cli import main
from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.curated.view import MemoryView

BACK = "Staging database host is db-stage-2"
GONE = "Nightly builds run at 02:00"


def added_back(home: Path) -> Memory:
    mem = Memory.open(home, origin="cli")
    for text in (BACK, GONE):
        mem.add("memory", text)
        mem.remove("memory", text)
    mem.add("memory", BACK)  # as the tool says: add its text again
    return mem


def cli(home: Path, *argv: str) -> str:
    result = CliRunner().invoke(main, ["--home", str(home), "memory", "archive", *argv])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_archive_list_marks_the_entry_added_back(home_path: Path) -> None:
    added_back(home_path)
    rows = {line.split()[0]: line for line in cli(home_path, "list").splitlines()[1:3]}
    back = [line for line in rows.values() if BACK in line]
    gone = [line for line in rows.values() if GONE in line]
    assert back[0].endswith("(in memory again)") and not gone[0].endswith("(in memory again)")
    assert "its text was added back and is live" in cli(home_path, "list")
    listed = json.loads(cli(home_path, "list", "--json"))["entries"]
    assert {e["text"]: e.get("in_memory", False) for e in listed} == {BACK: True, GONE: False}
    every = json.loads(cli(home_path, "list", "--all-scopes", "--json"))["entries"]
    assert {e["text"]: e.get("in_memory", False) for e in every} == {BACK: True, GONE: False}


def test_archive_search_marks_it_too(home_path: Path) -> None:
    added_back(home_path)
    found = json.loads(cli(home_path, "search", "staging database host", "--json"))
    [hit] = [r for r in found["results"] if r["text"] == BACK]
    assert hit["in_memory"] is True
    assert "(in memory again)" in cli(home_path, "search", "staging database host")


def test_removed_again_it_is_no_longer_marked(home_path: Path) -> None:
    mem = added_back(home_path)
    mem.remove("memory", BACK)
    found = archive.archive_listing(MemoryView.open(home_path))
    assert [a.text for a in found.items].count(BACK) == 2  # both times it left
    assert not any(found.in_memory(a) for a in found.items)


def test_the_tools_own_word_search_marks_it_too(home_path: Path) -> None:
    """The memory tool with no archive searcher given (the library's run_memory_tool)
    searches the archive's words itself; its results carry the same mark, and the note
    tells the model not to add the entry again."""
    from mnemic.curated.tool import run_memory_tool

    mem = added_back(home_path)
    answer = run_memory_tool(mem, json.dumps({"action": "archive_search", "query": "staging"}))
    assert [(r["text"], r.get("in_memory", False)) for r in answer["results"]] == [(BACK, True)]
    assert "do not add it again" in answer["note"]
    gone = run_memory_tool(mem, json.dumps({"action": "archive_search", "query": "nightly"}))
    assert [(r["text"], r.get("in_memory", False)) for r in gone["results"]] == [(GONE, False)]
    assert "do not add it again" not in gone["note"]
