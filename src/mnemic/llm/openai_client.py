"""Streaming replies: text shown as the model writes it, tool calls assembled from deltas.

:class:`StreamingChatClient` is the protocol (a :class:`~mnemic.llm.ChatClient` that can
also ``stream``); :class:`OpenAIStreamingClient` implements it over the ``openai`` SDK for
any OpenAI-compatible endpoint. A client without ``stream`` is used without streaming.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..errors import LLMRequestFailed
from .client import ChatClient, ChatResult, OpenAIChatClient, ToolCall, Usage, usage_of

__all__ = ["OpenAIStreamingClient", "StreamingChatClient"]


@runtime_checkable
class StreamingChatClient(ChatClient, Protocol):
    """A chat client that can stream its reply (``complete`` gives it all at once)."""

    def stream(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        on_text: Callable[[str], None],
        tools: Sequence[Mapping[str, Any]] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        timeout: float | None = None,
    ) -> ChatResult:
        """One reply; each piece of text is passed to ``on_text`` as it arrives."""
        ...


class OpenAIStreamingClient(OpenAIChatClient):
    """:class:`~mnemic.llm.OpenAIChatClient` plus :meth:`stream`."""

    def stream(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        on_text: Callable[[str], None],
        tools: Sequence[Mapping[str, Any]] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        timeout: float | None = None,
    ) -> ChatResult:
        """Stream one completion; raises the same typed errors as ``complete``."""
        kwargs, limit = self._request(
            messages,
            tools=tools,
            max_tokens=max_tokens,
            temperature=temperature,
            timeout=timeout,
            stream=True,
        )
        parts: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        finish: str | None = None
        usage = Usage()
        model: str | None = None
        try:
            with self._typed_errors(limit):
                for chunk in self._sdk().chat.completions.create(**kwargs):
                    model = getattr(chunk, "model", None) or model
                    u = getattr(chunk, "usage", None)
                    if u is not None:
                        usage = usage_of(u)
                    for choice in getattr(chunk, "choices", None) or []:
                        delta = choice.delta
                        text = getattr(delta, "content", None)
                        if text:
                            parts.append(text)
                            on_text(text)
                        for tc in getattr(delta, "tool_calls", None) or []:
                            slot = calls.setdefault(
                                tc.index, {"id": "", "name": "", "arguments": ""}
                            )
                            if tc.id:
                                slot["id"] = tc.id
                            fn = getattr(tc, "function", None)
                            if fn is not None:
                                if fn.name:
                                    slot["name"] += fn.name
                                if fn.arguments:
                                    slot["arguments"] += fn.arguments
                        if choice.finish_reason:
                            finish = choice.finish_reason
        except OSError as exc:  # the connection dropped mid-stream
            raise LLMRequestFailed(f"the stream from {self.base_url} broke: {exc}") from exc
        tool_calls = tuple(
            ToolCall(id=c["id"] or f"call_{i}", name=c["name"], arguments=c["arguments"])
            for i, c in sorted(calls.items())
        )
        return ChatResult(
            content="".join(parts) if parts else None,
            tool_calls=tool_calls,
            finish_reason=finish,
            usage=usage,
            model=model,
        )
