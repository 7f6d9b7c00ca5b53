"""The MCP client's roots select the project of a connection.

A real MCP client (the SDK's ``Client``, in process) that declares roots answers the
server's ``roots/list``; the server takes the first root whose directory (or nearest
parent) has a project store, as the Claude Code hook does with its ``cwd``. The server's
own ``--project`` and a call's ``project`` argument still win.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from mnemic.curated.memory import Memory
from mnemic.curated.scope import local_directory, open_project, project_of_roots
from mnemic.curated.snapshot import PROJECT_HEADER
from mnemic.curated.view import MemoryView
from mnemic.home import Home
from mnemic.mcp_server import MnemicMCP


def _dirs(tmp_path: Path, *names: str) -> list[Path]:
    out = []
    for name in names:
        (tmp_path / "work" / name).mkdir(parents=True)
        out.append(tmp_path / "work" / name)
    return out


def _stores(home: Home, **facts: Path) -> None:
    """A project store for each directory, holding its one fact (the keyword)."""
    for fact, directory in facts.items():
        Memory.open(open_project(home, directory, create=True)).add("memory", f"{fact}.")


@asynccontextmanager
async def _client(
    srv: MnemicMCP, roots: list[str] | None, mode: str = "legacy"
) -> AsyncIterator[Client]:
    """A client declaring ``roots`` (None: no roots capability)."""

    async def answer(context: Any) -> types.ListRootsResult:
        assert roots is not None
        return types.ListRootsResult(roots=[types.Root(uri=uri) for uri in roots])

    options: dict[str, Any] = {"list_roots_callback": answer} if roots is not None else {}
    try:
        async with Client(srv.server, mode=mode, **options) as c:
            yield c
    finally:
        srv.close()


async def _prompt(c: Client) -> str:
    prompt = await c.get_prompt("memory_context")
    content = prompt.messages[0].content
    assert isinstance(content, types.TextContent)
    return content.text


async def _has_scope(c: Client) -> bool:
    tools = {t.name: t for t in (await c.list_tools()).tools}
    return "scope" in tools["memory"].input_schema["properties"]


def _entries(home: Home, directory: Path) -> list[str]:
    return MemoryView.open(open_project(home, directory, create=False)).entries("memory")


@pytest.mark.anyio
async def test_the_first_root_with_a_project_store_is_the_connections_project(
    home_path: Path, tmp_path: Path
) -> None:
    plain, proj, other = _dirs(tmp_path, "plain", "proj", "other")
    (proj / "src").mkdir()
    home = Home.open(home_path)
    Memory.open(home).add("memory", "Global fact.")
    _stores(home, Proj=proj, Other=other)
    roots = [
        "file://otherhost/srv/repo",  # not on this host
        (tmp_path / "missing").as_uri(),  # no such directory
        plain.as_uri(),  # a directory without a store
        (proj / "src").as_uri(),  # the project of its nearest parent with a store
        other.as_uri(),
    ]
    async with _client(MnemicMCP(home), roots) as c:
        assert await _has_scope(c)
        text = await _prompt(c)
        assert "Global fact." in text and PROJECT_HEADER in text
        assert "Proj." in text and "Other." not in text
        res = await c.call_tool(
            "memory", {"action": "add", "scope": "project", "content": "Lint with ruff."}
        )
        assert not res.is_error and res.structured_content is not None
        assert res.structured_content["scope"] == "project"
    assert _entries(home, proj) == ["Proj.", "Lint with ruff."]
    assert _entries(home, other) == ["Other."]
    assert MemoryView.open(home).entries("memory") == ["Global fact."]


@pytest.mark.anyio
async def test_roots_without_a_project_store_select_no_project(
    home_path: Path, tmp_path: Path
) -> None:
    (plain,) = _dirs(tmp_path, "plain")
    home = Home.open(home_path)
    async with _client(MnemicMCP(home), [plain.as_uri()]) as c:
        assert not await _has_scope(c)
        assert PROJECT_HEADER not in await _prompt(c)
        res = await c.call_tool(
            "memory", {"action": "add", "scope": "project", "content": "A fact."}
        )
        assert res.is_error and res.structured_content is not None
        assert res.structured_content["error_code"] == "project_scope"
    assert not (home_path / "projects").exists()  # nothing was created for the root


@pytest.mark.anyio
async def test_the_servers_project_and_a_calls_project_win_over_the_roots(
    home_path: Path, tmp_path: Path
) -> None:
    proj, other, third = _dirs(tmp_path, "proj", "other", "third")
    home = Home.open(home_path)
    _stores(home, Proj=proj, Other=other, Third=third)
    async with _client(MnemicMCP(home, project=str(other)), [proj.as_uri()]) as c:
        text = await _prompt(c)
        assert "Other." in text and "Proj." not in text
    async with _client(MnemicMCP(home, any_project=True), [proj.as_uri()]) as c:
        assert "Proj." in await _prompt(c)
        named = {"action": "add", "scope": "project", "project": str(third), "content": "T2."}
        assert not (await c.call_tool("memory", named)).is_error
        plain = {"action": "add", "scope": "project", "content": "P2."}
        assert not (await c.call_tool("memory", plain)).is_error
    assert _entries(home, third) == ["Third.", "T2."]
    assert _entries(home, proj) == ["Proj.", "P2."]


@pytest.mark.anyio
async def test_a_client_without_roots_or_a_connection_that_cannot_ask_has_no_project(
    home_path: Path, tmp_path: Path
) -> None:
    """Protocol 2026-07-28 (the client's ``auto`` mode) gives the server no back-channel
    for ``roots/list``: the server cannot ask, and the connection has no project."""
    (proj,) = _dirs(tmp_path, "proj")
    home = Home.open(home_path)
    _stores(home, Proj=proj)
    for roots, mode in ((None, "legacy"), ([proj.as_uri()], "auto")):
        async with _client(MnemicMCP(home), roots, mode) as c:
            assert not await _has_scope(c)
            assert "Proj." not in await _prompt(c)


def test_project_of_roots_reads_only_local_directories(home_path: Path, tmp_path: Path) -> None:
    (proj,) = _dirs(tmp_path, "with space")
    home = Home.open(home_path)
    _stores(home, Proj=proj)
    assert local_directory(proj.as_uri()) == str(proj)  # %20 decoded
    assert local_directory("file://localhost" + str(proj)) == str(proj)
    for uri in ("file://otherhost" + str(proj), "file:relative", "https://h/x", "not a uri"):
        assert local_directory(uri) is None
    found = project_of_roots(home, ["file://otherhost" + str(proj), proj.as_uri()])
    assert found is not None and found.path == str(proj)
    assert project_of_roots(home, []) is None


async def _resources(c: Client) -> set[str]:
    return {str(r.uri) for r in (await c.list_resources()).resources}


async def _json_resource(c: Client, uri: str) -> Any:
    res = await c.read_resource(uri)
    [content] = res.contents
    assert isinstance(content, types.TextResourceContents)
    return json.loads(content.text)


@pytest.mark.anyio
async def test_a_connection_with_a_project_lists_and_reads_its_archive_and_long_form(
    home_path: Path, tmp_path: Path
) -> None:
    proj, plain = _dirs(tmp_path, "proj", "plain")
    home = Home.open(home_path)
    _stores(home, Proj=proj)
    mem = Memory.open(open_project(home, proj, create=False), origin="cli")
    mem.add("memory", "Deploys with the kestrel script.")
    mem.remove("memory", "kestrel")
    Memory.open(home).add("memory", "Global fact.")
    Memory.open(home).remove("memory", "Global fact.")
    for srv, roots in (
        (MnemicMCP(home, project=str(proj)), None),
        (MnemicMCP(home), [proj.as_uri()]),
    ):
        async with _client(srv, roots) as c:
            listed = await _resources(c)
            assert {"mnemic://project/archive", "mnemic://project/long"} <= listed
            archived = await _json_resource(c, "mnemic://project/archive")
            assert archived["count"] == 1
            assert [e["text"] for e in archived["entries"]] == ["Deploys with the kestrel script."]
            long = await _json_resource(c, "mnemic://project/long")
            assert "Proj." in json.dumps(long) and "kestrel" not in json.dumps(long)
            # The handshake generation's subscribe, which the SDK warns is deprecated;
            # the server still serves it, so its refusal is still checked.
            with (
                pytest.warns(MCPDeprecationWarning, match="resources/subscribe"),
                pytest.raises(MCPError, match="read when asked for, not live"),
            ):
                await c.subscribe_resource("mnemic://project/archive")
            glob = await _json_resource(c, "mnemic://archive")
            assert [e["text"] for e in glob["entries"]] == ["Global fact."]
    async with _client(MnemicMCP(home), [plain.as_uri()]) as c:
        assert "mnemic://project/archive" not in await _resources(c)
        with pytest.raises(MCPError, match="no project: start the server with --project"):
            await c.read_resource("mnemic://project/archive")


@pytest.mark.anyio
async def test_a_listen_stream_naming_a_project_resource_watches_only_the_global_ones(
    home_path: Path, tmp_path: Path
) -> None:
    """The 2026-07-28 generation (``subscriptions/listen``): a project's resources are read
    when asked for, so a stream naming one watches the global resources it names and
    nothing else, as the handshake generation's subscribe refuses it."""
    (proj,) = _dirs(tmp_path, "proj")
    home = Home.open(home_path)
    _stores(home, Proj=proj)
    srv = MnemicMCP(home, project=str(proj))
    async with (
        _client(srv, None, mode="auto") as c,
        c.listen(resource_subscriptions=["mnemic://project/archive", "mnemic://memory"]),
    ):
        assert srv.live is not None
        assert srv.live.watched() == {"mnemic://memory"}
