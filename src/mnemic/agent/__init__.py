"""Agent integration: the turn-lifecycle facade, extraction, compression, the chat loop.

* :class:`AgentSession` (:mod:`.session`): what an agent framework calls, turn by turn;
  :func:`preview_prompt` (:mod:`.startup`): the prompt a new session would start with.
* :class:`ChatAgent` (:mod:`.chat`): the reference loop over a :class:`~mnemic.llm.ChatClient`.
* :func:`run_flush`, :func:`run_review` (:mod:`.extract`): the pre-compression memory flush
  and the background review, as unattended writers.
* :mod:`.compress`: token estimates, the split, the summary.
* :class:`ToolRegistry` (:mod:`.tools`): tools by name, OpenAI and Anthropic formats.
* :class:`OpenAIStreamingClient`, :class:`StreamingChatClient`: streamed replies (they live
  in :mod:`mnemic.llm.streaming`; re-exported here).

See ``docs/agent.md``. Names load lazily (``openai`` is imported only by a request).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..llm.streaming import OpenAIStreamingClient, StreamingChatClient
    from .chat import ChatAgent, TurnResult
    from .compress import CompressionReport, estimate_tokens_of, split_for_compression
    from .extract import (
        FLUSH_INSTRUCTION,
        REVIEW_INSTRUCTION,
        ExtractionReport,
        run_flush,
        run_review,
    )
    from .session import AgentSession, TurnStart
    from .startup import preview_prompt
    from .tools import ToolRegistry, tool_result_text

_EXPORTS = {  # name -> module, relative to this package
    "AgentSession": ".session",
    "ChatAgent": ".chat",
    "CompressionReport": ".compress",
    "ExtractionReport": ".extract",
    "FLUSH_INSTRUCTION": ".extract",
    "OpenAIStreamingClient": "..llm.streaming",
    "REVIEW_INSTRUCTION": ".extract",
    "StreamingChatClient": "..llm.streaming",
    "ToolRegistry": ".tools",
    "TurnResult": ".chat",
    "TurnStart": ".session",
    "estimate_tokens_of": ".compress",
    "preview_prompt": ".startup",
    "run_flush": ".extract",
    "run_review": ".extract",
    "split_for_compression": ".compress",
    "tool_result_text": ".tools",
}

__all__ = [
    "FLUSH_INSTRUCTION",
    "REVIEW_INSTRUCTION",
    "AgentSession",
    "ChatAgent",
    "CompressionReport",
    "ExtractionReport",
    "OpenAIStreamingClient",
    "StreamingChatClient",
    "ToolRegistry",
    "TurnResult",
    "TurnStart",
    "estimate_tokens_of",
    "preview_prompt",
    "run_flush",
    "run_review",
    "split_for_compression",
    "tool_result_text",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mnemic.agent' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value
