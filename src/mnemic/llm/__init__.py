"""Language-model access behind a small protocol (:class:`ChatClient`).

:class:`OpenAIChatClient` implements it over the ``openai`` SDK for any OpenAI-compatible
endpoint; :class:`OpenAIStreamingClient` adds ``stream`` (:class:`StreamingChatClient`).
:class:`AnthropicChatClient` implements both over the ``anthropic`` SDK for the Anthropic
Messages API, with prompt-cache breakpoints after the frozen system prompt;
:func:`client_from_settings` picks one by ``[llm] api``. The SDKs are imported only when a
request is made. Both clients share :class:`~mnemic.llm.base.SDKChatClient`.
"""

from __future__ import annotations

from .anthropic_client import AnthropicChatClient, anthropic_request
from .client import ChatClient, ChatResult, StreamingChatClient, ToolCall, Usage
from .openai_client import OpenAIChatClient, OpenAIStreamingClient
from .select import client_from_settings

__all__ = [
    "AnthropicChatClient",
    "ChatClient",
    "ChatResult",
    "OpenAIChatClient",
    "OpenAIStreamingClient",
    "StreamingChatClient",
    "ToolCall",
    "Usage",
    "anthropic_request",
    "client_from_settings",
]
