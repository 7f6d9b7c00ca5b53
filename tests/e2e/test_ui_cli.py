"""``mnemic ui`` as a real command: the address it prints answers, and every way it can
refuse to start is a clear message with exit 2 (configuration) or 1 (the port)."""

from __future__ import annotations

import http.client
import socket
from pathlib import Path
from urllib.parse import urlsplit

from . import run_mnemic
from .test_ui_browser import start_ui


def test_off_loopback_without_a_token_it_refuses_to_start_and_says_how(home_path: Path) -> None:
    done = run_mnemic(home_path, "ui", "--no-browser", "--host", "0.0.0.0", "--port", "0")
    assert done.returncode == 2
    assert "needs a bearer token" in done.stderr and "MNEMIC_UI_TOKEN" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_a_weak_token_file_is_refused(home_path: Path, tmp_path: Path) -> None:
    weak = tmp_path / "token"
    weak.write_text("short\n")
    done = run_mnemic(home_path, "ui", "--no-browser", "--port", "0", "--token-file", str(weak))
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


def test_the_printed_address_serves_the_console_on_a_fresh_home(home_path: Path) -> None:
    proc, url = start_ui(home_path)
    try:
        r = _get(url, "/memory")
        assert r.status == 200 and b"No entries yet." in r.read()
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) in (0, -15, 130)


def test_with_a_token_the_printed_address_carries_it_once(home_path: Path) -> None:
    token = "k" * 43
    proc, url = start_ui(home_path, {"MNEMIC_UI_TOKEN": token})
    try:
        assert url.endswith(f"?token={token}")
        base = url.split("?")[0]
        assert _get(base, "/memory").status == 401
        r = _get(base, f"/memory?token={token}")
        assert r.status == 303
        cookie = r.getheader("set-cookie", "").split(";")[0]
        assert _get(base, "/memory", cookie).status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)
