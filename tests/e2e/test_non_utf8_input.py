"""Text that is not UTF-8: undecodable argument bytes, non-UTF-8 files and stdin, and lone
surrogates in tool JSON. Each is refused with a clear message (exit 2 for arguments and
files, a tool error for JSON), never a traceback, and nothing is written."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store

from . import RawMcpClient, run_mnemic_bytes

pytestmark = pytest.mark.timeout(120)


def seed(home: Path) -> None:
    Memory.open(home).add("memory", "Deploys go through staging first.")
    with open_store(Home.open(home)) as store:
        sid = store.start_session(source="cli")
        store.append_message(sid, NewMessage("user", "the deploy hit ERR_QUOTA_7731"))
        store.end_session(sid, "user_exit")


def files(home: Path) -> dict[str, bytes]:
    out = {}
    for root, _, names in os.walk(home):
        for name in names:
            p = Path(root, name)
            out[str(p.relative_to(home))] = p.read_bytes()
    return out


@pytest.mark.parametrize(
    "args",
    [
        (b"memory", b"add", b"\xff"),
        (b"memory", b"add", b"caf\xe9 au lait"),
        (b"sessions", b"show", b"\xff"),
        (b"sessions", b"delete", b"\xff"),
        (b"sessions", b"export", b"\xff"),
        (b"sessions", b"list", b"--source", b"\xff"),
        (b"skills", b"show", b"\xfe\xff"),
    ],
)
def test_undecodable_argument_bytes_are_a_usage_error(home_path: Path, args: tuple[bytes]) -> None:
    seed(home_path)
    before = files(home_path)
    r = run_mnemic_bytes(home_path, *args)
    err = r.stderr.decode()
    assert r.returncode == 2 and "is not valid UTF-8" in err and "Traceback" not in err
    assert f"argument {len(args)}" in err
    assert files(home_path) == before


def test_a_non_utf8_body_file_or_stdin_is_refused_and_no_skill_is_created(
    home_path: Path, tmp_path: Path
) -> None:
    body = tmp_path / "body.md"
    body.write_bytes(b"Steps: caf\xe9\n")
    r = run_mnemic_bytes(
        home_path, "skills", "create", "demo-skill", "-d", "A demo.", "--body-file", str(body)
    )
    err = r.stderr.decode()
    assert r.returncode == 2 and str(body) in err and "not valid UTF-8" in err
    assert "byte 10" in err and "Traceback" not in err
    r = run_mnemic_bytes(
        home_path, "skills", "create", "demo-skill", "-d", "A demo.", stdin=b"caf\xe9\n"
    )
    assert r.returncode == 2 and "stdin is not valid UTF-8" in r.stderr.decode()
    assert not (home_path / "skills" / "demo-skill").exists()


def test_tool_json_on_stdin_that_is_not_utf8_is_refused(home_path: Path) -> None:
    seed(home_path)
    before = (home_path / "memories" / "MEMORY.md").read_bytes()
    r = run_mnemic_bytes(
        home_path, "tool", "memory", "-", stdin=b'{"action":"add","content":"\xff"}'
    )
    assert r.returncode == 2 and "stdin is not valid UTF-8" in r.stderr.decode()
    assert (home_path / "memories" / "MEMORY.md").read_bytes() == before


SURROGATE_CALLS = [
    ("memory", '{"action": "add", "target": "memory", "content": "bad \\ud800 text"}'),
    ("memory", '{"target": "memory", "operations": [{"action": "add", "content": "\\udcff"}]}'),
    ("session_search", '{"query": "\\ud800"}'),
    ("session_search", '{"query": "deploy", "source": "\\udfff"}'),
    (
        "skill_manage",
        '{"action": "create", "name": "x-y", "content": "---\\nname: x-y\\n'
        'description: d\\n---\\n\\ud800"}',
    ),
    ("skill_manage", '{"action": "create", "name": "x\\ud800y", "content": "body"}'),
]


@pytest.mark.parametrize(("tool", "arguments"), SURROGATE_CALLS)
def test_lone_surrogates_in_tool_json_are_an_invalid_argument(
    home_path: Path, tool: str, arguments: str
) -> None:
    seed(home_path)
    memory_before = (home_path / "memories" / "MEMORY.md").read_bytes()
    r = run_mnemic_bytes(home_path, "tool", tool, arguments)
    assert r.returncode == 1 and b"Traceback" not in r.stderr
    response = json.loads(r.stdout)
    assert response["error_code"] == "invalid_argument" and "lone surrogate" in response["error"]
    assert (home_path / "memories" / "MEMORY.md").read_bytes() == memory_before
    assert not (home_path / "skills").exists() or not any((home_path / "skills").iterdir())


def test_lone_surrogates_sent_to_the_mcp_server_get_an_answer_and_it_keeps_serving(
    home_path: Path,
) -> None:
    seed(home_path)
    before = (home_path / "memories" / "MEMORY.md").read_bytes()
    client = RawMcpClient(home_path)
    try:
        for rid, (tool, arguments) in enumerate(SURROGATE_CALLS, 10):
            reply = client.request_raw(
                rid, "tools/call", f'{{"name": "{tool}", "arguments": {arguments}}}'
            )
            assert reply["error"]["code"] == -32602, reply
            assert "lone surrogate" in reply["error"]["message"]
        reply = client.request_raw(
            99, "tools/call", '{"name": "session_search", "arguments": {"query": "ERR_QUOTA_7731"}}'
        )
        assert reply["result"]["structuredContent"]["success"] is True
    finally:
        assert client.close() == 0
    assert b"Traceback" not in client.stderr
    assert (home_path / "memories" / "MEMORY.md").read_bytes() == before
