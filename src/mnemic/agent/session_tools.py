"""The tools an :class:`~mnemic.agent.AgentSession` offers the model, and the mirror of
memory writes to its provider.

* :func:`session_tools`: ``memory``, ``session_search``, the skill tools and the
  provider's tools, in that order. The handlers read the session's live state: its memory,
  skills and session id change at :meth:`~mnemic.agent.AgentSession.compress` and
  :meth:`~mnemic.agent.AgentSession.new_session`, the registry does not.
* :func:`mirror_memory_write`: tells the provider about a committed memory write, with the
  writer's origin (``agent``, ``flush`` or ``review``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import MnemicError
from ..tooling import parse_arguments
from .tools import Handler, ToolRegistry

if TYPE_CHECKING:
    from ..providers.manager import ProviderManager
    from .session import AgentSession

__all__ = ["mirror_memory_write", "session_tools"]


def session_tools(session: AgentSession) -> ToolRegistry:
    """The tools of ``session`` (see the module docstring)."""
    from ..curated.tool import memory_tool_spec
    from ..sessions.tool import SESSION_SEARCH_TOOL
    from ..skills.tools import skill_tool_specs

    def memory_call(arguments: str | dict[str, Any] | None) -> dict[str, Any]:
        resp = session.memory.tool(arguments)
        mirror_memory_write(session.providers, session.session_id, arguments, resp, "agent")
        return resp

    def search_call(arguments: str | dict[str, Any] | None) -> dict[str, Any]:
        if session.sessions is None:
            return {
                "success": False,
                "error": "Session history is not available in this session (it could not be "
                "opened). Continue without it.",
                "error_code": "session_store_unavailable",
            }
        from ..sessions import search_tool_for

        return search_tool_for(
            session.home, session.sessions, arguments, current_session_id=session.session_id
        )

    def skill_handler(name: str) -> Handler:
        def handle(arguments: str | dict[str, Any] | None) -> dict[str, Any]:
            return session.skills.tool(name, arguments)

        return handle

    def provider_handler(name: str) -> Handler:
        def handle(arguments: str | dict[str, Any] | None) -> dict[str, Any]:
            return session.providers.call_tool(name, parse_arguments(arguments))

        return handle

    tools = ToolRegistry()
    tools.register(memory_tool_spec(read_action=session.settings.memory.read_action), memory_call)
    tools.register(SESSION_SEARCH_TOOL, search_call)
    for spec in skill_tool_specs():
        tools.register(spec, skill_handler(spec.name))
    for spec in session.providers.tool_specs():
        tools.register(spec, provider_handler(spec.name))
    return tools


def mirror_memory_write(
    providers: ProviderManager,
    session_id: str,
    arguments: str | dict[str, Any] | None,
    resp: Mapping[str, Any],
    origin: str,
) -> None:
    """Tell the provider about a committed memory write."""
    if providers.provider is None or not resp.get("success") or resp.get("staged"):
        return
    if not str(resp.get("note", "")).startswith("Saved"):
        return
    try:
        args = parse_arguments(arguments)
    except MnemicError:
        return
    default = str(args.get("target") or "memory")
    ops = args.get("operations") or [args]
    previous: dict[str, Any] = {}
    for key in ("replaced_entries", "removed_entries"):
        previous.update(resp.get(key) or {})
    for i, op in enumerate(ops, 1):
        if not isinstance(op, dict) or op.get("action") not in ("add", "replace", "remove"):
            continue
        meta: dict[str, Any] = {"origin": origin, "session_id": session_id}
        prev = previous.get(str(i)) or resp.get("replaced_entry") or resp.get("removed_entry")
        if prev and op["action"] != "add":
            meta["previous"] = prev
        providers.memory_written(
            str(op["action"]),
            str(op.get("target") or default),
            str(op.get("content") or op.get("new_text") or ""),
            meta,
        )
