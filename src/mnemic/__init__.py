"""mnemic: small, curated, safe memory for LLM agents.

The public API is ``mnemic.__all__``. Names are imported lazily on first use, so
``import mnemic`` stays fast (agents shell out to the CLI, and start-up time is paid on
every call).

>>> import mnemic                                   # doctest: +SKIP
>>> mem = mnemic.Memory.open()                      # curated memory of $MNEMIC_HOME
>>> mem.tool({"action": "add", "target": "user", "content": "Prefers metric units"})
>>> print(mem.snapshot.text)                        # frozen for this session
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # curated memory
    "Changes": "mnemic.curated.memory",
    "CuratedBackend": "mnemic.curated.backend",
    "FileBackend": "mnemic.curated.backend",
    "MEMORY_TOOL": "mnemic.curated.tool",
    "Memory": "mnemic.curated.memory",
    "Op": "mnemic.curated.store",
    "ReadResult": "mnemic.curated.memory",
    "Snapshot": "mnemic.curated.memory",
    "Usage": "mnemic.curated.usage",
    "Version": "mnemic.curated.backend",
    "WriteResult": "mnemic.curated.memory",
    "render_snapshot": "mnemic.curated.snapshot",
    "run_memory_tool": "mnemic.curated.tool",
    # home and settings
    "Home": "mnemic.home",
    "Settings": "mnemic.config",
    "load_settings": "mnemic.config",
    "resolve_home": "mnemic.home",
    # tools, prompt and scanning
    "ToolSpec": "mnemic.tooling",
    "SystemPrompt": "mnemic.prompt",
    "build_system_prompt": "mnemic.prompt",
    "Finding": "mnemic.scan",
    "ScanResult": "mnemic.scan",
    "scan_sections": "mnemic.scan",
    "scan_text": "mnemic.scan",
    # session history
    "NewMessage": "mnemic.sessions",
    "NewSession": "mnemic.sessions",
    "SESSION_SEARCH_TOOL": "mnemic.sessions",
    "SQLiteSessionStore": "mnemic.sessions",
    "SessionStore": "mnemic.sessions",
    "open_store": "mnemic.sessions",
    "run_session_search": "mnemic.sessions",
    # language-model client
    "ChatClient": "mnemic.llm",
    "ChatResult": "mnemic.llm",
    "OpenAIChatClient": "mnemic.llm",
    # skills
    "SkillChange": "mnemic.skills",
    "SkillStore": "mnemic.skills",
    "run_skill_tool": "mnemic.skills",
    "skill_tool_specs": "mnemic.skills",
    "skills_index": "mnemic.skills",
    # governance
    "AuditJournal": "mnemic.governance.audit",
    "PendingQueue": "mnemic.governance.review",
    "WriteContext": "mnemic.governance.actors",
    "collect_garbage": "mnemic.governance.retention",
    "forget_sessions": "mnemic.governance.forget",
    "forget_user": "mnemic.governance.forget",
    "metrics_text": "mnemic.governance.metrics",
    # errors
    "ApprovalUnavailable": "mnemic.errors",
    "PendingExpired": "mnemic.errors",
    "PendingNotFound": "mnemic.errors",
    "WriteBlocked": "mnemic.errors",
    "WriteDenied": "mnemic.errors",
    "AmbiguousMatch": "mnemic.errors",
    "BatchFailed": "mnemic.errors",
    "BudgetExceeded": "mnemic.errors",
    "ConfigError": "mnemic.errors",
    "ContentRejected": "mnemic.errors",
    "DriftDetected": "mnemic.errors",
    "EntryChanged": "mnemic.errors",
    "InvalidArgument": "mnemic.errors",
    "LockTimeout": "mnemic.errors",
    "LoopStopped": "mnemic.errors",
    "MnemicError": "mnemic.errors",
    "NoMatch": "mnemic.errors",
    "StorageError": "mnemic.errors",
    "ThreatBlocked": "mnemic.errors",
    "ToolError": "mnemic.errors",
    "UnreadableFile": "mnemic.errors",
    "UnsafePath": "mnemic.errors",
    "WouldEmptyTarget": "mnemic.errors",
    "WriteFailed": "mnemic.errors",
    # agent integration
    "AgentSession": "mnemic.agent",
    "ChatAgent": "mnemic.agent",
    "TurnResult": "mnemic.agent",
    "TurnStart": "mnemic.agent",
    "ToolRegistry": "mnemic.agent",
    "preview_prompt": "mnemic.agent",
    "MemoryProvider": "mnemic.providers",
    "ProviderManager": "mnemic.providers",
    "RecallProvider": "mnemic.providers",
    "available_providers": "mnemic.providers",
    "load_provider": "mnemic.providers",
    "scrub_text": "mnemic.providers",
    "ImportFailed": "mnemic.errors",
    "LLMError": "mnemic.errors",
    "LLMNotConfigured": "mnemic.errors",
    "LLMRequestFailed": "mnemic.errors",
    "LLMTimeout": "mnemic.errors",
    "McpServerError": "mnemic.errors",
    "MessageNotFound": "mnemic.errors",
    "PatchAmbiguous": "mnemic.errors",
    "PatchNoMatch": "mnemic.errors",
    "ProviderConflict": "mnemic.errors",
    "ProviderError": "mnemic.errors",
    "ProviderNotFound": "mnemic.errors",
    "ProviderTimeout": "mnemic.errors",
    "ProviderUnavailable": "mnemic.errors",
    "SessionExists": "mnemic.errors",
    "SessionNotFound": "mnemic.errors",
    "SessionStoreBusy": "mnemic.errors",
    "SessionStoreError": "mnemic.errors",
    "SkillChanged": "mnemic.errors",
    "SkillExists": "mnemic.errors",
    "SkillInvalid": "mnemic.errors",
    "SkillNotFound": "mnemic.errors",
    "SkillPathRefused": "mnemic.errors",
    "SkillReadOnly": "mnemic.errors",
    "SkillThreatBlocked": "mnemic.errors",
    "SkillTooLarge": "mnemic.errors",
    "SkillUnsafe": "mnemic.errors",
    "UnknownTool": "mnemic.errors",
    "MissingDependency": "mnemic.errors",
    "ReadOnlyHome": "mnemic.errors",
    "UnsupportedPlatform": "mnemic.errors",
}

__all__ = [
    "AgentSession",
    "AmbiguousMatch",
    "ApprovalUnavailable",
    "AuditJournal",
    "BatchFailed",
    "BudgetExceeded",
    "Changes",
    "ChatAgent",
    "ChatClient",
    "ChatResult",
    "ConfigError",
    "ContentRejected",
    "CuratedBackend",
    "DriftDetected",
    "EntryChanged",
    "FileBackend",
    "Finding",
    "Home",
    "ImportFailed",
    "InvalidArgument",
    "LLMError",
    "LLMNotConfigured",
    "LLMRequestFailed",
    "LLMTimeout",
    "LockTimeout",
    "LoopStopped",
    "MEMORY_TOOL",
    "McpServerError",
    "Memory",
    "MemoryProvider",
    "MessageNotFound",
    "MissingDependency",
    "MnemicError",
    "NewMessage",
    "NewSession",
    "NoMatch",
    "Op",
    "OpenAIChatClient",
    "PatchAmbiguous",
    "PatchNoMatch",
    "PendingExpired",
    "PendingNotFound",
    "PendingQueue",
    "ProviderConflict",
    "ProviderError",
    "ProviderManager",
    "ProviderNotFound",
    "ProviderTimeout",
    "ProviderUnavailable",
    "ReadOnlyHome",
    "ReadResult",
    "RecallProvider",
    "SESSION_SEARCH_TOOL",
    "SQLiteSessionStore",
    "ScanResult",
    "SessionExists",
    "SessionNotFound",
    "SessionStore",
    "SessionStoreBusy",
    "SessionStoreError",
    "Settings",
    "SkillChange",
    "SkillChanged",
    "SkillExists",
    "SkillInvalid",
    "SkillNotFound",
    "SkillPathRefused",
    "SkillReadOnly",
    "SkillStore",
    "SkillThreatBlocked",
    "SkillTooLarge",
    "SkillUnsafe",
    "Snapshot",
    "StorageError",
    "SystemPrompt",
    "ThreatBlocked",
    "ToolError",
    "ToolRegistry",
    "ToolSpec",
    "TurnResult",
    "TurnStart",
    "UnknownTool",
    "UnreadableFile",
    "UnsafePath",
    "UnsupportedPlatform",
    "Usage",
    "Version",
    "WouldEmptyTarget",
    "WriteBlocked",
    "WriteContext",
    "WriteDenied",
    "WriteFailed",
    "WriteResult",
    "available_providers",
    "build_system_prompt",
    "collect_garbage",
    "forget_sessions",
    "forget_user",
    "load_provider",
    "load_settings",
    "metrics_text",
    "open_store",
    "preview_prompt",
    "render_snapshot",
    "resolve_home",
    "run_memory_tool",
    "run_session_search",
    "run_skill_tool",
    "scan_sections",
    "scan_text",
    "scrub_text",
    "skill_tool_specs",
    "skills_index",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mnemic' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .agent import (
        AgentSession,
        ChatAgent,
        ToolRegistry,
        TurnResult,
        TurnStart,
        preview_prompt,
    )
    from .config import (
        Settings,
        load_settings,
    )
    from .curated.backend import (
        CuratedBackend,
        FileBackend,
        Version,
    )
    from .curated.memory import (
        Changes,
        Memory,
        ReadResult,
        Snapshot,
        WriteResult,
    )
    from .curated.snapshot import (
        render_snapshot,
    )
    from .curated.store import (
        Op,
    )
    from .curated.tool import (
        MEMORY_TOOL,
        run_memory_tool,
    )
    from .curated.usage import (
        Usage,
    )
    from .errors import (
        AmbiguousMatch,
        ApprovalUnavailable,
        BatchFailed,
        BudgetExceeded,
        ConfigError,
        ContentRejected,
        DriftDetected,
        EntryChanged,
        ImportFailed,
        InvalidArgument,
        LLMError,
        LLMNotConfigured,
        LLMRequestFailed,
        LLMTimeout,
        LockTimeout,
        LoopStopped,
        McpServerError,
        MessageNotFound,
        MissingDependency,
        MnemicError,
        NoMatch,
        PatchAmbiguous,
        PatchNoMatch,
        PendingExpired,
        PendingNotFound,
        ProviderConflict,
        ProviderError,
        ProviderNotFound,
        ProviderTimeout,
        ProviderUnavailable,
        ReadOnlyHome,
        SessionExists,
        SessionNotFound,
        SessionStoreBusy,
        SessionStoreError,
        SkillChanged,
        SkillExists,
        SkillInvalid,
        SkillNotFound,
        SkillPathRefused,
        SkillReadOnly,
        SkillThreatBlocked,
        SkillTooLarge,
        SkillUnsafe,
        StorageError,
        ThreatBlocked,
        ToolError,
        UnknownTool,
        UnreadableFile,
        UnsafePath,
        UnsupportedPlatform,
        WouldEmptyTarget,
        WriteBlocked,
        WriteDenied,
        WriteFailed,
    )
    from .governance.actors import (
        WriteContext,
    )
    from .governance.audit import (
        AuditJournal,
    )
    from .governance.forget import (
        forget_sessions,
        forget_user,
    )
    from .governance.metrics import (
        metrics_text,
    )
    from .governance.retention import (
        collect_garbage,
    )
    from .governance.review import (
        PendingQueue,
    )
    from .home import (
        Home,
        resolve_home,
    )
    from .llm import (
        ChatClient,
        ChatResult,
        OpenAIChatClient,
    )
    from .prompt import (
        SystemPrompt,
        build_system_prompt,
    )
    from .providers import (
        MemoryProvider,
        ProviderManager,
        RecallProvider,
        available_providers,
        load_provider,
        scrub_text,
    )
    from .scan import (
        Finding,
        ScanResult,
        scan_sections,
        scan_text,
    )
    from .sessions import (
        SESSION_SEARCH_TOOL,
        NewMessage,
        NewSession,
        SessionStore,
        SQLiteSessionStore,
        open_store,
        run_session_search,
    )
    from .skills import (
        SkillChange,
        SkillStore,
        run_skill_tool,
        skill_tool_specs,
        skills_index,
    )
    from .tooling import (
        ToolSpec,
    )
