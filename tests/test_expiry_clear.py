"""Clearing an entry's expiry while its text stays: ``expires="never"`` (``NO_EXPIRY``).

A replace by the same text (or an add of a text already there) is a confirm, which
keeps the expiry the entry had unless it names a new one; there was no value meaning
"none", so an expiry could be cleared only by changing the text or removing the entry
(the console refused with that workaround). The audit record holds the cleared expiry
as ``null``; journals written before hold numbers only and fold as they did.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from _backends import Kit
from mnemic.cli import main
from mnemic.curated import archive
from mnemic.curated.entries import entry_handle
from mnemic.curated.fold import Fold
from mnemic.curated.memory import Memory
from mnemic.curated.operations import NO_EXPIRY
from mnemic.curated.provenance import entry_key
from mnemic.curated.store import Op
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.view import MemoryView
from mnemic.governance.storage import open_journal
from mnemic.home import Home

NOW = 1_780_000_000.0  # 2026-05-28T20:26Z
LATER = NOW + 30 * 86400.0
FREEZE = "The release branch is frozen; only hotfixes are merged."
FIXTURE = Path(__file__).parent / "fixtures" / "journal_expiry_before_never.jsonl"


def _mem(home: Path, t: float = NOW, **kw: Any) -> Memory:
    return Memory.open(home, origin="cli", session_id=f"s{int(t)}", clock=lambda: t, **kw)


def _expires(home: Path) -> float | None:
    return dict(MemoryView.open(home).provenance("memory"))[FREEZE].expires


def test_never_clears_an_expiry_and_the_entry_stays_past_it(backend: Kit) -> None:
    home = backend.write_config()
    mem = _mem(home)
    res = run_memory_tool(mem, {"action": "add", "content": FREEZE, "expires": "2026-06-01"})
    assert res["success"], res
    assert _expires(home) is not None
    cleared = run_memory_tool(
        mem, {"action": "replace", "old_text": "frozen", "content": FREEZE, "expires": "never"}
    )
    assert cleared["success"], cleared
    assert _expires(home) is None
    # the record says so with null (JSON has no infinity), and nothing was archived
    rec = [r for r in backend.journal().records() if r.get("action") == "replace"][-1]
    where = rec.get("touched") or rec["changes"]
    assert where["memory"]["expires"] == {entry_key(FREEZE): None}
    assert archive.listing(MemoryView.open(home)) == []
    later = _mem(home, LATER)
    assert later.expire() == [] and later.entries("memory") == [FREEZE]
    # a date again, then "none" (the other word), through the CLI's own option
    assert _cli("memory", "replace", "frozen", "--expires", "2030-01-01").exit_code == 0
    assert _expires(home) is not None
    out = _cli("memory", "replace", "frozen", "--expires", "none")
    assert out.exit_code == 0, out.output
    assert "no expiry" in out.output and "archive keeps" not in out.output
    assert _expires(home) is None and MemoryView.open(home).entries("memory") == [FREEZE]


def test_a_staged_write_keeps_its_expiry_and_a_clear(backend: Kit) -> None:
    """A staged write's payload carried no ``expires``: approved, the entry had none."""
    home = backend.write_config('[approval]\nmemory_foreground = "stage"\n')
    until = time.time() + 30 * 86400.0  # the real clock: approval checks the queue's time
    staged = Memory.open(home, origin="cli").apply("memory", [Op("add", FREEZE, expires=until)])
    assert staged.staged and staged.pending_id is not None
    assert _cli("pending", "approve", staged.pending_id).exit_code == 0
    assert _expires(home) == until
    clear = [Op("replace", FREEZE, "frozen", expires=NO_EXPIRY)]
    again = Memory.open(home, origin="cli").apply("memory", clear)
    assert again.staged and again.pending_id is not None
    assert _cli("pending", "approve", again.pending_id).exit_code == 0
    assert _expires(home) is None


def test_a_journal_written_before_never_folds_as_it_did(home_path: Path) -> None:
    """The fixture was written by the code before this change (an add with an expiry, a
    confirm with a new one, a confirm without one, a replace by a new text)."""
    records = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    fold = Fold()
    for rec in records:
        fold.apply(rec)
    live = fold.targets["memory"].live
    assert {fold.targets["memory"].texts[k]: p.expires for k, p in live.items()} == {
        "Release freeze: hotfixes only.": 1_790_000_000.0,  # kept by a confirm without one
        "Staging is web-2.": 1_795_000_000.0,  # a confirm's new expiry
        "Main deploys on merge and tag.": None,
    }
    (home_path / "audit").mkdir(parents=True)
    shutil.copy(FIXTURE, home_path / "audit" / "journal.jsonl")
    head = {"count": len(records), "hash": records[-1]["hash"]}  # the chain's head, as kept
    (home_path / "audit" / "head").write_text(json.dumps(head), encoding="utf-8")
    home = Home.open(home_path)
    assert open_journal(home.root, home.settings).verify().ok


def test_the_console_clears_valid_until_with_the_text_unchanged(home_path: Path) -> None:
    from test_scopes import _console, _post  # the console's test client, as scope tests use it

    _mem(home_path).apply("memory", [Op("add", FREEZE, expires=LATER)])
    client = _console(Home.open(home_path))
    form = {"target": "memory", "entry": entry_handle(FREEZE), "content": FREEZE}
    res = _post(client, "/memory/replace", **form, expires="")
    assert res.status_code == 303, res.text[:2000]
    assert _expires(home_path) is None
    assert MemoryView.open(home_path).entries("memory") == [FREEZE]


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_the_model_is_told_an_expiry_change_was_saved(backend: Kit) -> None:
    """A replace by the same text with ``expires`` answered "Nothing needed to change":
    a model reads it as its change not made."""
    home = backend.write_config()
    mem = _mem(home)
    mem.apply("memory", [Op("add", FREEZE, expires=LATER)])
    res = run_memory_tool(
        mem, {"action": "replace", "old_text": "frozen", "content": FREEZE, "expires": "never"}
    )
    assert res["success"] and "Nothing needed to change" not in res["note"]
    assert "expiry is now as given" in res["note"]
    plain = run_memory_tool(mem, {"action": "add", "content": FREEZE})  # a plain confirm
    assert plain["note"] == "Nothing needed to change; do not repeat this call."
