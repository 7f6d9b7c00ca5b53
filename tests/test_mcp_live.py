"""Live resources in process: the SDK's client against ``MnemicMCP.server``, on each
storage backend, and the watcher's parts (what a check looks at, what it leaves behind).

The subprocess server over stdio and HTTP is covered in ``tests/e2e/test_mcp_live.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import anyio.to_thread
import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.subscriptions import ResourceUpdated

from _backends import Kit
from mnemic.config import load_settings
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.errors import ConfigError, NoMatch
from mnemic.home import Home
from mnemic.mcp_server import MnemicMCP
from mnemic.mcp_server.live import LiveResources
from mnemic.ops.probe import ARCHIVE_URI, MEMORY_URI, USER_URI, Probe

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.timeout(120),
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

DEADLINE = 30.0
FAST = "[mcp]\nwatch_interval_ms = 50\n"


@asynccontextmanager
async def serving(home: Path, mode: str = "auto") -> AsyncIterator[tuple[MnemicMCP, Client]]:
    srv = MnemicMCP(Home.open(home))
    try:
        async with Client(srv.server, mode=mode) as c:
            yield srv, c
    finally:
        srv.close()


def live_of(srv: MnemicMCP) -> LiveResources:
    assert srv.live is not None
    return srv.live


def add_from_another_process(home: Path, text: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mnemic", "memory", "add", text],
        env={**os.environ, "MNEMIC_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


async def test_a_write_by_another_process_is_told_on_each_backend(backend: Kit) -> None:
    home = backend.write_config(FAST)
    Memory.open(home).add("memory", "Seed fact.")
    async with serving(home) as (_, c), c.listen(resource_subscriptions=[MEMORY_URI]) as sub:
        await anyio.to_thread.run_sync(add_from_another_process, home, "Told fact.")
        with anyio.fail_after(DEADLINE):
            event = await sub.__anext__()
        assert event == ResourceUpdated(uri=MEMORY_URI)
        res = await c.read_resource(MEMORY_URI, cache_mode="bypass")
        content = res.contents[0]
        assert isinstance(content, types.TextResourceContents)
        assert "Told fact." in content.text
        backend.edit("memory", "Edited by hand.")  # a person's edit (a file, or SQL)
        with anyio.fail_after(DEADLINE):
            assert await sub.__anext__() == ResourceUpdated(uri=MEMORY_URI)


def remove_from_another_process(home: Path, text: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mnemic", "memory", "remove", text],
        env={**os.environ, "MNEMIC_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


async def test_an_archived_entry_is_told_to_archive_subscribers_on_each_backend(
    backend: Kit,
) -> None:
    """The archive is folded from the journal and read against the targets: a remove by
    another process and a hand edit that drops an entry are both told."""
    home = backend.write_config(FAST)
    Memory.open(home).batch("memory", [Op("add", "Seed fact."), Op("add", "Dropped by hand.")])
    async with serving(home) as (_, c), c.listen(resource_subscriptions=[ARCHIVE_URI]) as sub:
        await anyio.to_thread.run_sync(remove_from_another_process, home, "Seed fact.")
        with anyio.fail_after(DEADLINE):
            assert await sub.__anext__() == ResourceUpdated(uri=ARCHIVE_URI)
        res = await c.read_resource(ARCHIVE_URI, cache_mode="bypass")
        content = res.contents[0]
        assert isinstance(content, types.TextResourceContents)
        assert [e["text"] for e in json.loads(content.text)["entries"]] == ["Seed fact."]
        backend.edit("memory", "")  # a person empties the file
        with anyio.fail_after(DEADLINE):
            assert await sub.__anext__() == ResourceUpdated(uri=ARCHIVE_URI)
        res = await c.read_resource(ARCHIVE_URI, cache_mode="bypass")
        content = res.contents[0]
        assert isinstance(content, types.TextResourceContents)
        told = [(e["text"], e["reason"]) for e in json.loads(content.text)["entries"]]
        assert told == [("Dropped by hand.", "hand_edit"), ("Seed fact.", "removed")]


def test_the_archive_fingerprint_moves_only_when_the_archive_does(home_path: Path) -> None:
    """A refused write appends a record (the journal moves) but archives nothing: no
    notice. ``forget`` rewrites the journal without touching the files: a notice."""
    from mnemic.ops.forget import forget_sessions

    mem = Memory.open(home_path)
    mem.batch("memory", [Op("add", "The vault code is 1234."), Op("add", "Kept.")])
    mem.remove("memory", "vault code")
    probe = Probe(Home.open(home_path))
    sig, fp = probe.stat("archive"), probe.fingerprint(ARCHIVE_URI)
    with pytest.raises(NoMatch):
        Memory.open(home_path).remove("memory", "no such entry")
    assert probe.stat("archive") != sig
    assert probe.fingerprint(ARCHIVE_URI) == fp
    assert probe.fingerprint("mnemic://user/archive") == ("archive", hashlib.sha256().hexdigest())
    forget_sessions(home_path, "vault code")
    assert probe.fingerprint(ARCHIVE_URI) != fp


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_closed_connection_leaves_nothing_watched(home_path: Path, mode: str) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text(FAST)
    async with serving(home_path, mode) as (srv, c):
        if mode == "legacy":
            await c.subscribe_resource(MEMORY_URI)
            await c.list_resources()
            assert live_of(srv).watched() == {MEMORY_URI, "resources/list"}
        else:
            async with c.listen(resource_subscriptions=[USER_URI]):
                assert live_of(srv).watched() == {USER_URI}
            with anyio.fail_after(DEADLINE):  # the server ends its side of the stream
                await live_of(srv).until_unwatched()
    live = live_of(srv)
    assert live.watched() == frozenset()
    checks = live.checks
    assert await live.check() == []
    assert live.checks == checks  # nothing watched: a check looks at nothing


async def test_unsubscribing_the_last_uri_forgets_its_baseline(home_path: Path) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text(FAST)
    async with serving(home_path, "legacy") as (srv, c):
        await c.subscribe_resource(USER_URI)
        assert live_of(srv).watched() == {USER_URI}
        await c.unsubscribe_resource(USER_URI)
        assert live_of(srv).watched() == frozenset()
        assert live_of(srv)._prints == {} and live_of(srv)._stats == {}


def test_a_touch_moves_the_stat_but_not_the_fingerprint(home_path: Path) -> None:
    Memory.open(home_path).add("memory", "A fact.")
    probe = Probe(Home.open(home_path))
    path = home_path / "memories" / "MEMORY.md"
    sig, fp = probe.stat("memory"), probe.fingerprint(MEMORY_URI)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert probe.stat("memory") != sig
    assert probe.fingerprint(MEMORY_URI) == fp
    Memory.open(home_path).add("memory", "Another fact.")
    assert probe.fingerprint(MEMORY_URI) != fp


def test_a_fifo_or_symlink_in_place_of_memory_is_not_read(home_path: Path) -> None:
    """A hostile home: a FIFO would block a plain open forever; a symlink could point
    anywhere. Both get a fingerprint of their own without being read."""
    Memory.open(home_path).add("memory", "A fact.")
    probe = Probe(Home.open(home_path))
    path = home_path / "memories" / "MEMORY.md"
    before = probe.fingerprint(MEMORY_URI)
    path.unlink()
    os.mkfifo(path)
    fifo = probe.fingerprint(MEMORY_URI)
    assert fifo != before and fifo[0] == "error" and "not a regular file" in str(fifo)
    path.unlink()
    (home_path / "elsewhere.md").write_text("A fact.")
    path.symlink_to(home_path / "elsewhere.md")
    linked = probe.fingerprint(MEMORY_URI)
    assert linked != before and linked[0] == "error" and "symlink" in str(linked)


@pytest.mark.parametrize("value", ["-1", "60001", '"fast"', "1.5"])
def test_watch_interval_is_validated(home_path: Path, value: str) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text(f"[mcp]\nwatch_interval_ms = {value}\n")
    with pytest.raises(ConfigError) as info:
        load_settings(home_path)
    assert "watch_interval_ms" in info.value.to_llm()


async def test_an_ended_http_session_leaves_nothing_watched(home_path: Path) -> None:
    """A handshake-era HTTP session subscribes, then ends (the client's DELETE): the
    server drops its subscriptions, so the watcher has nothing left to check."""
    import uvicorn
    from mcp.client.streamable_http import streamable_http_client

    from mnemic.mcp_server.http import bind, build_http_app, url_of

    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text(FAST)
    srv = MnemicMCP(Home.open(home_path))
    sock = bind("127.0.0.1", 0)  # listening already: the client's connect waits in the backlog
    web = uvicorn.Server(uvicorn.Config(build_http_app(srv), log_config=None, lifespan="on"))
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(web.serve, [sock])
            transport = streamable_http_client(url_of(sock))
            async with Client(transport, mode="legacy") as c:
                await c.subscribe_resource(MEMORY_URI)
                await c.list_resources()
                assert live_of(srv).watched() == {MEMORY_URI, "resources/list"}
            with anyio.fail_after(DEADLINE):
                await live_of(srv).until_unwatched()
            web.should_exit = True
    finally:
        sock.close()
        srv.close()


async def test_a_failing_check_never_fails_the_committed_write(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text("[mcp]\nwatch_interval_ms = 0\n")
    async with serving(home_path, "legacy") as (srv, c):
        await c.subscribe_resource(USER_URI)

        def broken(*args: object) -> None:  # an unexpected fault inside the watcher
            raise RuntimeError("the probe broke")

        monkeypatch.setattr(live_of(srv).probe, "scan", broken)
        res = await c.call_tool(
            "memory", {"action": "add", "target": "user", "content": "Prefers tea."}
        )
        assert not res.is_error, res.content
    assert Memory.open(home_path).entries("user") == ["Prefers tea."]
