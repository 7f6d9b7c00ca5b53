"""Context compression: summarise the older part of a conversation, keep the recent part.

Pure helpers used by :meth:`mnemic.agent.AgentSession.compress`:

* :func:`estimate_tokens_of` estimates what a request costs (system prompt, messages and
  tool schemas; about four characters a token, one per CJK character);
* :func:`split_for_compression` keeps at least ``keep`` recent messages, starting at a
  user message so no tool result is separated from the call that asked for it;
* :func:`summarize_messages` asks the model for a summary and falls back to an extract
  when the model cannot answer, so compression never fails the turn.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import LLMError
from ..tokens import estimate_tokens

if TYPE_CHECKING:
    from ..llm.client import ChatClient
    from .extract import ExtractionReport

__all__ = [
    "SUMMARY_PREFIX",
    "CompressionReport",
    "estimate_tokens_of",
    "extract_summary",
    "split_for_compression",
    "summarize_messages",
]

log = logging.getLogger(__name__)

SUMMARY_PREFIX = (
    "[Summary of the earlier part of this conversation, written when it was compressed. "
    "Details not in it can be found with session_search.]"
)

_SUMMARY_INSTRUCTION = (
    "Summarise the conversation above so it can continue without it. Keep: what the user "
    "wants and the decisions made, facts, names, paths, commands and numbers that still "
    "matter, open questions and the current state of the work. Drop pleasantries and "
    "anything superseded. Write plain prose or short bullets, at most about {words} words. "
    "Do not call tools."
)
_SUMMARY_CHARS = 4000


@dataclass
class CompressionReport:
    """What one compression did."""

    compressed: bool
    """False when there was nothing old enough to summarise."""
    reason: str
    summarized_messages: int = 0
    kept_messages: int = 0
    tokens_before: int = 0
    tokens_after: int = 0
    summary: str = ""
    summary_source: str = ""
    """``model`` or ``extract`` (the model could not summarise)."""
    flush: ExtractionReport | None = None
    provider_notes: str = ""
    old_session_id: str = ""
    new_session_id: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "compressed": self.compressed,
            "reason": self.reason,
            "summarized_messages": self.summarized_messages,
            "kept_messages": self.kept_messages,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "summary_source": self.summary_source,
            "flush": self.flush.as_dict() if self.flush is not None else None,
            "old_session_id": self.old_session_id,
            "new_session_id": self.new_session_id,
        }


def estimate_tokens_of(
    system_prompt: str,
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] = (),
) -> int:
    """A cheap estimate of a request's prompt tokens."""
    total = estimate_tokens(system_prompt)
    for m in messages:
        total += 4 + estimate_tokens(str(m.get("content") or ""))
        if m.get("tool_calls"):
            total += estimate_tokens(json.dumps(m["tool_calls"], ensure_ascii=False))
    if tools:
        total += estimate_tokens(json.dumps(list(tools), ensure_ascii=False))
    return total


def split_for_compression(
    messages: Sequence[Mapping[str, Any]], keep: int, *, max_recent_tokens: int | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(older messages to summarise, recent messages to keep word for word).

    The kept part starts at a user message and has at least ``keep`` messages (more when
    the current turn is longer), unless those would exceed ``max_recent_tokens``: then it
    starts at a later user message, down to the last one. Returns no older messages when
    nothing can be cut.
    """
    msgs = [dict(m) for m in messages]
    starts = [i for i, m in enumerate(msgs) if m.get("role") == "user"]
    cut = 0
    for i in reversed(starts):
        cut = i
        if len(msgs) - i >= keep:
            break
    if max_recent_tokens is not None:
        for i in starts:
            if i > cut and estimate_tokens_of("", msgs[cut:]) > max_recent_tokens:
                cut = i
    if cut <= 0:
        return [], msgs
    return msgs[:cut], msgs[cut:]


def _line(m: Mapping[str, Any], width: int) -> str:
    role = str(m.get("role", "?"))
    text = " ".join(str(m.get("content") or "").split())
    if m.get("tool_calls"):
        names = ", ".join(str(c.get("function", {}).get("name", "?")) for c in m["tool_calls"] if c)
        text = (text + f" [called: {names}]").strip()
    if len(text) > width:
        text = text[: width - 3] + "..."
    return f"{role}: {text}"


def extract_summary(messages: Sequence[Mapping[str, Any]], limit: int = _SUMMARY_CHARS) -> str:
    """A summary without a model: the first characters of each user and assistant message."""
    lines = [
        _line(m, 200)
        for m in messages
        if m.get("role") in ("user", "assistant") and (m.get("content") or m.get("tool_calls"))
    ]
    text = "\n".join(lines)
    if len(text) > limit:
        head = text[: limit // 2]
        tail = text[-limit // 2 :]
        text = head + "\n[...]\n" + tail
    return text


def summarize_messages(
    client: ChatClient | None,
    messages: Sequence[Mapping[str, Any]],
    *,
    notes: str = "",
    timeout: float | None = None,
) -> tuple[str, str]:
    """(summary, source) for ``messages``; source is ``model`` or ``extract``."""
    if client is not None:
        convo: list[dict[str, Any]] = [
            {"role": "system", "content": "You write faithful summaries of conversations."}
        ]
        transcript = "\n".join(_line(m, 2000) for m in messages if m.get("role") != "system")
        prompt = f"Conversation:\n{transcript}\n\n"
        if notes:
            prompt += f"Notes from the memory provider:\n{notes}\n\n"
        prompt += _SUMMARY_INSTRUCTION.format(words=_SUMMARY_CHARS // 8)
        convo.append({"role": "user", "content": prompt})
        try:
            result = client.complete(convo, temperature=0.2, timeout=timeout)
        except LLMError as exc:
            log.warning("compression summary fell back to an extract: %s", exc.to_llm())
        else:
            text = (result.content or "").strip()
            if text:
                return text[: _SUMMARY_CHARS * 2], "model"
    return extract_summary(messages), "extract"
