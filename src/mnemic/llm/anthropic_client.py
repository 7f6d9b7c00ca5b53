"""The Anthropic Messages API behind the :class:`~mnemic.llm.ChatClient` protocol.

:class:`AnthropicChatClient` takes what every mnemic caller already builds (messages and
tools in the OpenAI format) and sends a Messages API request through the official
``anthropic`` SDK (the ``anthropic`` extra; imported on first use):

* the leading ``system`` messages become ``system`` text blocks; the frozen system
  prompt of an :class:`~mnemic.agent.AgentSession` is the first of them;
* an assistant message's ``tool_calls`` become ``tool_use`` blocks, ``tool`` messages
  become ``tool_result`` blocks of the next user message (consecutive messages of one role
  are merged, as the API wants them);
* tools are rendered with :meth:`mnemic.tooling.ToolSpec.anthropic`.

Prompt caching: the API caches a request's prefix in the order tools, system, messages,
up to a block marked ``cache_control: {"type": "ephemeral"}`` (see
https://platform.claude.com/docs/en/build-with-claude/prompt-caching). With ``cache=True``
(the default) two breakpoints are set: on the last tool and on the last leading system
block. Both are fixed for a whole session (the tools do not change, the system prompt is
frozen), so every request of a session repeats the cached prefix byte for byte; per-turn
material lives in the user messages after it. :func:`anthropic_request` shows exactly what
is sent.

Results come back as :class:`~mnemic.llm.ChatResult` in the OpenAI vocabulary
(``finish_reason`` ``stop``, ``tool_calls``, ``length``; tool arguments as JSON text) and
usage with the cache reads and writes. Failures are the same typed errors as the OpenAI
client's: :class:`~mnemic.errors.LLMTimeout`, :class:`~mnemic.errors.LLMRequestFailed`
(with the HTTP status, the API's error type and what to do), and
:class:`~mnemic.errors.MissingDependency` naming the ``anthropic`` extra.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Unpack

from ..errors import LLMRequestFailed, LLMTimeout
from ..extras import needs_extra
from ..tooling import ToolSpec
from .base import ClientSettings, SDKStreamingClient, StreamedReply, sdk_errors, status_reason
from .client import ChatResult, ToolCall, Usage

__all__ = [
    "CACHE_CONTROL",
    "AnthropicChatClient",
    "anthropic_request",
    "anthropic_result",
]

_FEATURE = "The Anthropic Messages API client (mnemic chat --api anthropic)"
CACHE_CONTROL: dict[str, str] = {"type": "ephemeral"}
"""The breakpoint marker put on the last tool and on the last frozen system block."""
DEFAULT_MAX_TOKENS = 4096
_FINISH = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
}
_HINTS = {
    403: "the API key may not use this model or endpoint",
    404: "check [llm] model and base_url (the SDK adds /v1/messages itself)",
    429: "rate limited: wait a moment and try again, or raise [llm] max_retries",
    529: "the API is overloaded: try again shortly",
}


def _text(content: Any) -> str:
    """The text of an OpenAI message ``content`` (a string, None or a list of parts)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(p.get("text") or "")
            for p in content
            if isinstance(p, Mapping) and p.get("type") == "text"
        )
    return str(content)


def _tool_input(arguments: Any) -> dict[str, Any]:
    if isinstance(arguments, Mapping):
        return dict(arguments)
    try:
        value = json.loads(arguments or "{}")
    except (TypeError, ValueError):
        return {"arguments": str(arguments)}  # kept, not lost: the model sees what it sent
    return value if isinstance(value, dict) else {"arguments": value}


def _append(out: list[dict[str, Any]], role: str, blocks: list[dict[str, Any]]) -> None:
    if not blocks:
        return
    if out and out[-1]["role"] == role:
        content = out[-1]["content"]
        if blocks[0]["type"] == "tool_result":  # results go before any text of the message
            at = next((i for i, b in enumerate(content) if b["type"] != "tool_result"), None)
            if at is not None:
                content[at:at] = blocks
                return
        content.extend(blocks)
    else:
        out.append({"role": role, "content": blocks})


def _tool(tool: Mapping[str, Any]) -> dict[str, Any]:
    if "input_schema" in tool:  # already in the Anthropic format
        return dict(tool)
    fn = tool.get("function") or tool
    return ToolSpec(
        str(fn.get("name") or ""),
        str(fn.get("description") or ""),
        dict(fn.get("parameters") or {"type": "object", "properties": {}}),
    ).anthropic()


def anthropic_request(
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] | None = None,
    *,
    cache: bool = True,
) -> dict[str, Any]:
    """The ``system``, ``messages`` and ``tools`` of a Messages API request for OpenAI-format
    ``messages`` and ``tools`` (see the module docstring). With ``cache``, the last tool and
    the last leading system block carry :data:`CACHE_CONTROL`. Pure: the same input gives
    the same output, key order included."""
    system: list[dict[str, Any]] = []
    start = 0
    while start < len(messages) and messages[start].get("role") == "system":
        text = _text(messages[start].get("content"))
        if text:
            system.append({"type": "text", "text": text})
        start += 1
    out: list[dict[str, Any]] = []
    for m in messages[start:]:
        role = m.get("role")
        if role == "assistant":
            blocks: list[dict[str, Any]] = []
            text = _text(m.get("content"))
            if text:
                blocks.append({"type": "text", "text": text})
            for call in m.get("tool_calls") or []:
                fn = call.get("function") or {}
                blocks.append(
                    {
                        "type": "tool_use",
                        "id": str(call.get("id") or ""),
                        "name": str(fn.get("name") or ""),
                        "input": _tool_input(fn.get("arguments")),
                    }
                )
            _append(out, "assistant", blocks)
        elif role == "tool":
            result = {
                "type": "tool_result",
                "tool_use_id": str(m.get("tool_call_id") or ""),
                "content": _text(m.get("content")),
            }
            _append(out, "user", [result])
        else:  # user, or a system message inside the conversation
            text = _text(m.get("content"))
            _append(out, "user", [{"type": "text", "text": text}] if text else [])
    rendered = [_tool(t) for t in tools or ()]
    if cache:
        if rendered:
            rendered[-1] = {**rendered[-1], "cache_control": dict(CACHE_CONTROL)}
        if system:
            system[-1] = {**system[-1], "cache_control": dict(CACHE_CONTROL)}
    request: dict[str, Any] = {"messages": out}
    if system:
        request["system"] = system
    if rendered:
        request["tools"] = rendered
    return request


def _usage(usage: Any, previous: Usage | None = None) -> Usage:
    """:class:`Usage` from the API's usage (``input_tokens`` excludes cached tokens)."""
    prev = previous or Usage()

    def get(name: str, old: int) -> int:
        value = getattr(usage, name, None)
        return old if value is None else int(value)

    read = get("cache_read_input_tokens", prev.cache_read_tokens)
    write = get("cache_creation_input_tokens", prev.cache_write_tokens)
    old_fresh = prev.prompt_tokens - prev.cache_read_tokens - prev.cache_write_tokens
    fresh = get("input_tokens", old_fresh)
    out = get("output_tokens", prev.completion_tokens)
    prompt = fresh + read + write
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=out,
        total_tokens=prompt + out,
        cache_read_tokens=read,
        cache_write_tokens=write,
    )


def _arguments(raw: Any) -> str:
    """Tool input as compact JSON text (the same text whether streamed or not)."""
    value: Any = raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw or "{}")
        except ValueError:
            return raw
    return json.dumps(value, ensure_ascii=False)


def _finish(stop: str | None) -> str | None:
    """The OpenAI ``finish_reason`` of an Anthropic ``stop_reason``."""
    return _FINISH.get(stop, stop) if stop else None


def anthropic_result(message: Any) -> ChatResult:
    """A :class:`ChatResult` from the SDK's ``Message``."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in getattr(message, "content", None) or []:
        kind = getattr(block, "type", None)
        if kind == "text":
            texts.append(block.text)
        elif kind == "tool_use":
            calls.append(ToolCall(block.id, block.name, _arguments(block.input)))
    return ChatResult(
        content="".join(texts) if texts else None,
        tool_calls=tuple(calls),
        finish_reason=_finish(getattr(message, "stop_reason", None)),
        usage=_usage(getattr(message, "usage", None)),
        model=getattr(message, "model", None),
    )


class AnthropicChatClient(SDKStreamingClient):
    """:class:`~mnemic.llm.StreamingChatClient` over the ``anthropic`` SDK.

    ``base_url`` empty: the SDK's default (the Anthropic API, or ``ANTHROPIC_BASE_URL``).
    ``api_key`` falls back to the environment variable ``api_key_env``
    (``ANTHROPIC_API_KEY``); without either a placeholder is sent (a local stand-in needs
    none; the real API answers 401, reported with what to set). ``max_tokens`` is the
    answer limit the API requires on every request. ``cache=False`` sends no
    ``cache_control`` breakpoints. The other settings are those of
    :class:`~mnemic.llm.base.SDKChatClient`.
    """

    key_variable = "ANTHROPIC_API_KEY"

    def __init__(
        self,
        *,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        cache: bool = True,
        **settings: Unpack[ClientSettings],
    ) -> None:
        super().__init__(**settings)
        self.max_tokens = max_tokens
        self.cache = cache

    @property
    def where(self) -> str:
        """The endpoint, for messages."""
        return self.base_url or "the Anthropic API"

    def _connect(self) -> Any:
        with needs_extra("anthropic", _FEATURE):
            import anthropic

        return anthropic.Anthropic(
            api_key=self._api_key,
            base_url=self.base_url or None,
            timeout=self.timeout,
            max_retries=self.max_retries,
        )

    def request(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> dict[str, Any]:
        """The request body this client sends for ``messages`` (without ``stream``)."""
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": max_tokens or self.max_tokens,
            **anthropic_request(messages, tools, cache=self.cache),
        }
        if temperature is not None:
            body["temperature"] = temperature
        return body

    @contextlib.contextmanager
    def _typed_errors(self, limit: float) -> Iterator[None]:
        """Raise the SDK's and the transport's failures as LLMTimeout / LLMRequestFailed."""
        with needs_extra("anthropic", _FEATURE):
            import anthropic
            import httpx2

        try:
            with sdk_errors(anthropic, anthropic.AnthropicError, limit, self.where, self._refused):
                yield
        except httpx2.TimeoutException as exc:  # mid-stream: the SDK does not wrap these
            raise LLMTimeout(limit) from exc
        except (httpx2.TransportError, OSError) as exc:
            raise LLMRequestFailed(f"the stream from {self.where} broke: {exc}") from exc

    def _refused(self, exc: Any) -> LLMRequestFailed:
        """An HTTP status the API answered with: the error's type and message, and what to
        do about it; status 200 is an error event inside a streamed answer."""
        status: int | None = exc.status_code
        reason = status_reason(exc, with_type=True)
        if status == 200:  # an error event inside a streamed answer
            status = None
            reason = f"the stream from {self.where} reported an error: {reason}"
        hint = _HINTS.get(status or 0)
        if status == 401:
            hint = f"check the API key: set {self.api_key_env}, or [llm] api_key"
        return LLMRequestFailed(f"{reason}; {hint}" if hint else reason, status=status)

    def _send(
        self,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Mapping[str, Any]] | None,
        max_tokens: int | None,
        temperature: float | None,
        limit: float,
        *,
        stream: bool,
    ) -> Any:
        body = self.request(messages, tools=tools, max_tokens=max_tokens, temperature=temperature)
        if stream:
            body["stream"] = True
        return self._sdk().messages.create(**body, timeout=limit)

    def _result(self, reply: Any) -> ChatResult:
        return anthropic_result(reply)

    def _read_stream(self, events: Iterable[Any], reply: StreamedReply) -> ChatResult:
        for event in events:
            kind = getattr(event, "type", None)
            if kind == "message_start":
                reply.model = getattr(event.message, "model", None)
                reply.usage = _usage(getattr(event.message, "usage", None))
            elif kind == "content_block_start":
                block = event.content_block
                if block.type == "tool_use":
                    reply.call(event.index, id=block.id, name=block.name)
                elif block.type == "text":
                    reply.text(block.text)
            elif kind == "content_block_delta":
                delta = event.delta
                if delta.type == "text_delta":
                    reply.text(delta.text)
                elif delta.type == "input_json_delta":
                    reply.call(event.index, arguments=delta.partial_json)
            elif kind == "message_delta":
                reply.finish_reason = (
                    _finish(getattr(event.delta, "stop_reason", None)) or reply.finish_reason
                )
                reply.usage = _usage(getattr(event, "usage", None), reply.usage)
        return reply.result("toolu_", _arguments)
