"""What a session starts from: its memory provider, the skills index, the system prompt.

* :func:`resolve_provider` turns :class:`~mnemic.agent.AgentSession`'s ``provider``
  option (an instance, a name, ``None``, or omitted for ``[agent] provider``) into a
  loaded provider, or none and the reason;
* :func:`skills_index_text` is the prompt's skills index ('' when the skills cannot be
  read: the session starts without it);
* :func:`build_session_prompt` builds a session's system prompt from those and its memory
  snapshot (at the start, and again after a compression or ``/new``);
* :func:`preview_prompt` builds the system prompt a new session would start with, without
  starting one (``mnemic prompt``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from types import EllipsisType
from typing import TYPE_CHECKING, Any

from ..curated.memory import Memory, open_backend
from ..curated.scope import open_project
from ..errors import MnemicError
from ..prompt import SystemPrompt, build_system_prompt
from ..providers.discovery import load_provider
from ..providers.manager import ProviderManager
from ..skills.index import skills_index
from ..skills.store import SkillStore

if TYPE_CHECKING:
    import datetime as _dt

    from ..curated.memory import Memory
    from ..home import Home
    from ..providers.base import MemoryProvider
    from ..providers.manager import ProviderManager

__all__ = [
    "BASE_TOOLS",
    "build_session_prompt",
    "preview_prompt",
    "resolve_provider",
    "skills_index_text",
]

log = logging.getLogger(__name__)

BASE_TOOLS = ("memory", "session_search", "skills_list", "skill_view", "skill_manage")
"""The tools every session offers, before the provider's."""


def skills_index_text(home: Home) -> str:
    """The skills index for the system prompt ('' when the skills cannot be read)."""

    try:
        return skills_index(SkillStore.open(home)).text
    except MnemicError as exc:
        log.warning("skills index left out of the prompt: %s", exc.to_llm())
        return ""


def resolve_provider(home: Home, provider: MemoryProvider | str | EllipsisType | None) -> Any:
    """(provider or None, error text)."""
    if provider is None or isinstance(provider, EllipsisType | str):
        name = home.settings.agent.provider if isinstance(provider, EllipsisType) else provider
        if not name:
            return None, ""

        try:
            return load_provider(name, home), ""
        except MnemicError as exc:
            log.warning("%s", exc.to_llm())
            return None, exc.to_llm()
    return provider, ""


def build_session_prompt(
    home: Home,
    memory: Memory,
    providers: ProviderManager,
    tools: Sequence[str],
    *,
    system_message: str = "",
    cwd: Path | None = None,
    today: Callable[[], _dt.date] | None = None,
    platform_name: str | None = None,
    project_memory: Memory | None = None,
) -> SystemPrompt:
    """The system prompt of a session of ``home``: ``memory``'s frozen snapshot, the skills
    index, the provider's block and the names of the session's ``tools``; ``cwd``,
    ``today`` and ``platform_name`` as for :func:`~mnemic.prompt.build_system_prompt`
    (``today=None``: its own default). ``project_memory``'s frozen block (PROJECT
    MEMORY) follows the global ones."""
    blocks = (memory.snapshot.text, project_memory.snapshot.text if project_memory else "")
    kwargs: dict[str, Any] = {}
    if today is not None:
        kwargs["today"] = today
    return build_system_prompt(
        home.settings,
        memory_block="\n\n".join(b for b in blocks if b),
        skills_index=skills_index_text(home),
        provider_block=providers.system_prompt_block(),
        system_message=system_message,
        tools=tools,
        cwd=cwd,
        platform_name=platform_name,
        **kwargs,
    )


def preview_prompt(
    home: Home,
    *,
    system_message: str = "",
    provider: MemoryProvider | str | EllipsisType | None = ...,
    cwd: Path | None = None,
    today: Callable[[], _dt.date] | None = None,
    platform_name: str | None = None,
    project: str | os.PathLike[str] | None = None,
) -> tuple[SystemPrompt, list[str], ProviderManager]:
    """The system prompt a new session of ``home`` (with the memory of ``project``, a
    directory) would start with, without starting one (nothing is recorded or written):
    (prompt, tool names, provider manager)."""

    memory = Memory(open_backend(home), home.settings)
    project_memory = None
    if project is not None:
        where = open_project(home, project, create=False)
        backend = open_backend(where, cleanup=False)
        project_memory = Memory(backend, where.settings, project=where.project.path)
    manager = ProviderManager(home.settings.agent)
    loaded, error = resolve_provider(home, provider)
    if loaded is not None:
        manager.add(loaded)
        manager.initialize("preview", home=str(home.root), agent_context="preview")
    elif error:
        manager.disabled_reason = error
    tools = [*BASE_TOOLS, *(s.name for s in manager.tool_specs())]
    prompt = build_session_prompt(
        home,
        memory,
        manager,
        tools,
        system_message=system_message,
        cwd=cwd,
        today=today,
        platform_name=platform_name,
        project_memory=project_memory,
    )
    return prompt, tools, manager
