"""The reference loop (ChatAgent) end to end against the local stand-in server over HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mnemic.agent import AgentSession, ChatAgent
from mnemic.curated.memory import Memory
from mnemic.llm.openai_client import OpenAIStreamingClient
from mnemic.testing import Fail, FakeLLMServer, Hang, Reply, ToolCallReply


def start(home: Path, server: FakeLLMServer, **config: Any) -> tuple[AgentSession, Any]:
    home.mkdir(parents=True, exist_ok=True)
    lines = ["[agent]", "review_every = 0"] + [f"{k} = {json.dumps(v)}" for k, v in config.items()]
    (home / "config.toml").write_text("\n".join(lines) + "\n")
    client = OpenAIStreamingClient(base_url=server.base_url, model="stand-in", timeout=10)
    session = AgentSession.open(home, client=client, provider=None, source="test")
    return session, client


def tool_messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    return [json.loads(m["content"]) for m in request["messages"] if m["role"] == "tool"]


def test_tool_calls_streaming_and_recording(home_path: Path) -> None:
    replies = [
        Reply(tool_calls=[ToolCallReply("memory", {"action": "add", "target": "user",
                                                   "content": "Prefers metric units."})]),
        "Noted, metric units from now on.",
    ]  # fmt: skip
    with FakeLLMServer(replies) as server:
        session, client = start(home_path, server)
        pieces: list[str] = []
        result = ChatAgent(session, client, stream=True, on_text=pieces.append).run_turn(
            "Please use metric units."
        )
        assert result.status == "answered" and result.model_calls == 2
        assert "".join(pieces) == "Noted, metric units from now on." and len(pieces) > 1
        assert result.tool_calls[0]["result"]["success"] is True
        assert Memory.open(home_path).entries("user") == ["Prefers metric units."]
        first, second = server.requests
        assert first["stream"] is True and first["messages"][0]["role"] == "system"
        assert first["tools"][0]["function"]["name"] == "memory"
        assert second["messages"][: len(first["messages"])] == first["messages"]
        assert tool_messages(second)[0]["success"] is True
        sid = session.session_id
        assert session.sessions is not None
        roles = [m.role for m in session.sessions.messages(sid)]
        assert roles == ["user", "assistant", "tool", "assistant"]
        session.close()


def test_tool_errors_and_malformed_arguments_go_back_to_the_model(home_path: Path) -> None:
    replies = [
        Reply(
            tool_calls=[
                ToolCallReply("memory", '{"action": "add", "target": "user", "content": '),
                ToolCallReply("skill_view", {"name": "no-such-skill"}),
                ToolCallReply("rm_rf", {"path": "/"}),
                ToolCallReply("memory", {"action": "explode", "target": "user"}),
            ]
        ),
        "Sorry, none of that worked; carrying on.",
    ]
    with FakeLLMServer(replies) as server:
        session, client = start(home_path, server)
        result = ChatAgent(session, client, stream=False).run_turn("Do risky things.")
        assert result.status == "answered" and result.text.startswith("Sorry")
        codes = [r["error_code"] for r in tool_messages(server.requests[1])]
        assert codes == ["invalid_argument", "skill_not_found", "unknown_tool", "invalid_argument"]
        assert Memory.open(home_path).entries("user") == []
        session.close()


def test_a_server_that_times_out_does_not_end_the_session(home_path: Path) -> None:
    with FakeLLMServer([Hang("too late"), "Back again."]) as server:
        session, _ = start(home_path, server)
        client = OpenAIStreamingClient(base_url=server.base_url, model="stand-in", timeout=0.5)
        agent = ChatAgent(session, client, stream=True, on_text=lambda _: None)
        result = agent.run_turn("Are you there?")
        assert result.status == "model_error" and result.error is not None
        assert "did not answer" in result.text
        server.release()
        assert server.arrived.acquire(timeout=10)
        result = agent.run_turn("Are you there now?")
        assert result.status == "answered" and result.text == "Back again."
        # the failed turn is kept, well-formed, and replayed
        contents = [m["content"] for m in server.requests[-1]["messages"]]
        assert "Are you there?" in contents
        assert "[No answer: the model endpoint failed on this turn.]" in contents
        session.close()


def test_http_errors_and_the_tool_round_limit(home_path: Path) -> None:
    loop = Reply(tool_calls=[ToolCallReply("skills_list", {})])
    with FakeLLMServer([Fail(500, "overloaded"), loop, loop, loop, "never reached"]) as server:
        session, client = start(home_path, server, max_tool_rounds=3)
        agent = ChatAgent(session, client, stream=False)
        failed = agent.run_turn("hello")
        assert failed.status == "model_error" and "overloaded" in failed.text
        limited = agent.run_turn("list my skills forever")
        assert limited.status == "tool_limit" and limited.model_calls == 3
        assert len(limited.tool_calls) == 3
        session.close()


def test_compression_near_the_window_in_the_loop(home_path: Path) -> None:
    def respond(request: dict[str, Any]) -> Any:
        last = str(request["messages"][-1].get("content") or "")
        if "[mnemic: memory flush]" in last:
            return Reply(
                tool_calls=[
                    ToolCallReply(
                        "memory",
                        {"action": "add", "target": "user", "content": "Works on billing."},
                    )
                ]
            )
        if request["messages"][0]["content"].startswith("You write faithful summaries"):
            return "They talked about billing."
        return "ok"  # fmt: skip

    with FakeLLMServer(respond) as server:
        session, client = start(home_path, server, keep_recent_messages=2)
        (home_path / "config.toml").write_text(
            "[agent]\nreview_every = 0\nkeep_recent_messages = 2\ncompress_at = 0.5\n"
            "[llm]\ncontext_window = 8192\n"
        )
        session.close()
        session = AgentSession.open(home_path, client=client, provider=None)
        agent = ChatAgent(session, client, stream=False)
        agent.run_turn("I work on billing.")
        frozen = session.system_prompt
        result = agent.run_turn("Here is a long paste:\n" + "log line 42 failed\n" * 900)
        assert result.status == "answered" and len(result.compressions) == 1
        report = result.compressions[0]
        assert report.flush is not None and report.flush.saved == 1
        assert session.system_prompt != frozen and "Works on billing." in session.system_prompt
        assert session.messages[0]["content"].endswith("They talked about billing.")
        session.close()
