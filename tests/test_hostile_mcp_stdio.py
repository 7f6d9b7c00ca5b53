"""Hostile lines against the real MCP server over stdio (``python -m mnemic mcp`` in a
subprocess, raw JSON-RPC lines, a real home): a line the SDK cannot parse gets an answer
for its id when it has one, the server never dies with a traceback and keeps serving, a
client that goes away ends the server quietly, and nothing is written by a refused call.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.e2e import RawMcpClient

from mnemic.curated.memory import Memory

# each test starts the real server over stdio (the process boundary is the point): with
# the end-to-end tests, out of the quick loop
pytestmark = [pytest.mark.timeout(120), pytest.mark.e2e]


def _read_memory(client: RawMcpClient, rid: int) -> list[str]:
    reply = client.request(rid, "tools/call", {"name": "memory", "arguments": {"action": "read"}})
    entries: list[str] = reply["result"]["structuredContent"]["entries"]
    return entries


@pytest.fixture
def seeded(home_path: Path) -> Path:
    Memory.open(home_path).add("memory", "Deploys go through staging first.")
    return home_path


DEEP = 100_000
"""Levels of nesting: far past what Python's json module (about 1,000) can parse."""
SDK_DEEP = 300
"""Levels of nesting Python's json parses but the SDK's parser (254) refuses."""


def _call_line(rid: int, arguments: bytes) -> bytes:
    return (
        b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", '
        b'"params": {"name": "memory", "arguments": %s}}' % (rid, arguments)
    )


def test_a_request_nested_past_the_parsers_does_not_kill_the_server(seeded: Path) -> None:
    """It did: the lone-surrogate relay re-parsed the line and a RecursionError ended the
    server with a traceback, so every later call of the client went unanswered."""
    before = (seeded / "memories" / "MEMORY.md").read_bytes()
    client = RawMcpClient(seeded)
    try:
        client.send(_call_line(5, b"[" * DEEP + b"]" * DEEP))
        client.send(_call_line(6, b'{"a": ' + b"[" * DEEP + b"]" * DEEP + b"}"))
        assert _read_memory(client, 7) == ["Deploys go through staging first."]
    finally:
        assert client.close() == 0
    assert b"Traceback" not in client.stderr, client.stderr[-2000:]
    assert (seeded / "memories" / "MEMORY.md").read_bytes() == before


def test_a_request_nested_past_the_sdks_parser_is_answered_for_its_id(seeded: Path) -> None:
    """Nested 300 deep, Python reads it but the SDK does not: the client waited for ever."""
    client = RawMcpClient(seeded)
    try:
        nested = b'{"action": "add", "target": "memory", "content": "x", "operations": '
        client.send(_call_line(5, nested + b"[" * SDK_DEEP + b"]" * SDK_DEEP + b"}"))
        reply = client.reply()
        assert reply is not None and reply["id"] == 5, reply
        assert reply["error"]["code"] == -32600
        assert "nested too deeply" in reply["error"]["message"]
        assert "Nothing was done" in reply["error"]["message"]
        assert _read_memory(client, 6) == ["Deploys go through staging first."]
    finally:
        assert client.close() == 0
    assert b"Traceback" not in client.stderr


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b'{"jsonrpc": "1.0", "id": 5, "method": "tools/list"}', '"jsonrpc": "2.0"'),
        (b'{"id": 5, "method": "tools/list"}', '"jsonrpc": "2.0"'),
        (b'{"jsonrpc": "2.0", "id": 5, "method": 7}', "method"),
        (b'{"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": 3}', "params"),
    ],
)
def test_a_request_that_is_not_json_rpc_is_answered_for_its_id(
    seeded: Path, line: bytes, why: str
) -> None:
    """The SDK only logged these; a client waiting for id 5 waited for ever."""
    client = RawMcpClient(seeded)
    try:
        client.send(line)
        reply = client.reply()
        assert reply is not None and reply["id"] == 5, reply
        assert reply["error"]["code"] == -32600
        assert why in reply["error"]["message"] and "Nothing was done" in reply["error"]["message"]
        assert _read_memory(client, 6) == ["Deploys go through staging first."]
    finally:
        assert client.close() == 0
    assert b"Traceback" not in client.stderr


def test_a_client_that_stops_reading_ends_the_server_without_a_traceback(seeded: Path) -> None:
    """The client closes its end of the server's stdout with calls in flight: the server's
    next write meets a broken pipe. It ended with a BrokenPipeError traceback (exit 1)."""
    client = RawMcpClient(seeded)
    for rid in range(1, 40):
        body = {"name": "memory", "arguments": {"action": "read"}}
        call = {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": body}
        client.send(json.dumps(call).encode())
    assert client.proc.stdout is not None
    client.proc.stdout.close()
    code = client.close()
    assert b"Traceback" not in client.stderr, client.stderr[-2000:]
    assert code == 1
    assert b"client" in client.stderr.splitlines()[-1]
    assert Memory.open(seeded).read("memory").entries == ("Deploys go through staging first.",)


def test_bytes_that_are_not_utf8_are_refused_not_saved_as_replacement_characters(
    seeded: Path,
) -> None:
    """The SDK decoded stdin with errors="replace": a content of b"\\xff\\xfe" was saved
    as the entry "\\ufffd\\ufffd" and the model told "Entry added"."""
    before = (seeded / "memories" / "MEMORY.md").read_bytes()
    client = RawMcpClient(seeded)
    try:
        client.send(_call_line(5, b'{"action": "add", "target": "memory", "content": "\xff\xfe"}'))
        reply = client.reply()
        assert reply is not None and reply["id"] == 5, reply
        assert reply["error"]["code"] == -32602
        assert "not UTF-8" in reply["error"]["message"], reply
        assert (
            "content" in reply["error"]["message"]
            and "nothing was done" in reply["error"]["message"]
        )
        line = _call_line(6, b'{"action": "add", "target": "memory", "content": "caf\xc3\xa9 ok"}')
        client.send(line)
        added = client.reply()
        assert added is not None and added["result"]["structuredContent"]["success"] is True
        assert _read_memory(client, 7) == ["Deploys go through staging first.", "café ok"]
    finally:
        assert client.close() == 0
    assert b"Traceback" not in client.stderr
    after = (seeded / "memories" / "MEMORY.md").read_bytes()
    assert b"\xef\xbf\xbd" not in after and after != before


def test_a_json_rpc_batch_gets_an_answer_for_each_request(seeded: Path) -> None:
    """MCP 2025-03-26 allowed batches; the SDK reads none and only logged the line: a
    client of that protocol waited for ever for ids 5 and 6."""
    client = RawMcpClient(seeded)
    try:
        client.send(
            b'[{"jsonrpc": "2.0", "id": 5, "method": "tools/list"},'
            b' {"jsonrpc": "2.0", "method": "notifications/initialized"},'
            b' {"jsonrpc": "2.0", "id": "six", "method": "tools/call",'
            b' "params": {"name": "memory", "arguments": {"action": "add",'
            b' "target": "memory", "content": "from a batch"}}}]'
        )
        answers = [client.reply(), client.reply()]
        assert sorted(str(a["id"]) for a in answers if a) == ["5", "six"], answers
        for answer in answers:
            assert answer is not None and answer["error"]["code"] == -32600
            assert "batch" in answer["error"]["message"]
            assert "own line" in answer["error"]["message"]
        assert _read_memory(client, 7) == ["Deploys go through staging first."]
    finally:
        assert client.close() == 0
    assert b"Traceback" not in client.stderr
