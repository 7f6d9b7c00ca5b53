"""``audit list`` tells what an expiry-only change did.

A write that keeps an entry's text and moves only its expiry (``memory replace OLD
--expires DATE|never``) is recorded with ``result: "noop"``; ``audit list`` showed it as
``noop``, as if nothing had changed. Each store's journal is folded as it is read, and
such a record reads ``expiry`` with the old and new expiry (CLI, ``--json``,
``--result expiry``, the console's Audit page); journals written before fold the same.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from starlette.testclient import TestClient

from _backends import Kit
from mnemic.cli import main
from mnemic.home import Home
from mnemic.ui.app import build_app
from mnemic.ui.security import Access

FREEZE = "Deploy freeze: hotfixes only, no feature merges."
FIXTURE = Path(__file__).parent / "fixtures" / "journal_expiry_before_never.jsonl"
PORT, TOKEN = 8765, "t" * 32


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _moves(home: Path) -> None:
    """An add with an expiry, the expiry moved, then cleared, then a plain confirm."""
    for args in (
        ("memory", "add", FREEZE, "--expires", "2031-01-05"),
        ("memory", "replace", "Deploy freeze", "--expires", "2031-02-01"),
        ("memory", "replace", "Deploy freeze", "--expires", "never"),
        ("memory", "add", FREEZE),
    ):
        out = _cli(*args)
        assert out.exit_code == 0, out.output


def test_audit_list_says_an_expiry_moved_and_from_what(backend: Kit) -> None:
    home = backend.write_config()
    _moves(home)
    out = _cli("audit", "list")
    assert out.exit_code == 0, out.output
    rows = [line for line in out.output.splitlines() if " replace " in line or " add " in line]
    assert len(rows) == 4, out.output
    assert rows[0].rstrip().endswith(" ok")
    assert (
        rows[1]
        .rstrip()
        .endswith('expiry memory "Deploy freeze: hotfixes only,…": 2031-01-05 -> 2031-02-01')
    )
    assert rows[2].rstrip().endswith(": 2031-02-01 -> never")
    assert rows[3].rstrip().endswith(" noop")  # a confirm that moved nothing stays noop
    data = json.loads(_cli("audit", "list", "--json").output)
    assert [r["result"] for r in data] == ["ok", "noop", "noop", "noop"]  # the record's own
    assert "expiry" not in data[0] and "expiry" not in data[3]
    key = data[1]["expiry"][0]["key"]
    assert data[1]["expiry"] == [
        {"target": "memory", "key": key, "text": FREEZE, "from": "2031-01-05", "to": "2031-02-01"}
    ]
    assert data[2]["expiry"] == [
        {"target": "memory", "key": key, "text": FREEZE, "from": "2031-02-01", "to": None}
    ]
    only = json.loads(_cli("audit", "list", "--json", "--result", "expiry").output)
    assert [r["seq"] for r in only] == [2, 3]
    noop = json.loads(_cli("audit", "list", "--json", "--result", "noop").output)
    assert [r["seq"] for r in noop] == [4]


def test_a_journal_written_before_reads_the_same(home_path: Path) -> None:
    """The fixture was written by the code before ``never`` existed: its record 4 moved
    an expiry (set by record 2's add), record 5 confirmed without one."""
    (home_path / "audit").mkdir(parents=True)
    shutil.copy(FIXTURE, home_path / "audit" / "journal.jsonl")
    records = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    head = {"count": len(records), "hash": records[-1]["hash"]}
    (home_path / "audit" / "head").write_text(json.dumps(head), encoding="utf-8")
    data = json.loads(_cli("audit", "list", "--json").output)
    assert [r.get("expiry") is not None for r in data] == [False, False, False, True, False, False]
    (move,) = data[3]["expiry"]
    # 1_790_000_000 and 1_795_000_000 (not midnights: read back as times, UTC)
    assert move["text"] == "Staging is web-2."
    assert (move["from"], move["to"]) == ("2026-09-21T14:13", "2026-11-18T11:06")
    assert [r["result"] for r in data] == [r["result"] for r in records]  # bytes kept
    assert _cli("audit", "verify").exit_code == 0


def test_the_console_audit_page_shows_the_expiry_moved(home_path: Path) -> None:
    _moves(home_path)
    app = build_app(Home.open(home_path), Access("127.0.0.1", PORT, TOKEN))
    client = TestClient(app, base_url=f"http://127.0.0.1:{PORT}", follow_redirects=False)
    assert client.get(f"/?token={TOKEN}").status_code == 303
    page = client.get("/audit").text
    assert "2031-01-05 -&gt; 2031-02-01" in page and "2031-02-01 -&gt; never" in page
    assert page.count('<tr class="result-expiry">') == 2
    assert page.count('<tr class="result-noop">') == 1
    only = client.get("/audit?result=expiry").text
    assert "2 of 4 records" in only
