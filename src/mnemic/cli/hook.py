"""``mnemic hook``: what other agents' hooks run (installed by ``mnemic integrate``).

Claude Code runs ``mnemic hook claude-code`` at every session start, compaction and
session end; :func:`mnemic.cli.run` starts its handler (:mod:`.hook_run`) without click
when the command line is that plain form, and this command runs the same handler for
any other form (options the fast path leaves to click). ``mnemic hook hermes`` (the
bridge Hermes's mnemic provider keeps running) imports its own parts when it starts.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from .app import AppContext, pass_app
from .hook_run import run_claude_code_hook_command

__all__ = ["hook"]


@click.group(name="hook", hidden=True)
def hook() -> None:
    """Entry points run by other agents' hooks (installed by `mnemic integrate`)."""


@hook.command(name="claude-code")
@pass_app
def hook_claude_code(app: AppContext) -> None:
    """Handle one Claude Code hook call: its JSON on stdin, dispatched on
    hook_event_name (SessionStart, PreCompact, SessionEnd). Always exits 0; a problem
    is one line on stderr. `mnemic --project DIR hook claude-code` gives the session
    that project's memory (a project install writes it so)."""
    run_claude_code_hook_command(home_path=app.home_path, profile=app.profile, project=app.project)


@hook.command(name="hermes")
@pass_app
def hook_hermes(app: AppContext) -> None:
    """The bridge of Hermes's mnemic provider: JSON requests on stdin, one per line,
    each answered with one line on stdout, until stdin ends (see
    mnemic.integrations.hermes_bridge). A home that cannot be opened is reported in
    every answer."""
    from ..curated.entries import TARGETS
    from ..curated.memory import Memory
    from ..integrations.hermes_bridge import serve
    from ..ops.archive_search import search_archive
    from ..sessions import embedder_loader_for, text_floor_for

    def archive(memory: Memory, query: str, target: str | None) -> dict[str, Any]:
        targets = [target] if target else list(TARGETS)
        home = app.existing_home  # opened: the bridge runs
        loader = embedder_loader_for(home)
        floor = text_floor_for(home)
        found = search_archive(
            memory, query, targets=targets, embedder_loader=loader, floor=floor, for_model=True
        )
        return found.to_dict()

    serve(lambda: app.existing_home, sys.stdin.buffer, sys.stdout.buffer, archive_search=archive)
