"""The console's Tidy and Audit pages over every store of a home (starlette's TestClient
over the real app; real files, real SQLite, real PostgreSQL): each project store's tidy
proposals under its name, staged in that store's own queue by a form naming the store
by its id; every store's audit records in one table naming each record's store, a
filter to one store, and each store's chain verified on its own."""

from __future__ import annotations

import html
import re
from pathlib import Path

from starlette.testclient import TestClient

from _backends import Kit
from mnemic.curated.memory import Memory
from mnemic.curated.scope import ProjectHome, open_project
from mnemic.home import Home
from mnemic.ops import PendingQueue
from mnemic.ui.app import build_app
from mnemic.ui.security import Access

PORT = 8769
TOKEN = "console-stores-test-token-0a1b2c3d4e5f6a7b"
DUPLICATES = [
    "Tests run with pytest -q in the repo root.",
    "tests run with pytest -q in the repo root",
]
GLOBAL_DUPLICATES = ["User prefers tea over coffee.", "user prefers tea over coffee"]


def _client(home_path: Path) -> TestClient:
    app = build_app(Home.open(home_path), Access("127.0.0.1", PORT, TOKEN))
    client = TestClient(app, base_url=f"http://127.0.0.1:{PORT}", follow_redirects=False)
    assert client.get(f"/?token={TOKEN}").status_code == 303
    return client


def _project(home_path: Path, tmp_path: Path, name: str = "<i>proj</i>") -> ProjectHome:
    directory = tmp_path / "work" / name
    directory.mkdir(parents=True)
    return open_project(Home.open(home_path), directory, create=True)


def _fill(home_path: Path, tmp_path: Path) -> ProjectHome:
    """A home whose global MEMORY.md and one project's each hold a near-duplicate pair."""
    home_path.mkdir(parents=True, exist_ok=True)
    glob = Memory.open(home_path, origin="cli")
    for entry in GLOBAL_DUPLICATES:
        glob.add("memory", entry)
    store = _project(home_path, tmp_path)
    mem = Memory.open(store, origin="cli")
    for entry in DUPLICATES:
        mem.add("memory", entry)
    return store


def _section(page: str, anchor: str) -> str:
    """The part of ``page`` from the section with id ``anchor`` to the next section."""
    start = page.index(f'id="{anchor}"')
    end = page.find("<section", start)
    return page[start : end if end >= 0 else len(page)]


def _csrf(page: str) -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    assert found is not None
    return found.group(1)


# -- tidy --------------------------------------------------------------------------------


def test_tidy_lists_each_stores_proposals_and_stages_in_that_stores_own_queue(
    backend: Kit, tmp_path: Path
) -> None:
    home_path = backend.write_config()
    store = _fill(home_path, tmp_path)
    pid = store.project.id
    client = _client(home_path)
    page = client.get("/tidy").text
    glob, proj = _section(page, "tidy-global"), _section(page, f"tidy-project-{pid}")
    assert "Global memory" in glob and "User prefers tea over coffee." in glob
    assert "pytest" not in glob and "tea" not in proj
    assert "Project" in proj and "&lt;i&gt;proj&lt;/i&gt;" in proj and "<i>proj" not in page
    assert "Tests run with pytest -q in the repo root." in proj
    form = re.search(
        r'action="/tidy/stage".*?name="project" value="([^"]*)".*?name="id" value="([0-9a-f]+)"',
        proj,
    )
    assert form is not None and form.group(1) == pid  # the store's id, never its directory
    r = client.post("/tidy/stage", data={"csrf": _csrf(page), "project": pid, "id": form[2]})
    assert r.status_code == 303 and r.headers["location"].startswith("/tidy?done=staged")
    [record] = PendingQueue(Memory.open(store)).records()
    assert (record.actor, record.origin) == ("ui", "ui") and record.summary.startswith("tidy: ")
    assert PendingQueue.open(home_path).records() == []  # not the global queue
    after = client.get(r.headers["location"].split("#")[0]).text
    assert "on the Pending page, under Project " in after
    pending = client.get("/pending").text
    assert record.id in _section(pending, f"pending-project-{pid}")
    proj = _section(after, f"tidy-project-{pid}")
    assert f"already pending: {record.id}" in proj and "Stage for approval" not in proj
    assert "Stage for approval" in _section(after, "tidy-global")
    assert Memory.open(store).entries("memory") == DUPLICATES  # nothing applied


def test_tidy_stages_nothing_for_a_store_the_home_does_not_hold_or_that_does_not_propose_it(
    home_path: Path, tmp_path: Path
) -> None:
    store = _fill(home_path, tmp_path)
    pid = store.project.id
    client = _client(home_path)
    page = client.get("/tidy").text
    proj = _section(page, f"tidy-project-{pid}")
    found = re.search(r'name="id" value="([0-9a-f]+)"', proj)
    assert found is not None
    csrf = _csrf(page)
    for bad in (str(store.project.path), "../../etc", "nope-0123456789ab"):
        r = client.post("/tidy/stage", data={"csrf": csrf, "project": bad, "id": found[1]})
        assert r.status_code == 400 and "no project store" in r.text
    r = client.post("/tidy/stage", data={"csrf": csrf, "id": found[1]})  # the global store
    assert r.status_code == 400 and "no longer made" in r.text
    r = client.post("/tidy/stage", data={"project": pid, "id": found[1]})
    assert r.status_code == 403
    assert PendingQueue(Memory.open(store)).records() == []
    assert PendingQueue.open(home_path).records() == []


# -- audit -------------------------------------------------------------------------------


def test_audit_shows_every_stores_records_naming_the_store_and_filters_to_one(
    backend: Kit, tmp_path: Path
) -> None:
    home_path = backend.write_config()
    store = _fill(home_path, tmp_path)
    pid, where = store.project.id, html.escape(store.project.path)
    client = _client(home_path)
    page = client.get("/audit").text
    assert "4 of 4 records" in page
    assert page.count("<td>global</td>") == 2
    assert page.count(f'<span title="{pid}">{where}</span>') == 2
    assert "global: Chain intact: 2 records" in page
    assert f"project {where}: Chain intact: 2 records" in page
    assert f'<option value="{pid}">{where}</option>' in page and "<i>" not in page
    only = client.get(f"/audit?store={pid}").text
    assert "2 of 2 records" in only and "<td>global</td>" not in only
    assert "global: Chain intact" not in only and f'value="{pid}" selected' in only
    only = client.get("/audit?store=global&action=add").text
    assert "2 of 2 records" in only and f'title="{pid}"' not in only
    for bad in (str(store.project.path), "../../etc"):
        r = client.get("/audit", params={"store": bad})
        assert r.status_code == 400 and "no project store" in r.text


def test_audit_verifies_each_stores_chain_on_its_own(home_path: Path, tmp_path: Path) -> None:
    store = _fill(home_path, tmp_path)
    path = next((store.root / "audit").glob("*.jsonl"))
    lines = path.read_text().splitlines()
    lines[0] = lines[0].replace('"add"', '"remove"')
    path.write_text("\n".join(lines) + "\n")
    page = _client(home_path).get("/audit").text
    assert "global: Chain intact: 2 records" in page
    assert f"project {html.escape(store.project.path)}: TAMPERED OR DAMAGED" in page
    assert "first bad record at line 1" in page


# -- pending -----------------------------------------------------------------------------


def test_pending_lists_each_stores_queue_and_decides_in_the_store_the_form_names(
    backend: Kit, tmp_path: Path
) -> None:
    home_path = backend.write_config('[approval]\nmemory_foreground = "stage"\n')
    home = Home.open(home_path)
    store = _project(home_path, tmp_path)
    pid = store.project.id
    assert Memory.open(home).add("memory", "User prefers tea.").staged
    assert Memory.open(store).add("memory", "Tests run with pytest.").staged
    assert Memory.open(store).add("memory", "Builds with make.").staged
    [global_record] = PendingQueue.open(home).records()
    tests_record, make_record = PendingQueue.open(store).records()
    client = _client(home_path)
    page = client.get("/pending").text
    glob, proj = _section(page, "pending-global"), _section(page, f"pending-project-{pid}")
    assert "Global memory" in glob and global_record.id in glob and "pytest" not in glob
    assert "&lt;i&gt;proj&lt;/i&gt;" in proj and "<i>proj" not in page
    assert tests_record.id in proj and make_record.id in proj and "tea" not in proj
    forms = re.findall(
        r'action="/pending/(approve|reject)".*?name="project" value="([^"]*)"'
        r'.*?name="id" value="([0-9a-f]+)"',
        proj,
    )
    assert {(verb, project) for verb, project, _ in forms} == {("approve", pid), ("reject", pid)}
    assert {i for *_, i in forms} == {tests_record.id, make_record.id}
    assert 'name="project"' not in glob  # the global store's forms name no store
    csrf = _csrf(page)
    r = client.post("/pending/approve", data={"csrf": csrf, "project": pid, "id": tests_record.id})
    assert r.status_code == 303 and r.headers["location"] == "/pending?done=approved"
    assert Memory.open(store).entries("memory") == ["Tests run with pytest."]
    assert Memory.open(home).entries("memory") == []
    r = client.post("/pending/reject", data={"csrf": csrf, "project": pid, "id": make_record.id})
    assert r.status_code == 303 and r.headers["location"] == "/pending?done=rejected"
    assert PendingQueue.open(store).records() == []
    assert Memory.open(store).entries("memory") == ["Tests run with pytest."]
    after = client.get("/pending").text
    assert f'id="pending-project-{pid}"' not in after and global_record.id in after


def test_pending_decides_nothing_for_a_store_the_home_does_not_hold_or_that_lacks_the_id(
    home_path: Path, tmp_path: Path
) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text('[approval]\nmemory_foreground = "stage"\n')
    store = _project(home_path, tmp_path)
    assert Memory.open(store).add("memory", "Tests run with pytest.").staged
    [record] = PendingQueue.open(store).records()
    client = _client(home_path)
    csrf = _csrf(client.get("/pending").text)
    for verb in ("approve", "reject"):
        for bad in (str(store.project.path), "../../etc", "nope-0123456789ab"):
            data = {"csrf": csrf, "project": bad, "id": record.id}
            r = client.post(f"/pending/{verb}", data=data)
            assert r.status_code == 400 and "no project store" in r.text
        r = client.post(f"/pending/{verb}", data={"csrf": csrf, "id": record.id})  # global
        assert r.status_code == 404 and record.id in r.text
    assert PendingQueue.open(store).records() == [record]
    assert Memory.open(store).entries("memory") == []


# -- archive -----------------------------------------------------------------------------


def _one_archived_each(backend: Kit, tmp_path: Path) -> tuple[Path, ProjectHome]:
    """A home whose project store and global store have each archived one entry (the
    kestrel script in the project, the Debian laptop globally)."""
    home_path = backend.write_config()
    store = _project(home_path, tmp_path)
    mem = Memory.open(store, origin="cli")
    mem.add("memory", "The app deploys with the kestrel script.")
    mem.remove("memory", "kestrel")
    glob = Memory.open(home_path, origin="cli")
    glob.add("memory", "The user's laptop runs Debian.")
    glob.remove("memory", "Debian")
    return home_path, store


def test_archive_lists_searches_and_restores_a_project_stores_entries(
    backend: Kit, tmp_path: Path
) -> None:
    home_path, store = _one_archived_each(backend, tmp_path)
    pid = store.project.id
    client = _client(home_path)
    page = client.get("/archive").text
    assert "laptop runs Debian" in page and "kestrel" not in page  # the global store's
    assert f'<option value="{pid}"' in page and "&lt;i&gt;proj&lt;/i&gt;" in page
    listed = client.get(f"/archive?project={pid}").text
    assert "kestrel script" in listed and "Debian" not in listed
    assert "1 archived entry" in listed
    # the command it shows names the store: it works without --project
    (shown,) = re.findall(r"<code>mnemic memory archive show ([^<]+)</code>", listed)
    assert shown.startswith(f"{pid}:")
    found = client.get(f"/archive?project={pid}&q=kestrel").text
    assert "kestrel script" in found and "1 result for" in found
    assert "laptop runs Debian" not in client.get(f"/archive?project={pid}&q=Debian").text
    form = re.search(
        r'action="/archive/restore".*?name="project" value="([^"]*)".*?name="id" value="([^"]+)"',
        listed,
        re.S,
    )
    assert form is not None and form[1] == pid
    r = client.post("/archive/restore", data={"csrf": _csrf(listed), "project": pid, "id": form[2]})
    assert r.status_code == 303
    assert r.headers["location"] == f"/archive?done=restored&project={pid}"
    assert Memory.open(store).entries("memory") == ["The app deploys with the kestrel script."]
    assert Memory.open(home_path).entries("memory") == []  # nothing reached the global store
    assert "back in its file" in client.get(r.headers["location"]).text
    for bad in (str(store.project.path), "nope-0123456789ab"):
        assert client.get(f"/archive?project={bad}").status_code == 400


def test_the_archive_page_shows_every_stores_archive_at_once(backend: Kit, tmp_path: Path) -> None:
    """``?project=*``: what ``archive list --all-scopes`` lists, each entry naming its
    store, its id qualified, and its Restore button restoring into its own store."""
    home_path, store = _one_archived_each(backend, tmp_path)
    pid = store.project.id
    client = _client(home_path)
    every = client.get("/archive?project=*").text
    assert '<option value="*" selected>every store</option>' in every
    assert "kestrel script" in every and "laptop runs Debian" in every
    assert "2 archived entries" in every
    assert f"<code>mnemic memory archive show {pid}:2</code>" in every
    assert "<code>mnemic memory archive show 2</code>" in every  # the global one's
    assert "&lt;i&gt;proj&lt;/i&gt;</span>" in every and '"store">global<' in every  # escaped
    assert "<i>proj</i>" not in every
    found = client.get("/archive?project=*&q=kestrel").text
    assert "kestrel script" in found
    form = re.search(
        rf'name="project" value="{pid}"><input type="hidden" name="view" value="\*">'
        r'<input type="hidden" name="id" value="([^"]+)"',
        found,
    )
    assert form is not None
    data = {"csrf": _csrf(found), "project": pid, "view": "*", "id": form[1]}
    r = client.post("/archive/restore", data=data)
    assert r.status_code == 303
    assert r.headers["location"] == "/archive?done=restored&project=%2A"
    assert Memory.open(store).entries("memory") == ["The app deploys with the kestrel script."]
    assert Memory.open(home_path).entries("memory") == []


def test_a_project_restore_that_does_not_fit_shows_that_projects_entries_to_drop(
    home_path: Path, tmp_path: Path
) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(
        '[sessions]\nsemantic = "off"\n[project]\nmemory_char_limit = 100\n', encoding="utf-8"
    )
    store = _project(home_path, tmp_path)
    pid = store.project.id
    mem = Memory.open(store, origin="cli")
    mem.add("memory", "The first fact, sixty characters long, padded to that size..")
    mem.remove("memory", "first fact")
    mem.add("memory", "The other fact, sixty characters long, padded to that size..")
    Memory.open(home_path, origin="cli").add("memory", "A global fact.")
    client = _client(home_path)
    listed = client.get(f"/archive?project={pid}").text
    item = re.search(r'name="id" value="([^"]+)"', listed)
    assert item is not None
    r = client.post("/archive/restore", data={"csrf": _csrf(listed), "project": pid, "id": item[1]})
    assert r.status_code == 409 and "Nothing was saved" in r.text
    drop = _section(r.text, "drop-memory")
    assert "The other fact" in drop and "A global fact." not in drop
    assert f'name="project" value="{pid}"' in drop  # its Remove button removes in the project
