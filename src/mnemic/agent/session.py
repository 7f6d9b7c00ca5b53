"""The turn-lifecycle facade: everything an agent framework calls, in one object.

::

    session = AgentSession.open(home, client=client)      # start: snapshot, recording, provider
    turn = session.begin_turn("deploy v2 to staging")      # recall + notices in the user message
    reply = client.complete(session.model_messages(), tools=session.openai_tools())
    session.add_assistant(reply.content, reply.tool_calls)
    for call in reply.tool_calls:                          # memory, search, skills, provider
        session.add_tool_result(call.id, call.name, session.call_tool(call.name, call.arguments))
    ...                                                    # until the model answers without tools
    session.end_turn()                                     # record, provider sync, maybe review
    if session.should_compress(): session.compress()       # flush, summary, new snapshot
    session.close()

The system prompt (:attr:`AgentSession.prompt`) is built once when the session starts and
reused byte for byte until :meth:`AgentSession.compress` or :meth:`AgentSession.new_session`
rebuilds it from memory reloaded from disk. Per-turn material (provider recall, notices that
other sessions changed memory) is fenced into the current user message with
:func:`~mnemic.prompt.recalled_context_block`; it is kept in this session's message list
(so later requests replay identical bytes and the provider's prompt cache keeps hitting)
but never written to the session history, which records what the user typed.

Failures of memory, skills, session recording or the provider never fail the user's turn:
tool failures come back as tool results, the rest is logged and counted.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import EllipsisType, TracebackType
from typing import TYPE_CHECKING, Any

from ..curated.memory import Memory, MemoryCommitted
from ..curated.scope import open_project
from ..errors import MnemicError
from ..home import Home
from ..llm.client import ChatClient, ToolCall
from ..ops.entry_usage import count_usage
from ..prompt import SystemPrompt, recalled_context_block
from ..providers.base import MemoryProvider
from ..providers.manager import DrainReport, ProviderManager
from ..sessions.sql import SessionStore
from ..sessions.store import NewMessage, new_session_id
from ..skills.governed import GovernedSkills
from ..tools import ToolRegistry, tool_result_text
from .compress import (
    SUMMARY_PREFIX,
    CompressionReport,
    estimate_tokens_of,
    split_for_compression,
    summarize_messages,
)
from .extract import ExtractionReport
from .nudge import SaveNudge
from .recording import SessionRecording
from .session_tools import provider_observer, session_tools
from .startup import build_session_prompt, resolve_provider
from .unattended import BackgroundReviews, flush_memory, review_tidy, unattended_tools

if TYPE_CHECKING:
    import datetime as _dt

__all__ = ["AgentSession", "TurnStart"]

log = logging.getLogger(__name__)

EventSink = Callable[[str, dict[str, Any]], None]
"""Receives ``(kind, data)``: ``tool``, ``flush``, ``review``, ``compressed``, ``nudge``,
``error``."""

_NOTICE_ENTRIES = 3
_NOTICE_CHARS = 200


@dataclass(frozen=True)
class TurnStart:
    """What :meth:`AgentSession.begin_turn` added to the conversation."""

    number: int
    """User turn number in this session (1-based; continues across compressions)."""
    text: str
    """The user's message as typed (what the session history records)."""
    content: str
    """The user message the model receives (``text`` plus the fenced recalled context)."""
    recall: str = ""
    """The provider's recall for this turn ('' for none)."""
    notices: str = ""
    """Notices that memory changed since the snapshot ('' for none)."""


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


class AgentSession:
    """One agent conversation over a home's memory (see the module docstring).

    ``client`` serves the flush, the background review and compression summaries (none:
    those steps are skipped or fall back to an extract). ``provider`` is a
    :class:`~mnemic.providers.MemoryProvider`, a provider name, ``None`` for none, or
    omitted for ``[agent] provider``. ``events`` receives progress notes for a UI.
    ``cwd``, ``today`` and ``platform_name`` pin the prompt's context files, date line and
    platform line (tests, reproducible demos). ``project`` (a directory) adds that
    project's memory (:mod:`mnemic.curated.scope`): its block follows the global ones in
    the prompt, and the memory tool writes it with ``scope="project"``.
    """

    def __init__(
        self,
        home: Home,
        *,
        client: ChatClient | None = None,
        provider: MemoryProvider | str | EllipsisType | None = ...,
        source: str = "api",
        system_message: str = "",
        model: str | None = None,
        cwd: Path | None = None,
        today: Callable[[], _dt.date] | None = None,
        platform_name: str | None = None,
        events: EventSink | None = None,
        project: str | os.PathLike[str] | None = None,
    ) -> None:
        self.home = home
        self.project = project
        self.project_memory: Memory | None = None
        """The selected project's memory (``None``: no project)."""
        self.project_home: Home | None = None
        """The selected project's store (``None``: no project): what the flush and the
        background review also write, with ``scope="project"``."""
        self._usage_homes: list[Home] = [home]
        self.settings = home.settings
        self.client = client
        self.source = source
        self.system_message = system_message
        self.model = model
        self.cwd = cwd
        self.today = today
        self.platform_name = platform_name
        self.events = events
        self.session_id = ""
        self.messages: list[dict[str, Any]] = []
        """The conversation as the model receives it (system prompt excluded)."""
        self.turn_number = 0
        self.user_turns = 0
        """User turns since the last background review was due (across compressions)."""
        self.compressions: list[CompressionReport] = []
        self.provider_error = ""
        self.closed = False
        self.memory: Memory
        self.skills: GovernedSkills
        self.prompt: SystemPrompt
        self.tools = ToolRegistry()
        self._turn_start: int | None = None
        self._turn_text = ""
        self._notes: list[dict[str, Any]] = []
        self.nudge = SaveNudge(self.settings.agent.save_nudge)
        """The claimed-save nudge of this session (see :meth:`save_nudge`)."""
        self._recording = SessionRecording(home, self._emit)
        self._reviews = BackgroundReviews()
        self.providers: ProviderManager = ProviderManager(self.settings.agent)
        loaded, self.provider_error = resolve_provider(home, provider)
        if loaded is not None:
            self.providers.add(loaded)

    @classmethod
    def open(cls, home: Home | str | Path | None = None, **options: Any) -> AgentSession:
        """Open ``home`` (default ``MNEMIC_HOME``) and start a session (see the class)."""
        if not isinstance(home, Home):
            home = Home.open(home)
        session = cls(home, **options)
        session.start()
        return session

    def __enter__(self) -> AgentSession:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _emit(self, kind: str, **data: Any) -> None:
        if self.events is not None:
            try:
                self.events(kind, data)
            except Exception:  # a UI callback must not break the session
                log.exception("event sink failed on %s", kind)

    # --- start ------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the session: record it, load memory, initialise the provider, build the
        tools and the system prompt (called by :meth:`open`)."""
        self.session_id = new_session_id()
        self._recording.open()
        self._record_start()
        self._open_parts()
        self.providers.initialize(
            self.session_id,
            home=str(self.home.root),
            platform=self.platform_name or "",
            source=self.source,
            agent_context="primary",
        )
        self.tools = session_tools(self)
        self.prompt = self._build_prompt()

    def _open_parts(self) -> None:
        """Open this session's memory and skills as the ``agent`` actor (entries past
        their ``expires`` time go to the archive first); the provider hears about every
        committed memory write."""
        self.memory = Memory.open(self.home, origin="agent", session_id=self.session_id)
        if self.memory.expire():  # expired entries leave before the prompt is built
            self.memory.new_session()
        self.memory.observe(self._observer)
        if self.project is not None:  # a complete store: its expired entries leave too
            where = open_project(self.home, self.project, create=True)
            self.project_home = where
            self.project_memory = Memory.open(where, origin="agent", session_id=self.session_id)
            if self.project_memory.expire():
                self.project_memory.new_session()
            self.project_memory.observe(self._observer)
            self._usage_homes = [self.home, where]
        self.skills = GovernedSkills.open(self.home, origin="agent", session_id=self.session_id)

    @property
    def _observer(self) -> Callable[[MemoryCommitted], None]:
        return provider_observer(self.providers, lambda: self.session_id)

    @property
    def sessions(self) -> SessionStore | None:
        """The session history store (None: recording is off for this session)."""
        return self._recording.store

    @property
    def recording_errors(self) -> int:
        """How often recording to the session history failed."""
        return self._recording.errors

    def _record_start(self, parent_id: str | None = None) -> None:
        self._recording.start(
            self.session_id, source=self.source, model=self.model, parent_id=parent_id
        )

    def _build_prompt(self) -> SystemPrompt:
        return build_session_prompt(
            self.home,
            self.memory,
            self.providers,
            self.tools.names,
            project_memory=self.project_memory,
            system_message=self.system_message,
            cwd=self.cwd,
            today=self.today,
            platform_name=self.platform_name,
        )

    # --- tools ------------------------------------------------------------------------------
    def openai_tools(self) -> list[dict[str, Any]]:
        """The session's tools in the OpenAI ``tools`` format (fixed for the session)."""
        return self.tools.openai()

    def anthropic_tools(self) -> list[dict[str, Any]]:
        """The session's tools in the Anthropic ``tools`` format."""
        return self.tools.anthropic()

    def call_tool(self, name: str, arguments: str | Mapping[str, Any] | None) -> dict[str, Any]:
        """Run one tool call by name (memory, session_search, skills, provider tools).

        Never raises: unknown tools, malformed arguments and failures come back as
        ``{"success": false, "error": ...}`` responses for the model.
        """
        resp = self.tools.dispatch(name, arguments)
        self.nudge.saw_tool(name, resp)
        self._emit("tool", name=name, arguments=arguments, result=resp)
        return resp

    # --- turns ------------------------------------------------------------------------------
    @property
    def system_prompt(self) -> str:
        """The frozen system prompt text."""
        return self.prompt.text

    def _notices(self) -> str:
        lines: list[str] = []
        scopes = (("Memory notice", self.memory), ("Project memory notice", self.project_memory))
        for label, memory in scopes:
            if memory is None:
                continue
            try:
                changes = memory.poll_external_changes()
            except MnemicError as exc:
                log.warning("could not check memory for outside changes: %s", exc.to_llm())
                continue
            for ch in changes:
                lines.append(f"{label}: {ch.describe()}")
                lines += [f"  added: {_clip(e, _NOTICE_CHARS)}" for e in ch.added[:_NOTICE_ENTRIES]]
                lines += [
                    f"  removed: {_clip(e, _NOTICE_CHARS)}" for e in ch.removed[:_NOTICE_ENTRIES]
                ]
        return "\n".join(lines)

    def begin_turn(self, text: str) -> TurnStart:
        """Start a user turn: re-arm the memory breaker, fetch provider recall (time-
        limited) and notices, and add the user message to the conversation."""
        self._check_open()
        if self._turn_start is not None:
            self.end_turn()
        self.turn_number += 1
        self.user_turns += 1
        self.memory.begin_turn()
        if self.project_memory is not None:
            self.project_memory.begin_turn()
        self.nudge.enabled = self.settings.agent.save_nudge and not self.providers.keeps_memory
        self.nudge.begin_turn(text)
        self.providers.on_turn_start(self.turn_number, text)
        recall = self.providers.prefetch(text, session_id=self.session_id)
        notices = self._notices()
        block = recalled_context_block("\n\n".join(p for p in (notices, recall) if p))
        content = f"{text}\n\n{block}" if block else text
        self.messages.append({"role": "user", "content": content})
        self._turn_start = len(self.messages) - 1
        self._turn_text = text
        return TurnStart(self.turn_number, text, content, recall, notices)

    def model_messages(self) -> list[dict[str, Any]]:
        """The request's messages: the frozen system prompt, then the conversation."""
        return [{"role": "system", "content": self.prompt.text}, *self.messages]

    def add_assistant(self, content: str | None, tool_calls: Sequence[ToolCall] = ()) -> None:
        """Append the model's reply (text and/or tool calls) to the conversation."""
        msg: dict[str, Any] = {"role": "assistant", "content": content}
        if tool_calls:
            msg["tool_calls"] = [c.to_openai() for c in tool_calls]
            for c in tool_calls:
                self._recording.tool_names[c.id] = c.name
        self.messages.append(msg)

    def save_nudge(self, reply: str | None) -> str | None:
        """The note to send the model when its final answer ``reply`` claims a save (or
        the user asked for one) and no memory write succeeded in this turn; at most once
        a turn (see :mod:`.nudge`). Add it with :meth:`add_note` and ask the model again.
        Emits a ``nudge`` event with the note."""
        note = self.nudge.check(reply)
        if note is not None:
            self._emit("nudge", note=note)
        return note

    def add_note(self, text: str) -> None:
        """Append a note from mnemic to the model (a user message in the conversation, not
        recorded in the session history: the user did not type it)."""
        note = {"role": "user", "content": text}
        self._notes.append(note)
        self.messages.append(note)

    def add_tool_result(self, call_id: str, name: str, response: Mapping[str, Any]) -> str:
        """Append a tool result message; returns its content (compact JSON)."""
        content = tool_result_text(response)
        self._recording.tool_names[call_id] = name
        self.messages.append({"role": "tool", "tool_call_id": call_id, "content": content})
        return content

    def end_turn(self) -> None:
        """End the turn: record its messages (the user's text without recalled context),
        queue the provider sync, start a background review when one is due."""
        start = self._turn_start
        if start is None or self.closed:
            return
        self._turn_start = None
        notes, self._notes = self._notes, []
        turn = [m for m in self.messages[start:] if not any(m is n for n in notes)]
        user_text = self._turn_text
        stored = self._recording.turn_messages(turn, user_text)
        self._recording.append(self.session_id, stored)
        reply = next(
            (
                str(m.get("content"))
                for m in reversed(turn)
                if m.get("role") == "assistant" and m.get("content")
            ),
            "",
        )
        plain = [
            {k: v for k, v in (("role", s.role), ("content", s.content)) if v is not None}
            | ({"tool_calls": list(s.tool_calls)} if s.tool_calls else {})
            for s in stored
        ]
        self.providers.after_turn(user_text, reply, session_id=self.session_id, messages=plain)
        every = self.settings.agent.review_every
        if every > 0 and self.user_turns >= every and self.client is not None:
            self.user_turns = 0
            self._start_review()

    # --- extraction ---------------------------------------------------------------------------
    @property
    def reviews(self) -> list[ExtractionReport]:
        """Reports of the background reviews finished so far, in the order they finished."""
        return self._reviews.reports

    def _unattended_tools(self, origin: str, *, skills: bool) -> ToolRegistry:
        return unattended_tools(
            self.home,
            self.session_id,
            origin,
            skills=skills,
            observer=self._observer,
            project=self.project_home,
        )

    def flush(self) -> ExtractionReport:
        """The pre-compression memory flush (see :func:`~.extract.run_flush`); the
        conversation is not changed. Skipped without a client."""
        if self.client is None:
            return ExtractionReport("flush", error="no model client")
        return flush_memory(
            self.client,
            self.prompt.text,
            self.messages,
            lambda: self._unattended_tools("flush", skills=False),
            timeout=self.settings.llm.timeout,
            emit=self._emit,
        )

    def _start_review(self) -> None:
        assert self.client is not None
        sid = self.session_id
        self._reviews.start(
            self.client,
            self.prompt.text,
            self.messages,
            lambda: self._unattended_tools("review", skills=True),
            rounds=self.settings.agent.review_rounds,
            timeout=self.settings.llm.timeout,
            emit=self._emit,
            tidy=(
                (lambda: review_tidy(self.home, sid, self.project_home))
                if self.settings.agent.review_tidy
                else None
            ),
        )

    def wait_background(self, timeout: float = 30.0) -> bool:
        """Wait for background reviews and queued provider work; False if still running."""
        done = self._reviews.join(timeout)
        return self.providers.flush(timeout) and done

    # --- compression ---------------------------------------------------------------------------
    def estimate_tokens(self) -> int:
        """Estimated prompt tokens of the next request (prompt, messages, tool schemas)."""
        return estimate_tokens_of(self.prompt.text, self.messages, self.openai_tools())

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        """Whether the conversation reached ``agent.compress_at`` of ``llm.context_window``
        (``prompt_tokens``: what the endpoint reported for the last request, if known)."""
        limit = self.settings.agent.compress_at * self.settings.llm.context_window
        return max(self.estimate_tokens(), prompt_tokens or 0) >= limit

    def compress(self, *, reason: str = "manual") -> CompressionReport:
        """Flush memory, summarise the older messages, continue under a child session id
        with a system prompt rebuilt from memory reloaded from disk."""
        self._check_open()
        before = self.estimate_tokens()
        limit = self.settings.agent.compress_at * self.settings.llm.context_window
        older, recent = split_for_compression(
            self.messages,
            self.settings.agent.keep_recent_messages,
            max_recent_tokens=int(limit / 3),
        )
        if all(str(m.get("content") or "").startswith(SUMMARY_PREFIX) for m in older):
            return CompressionReport(False, reason, tokens_before=before, tokens_after=before)
        flush = None
        if self.settings.agent.flush_before_compress and self.client is not None:
            flush = self.flush()
        notes = self.providers.pre_compress(older)
        summary, source = summarize_messages(
            self.client, older, notes=notes, timeout=self.settings.llm.timeout
        )

        old_id = self.session_id
        self._recording.end(self.session_id, "compression")
        self.session_id = new_session_id()
        self._record_start(parent_id=old_id)
        self._recording.append(
            self.session_id, [NewMessage("system", f"{SUMMARY_PREFIX}\n\n{summary}")]
        )
        offset = len(older) - 1
        self.messages = [{"role": "user", "content": f"{SUMMARY_PREFIX}\n\n{summary}"}, *recent]
        if self._turn_start is not None:
            self._turn_start -= offset
        self.memory.expire()
        self.memory.new_session()
        if self.project_memory is not None:
            self.project_memory.expire()
            self.project_memory.new_session()
        self.prompt = self._build_prompt()
        self.providers.session_switch(self.session_id, parent_session_id=old_id)
        report = CompressionReport(
            True,
            reason,
            summarized_messages=len(older),
            kept_messages=len(recent),
            tokens_before=before,
            tokens_after=self.estimate_tokens(),
            summary=summary,
            summary_source=source,
            flush=flush,
            provider_notes=notes,
            old_session_id=old_id,
            new_session_id=self.session_id,
        )
        self.compressions.append(report)
        self._emit("compressed", report=report)
        return report

    # --- boundaries ------------------------------------------------------------------------------
    def new_session(self) -> None:
        """End this conversation and start a new one (``/new``): fresh snapshot and
        prompt, empty conversation, provider told ``reset=True``."""
        self._check_open()
        self.end_turn()
        self.providers.session_end(self.messages)
        self._recording.end(self.session_id, "new_session", drop_empty=True)
        self._count_usage()
        self.session_id = new_session_id()
        self._record_start()
        self.messages = []
        self.turn_number = 0
        self._open_parts()
        self.prompt = self._build_prompt()
        self.providers.session_switch(self.session_id, reset=True)

    def close(self, reason: str = "ended", *, discard: bool = False) -> DrainReport:
        """End the session: record the end, wait (bounded) for background work, shut the
        provider down. Idempotent.

        A session with nothing recorded in it is not kept in the session history, and
        neither is one closed with ``discard`` (a chat the model never answered in)."""
        if self.closed:
            assert self.providers.drain_report is not None
            return self.providers.drain_report
        self.end_turn()
        self.closed = True
        self.providers.session_end(self.messages)
        self._recording.end(self.session_id, reason, drop_empty=True, discard=discard)
        self._count_usage()
        self._reviews.join(self.settings.agent.shutdown_timeout)
        report = self.providers.shutdown()
        self._recording.close()
        return report

    def _count_usage(self) -> None:
        """Count which memory entries mattered in the session just ended, in the global
        store and the project's (best-effort: :mod:`mnemic.ops.entry_usage`; a session
        not kept is not counted)."""
        store = self._recording.store
        try:
            if store is not None and store.has_session(self.session_id):
                for home in self._usage_homes:  # the project's store keeps its own counts
                    count_usage(home, store, session_ids=[self.session_id])
        except MnemicError as exc:
            log.warning("entry usage not counted: %s", exc)

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError("this AgentSession is closed")
