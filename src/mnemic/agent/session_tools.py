"""The tools an :class:`~mnemic.agent.AgentSession` offers the model, and how its
provider hears about memory writes.

* :func:`session_tools`: mnemic's tools (:func:`mnemic.tools.home_tools`) over the
  session's live memory, skills and history, then the provider's tools. The handlers read
  the session's parts at each call: its memory, skills and session id change at
  :meth:`~mnemic.agent.AgentSession.compress` and
  :meth:`~mnemic.agent.AgentSession.new_session`, the registry does not. What they read
  is :class:`LiveParts`, which an :class:`~mnemic.agent.AgentSession` is: this module
  needs no import of the session's.
* :func:`provider_observer`: a :meth:`~mnemic.curated.memory.Memory.observe` callback that tells
  the provider about each committed write, with the writer's origin (``agent``, ``flush``
  or ``review``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..curated.memory import Memory, MemoryCommitted
from ..providers.manager import ProviderManager
from ..tooling import parse_arguments
from ..tools import Handler, ToolRegistry, home_tools

if TYPE_CHECKING:
    from ..home import Home
    from ..sessions.sql import SessionStore
    from ..skills.governed import GovernedSkills

__all__ = ["LiveParts", "provider_observer", "session_tools"]


class LiveParts(Protocol):
    """The parts of an agent session its tools read at each call."""

    @property
    def home(self) -> Home: ...
    @property
    def memory(self) -> Memory: ...
    @property
    def project_memory(self) -> Memory | None: ...
    @property
    def sessions(self) -> SessionStore | None: ...
    @property
    def skills(self) -> GovernedSkills: ...
    @property
    def session_id(self) -> str: ...
    @property
    def providers(self) -> ProviderManager: ...


def session_tools(session: LiveParts) -> ToolRegistry:
    """The tools of ``session`` (see the module docstring)."""

    def provider_handler(name: str) -> Handler:
        def handle(arguments: str | dict[str, Any] | None) -> dict[str, Any]:
            return session.providers.call_tool(name, parse_arguments(arguments))

        return handle

    tools = home_tools(
        session.home,
        memory=lambda: session.memory,
        sessions=lambda: session.sessions,
        skills=lambda: session.skills,
        current_session_id=lambda: session.session_id,
        project=_project_of(session) if session.project_memory is not None else None,
    )
    for spec in session.providers.tool_specs():
        tools.register(spec, provider_handler(spec.name))
    return tools


def _project_of(session: LiveParts) -> Callable[[], Memory]:
    def project() -> Memory:
        memory = session.project_memory
        assert memory is not None  # a session keeps its project for its life
        return memory

    return project


def provider_observer(
    providers: ProviderManager, session_id: Callable[[], str]
) -> Callable[[MemoryCommitted], None]:
    """Tell ``providers`` about every committed write; ``session_id()`` is the session's
    current id (it changes at compression while the memory stays open)."""

    def observe(event: MemoryCommitted) -> None:
        providers.memory_committed(event, session_id=session_id())

    return observe
