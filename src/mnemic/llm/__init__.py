"""Language-model access behind a small protocol (:class:`ChatClient`).

:class:`OpenAIChatClient` implements it over the ``openai`` SDK for any OpenAI-compatible
endpoint; :class:`OpenAIStreamingClient` adds ``stream`` (:class:`StreamingChatClient`).
``openai`` is imported only when a request is made.
"""

from __future__ import annotations

from .client import ChatClient, ChatResult, OpenAIChatClient, ToolCall, Usage
from .streaming import OpenAIStreamingClient, StreamingChatClient

__all__ = [
    "ChatClient",
    "ChatResult",
    "OpenAIChatClient",
    "OpenAIStreamingClient",
    "StreamingChatClient",
    "ToolCall",
    "Usage",
]
