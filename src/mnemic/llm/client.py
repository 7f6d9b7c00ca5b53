"""A small chat-completion client seam: :class:`ChatClient` and its OpenAI-SDK implementation.

Everything in mnemic that talks to a model (session summaries, memory flush and review,
the reference agent) depends on the :class:`ChatClient` protocol, not on a vendor SDK.
:class:`OpenAIChatClient` speaks the OpenAI chat-completions API through the ``openai``
package, so it works with any compatible endpoint (vLLM, llama.cpp server, Ollama,
OpenRouter, ...). The SDK is imported on first use: it costs about half a second.

Failures surface as mnemic errors: :class:`~mnemic.errors.LLMNotConfigured`,
:class:`~mnemic.errors.LLMTimeout` and :class:`~mnemic.errors.LLMRequestFailed` (with the
HTTP status when there is one). The SDK's own retries are off by default
(``max_retries=0``): callers decide whether a retry fits their time budget.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..errors import LLMNotConfigured, LLMRequestFailed, LLMTimeout
from ..extras import needs_extra

if TYPE_CHECKING:
    from ..config import LLMSettings

__all__ = ["ChatClient", "ChatResult", "OpenAIChatClient", "ToolCall", "Usage"]

log = logging.getLogger(__name__)
_FEATURE = "The LLM client (mnemic chat, summaries, flush and review)"


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call requested by the model (``arguments`` is the raw JSON text)."""

    id: str
    name: str
    arguments: str

    def parsed_arguments(self) -> dict[str, Any]:
        """``arguments`` decoded (an empty dict when they are not a JSON object)."""
        try:
            value = json.loads(self.arguments or "{}")
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def to_openai(self) -> dict[str, Any]:
        """The assistant-message ``tool_calls`` entry for this call."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts reported by the endpoint (0 when not reported).

    ``prompt_tokens`` counts every input token of the request, cached ones included;
    ``cache_read_tokens`` of them were served from the provider's prompt cache and
    ``cache_write_tokens`` were written to it (Anthropic reports both; OpenAI-compatible
    endpoints report reads as ``prompt_tokens_details.cached_tokens``, when they do).
    """

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0


@dataclass(frozen=True, slots=True)
class ChatResult:
    """One completion: text, requested tool calls, why it stopped, token usage."""

    content: str | None
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    model: str | None = None


@runtime_checkable
class ChatClient(Protocol):
    """Anything that can complete a chat (messages in the OpenAI format)."""

    def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        timeout: float | None = None,
    ) -> ChatResult:
        """Return the model's reply to ``messages`` (``tools`` in the OpenAI format)."""
        ...


class OpenAIChatClient:
    """:class:`ChatClient` over the ``openai`` SDK (any OpenAI-compatible endpoint).

    ``api_key`` falls back to the environment variable ``api_key_env``; local endpoints
    that need no key get a placeholder. The SDK client is created lazily, once, and is
    safe to share between threads.
    """

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float = 60.0,
        max_retries: int = 0,
    ) -> None:
        if not base_url:
            raise LLMNotConfigured("base_url")
        if not model:
            raise LLMNotConfigured("model")
        self.base_url = base_url
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self._api_key = api_key or os.environ.get(api_key_env, "") or "not-needed"
        self._client: Any = None
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: LLMSettings) -> OpenAIChatClient:
        """Build from the ``[llm]`` settings (raises LLMNotConfigured when empty)."""
        return cls(
            base_url=settings.base_url,
            model=settings.model,
            api_key=settings.api_key or None,
            api_key_env=settings.api_key_env,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
        )

    def _sdk(self) -> Any:
        with self._lock:
            if self._client is None:
                with needs_extra("agent", _FEATURE):
                    import openai

                self._client = openai.OpenAI(
                    base_url=self.base_url,
                    api_key=self._api_key,
                    timeout=self.timeout,
                    max_retries=self.max_retries,
                )
            return self._client

    def _request(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] | None,
        max_tokens: int | None,
        temperature: float | None,
        timeout: float | None,
        stream: bool = False,
    ) -> tuple[dict[str, Any], float]:
        """The SDK's ``chat.completions.create`` arguments, and the request's time limit."""
        kwargs: dict[str, Any] = {"model": self.model, "messages": [dict(m) for m in messages]}
        if stream:
            kwargs["stream"] = True
        if tools:
            kwargs["tools"] = [dict(t) for t in tools]
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        if temperature is not None:
            kwargs["temperature"] = temperature
        limit = self.timeout if timeout is None else timeout
        kwargs["timeout"] = limit
        return kwargs, limit

    @contextlib.contextmanager
    def _typed_errors(self, limit: float) -> Iterator[None]:
        """Raise the SDK's failures inside the block as LLMTimeout or LLMRequestFailed."""
        with needs_extra("agent", _FEATURE):
            import openai

        try:
            yield
        except openai.APITimeoutError as exc:
            raise LLMTimeout(limit) from exc
        except openai.APIStatusError as exc:
            raise LLMRequestFailed(_status_reason(exc), status=exc.status_code) from exc
        except openai.APIConnectionError as exc:
            raise LLMRequestFailed(f"cannot reach {self.base_url}: {exc}") from exc
        except openai.OpenAIError as exc:
            raise LLMRequestFailed(str(exc)) from exc

    def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        timeout: float | None = None,
    ) -> ChatResult:
        """One chat completion; see :class:`ChatClient`."""
        kwargs, limit = self._request(
            messages, tools=tools, max_tokens=max_tokens, temperature=temperature, timeout=timeout
        )
        with self._typed_errors(limit):
            response = self._sdk().chat.completions.create(**kwargs)
        return _result(response)

    def __repr__(self) -> str:
        return f"OpenAIChatClient(base_url={self.base_url!r}, model={self.model!r})"


def _status_reason(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])[:500]
    return str(getattr(exc, "message", exc))[:500]


def _result(response: Any) -> ChatResult:
    choices = getattr(response, "choices", None) or []
    if not choices:
        raise LLMRequestFailed("the endpoint returned no choices")
    choice = choices[0]
    message = choice.message
    calls = []
    for call in getattr(message, "tool_calls", None) or []:
        fn = getattr(call, "function", None)
        if fn is None:
            continue
        calls.append(ToolCall(id=call.id or "", name=fn.name or "", arguments=fn.arguments or ""))
    return ChatResult(
        content=message.content,
        tool_calls=tuple(calls),
        finish_reason=choice.finish_reason,
        usage=usage_of(getattr(response, "usage", None)),
        model=getattr(response, "model", None),
    )


def usage_of(usage: Any) -> Usage:
    """:class:`Usage` from the SDK's usage object (zeros for what it lacks, or for None)."""
    details = getattr(usage, "prompt_tokens_details", None)
    return Usage(
        prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
        completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
        total_tokens=getattr(usage, "total_tokens", 0) or 0,
        cache_read_tokens=getattr(details, "cached_tokens", 0) or 0,
    )
