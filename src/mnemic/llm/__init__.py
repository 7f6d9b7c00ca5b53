"""Language-model access behind a small protocol (:class:`ChatClient`).

``openai`` is imported only when a request is made.
"""

from __future__ import annotations

from .client import ChatClient, ChatResult, OpenAIChatClient, ToolCall, Usage

__all__ = ["ChatClient", "ChatResult", "OpenAIChatClient", "ToolCall", "Usage"]
