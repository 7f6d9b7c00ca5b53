"""Streaming replies: text shown as the model writes it, tool calls assembled from deltas.

:class:`StreamingChatClient` is the protocol (a :class:`~mnemic.llm.ChatClient` that can
also ``stream``); :class:`OpenAIStreamingClient` implements it over the ``openai`` SDK for
any OpenAI-compatible endpoint. A client without ``stream`` is used without streaming.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..errors import LLMRequestFailed, LLMTimeout
from ..llm.client import ChatResult, OpenAIChatClient, ToolCall, Usage

__all__ = ["OpenAIStreamingClient", "StreamingChatClient"]


@runtime_checkable
class StreamingChatClient(Protocol):
    """A chat client that can stream its reply."""

    def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        timeout: float | None = None,
    ) -> ChatResult:
        """One reply, all at once."""
        ...

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
        import openai

        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": [dict(m) for m in messages],
            "stream": True,
        }
        if tools:
            kwargs["tools"] = [dict(t) for t in tools]
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        if temperature is not None:
            kwargs["temperature"] = temperature
        limit = self.timeout if timeout is None else timeout
        kwargs["timeout"] = limit
        parts: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        finish: str | None = None
        usage = Usage()
        model: str | None = None
        try:
            for chunk in self._sdk().chat.completions.create(**kwargs):
                model = getattr(chunk, "model", None) or model
                u = getattr(chunk, "usage", None)
                if u is not None:
                    usage = Usage(
                        getattr(u, "prompt_tokens", 0) or 0,
                        getattr(u, "completion_tokens", 0) or 0,
                        getattr(u, "total_tokens", 0) or 0,
                    )
                for choice in getattr(chunk, "choices", None) or []:
                    delta = choice.delta
                    text = getattr(delta, "content", None)
                    if text:
                        parts.append(text)
                        on_text(text)
                    for tc in getattr(delta, "tool_calls", None) or []:
                        slot = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
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
        except openai.APITimeoutError as exc:
            raise LLMTimeout(limit) from exc
        except openai.APIStatusError as exc:
            raise LLMRequestFailed(_reason(exc), status=exc.status_code) from exc
        except openai.APIConnectionError as exc:
            raise LLMRequestFailed(f"cannot reach {self.base_url}: {exc}") from exc
        except openai.OpenAIError as exc:
            raise LLMRequestFailed(str(exc)) from exc
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


def _reason(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])[:500]
    return str(getattr(exc, "message", exc))[:500]
