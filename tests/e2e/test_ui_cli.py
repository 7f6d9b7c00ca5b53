"""``mnemic ui`` as a real command: the address it prints answers (its token once, then
a session cookie), the browser it opens is never given the token on its command line,
and every way it can refuse to start is a clear message with exit 2 (configuration) or
1 (the port)."""

from __future__ import annotations

import html
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import urlsplit

from . import mnemic_env, run_here, run_mnemic
from .test_ui_browser import base_of, start_ui


def test_a_weak_token_file_is_refused(home_path: Path, tmp_path: Path) -> None:
    weak = tmp_path / "token"
    weak.write_text("short\n")
    weak.chmod(0o600)
    done = run_here(home_path, "ui", "--no-browser", "--port", "0", "--token-file", str(weak))
    assert done.returncode == 2 and "at least 32" in done.stderr


def test_a_taken_port_is_a_clear_error(home_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = run_mnemic(home_path, "ui", "--no-browser", "--port", str(port))
    assert done.returncode == 1
    assert f"cannot serve the web console on 127.0.0.1:{port}" in done.stderr


def _get(url: str, path: str, cookie: str = "") -> http.client.HTTPResponse:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    return conn.getresponse()


def _login(printed: str) -> str:
    """Open the printed address as a browser does; the session cookie it sets."""
    parts = urlsplit(printed)
    r = _get(printed, f"{parts.path}?{parts.query}")
    assert r.status == 303, r.status
    return r.getheader("set-cookie", "").split(";")[0]


def test_the_printed_address_serves_the_console_on_a_fresh_home(home_path: Path) -> None:
    proc, url = start_ui(home_path)
    try:
        assert "?token=" in url
        assert _get(url, "/memory").status == 401  # the address without its token
        r = _get(url, "/memory", _login(url))
        assert r.status == 200 and b"No entries yet." in r.read()
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM  # stopped, cleaned up


def test_each_start_has_its_own_token_on_every_address(home_path: Path) -> None:
    """With no token given, each run makes one: the address of an earlier run (or a
    guess) opens nothing, on loopback as on any other address."""
    proc, first = start_ui(home_path)
    try:
        cookie = _login(first)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mnemic", "ui", "--no-browser", "--port", "0", "--host", "0.0.0.0"],
        env=mnemic_env(home_path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        second = proc.stdout.readline().strip()
        assert second.startswith("http://0.0.0.0:") and "?token=" in second
        local = second.replace("0.0.0.0", "127.0.0.1")
        assert second.split("?token=")[1] != first.split("?token=")[1]
        old_token = first.split("?", 1)[1]
        assert _get(local, f"/memory?{old_token}").status == 401
        assert _get(local, "/memory", cookie).status == 401
        assert _get(local, "/memory", _login(local)).status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_with_a_token_the_printed_address_carries_it_once(home_path: Path) -> None:
    token = "k" * 43
    proc, url = start_ui(home_path, {"MNEMIC_UI_TOKEN": token})
    try:
        assert url.endswith(f"?token={token}")
        base = base_of(url)
        assert _get(base, "/memory").status == 401
        r = _get(base, f"/memory?token={token}")
        assert r.status == 303
        cookie = r.getheader("set-cookie", "").split(";")[0]
        assert _get(base, "/memory", cookie).status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_browser_is_opened_on_a_private_page_never_on_the_token(
    home_path: Path, tmp_path: Path
) -> None:
    """A browser's command line is visible to every user (ps): it is given the path of
    a page in the home (0600) that leads on to the address with the token. The stand-in
    browser ($BROWSER) reports what it was given through a FIFO the test reads."""
    report = tmp_path / "report"
    os.mkfifo(report)
    browser = tmp_path / "browser"
    browser.write_text(
        textwrap.dedent(
            f"""\
            #!{sys.executable}
            import json, os, stat, sys, urllib.parse
            page = urllib.parse.unquote(urllib.parse.urlsplit(sys.argv[1]).path)
            seen = [sys.argv[1:], stat.S_IMODE(os.stat(page).st_mode), open(page).read()]
            with open({str(report)!r}, "w") as out:
                json.dump(seen, out)
            """
        )
    )
    browser.chmod(0o700)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mnemic", "ui", "--port", "0"],
        env=mnemic_env(home_path, {"BROWSER": f"{browser} %s"}),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        printed = proc.stdout.readline().strip()
        token = printed.split("?token=")[1]
        with open(report) as reported:  # blocks until the browser has started
            argv, mode, page = json.load(reported)
        assert all(token not in arg for arg in argv)
        assert argv == [(home_path / f"ui-open-{urlsplit(printed).port}.html").as_uri()]
        assert mode == 0o600 and printed in html.unescape(page)
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM
    assert not list(home_path.glob("ui-open-*.html"))  # removed when the console stops
