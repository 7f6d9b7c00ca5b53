"""``mnemic hook claude-code`` without click: what both the command (:mod:`.hook`) and
the fast path of :func:`mnemic.cli.run` run, so that they print the same bytes.

Claude Code runs the hook at every session start; what it imports is most of its time,
so this module imports the handler and nothing of the command line's machinery (a test
keeps click off the path).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, NoReturn

from ..integrations.hook import handle_claude_code_hook
from ..integrations.hook_input import InputProblem, emit

if TYPE_CHECKING:
    from ..home import Home
    from ..sessions.sql import SessionStore

__all__ = ["run_claude_code_hook_command"]


def _count_usage(home: Home, store: SessionStore, session_id: str) -> object:
    """Which memory entries mattered in the imported session (docs/lifecycle.md, Usage);
    imported here, not at the top: SessionStart needs none of it."""
    from ..ops.entry_usage import count_usage

    return count_usage(home, store, session_ids=[session_id])


def run_claude_code_hook_command(
    *,
    home_path: str | None,
    profile: str | None,
    project: str | None,
    data: bytes | InputProblem | OSError | None = None,
) -> NoReturn:
    """Handle one Claude Code hook call (its JSON on stdin), print what Claude Code reads
    on stdout and the one-line message on stderr, and exit 0. ``home_path`` and
    ``profile`` default to ``$MNEMIC_HOME`` and ``$MNEMIC_PROFILE`` (ignored when empty),
    as the root options do; ``project`` is the root ``--project``; ``data`` is stdin as
    the cached answer's look-up read it (``None``: not read yet)."""
    result = handle_claude_code_hook(
        home_path=home_path or os.environ.get("MNEMIC_HOME") or None,
        profile=profile or os.environ.get("MNEMIC_PROFILE") or None,
        count=_count_usage,
        project=project or None,
        data=data,
    )
    emit(result.stdout, result.message)
