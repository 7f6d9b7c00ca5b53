"""The memory tool's description tells the model that ``action="read"`` names the writes
waiting for a person's approval (mend 13; mend 12 made ``read`` report them, but the
description the model reads over MCP ``tools/list`` still said only "the live entries and
usage", so a model whose write was staged had no reason to look)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnemic.curated.tool_spec import memory_tool_spec
from test_mcp_server import connect, text_of, write_config

pytestmark = pytest.mark.anyio


def _read_note(description: str) -> str:
    """The description's sentence about ``action="read"``."""
    start = description.index('action="read"')
    return description[start : description.index(".", description.index(")", start)) + 1]


async def test_the_read_action_description_names_what_read_returns_for_waiting_writes(
    home_path: Path,
) -> None:
    write_config(home_path, '[approval]\nmemory_mcp = "stage"\n')
    add = {"action": "add", "target": "memory", "content": "Deploys go out on Tuesdays"}
    async with connect(home_path) as c:
        tool = next(t for t in (await c.list_tools()).tools if t.name == "memory")
        staged = json.loads(text_of(await c.call_tool("memory", add)))
        assert staged["staged"] is True
        plain = json.loads(text_of(await c.call_tool("memory", {"action": "read"})))
    assert tool.description is not None
    note = _read_note(tool.description)
    # the keys read adds while a write waits: the description names the list of ids
    assert plain["pending_ids"] == [staged["pending_id"]]
    assert "pending_ids" in note
    assert "approval" in note and "not saved" in note and "do not propose" in note
    # without the read action the description says nothing of it
    assert 'action="read"' not in memory_tool_spec(read_action=False).description
