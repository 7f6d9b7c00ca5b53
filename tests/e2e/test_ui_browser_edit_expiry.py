"""An entry's "Valid until" on its edit form of the console's Memory page
(docs/first-week.md, row 40's leftover; session 53, ux17): the add forms took an expiry,
the edit form did not, and saving an edit dropped the entry's expiry unsaid. In a real
browser: the real ``mnemic ui`` in a subprocess on a temp home, driven by Playwright
through the distribution's headless Chromium, as ``test_ui_browser.py`` does; the
screenshots are written under the test's tmp_path to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.curated.pressure import parse_expires

from .test_ui_browser import base_of, pytestmark as browser_marks, start_ui

pytestmark = list(browser_marks)  # browser; skipped, saying why, without Chromium

CAROL = "Carol is on call until Friday."
DAVE = "Dave covers the pager."


@contextmanager
def _console(browser: Any, home: Path, width: int = 1280) -> Iterator[tuple[Any, str]]:
    """A page of the console served on ``home`` at ``width`` pixels, and its root."""
    proc, url = start_ui(home)
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)  # a loaded 2-core machine
        page.goto(url)
        yield page, base_of(url)
    finally:
        context.close()
        proc.terminate()
        proc.wait(timeout=30)


def _seed(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home)
    until = parse_expires("2030-06-30", mem.now())
    mem.apply("memory", [Op("add", CAROL, expires=until)])
    mem.add("memory", DAVE)


def _expires(home: Path, start: str) -> float | None:
    (prov,) = [p for e, p in Memory.open(home).provenance("memory") if e.startswith(start)]
    return prov.expires


def _edit(page: Any, has_text: str) -> Any:
    """The edit form of the entry holding ``has_text``, opened."""
    details = page.locator("li.entry", has_text=has_text).locator("details.edit")
    if details.get_attribute("open") is None:  # a refused edit comes back open
        details.locator("summary").click()
    return details.locator("form")


def test_an_entrys_expiry_is_set_changed_and_kept_from_its_edit_form(
    browser: Any, home_path: Path, tmp_path: Path
) -> None:
    _seed(home_path)
    with _console(browser, home_path) as (page, base):
        page.goto(base + "/memory")
        form = _edit(page, CAROL)
        field = form.locator("input[name=expires]")
        assert field.input_value() == "2030-06-30"  # the current expiry, as it was given
        page.screenshot(path=str(tmp_path / "edit-1280.png"), full_page=True)  # to look at
        field.fill("2031-01-15")  # changed
        form.locator("button[type=submit]").click()
        carol = page.locator("li.entry", has_text="Carol").inner_text()
        assert "valid through 2031-01-15 UTC" in carol

        form = _edit(page, DAVE)  # set where there was none
        assert form.locator("input[name=expires]").input_value() == ""
        form.locator("input[name=expires]").fill("2030-12-31T18:00")
        form.locator("button[type=submit]").click()
        assert (
            "expires 2030-12-31 18:00 UTC" in page.locator("li.entry", has_text=DAVE).inner_text()
        )

        form = _edit(page, CAROL)  # a new text, the date left as shown: the expiry stays
        form.locator("textarea").fill("Carol is on call until next Friday.")
        form.locator("button[type=submit]").click()
        carol = page.locator("li.entry", has_text="next Friday").inner_text()
        assert "valid through 2031-01-15 UTC" in carol
    assert _expires(home_path, "Carol") == parse_expires("2031-01-15", 0.0)
    assert _expires(home_path, "Dave") == parse_expires("2030-12-31T18:00", 0.0)


def test_an_entrys_expiry_is_cleared_from_its_edit_form(
    browser: Any, home_path: Path, tmp_path: Path
) -> None:
    _seed(home_path)
    with _console(browser, home_path, width=375) as (page, base):
        page.goto(base + "/memory")
        form = _edit(page, CAROL)
        page.screenshot(path=str(tmp_path / "edit-375.png"), full_page=True)  # to look at
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        form.locator("input[name=expires]").fill("")  # the same text: cleared (session 54)
        with page.expect_navigation():  # the form's redirect back to the page
            form.locator("button[type=submit]").click()
        carol = page.locator("li.entry", has_text=CAROL).inner_text()
        assert "valid" not in carol and "expires" not in carol
        assert page.locator(".problem").count() == 0
        assert _expires(home_path, "Carol") is None

        form = _edit(page, CAROL)
        form.locator("input[name=expires]").fill("2030-06-30")  # set again, then a new text
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        assert _expires(home_path, "Carol") is not None
        form = _edit(page, CAROL)
        form.locator("textarea").fill("Carol is on call this week.")
        form.locator("input[name=expires]").fill("")
        form.locator("button[type=submit]").click()
        carol = page.locator("li.entry", has_text="this week").inner_text()
        assert "valid" not in carol and "expires" not in carol
    assert _expires(home_path, "Carol") is None
