"""Fixtures the end-to-end tests share."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium driven by Playwright, one per test module (the console's
    browser tests: ``test_ui_browser*.py``, whose marks skip them, saying why, where
    there is no Chromium)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from .test_ui_browser import ARGS, CHROMIUM

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
