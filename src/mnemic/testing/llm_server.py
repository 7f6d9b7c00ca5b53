"""A real local HTTP server speaking the OpenAI chat-completions API, for tests.

::

    from mnemic.testing import FakeLLMServer

    with FakeLLMServer(["first reply", "second reply"]) as server:
        client = OpenAIChatClient(base_url=server.base_url, model="fake")
        client.complete([{"role": "user", "content": "hi"}]).content   # "first reply"
        server.requests[0]["messages"]                                   # what was sent

The server binds ``127.0.0.1`` on a free port and serves ``POST /v1/chat/completions``
(and ``GET /v1/models``) from a background thread. What it answers comes from a
*responder*: a list (queue) of canned replies, or a callable ``request_json -> reply``.
A reply is a string (the assistant's text), a :class:`Reply` (text and/or tool calls,
finish reason, usage), a :class:`Fail` (an HTTP error status), a :class:`Hang` (hold the
request until :meth:`FakeLLMServer.release` or shutdown: the client's timeout fires), or
a full completion dict sent as is. ``failure`` and ``hang`` knobs apply to every request.

Streaming (``"stream": true``) is answered as server-sent events built from the same
replies, chunk by chunk.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from ._loopback import JsonHandler, LoopbackServer

__all__ = ["Fail", "FakeLLMServer", "Hang", "Reply", "ToolCallReply"]


@dataclass(frozen=True)
class ToolCallReply:
    """A tool call the fake model makes (``arguments`` as an object or JSON text)."""

    name: str
    arguments: Mapping[str, Any] | str = field(default_factory=dict)
    id: str | None = None


@dataclass(frozen=True)
class Reply:
    """A scripted assistant turn."""

    content: str | None = None
    tool_calls: Sequence[ToolCallReply] = ()
    finish_reason: str | None = None
    usage: Mapping[str, int] | None = None


@dataclass(frozen=True)
class Fail:
    """Answer with an HTTP error."""

    status: int = 500
    message: str = "internal error (scripted)"


@dataclass(frozen=True)
class Hang:
    """Hold the request open until released (then answer ``then``)."""

    then: Any = "released"


Responder = Callable[[dict[str, Any]], Any]


class FakeLLMServer(LoopbackServer):
    """See the module docstring. Use as a context manager; ``base_url`` ends in ``/v1``."""

    def __init__(
        self,
        responder: Iterable[Any] | Responder | None = None,
        *,
        model: str = "fake-model",
        default: Any = "ok",
    ) -> None:
        super().__init__(responder, model=model, default=default)
        self.failure: Fail | None = None

    # --- lifecycle and scripting: LoopbackServer ----------------------------------------
    _thread_name = "fake-llm"
    _url_path = "/v1"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        return _make_handler(self)

    def _next_reply(self, request: dict[str, Any]) -> Any:
        with self._lock:
            self.requests.append(request)
            self._counter += 1
            if self.failure is not None:
                return self.failure
            if self.hang:
                return Hang(self._queue.popleft() if self._queue else self.default)
            if self._queue:
                return self._queue.popleft()
        if self._responder is not None:
            return self._responder(request)
        return self.default

    def _wait_released(self) -> None:
        self._released.wait()


def _completion(server: FakeLLMServer, reply: Any, request: dict[str, Any]) -> dict[str, Any]:
    if isinstance(reply, dict):
        return reply
    if isinstance(reply, str):
        reply = Reply(content=reply)
    if not isinstance(reply, Reply):
        reply = Reply(content=str(reply))
    calls = []
    for i, call in enumerate(reply.tool_calls):
        args = call.arguments
        calls.append(
            {
                "id": call.id or f"call_{server._next_id()}_{i}",
                "type": "function",
                "function": {
                    "name": call.name,
                    "arguments": args if isinstance(args, str) else json.dumps(dict(args)),
                },
            }
        )
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if calls:
        message["tool_calls"] = calls
    prompt = sum(len(str(m.get("content") or "")) for m in request.get("messages", [])) // 4
    completion = len(reply.content or "") // 4
    usage = dict(reply.usage or {})
    usage.setdefault("prompt_tokens", prompt)
    usage.setdefault("completion_tokens", completion)
    usage.setdefault("total_tokens", usage["prompt_tokens"] + usage["completion_tokens"])
    return {
        "id": f"chatcmpl-fake-{server._next_id()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model") or server.model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": reply.finish_reason or ("tool_calls" if calls else "stop"),
            }
        ],
        "usage": usage,
    }


def _chunks(completion: dict[str, Any]) -> list[dict[str, Any]]:
    choice = completion["choices"][0]
    message = choice["message"]
    base = {k: completion[k] for k in ("id", "created", "model")}
    base["object"] = "chat.completion.chunk"
    out = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant"}}]}]
    text = message.get("content") or ""
    for start in range(0, len(text), 16):
        piece = text[start : start + 16]
        out.append({**base, "choices": [{"index": 0, "delta": {"content": piece}}]})
    for i, call in enumerate(message.get("tool_calls") or []):
        delta = {"tool_calls": [{"index": i, **call}]}
        out.append({**base, "choices": [{"index": 0, "delta": delta}]})
    out.append(
        {
            **base,
            "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}],
            "usage": completion.get("usage"),
        }
    )
    return out


def _make_handler(server: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(JsonHandler):
        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._send_json(
                    200,
                    {"object": "list", "data": [{"id": server.model, "object": "model"}]},
                )
            else:
                self._send_json(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            raw = self._read_body()
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})
                return
            try:
                request = json.loads(raw or b"{}")
            except ValueError:
                self._send_json(400, {"error": {"message": "invalid JSON"}})
                return
            reply = server._next_reply(request)
            server.arrived.release()
            if isinstance(reply, Hang):
                server._wait_released()
                reply = reply.then
            if isinstance(reply, Fail):
                self._send_json(
                    reply.status,
                    {"error": {"message": reply.message, "type": "server_error", "code": None}},
                )
                return
            completion = _completion(server, reply, request)
            if request.get("stream"):
                self._start_events()
                for chunk in _chunks(completion):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True
                return
            self._send_json(200, completion)

    return Handler
