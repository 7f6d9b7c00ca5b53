"""Regenerate docs/images/ui-*.png: the web console on a home filled by the demo.

    ./x bench ui_screenshots            (needs /usr/bin/chromium; no network)

Runs the demo (``./x run``'s story) into a temp home, stages one review write so the
Pending page has something to show, starts the real ``mnemic ui --no-browser --port 0``
and photographs each page with the distribution's headless Chromium through
Playwright. Prints one JSON line naming the files written.
"""

from __future__ import annotations

import contextlib
import io
import json
import select
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PAGES = ("memory", "pending", "archive", "audit", "sessions", "skills", "prompt")


def fill(home: Path) -> str:
    """The demo's home, plus a staged review write; returns a session id to show."""
    from mnemic.curated.memory import Memory
    from mnemic.demo import run_demo
    from mnemic.sessions import open_store

    with contextlib.redirect_stdout(io.StringIO()):
        run_demo(home)
    mem = Memory.open(home)
    entries = mem.entries("memory")
    if entries:
        review = Memory.open(home, actor="background", origin="review")
        review.replace("memory", entries[0], entries[0] + " (confirmed in review)")
    with open_store(mem_home(home)) as store:
        sessions = store.list_sessions(limit=1)
    return sessions[0].id if sessions else ""


def mem_home(home: Path) -> object:
    from mnemic.home import Home

    return Home.open(home)


def main() -> None:
    from playwright.sync_api import sync_playwright

    home = Path(tempfile.mkdtemp(prefix="mnemic-ui-shots-"))
    try:
        session = fill(home)
        env = {"MNEMIC_HOME": str(home), "PATH": "/usr/bin:/bin"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "mnemic", "ui", "--no-browser", "--port", "0"],
            env=env,
            stdout=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        printed = proc.stdout.readline().strip() if ready else ""
        if not printed.startswith("http://"):
            proc.kill()
            raise SystemExit("mnemic ui did not start")
        url = printed.split("?", 1)[0].rstrip("/")
        written = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(printed)  # the address with the token: the session cookie
                shots = [(name, f"/{name}") for name in PAGES]
                if session:
                    shots.append(("session", f"/sessions/view?{urlencode({'id': session})}"))
                shots.append(("search", "/sessions?q=billing"))
                for name, path in shots:
                    page.goto(url + path)
                    if name == "memory":
                        page.locator("details.history").first.locator("summary").click()
                    target = OUT / f"ui-{name}.png"
                    page.screenshot(path=str(target), full_page=name not in ("prompt", "audit"))
                    written.append(str(target.relative_to(ROOT)))
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        print(json.dumps({"bench": "ui_screenshots", "files": written}))
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
