"""Recording an agent session into the session history, without ever failing a turn.

:class:`SessionRecording` is how :class:`~mnemic.agent.AgentSession` writes to the home's
:class:`~mnemic.sessions.SessionStore`: the session's start and end (with a parent id
after a compression), and each turn's messages as the user typed them, without the
recalled context fenced into the user message. A store that cannot be opened turns
recording off for the session; every failure is logged and counted in :attr:`errors`.
A session that ends (closed, or left by ``/new``) with nothing recorded in it, or that
the caller discards, is deleted rather than kept as an empty entry of the history.
Recorded messages are handed to a background indexer (their vectors for semantic search,
:mod:`mnemic.sessions.search.embed`) when ``[sessions] semantic`` allows it and the extra is
installed; it never delays the append.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import MnemicError
from ..home import Home
from ..sessions import open_store
from ..sessions.search.embed import BackgroundIndexer
from ..sessions.sql import SessionStore
from ..sessions.store import NewMessage

__all__ = ["SessionRecording"]

log = logging.getLogger(__name__)


class SessionRecording:
    """The session history of one agent session (see the module docstring).

    ``emit(kind, **data)`` receives an ``error`` event when a turn cannot be recorded.
    """

    def __init__(self, home: Home, emit: Callable[..., None]) -> None:
        self.home = home
        self.store: SessionStore | None = None
        """The open store (None: recording is off)."""
        self.errors = 0
        """Recording failures so far."""
        self.tool_names: dict[str, str] = {}
        """Tool name by tool call id (recorded with each tool result)."""
        self._emit = emit
        self.indexer: BackgroundIndexer | None = None
        """Embeds recorded messages in the background (None: semantic search is off)."""
        self._recorded: set[str] = set()
        """The sessions at least one message was recorded in."""

    def open(self) -> None:
        """Open the home's session store; on failure recording is off for the session."""

        try:
            self.store = open_store(self.home)
        except MnemicError as exc:
            self.errors += 1
            log.warning("session history is off for this session: %s", exc.to_llm())
            self.store = None
            return
        home = self.home
        self.indexer = BackgroundIndexer.for_settings(home.settings, lambda: open_store(home))

    def start(
        self, session_id: str, *, source: str, model: str | None, parent_id: str | None = None
    ) -> None:
        """Record the start of session ``session_id``."""
        if self.store is None:
            return
        try:
            self.store.start_session(id=session_id, source=source, model=model, parent_id=parent_id)
        except MnemicError as exc:
            self.errors += 1
            log.warning("could not record the session start: %s", exc.to_llm())

    def append(self, session_id: str, messages: Sequence[NewMessage]) -> None:
        """Record ``messages`` in session ``session_id``."""
        if self.store is None or not messages:
            return
        try:
            ids = self.store.append_messages(session_id, messages)
        except MnemicError as exc:
            self.errors += 1
            log.warning("could not record messages: %s", exc.to_llm())
            self._emit("error", where="recording", error=exc.to_llm())
            return
        self._recorded.add(session_id)
        if self.indexer is not None:
            self.indexer.submit(ids)

    def end(
        self, session_id: str, reason: str, *, drop_empty: bool = False, discard: bool = False
    ) -> None:
        """Record the end of session ``session_id``; delete it from the history instead
        when ``discard``, or when ``drop_empty`` and nothing was recorded in it."""
        if self.store is None:
            return
        try:
            if discard or (drop_empty and session_id not in self._recorded):
                self.store.delete_session(session_id)
            else:
                self.store.end_session(session_id, reason)
        except MnemicError as exc:
            self.errors += 1
            log.warning("could not record the session end: %s", exc.to_llm())

    def turn_messages(
        self, messages: Sequence[Mapping[str, Any]], user_text: str
    ) -> list[NewMessage]:
        """A turn's messages as recorded: the first (the user's) with ``user_text``, tool
        results with their tool name."""
        return [self._stored(m, user_text if i == 0 else None) for i, m in enumerate(messages)]

    def _stored(self, m: Mapping[str, Any], user_text: str | None) -> NewMessage:

        role = str(m.get("role"))
        if role == "user":
            return NewMessage("user", user_text if user_text is not None else m.get("content"))
        if role == "tool":
            cid = str(m.get("tool_call_id") or "")
            return NewMessage(
                "tool", m.get("content"), tool_name=self.tool_names.get(cid), tool_call_id=cid
            )
        return NewMessage(role, m.get("content"), tool_calls=m.get("tool_calls"))

    def close(self) -> None:
        """Stop the indexer, close the store (errors ignored)."""
        if self.indexer is not None:
            self.indexer.close()
        if self.store is not None:
            with contextlib.suppress(MnemicError):
                self.store.close()
