"""The web console in a real browser: the real ``mnemic ui`` in a subprocess on a temp
home, driven by Playwright through the distribution's headless Chromium
(``/usr/bin/chromium``; never a downloaded browser). Every step checks the files on disk.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from mnemic.curated.memory import Memory
from mnemic.curated.scope import ProjectHome, open_project
from mnemic.home import Home
from mnemic.ops import PendingQueue
from mnemic.sessions import open_store
from mnemic.sessions.store import NewMessage, NewSession

from . import mnemic_env, run_here

CHROMIUM = os.environ.get("MNEMIC_TEST_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None,
        reason=f"no Chromium at {CHROMIUM}: install the distribution's package "
        "(apt-get install -y chromium); .ci/run does",
    ),
]


def start_ui(home: Path, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    """``mnemic ui --no-browser --port 0`` on ``home``; returns it and the address it
    printed, token included (its log goes to a temporary file, shown if it fails to
    start)."""
    with tempfile.TemporaryFile(mode="w+") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "mnemic", "ui", "--no-browser", "--port", "0"],
            env=mnemic_env(home, env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        line = proc.stdout.readline().strip() if ready else ""
        if not line.startswith("http://"):
            proc.kill()
            proc.wait(timeout=30)
            log.seek(0)
            raise AssertionError(f"mnemic ui did not print its address: {log.read()!r}")
    return proc, line


def base_of(url: str) -> str:
    """The console's root without the token: ``http://127.0.0.1:PORT``."""
    return url.split("?", 1)[0].rstrip("/")


@pytest.fixture
def printed(home_path: Path) -> Iterator[str]:
    """The address ``mnemic ui`` printed (with the token) while it serves."""
    Home.open(home_path)
    proc, url = start_ui(home_path)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture
def served(printed: str) -> str:
    return base_of(printed)


@pytest.fixture
def page(browser: Any, printed: str, served: str) -> Iterator[Any]:
    context = browser.new_context()
    external: list[str] = []

    def watch(route: Any) -> None:
        if not route.request.url.startswith(served):
            external.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", watch)
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    pg.goto(printed)  # as the owner's browser does: the token once, then the cookie
    assert pg.url == served + "/memory"  # the token left the address bar
    yield pg
    context.close()
    assert external == [], f"the page asked for other sites: {external}"


def memory_text(home: Path, name: str = "MEMORY.md") -> str:
    path = home / "memories" / name
    return path.read_text(encoding="utf-8") if path.exists() else ""


def project_store(home_path: Path, tmp_path: Path) -> tuple[Path, ProjectHome]:
    """A project directory under ``tmp_path`` and its store in the home, made."""
    directory = tmp_path / "work" / "proj"
    directory.mkdir(parents=True)
    return directory, open_project(Home.open(home_path), directory, create=True)


def test_every_page_opens_with_its_heading(page: Any, served: str) -> None:
    for path, heading in (
        ("/memory", "Memory"),
        ("/archive", "Archive"),
        ("/pending", "Pending approvals"),
        ("/audit", "Audit journal"),
        ("/sessions", "Sessions"),
        ("/skills", "Skills"),
        ("/prompt", "System prompt of a new session"),
    ):
        page.goto(served + path)
        assert page.locator("h1").first.inner_text() == heading
        assert page.locator("nav a[aria-current=page]").count() == 1


def test_the_browser_keeps_a_session_cookie_scripts_cannot_read_and_that_expires(
    page: Any, served: str
) -> None:
    port = urlsplit(served).port
    (cookie,) = page.context.cookies()
    assert cookie["name"] == f"mnemic_ui_{port}" and cookie["path"] == "/"
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert cookie["expires"] > 0  # not a forever cookie (Max-Age)
    assert page.evaluate("document.cookie") == ""


def test_the_page_mnemic_ui_opens_signs_the_browser_in(
    browser: Any, printed: str, served: str, tmp_path: Path
) -> None:
    """The browser is started on a local file that moves on to the address with the
    token: coming from another site, it would not send the SameSite=Strict cookie along
    a redirect, so the console answers it with a page that moves on by itself."""
    from mnemic.ui.serve import opener_page

    opener = tmp_path / "open.html"
    opener.write_text(opener_page(printed))
    context = browser.new_context()
    try:
        pg = context.new_page()
        pg.goto(opener.as_uri())
        pg.wait_for_url(served + "/memory")
        assert pg.locator("h1").first.inner_text() == "Memory"
        pg.goto(served + "/pending")  # and the session holds for the next page
        assert pg.locator("h1").first.inner_text() == "Pending approvals"
    finally:
        context.close()


def test_add_edit_remove_and_restore_an_entry(page: Any, served: str, home_path: Path) -> None:
    page.goto(served + "/memory")
    page.fill("#add-memory", "The staging database is db-2")
    page.click("#target-memory form.add button")
    page.wait_for_selector("text=Entry added.")
    assert memory_text(home_path) == "The staging database is db-2"

    entry = page.locator("#target-memory li.entry").first
    entry.locator("summary").click()
    entry.locator("textarea").fill("The staging database is db-3")
    entry.locator("details.edit button").click()
    page.wait_for_selector("text=Entry updated.")
    assert memory_text(home_path) == "The staging database is db-3"
    assert "db-3" in page.locator("#target-memory pre.entry-text").first.inner_text()

    page.locator("#target-memory li.entry form.inline button").first.click()
    page.wait_for_selector("text=Entry removed.")
    assert memory_text(home_path) == ""

    page.locator("#target-memory details.history summary").click()
    page.locator("#target-memory details.history a").first.click()
    assert "version" in page.locator("h1").inner_text()
    assert page.locator("table.diff tr.delete, table.diff tr.replace").count() >= 1
    page.click("text=Restore version")
    page.wait_for_selector("text=Version restored")
    assert memory_text(home_path) == "The staging database is db-3"


def test_restore_an_entry_from_the_archive(page: Any, served: str, home_path: Path) -> None:
    mem = Memory.open(home_path, origin="cli")
    mem.add("memory", "The staging host is kestrel")
    mem.remove("memory", "kestrel")
    page.goto(served + "/memory")
    page.click("nav >> text=Archive")
    page.fill("input[name=q]", "kestrel")
    page.click("form.filters button")
    found = page.locator("ol.archive li.entry").first
    assert "The staging host is kestrel" in found.inner_text()
    found.locator("button", has_text="Restore").click()
    page.wait_for_selector("text=Entry restored")
    assert memory_text(home_path) == "The staging host is kestrel"
    assert "The archive is empty" in page.locator("ol.archive").inner_text()


def test_restore_a_project_stores_entry_from_the_archive(
    page: Any, served: str, home_path: Path, tmp_path: Path
) -> None:
    directory, store = project_store(home_path, tmp_path)
    mem = Memory.open(store, origin="cli")
    mem.add("memory", "Deploys with the kestrel script")
    mem.remove("memory", "kestrel")
    page.goto(served + "/archive")
    assert "The archive is empty" in page.locator("ol.archive").inner_text()  # the global one
    page.select_option("select[name=project]", store.project.id)
    page.click("form.filters button")
    assert str(directory) in page.locator("h1").inner_text()
    found = page.locator("ol.archive li.entry").first
    assert "Deploys with the kestrel script" in found.inner_text()
    found.locator("button", has_text="Restore").click()
    page.wait_for_selector("text=Entry restored")
    assert Memory.open(store).entries("memory") == ["Deploys with the kestrel script"]
    assert memory_text(home_path) == ""


def test_approve_and_reject_staged_writes(page: Any, served: str, home_path: Path) -> None:
    Memory.open(home_path, origin="cli").add("memory", "Rule one")
    Memory.open(home_path, origin="cli").add("memory", "Rule two")
    review = Memory.open(home_path, actor="background", origin="review")
    assert review.remove("memory", "Rule one").staged  # unattended removes wait for a person
    assert review.replace("memory", "Rule two", "Rule 2").staged
    page.goto(served + "/pending")
    assert page.locator("article.pending").count() == 2
    first = page.locator("article.pending").nth(0)
    assert "background / review" in first.inner_text()
    first.locator("text=Approve").click()
    page.wait_for_selector("text=Approved and applied.")
    assert memory_text(home_path) == "Rule two"
    page.locator("article.pending").first.locator("text=Reject").click()
    page.wait_for_selector("text=Rejected: nothing was written.")
    assert memory_text(home_path) == "Rule two"
    assert page.locator("text=No pending writes.").count() == 1


def test_stage_a_project_stores_tidy_proposal_and_see_its_audit_records(
    page: Any, served: str, home_path: Path, tmp_path: Path
) -> None:
    directory, store = project_store(home_path, tmp_path)
    mem = Memory.open(store, origin="cli")
    mem.add("memory", "Tests run with pytest -q in the repo root.")
    mem.add("memory", "tests run with pytest -q in the repo root")
    page.goto(served + "/tidy")
    section = page.locator(f"#tidy-project-{store.project.id}")
    assert str(directory) in section.locator("h2").inner_text()
    section.locator("button", has_text="Stage for approval").click()
    page.wait_for_selector("text=Staged in the project's own approval queue")
    [record] = PendingQueue(Memory.open(store)).records()
    assert PendingQueue.open(home_path).records() == []
    page.goto(served + "/audit")
    page.select_option("select[name=store]", store.project.id)
    page.click("form.filters button")
    rows = page.locator("table.audit tbody tr")
    assert rows.count() == 3  # two adds and the staged tidy, all the project's
    assert all(str(directory) in rows.nth(i).inner_text() for i in range(3))
    assert record.id in rows.first.inner_text()


def test_ask_why_tidy_proposes_nothing_for_two_entries(
    page: Any, served: str, home_path: Path, tmp_path: Path
) -> None:
    mem = Memory.open(home_path, origin="cli")
    mem.add("memory", "Bus 42 leaves at 8:05 from the station.")
    mem.add("memory", "Bus 24 leaves at 8:15 from the station.")
    before = memory_text(home_path)
    page.goto(served + "/tidy")
    form = page.locator("#explain-global")
    form.locator("summary", has_text="Why not these two?").click()
    form.locator("select[name=a]").select_option(label="Bus 42 leaves at 8:05 from the station.")
    form.locator("select[name=b]").select_option(label="Bus 24 leaves at 8:15 from the station.")
    form.locator("button", has_text="Why not?").click()
    page.wait_for_selector("text=Tidy proposes nothing for them: it reads them as two facts.")
    assert page.url.startswith(served + "/tidy/explain?") and page.url.endswith("#explain-global")
    answer = page.locator("#explain-global div.explanation").inner_text()
    assert "a veto: a number or letter that names which thing: bus 42 / 24" in answer
    assert "remove the other on the Memory page" in answer
    page.screenshot(path=str(tmp_path / "why-not.png"), full_page=True)  # to look at
    assert memory_text(home_path) == before  # asking changes nothing
    assert PendingQueue.open(home_path).records() == []


def test_search_sessions_and_open_one(page: Any, served: str, home_path: Path) -> None:
    with open_store(Home.open(home_path)) as store:
        sid = store.start_session(NewSession(title="Billing talk"))
        store.append_messages(
            sid,
            [
                NewMessage("user", "Where is the invoice archive?"),
                NewMessage("assistant", "In the s3 bucket <b>invoices-2026</b>"),
            ],
        )
    page.goto(served + "/sessions")
    page.fill("input[name=q]", "invoice")
    page.click("form.search button")
    assert page.locator("ol.results mark").first.inner_text().lower().startswith("invoice")
    page.locator("ol.results a").first.click()
    assert page.locator("h1").inner_text() == "Billing talk"
    assert "<b>invoices-2026</b>" in page.locator("li.role-assistant pre").inner_text()


def test_a_session_page_shows_an_imported_image_and_offers_a_file(
    page: Any, served: str, home_path: Path
) -> None:
    from mnemic.sessions.attachments import AttachmentStore
    from test_sessions_attachments import tiny_png

    home = Home.open(home_path)
    files = AttachmentStore.of_home(home)
    png = files.put(tiny_png(), name="dot.png", caption="a red dot")
    pdf = files.put(b"%PDF-1.4 tiny", name="notes.pdf")
    with open_store(home) as store:
        sid = store.start_session(NewSession(title="Pictures"))
        text = f"look\n{png.placeholder()}\n{pdf.placeholder()}"
        store.append_messages(sid, [NewMessage("user", text, attachments=(png, pdf))])
    page.goto(served + "/sessions/view?id=" + sid)
    assert page.locator("h1").inner_text() == "Pictures"
    image = page.locator("figure.attachment img")
    assert image.get_attribute("alt") == "a red dot"
    # the browser fetched and decoded the bytes: a 1x1 picture, not a broken image.
    # decode() resolves once the picture is loaded and decoded (and rejects if it is
    # broken), so the check does not race the image's fetch as reading .complete did
    assert image.evaluate("img => img.decode().then(() => img.naturalWidth)") == 1
    with page.expect_download() as caught:
        page.get_by_role("link", name="notes.pdf").click()
    download = caught.value
    assert download.suggested_filename == "notes.pdf"
    assert Path(download.path()).read_bytes() == b"%PDF-1.4 tiny"


def test_the_image_check_waits_for_a_slow_picture_the_old_check_did_not(
    page: Any, served: str, home_path: Path
) -> None:
    """The race a13bfce fixed, shown on demand: the browser's request for the picture is
    held (Playwright's own routing: nothing in the console changes) while the page is
    checked. The old check (``img.complete && img.naturalWidth`` read at once) reads a
    picture still on its way; the new one (``img.decode()``) waits for it."""
    from mnemic.sessions.attachments import AttachmentStore
    from test_sessions_attachments import tiny_png

    home = Home.open(home_path)
    png = AttachmentStore.of_home(home).put(tiny_png(), name="dot.png", caption="a red dot")
    with open_store(home) as store:
        sid = store.start_session(NewSession(title="Slow picture"))
        store.append_messages(
            sid, [NewMessage("user", f"look\n{png.placeholder()}", attachments=(png,))]
        )
    held: list[Any] = []

    def hold(route: Any) -> None:  # not answered until the test releases it
        held.append(route)

    page.route("**/sessions/attachment?*", hold)
    with page.expect_request(lambda r: "/sessions/attachment?" in r.url):
        page.goto(served + "/sessions/view?id=" + sid, wait_until="domcontentloaded")
    image = page.locator("figure.attachment img")
    old = image.evaluate("img => img.complete && img.naturalWidth")
    assert old != 1  # the old check fails while the picture is on its way
    decoded = "img => { window.decodedWidth = img.decode().then(() => img.naturalWidth) }"
    image.evaluate(decoded)  # the new check starts before the bytes come
    assert len(held) == 1  # the request is still held (the route event came in order)
    held[0].continue_()
    assert page.evaluate("() => window.decodedWidth") == 1  # and passes once they do
    assert image.evaluate("img => img.complete && img.naturalWidth") == 1


def test_the_page_says_when_another_process_changed_memory(
    page: Any, served: str, home_path: Path
) -> None:
    page.goto(served + "/memory")
    banner = page.locator("#live-banner")
    assert banner.is_hidden()
    done = run_here(home_path, "memory", "add", "written by another process")
    assert done.returncode == 0, done.stderr
    banner.wait_for(state="visible")
    assert "changed elsewhere" in banner.inner_text()


def test_an_error_page_leads_back_in_words_for_a_browser(
    page: Any, served: str, tmp_path: Path
) -> None:
    """A page that is not there says so without commands to type, and links back to the
    page the person came from and to the home page."""
    page.goto(served + "/sessions")
    page.goto(served + "/sessions/view?id=no-such-session", referer=served + "/sessions")
    assert page.locator("h1").first.inner_text() == "Not found"
    problem = page.locator("p.problem").inner_text()
    assert "no-such-session" in problem
    assert "mnemic " not in problem and "`" not in problem, problem  # no CLI in a page
    page.screenshot(path=str(tmp_path / "not-found.png"), full_page=True)  # to look at
    assert page.locator("a.home-link").get_attribute("href") == "/memory"
    page.locator("a.back").click()
    page.wait_for_url(served + "/sessions")
    assert page.locator("h1").first.inner_text() == "Sessions"

    # a mistyped address, reached with no page before it: back to its section
    page.goto(served + "/skills/nothing-here")
    assert page.locator("h1").first.inner_text() == "Not found"
    assert "/skills/nothing-here" in page.locator("p.problem").inner_text()
    assert page.locator("a.back").get_attribute("href") == "/skills"
    page.goto(served + "/nowhere")
    assert page.locator("a.back").count() == 0  # no section: the home page link is the way
    assert page.locator("a.home-link").get_attribute("href") == "/memory"
