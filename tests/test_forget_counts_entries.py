"""`mnemic forget --text` counts the entries that held the text, not the journal records.

ux19 (docs/first-week.md #84): one archived entry was reported as "Removed 2 copies of
memory entry texts": its add and its removal each kept the text in the audit journal.
A person reads that as two entries. The count is now of texts (each one once per store
and file), the records apart; ``--json`` keeps ``archived`` (the records) and adds
``texts``.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from mnemic.cli import main
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.home import Home

FACT = "The oncall rota is on the wiki page OnCall/Rota."


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args])


def _archived_once(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home)
    mem.add("memory", FACT)
    mem.remove("memory", "wiki page OnCall")


def test_one_archived_entry_is_one_text_in_two_records(home_path: Path) -> None:
    _archived_once(home_path)
    dry = _run(home_path, "forget", "--text", "wiki page OnCall", "--dry-run", "--json")
    assert dry.exit_code == 0, dry.output
    ((report,),) = [json.loads(dry.output)]
    assert (report["texts"], report["archived"]) == (1, 2)
    r = _run(home_path, "forget", "--text", "wiki page OnCall", "--yes")
    assert r.exit_code == 0, r.output
    assert (
        "Removed 1 memory entry text from the audit journal, in 2 of its records "
        "(an entry's add and its removal each hold its text)." in r.stdout
    )
    assert "copies of memory entry" not in r.stdout


def test_the_same_text_in_two_stores_is_two_texts(home_path: Path, tmp_path: Path) -> None:
    _archived_once(home_path)
    project = tmp_path / "api"
    project.mkdir()
    mem = Memory.open(open_project(Home.open(home_path), project, create=True))
    mem.add("memory", FACT)
    r = _run(home_path, "forget", "--text", "wiki page OnCall", "--dry-run")
    assert r.exit_code == 0, r.output
    assert "Would remove 2 memory entry texts from the audit journal, in 3 of its records" in (
        r.stdout
    )


def test_a_text_in_one_record_says_no_records_apart(home_path: Path) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    Memory.open(home_path).add("memory", FACT)  # live: only its add holds it in the journal
    r = _run(home_path, "forget", "--text", "wiki page OnCall", "--yes")
    assert r.exit_code == 0, r.output
    assert "Removed 1 memory entry text from the audit journal." in r.stdout
