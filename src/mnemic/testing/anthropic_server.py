"""A real local HTTP server speaking the Anthropic Messages API, for tests and the demo.

::

    from mnemic.testing import FakeAnthropicServer, Reply, ToolCallReply

    with FakeAnthropicServer(["first reply", "second reply"]) as server:
        client = AnthropicChatClient(base_url=server.base_url, model="fake")
        client.complete([{"role": "user", "content": "hi"}]).content   # "first reply"
        server.requests[0]["messages"]                                   # what was sent
        server.prefixes[0]          # the bytes the API would cache for that request

It binds ``127.0.0.1`` on a free port and serves ``POST /v1/messages`` from a background
thread, with the same scripting as :class:`~mnemic.testing.FakeLLMServer`: a list of
canned replies or a callable ``request_json -> reply``, where a reply is a string, a
:class:`~mnemic.testing.Reply` (text and/or tool calls), a :class:`~mnemic.testing.Fail`
(an HTTP error with the API's error body), a :class:`~mnemic.testing.Hang` (held until
:meth:`release`) or a full message dict sent as is. :class:`StreamError` ends a streamed
answer with an ``error`` event after some text. ``"stream": true`` is answered with the
API's server-sent events: ``message_start``, ``ping``, ``content_block_start`` /
``content_block_delta`` (``text_delta``, ``input_json_delta``) / ``content_block_stop``
per block, ``message_delta`` (stop reason, output tokens) and ``message_stop``
(https://platform.claude.com/docs/en/build-with-claude/streaming).

The prompt cache is emulated from the documented rule, independently of mnemic's client:
the cacheable prefix of a request is its tools, then its system blocks, then its messages,
up to and including the last block that carries ``cache_control``
(https://platform.claude.com/docs/en/build-with-claude/prompt-caching). It is rendered as
canonical JSON (:func:`cached_prefix`) and kept per request in :attr:`prefixes`; the
reported usage counts the prefix as ``cache_read_input_tokens`` when an earlier request
had the same bytes and as ``cache_creation_input_tokens`` otherwise (about 4 characters a
token, no minimum length).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from ._loopback import JsonHandler, LoopbackServer
from .llm_server import Fail, Hang, Reply

__all__ = ["FakeAnthropicServer", "StreamError", "breakpoints", "cached_prefix"]

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class StreamError:
    """Stream ``text`` then an ``error`` event (a streamed request; otherwise HTTP 529)."""

    text: str = "partial "
    type: str = "overloaded_error"
    message: str = "Overloaded (scripted)"


Responder = Callable[[dict[str, Any]], Any]
Usage_ = tuple[int, bool]  # (cached prefix tokens, was it a cache hit)


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _parts(request: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Every cacheable block of ``request`` in the API's order, with where it is."""
    tools = request.get("tools") or []
    out: list[tuple[str, Any]] = [(f"tools[{i}]", t) for i, t in enumerate(tools)]
    system = request.get("system")
    if isinstance(system, str):
        out.append(("system", {"type": "text", "text": system}))
    else:
        out += [(f"system[{i}]", b) for i, b in enumerate(system or [])]
    for i, m in enumerate(request.get("messages") or []):
        content = m.get("content")
        if isinstance(content, str):
            out.append((f"messages[{i}]", {"role": m.get("role"), "text": content}))
        else:
            out += [
                (f"messages[{i}].content[{j}]", {"role": m.get("role"), **b})
                for j, b in enumerate(content or [])
            ]
    return out


def breakpoints(request: Mapping[str, Any]) -> list[str]:
    """Where ``request`` carries ``cache_control`` (``tools[4]``, ``system[0]``, ...)."""
    return [where for where, block in _parts(request) if block.get("cache_control")]


def cached_prefix(request: Mapping[str, Any]) -> bytes:
    """The cacheable prefix of ``request``: its blocks up to and including the last one
    with ``cache_control`` (tools, system, messages), as canonical JSON; b'' without one."""
    parts = _parts(request)
    marked = [i for i, (_, block) in enumerate(parts) if block.get("cache_control")]
    if not marked:
        return b""
    return _canonical([block for _, block in parts[: marked[-1] + 1]])


class FakeAnthropicServer(LoopbackServer):
    """See the module docstring. ``base_url`` is ``http://127.0.0.1:PORT`` (the SDK adds
    ``/v1/messages``). ``api_key``: when set, a request that sends another key (as
    ``x-api-key`` or ``Authorization: Bearer``, the SDK's way) or none gets 401."""

    def __init__(
        self,
        responder: Iterable[Any] | Responder | None = None,
        *,
        model: str = "fake-claude",
        default: Any = "ok",
        api_key: str | None = None,
    ) -> None:
        super().__init__(responder, model=model, default=default)
        self.api_key = api_key
        self.headers: list[dict[str, str]] = []
        """The headers of every request (lower-case names)."""
        self.prefixes: list[bytes] = []
        """:func:`cached_prefix` of every request."""
        self.failure: Fail | None = None
        self._seen: set[str] = set()

    _thread_name = "fake-anthropic"
    _url_path = ""

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        return _make_handler(self)

    def _next_reply(self, request: dict[str, Any], headers: dict[str, str]) -> tuple[Any, Usage_]:
        prefix = cached_prefix(request)
        with self._lock:
            self.requests.append(request)
            self.headers.append(headers)
            self.prefixes.append(prefix)
            digest = hashlib.sha256(prefix).hexdigest()
            hit = bool(prefix) and digest in self._seen
            if prefix:
                self._seen.add(digest)
            cache = (len(prefix) // 4, hit)
            if self.failure is not None:
                return self.failure, cache
            if self.hang:
                return Hang(self._queue.popleft() if self._queue else self.default), cache
            if self._queue:
                return self._queue.popleft(), cache
        if self._responder is not None:
            return self._responder(request), cache
        return self.default, cache


def _message(
    server: FakeAnthropicServer, reply: Any, request: dict[str, Any], cache: Usage_
) -> dict[str, Any]:
    if isinstance(reply, dict):
        return reply
    if isinstance(reply, StreamError):
        reply = Reply(content=reply.text)
    if not isinstance(reply, Reply):
        reply = Reply(content=str(reply))
    content: list[dict[str, Any]] = []
    if reply.content:
        content.append({"type": "text", "text": reply.content})
    for i, call in enumerate(reply.tool_calls):
        args = call.arguments
        content.append(
            {
                "type": "tool_use",
                "id": call.id or f"toolu_{server._next_id()}_{i}",
                "name": call.name,
                "input": json.loads(args) if isinstance(args, str) else dict(args),
            }
        )
    cached, hit = cache
    total = len(_canonical({k: request.get(k) for k in ("tools", "system", "messages")})) // 4
    usage = {
        "input_tokens": max(0, total - cached),
        "output_tokens": max(1, len(reply.content or "") // 4),
        "cache_creation_input_tokens": 0 if hit else cached,
        "cache_read_input_tokens": cached if hit else 0,
    }
    usage.update(reply.usage or {})
    stop = reply.finish_reason or ("tool_use" if reply.tool_calls else "end_turn")
    return {
        "id": f"msg_fake_{server._next_id()}",
        "type": "message",
        "role": "assistant",
        "model": request.get("model") or server.model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }


def _events(message: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The server-sent events of a streamed ``message``."""
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    out: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start}),
        ("ping", {"type": "ping"}),
    ]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            first: dict[str, Any] = {"type": "text", "text": ""}
            deltas = [
                {"type": "text_delta", "text": block["text"][i : i + 16]}
                for i in range(0, len(block["text"]), 16)
            ]
        else:
            first = {**block, "input": {}}
            raw = json.dumps(block["input"])
            deltas = [
                {"type": "input_json_delta", "partial_json": raw[i : i + 12]}
                for i in range(0, len(raw), 12)
            ]
        start_block = {"type": "content_block_start", "index": index, "content_block": first}
        out.append(("content_block_start", start_block))
        out += [
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d})
            for d in deltas
        ]
        out.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    out.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": usage["output_tokens"]},
            },
        )
    )
    out.append(("message_stop", {"type": "message_stop"}))
    return out


def _make_handler(server: FakeAnthropicServer) -> type[BaseHTTPRequestHandler]:
    class Handler(JsonHandler):
        def _error(self, status: int, message: str, kind: str | None = None) -> None:
            kind = kind or _ERROR_TYPES.get(status, "api_error")
            body = {"type": "error", "error": {"type": kind, "message": message}}
            self._send_json(status, body)

        def _event(self, name: str, data: dict[str, Any]) -> None:
            self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()

        def do_POST(self) -> None:
            raw = self._read_body()
            if self.path.split("?")[0].rstrip("/") != "/v1/messages":
                self._error(404, f"no route {self.path}")
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            bearer = headers.get("authorization", "").removeprefix("Bearer ")
            if server.api_key is not None and server.api_key not in (
                headers.get("x-api-key"),
                bearer,
            ):
                self._error(401, "invalid API key")
                return
            try:
                request = json.loads(raw or b"{}")
            except ValueError:
                self._error(400, "the request body is not valid JSON")
                return
            if not isinstance(request, dict) or "max_tokens" not in request:
                self._error(400, "max_tokens: Field required")
                return
            reply, cache = server._next_reply(request, headers)
            server.arrived.release()
            if isinstance(reply, Hang):
                server._released.wait()
                reply = reply.then
            if isinstance(reply, Fail):
                self._error(reply.status, reply.message)
                return
            if isinstance(reply, StreamError) and not request.get("stream"):
                self._error(529, reply.message, reply.type)
                return
            message = _message(server, reply, request, cache)
            if not request.get("stream"):
                self._send_json(200, message)
                return
            self._start_events()
            events = _events(message)
            if isinstance(reply, StreamError):  # the text so far, then the error
                events = [e for e in events if e[0] in ("message_start", "ping")] + [
                    e for e in events if e[0].startswith("content_block")
                ][:3]
                error = {"type": reply.type, "message": reply.message}
                events.append(("error", {"type": "error", "error": error}))
            for name, data in events:
                self._event(name, data)
            self.close_connection = True

    return Handler
