"""The chat-completion seam: :class:`ChatClient`, :class:`StreamingChatClient` and the
values they return.

Everything in mnemic that talks to a model (session summaries, memory flush and review,
the reference agent) depends on these protocols, not on a vendor SDK. Messages and tools
are in the OpenAI format whatever the vendor; a reply is a :class:`ChatResult`. The
implementations over the vendors' SDKs share :class:`~mnemic.llm.base.SDKChatClient`:
:mod:`~mnemic.llm.openai_client` (any OpenAI-compatible endpoint) and
:mod:`~mnemic.llm.anthropic_client` (the Anthropic Messages API).

Failures surface as mnemic errors: :class:`~mnemic.errors.LLMNotConfigured`,
:class:`~mnemic.errors.LLMTimeout` and :class:`~mnemic.errors.LLMRequestFailed` (with the
HTTP status when there is one).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

__all__ = ["ChatClient", "ChatResult", "StreamingChatClient", "ToolCall", "Usage"]


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
