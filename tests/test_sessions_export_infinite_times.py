"""`sessions export` of a time stored as an infinity (mend15, item 2).

A history imported by an earlier mnemic may keep ``inf`` as a time. `--json` writes such
a time as null (hostile2); the JSONL the bundle export and the console's Export link
write went through ``json.dumps``, which wrote ``Infinity``: no JSON, and no strict
reader takes the file. Every export now writes null, and the export imports back.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from mnemic.cli import main
from mnemic.home import Home
from mnemic.sessions import export_session, import_path, open_store
from mnemic.sessions.store import NewMessage


def _strict(line: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"not JSON: {name}")

    return json.loads(line, parse_constant=refuse)


def _home_with_infinite_times(root: Path) -> Home:
    home = Home.open(root)
    with open_store(home) as store:
        sid = store.start_session(id="old", title="kept", started_at=float("inf"))
        store.append_messages(
            sid,
            [
                NewMessage("user", "hello there", timestamp=float("inf")),
                NewMessage("assistant", "general kenobi", timestamp=float("-inf")),
            ],
        )
        store.end_session(sid, "done", ended_at=float("-inf"))
    return home


def test_the_exported_records_hold_no_infinity(tmp_path: Path) -> None:
    home = _home_with_infinite_times(tmp_path / "a")
    with open_store(home) as store:
        records = list(export_session(store, "old"))
    text = "".join(json.dumps(r) + "\n" for r in records)  # as the bundle export writes
    parsed = [_strict(line) for line in text.splitlines()]
    assert [r["content"] for r in parsed] == ["hello there", "general kenobi"]
    assert "started_at" not in parsed[0] and "ended_at" not in parsed[0]
    assert parsed[1]["timestamp"] is None


def test_the_cli_export_imports_back_into_another_home(tmp_path: Path) -> None:
    _home_with_infinite_times(tmp_path / "a")
    out = CliRunner().invoke(main, ["--home", str(tmp_path / "a"), "sessions", "export", "old"])
    assert out.exit_code == 0, out.output
    file = tmp_path / "old.jsonl"
    file.write_text(out.stdout, encoding="utf-8")
    for line in out.stdout.splitlines():
        _strict(line)
    with open_store(Home.open(tmp_path / "b")) as store:
        report = import_path(store, file)
        assert report.sessions == 1 and report.messages == 2
        assert [m.content for m in store.messages("old")] == ["hello there", "general kenobi"]
        assert store.get_session("old").title == "kept"


def test_the_console_export_is_valid_json_lines(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from mnemic.ui.app import build_app
    from mnemic.ui.security import Access

    home = _home_with_infinite_times(tmp_path / "a")
    token = "t" * 40
    app = build_app(home, Access("127.0.0.1", 8767, token))
    client = TestClient(app, base_url="http://127.0.0.1:8767", raise_server_exceptions=False)
    client.get(f"/?token={token}")
    answer = client.get("/sessions/export?id=old")
    assert answer.status_code == 200, answer.text[:300]
    lines = [_strict(line) for line in answer.text.splitlines()]
    assert [r["content"] for r in lines] == ["hello there", "general kenobi"]
    file = tmp_path / "console.jsonl"
    file.write_bytes(answer.content)
    with open_store(Home.open(tmp_path / "b")) as store:
        assert import_path(store, file).messages == 2
