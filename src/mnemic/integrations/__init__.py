"""mnemic inside other agents: Claude Code's settings and hooks (``mnemic integrate``,
``mnemic hook``). See docs/integrations.md.

* :mod:`.claude_code` merges mnemic's hooks and MCP server into Claude Code's settings
  files, and takes them out again;
* :mod:`.hook` is what those hooks run: the memory snapshot at session start, the
  transcript imported at compaction and at session end;
* :mod:`.jsonfile` reads another program's JSON file strictly and rewrites it safely.

Import names from these modules: the package imports none of them, so that a hook call
loads the hook and not the settings merger.
"""

from __future__ import annotations
