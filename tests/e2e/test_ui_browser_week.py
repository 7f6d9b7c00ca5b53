"""A newcomer's week with the lifecycle on the web console (docs/first-week.md, rows 29
on), in a real browser: the real ``mnemic ui`` in a subprocess on a temp home, driven by
Playwright through the distribution's headless Chromium, as ``test_ui_browser.py`` does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mnemic.curated.memory import Memory

from .test_ui_browser import base_of, pytestmark as browser_marks, start_ui

pytestmark = list(browser_marks)  # browser; skipped, saying why, without Chromium

DUPLICATED = "The staging host stg-4 runs PostgreSQL 15 on port 5433."
REPEATS = "The staging host stg-4 runs PostgreSQL 15 on port 5433 for the API."


@contextmanager
def _console(browser: Any, home: Path, width: int = 1280) -> Iterator[tuple[Any, str]]:
    """A page of the console served on ``home`` at ``width`` pixels, and its root."""
    proc, url = start_ui(home)
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)  # a loaded 2-core machine: 15 s flaked once
        page.goto(url)
        yield page, base_of(url)
    finally:
        context.close()
        proc.terminate()
        proc.wait(timeout=30)


def test_the_refusal_on_the_memory_page_names_entries_by_their_text(
    browser: Any, home_path: Path
) -> None:
    """#29: a full MEMORY.md's refusal named each entry to drop, and the entry a duplicate
    repeats, by a handle (``entry:94ebf64e``) the page shows nowhere."""
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text("[memory]\nmemory_char_limit = 200\n")
    mem = Memory.open(home_path)
    for text in (DUPLICATED, "Deploys go through ./deploy.sh on Tuesdays.", REPEATS):
        mem.add("memory", text)
    with _console(browser, home_path) as (page, base):
        page.goto(base + "/memory")
        page.fill("#add-memory", "Grafana lives at grafana.acme.internal under 'web'.")
        page.locator("form:has(#add-memory) button[type=submit]").click()
        # the text as a person sees it: .problem keeps its spaces and lines by the
        # stylesheet (white-space: pre-wrap), so read it once the page (CSS too) loaded;
        # read before, Chromium collapsed "'...'  (duplicate" to one space (a loaded run)
        page.wait_for_load_state("load")
        problem = page.locator(".problem").inner_text()
        assert "Best to drop first" in problem
        assert "entry:" not in problem
        assert f"{DUPLICATED!r}  (duplicate of {REPEATS[:40] + '...'!r}" in problem


def test_wide_tables_scroll_in_themselves_on_a_narrow_screen(browser: Any, home_path: Path) -> None:
    """#34: at a phone's width (375 px) the Audit page's table (ten columns) made the
    whole page scroll sideways, header and forms included; so did the Sessions page's,
    and on every page the home's path in the header when it is long (as pytest's is)."""
    home_path.mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home_path)
    mem.add("memory", DUPLICATED)
    with _console(browser, home_path, width=375) as (page, base):
        for path in ("/audit", "/sessions"):
            page.goto(base + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
            box = page.locator("main table").first.bounding_box()
            assert box is not None and box["x"] >= 0, path
        page.goto(base + "/audit")
        wrapper = page.locator("main table.audit").locator("xpath=..")
        assert wrapper.evaluate("e => e.scrollWidth > e.clientWidth")  # reached by scrolling
        assert "foreground" in page.locator("main table.audit").inner_text()


FILLER = ("Deploys go through ./deploy.sh on Tuesdays.", "Release notes go into CHANGELOG.md.")
NEW = "Grafana lives at grafana.acme.internal under the folder 'web'."


def _nearly_full(home: Path, config: str) -> None:
    """MEMORY.md at 160 chars, past 80 % (139) with DUPLICATED and FILLER."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f"[memory]\nmemory_char_limit = 160\n{config}")
    mem = Memory.open(home)
    for text in (DUPLICATED, *FILLER):
        mem.add("memory", text)


def test_the_console_follows_a_config_change_without_a_restart(
    browser: Any, home_path: Path
) -> None:
    """#36: `[memory] on_full` turned on in config.toml while the console ran: the CLI's
    next write evicted, the console still refused (it read the settings once, at start)."""
    _nearly_full(home_path, "")
    with _console(browser, home_path) as (page, base):
        page.goto(base + "/memory")
        assert "merge or remove stale entries" in page.locator(".warn").first.inner_text()
        (home_path / "config.toml").write_text(
            '[memory]\nmemory_char_limit = 160\non_full = "archive_oldest"\n'
        )
        page.goto(base + "/memory")
        warn = page.locator(".warn").first.inner_text()
        assert "the next write that does not fit moves the entries best dropped" in warn
        page.fill("#add-memory", NEW)
        page.locator("form:has(#add-memory) button[type=submit]").click()
        assert page.url.startswith(base + "/memory?done=add")  # evicted, not refused


def test_a_write_that_evicts_says_what_left_on_the_page(browser: Any, home_path: Path) -> None:
    """#37: under `on_full` an add on the Memory page (or a Restore on the Archive page)
    that moved entries to the archive said only "Entry added." (the CLI names each)."""
    _nearly_full(home_path, 'on_full = "archive_oldest"\n')
    with _console(browser, home_path) as (page, base):
        page.goto(base + "/memory")
        page.fill("#add-memory", NEW)
        page.locator("form:has(#add-memory) button[type=submit]").click()
        notice = page.locator(".notice").first.inner_text()
        assert "Entry added. To make room, " in notice
        assert "moved to the archive ([memory] on_full)" in notice
        page.goto(base + "/archive")
        assert "evicted" in page.locator("main").inner_text()


def test_an_archive_search_counts_its_results_in_words(browser: Any, home_path: Path) -> None:
    """#38: the Archive page's search said "20 match(es) for “pager”" for every archived
    entry, 17 of them marked weak one by one further down (the CLI explains `(weak)`)."""
    home_path.mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home_path)
    mem.add("memory", "Use ruff for lint and mypy --strict for types.")
    mem.remove("memory", "ruff")
    with _console(browser, home_path) as (page, base):
        page.goto(base + "/archive?q=ruff")
        said = page.locator("main").inner_text()
        assert "match(es)" not in said
        assert "1 result for “ruff”, best first." in said


def test_a_refused_write_keeps_its_draft_in_its_own_form_only(
    browser: Any, home_path: Path
) -> None:
    """#45: a MEMORY.md add refused for room came back with its text in the USER.md add
    form too (one Add click from the wrong file), and a refused edit's new text landed in
    the "New entry" box, where Add would write it beside the entry it was meant to
    replace."""
    _nearly_full(home_path, "")
    with _console(browser, home_path) as (page, base):
        page.goto(base + "/memory")
        page.fill("#add-memory", NEW)
        page.locator("form:has(#add-memory) button[type=submit]").click()
        assert page.locator(".problem").count() == 1
        assert page.input_value("#add-memory") == NEW
        assert page.input_value("#add-user") == ""
        longer = DUPLICATED + " It moved to stg-9 in May; the old host is read-only now."
        first = page.locator("li.entry").first
        first.locator("summary").click()
        first.locator("textarea").fill(longer)
        first.locator("form[action='/memory/replace'] button").click()
        assert page.locator(".problem").count() == 1
        assert page.input_value("#add-memory") == ""
        edit = page.locator("li.entry").first.locator("details.edit")
        assert edit.get_attribute("open") is not None
        assert edit.locator("textarea").input_value() == longer


def test_an_entry_added_on_the_console_can_carry_an_expiry(browser: Any, home_path: Path) -> None:
    """#40: the Memory page's add forms took text only, while `memory add --expires` and
    the tool's `expires` give an entry a date after which it moves to the archive."""
    home_path.mkdir(parents=True, exist_ok=True)
    Memory.open(home_path)
    with _console(browser, home_path) as (page, base):
        page.goto(base + "/memory")
        page.fill("#add-memory", "Carol is on call until Friday.")
        page.fill("#until-memory", "2030-06-30")
        page.locator("form:has(#add-memory) button[type=submit]").click()
        entry = page.locator("li.entry", has_text="Carol is on call").inner_text()
        assert "valid through 2030-06-30 UTC" in entry
        page.fill("#add-memory", "Dave covers the pager.")
        page.fill("#until-memory", "next friday")
        page.locator("form:has(#add-memory) button[type=submit]").click()
        assert "valid until must be a date YYYY-MM-DD" in page.locator(".problem").inner_text()
        assert page.input_value("#until-memory") == "next friday"  # kept, to correct
    (prov,) = [p for e, p in Memory.open(home_path).provenance("memory") if e.startswith("Carol")]
    assert prov.expires is not None


def test_the_entries_best_dropped_are_marked_by_their_remove_buttons(
    browser: Any, home_path: Path
) -> None:
    """#41: a refusal for room named the entries best dropped at the top of the page,
    while their Remove buttons sat among every other entry's further down, unmarked (on
    the Memory page, and in the Archive page's list after a restore that did not fit)."""
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text("[memory]\nmemory_char_limit = 160\n")
    mem = Memory.open(home_path)
    mem.add("memory", NEW)
    mem.remove("memory", "Grafana")
    for text in (DUPLICATED, *FILLER):
        mem.add("memory", text)
    with _console(browser, home_path) as (page, base):
        page.goto(base + "/memory")
        page.fill("#add-memory", NEW)
        page.locator("form:has(#add-memory) button[type=submit]").click()
        marked = page.locator("li.entry:has(.drop-first)")
        assert 1 <= marked.count() <= 3
        assert "Best dropped first: " in marked.first.inner_text()
        assert marked.first.locator("button.danger").inner_text() == "Remove"
        page.goto(base + "/archive")
        page.locator("form[action='/archive/restore'] button").first.click()
        assert page.locator(".problem").count() == 1
        marked = page.locator("li.entry:has(.drop-first)")
        assert 1 <= marked.count() <= 3
        assert marked.first.locator("button.danger").inner_text() == "Remove"
