"""mnemic: small, curated, safe memory for LLM agents.

The public API is ``mnemic.__all__``: the names an agent's code starts from. Everything
else is imported from its package: the errors from :mod:`mnemic.errors`, operations on a
whole home from :mod:`mnemic.ops`, the agent loop's parts from :mod:`mnemic.agent`, and
so on. ``import mnemic`` imports none of them: each name is loaded on first use, because
every command and agent hook imports this package first.

>>> import mnemic
>>> mem = mnemic.Memory.open()                      # curated memory of $MNEMIC_HOME
>>> call = {"action": "add", "target": "user", "content": "Prefers metric units."}
>>> mnemic.run_memory_tool(mem, call)["message"]    # what a model's tool call gets
'Entry added.'
>>> mem.snapshot.text                      # frozen for the session: empty at its start
''
>>> print(mem.new_session().text)          # doctest: +ELLIPSIS
═...
USER PROFILE (who the user is) [1% — 21/1,375 chars]
═...
Prefers metric units.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ._moved import moved

__version__ = "0.1.0"

_PUBLIC: dict[str, str] = {
    # curated memory
    "MEMORY_TOOL": "mnemic.curated.tool",
    "Memory": "mnemic.curated.memory",
    "Snapshot": "mnemic.curated.memory",
    "WriteResult": "mnemic.curated.memory",
    "render_snapshot": "mnemic.curated.snapshot",
    "run_memory_tool": "mnemic.curated.tool",
    # the home and its settings
    "Home": "mnemic.home",
    "Settings": "mnemic.config",
    "load_settings": "mnemic.config",
    # session history
    "SESSION_SEARCH_TOOL": "mnemic.sessions",
    "SessionStore": "mnemic.sessions",
    "open_store": "mnemic.sessions",
    "run_session_search": "mnemic.sessions",
    # skills
    "SkillStore": "mnemic.skills",
    "run_skill_tool": "mnemic.skills",
    "skill_tool_specs": "mnemic.skills",
    "skills_index": "mnemic.skills",
    # tools, the prompt, an agent
    "AgentSession": "mnemic.agent",
    "ToolRegistry": "mnemic.tools",
    "ToolSpec": "mnemic.tooling",
    "build_system_prompt": "mnemic.prompt",
    "ChatClient": "mnemic.llm",
    "OpenAIChatClient": "mnemic.llm",
    "MemoryProvider": "mnemic.providers",
    # errors (every other one is in mnemic.errors)
    "MnemicError": "mnemic.errors",
    "ToolError": "mnemic.errors",
}

__all__ = sorted(_PUBLIC)

# Every other error class: mnemic.errors has them all (a test keeps this list its __all__).
_ERRORS_MOVED = [
    "AmbiguousMatch",
    "ApprovalUnavailable",
    "AttachmentRefused",
    "BatchFailed",
    "BudgetExceeded",
    "BundleError",
    "ConfigError",
    "ContentRejected",
    "CuratedError",
    "DriftDetected",
    "EmbeddingModelDamaged",
    "EntryChanged",
    "GovernanceError",
    "HomeNotFound",
    "ImportFailed",
    "IntegrationError",
    "InvalidArgument",
    "LLMError",
    "LLMNotConfigured",
    "LLMRequestFailed",
    "LLMTimeout",
    "LockTimeout",
    "LoopStopped",
    "McpServerError",
    "MessageNotFound",
    "MissingDependency",
    "NoMatch",
    "PatchAmbiguous",
    "PatchNoMatch",
    "PendingAmbiguous",
    "PendingExpired",
    "PendingNotFound",
    "ProjectScopeError",
    "ProviderConflict",
    "ProviderError",
    "ProviderNotFound",
    "ProviderTimeout",
    "ProviderUnavailable",
    "ReadOnlyHome",
    "SemanticExtraMissing",
    "SemanticUnavailable",
    "SessionError",
    "SessionExists",
    "SessionNotFound",
    "SessionStoreBusy",
    "SessionStoreError",
    "SkillChanged",
    "SkillError",
    "SkillExists",
    "SkillInvalid",
    "SkillNotFound",
    "SkillPathRefused",
    "SkillReadOnly",
    "SkillThreatBlocked",
    "SkillTooLarge",
    "SkillUnsafe",
    "StorageError",
    "StoreUnreachable",
    "ThreatBlocked",
    "ThreatHeld",
    "UnknownTool",
    "UnreadableFile",
    "UnsafePath",
    "UnsupportedPlatform",
    "WouldEmptyTarget",
    "WriteBlocked",
    "WriteDenied",
    "WriteFailed",
]

_MOVED: dict[str, str] = {
    **dict.fromkeys(_ERRORS_MOVED, "mnemic.errors"),
    "AuditJournal": "mnemic.backends.files.journal",
    "Changes": "mnemic.curated.memory",
    "ChatAgent": "mnemic.agent",
    "ChatResult": "mnemic.llm",
    "CuratedBackend": "mnemic.curated.backend",
    "FileBackend": "mnemic.backends.files.curated",
    "Finding": "mnemic.scan",
    "MemoryCommitted": "mnemic.curated.memory",
    "NewMessage": "mnemic.sessions",
    "NewSession": "mnemic.sessions",
    "Op": "mnemic.curated.store",
    "PendingQueue": "mnemic.ops",
    "ProviderManager": "mnemic.providers",
    "ReadResult": "mnemic.curated.memory",
    "RecallProvider": "mnemic.providers",
    "SQLiteSessionStore": "mnemic.backends.files.sqlite",
    "ScanResult": "mnemic.scan",
    "SkillChange": "mnemic.skills",
    "SystemPrompt": "mnemic.prompt",
    "TurnResult": "mnemic.agent",
    "TurnStart": "mnemic.agent",
    "Usage": "mnemic.curated.usage",
    "Version": "mnemic.curated.backend",
    "WriteContext": "mnemic.governance",
    "available_providers": "mnemic.providers",
    "collect_garbage": "mnemic.ops",
    "forget_sessions": "mnemic.ops",
    "forget_user": "mnemic.ops",
    "load_provider": "mnemic.providers",
    "metrics_text": "mnemic.ops",
    "preview_prompt": "mnemic.agent",
    "resolve_home": "mnemic.home",
    "scan_sections": "mnemic.scan",
    "scan_text": "mnemic.scan",
    "scrub_text": "mnemic.providers",
}
"""Names this package exported before it kept only the public API, and where each is now
(``mnemic.X`` still works, with a DeprecationWarning naming the new import)."""


def __getattr__(name: str) -> object:
    module = _PUBLIC.get(name)
    if module is None:
        return moved(__name__, _MOVED, name)
    value: object = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next access is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_PUBLIC])


if TYPE_CHECKING:  # what type checkers and IDEs see: the same table (a test keeps them equal)
    from .agent import AgentSession as AgentSession
    from .config import Settings as Settings, load_settings as load_settings
    from .curated.memory import (
        Memory as Memory,
        Snapshot as Snapshot,
        WriteResult as WriteResult,
    )
    from .curated.snapshot import render_snapshot as render_snapshot
    from .curated.tool import MEMORY_TOOL as MEMORY_TOOL, run_memory_tool as run_memory_tool
    from .errors import MnemicError as MnemicError, ToolError as ToolError
    from .home import Home as Home
    from .llm import ChatClient as ChatClient, OpenAIChatClient as OpenAIChatClient
    from .prompt import build_system_prompt as build_system_prompt
    from .providers import MemoryProvider as MemoryProvider
    from .sessions import (
        SESSION_SEARCH_TOOL as SESSION_SEARCH_TOOL,
        SessionStore as SessionStore,
        open_store as open_store,
        run_session_search as run_session_search,
    )
    from .skills import (
        SkillStore as SkillStore,
        run_skill_tool as run_skill_tool,
        skill_tool_specs as skill_tool_specs,
        skills_index as skills_index,
    )
    from .tooling import ToolSpec as ToolSpec
    from .tools import ToolRegistry as ToolRegistry
