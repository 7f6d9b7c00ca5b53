"""The console's Tidy page (starlette's TestClient over the real app and home files):
the proposals with their entries and reasons, staging one as the ``ui`` actor behind the
CSRF check, and what the page says once it waits in the queue."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient

from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.ops import PendingQueue
from mnemic.ui.app import build_app
from mnemic.ui.security import Access

PORT = 8768
TOKEN = "console-tidy-test-token-5d7e8f901a2b3c4d"
ENTRIES = [
    "User prefers tea over coffee.",
    "user prefers tea over coffee",
    "Deploys go through staging <b>first</b>.",
]


def opened(home_path: Path) -> TestClient:
    home_path.mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home_path)
    for entry in ENTRIES:
        mem.add("memory", entry)
    app = build_app(Home.open(home_path), Access("127.0.0.1", PORT, TOKEN))
    client = TestClient(app, base_url=f"http://127.0.0.1:{PORT}", follow_redirects=False)
    assert client.get(f"/?token={TOKEN}").status_code == 303
    return client


def fields(page: str) -> dict[str, str]:
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    pid = re.search(r'action="/tidy/stage".*?name="id" value="([0-9a-f]+)"', page)
    assert csrf is not None and pid is not None
    return {"csrf": csrf.group(1), "id": pid.group(1)}


def test_a_proposal_is_listed_and_staged_as_the_ui_actor(home_path: Path) -> None:
    client = opened(home_path)
    page = client.get("/tidy")
    assert page.status_code == 200
    assert "merge 2 near-duplicate entries" in page.text and "Stage for approval" in page.text
    assert "<dt>drop</dt><dd>User prefers tea over coffee.</dd>" in page.text
    r = client.post("/tidy/stage", data=fields(page.text))
    assert r.status_code == 303 and r.headers["location"] == "/tidy?done=staged"
    [record] = PendingQueue.open(home_path).records()
    assert (record.actor, record.origin) == ("ui", "ui") and record.summary.startswith("tidy: ")
    after = client.get("/tidy?done=staged").text
    assert f"already pending: {record.id}" in after and "Stage for approval" not in after
    assert Memory.open(home_path).entries("memory") == ENTRIES  # nothing applied


def test_staging_without_the_csrf_token_is_refused(home_path: Path) -> None:
    client = opened(home_path)
    form = fields(client.get("/tidy").text)
    r = client.post("/tidy/stage", data={"id": form["id"]})
    assert r.status_code == 403
    assert PendingQueue.open(home_path).records() == []


def test_a_proposal_that_no_longer_holds_is_not_staged(home_path: Path) -> None:
    client = opened(home_path)
    form = fields(client.get("/tidy").text)
    Memory.open(home_path).remove("memory", "user prefers tea over coffee")
    r = client.post("/tidy/stage", data=form)
    assert r.status_code == 400 and "no longer made" in r.text
    assert PendingQueue.open(home_path).records() == []


def test_entries_are_escaped_on_the_page(home_path: Path) -> None:
    client = opened(home_path)
    Memory.open(home_path).add("memory", "deploys go through staging <b>first</b>")
    page = client.get("/tidy").text
    assert "&lt;b&gt;first&lt;/b&gt;" in page and "<b>first</b>" not in page
