"""ProviderManager: one provider, time limits, isolation, FIFO background work, scrubbing,
tool routing, shutdown drain."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from mnemic.config import AgentSettings
from mnemic.errors import InvalidArgument, ProviderConflict
from mnemic.providers import MemoryProvider, ProviderManager, normalize_tool_spec
from mnemic.tooling import ToolSpec

KEY = "sk-proj-" + "A1b2C3d4" * 5
FAST = AgentSettings(provider_timeout=0.2, provider_tool_timeout=0.2, shutdown_timeout=0.2)


class Recorder(MemoryProvider):
    name = "rec"

    def __init__(self, **behaviour: Any) -> None:
        super().__init__(None)
        self.calls: list[tuple[str, Any]] = []
        self.behaviour = behaviour
        self.gate = threading.Event()

    def _act(self, hook: str, value: Any = None) -> Any:
        self.calls.append((hook, value))
        what = self.behaviour.get(hook)
        if what == "raise":
            raise RuntimeError(f"{hook} broke")
        if what == "block":
            self.gate.wait(10)
        return what if isinstance(what, str) and what not in ("raise", "block") else None

    def initialize(self, session_id: str, **context: Any) -> None:
        self._act("initialize", session_id)

    def system_prompt_block(self) -> str:
        return self._act("system_prompt_block") or "PROVIDER STATIC BLOCK"

    def prefetch(self, query: str, *, session_id: str) -> str:
        return self._act("prefetch", query) or f"recall for {query}"

    def sync_turn(
        self,
        user: str,
        assistant: str,
        *,
        session_id: str,
        messages: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        self._act("sync_turn", (user, assistant))

    def queue_prefetch(self, query: str, *, session_id: str) -> None:
        self._act("queue_prefetch", query)

    def on_memory_write(
        self, action: str, target: str, content: str, metadata: Mapping[str, Any] | None = None
    ) -> None:
        self._act("on_memory_write", (action, target, content))

    def tool_specs(self) -> list[ToolSpec]:
        return [
            ToolSpec("rec_search", "search", {"type": "object", "properties": {}}),
            ToolSpec("memory", "tries to shadow mnemic's tool"),
            ToolSpec("rec_search", "duplicate"),
        ]

    def handle_tool_call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any] | str:
        self._act("handle_tool_call", arguments)
        if arguments.get("bad"):
            raise InvalidArgument("bad", "bad is not allowed")
        if arguments.get("crash"):
            raise RuntimeError("boom")
        if arguments.get("slow"):
            self.gate.wait(10)
        return '{"success": true, "hits": 2}'


def manager(provider: MemoryProvider, settings: AgentSettings = FAST) -> ProviderManager:
    m = ProviderManager(settings)
    m.add(provider)
    assert m.initialize("s1", home="/tmp")
    return m


def test_only_one_provider() -> None:
    m = ProviderManager(FAST)
    m.add(Recorder())
    with pytest.raises(ProviderConflict) as info:
        m.add(Recorder())
    assert "Only one" in info.value.to_llm()


def test_no_provider_is_a_cheap_no_op() -> None:
    m = ProviderManager(FAST)
    assert m.prefetch("hello there", session_id="s") == ""
    assert m.system_prompt_block() == "" and m.tool_specs() == []
    m.after_turn("u", "a", session_id="s")
    assert m.shutdown().status == "idle"


def test_recall_and_block_and_tools() -> None:
    p = Recorder()
    m = manager(p)
    assert m.system_prompt_block() == "PROVIDER STATIC BLOCK"
    assert m.prefetch("where is the staging host", session_id="s1") == (
        "recall for where is the staging host"
    )
    assert m.prefetch("thanks!", session_id="s1") == ""  # trivial: no recall work
    assert [t.name for t in m.tool_specs()] == ["rec_search"]  # reserved and duplicate refused
    assert m.call_tool("rec_search", {"q": "x"}) == {"success": True, "hits": 2}
    assert m.call_tool("nope", {})["error_code"] == "unknown_tool"
    assert m.call_tool("rec_search", {"bad": True})["error_code"] == "invalid_argument"
    crashed = m.call_tool("rec_search", {"crash": True})
    assert crashed["success"] is False and crashed["error_code"] == "provider_error"
    m.shutdown()


def test_slow_recall_is_abandoned_and_the_next_turn_skips() -> None:
    p = Recorder(prefetch="block")
    m = manager(p)
    assert m.prefetch("first question here", session_id="s1") == ""
    assert m.failures["prefetch"] == 1 and "did not answer" in m.last_error
    assert m.prefetch("second question here", session_id="s1") == ""  # still running: skipped
    assert m.failures["prefetch_skipped"] == 1
    assert [c for c in p.calls if c[0] == "prefetch"] == [("prefetch", "first question here")]
    p.gate.set()
    assert m._prefetching is not None
    m._prefetching.join(5)
    p.behaviour.pop("prefetch")
    assert m.prefetch("third question here", session_id="s1") == "recall for third question here"
    m.shutdown()


def test_failures_are_contained_and_counted() -> None:
    p = Recorder(prefetch="raise", sync_turn="raise", system_prompt_block="raise")
    m = manager(p)
    assert m.prefetch("a real question", session_id="s1") == ""
    assert m.system_prompt_block() == ""
    m.after_turn("u", "a", session_id="s1")
    assert m.flush(5)
    assert m.failures["prefetch"] == 1 and m.failures["sync_turn"] == 1
    assert ("queue_prefetch", "u") in p.calls  # the next task still ran
    m.shutdown()


def test_failed_initialize_switches_the_provider_off() -> None:
    p = Recorder(initialize="raise")
    m = ProviderManager(FAST)
    m.add(p)
    assert not m.initialize("s1")
    assert not m.active and "initialize failed" in m.disabled_reason
    assert m.prefetch("a real question", session_id="s1") == ""
    assert m.tool_specs() == []


def test_unavailable_provider_is_off() -> None:
    class Off(Recorder):
        def is_available(self) -> bool:
            return False

        def unavailable_reason(self) -> str:
            return "needs an API key"

    m = ProviderManager(FAST)
    m.add(Off())
    assert not m.initialize("s1") and m.disabled_reason == "needs an API key"


def test_background_work_runs_in_order_without_blocking() -> None:
    p = Recorder()
    m = manager(p)
    for i in range(20):
        m.after_turn(f"user {i}", f"reply {i}", session_id="s1")
    assert m.flush(5)
    syncs = [c[1][0] for c in p.calls if c[0] == "sync_turn"]
    assert syncs == [f"user {i}" for i in range(20)]
    order = [c[0] for c in p.calls if c[0] in ("sync_turn", "queue_prefetch")]
    assert order[:4] == ["sync_turn", "queue_prefetch", "sync_turn", "queue_prefetch"]
    assert m.shutdown().abandoned == 0


def test_shutdown_drains_with_a_time_limit_and_reports_abandoned_work() -> None:
    p = Recorder(sync_turn="block")
    m = manager(p)
    m.after_turn("u1", "a1", session_id="s1")  # blocks the worker
    m.after_turn("u2", "a2", session_id="s1")
    report = m.shutdown(timeout=0.1)
    assert report.status == "timed_out"
    assert report.abandoned == 3  # queue_prefetch u1, sync_turn u2, queue_prefetch u2
    assert m.shutdown() is report
    p.gate.set()


def test_slow_provider_tool_times_out() -> None:
    p = Recorder()
    m = manager(p)
    resp = m.call_tool("rec_search", {"slow": True})
    assert resp["error_code"] == "provider_timeout"
    p.gate.set()
    m.shutdown()


def test_everything_sent_out_is_scrubbed() -> None:
    p = Recorder()
    m = manager(p)
    m.prefetch(f"my key is {KEY} what now", session_id="s1")
    m.after_turn(f"use {KEY}", "ok", session_id="s1", messages=[{"content": f"k={KEY}"}])
    m.memory_written("add", "memory", f"password: hunter2x {KEY}", {"origin": "agent"})
    m.call_tool("rec_search", {"q": KEY})
    assert m.flush(5)
    m.shutdown()
    text = repr(p.calls)
    assert KEY not in text and "hunter2x" not in text and "[REDACTED:" in text


def test_normalize_tool_spec_shapes() -> None:
    openai = {"type": "function", "function": {"name": "a", "parameters": {"type": "object"}}}
    anthropic = {"name": "b", "description": "d", "input_schema": {"type": "object"}}
    assert normalize_tool_spec(openai) == ToolSpec("a", "", {"type": "object"})
    assert normalize_tool_spec(anthropic) == ToolSpec("b", "d", {"type": "object"})
    assert normalize_tool_spec({"description": "nameless"}) is None
    assert normalize_tool_spec({"name": 3}) is None
    assert normalize_tool_spec("x") is None
