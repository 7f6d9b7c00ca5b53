"""Kept for old imports: streamed replies live in :mod:`mnemic.llm.streaming`.

``from mnemic.agent.streaming import OpenAIStreamingClient`` keeps working; new code
imports from :mod:`mnemic.llm` (or :mod:`mnemic.agent`, which re-exports both names).
"""

from __future__ import annotations

from ..llm.streaming import OpenAIStreamingClient, StreamingChatClient

__all__ = ["OpenAIStreamingClient", "StreamingChatClient"]
