"""The Anthropic Messages API client against a real HTTP stand-in (no SDK mocks).

The stand-in (:class:`mnemic.testing.FakeAnthropicServer`) computes each request's cached
prefix from the documented rule (tools, system, messages up to the last ``cache_control``)
on its own, so these tests check the client against the API's rule, not against itself.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from mnemic.agent import AgentSession, ChatAgent
from mnemic.config import _LLM_APIS, load_settings
from mnemic.curated.memory import Memory
from mnemic.errors import ConfigError, LLMNotConfigured, LLMRequestFailed, LLMTimeout
from mnemic.llm import AnthropicChatClient, anthropic_request, client_from_settings
from mnemic.llm.openai_client import OpenAIStreamingClient
from mnemic.llm.select import APIS
from mnemic.testing import (
    Fail,
    FakeAnthropicServer,
    Hang,
    Reply,
    StreamError,
    ToolCallReply,
)
from mnemic.testing.anthropic_server import breakpoints, cached_prefix

SYSTEM = {"role": "system", "content": "You are terse."}
MEMORY_TOOL = {
    "type": "function",
    "function": {
        "name": "memory",
        "description": "Save a fact.",
        "parameters": {"type": "object", "properties": {"content": {"type": "string"}}},
    },
}


def start(home: Path, server: FakeAnthropicServer) -> tuple[AgentSession, AnthropicChatClient]:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("[agent]\nreview_every = 0\n")
    client = AnthropicChatClient(base_url=server.base_url, model="claude-test", timeout=10)
    session = AgentSession.open(home, client=client, provider=None, source="test")
    return session, client


def blocks(request: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [
        b
        for m in request["messages"]
        for b in (m["content"] if isinstance(m["content"], list) else [])
        if b["type"] == kind
    ]


def save(content: str) -> Reply:
    args = {"action": "add", "target": "memory", "content": content}
    return Reply(tool_calls=[ToolCallReply("memory", args)])


@pytest.mark.parametrize("stream", [False, True], ids=["complete", "stream"])
def test_memory_write_mid_session_keeps_the_cached_prefix_byte_identical_on_every_turn(
    home_path: Path, stream: bool
) -> None:
    replies = [save("Billing deploys go through stg-billing-2."), "Saved.", "Sure.", "Done."]
    with FakeAnthropicServer(replies) as server:
        session, client = start(home_path, server)
        agent = ChatAgent(session, client, stream=stream, on_text=lambda _: None)
        turns = [
            agent.run_turn("Remember: billing deploys go through stg-billing-2."),
            agent.run_turn("What is the staging host?"),
            agent.run_turn("Thanks."),
        ]
        session.close()
    assert [t.status for t in turns] == ["answered"] * 3
    assert turns[0].tool_calls[0]["result"]["success"] is True
    assert Memory.open(home_path).entries("memory") == ["Billing deploys go through stg-billing-2."]
    assert len(server.requests) == 4
    assert all(r.get("stream", False) is stream for r in server.requests)
    # The breakpoints sit on the last tool and on the frozen system prompt, nowhere else.
    n_tools = len(session.anthropic_tools())
    for request in server.requests:
        assert breakpoints(request) == [f"tools[{n_tools - 1}]", "system[0]"]
        assert request["system"] == [
            {"type": "text", "text": session.system_prompt, "cache_control": {"type": "ephemeral"}}
        ]
    # The prefix up to the breakpoint is the same bytes on every request of every turn,
    # although MEMORY.md changed on disk after the first request.
    assert len(set(server.prefixes)) == 1 and len(server.prefixes[0]) > 1000
    assert b"stg-billing-2" not in server.prefixes[0]
    assert server.prefixes[0] == cached_prefix(server.requests[-1])
    # The stand-in served that prefix from its cache after the first request.
    first, *later = [u for t in turns for u in t.usage]
    assert first.cache_write_tokens > 0 and first.cache_read_tokens == 0
    assert all(u.cache_read_tokens == first.cache_write_tokens for u in later)
    assert all(u.prompt_tokens > u.cache_read_tokens for u in later)
    # The tool call went back as tool_use, its result as tool_result with the same id.
    second = server.requests[1]
    (use,) = blocks(second, "tool_use")
    (result,) = blocks(second, "tool_result")
    assert use["name"] == "memory" and use["input"]["target"] == "memory"
    assert result["tool_use_id"] == use["id"] and json.loads(result["content"])["success"]
    # Every request replays the previous one's messages unchanged and appends.
    for earlier, later_req in itertools.pairwise(server.requests):
        assert later_req["messages"][: len(earlier["messages"])] == earlier["messages"]


def test_streamed_text_arrives_in_pieces_and_tool_input_is_assembled() -> None:
    text = "A streamed answer that is long enough to arrive in several pieces."
    args = {"action": "add", "target": "user", "content": "Prefers tea, not coffee."}
    reply = Reply(content=text, tool_calls=[ToolCallReply("memory", args)])
    with FakeAnthropicServer([reply]) as s:
        client = AnthropicChatClient(base_url=s.base_url, model="m")
        pieces: list[str] = []
        result = client.stream([SYSTEM, {"role": "user", "content": "hi"}], on_text=pieces.append,
                               tools=[MEMORY_TOOL])  # fmt: skip
    assert len(pieces) > 2 and "".join(pieces) == text == result.content
    (call,) = result.tool_calls
    assert call.name == "memory" and json.loads(call.arguments) == args
    assert result.finish_reason == "tool_calls" and result.model == "m"
    assert result.usage.completion_tokens > 0 and result.usage.cache_write_tokens > 0


def test_complete_and_stream_give_the_same_result_for_the_same_reply() -> None:
    reply = Reply(content="Both ways.", tool_calls=[ToolCallReply("memory", {"ü": [1, 2]})])
    with FakeAnthropicServer([reply, reply]) as s:
        client = AnthropicChatClient(base_url=s.base_url, model="m")
        whole = client.complete([{"role": "user", "content": "x"}], tools=[MEMORY_TOOL])
        streamed = client.stream([{"role": "user", "content": "x"}], on_text=lambda _: None,
                                 tools=[MEMORY_TOOL])  # fmt: skip
    assert whole.content == streamed.content == "Both ways."
    assert [(c.name, c.arguments) for c in whole.tool_calls] == [
        (c.name, c.arguments) for c in streamed.tool_calls
    ]
    assert whole.finish_reason == streamed.finish_reason == "tool_calls"


@pytest.mark.parametrize(
    ("status", "kind", "words"),
    [
        (429, "rate_limit_error", "wait a moment"),
        (500, "api_error", "boom"),
        (529, "overloaded_error", "overloaded"),
        (401, "authentication_error", "ANTHROPIC_API_KEY"),
    ],
)
@pytest.mark.parametrize("stream", [False, True], ids=["complete", "stream"])
def test_http_errors_are_typed_with_the_status_the_api_error_type_and_what_to_do(
    status: int, kind: str, words: str, stream: bool
) -> None:
    with FakeAnthropicServer([Fail(status, "boom")]) as s:
        client = AnthropicChatClient(base_url=s.base_url, model="m")
        with pytest.raises(LLMRequestFailed) as info:
            if stream:
                client.stream([{"role": "user", "content": "x"}], on_text=lambda _: None)
            else:
                client.complete([{"role": "user", "content": "x"}])
    assert info.value.status == status
    assert f"HTTP {status}: {kind}: boom" in info.value.to_llm() and words in info.value.to_llm()


def test_an_error_event_inside_a_stream_is_a_typed_error_after_the_text_so_far() -> None:
    pieces: list[str] = []
    with FakeAnthropicServer([StreamError(text="partial answer")]) as s:
        client = AnthropicChatClient(base_url=s.base_url, model="m")
        with pytest.raises(LLMRequestFailed) as info:
            client.stream([{"role": "user", "content": "x"}], on_text=pieces.append)
    assert "".join(pieces) == "partial answer"
    assert info.value.status is None and "overloaded_error" in info.value.to_llm()


@pytest.mark.parametrize("stream", [False, True], ids=["complete", "stream"])
def test_timeout_is_typed_and_bounded(stream: bool) -> None:
    with FakeAnthropicServer([Hang("late")]) as s:
        client = AnthropicChatClient(base_url=s.base_url, model="m", timeout=30)
        with pytest.raises(LLMTimeout) as info:
            if stream:
                client.stream([{"role": "user", "content": "x"}], on_text=print, timeout=0.3)
            else:
                client.complete([{"role": "user", "content": "x"}], timeout=0.3)
        s.release()
    assert info.value.timeout_s == 0.3


def test_unreachable_endpoint_is_a_typed_error() -> None:
    with FakeAnthropicServer() as s:
        url = s.base_url
    client = AnthropicChatClient(base_url=url, model="m", timeout=5)
    with pytest.raises(LLMRequestFailed, match="cannot reach"):
        client.complete([{"role": "user", "content": "x"}])


def test_a_failing_endpoint_ends_the_turn_with_a_message_and_the_session_goes_on(
    home_path: Path,
) -> None:
    with FakeAnthropicServer([Fail(429, "slow down"), "Back again."]) as server:
        session, client = start(home_path, server)
        agent = ChatAgent(session, client, stream=True, on_text=lambda _: None)
        failed = agent.run_turn("hello")
        ok = agent.run_turn("hello again")
        session.close()
    assert failed.status == "model_error" and "HTTP 429" in failed.text
    assert ok.status == "answered" and ok.text == "Back again."
    # the failed turn stays in the conversation as alternating user/assistant messages
    roles = [m["role"] for m in server.requests[1]["messages"]]
    assert roles == ["user", "assistant", "user"]


def test_the_key_comes_from_anthropic_api_key_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("MNEMIC_LLM_API", "anthropic")
    monkeypatch.setenv("MNEMIC_LLM_MODEL", "claude-test")
    with FakeAnthropicServer(["hi"], api_key="sk-ant-test") as s:
        monkeypatch.setenv("MNEMIC_LLM_BASE_URL", s.base_url)
        settings = load_settings(Path("/nonexistent-home"))
        client = client_from_settings(settings.llm)
        assert isinstance(client, AnthropicChatClient)
        assert client.complete([{"role": "user", "content": "x"}]).content == "hi"
        monkeypatch.setenv("ANTHROPIC_API_KEY", "wrong")
        with pytest.raises(LLMRequestFailed) as info:
            client_from_settings(settings.llm).complete([{"role": "user", "content": "x"}])
    assert info.value.status == 401


def test_settings_choose_the_client_and_an_unknown_api_is_a_config_error(
    home_path: Path,
) -> None:
    assert _LLM_APIS == APIS
    home_path.mkdir(parents=True)
    config = home_path / "config.toml"
    config.write_text('[llm]\napi = "claude"\nmodel = "m"\n')
    with pytest.raises(ConfigError) as info:
        load_settings(home_path)
    assert info.value.key == "llm.api" and "openai, anthropic" in info.value.to_llm()
    config.write_text('[llm]\napi = "anthropic"\n')
    with pytest.raises(LLMNotConfigured) as missing:
        client_from_settings(load_settings(home_path).llm)
    assert missing.value.what == "model"  # base_url may stay empty: the SDK's default
    config.write_text('[llm]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n')
    assert isinstance(client_from_settings(load_settings(home_path).llm), OpenAIStreamingClient)


def test_without_cache_no_breakpoint_is_sent() -> None:
    with FakeAnthropicServer(["ok"]) as s:
        client = AnthropicChatClient(base_url=s.base_url, model="m", cache=False)
        client.complete([SYSTEM, {"role": "user", "content": "x"}], tools=[MEMORY_TOOL])
    assert breakpoints(s.requests[0]) == [] and s.prefixes[0] == b""


def test_tool_results_are_merged_into_one_user_message_before_the_next_text() -> None:
    calls = [
        {"id": f"t{i}", "type": "function", "function": {"name": "memory", "arguments": a}}
        for i, a in enumerate(['{"x": 1}', "not json"])
    ]
    messages = [
        SYSTEM,
        {"role": "user", "content": "do two things"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_call_id": "t0", "content": '{"success": true}'},
        {"role": "tool", "tool_call_id": "t1", "content": '{"success": false}'},
        {"role": "user", "content": "and now?"},
    ]
    req = anthropic_request(messages, [MEMORY_TOOL])
    assert [m["role"] for m in req["messages"]] == ["user", "assistant", "user"]
    assert [b["input"] for b in req["messages"][1]["content"]] == [
        {"x": 1},
        {"arguments": "not json"},
    ]
    last = req["messages"][2]["content"]
    assert [b["type"] for b in last] == ["tool_result", "tool_result", "text"]
    assert [b.get("tool_use_id") for b in last[:2]] == ["t0", "t1"]
    assert req["tools"][0]["input_schema"] == MEMORY_TOOL["function"]["parameters"]


_role = st.sampled_from(["user", "assistant", "tool", "system"])
_text = st.one_of(st.none(), st.text(max_size=5))


@st.composite
def conversations(draw: st.DrawFn) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, role in enumerate(draw(st.lists(_role, max_size=12))):
        if role == "assistant":
            n = draw(st.integers(0, 2))
            calls = [
                {"id": f"c{i}_{j}", "function": {"name": "memory", "arguments": "{}"}}
                for j in range(n)
            ]
            out.append({"role": role, "content": draw(_text), "tool_calls": calls})
        elif role == "tool":
            out.append({"role": role, "tool_call_id": f"c{i}", "content": draw(_text)})
        else:
            out.append({"role": role, "content": draw(_text)})
    return out


@settings(max_examples=200, deadline=None)
@given(conversations())
def test_any_conversation_becomes_alternating_messages_without_empty_blocks(
    messages: list[dict[str, Any]],
) -> None:
    req = anthropic_request(messages, [MEMORY_TOOL])
    roles = [m["role"] for m in req["messages"]]
    assert all(a != b for a, b in itertools.pairwise(roles))
    for m in req["messages"]:
        assert m["content"], m
        for b in m["content"]:
            assert b["type"] != "text" or b["text"]
            assert "cache_control" not in b
        kinds = [b["type"] for b in m["content"]]
        # tool results never come after text within a user message
        assert "text" not in kinds or "tool_result" not in kinds[kinds.index("text") :]
    assert anthropic_request(messages, [MEMORY_TOOL]) == req  # deterministic
