"""Pre-compression flush, background review and compression, with a scripted client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mnemic.agent import FLUSH_INSTRUCTION, REVIEW_INSTRUCTION, AgentSession
from mnemic.agent.compress import SUMMARY_PREFIX, split_for_compression
from mnemic.curated.memory import Memory
from mnemic.errors import LLMTimeout
from mnemic.llm import ChatResult, ToolCall
from mnemic.ops.review import PendingQueue
from mnemic.testing import FakeChatClient


def calls(*pairs: tuple[str, dict[str, Any]]) -> ChatResult:
    return ChatResult(
        None,
        tuple(ToolCall(f"c{i}", n, json.dumps(a)) for i, (n, a) in enumerate(pairs)),
        "tool_calls",
    )


class Script(FakeChatClient):
    """Answers flush, review and summary requests by kind; records them."""

    def __init__(self, flush: list[Any], review: list[Any], summary: Any = "SUMMARY") -> None:
        super().__init__()
        self.flush, self.review, self.summary = flush, review, summary
        self.kinds: list[str] = []

    def complete(self, messages: Any, **kw: Any) -> ChatResult:
        super().complete(messages, **kw)
        last = str(messages[-1].get("content") or "")
        users = [m for m in messages if m.get("role") == "user"]
        if FLUSH_INSTRUCTION in last:
            kind, queue = "flush", self.flush
        elif any(REVIEW_INSTRUCTION in str(m.get("content")) for m in users):
            kind, queue = "review", self.review
        else:
            kind, queue = "summary", [self.summary]
        self.kinds.append(kind)
        reply = queue.pop(0) if queue else "Nothing to save."
        if isinstance(reply, Exception):
            raise reply
        return reply if isinstance(reply, ChatResult) else ChatResult(reply, (), "stop")


def chat(session: AgentSession, n: int, size: int = 10) -> None:
    for i in range(n):
        session.begin_turn(f"user message {i} " + "word " * size)
        session.add_assistant(f"assistant answer {i}")
        session.end_turn()


def configure(home: Path, **agent: Any) -> None:
    home.mkdir(parents=True, exist_ok=True)
    lines = ["[agent]"] + [f"{k} = {json.dumps(v)}" for k, v in agent.items()]
    (home / "config.toml").write_text("\n".join(lines) + "\n")


def test_flush_before_compression_applies_as_unattended_and_leaves_no_trace(
    home_path: Path,
) -> None:
    configure(home_path, review_every=0, keep_recent_messages=2)
    Memory.open(home_path).add("user", "Prefers tabs.")
    client = Script(
        flush=[
            calls(
                ("memory", {"action": "add", "target": "user", "content": "Uses PostgreSQL."}),
                (
                    "memory",
                    {
                        "action": "replace",
                        "target": "user",
                        "old_text": "tabs",
                        "content": "Prefers spaces.",
                    },
                ),
                ("session_search", {"query": "x"}),
            )
        ],
        review=[],
    )
    session = AgentSession.open(home_path, client=client, provider=None)
    old_prompt, old_id = session.system_prompt, session.session_id
    chat(session, 4)
    report = session.compress()
    assert report.compressed and report.flush is not None
    assert client.kinds == ["flush", "summary"]
    assert report.flush.saved == 1 and report.flush.staged == 1 and report.flush.refused == 1
    flush_request = client.calls[0]
    assert [t["function"]["name"] for t in flush_request["tools"]] == ["memory"]
    assert flush_request["messages"][0]["content"] == old_prompt
    # nothing of the flush stays in the conversation
    assert not any(FLUSH_INSTRUCTION in str(m.get("content")) for m in session.messages)
    assert session.messages[0]["content"] == f"{SUMMARY_PREFIX}\n\nSUMMARY"
    assert [m["content"] for m in session.messages[1:]] == [
        "user message 3 " + "word " * 10,
        "assistant answer 3",
    ]
    # new prompt from reloaded memory; the replace waits for approval
    assert "Uses PostgreSQL." in session.system_prompt and "Prefers tabs." in session.system_prompt
    assert "Prefers spaces." not in session.system_prompt
    records = PendingQueue.open(home_path).records()
    assert len(records) == 1 and records[0].origin == "flush"
    # the conversation continues under a child session id
    assert session.session_id != old_id and report.old_session_id == old_id
    assert session.sessions is not None
    assert session.sessions.get_session(session.session_id).parent_id == old_id
    assert session.sessions.get_session(old_id).end_reason == "compression"
    session.close()


def test_compression_survives_a_failing_model(home_path: Path) -> None:
    configure(home_path, review_every=0, keep_recent_messages=2)
    client = Script(flush=[LLMTimeout(1.0)], review=[], summary=LLMTimeout(1.0))
    session = AgentSession.open(home_path, client=client, provider=None)
    chat(session, 3)
    report = session.compress()
    assert report.compressed and report.summary_source == "extract"
    assert report.flush is not None and report.flush.error
    assert "user message 0" in session.messages[0]["content"]
    again = session.compress()  # only the summary is older than the kept part
    assert not again.compressed
    session.close()


def test_flush_can_be_turned_off(home_path: Path) -> None:
    configure(home_path, review_every=0, flush_before_compress=False, keep_recent_messages=2)
    client = Script(flush=[], review=[])
    session = AgentSession.open(home_path, client=client, provider=None)
    chat(session, 3)
    assert session.compress().flush is None and client.kinds == ["summary"]
    session.close()


def test_background_review_every_n_turns_with_memory_and_skill_tools(home_path: Path) -> None:
    configure(home_path, review_every=2)
    Memory.open(home_path).add("memory", "Old fact.")
    client = Script(
        flush=[],
        review=[
            calls(
                ("memory", {"action": "add", "target": "memory", "content": "New fact."}),
                ("memory", {"action": "remove", "target": "memory", "old_text": "Old fact."}),
                ("session_search", {"query": "sneaky"}),
            ),
            "Saved.",
        ],
    )
    session = AgentSession.open(home_path, client=client, provider=None)
    chat(session, 1)
    assert session.wait_background(10) and client.kinds == []
    chat(session, 1)
    assert session.wait_background(10)
    assert client.kinds == ["review", "review"]
    tools = [t["function"]["name"] for t in client.calls[0]["tools"]]
    assert tools == ["memory", "skills_list", "skill_view", "skill_manage"]
    (report,) = session.reviews
    assert (report.saved, report.staged, report.refused) == (1, 1, 1)
    assert report.calls[2]["result"]["error_code"] == "tool_not_allowed"
    live = Memory.open(home_path).entries("memory")
    assert live == ["Old fact.", "New fact."]  # the remove waits for approval
    assert "New fact." not in session.system_prompt  # the review never touches the prompt
    notice = session.begin_turn("next").notices
    assert "New fact." in notice  # the session is told what the review saved
    session.close()


def test_review_every_zero_disables(home_path: Path) -> None:
    configure(home_path, review_every=0)
    client = Script(flush=[], review=[])
    session = AgentSession.open(home_path, client=client, provider=None)
    chat(session, 5)
    assert session.wait_background(5) and client.kinds == []
    session.close()


def test_split_keeps_tool_results_with_their_calls() -> None:
    msgs: list[dict[str, Any]] = [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "1"}]},
        {"role": "tool", "tool_call_id": "1", "content": "r"},
        {"role": "assistant", "content": "done"},
        {"role": "user", "content": "b"},
        {"role": "assistant", "content": "ok"},
    ]
    older, recent = split_for_compression(msgs, 3)
    assert [m["content"] for m in recent] == ["b", "ok"] or recent[0]["role"] == "user"
    assert recent[0]["role"] == "user" and older + recent == msgs
    older, recent = split_for_compression(msgs, 1)
    assert recent == msgs[4:]
    assert split_for_compression(msgs[:4], 1) == ([], msgs[:4])
    big = [
        *msgs[:4],
        {"role": "user", "content": "x" * 4000},
        {"role": "assistant", "content": "y"},
        {"role": "user", "content": "c"},
    ]
    older, recent = split_for_compression(big, 4, max_recent_tokens=200)
    assert recent == [big[-1]]
