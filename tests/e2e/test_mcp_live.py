"""Live resources end to end: the SDK's own client subscribes to a ``mnemic mcp``
subprocess (stdio, and HTTP in ``test_mcp_live_http.py``) and another process changes
memory; the notification must arrive. The other process is the CLI in a process of its
own in the first test, and this test process elsewhere (:func:`mnemic`): to the server,
both are writers outside it.

Both protocol generations are driven: the handshake era (``resources/subscribe``, the
notifications on the connection) and 2026-07-28 (``subscriptions/listen``). Nothing
sleeps to synchronise: a notification is awaited with a generous deadline, and "no
notification" is shown by a quiet period closed by later marker changes that do notify
(see :func:`settle`).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated

from mnemic.curated.memory import Memory
from mnemic.home import Home

from . import run_here, run_mnemic

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.timeout(120),
    # resources/subscribe is the handshake era's way; the SDK marks it deprecated.
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

MEMORY = "mnemic://memory"
USER = "mnemic://user"
SKILLS = "mnemic://skills"
LIST = "list_changed"
DEADLINE = 30.0
"""Seconds a notification may take (generous: a loaded machine, a subprocess start)."""
LEGACY = "legacy"
MODERN = "auto"  # the SDK's default: discovers the server and speaks 2026-07-28

SKILL = """---
name: {name}
description: Marker skill {name}.
---
# {name}
1. Do the thing.
"""


@pytest.fixture(params=[LEGACY, MODERN])
def era(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def configure(home: Path, interval_ms: int = 50) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f"[mcp]\nwatch_interval_ms = {interval_ms}\n")


class Events:
    """Change notifications in arrival order: resource URIs, ``LIST`` for list_changed."""

    def __init__(self) -> None:
        self.send, self.recv = anyio.create_memory_object_stream[str](1000)

    async def handler(self, message: Any) -> None:
        """The handshake-era client's message handler."""
        if isinstance(message, types.ResourceUpdatedNotification):
            await self.send.send(str(message.params.uri))
        elif isinstance(message, types.ResourceListChangedNotification):
            await self.send.send(LIST)

    async def next(self) -> str:
        with anyio.fail_after(DEADLINE):
            return await self.recv.receive()

    async def until(self, uri: str) -> list[str]:
        """Every notification up to and including the next one about ``uri``."""
        seen: list[str] = []
        while not seen or seen[-1] != uri:
            seen.append(await self.next())
        return seen


def server(home: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "mnemic", "mcp"], env={"MNEMIC_HOME": str(home)}
    )


@asynccontextmanager
async def connect(home: Path, era: str, events: Events) -> AsyncIterator[Client]:
    handler = events.handler if era == LEGACY else None
    async with Client(server(home), mode=era, message_handler=handler) as c:
        expected = "2026-07-28" if era == MODERN else "2025-11-25"
        assert c.protocol_version == expected
        caps = c.server_capabilities.resources
        assert caps is not None and caps.subscribe and caps.list_changed
        yield c


@asynccontextmanager
async def subscribed(
    c: Client, era: str, events: Events, uris: list[str], *, list_changed: bool = False
) -> AsyncIterator[None]:
    """Subscribe to ``uris`` (and the resource list) the way ``era`` does."""
    if era == LEGACY:
        for uri in uris:
            await c.subscribe_resource(uri)
        if list_changed:
            await c.list_resources()
        yield
        return
    async with (
        c.listen(resource_subscriptions=uris, resources_list_changed=list_changed) as sub,
        anyio.create_task_group() as tg,
    ):

        async def pump() -> None:
            async for event in sub:
                if isinstance(event, ResourcesListChanged):
                    await events.send.send(LIST)
                elif isinstance(event, ResourceUpdated):
                    await events.send.send(event.uri)

        tg.start_soon(pump)
        yield
        tg.cancel_scope.cancel()


async def mnemic(home: Path, *args: str, stdin: str = "", process: bool = False) -> None:
    """Run the CLI and check it succeeded: in this process, which is another process than
    the server's (:func:`run_here`), or with ``process`` in a process of its own (off the
    event loop)."""
    if process:
        done = await anyio.to_thread.run_sync(lambda: run_mnemic(home, *args, stdin=stdin))
    else:
        done = run_here(home, *args, stdin=stdin)
    assert done.returncode == 0, done.stderr


async def read(c: Client, uri: str) -> str:
    content = (await c.read_resource(uri, cache_mode="bypass")).contents[0]
    assert isinstance(content, types.TextResourceContents)
    return content.text


def add_skill(home: Path, name: str) -> None:
    from mnemic.skills import SkillChange, SkillStore

    SkillStore.open(Home.open(home)).apply(
        SkillChange("create", name, {"content": SKILL.format(name=name)})
    )


async def settle(events: Events, home: Path, tag: str) -> list[str]:
    """Close a quiet period: three marker changes to the skills, each awaited. What was
    told before the last marker is returned (markers left out).

    Why three: the first check that starts after the quiet period's changes is, at the
    latest, the one that sees the second marker, and it may tell its news in any order;
    the third marker is seen by a later check, so its notification comes after all of it.
    """
    seen: list[str] = []
    for i in range(3):
        add_skill(home, f"marker-{tag}-{i}")
        seen.extend(u for u in await events.until(SKILLS) if u != SKILLS)
    return seen


async def test_a_change_from_another_process_is_told_to_subscribers(
    home_path: Path, era: str
) -> None:
    configure(home_path, interval_ms=300)  # the default period
    Memory.open(home_path).add("memory", "Deploys go through staging first.")
    events = Events()
    async with connect(home_path, era, events) as c, subscribed(c, era, events, [MEMORY]):
        await mnemic(home_path, "memory", "add", "CI runs on Fridays.", process=True)
        assert await events.next() == MEMORY
        # a subscribed resource reads live (the frozen snapshot did not have it)
        assert "CI runs on Fridays." in await read(c, MEMORY)


async def test_unsubscribed_and_untouched_resources_stay_quiet(home_path: Path, era: str) -> None:
    configure(home_path)
    mem = Memory.open(home_path)
    mem.add("memory", "Memory fact.")
    mem.add("user", "User fact.")
    events = Events()
    watched = [MEMORY, USER, SKILLS] if era == LEGACY else [MEMORY, SKILLS]
    async with connect(home_path, era, events) as c, subscribed(c, era, events, watched):
        if era == LEGACY:
            await c.unsubscribe_resource(USER)
        await mnemic(home_path, "memory", "add", "--target", "user", "Likes tea.")
        path = home_path / "memories" / "MEMORY.md"
        st = path.stat()  # a touch: the stat moves, the content does not
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
        assert await settle(events, home_path, "quiet") == []
        # ...while a real change of a subscribed file is told
        await mnemic(home_path, "memory", "add", "Another memory fact.")
        assert await events.next() == MEMORY
        assert await settle(events, home_path, "once") == []  # once, not per poll


async def test_a_removed_or_undecodable_file_is_told_once_and_read_clearly(
    home_path: Path, era: str
) -> None:
    configure(home_path)
    Memory.open(home_path).add("memory", "Memory fact.")
    path = home_path / "memories" / "MEMORY.md"
    events = Events()
    async with connect(home_path, era, events) as c, subscribed(c, era, events, [MEMORY, SKILLS]):
        # in one step (a file beside, renamed over it): written in place, the file is
        # empty between the truncation and the write, and a check of the server that
        # falls in between tells that change too (seen once under load, session 52)
        swap = path.with_name("MEMORY.md.swap")
        swap.write_bytes(b"caf\xe9 is not UTF-8\n")
        swap.replace(path)
        assert await events.next() == MEMORY
        with pytest.raises(MCPError) as info:
            await read(c, MEMORY)
        assert "UTF-8" in str(info.value)
        assert await settle(events, home_path, "bad") == []

        path.unlink()
        assert await events.next() == MEMORY
        assert await read(c, MEMORY) == ""  # no file is no entries, as always
        assert await settle(events, home_path, "gone") == []

        await mnemic(home_path, "memory", "add", "Back again.")
        assert await events.next() == MEMORY
        assert "Back again." in await read(c, MEMORY)


async def test_a_skill_added_or_removed_changes_the_resource_list(
    home_path: Path, era: str
) -> None:
    configure(home_path)
    events = Events()
    async with (
        connect(home_path, era, events) as c,
        subscribed(c, era, events, [], list_changed=True),
    ):
        body = "# Release\n1. Tag the version.\n"
        await mnemic(home_path, "skills", "create", "release", "-d", "Cut a release.", stdin=body)
        assert await events.next() == LIST
        listed = [str(r.uri) for r in (await c.list_resources(cache_mode="bypass")).resources]
        assert "mnemic://skills/release" in listed
        await mnemic(home_path, "skills", "delete", "release", "--yes")
        assert await events.next() == LIST


async def test_a_subscribed_skill_is_told_when_its_file_changes(home_path: Path, era: str) -> None:
    configure(home_path)
    add_skill(home_path, "deploy")
    skill = "mnemic://skills/deploy"
    events = Events()
    async with connect(home_path, era, events) as c, subscribed(c, era, events, [skill]):
        md = home_path / "skills" / "deploy" / "SKILL.md"
        md.write_text(md.read_text() + "2. Check the dashboard.\n")
        assert await events.next() == skill
        assert "Check the dashboard." in await read(c, skill)


async def test_writes_through_the_server_itself_are_told_without_polling(
    home_path: Path, era: str
) -> None:
    configure(home_path, interval_ms=0)  # no polling: only the server's own check
    events = Events()
    async with connect(home_path, era, events) as c, subscribed(c, era, events, [USER]):
        res = await c.call_tool(
            "memory", {"action": "add", "target": "user", "content": "Prefers metric units."}
        )
        assert not res.is_error
        assert await events.next() == USER
        assert "Prefers metric units." in await read(c, USER)


async def test_subscribing_to_an_unknown_resource_is_a_clear_error(home_path: Path) -> None:
    configure(home_path)
    events = Events()
    async with connect(home_path, LEGACY, events) as c:
        with pytest.raises(MCPError) as info:
            await c.subscribe_resource("mnemic://nothing")
        assert "not a resource of this server" in str(info.value)
        assert "mnemic://memory" in str(info.value)


async def test_http_clients_are_told_of_changes_from_another_process(
    home_path: Path, era: str
) -> None:
    """Over streamable HTTP: a handshake-era session (notifications on its stream) and
    a 2026-07-28 listen stream (its own SSE response)."""
    from .test_mcp_http import client, http_server, token_of

    configure(home_path)
    Memory.open(home_path).add("user", "User fact.")
    events = Events()
    with http_server(home_path) as url:
        handler = events.handler if era == LEGACY else None
        async with (
            client(url, token=token_of(home_path), mode=era, message_handler=handler) as c,
            subscribed(c, era, events, [MEMORY, USER], list_changed=True),
        ):
            await mnemic(home_path, "memory", "add", "--target", "user", "Likes tea.")
            assert await events.next() == USER
            assert "Likes tea." in await read(c, USER)
            add_skill(home_path, "release")
            assert await events.next() == LIST


async def test_the_long_resources_with_provenance_can_be_subscribed_to(
    home_path: Path, era: str
) -> None:
    configure(home_path)
    Memory.open(home_path).add("memory", "Deploys go through staging first.")
    long_uri = "mnemic://memory/long"
    events = Events()
    async with connect(home_path, era, events) as c, subscribed(c, era, events, [long_uri]):
        await mnemic(home_path, "memory", "add", "CI runs on Fridays.")
        assert await events.next() == long_uri
        entries = json.loads(await read(c, long_uri))
        assert "CI runs on Fridays." in json.dumps(entries)
