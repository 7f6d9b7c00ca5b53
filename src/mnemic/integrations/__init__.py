"""mnemic inside other agents: Claude Code's settings and hooks (``mnemic integrate``,
``mnemic hook``). See docs/integrations.md.

* :mod:`.claude_code` merges mnemic's hooks and MCP server into Claude Code's settings
  files, and takes them out again;
* :mod:`.hook` is what those hooks run: the memory snapshot at session start, the
  transcript imported at compaction and at session end;
* :mod:`.jsonfile` reads another program's JSON file strictly and rewrites it safely.
"""

from __future__ import annotations

from .claude_code import IntegrationReport, integrate_claude_code
from .hook import HookResult, run_claude_code_hook

__all__ = ["HookResult", "IntegrationReport", "integrate_claude_code", "run_claude_code_hook"]
