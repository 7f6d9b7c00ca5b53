"""`mnemic hook hermes`, the bridge Hermes's mnemic provider keeps running, spoken to as
the provider speaks to it: one process, JSON requests line by line on its stdin, one
answer per line on its stdout. (The real Hermes drives it in test_integrate_hermes.py;
these run without Hermes.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.e2e import mnemic_env, run_mnemic

from mnemic.home import Home
from mnemic.sessions import open_store


class Bridge:
    """One `mnemic hook hermes` process."""

    def __init__(self, home: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mnemic", "hook", "hermes"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=mnemic_env(home),
        )

    def send(self, line: bytes) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()
        return dict(json.loads(self.proc.stdout.readline()))

    def call(self, rid: int, op: str, **params: Any) -> dict[str, Any]:
        return self.send(json.dumps({"id": rid, "op": op, **params}).encode())

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=60)


def test_the_bridge_records_turns_recalls_them_and_ends_the_session(home_path: Path) -> None:
    assert run_mnemic(home_path, "init").returncode == 0
    bridge = Bridge(home_path)
    try:
        hello = bridge.call(1, "hello")
        assert hello == {"id": 1, "ok": True, "result": {"version": 1, "home": str(home_path)}}
        synced = bridge.call(
            2,
            "sync_turn",
            session_id="h-1",
            user="Our deploy window is Tuesdays 14:00 UTC.",
            assistant="Noted: deploys on Tuesdays at 14:00 UTC.",
            platform="telegram",
        )
        assert synced["result"] == {"session_id": "h-1", "created": True, "messages": 2}
        # another Hermes session recalls it; the session itself is never recalled
        other = bridge.call(3, "prefetch", query="when is the deploy window?", session_id="h-2")
        assert "Tuesdays 14:00 UTC" in other["result"]["text"]
        assert "session h-1" in other["result"]["text"]
        own = bridge.call(4, "prefetch", query="when is the deploy window?", session_id="h-1")
        assert own["result"]["text"] == ""
        ended = bridge.call(5, "session_end", session_id="h-1")
        assert ended["result"] == {"ended": True}
    finally:
        assert bridge.close() == 0

    store = open_store(Home.open(home_path, create=False))
    try:
        info = store.get_session("h-1")
        assert (info.source, info.end_reason) == ("hermes", "hermes:session_end")
        assert info.metadata == {"hermes": {"platform": "telegram"}}
        assert [m.role for m in store.messages("h-1")] == ["user", "assistant"]
    finally:
        store.close()


def test_the_archive_search_tool_finds_a_removed_entry(home_path: Path) -> None:
    fact = "The VPN gateway moved to vpn2.example.net"
    assert run_mnemic(home_path, "memory", "add", fact).returncode == 0
    assert run_mnemic(home_path, "memory", "remove", "VPN gateway").returncode == 0
    bridge = Bridge(home_path)
    try:
        found = bridge.call(
            1, "tool", name="mnemic_archive_search", arguments={"query": "vpn gateway"}
        )
        searched = bridge.call(
            2, "tool", name="mnemic_session_search", arguments={"query": "vpn"}, session_id="x"
        )
    finally:
        assert bridge.close() == 0
    result = found["result"]
    assert result["success"] is True
    assert [e["text"] for e in result["results"]] == [fact]
    assert searched["ok"] is True and searched["result"]["success"] is True


def test_bad_requests_are_answered_and_the_bridge_goes_on(home_path: Path) -> None:
    assert run_mnemic(home_path, "init").returncode == 0
    bridge = Bridge(home_path)
    try:
        assert bridge.send(b"not json")["error"] == "The request is not one line of JSON."
        assert bridge.send(b"[1]")["error"] == "The request is not a JSON object."
        unknown = bridge.call(1, "fly")
        assert unknown["ok"] is False and "Unknown op 'fly'" in unknown["error"]
        no_session = bridge.call(2, "sync_turn", user="hi", assistant="hello")
        assert no_session["ok"] is False and "session_id" in no_session["error"]
        tool = bridge.call(3, "tool", name="memory", arguments={})
        assert tool["ok"] is False and "Unknown tool 'memory'" in tool["error"]
        assert bridge.call(4, "hello")["ok"] is True
    finally:
        assert bridge.close() == 0


def test_a_missing_home_is_reported_in_every_answer_and_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "no-home"
    bridge = Bridge(missing)
    try:
        for rid in (1, 2):
            answer = bridge.call(rid, "prefetch", query="anything", session_id="s")
            assert answer["id"] == rid and answer["ok"] is False
            assert f"No mnemic home at {missing}" in answer["error"]
    finally:
        assert bridge.close() == 0
    assert not missing.exists()
