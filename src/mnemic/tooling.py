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

from .errors import InvalidArgument

__all__ = [
    "ToolSpec",
    "check_text",
    "find_surrogate",
    "parse_arguments",
    "ranked_listing",
    "safe_text",
]


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
    when the text is not a JSON object, or when any key or string in it is not valid
    Unicode text (a lone surrogate such as ``"\\ud800"``, which cannot be stored as
    UTF-8). A dict (the MCP server and the agent pass one) is checked the same way.
    """

    if raw is None or raw == "":
        return {}
    if isinstance(raw, dict):
        check_text(raw)
        return raw
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, TypeError) as exc:
        raise InvalidArgument(
            "arguments",
            f"The tool arguments are not valid JSON ({safe_text(str(exc))}). Send one JSON "
            'object, e.g. {"action": "add", "target": "memory", "content": "..."}.',
        ) from exc
    except UnicodeDecodeError as exc:  # bytes that are not UTF-8
        raise InvalidArgument(
            "arguments", f"The tool arguments are not UTF-8 text ({exc.reason}). Send UTF-8."
        ) from exc
    if not isinstance(value, dict):
        raise InvalidArgument(
            "arguments",
            f"The tool arguments must be a JSON object, got {type(value).__name__}.",
        )
    check_text(value)
    return value


def safe_text(text: str) -> str:
    """``text`` with every lone surrogate written as an escape (``\\ud800``): safe to print
    or to encode as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def find_surrogate(value: Any) -> tuple[str, str] | None:
    """Where the first lone surrogate in a JSON-like value is: (path, ``U+XXXX``).

    Walks dicts (keys and values), lists and strings without recursion, so a deeply
    nested value cannot exhaust the stack.
    """
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                return path or "(value)", f"U+{ord(item[exc.start]):04X}"
        elif isinstance(item, dict):
            for key, sub in reversed(list(item.items())):
                name = str(key)
                where = f"{path}.{safe_text(name)}" if path else safe_text(name)
                stack.append((where, sub))
                stack.append((f"{where} (the key)", name))
        elif isinstance(item, list | tuple):
            for i in range(len(item) - 1, -1, -1):
                stack.append((f"{path}[{i}]", item[i]))
    return None


def check_text(value: Any) -> None:
    """Refuse a value holding a lone surrogate with :class:`~mnemic.errors.InvalidArgument`."""
    found = find_surrogate(value)
    if found is None:
        return

    path, codepoint = found
    raise InvalidArgument(
        path.split(".")[0].split("[")[0].split(" ")[0],
        f"The tool argument {path} holds {codepoint}, a lone surrogate: it is not valid "
        "Unicode text and cannot be stored. Nothing was done. Send the text as proper "
        "UTF-8 (JSON \\u escapes only in valid surrogate pairs).",
        argument=path,
    )


def ranked_listing(
    retrieval: str, results: list[dict[str, Any]], notice: str | None
) -> dict[str, Any]:
    """The JSON form every ranked search answers with (memory entries, skills): the mode
    that ran, the count, the results best first, and a notice when there is one."""
    out: dict[str, Any] = {"retrieval": retrieval, "count": len(results), "results": results}
    if notice:
        out["notice"] = notice
    return out
