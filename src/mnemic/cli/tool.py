"""``mnemic tool NAME JSON``: run one tool call against the home and print its response."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from ..errors import MnemicError
from ..home import Home
from ..tooling import parse_arguments
from . import AppContext, emit_json, handle_errors, pass_app, read_utf8
from .governance import run_skill_manage
from .skills import run_skill_view, run_skills_list

__all__ = ["TOOL_RUNNERS", "tool"]


def _run_memory(home: Home, args: dict[str, Any]) -> dict[str, Any]:
    from ..curated import Memory

    return Memory.open(home).tool(args)


def _run_session_search(home: Home, args: dict[str, Any]) -> dict[str, Any]:
    import os

    from ..sessions import open_store, search_tool_for

    with open_store(home) as store:  # MNEMIC_SESSION_ID: the caller's live session
        current = os.environ.get("MNEMIC_SESSION_ID") or None
        return search_tool_for(home, store, args, current_session_id=current)


# name -> runner(home, arguments) -> JSON response. Each runner opens a fresh session.
TOOL_RUNNERS: dict[str, Callable[[Home, dict[str, Any]], dict[str, Any]]] = {
    "memory": _run_memory,
    "skills_list": run_skills_list,
    "skill_view": run_skill_view,
    "skill_manage": run_skill_manage,
    "session_search": _run_session_search,
}


@click.command(name="tool")
@click.argument("name")
@click.argument("arguments", default="{}", metavar="JSON")
@pass_app
@handle_errors
def tool(app: AppContext, name: str, arguments: str) -> None:
    """Run one tool call NAME with JSON arguments and print the JSON response.

    JSON may be '-' to read the arguments from stdin. Exit status is 0 when the tool
    succeeded and 1 when it refused (the response says why).

    \b
    Examples:
      mnemic tool memory '{"action": "add", "target": "user", "content": "Prefers metric units"}'
      mnemic tool memory '{"action": "read", "target": "memory"}'
    """
    runner = TOOL_RUNNERS.get(name)
    if runner is None:
        known = ", ".join(sorted(TOOL_RUNNERS))
        raise click.UsageError(f"unknown tool {name!r}; known tools: {known}")
    text = read_utf8(sys.stdin.buffer, "stdin") if arguments == "-" else arguments
    try:
        args = parse_arguments(text)
    except MnemicError as exc:
        emit_json(exc.to_response())
        sys.exit(1)
    response = runner(app.home, args)
    emit_json(response)
    sys.exit(0 if response.get("success") else 1)
