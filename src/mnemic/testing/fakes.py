"""Deterministic fakes of mnemic's protocols, for tests of code built on mnemic."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..llm.client import ChatResult, ToolCall
from ..sessions.search.summarize import SummaryRequest

__all__ = ["FakeChatClient", "FakeSummarizer"]


class FakeSummarizer:
    """A :class:`~mnemic.sessions.Summarizer` that answers without a model.

    By default the summary is ``"summary of <session id> for <query>: <n> messages"``;
    pass ``respond`` to compute it, or ``fail`` (an exception) to make every call raise.
    ``calls`` records the requests; ``release`` gates calls when ``block=True`` (a call
    then waits until :meth:`release` or its timeout, and raises ``TimeoutError``).
    """

    name = "fake"

    def __init__(
        self,
        respond: Callable[[SummaryRequest], str] | None = None,
        *,
        fail: BaseException | None = None,
        block: bool = False,
    ) -> None:
        self.respond = respond
        self.fail = fail
        self.calls: list[SummaryRequest] = []
        self._gate = threading.Event()
        if not block:
            self._gate.set()
        self._lock = threading.Lock()

    def release(self) -> None:
        """Let blocked calls proceed."""
        self._gate.set()

    def summarize(self, request: SummaryRequest, *, timeout: float) -> str:
        """Record the call and return the scripted summary."""
        with self._lock:
            self.calls.append(request)
        if not self._gate.wait(timeout):
            raise TimeoutError("fake summarizer blocked")
        if self.fail is not None:
            raise self.fail
        if self.respond is not None:
            return self.respond(request)
        return (
            f"summary of {request.session.id} for {request.query}: {len(request.messages)} messages"
        )


class FakeChatClient:
    """A :class:`~mnemic.llm.ChatClient` replaying scripted replies (strings or results)."""

    def __init__(self, replies: Sequence[str | ChatResult] = ()) -> None:
        self.replies = list(replies)
        self.calls: list[dict[str, Any]] = []

    def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        timeout: float | None = None,
    ) -> ChatResult:
        """Return the next scripted reply (``"ok"`` when the script is exhausted)."""
        self.calls.append(
            {
                "messages": [dict(m) for m in messages],
                "tools": list(tools or []),
                "max_tokens": max_tokens,
                "temperature": temperature,
                "timeout": timeout,
            }
        )
        reply = self.replies.pop(0) if self.replies else "ok"
        if isinstance(reply, ChatResult):
            return reply
        return ChatResult(content=reply, tool_calls=(), finish_reason="stop")


def tool_call(name: str, arguments: str = "{}", call_id: str = "call_1") -> ToolCall:
    """A :class:`~mnemic.llm.ToolCall` for scripted replies."""
    return ToolCall(id=call_id, name=name, arguments=arguments)
