"""``mnemic tool NAME JSON``: run one tool call against the home and print its response."""

from __future__ import annotations

import os
import sys

import click

from ..curated.memory import Memory
from ..curated.scope import open_project
from ..errors import MnemicError
from ..home import Home
from ..sessions import SessionStore, open_store
from ..skills.governed import GovernedSkills
from ..tooling import parse_arguments
from ..tools import MNEMIC_TOOLS, ToolRegistry, home_tools
from .app import PROJECT_OPT, AppContext, emit_json, handle_errors, pass_app, read_utf8

__all__ = ["cli_tools", "tool"]


def cli_tools(
    home: Home, opened: list[SessionStore], *, project: str | None = None
) -> ToolRegistry:
    """The tools as one CLI call uses them: a fresh foreground session (origin ``cli``)
    whose parts open on first use; a session store it opens is appended to ``opened``
    (the caller closes it). ``MNEMIC_SESSION_ID`` names the caller's live session, which
    session_search leaves out. ``project`` (a directory) is the memory tool's
    ``scope="project"``."""

    def project_memory(directory: str) -> Memory:
        return Memory.open(open_project(home, directory))  # made by its first kept write

    def sessions() -> SessionStore:
        if not opened:
            opened.append(open_store(home))
        return opened[0]

    return home_tools(
        home,
        memory=lambda: Memory.open(home),
        sessions=sessions,
        skills=lambda: GovernedSkills.open(home, origin="cli"),
        current_session_id=lambda: os.environ.get("MNEMIC_SESSION_ID") or None,
        project=None if project is None else lambda: project_memory(project),
    )


@click.command(name="tool")
@click.argument("name")
@click.argument("arguments", default="{}", metavar="JSON")
@PROJECT_OPT
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
    if name not in MNEMIC_TOOLS:
        known = ", ".join(sorted(MNEMIC_TOOLS))
        raise click.UsageError(f"unknown tool {name!r}; known tools: {known}")
    text = read_utf8(sys.stdin.buffer, "stdin") if arguments == "-" else arguments
    try:
        args = parse_arguments(text)
    except MnemicError as exc:
        emit_json(exc.to_response())
        sys.exit(1)
    opened: list[SessionStore] = []
    try:
        response = cli_tools(app.home, opened, project=app.project).dispatch(name, args)
    finally:
        for store in opened:
            store.close()
    emit_json(response)
    sys.exit(0 if response.get("success") else 1)
