"""Agent integration: the turn-lifecycle facade, extraction, compression, the chat loop.

* :class:`AgentSession` (:mod:`.session`): what an agent framework calls, turn by turn;
  :func:`preview_prompt` (:mod:`.startup`): the prompt a new session would start with.
* :class:`ChatAgent` (:mod:`.chat`): the reference loop over a :class:`~mnemic.llm.ChatClient`.
* :func:`run_flush`, :func:`run_review` (:mod:`.extract`): the pre-compression memory flush
  and the background review, as unattended writers.
* :mod:`.compress`: token estimates, the split, the summary.

The tools themselves (:class:`~mnemic.tools.ToolRegistry`, :func:`~mnemic.tools.home_tools`)
live in :mod:`mnemic.tools`; streamed replies in :mod:`mnemic.llm`. See
``docs/agent.md``. ``openai`` is imported only when a request is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._moved import first_use

if TYPE_CHECKING:
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

__all__ = [
    "FLUSH_INSTRUCTION",
    "REVIEW_INSTRUCTION",
    "AgentSession",
    "ChatAgent",
    "CompressionReport",
    "ExtractionReport",
    "TurnResult",
    "TurnStart",
    "estimate_tokens_of",
    "preview_prompt",
    "run_flush",
    "run_review",
    "split_for_compression",
]

_LAZY = {
    "AgentSession": ("session", "AgentSession"),
    "ChatAgent": ("chat", "ChatAgent"),
    "CompressionReport": ("compress", "CompressionReport"),
    "ExtractionReport": ("extract", "ExtractionReport"),
    "FLUSH_INSTRUCTION": ("extract", "FLUSH_INSTRUCTION"),
    "REVIEW_INSTRUCTION": ("extract", "REVIEW_INSTRUCTION"),
    "TurnResult": ("chat", "TurnResult"),
    "TurnStart": ("session", "TurnStart"),
    "estimate_tokens_of": ("compress", "estimate_tokens_of"),
    "preview_prompt": ("startup", "preview_prompt"),
    "run_flush": ("extract", "run_flush"),
    "run_review": ("extract", "run_review"),
    "split_for_compression": ("compress", "split_for_compression"),
}
"""Where each name of :data:`__all__` lives (module of this package, name there), imported
on first use: ``mnemic prompt`` needs only :mod:`.startup`, and importing the package ran
:mod:`.extract`, which loads the whole tool registry (about 0.1 s of CPU)."""


def __getattr__(name: str) -> Any:
    return first_use(__name__, _LAZY, name, globals())
