"""Tool descriptions shared by every surface (library, CLI, MCP, agent loop).

A :class:`ToolSpec` holds a tool's name, the description the model reads, and the JSON
schema of its arguments; it renders itself in the OpenAI function format and in the
Anthropic tool format. Schemas never use top-level ``oneOf``/``anyOf``/``allOf`` (some
providers reject them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ToolSpec", "parse_arguments"]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as the model sees it."""

    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=dict)

    def openai(self) -> dict[str, Any]:
        """The OpenAI chat-completions ``tools`` entry."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }

    def anthropic(self) -> dict[str, Any]:
        """The Anthropic Messages API ``tools`` entry."""
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.parameters,
        }


def parse_arguments(raw: str | dict[str, Any] | None) -> dict[str, Any]:
    """Decode tool-call arguments given as a JSON object or a JSON string.

    Raises :class:`~mnemic.errors.InvalidArgument` with a message the model can act on
    when the text is not a JSON object.
    """
    from .errors import InvalidArgument

    if raw is None or raw == "":
        return {}
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, TypeError) as exc:
        raise InvalidArgument(
            "arguments",
            f"The tool arguments are not valid JSON ({exc}). Send one JSON object, e.g. "
            '{"action": "add", "target": "memory", "content": "..."}.',
        ) from exc
    if not isinstance(value, dict):
        raise InvalidArgument(
            "arguments",
            f"The tool arguments must be a JSON object, got {type(value).__name__}.",
        )
    return value
