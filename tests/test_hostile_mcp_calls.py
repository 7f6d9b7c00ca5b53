"""A property over the MCP server's surface, in process through the SDK's client (a real
home, real files): any sequence of honest and hostile calls (tools with missing, extra,
wrong-typed, huge, NUL/control/bidi arguments, unknown tools, resources and
subscriptions with odd URIs: other projects, `..`, encoded, unknown) leaves the memory
files parseable within their budgets, a refused call writes nothing, every answer is a
tool error or JSON-RPC error whose text the model can act on (never a traceback), and the
server still answers after it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from mcp import Client
from mcp.shared.exceptions import MCPError

from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.mcp_server import MnemicMCP

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
"""resources/subscribe is the handshake era's (the server serves both generations)."""

ODD = ["", "a", "x" * 3000, "a\x00b", "a\x1b[31mb", "a\u202eb", "../../etc", "%2e%2e/x", "é" * 5]


def _text() -> st.SearchStrategy[str]:
    return st.sampled_from(ODD) | st.text(max_size=20)


def _any() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(), _text(), st.lists(_text(), max_size=2)
    )


def _memory_args() -> st.SearchStrategy[dict[str, Any]]:
    honest = st.fixed_dictionaries(
        {
            "action": st.sampled_from(["add", "replace", "remove", "read", "archive_search"]),
            "target": st.sampled_from(["memory", "user", "MEMORY", "../x"]),
        },
        optional={"content": _any(), "old_text": _any(), "query": _any(), "expires": _any()},
    )
    wild = st.dictionaries(
        st.sampled_from(["action", "target", "content", "old_text", "operations", "scope", "zz"]),
        _any(),
        max_size=4,
    )
    return honest | wild


def _call() -> st.SearchStrategy[tuple[str, Any]]:
    skill_args = st.dictionaries(
        st.sampled_from(["name", "action", "content", "file_path", "category", "query", "zz"]),
        _any(),
        max_size=4,
    )
    uris = st.sampled_from(
        [
            "mnemic://memory",
            "mnemic://memory/../user",
            "mnemic://project/long",
            "mnemic://project/archive",
            "mnemic://skills/..%2F..%2Fconfig.toml",
            "mnemic://skills/%ED%A0%80",
            "mnemic://skills/a%00b",
            "mnemic://nothing",
            "file:///etc/passwd",
            "mnemic://archive",
        ]
    )
    return st.one_of(
        st.tuples(st.just("memory"), _memory_args()),
        st.tuples(st.sampled_from(["skills_list", "skill_view", "skill_manage"]), skill_args),
        st.tuples(
            st.just("session_search"),
            st.dictionaries(st.sampled_from(["query", "limit", "zz"]), _any(), max_size=3),
        ),
        st.tuples(st.sampled_from(["nope", "", "memory\x00"]), st.just({})),
        st.tuples(st.sampled_from(["read:", "subscribe:"]), uris),
    )


def _files(home: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for sub in ("memories", "skills"):
        for root, _, names in os.walk(home / sub):
            for name in names:
                if name.endswith(".lock"):
                    continue
                path = Path(root, name)
                out[str(path.relative_to(home))] = path.read_bytes()
    return out


def _text_of(result: types.CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, types.TextContent))


async def _run(home: Path, steps: list[tuple[str, Any]]) -> None:
    srv = MnemicMCP(Home.open(home))
    try:
        async with Client(srv.server) as client:
            for what, arg in steps:
                before = _files(home)
                if what in ("read:", "subscribe:"):
                    try:
                        if what == "read:":
                            await client.read_resource(arg)
                        else:
                            await client.subscribe_resource(arg)
                    except MCPError as exc:
                        assert "Traceback" not in str(exc) and str(exc).strip()
                        assert _files(home) == before
                    continue
                try:
                    result = await client.call_tool(what, arg)
                except MCPError as exc:  # the SDK refused the call before mnemic saw it
                    assert "Traceback" not in str(exc) and str(exc).strip()
                    assert _files(home) == before
                    continue
                text = _text_of(result)
                assert "Traceback" not in text
                if result.is_error:
                    assert text.split("\n", 1)[0].strip(), text
                    assert _files(home) == before, (what, arg, text)
            done = await client.call_tool("memory", {"action": "read"})
            assert not done.is_error
    finally:
        srv.close()


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(_call(), min_size=1, max_size=6))
def test_any_sequence_of_calls_keeps_the_store_sound(
    home_path: Path, steps: list[tuple[str, Any]]
) -> None:
    Memory.open(home_path).add("memory", "Deploys go through staging first.")
    anyio.run(_run, home_path, steps)
    memory = Memory.open(home_path)
    for target in ("memory", "user"):
        usage = memory.read(target).usage
        assert usage.chars <= usage.limit
