"""``mnemic mcp --http`` in a subprocess: bearer token, sessions, ``/metrics``, refusals
(a refusal before anything listens is asked in this process: :func:`run_here`).

The server is started on port 0 and announces its URL on stderr once the socket
listens; tests wait for that line (no sleeps, no fixed ports). Without a token given,
the server uses the one it keeps in the home (``mcp.token``): :func:`token_of`.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from mnemic.curated.memory import Memory

from . import mnemic_env, run_here

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(90)]

TOKEN = "test-token-5f1c2a9e8d7b6c4a-0b3e7d1f9a2c"


def mnemic(home: Path, *args: str, env: dict[str, str] | None = None) -> list[Any]:
    """Command and environment for ``mnemic ARGS`` on ``home``."""
    return [[sys.executable, "-m", "mnemic", *args], mnemic_env(home, env)]


@contextmanager
def http_server(home: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Start ``mnemic mcp --http --port 0 ARGS``; yield its URL once it listens."""
    cmd, full = mnemic(home, "mcp", "--http", "--port", "0", *args, env=env)
    proc = subprocess.Popen(cmd, env=full, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    line = proc.stderr.readline()  # the readiness line (or '' if it died)
    if " at http://" not in line:
        proc.kill()
        pytest.fail(f"server did not start: {line}{proc.stderr.read()}")
    drained: list[str] = []
    drain = threading.Thread(target=lambda: drained.extend(proc.stderr or ()), daemon=True)
    drain.start()
    try:
        yield line.split(" at ", 1)[1].split()[0]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        drain.join(timeout=30)
    assert not any("Traceback" in x for x in drained), "".join(drained)


def token_of(home: Path) -> str:
    """The token a server started with default flags asks for (``<home>/mcp.token``)."""
    return (home / "mcp.token").read_text(encoding="ascii").strip()


def client(url: str, *, token: str, mode: str = "auto", **options: Any) -> Client:
    headers = {"Authorization": f"Bearer {token}"}
    transport = streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers))
    return Client(transport, mode=mode, **options)


async def memory_text(c: Client) -> str:
    content = (await c.read_resource("mnemic://memory")).contents[0]
    assert isinstance(content, types.TextResourceContents)
    return content.text


async def add(c: Client, content: str) -> None:
    res = await c.call_tool("memory", {"action": "add", "target": "memory", "content": content})
    assert not res.is_error, res.content


async def test_bearer_token_is_checked_on_every_request(home_path: Path) -> None:
    with http_server(home_path, env={"MNEMIC_MCP_TOKEN": TOKEN}) as url:
        base = url.rsplit("/", 1)[0]
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        async with httpx2.AsyncClient() as h:
            missing = await h.post(url, json=body)
            wrong = await h.post(url, json=body, headers={"Authorization": "Bearer nope"})
            other_path = await h.get(f"{base}/metrics")
        for r in (missing, wrong, other_path):
            assert r.status_code == 401
            assert r.headers["www-authenticate"].startswith("Bearer")
        assert "missing" in missing.json()["error_description"]
        assert "wrong" in wrong.json()["error_description"]
        for mode in ("auto", "legacy"):
            async with client(url, token=TOKEN, mode=mode) as c:
                names = [t.name for t in (await c.list_tools()).tools]
                assert "memory" in names and "session_search" in names
                await add(c, f"Written over HTTP ({mode}).")
        async with httpx2.AsyncClient() as h:  # the scheme is case-insensitive (RFC 9110)
            for scheme in ("bearer", "BEARER", "bEaReR"):
                r = await h.get(f"{base}/metrics", headers={"Authorization": f"{scheme} {TOKEN}"})
                assert r.status_code == 404, scheme  # past the token: no metrics here
            for bad in (f"Basic {TOKEN}", f"Bearer{TOKEN}", TOKEN, f"Bearer {TOKEN}x"):
                r = await h.get(f"{base}/metrics", headers={"Authorization": bad})
                assert r.status_code == 401, bad
        with pytest.raises(ExceptionGroup) as info:  # the SDK client sees a 401
            async with client(url, token="wrong-token", mode="legacy") as c:
                await c.list_tools()
        assert info.group_contains(MCPError)
    assert Memory.open(home_path).entries("memory") == [
        "Written over HTTP (auto).",
        "Written over HTTP (legacy).",
    ]


async def test_snapshot_frozen_per_http_session(home_path: Path) -> None:
    Memory.open(home_path).add("memory", "Seed fact.")
    with http_server(home_path) as url:
        token = token_of(home_path)
        async with client(url, token=token, mode="legacy") as a:
            frozen = await memory_text(a)
            await add(a, "Second fact.")
            assert await memory_text(a) == frozen
            async with client(url, token=token, mode="legacy") as b:  # a new snapshot
                assert "Second fact." in await memory_text(b)
                await add(b, "Third fact.")
            assert await memory_text(a) == frozen
        async with client(url, token=token) as stateless:  # 2026-07-28: requests stand alone
            assert "Third fact." in await memory_text(stateless)
            await add(stateless, "Fourth fact.")
            assert "Fourth fact." in await memory_text(stateless)


async def test_two_http_sessions_at_once_lose_no_write(home_path: Path) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text("[memory]\nmemory_char_limit = 5000\n")

    async def writer(url: str, name: str, mode: str) -> None:
        async with client(url, token=token_of(home_path), mode=mode) as c:
            for i in range(10):
                await add(c, f"Fact {i} from {name}.")

    with http_server(home_path) as url:
        async with anyio.create_task_group() as tg:
            tg.start_soon(writer, url, "alpha", "legacy")
            tg.start_soon(writer, url, "beta", "legacy")
            tg.start_soon(writer, url, "gamma", "auto")
    entries = Memory.open(home_path).entries("memory")
    expected = {f"Fact {i} from {n}." for i in range(10) for n in ("alpha", "beta", "gamma")}
    assert set(entries) == expected and len(entries) == 30


async def test_metrics_endpoint_when_enabled(home_path: Path) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text("[metrics]\nenabled = true\n")
    with http_server(home_path, env={"MNEMIC_MCP_TOKEN": TOKEN}) as url:
        base = url.rsplit("/", 1)[0]
        async with client(url, token=TOKEN) as c:
            await add(c, "Metric me.")
            res = await c.call_tool("session_search", {"query": "anything"})
            assert not res.is_error
        async with httpx2.AsyncClient() as h:
            r = await h.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    assert 'memory_usage_ratio{target="memory"}' in r.text
    assert 'memory_mutation_total{action="add",result="ok"} 1' in r.text
    assert 'session_search_total{result="ok"} 1' in r.text


async def test_no_metrics_endpoint_when_disabled(home_path: Path) -> None:
    with http_server(home_path) as url:
        async with httpx2.AsyncClient() as h:
            r = await h.get(
                url.rsplit("/", 1)[0] + "/metrics",
                headers={"Authorization": f"Bearer {token_of(home_path)}"},
            )
    assert r.status_code == 404


async def test_without_a_token_given_the_server_keeps_one_in_the_home_and_asks_for_it(
    home_path: Path,
) -> None:
    """Loopback answers every local user, so a token is required there too: the server
    makes one once, in a file only the home's owner can read, and names that file."""
    Memory.open(home_path).add("user", "Name: Ada")
    cmd, full = mnemic(home_path, "mcp", "--http", "--port", "0")
    proc = subprocess.Popen(cmd, env=full, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    try:
        line = proc.stderr.readline()
        token_file = home_path / "mcp.token"
        assert f"bearer token required; token in {token_file}" in line, line
        url = line.split(" at ", 1)[1].split()[0]
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        token = token_of(home_path)
        assert len(token) >= 43
        body = {"jsonrpc": "2.0", "id": 1, "method": "resources/read"}
        body["params"] = {"uri": "mnemic://user"}
        async with httpx2.AsyncClient() as h:
            r = await h.post(url, json=body)
        assert r.status_code == 401 and "Ada" not in r.text
        async with client(url, token=token) as c:
            content = (await c.read_resource("mnemic://user")).contents[0]
            assert isinstance(content, types.TextResourceContents) and "Ada" in content.text
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stderr.close()
    with http_server(home_path, "--host", "0.0.0.0") as url:  # the same token next time
        assert token_of(home_path) == token
        async with client(url.replace("0.0.0.0", "127.0.0.1"), token=token) as c:
            await add(c, "Served again with the same token.")


def test_a_token_file_others_can_read_is_refused_and_a_fifo_or_device_never_read(
    home_path: Path, tmp_path: Path
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo, 0o600)
    loose = tmp_path / "loose"
    loose.write_text(TOKEN + "\n")
    loose.chmod(0o644)
    big = tmp_path / "big"
    big.write_text("x" * 5000)
    big.chmod(0o600)
    empty = tmp_path / "empty"
    empty.write_text("\n")
    empty.chmod(0o600)
    for path, problem in (
        (fifo, "named pipe (FIFO), not a regular file"),
        ("/dev/zero", "character device, not a regular file"),
        (loose, f"other users may read it (mode 0644); make it private with: chmod 600 {loose}"),
        (big, "5,000 bytes is larger than the 4,096-byte limit"),
        (empty, "is empty"),
        (tmp_path / "missing", "does not exist"),
    ):
        for how in (["mcp", "--http"], ["ui", "--no-browser"]):
            r = run_here(home_path, *how, "--port", "0", "--token-file", str(path))
            assert r.returncode == 2, (how, path, r.stderr)
            assert problem in r.stderr and "Traceback" not in r.stderr, r.stderr
            assert r.stdout == ""


async def test_a_private_token_file_is_used_and_token_in_argv_is_warned_about(
    home_path: Path, tmp_path: Path
) -> None:
    private = tmp_path / "token"
    private.write_text(f"  {TOKEN}\n")
    private.chmod(0o600)
    with http_server(home_path, "--token-file", str(private)) as url:
        async with client(url, token=TOKEN) as c:
            await add(c, "Token from a file.")
    assert not (home_path / "mcp.token").exists()  # a token given: none is made
    r = run_here(home_path, "mcp", "--http", "--port", "0", "--token", "x")
    assert r.returncode == 2 and "every user of this machine (ps" in r.stderr
    assert "--token-file FILE or MNEMIC_MCP_TOKEN" in r.stderr
    both = ["--token", TOKEN, "--token-file", str(private)]
    r = run_here(home_path, "mcp", "--http", "--port", "0", *both)
    assert r.returncode == 2 and "not both" in r.stderr


@pytest.mark.parametrize(
    ("token", "problem"),
    [
        ("x", "1 character(s); at least 32"),
        ("a" * 31, "31 character(s); at least 32"),
        (" " * 40, "blank"),
        ("correct horse battery staple and more words", "without spaces"),
    ],
)
@pytest.mark.parametrize("how", ["--token", "MNEMIC_MCP_TOKEN", "config"])
def test_a_weak_token_is_refused_before_serving(
    home_path: Path, token: str, problem: str, how: str
) -> None:
    args, env = ["--host", "0.0.0.0"], {}
    if how == "--token":
        args += ["--token", token]
    elif how == "MNEMIC_MCP_TOKEN":
        env["MNEMIC_MCP_TOKEN"] = token
    else:
        home_path.mkdir(parents=True, exist_ok=True)
        (home_path / "config.toml").write_text(f'[mcp]\ntoken = "{token}"\n')
    r = run_here(home_path, "mcp", "--http", "--port", "0", *args, env=env)
    assert r.returncode == 2, r.stderr
    assert problem in r.stderr and "secrets.token_urlsafe(32)" in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_a_short_token_is_refused_on_loopback_too(home_path: Path) -> None:
    r = run_here(home_path, "mcp", "--http", "--port", "0", "--token", "short")
    assert r.returncode == 2 and "at least 32" in r.stderr


def test_a_taken_port_is_a_clear_error(home_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        cmd, full = mnemic(home_path, "mcp", "--http", "--port", str(port))
        r = subprocess.run(cmd, env=full, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert f"cannot serve MCP on 127.0.0.1:{port}" in r.stderr
    assert "pick another port with --port" in r.stderr


def test_host_and_port_need_http(home_path: Path) -> None:
    r = run_here(home_path, "mcp", "--port", "9000")
    assert r.returncode == 2 and "only apply with --http" in r.stderr
