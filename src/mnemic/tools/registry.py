"""A set of tools: one registry of specs and handlers, rendered for OpenAI or Anthropic.

A :class:`ToolRegistry` maps tool names to their :class:`~mnemic.tooling.ToolSpec` and a
handler taking the raw arguments (a JSON string or an object) and returning a JSON-able
dict. A handler raises what the call is refused with; :meth:`ToolRegistry.dispatch` is
where that becomes the response (:func:`~mnemic.tooling.tool_response`), and it never
raises: an unknown tool, arguments that are not JSON, a refusal or a handler that
crashes all come back as ``{"success": false, "error": ...}`` for the model to read, and
the user's turn goes on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..errors import UnknownTool
from ..tooling import ToolSpec, tool_response

__all__ = ["Handler", "ToolRegistry", "tool_result_text"]

Handler = Callable[[str | dict[str, Any] | None], dict[str, Any]]
"""Runs one call: raw arguments in, JSON-able success response out (a refusal raised)."""


class ToolRegistry:
    """Named tools with their handlers (see the module docstring)."""

    def __init__(self) -> None:
        self._specs: dict[str, ToolSpec] = {}
        self._handlers: dict[str, Handler] = {}

    def register(self, spec: ToolSpec, handler: Handler) -> None:
        """Add a tool; a name already registered raises ``ValueError``."""
        if spec.name in self._specs:
            raise ValueError(f"tool {spec.name!r} is already registered")
        self._specs[spec.name] = spec
        self._handlers[spec.name] = handler

    @property
    def names(self) -> list[str]:
        """Tool names in registration order."""
        return list(self._specs)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def specs(self, only: Iterable[str] | None = None) -> list[ToolSpec]:
        """The specs (all, or those named in ``only``, in registration order)."""
        if only is None:
            return list(self._specs.values())
        keep = set(only)
        return [s for n, s in self._specs.items() if n in keep]

    def subset(self, names: Iterable[str]) -> ToolRegistry:
        """A registry of the named tools only (same specs and handlers, this order)."""
        out = ToolRegistry()
        for name in self._specs:
            if name in set(names):
                out.register(self._specs[name], self._handlers[name])
        return out

    def openai(self, only: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """The tools in the OpenAI chat-completions ``tools`` format."""
        return [s.openai() for s in self.specs(only)]

    def anthropic(self, only: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """The tools in the Anthropic Messages API ``tools`` format."""
        return [s.anthropic() for s in self.specs(only)]

    def dispatch(
        self,
        name: str,
        arguments: str | Mapping[str, Any] | None,
        *,
        only: Iterable[str] | None = None,
    ) -> dict[str, Any]:
        """Run one tool call; never raises. ``only`` restricts the callable tools."""
        allowed = self.names if only is None else [n for n in self.names if n in set(only)]
        handler = self._handlers.get(name)
        if handler is None or name not in allowed:
            return UnknownTool(name, allowed).to_response()
        raw: str | dict[str, Any] | None
        raw = dict(arguments) if isinstance(arguments, Mapping) else arguments
        response = tool_response(name, lambda: handler(raw))
        if not isinstance(response, dict):
            return {"success": True, "result": response}
        return response


def tool_result_text(response: Mapping[str, Any]) -> str:
    """A tool response as the ``content`` of a ``role: tool`` message (compact JSON)."""
    return json.dumps(response, ensure_ascii=False, default=str)
