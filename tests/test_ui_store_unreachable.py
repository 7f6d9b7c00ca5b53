"""The console's answer when the store is out of reach (mend15, item 3).

With the PostgreSQL server down every page answered HTTP 409 "Refused": a client (a
monitor, a proxy, a script) read a refusal of what was asked, not an outage. A store
that cannot be reached is now 503 with the same text (what to do); refusals stay 409.
No server is needed: the home names a port nothing listens on.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from mnemic.errors import StorageError
from mnemic.home import Home
from mnemic.ui.app import build_app
from mnemic.ui.security import Access

NOWHERE = "postgresql://agent@127.0.0.1:1/team"
TOKEN = "t" * 40


def _client(root: Path) -> TestClient:
    app = build_app(Home.open(root), Access("127.0.0.1", 8767, TOKEN))
    client = TestClient(app, base_url="http://127.0.0.1:8767", raise_server_exceptions=False)
    client.get(f"/?token={TOKEN}")
    return client


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_pages_of_a_database_out_of_reach_are_503_saying_what_to_do(home_path: Path) -> None:
    pytest.importorskip("psycopg")
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(
        f'store = "{NOWHERE}"\n[postgres]\nconnect_timeout = 1.0\n', encoding="utf-8"
    )
    client = _client(home_path)
    for page in ("/memory", "/sessions"):
        answer = client.get(page)
        said = _text(answer.text)
        assert answer.status_code == 503, (page, answer.status_code, said[:300])
        assert "Cannot reach PostgreSQL at postgresql://agent@127.0.0.1:1/team" in said
        assert "check that the server is up and reachable" in said
        assert "Out of reach" in said and "Refused" not in said


def test_a_storage_refusal_that_is_no_outage_stays_409(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mnemic.ui.sessions as pages

    def broken(*_: object, **__: object) -> None:
        raise StorageError("The session history is damaged. Nothing was changed.")

    monkeypatch.setattr(pages, "open_store", broken)
    answer = _client(home_path).get("/sessions")
    assert answer.status_code == 409
    assert "Refused" in answer.text and "is damaged" in answer.text
