"""OpenAIChatClient against the real local fake server; the fake server itself."""

from __future__ import annotations

import json
import selectors
import socketserver
import subprocess
import sys
import threading
import urllib.request
from typing import Any

import pytest

from mnemic.config import LLMSettings
from mnemic.errors import LLMNotConfigured, LLMRequestFailed, LLMTimeout
from mnemic.llm import ChatClient, ChatResult, OpenAIChatClient
from mnemic.testing import (
    Fail,
    FakeChatClient,
    FakeLLMServer,
    Hang,
    Reply,
    ToolCallReply,
)

TOOL = {
    "type": "function",
    "function": {"name": "lookup", "parameters": {"type": "object", "properties": {}}},
}


def test_text_reply_and_request_shape() -> None:
    with FakeLLMServer(["hello there"]) as server:
        client = OpenAIChatClient(base_url=server.base_url, model="m1", api_key="k")
        assert isinstance(client, ChatClient)
        result = client.complete(
            [{"role": "user", "content": "hi"}], max_tokens=50, temperature=0.2
        )
        assert result.content == "hello there" and result.finish_reason == "stop"
        assert result.tool_calls == () and result.usage.total_tokens >= 0
        sent = server.requests[0]
        assert sent["model"] == "m1" and sent["max_tokens"] == 50 and sent["temperature"] == 0.2
        assert sent["messages"] == [{"role": "user", "content": "hi"}]


def test_tool_calls_round_trip() -> None:
    reply = Reply(tool_calls=[ToolCallReply("lookup", {"q": "walrus"}, id="call_9")])
    with FakeLLMServer([reply]) as server:
        client = OpenAIChatClient(base_url=server.base_url, model="m")
        result = client.complete([{"role": "user", "content": "?"}], tools=[TOOL])
        assert result.finish_reason == "tool_calls"
        (call,) = result.tool_calls
        assert call.id == "call_9" and call.name == "lookup"
        assert call.parsed_arguments() == {"q": "walrus"}
        assert call.to_openai()["function"]["arguments"] == '{"q": "walrus"}'
        assert server.requests[0]["tools"] == [TOOL]


def test_http_errors_are_typed() -> None:
    with FakeLLMServer([Fail(500, "kaput"), Fail(401, "bad key")]) as server:
        client = OpenAIChatClient(base_url=server.base_url, model="m")
        with pytest.raises(LLMRequestFailed) as info:
            client.complete([{"role": "user", "content": "x"}])
        assert info.value.status == 500 and "kaput" in info.value.to_llm()
        with pytest.raises(LLMRequestFailed) as info:
            client.complete([{"role": "user", "content": "x"}])
        assert info.value.status == 401
        assert len(server.requests) == 2  # no SDK retries by default


def test_timeout_is_typed_and_bounded() -> None:
    server = FakeLLMServer([Hang("late")])
    with server:
        client = OpenAIChatClient(base_url=server.base_url, model="m")
        with pytest.raises(LLMTimeout) as info:
            client.complete([{"role": "user", "content": "x"}], timeout=0.3)
        assert info.value.timeout_s == 0.3
        server.release()


def test_unreachable_endpoint() -> None:
    with FakeLLMServer() as server:
        url = server.base_url
    client = OpenAIChatClient(base_url=url, model="m", timeout=5)
    with pytest.raises(LLMRequestFailed, match="cannot reach"):
        client.complete([{"role": "user", "content": "x"}])


def test_the_server_sleeps_until_a_request_or_its_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """No poll: socketserver's ``serve_forever`` wakes every half second, and its
    ``shutdown`` waits for the wake-up, half a second every server the suite stopped
    (0.55 s of the 0.56 s a test of ``test_agent_nudge.py`` took, session 51)."""
    waits: list[float | None] = []

    def recording(base: type[selectors.BaseSelector]) -> type[selectors.BaseSelector]:
        class Recording(base):  # type: ignore[valid-type,misc]
            def select(self, timeout: float | None = None) -> Any:
                if threading.current_thread().name == "fake-llm":
                    waits.append(timeout)
                return super().select(timeout)

        return Recording

    monkeypatch.setattr(selectors, "DefaultSelector", recording(selectors.DefaultSelector))
    monkeypatch.setattr(socketserver, "_ServerSelector", recording(socketserver._ServerSelector))
    with FakeLLMServer(["one", "two"]) as server:
        client = OpenAIChatClient(base_url=server.base_url, model="m", timeout=10)
        replies = [client.complete([{"role": "user", "content": "x"}]).content for _ in "ab"]
    assert replies == ["one", "two"]
    assert waits and all(wait is None or wait == 0 for wait in waits), waits


@pytest.mark.parametrize(
    ("error", "printed"),
    [
        (BrokenPipeError(32, "Broken pipe"), False),
        (ConnectionResetError(104, "reset"), False),
        (ValueError("a handler's own bug"), True),
    ],
)
def test_a_client_that_hung_up_is_no_traceback_but_a_handlers_bug_is(
    capsys: pytest.CaptureFixture[str], error: Exception, printed: bool
) -> None:
    """socketserver prints every handler error; a client that left before its answer (a
    timeout test, a cancelled stream) printed a BrokenPipeError traceback into the suite's
    output (session 51's clean clone). Other errors must still show."""
    with FakeLLMServer(["one"]) as server:
        assert server._server is not None
        try:
            raise error
        except Exception:
            server._server.handle_error(None, ("127.0.0.1", 1))
    assert (type(error).__name__ in capsys.readouterr().err) is printed


def test_not_configured() -> None:
    with pytest.raises(LLMNotConfigured):
        OpenAIChatClient.from_settings(LLMSettings())
    with pytest.raises(LLMNotConfigured, match="model"):
        OpenAIChatClient(base_url="http://127.0.0.1:9/v1", model="")


def test_from_settings_uses_the_key_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_KEY", "secret-123")
    with FakeLLMServer(["ok"]) as server:
        settings = LLMSettings(base_url=server.base_url, model="m", api_key_env="MY_KEY")
        client = OpenAIChatClient.from_settings(settings)
        assert client.complete([{"role": "user", "content": "x"}]).content == "ok"


def test_streaming_and_models_endpoints() -> None:
    with FakeLLMServer([Reply("streamed text here, long enough to chunk")]) as server:
        req = urllib.request.Request(
            server.base_url + "/chat/completions",
            data=json.dumps({"model": "m", "stream": True, "messages": []}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            body = resp.read().decode()
        events = [line[6:] for line in body.splitlines() if line.startswith("data: ")]
        assert events[-1] == "[DONE]"
        text = "".join(
            json.loads(e)["choices"][0]["delta"].get("content") or "" for e in events[:-1]
        )
        assert text == "streamed text here, long enough to chunk"
        with urllib.request.urlopen(server.base_url + "/models", timeout=10) as resp:
            assert json.loads(resp.read())["data"][0]["id"] == "fake-model"


def test_callable_responder_and_failure_knob() -> None:
    with FakeLLMServer(lambda req: f"echo {req['messages'][-1]['content']}") as server:
        client = OpenAIChatClient(base_url=server.base_url, model="m")
        assert client.complete([{"role": "user", "content": "ping"}]).content == "echo ping"
        server.failure = Fail(503)
        with pytest.raises(LLMRequestFailed):
            client.complete([{"role": "user", "content": "ping"}])


def test_fake_chat_client() -> None:
    fake = FakeChatClient(["one", ChatResult(content="two", finish_reason="length")])
    assert isinstance(fake, ChatClient)
    assert fake.complete([{"role": "user", "content": "a"}]).content == "one"
    assert fake.complete([]).finish_reason == "length"
    assert fake.complete([]).content == "ok"
    assert fake.calls[0]["messages"] == [{"role": "user", "content": "a"}]


def test_heavy_imports_stay_lazy() -> None:
    code = (
        "import sys, mnemic.sessions, mnemic.llm, mnemic.testing\n"
        "print(sorted({'openai', 'rich', 'httpx2'} & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("vendor", ["openai", "anthropic"])
def test_any_other_failure_of_either_sdk_is_a_request_failure_with_its_message(
    vendor: str,
) -> None:
    """Both SDK clients type their SDK's failures alike (llm.base.sdk_errors): one of the
    SDK's own errors that is neither a timeout, a status nor a connection keeps its
    message; anything else passes through untouched."""
    import importlib

    from mnemic.llm.anthropic_client import AnthropicChatClient

    sdk = importlib.import_module(vendor)
    base = sdk.OpenAIError if vendor == "openai" else sdk.AnthropicError
    client = (
        OpenAIChatClient(base_url="http://127.0.0.1:9/v1", model="m")
        if vendor == "openai"
        else AnthropicChatClient(model="m")
    )
    with (
        pytest.raises(LLMRequestFailed, match="the SDK gave up") as info,
        client._typed_errors(1.0),
    ):
        raise base("the SDK gave up")
    assert isinstance(info.value.__cause__, base) and info.value.status is None
    with pytest.raises(KeyError), client._typed_errors(1.0):
        raise KeyError("not the SDK's")
