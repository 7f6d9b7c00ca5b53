"""Hostile ``memory`` tool calls over MCP's stdio, as a model's client sends them
(issue 32, hostile1): ``mnemic mcp --any-project`` run by the SDK's own client in a
subprocess. Each refusal is a tool error that says what the model can do; none writes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from mnemic.curated.memory import Memory
from mnemic.curated.view import MemoryView

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(120)]


async def test_hostile_calls_over_stdio_are_refused_with_what_to_do(
    home_path: Path, tmp_path: Path
) -> None:
    home_path.mkdir(parents=True)
    Memory.open(home_path).add("memory", "Deploys go through staging first.")
    proj = tmp_path / "repo"
    proj.mkdir()
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mnemic", "mcp", "--any-project"],
        env={"MNEMIC_HOME": str(home_path)},
    )
    refused: list[tuple[dict[str, Any], str, str]] = [
        ({"action": "add", "content": "A fact.", "expires": 20301231}, "invalid_argument",
         'expires must be a string such as "2026-06-30"'),
        ({"action": "add", "content": "A fact.", "expires": "9999-12-31T23:59-12:00"},
         "invalid_argument", "Give an earlier time"),
        ({"action": "add", "content": "nul\x00byte"}, "content_rejected", "Remove it"),
        ({"action": "add", "content": "one\n§\ntwo"}, "content_rejected",
         "Save each fact as its own entry"),
        ({"action": "add", "content": "x", "valid_until": "2030-01-01"}, "invalid_argument",
         "Allowed: action, target"),
        ({"action": "archive_search", "query": ["staging"]}, "invalid_argument",
         "archive_search needs query"),
        ({"action": "add", "scope": "project", "project": str(tmp_path / "gone"),
          "content": "x"}, "project_scope", "Pass the absolute path of the project's directory"),
        ({"action": "add", "scope": "project", "project": "/", "content": "x"},
         "project_scope", "cannot be a project"),
        ({"action": "add", "scope": "project", "project": "..", "content": "x"},
         "invalid_argument", "absolute path"),
        ({"action": "add", "scope": "project", "project": str(proj), "target": "user",
          "content": "x"}, "project_scope", 'Save it with scope="global", target="user"'),
    ]  # fmt: skip
    async with Client(params) as c:
        for args, code, says in refused:
            res = await c.call_tool("memory", args)
            answer = res.structured_content
            assert res.is_error and answer is not None, args
            assert answer["error_code"] == code, (args, answer)
            assert says in answer["error"], (args, answer)
            assert "--project" not in answer["error"], (args, answer)  # a CLI flag: not the model's
    assert MemoryView.open(home_path).entries("memory") == ["Deploys go through staging first."]
    assert not (home_path / "projects").exists()
