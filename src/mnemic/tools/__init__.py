"""mnemic's tools, each defined once: spec and handler, for every surface.

:func:`home_tools` builds the five tools (``memory``, ``session_search``, ``skills_list``,
``skill_view``, ``skill_manage``) over live parts of one home. The CLI (``mnemic tool``),
the MCP server and the agent session all call it, each with the parts it holds: a
governed :class:`~mnemic.curated.memory.Memory` of its actor, a session store, governed skills.
Parts are given as zero-argument callables and read at each call, so a surface whose
memory is replaced (an agent's compression, an MCP client's new view) keeps one registry.

Every handler takes the raw arguments (a JSON string or an object) and returns the JSON
response of a success, raising what the call is refused with; :meth:`ToolRegistry.dispatch`
turns that into the response (one envelope for every tool) and never raises.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..curated.entries import TARGETS
from ..curated.memory import Memory
from ..curated.tool import memory_call, memory_tool_spec
from ..governance.metrics import get_metrics
from ..home import Home
from ..ops.archive_search import search_archive
from ..ops.text_search import text_ranker
from ..sessions import (
    SESSION_SEARCH_TOOL,
    SessionStore,
    embedder_loader_for,
    search_tool_for,
    text_floor_for,
)
from ..skills.governed import GovernedSkills
from ..skills.tools import skill_tool_specs
from ..tooling import ToolSpec
from .registry import Handler, ToolRegistry, tool_result_text

__all__ = [
    "MNEMIC_TOOLS",
    "Handler",
    "ToolRegistry",
    "home_tools",
    "session_store_unavailable",
    "tool_result_text",
    "tool_specs",
]

MNEMIC_TOOLS = ("memory", "session_search", "skills_list", "skill_view", "skill_manage")
"""The names :func:`home_tools` registers, in that order."""


def tool_specs(
    home: Home, *, project: bool = False, project_argument: bool = False
) -> list[ToolSpec]:
    """The specs of the five tools as ``home``'s settings shape them, in order;
    ``project`` (a project is selected) gives the memory tool its ``scope`` argument,
    ``project_argument`` its ``scope`` and ``project`` (a directory per call)."""
    memory = memory_tool_spec(
        read_action=home.settings.memory.read_action,
        project=project,
        project_argument=project_argument,
    )
    return [
        memory,
        SESSION_SEARCH_TOOL,
        *skill_tool_specs(),
    ]


def session_store_unavailable() -> dict[str, Any]:
    """The response of ``session_search`` when the session history cannot be opened."""
    return {
        "success": False,
        "error": "Session history is not available in this session (it could not be "
        "opened). Continue without it.",
        "error_code": "session_store_unavailable",
    }


def home_tools(
    home: Home,
    *,
    memory: Callable[[], Memory],
    sessions: Callable[[], SessionStore | None],
    skills: Callable[[], GovernedSkills],
    current_session_id: Callable[[], str | None] = lambda: None,
    project: Callable[[], Memory] | None = None,
    project_at: Callable[[str], Memory] | None = None,
) -> ToolRegistry:
    """The five tools of ``home`` over live parts (see the module docstring).

    ``sessions`` may return ``None`` (the history could not be opened): session_search
    then says so. ``current_session_id`` names the caller's own session, which
    session_search leaves out of discovery. ``skills_list`` ranks a ``query`` with
    :func:`~mnemic.ops.text_search.rank_texts`, the ranker of memory search.
    ``project`` is the selected project's memory (:mod:`mnemic.curated.scope`): the
    memory tool then takes ``scope="project"``; ``project_at(directory)`` the memory of
    the project a call names (the tool's ``project`` argument).
    """

    def archive_search(mem: Memory, query: str, target: str | None) -> dict[str, Any]:
        targets = [target] if target else list(TARGETS)
        loader = embedder_loader_for(home)
        floor = text_floor_for(home)
        found = search_archive(
            mem, query, targets=targets, embedder_loader=loader, floor=floor, for_model=True
        )
        return found.to_dict()

    def memory_handler(arguments: str | dict[str, Any] | None) -> dict[str, Any]:
        return memory_call(
            memory(),
            arguments,
            archive_search=archive_search,
            project=project,
            project_at=project_at,
        )

    def search_call(arguments: str | dict[str, Any] | None) -> dict[str, Any]:
        start = time.perf_counter()
        result = "error"
        try:
            store = sessions()
            if store is None:
                resp = session_store_unavailable()
            else:
                resp = search_tool_for(
                    home, store, arguments, current_session_id=current_session_id()
                )
            result = "ok" if resp.get("success") else "error"
            return resp
        finally:
            get_metrics().search((time.perf_counter() - start) * 1000.0, result)

    def skill_handler(name: str) -> Handler:
        def handle(arguments: str | dict[str, Any] | None) -> dict[str, Any]:
            if name == "skills_list":  # a query ranks by words and meaning, as memory search
                ranker = text_ranker(embedder_loader_for(home), floor=text_floor_for(home))
                return skills().call(name, arguments, ranker=ranker)
            return skills().call(name, arguments)

        return handle

    tools = ToolRegistry()
    specs = tool_specs(home, project=project is not None, project_argument=project_at is not None)
    for spec in specs:
        if spec.name == "memory":
            tools.register(spec, memory_handler)
        elif spec.name == "session_search":
            tools.register(spec, search_call)
        else:
            tools.register(spec, skill_handler(spec.name))
    return tools
