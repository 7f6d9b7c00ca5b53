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

from ._lazy import load

TYPE_CHECKING = False
__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # curated memory
    "Changes": "mnemic.curated.memory",
    "CuratedBackend": "mnemic.curated.backend",
    "FileBackend": "mnemic.curated.file_backend",
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
    "PendingQueue": "mnemic.ops.review",
    "WriteContext": "mnemic.governance.actors",
    "collect_garbage": "mnemic.ops.retention",
    "forget_sessions": "mnemic.ops.forget",
    "forget_user": "mnemic.ops.forget",
    "metrics_text": "mnemic.ops.stats",
    # errors
    "ApprovalUnavailable": "mnemic.errors",
    "GovernanceError": "mnemic.errors",
    "PendingExpired": "mnemic.errors",
    "PendingNotFound": "mnemic.errors",
    "WriteBlocked": "mnemic.errors",
    "WriteDenied": "mnemic.errors",
    "AmbiguousMatch": "mnemic.errors",
    "BatchFailed": "mnemic.errors",
    "BudgetExceeded": "mnemic.errors",
    "ConfigError": "mnemic.errors",
    "ContentRejected": "mnemic.errors",
    "CuratedError": "mnemic.errors",
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
    "SessionError": "mnemic.errors",
    "SessionExists": "mnemic.errors",
    "SessionNotFound": "mnemic.errors",
    "SessionStoreBusy": "mnemic.errors",
    "SessionStoreError": "mnemic.errors",
    "SkillChanged": "mnemic.errors",
    "SkillError": "mnemic.errors",
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

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    return load(__name__, _EXPORTS, name, globals())


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
        Version,
    )
    from .curated.file_backend import FileBackend
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
        CuratedError,
        DriftDetected,
        EntryChanged,
        GovernanceError,
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
        SessionError,
        SessionExists,
        SessionNotFound,
        SessionStoreBusy,
        SessionStoreError,
        SkillChanged,
        SkillError,
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
    from .home import (
        Home,
        resolve_home,
    )
    from .llm import (
        ChatClient,
        ChatResult,
        OpenAIChatClient,
    )
    from .ops.forget import forget_sessions, forget_user
    from .ops.retention import collect_garbage
    from .ops.review import PendingQueue
    from .ops.stats import metrics_text
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
