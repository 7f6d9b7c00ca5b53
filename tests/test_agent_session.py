"""AgentSession: the frozen prompt, per-turn material, tools, recording, provider hooks."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from mnemic.agent import AgentSession
from mnemic.curated.memory import Memory
from mnemic.errors import SessionStoreBusy
from mnemic.home import Home
from mnemic.llm import ToolCall
from mnemic.prompt import RECALL_OPEN
from mnemic.providers import MemoryProvider
from mnemic.tooling import ToolSpec

TODAY = dt.date(2026, 5, 4)


class Provider(MemoryProvider):
    name = "fake"

    def __init__(self, recall: str = "the user once said they like walruses") -> None:
        super().__init__(None)
        self.recall = recall
        self.events: list[tuple[str, Any]] = []

    def initialize(self, session_id: str, **context: Any) -> None:
        self.events.append(("initialize", context.get("agent_context")))

    def system_prompt_block(self) -> str:
        return "FAKE PROVIDER BLOCK"

    def prefetch(self, query: str, *, session_id: str) -> str:
        self.events.append(("prefetch", query))
        return self.recall

    def sync_turn(
        self,
        user: str,
        assistant: str,
        *,
        session_id: str,
        messages: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        self.events.append(("sync_turn", (user, assistant)))

    def on_memory_write(
        self, action: str, target: str, content: str, metadata: Mapping[str, Any] | None = None
    ) -> None:
        self.events.append(("on_memory_write", (action, target, content, dict(metadata or {}))))

    def on_session_switch(self, new_session_id: str, **kw: Any) -> None:
        self.events.append(("on_session_switch", kw.get("reset")))

    def on_session_end(self, messages: Sequence[Mapping[str, Any]]) -> None:
        self.events.append(("on_session_end", len(messages)))

    def tool_specs(self) -> list[ToolSpec]:
        return [ToolSpec("fake_lookup", "Look something up.", {"type": "object"})]

    def handle_tool_call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return {"success": True, "found": arguments.get("q")}


def open_session(home_path: Path, **kw: Any) -> AgentSession:
    kw.setdefault("provider", None)
    return AgentSession.open(
        home_path, cwd=home_path, today=lambda: TODAY, platform_name="Linux", **kw
    )


def answer(session: AgentSession, text: str = "ok") -> None:
    session.add_assistant(text)
    session.end_turn()


def test_prompt_is_byte_identical_for_50_turns_with_writes(home_path: Path) -> None:
    session = open_session(home_path)
    frozen = session.system_prompt
    other = Memory.open(home_path, origin="cli")
    for turn in range(50):
        session.begin_turn(f"message number {turn}")
        assert session.model_messages()[0] == {"role": "system", "content": frozen}
        if turn % 5 == 0:
            call = ToolCall(f"c{turn}", "memory", json.dumps(
                {"action": "add", "target": "memory", "content": f"Fact number {turn}."}
            ))  # fmt: skip
            session.add_assistant(None, [call])
            resp = session.call_tool(call.name, call.arguments)
            assert resp["success"], resp
            session.add_tool_result(call.id, call.name, resp)
        if turn % 7 == 3:
            other.add("user", f"Preference set elsewhere {turn}.")
        answer(session, f"answer {turn}")
        assert session.system_prompt == frozen
    assert "Fact number 0." not in frozen
    session.new_session()
    fresh = session.system_prompt
    assert fresh != frozen
    assert "Fact number 45." in fresh and "Preference set elsewhere 45." in fresh
    session.close()
    again = open_session(home_path)
    assert again.system_prompt == fresh
    again.close()


def test_recall_and_notices_go_into_the_user_message_not_the_record(home_path: Path) -> None:
    provider = Provider()
    session = open_session(home_path, provider=provider)
    assert "FAKE PROVIDER BLOCK" in session.system_prompt
    assert provider.recall not in session.system_prompt
    Memory.open(home_path, origin="cli").add("user", "Lives in Lisbon.")
    turn = session.begin_turn("where do I live?")
    assert turn.recall == provider.recall and "Lives in Lisbon." in turn.notices
    last = session.model_messages()[-1]
    assert last["role"] == "user" and last["content"].startswith(
        "where do I live?\n\n" + RECALL_OPEN
    )
    assert provider.recall in last["content"] and "Lives in Lisbon." in last["content"]
    answer(session, "In Lisbon.")
    sid = session.session_id
    assert session.sessions is not None
    stored = session.sessions.messages(sid)
    assert [(m.role, m.content) for m in stored] == [
        ("user", "where do I live?"),
        ("assistant", "In Lisbon."),
    ]
    # the next turn replays the earlier user message unchanged (prefix cache), no new notice
    before = json.dumps(session.model_messages())
    turn2 = session.begin_turn("thanks")
    assert turn2.notices == ""
    assert json.dumps(session.model_messages()).startswith(before[:-1])
    answer(session)
    assert session.wait_background(5)
    assert ("sync_turn", ("where do I live?", "In Lisbon.")) in provider.events
    session.close()
    assert ("on_session_end", 4) in provider.events


def test_tool_lists_and_dispatch(home_path: Path) -> None:
    session = open_session(home_path, provider=Provider())
    names = [t["function"]["name"] for t in session.openai_tools()]
    assert names == [
        "memory",
        "session_search",
        "skills_list",
        "skill_view",
        "skill_manage",
        "fake_lookup",
    ]
    assert [t["name"] for t in session.anthropic_tools()] == names
    assert all("input_schema" in t for t in session.anthropic_tools())
    assert session.call_tool("fake_lookup", '{"q": "walrus"}') == {
        "success": True,
        "found": "walrus",
    }
    assert session.call_tool("skills_list", {})["success"] is True
    assert session.call_tool("session_search", {"query": "nothing yet"})["success"] is True
    bad = session.call_tool("memory", '{"action": "add", "target": ')
    assert bad["success"] is False and bad["error_code"] == "invalid_argument"
    unknown = session.call_tool("shell", {"cmd": "ls"})
    assert unknown["error_code"] == "unknown_tool" and "memory" in unknown["available"]
    assert session.call_tool("fake_lookup", "[1, 2]")["error_code"] == "invalid_argument"
    session.close()


def test_memory_writes_are_mirrored_to_the_provider(home_path: Path) -> None:
    provider = Provider()
    session = open_session(home_path, provider=provider)
    session.begin_turn("remember things")
    session.call_tool("memory", {"action": "add", "target": "user", "content": "Likes tea."})
    session.call_tool(
        "memory",
        {"action": "replace", "target": "user", "old_text": "tea", "content": "Likes green tea."},
    )
    session.call_tool("memory", {"action": "add", "target": "user", "content": "Likes green tea."})
    answer(session)
    session.close()
    writes = [e[1] for e in provider.events if e[0] == "on_memory_write"]
    assert [(w[0], w[1], w[2]) for w in writes] == [
        ("add", "user", "Likes tea."),
        ("replace", "user", "Likes green tea."),
    ]  # the duplicate add changed nothing and is not mirrored
    assert writes[1][3]["previous"] == "Likes tea." and writes[1][3]["origin"] == "agent"


def test_recording_failures_do_not_fail_the_turn(
    home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = open_session(home_path)
    assert session.sessions is not None

    def busy(*a: Any, **k: Any) -> Any:
        raise SessionStoreBusy("sessions.db", 0.1)

    monkeypatch.setattr(session.sessions, "append_messages", busy)
    session.begin_turn("hello")
    answer(session, "hi")
    assert session.recording_errors == 1
    session.close()


def test_a_broken_provider_does_not_fail_the_turn(home_path: Path) -> None:
    class Broken(Provider):
        def prefetch(self, query: str, *, session_id: str) -> str:
            raise RuntimeError("recall service down")

        def sync_turn(self, *a: Any, **k: Any) -> None:
            raise RuntimeError("sync down")

    session = open_session(home_path, provider=Broken())
    turn = session.begin_turn("what did we decide yesterday?")
    assert turn.recall == "" and turn.content == "what did we decide yesterday?"
    answer(session)
    assert session.wait_background(5)
    assert session.providers.failures == {"prefetch": 1, "sync_turn": 1}
    session.close()


def test_unknown_configured_provider_is_reported_not_fatal(home_path: Path) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text('[agent]\nprovider = "nope"\n')
    session = AgentSession.open(home_path)
    assert session.providers.provider is None and "nope" in session.provider_error
    session.close()


def test_configured_recall_provider_is_loaded(home_path: Path) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text('[agent]\nprovider = "recall"\n')
    session = AgentSession.open(Home.open(home_path))
    assert session.providers.name == "recall" and session.providers.active
    assert "Recall is on" in session.system_prompt
    session.close()


def test_closed_session_refuses_turns(home_path: Path) -> None:
    session = open_session(home_path)
    report = session.close()
    assert session.close() is report
    with pytest.raises(RuntimeError):
        session.begin_turn("hello")
