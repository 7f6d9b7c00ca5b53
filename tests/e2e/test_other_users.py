"""Another Unix user on the same machine gets nothing from the owner's servers.

``mnemic ui`` and ``mnemic mcp --http`` are started with their default flags (loopback,
no token given) on a home holding a user profile, a session, a staged write and an audit
journal. A client process running as the user ``nobody`` (forked, privileges dropped;
the test skips when not run as root) reaches both over loopback, where every local
process can connect: every route of the console and of the MCP endpoint, every method,
answers 401 (403 for a request the console sees as cross-site), no answer holds any of
the home's text, and no file of the home changes. The owner, with the token, gets in.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.sessions import open_store
from mnemic.sessions.store import NewMessage, NewSession

from . import mnemic_env
from .test_ui_browser import base_of, start_ui

pytestmark = pytest.mark.timeout(180)

SECRETS = ("Name: Ada Lovelace", "the launch code is 4417", "Staged: deploy on Fridays")

CLIENT = r"""
import http.client, json, sys
plan = json.load(sys.stdin)
out = {"token_file": None, "answers": []}
try:
    with open(plan["token_file"]) as f:
        out["token_file"] = f.read()
except OSError as exc:
    out["token_file_error"] = type(exc).__name__
for method, url, headers, body in plan["requests"]:
    host, port = url.split("/")[2].rsplit(":", 1)
    path = "/" + url.split("/", 3)[3]
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request(method, path, body=body.encode() if body is not None else None, headers=headers)
    r = conn.getresponse()
    out["answers"].append([method, path, r.status, r.read().decode("utf-8", "replace")])
    conn.close()
json.dump(out, sys.stdout)
"""


def _drop_to_nobody() -> Callable[[], None]:
    user = pwd.getpwnam("nobody")

    def drop() -> None:
        os.setgroups([])
        os.setgid(user.pw_gid)
        os.setuid(user.pw_uid)

    return drop


def _python_for_nobody(drop: Callable[[], None]) -> str | None:
    """An interpreter ``nobody`` can run (the venv's may live under /root)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [sys.executable, f"/usr/bin/{version}", "/usr/bin/python3"]
    candidates.append(shutil.which("python3") or "")
    for exe in dict.fromkeys(c for c in candidates if c):
        try:
            probe = subprocess.run(
                [exe, "-c", "import http.client, json"],
                preexec_fn=drop,
                capture_output=True,
                cwd="/",
            )
        except OSError:  # not even executable for nobody
            continue
        if probe.returncode == 0:
            return exe
    return None


def _fill(home_path: Path) -> str:
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text('[approval]\nmemory_ui = "stage"\n')
    Memory.open(home_path).add("user", SECRETS[0])
    Memory.open(home_path, actor="ui", origin="ui").add("memory", SECRETS[2])  # staged
    with open_store(Home.open(home_path)) as store:
        sid = store.start_session(NewSession(title="Private talk"))
        store.append_messages(sid, [NewMessage("user", SECRETS[1])])
    return sid


def _state(home: Path) -> dict[str, tuple[str, int]]:
    """Every file of the home: its content hash and mode."""
    out = {}
    for root, _, files in os.walk(home):
        for name in files:
            path = Path(root, name)
            st = path.lstat()
            out[str(path.relative_to(home))] = (
                hashlib.sha256(path.read_bytes()).hexdigest(),
                st.st_mode,
            )
    return out


def _console_routes(scratch: Path) -> list[tuple[str, str]]:
    """``(method, path)`` of every route of the console (read off an app on ``scratch``)."""
    from mnemic.ui.app import build_app
    from mnemic.ui.security import Access

    app: Any = build_app(Home.open(scratch), Access("127.0.0.1", 1, "x" * 40))
    routes = []
    for route in app.app.routes:
        path = re.sub(r"\{[^}]*\}", "ui.css", route.path)
        routes.extend((m, path) for m in sorted(route.methods or ()) if m != "HEAD")
    return routes


@contextmanager
def _mcp_server(home_path: Path) -> Iterator[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "mnemic", "mcp", "--http", "--port", "0"],
        env=mnemic_env(home_path),
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    line = proc.stderr.readline()
    if " at http://" not in line:
        proc.kill()
        pytest.fail(f"mnemic mcp --http did not start: {line}{proc.stderr.read()}")
    drain = threading.Thread(target=lambda: list(proc.stderr or ()), daemon=True)
    drain.start()
    try:
        yield line.split(" at ", 1)[1].split()[0]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        drain.join(timeout=30)


def _rpc(method: str, params: dict[str, Any], rid: int = 1) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})


MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def test_another_user_gets_nothing_from_the_console_or_mcp_over_http(
    home_path: Path, tmp_path: Path
) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to act as another user (nobody)")
    drop = _drop_to_nobody()
    python = _python_for_nobody(drop)
    if python is None:
        pytest.skip("no Python interpreter the user nobody can run")
    sid = _fill(home_path)
    ui_proc, printed = start_ui(home_path)
    try:
        with _mcp_server(home_path) as mcp_url:
            console = base_of(printed)
            mcp_base = mcp_url.rsplit("/", 1)[0]
            form = "target=user&content=planted&id=" + sid + "&csrf=x&entry=x&name=x"
            form_headers = {"Content-Type": "application/x-www-form-urlencoded"}
            requests: list[list[Any]] = []
            for method, path in _console_routes(tmp_path / "scratch"):
                if method == "POST":
                    requests.append([method, console + path, form_headers, form])
                else:
                    requests.append([method, f"{console}{path}?id={sid}", {}, None])
            requests += [
                ["GET", f"{console}/memory?token=" + "x" * 43, {}, None],
                ["GET", f"{console}/memory", {"Cookie": "mnemic_ui_1=x; mnemic_ui=y"}, None],
                ["GET", f"{console}/audit?until=9999-12-31", {}, None],
            ]
            init = _rpc(
                "initialize",
                {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "nobody", "version": "0"},
                },
            )
            write = {"action": "add", "target": "user", "content": "planted"}
            add = _rpc("tools/call", {"name": "memory", "arguments": write})
            read = _rpc("resources/read", {"uri": "mnemic://user"})
            for body in (init, add, read):
                for auth in ({}, {"Authorization": "Bearer " + "x" * 43}, {"Authorization": ""}):
                    requests.append(["POST", mcp_url, {**MCP_HEADERS, **auth}, body])
            requests += [
                ["GET", mcp_url, {"Accept": "text/event-stream"}, None],
                ["DELETE", mcp_url, {}, None],
                ["GET", f"{mcp_base}/metrics", {}, None],
            ]
            before = _state(home_path)
            plan = {"token_file": str(home_path / "mcp.token"), "requests": requests}
            done = subprocess.run(
                [python, "-c", CLIENT],
                input=json.dumps(plan),
                capture_output=True,
                text=True,
                preexec_fn=drop,
                cwd="/",
                env={"PATH": "/usr/bin:/bin"},
                timeout=120,
            )
            assert done.returncode == 0, done.stderr
            seen = json.loads(done.stdout)
            assert _state(home_path) == before  # nothing written, not even a lock
            answers = seen["answers"]
            assert len(answers) == len(requests) > 25
            for method, path, status, body in answers:
                assert status in (401, 403), (method, path, status, body[:200])
                assert not any(secret in body for secret in SECRETS), (method, path)
            assert seen["token_file"] is None and seen["token_file_error"] == "PermissionError"

            # the owner, with the token, gets in (the servers were answering all along)
            token = (home_path / "mcp.token").read_text().strip()
            owner_plan = {
                "token_file": str(home_path / "mcp.token"),
                "requests": [
                    ["POST", mcp_url, {**MCP_HEADERS, "Authorization": f"Bearer {token}"}, init],
                    ["GET", printed, {}, None],
                ],
            }
            owner = subprocess.run(
                [sys.executable, "-c", CLIENT],
                input=json.dumps(owner_plan),
                capture_output=True,
                text=True,
                timeout=120,
            )
            owned = json.loads(owner.stdout)["answers"]
            assert owned[0][2] == 200 and "serverInfo" in owned[0][3]
            assert owned[1][2] == 303  # the printed address: in, with a session cookie
    finally:
        ui_proc.terminate()
        ui_proc.wait(timeout=30)
