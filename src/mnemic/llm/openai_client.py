"""The OpenAI chat-completions API behind the :class:`~mnemic.llm.ChatClient` protocol.

:class:`OpenAIChatClient` speaks it through the ``openai`` package (the ``agent`` extra),
so it works with any compatible endpoint (vLLM, llama.cpp server, Ollama, OpenRouter,
...); :class:`OpenAIStreamingClient` adds ``stream``
(:class:`~mnemic.llm.StreamingChatClient`): text shown as the model writes it, tool calls
assembled from deltas. A client without ``stream`` is used without streaming. What both
share with the Anthropic client (settings, the SDK made once, time limits) is
:class:`~mnemic.llm.base.SDKChatClient`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import LLMRequestFailed
from ..extras import needs_extra
from .base import SDKChatClient, SDKStreamingClient, StreamedReply, sdk_errors, status_reason
from .client import ChatResult, ToolCall, Usage

__all__ = ["OpenAIChatClient", "OpenAIStreamingClient", "usage_of"]

_FEATURE = "The LLM client (mnemic chat, summaries, flush and review)"


class OpenAIChatClient(SDKChatClient):
    """:class:`~mnemic.llm.ChatClient` over the ``openai`` SDK (any OpenAI-compatible
    endpoint: ``base_url`` is required). ``api_key`` falls back to the environment
    variable ``api_key_env`` (``OPENAI_API_KEY``); local endpoints that need no key get
    a placeholder."""

    key_variable = "OPENAI_API_KEY"
    needs_base_url = True

    def _connect(self) -> Any:
        with needs_extra("agent", _FEATURE):
            import openai

        return openai.OpenAI(
            base_url=self.base_url,
            api_key=self._api_key,
            timeout=self.timeout,
            max_retries=self.max_retries,
        )

    def _typed_errors(self, limit: float) -> contextlib.AbstractContextManager[None]:
        """Raise the SDK's failures inside the block as LLMTimeout or LLMRequestFailed."""
        with needs_extra("agent", _FEATURE):
            import openai

        return sdk_errors(openai, openai.OpenAIError, limit, self.where, _refused)

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
        kwargs: dict[str, Any] = {"model": self.model, "messages": [dict(m) for m in messages]}
        if stream:
            kwargs["stream"] = True
        if tools:
            kwargs["tools"] = [dict(t) for t in tools]
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        if temperature is not None:
            kwargs["temperature"] = temperature
        return self._sdk().chat.completions.create(**kwargs, timeout=limit)

    def _result(self, reply: Any) -> ChatResult:
        choices = getattr(reply, "choices", None) or []
        if not choices:
            raise LLMRequestFailed("the endpoint returned no choices")
        choice = choices[0]
        message = choice.message
        calls = []
        for call in getattr(message, "tool_calls", None) or []:
            fn = getattr(call, "function", None)
            if fn is None:
                continue
            calls.append(
                ToolCall(id=call.id or "", name=fn.name or "", arguments=fn.arguments or "")
            )
        return ChatResult(
            content=message.content,
            tool_calls=tuple(calls),
            finish_reason=choice.finish_reason,
            usage=usage_of(getattr(reply, "usage", None)),
            model=getattr(reply, "model", None),
        )


def _refused(exc: Any) -> LLMRequestFailed:
    """An HTTP status the endpoint answered with: its message and status."""
    return LLMRequestFailed(status_reason(exc), status=exc.status_code)


class OpenAIStreamingClient(SDKStreamingClient, OpenAIChatClient):
    """:class:`OpenAIChatClient` plus :meth:`stream`."""

    def _read_stream(self, events: Iterable[Any], reply: StreamedReply) -> ChatResult:
        for chunk in events:
            reply.model = getattr(chunk, "model", None) or reply.model
            usage = getattr(chunk, "usage", None)
            if usage is not None:
                reply.usage = usage_of(usage)
            for choice in getattr(chunk, "choices", None) or []:
                delta = choice.delta
                reply.text(getattr(delta, "content", None))
                for tc in getattr(delta, "tool_calls", None) or []:
                    fn = getattr(tc, "function", None)
                    reply.call(
                        tc.index,
                        id=tc.id,
                        name=fn.name if fn is not None else None,
                        arguments=fn.arguments if fn is not None else None,
                    )
                if choice.finish_reason:
                    reply.finish_reason = choice.finish_reason
        return reply.result("call_")


def usage_of(usage: Any) -> Usage:
    """:class:`Usage` from the SDK's usage object (zeros for what it lacks, or for None)."""
    details = getattr(usage, "prompt_tokens_details", None)
    return Usage(
        prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
        completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
        total_tokens=getattr(usage, "total_tokens", 0) or 0,
        cache_read_tokens=getattr(details, "cached_tokens", 0) or 0,
    )
