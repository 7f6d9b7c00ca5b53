"""The reference agent loop: a user message in, tool calls run, an answer out.

:class:`ChatAgent` drives an :class:`~mnemic.agent.session.AgentSession` with a
:class:`~mnemic.llm.ChatClient`: before each model call it compresses the conversation
when it nears the model's context window; it sends the frozen system prompt, the
conversation and the session's tools; it runs every tool call the model makes and feeds
the results back, until the model answers without tools or ``agent.max_tool_rounds``
model calls were made. A final answer that claims a save the turn never made (or
ignores a request to remember) is sent back once with a note (``[agent] save_nudge``,
:mod:`.nudge`); without streaming, the user sees only the answer after it. A failing
endpoint (an error status, a timeout, an unreachable server) ends the turn with a
message for the user, never with an exception, and the session stays usable;
:attr:`ChatAgent.failed_turns` counts such turns, and :meth:`ChatAgent.close` keeps no
session the model never answered in. ``mnemic chat`` is this loop with a terminal
around it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import LLMError
from ..llm.client import ChatResult, ToolCall, Usage

if TYPE_CHECKING:
    from ..llm.client import ChatClient
    from ..providers.manager import DrainReport
    from .compress import CompressionReport
    from .session import AgentSession, TurnStart

__all__ = ["ChatAgent", "TurnResult"]

log = logging.getLogger(__name__)


@dataclass
class TurnResult:
    """The outcome of one user turn."""

    text: str
    """The answer shown to the user (or what went wrong)."""
    status: str
    """``answered``, ``tool_limit`` (stopped after too many tool rounds) or ``model_error``."""
    turn: TurnStart | None = None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    """``{"name", "arguments", "result"}`` per tool call, in order."""
    model_calls: int = 0
    usage: list[Usage] = field(default_factory=list)
    """The token usage the endpoint reported for each model call, prompt-cache reads and
    writes included."""
    error: str | None = None
    compressions: list[CompressionReport] = field(default_factory=list)
    nudged: str | None = None
    """The note mnemic sent the model because its reply claimed a save (or the user asked
    for one) with no memory write in the turn (None: none; see ``[agent] save_nudge``)."""


class ChatAgent:
    """Runs user turns against a model (see the module docstring).

    ``stream``: pass text to ``on_text`` as it arrives when the client can stream
    (default ``agent.stream``). ``on_text`` also receives the whole answer of a
    non-streamed reply.
    """

    def __init__(
        self,
        session: AgentSession,
        client: ChatClient,
        *,
        stream: bool | None = None,
        on_text: Callable[[str], None] | None = None,
        max_tool_rounds: int | None = None,
        timeout: float | None = None,
    ) -> None:
        self.session = session
        self.client = client
        settings = session.settings
        self.stream = settings.agent.stream if stream is None else stream
        self.on_text = on_text
        self.max_tool_rounds = max_tool_rounds or settings.agent.max_tool_rounds
        self.timeout = timeout
        """Seconds per model request (None: the client's own limit)."""
        self.last_prompt_tokens = 0
        self.failed_turns = 0
        """Turns that ended because the model endpoint failed."""
        self.model_replies = 0
        """Model calls that answered (with text or tool calls)."""
        self._answered_in: set[str] = set()

    def _maybe_compress(self, result: TurnResult) -> None:
        if self.session.should_compress(self.last_prompt_tokens):
            report = self.session.compress(reason="context")
            if report.compressed:
                self.last_prompt_tokens = 0
                result.compressions.append(report)

    def _streamed(self) -> bool:
        """Whether replies reach ``on_text`` as they stream (else whole, once final)."""
        return (
            self.stream
            and self.on_text is not None
            and callable(getattr(self.client, "stream", None))
        )

    def _complete(self) -> ChatResult:
        messages = self.session.model_messages()
        tools = self.session.openai_tools()
        streamer = getattr(self.client, "stream", None)
        if self._streamed() and callable(streamer):
            result: ChatResult = streamer(
                messages, tools=tools, on_text=self.on_text, timeout=self.timeout
            )
            return result
        return self.client.complete(messages, tools=tools, timeout=self.timeout)

    def run_turn(self, text: str) -> TurnResult:
        """Run one user turn to its answer; never raises for model or tool failures."""
        result = TurnResult("", "answered")
        result.turn = self.session.begin_turn(text)
        for round_no in range(self.max_tool_rounds):
            self._maybe_compress(result)
            try:
                reply = self._complete()
            except LLMError as exc:
                self.failed_turns += 1
                result.status = "model_error"
                result.error = exc.to_llm()
                result.text = (
                    f"The model could not answer: {exc.to_llm()} Your message is kept in the "
                    "conversation; try again."
                )
                self.session.add_assistant("[No answer: the model endpoint failed on this turn.]")
                self.session.end_turn()
                return result
            result.model_calls += 1
            self.model_replies += 1
            self._answered_in.add(self.session.session_id)
            result.usage.append(reply.usage)
            self.last_prompt_tokens = reply.usage.prompt_tokens
            calls = tuple(
                c if c.id else ToolCall(f"call_{round_no}_{i}", c.name, c.arguments)
                for i, c in enumerate(reply.tool_calls)
            )
            self.session.add_assistant(reply.content, calls)
            if not calls:
                note = self.session.save_nudge(reply.content)
                if note is not None and round_no + 1 < self.max_tool_rounds:
                    result.nudged = note  # asked again before the reply is shown
                    self.session.add_note(note)
                    continue
                if self.on_text is not None and reply.content and not self._streamed():
                    self.on_text(reply.content)
                result.text = reply.content or ""
                self.session.end_turn()
                return result
            for call in calls:
                resp = self.session.call_tool(call.name, call.arguments)
                self.session.add_tool_result(call.id, call.name, resp)
                result.tool_calls.append(
                    {"name": call.name, "arguments": call.arguments, "result": resp}
                )
        result.status = "tool_limit"
        result.text = (
            f"(Stopped after {self.max_tool_rounds} model calls that kept calling tools, "
            "without a final answer. Ask again or narrow the request.)"
        )
        self.session.add_assistant(result.text)
        self.session.end_turn()
        return result

    def close(self, reason: str = "ended") -> DrainReport:
        """End the chat and close its session. A session the model never answered in
        (nothing was said, or every turn failed at the endpoint) is not kept in the
        session history: it holds no conversation."""
        answered = self.session.session_id in self._answered_in
        return self.session.close(reason, discard=not answered)
