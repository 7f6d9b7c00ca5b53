"""Extraction: the pre-compression memory flush and the background review.

Both let the model look back over the conversation and save what should outlive it, as
an *unattended* writer: the caller opens their :class:`~mnemic.curated.memory.Memory` (and
skills) with ``origin="flush"`` or ``origin="review"``, so the approval gate lets them
add but stages their replace and remove for a person (``mnemic pending``).

* :func:`run_flush`: one model call over the whole conversation with only the ``memory``
  tool and an instruction to save durable preferences, corrections and facts; its tool
  calls are applied, and nothing of it enters the transcript. Runs just before a
  compression summarises the conversation's middle away.
* :func:`run_review`: every ``agent.review_every`` user turns, a few model calls with only
  the memory and skill tools, on a copy of the conversation, in the background.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import LLMError
from ..tools import ToolRegistry, tool_result_text

if TYPE_CHECKING:
    from ..llm.client import ChatClient

__all__ = ["FLUSH_INSTRUCTION", "REVIEW_INSTRUCTION", "ExtractionReport", "run_flush", "run_review"]

log = logging.getLogger(__name__)

FLUSH_INSTRUCTION = (
    "[mnemic: memory flush] The earlier part of this conversation is about to be "
    "compressed into a short summary, and details not saved now will be lost. Save to "
    "memory, with the memory tool, anything here worth keeping for future sessions: first "
    "the user's preferences and corrections, then stable facts about the user, their "
    "environment and conventions. Skip task progress, one-off details and anything already "
    "in your memory. Several changes can go in one call with operations. If nothing is "
    "worth saving, answer 'Nothing to save.' without calling a tool."
)

REVIEW_INSTRUCTION = (
    "[mnemic: background review] Look back over the conversation above. Did the user "
    "reveal preferences, corrections, personal details or expectations about how you "
    "should work, or did you learn a stable fact about their environment? Save those with "
    "the memory tool (declarative facts, not instructions; nothing already in memory). If "
    "a reusable multi-step procedure was worked out, save it as a skill with skill_manage "
    "(or patch the skill that was used if it proved wrong). Only the memory and skill tools "
    "work here; other tools are refused. If nothing is worth saving, answer 'Nothing to "
    "save.' and stop."
)


@dataclass
class ExtractionReport:
    """What a flush or review did."""

    kind: str
    """``flush`` or ``review``."""
    calls: list[dict[str, Any]] = field(default_factory=list)
    """One ``{"tool", "arguments", "result"}`` per tool call the model made."""
    model_calls: int = 0
    error: str | None = None
    """Why it stopped early (model endpoint failure), if it did."""
    tidy: list[dict[str, Any]] = field(default_factory=list)
    """Tidy proposals the review staged (``[agent] review_tidy``): id, summary, pending id
    or why it was skipped."""

    @property
    def saved(self) -> int:
        """Tool calls that changed memory or skills."""
        return sum(
            1
            for c in self.calls
            if c["result"].get("success")
            and not c["result"].get("staged")
            and c["result"].get("action") not in (None, "read")
            and "Nothing needed" not in str(c["result"].get("note", ""))
        )

    @property
    def staged(self) -> int:
        """Tool calls whose write waits for approval."""
        return sum(1 for c in self.calls if c["result"].get("staged"))

    @property
    def refused(self) -> int:
        """Tool calls that failed."""
        return sum(1 for c in self.calls if not c["result"].get("success"))

    def summary(self) -> str:
        """One line for a person."""
        name = "memory flush" if self.kind == "flush" else "background review"
        if self.error and not self.calls:
            return f"{name}: skipped ({self.error})"
        parts = [f"{self.saved} saved" if self.saved else "nothing saved"]
        if self.staged:
            parts.append(f"{self.staged} staged for approval")
        if self.refused:
            parts.append(f"{self.refused} refused")
        tidied = sum(1 for t in self.tidy if t.get("pending_id"))
        if tidied:
            parts.append(f"{tidied} tidy proposal{'s' * (tidied != 1)} staged")
        return f"{name}: " + ", ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "kind": self.kind,
            "saved": self.saved,
            "staged": self.staged,
            "refused": self.refused,
            "model_calls": self.model_calls,
            "error": self.error,
            "calls": self.calls,
            "tidy": self.tidy,
        }


OnCall = Callable[[str, str, dict[str, Any]], None]

_STOPPED = {"flush": "memory flush skipped", "review": "background review stopped"}


def _conversation(
    system_prompt: str, messages: Sequence[Mapping[str, Any]], instruction: str
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "system", "content": system_prompt}]
    out.extend(dict(m) for m in messages)
    out.append({"role": "user", "content": instruction})
    return out


def run_flush(
    client: ChatClient,
    system_prompt: str,
    messages: Sequence[Mapping[str, Any]],
    tools: ToolRegistry,
    *,
    timeout: float | None = None,
    on_call: OnCall | None = None,
) -> ExtractionReport:
    """One model call with only the ``memory`` tool; apply its calls. Never raises.

    ``tools`` must route ``memory`` to a Memory opened as the unattended actor
    (``origin="flush"``). The conversation passed in is not modified.
    """
    convo = _conversation(system_prompt, messages, FLUSH_INSTRUCTION)
    return _extract("flush", client, convo, tools, ["memory"], 1, timeout, on_call)


def run_review(
    client: ChatClient,
    system_prompt: str,
    messages: Sequence[Mapping[str, Any]],
    tools: ToolRegistry,
    *,
    rounds: int = 4,
    timeout: float | None = None,
    on_call: OnCall | None = None,
) -> ExtractionReport:
    """Up to ``rounds`` model calls with only the memory and skill tools. Never raises.

    ``tools`` must route to a Memory and skills opened as the unattended actor
    (``origin="review"``). Other tools the model tries are refused by name.
    """
    only = [n for n in tools.names if n == "memory" or n.startswith("skill")]
    convo = _conversation(system_prompt, messages, REVIEW_INSTRUCTION)
    return _extract("review", client, convo, tools, only, rounds, timeout, on_call)


def _extract(
    kind: str,
    client: ChatClient,
    convo: list[dict[str, Any]],
    tools: ToolRegistry,
    only: list[str],
    rounds: int,
    timeout: float | None,
    on_call: OnCall | None,
) -> ExtractionReport:
    """Up to ``rounds`` model calls over ``convo`` offering the tools ``only``; each round
    applies the calls and answers them in ``convo``. A model failure ends it (the report
    says why). The review refuses a tool outside ``only`` itself; the flush, one round
    with nothing after it, leaves that to the registry."""
    report = ExtractionReport(kind)
    for _ in range(max(1, rounds)):
        try:
            result = client.complete(
                convo, tools=tools.openai(only), temperature=0.3, timeout=timeout
            )
        except LLMError as exc:
            report.error = exc.to_llm()
            log.warning("%s: %s", _STOPPED[kind], report.error)
            break
        report.model_calls += 1
        if not result.tool_calls:
            break
        convo.append(
            {
                "role": "assistant",
                "content": result.content,
                "tool_calls": [c.to_openai() for c in result.tool_calls],
            }
        )
        for call in result.tool_calls:
            if call.name in only or kind == "flush":
                resp = tools.dispatch(call.name, call.arguments, only=only)
            else:
                resp = {
                    "success": False,
                    "error": f"The background review may use only {', '.join(only)}; "
                    f"{call.name!r} was refused. Do not try other tools.",
                    "error_code": "tool_not_allowed",
                }
            report.calls.append({"tool": call.name, "arguments": call.arguments, "result": resp})
            if on_call is not None:
                on_call(call.name, call.arguments, resp)
            convo.append(
                {"role": "tool", "tool_call_id": call.id, "content": tool_result_text(resp)}
            )
    return report
