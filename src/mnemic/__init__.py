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
    "FileBackend": "mnemic.backends.files.curated",
    "MEMORY_TOOL": "mnemic.curated.tool",
    "Memory": "mnemic.curated.memory",
    "MemoryCommitted": "mnemic.curated.memory",
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
    "AuditJournal": "mnemic.backends.files.journal",
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
    "EmbeddingModelDamaged": "mnemic.errors",
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
    "ToolRegistry": "mnemic.tools",
    "preview_prompt": "mnemic.agent",
    "MemoryProvider": "mnemic.providers",
    "ProviderManager": "mnemic.providers",
    "RecallProvider": "mnemic.providers",
    "available_providers": "mnemic.providers",
    "load_provider": "mnemic.providers",
    "scrub_text": "mnemic.providers",
    "HomeNotFound": "mnemic.errors",
    "ImportFailed": "mnemic.errors",
    "IntegrationError": "mnemic.errors",
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
    "SemanticExtraMissing": "mnemic.errors",
    "SemanticUnavailable": "mnemic.errors",
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


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs (explicit re-exports)
    from .agent import (
        AgentSession as AgentSession,
        ChatAgent as ChatAgent,
        TurnResult as TurnResult,
        TurnStart as TurnStart,
        preview_prompt as preview_prompt,
    )
    from .backends.files.curated import (
        FileBackend as FileBackend,
    )
    from .backends.files.journal import (
        AuditJournal as AuditJournal,
    )
    from .config import (
        Settings as Settings,
        load_settings as load_settings,
    )
    from .curated.backend import (
        CuratedBackend as CuratedBackend,
        Version as Version,
    )
    from .curated.memory import (
        Changes as Changes,
        Memory as Memory,
        MemoryCommitted as MemoryCommitted,
        ReadResult as ReadResult,
        Snapshot as Snapshot,
        WriteResult as WriteResult,
    )
    from .curated.snapshot import (
        render_snapshot as render_snapshot,
    )
    from .curated.store import (
        Op as Op,
    )
    from .curated.tool import (
        MEMORY_TOOL as MEMORY_TOOL,
        run_memory_tool as run_memory_tool,
    )
    from .curated.usage import (
        Usage as Usage,
    )
    from .errors import (
        AmbiguousMatch as AmbiguousMatch,
        ApprovalUnavailable as ApprovalUnavailable,
        BatchFailed as BatchFailed,
        BudgetExceeded as BudgetExceeded,
        ConfigError as ConfigError,
        ContentRejected as ContentRejected,
        CuratedError as CuratedError,
        DriftDetected as DriftDetected,
        EmbeddingModelDamaged as EmbeddingModelDamaged,
        EntryChanged as EntryChanged,
        GovernanceError as GovernanceError,
        HomeNotFound as HomeNotFound,
        ImportFailed as ImportFailed,
        IntegrationError as IntegrationError,
        InvalidArgument as InvalidArgument,
        LLMError as LLMError,
        LLMNotConfigured as LLMNotConfigured,
        LLMRequestFailed as LLMRequestFailed,
        LLMTimeout as LLMTimeout,
        LockTimeout as LockTimeout,
        LoopStopped as LoopStopped,
        McpServerError as McpServerError,
        MessageNotFound as MessageNotFound,
        MissingDependency as MissingDependency,
        MnemicError as MnemicError,
        NoMatch as NoMatch,
        PatchAmbiguous as PatchAmbiguous,
        PatchNoMatch as PatchNoMatch,
        PendingExpired as PendingExpired,
        PendingNotFound as PendingNotFound,
        ProviderConflict as ProviderConflict,
        ProviderError as ProviderError,
        ProviderNotFound as ProviderNotFound,
        ProviderTimeout as ProviderTimeout,
        ProviderUnavailable as ProviderUnavailable,
        ReadOnlyHome as ReadOnlyHome,
        SemanticExtraMissing as SemanticExtraMissing,
        SemanticUnavailable as SemanticUnavailable,
        SessionError as SessionError,
        SessionExists as SessionExists,
        SessionNotFound as SessionNotFound,
        SessionStoreBusy as SessionStoreBusy,
        SessionStoreError as SessionStoreError,
        SkillChanged as SkillChanged,
        SkillError as SkillError,
        SkillExists as SkillExists,
        SkillInvalid as SkillInvalid,
        SkillNotFound as SkillNotFound,
        SkillPathRefused as SkillPathRefused,
        SkillReadOnly as SkillReadOnly,
        SkillThreatBlocked as SkillThreatBlocked,
        SkillTooLarge as SkillTooLarge,
        SkillUnsafe as SkillUnsafe,
        StorageError as StorageError,
        ThreatBlocked as ThreatBlocked,
        ToolError as ToolError,
        UnknownTool as UnknownTool,
        UnreadableFile as UnreadableFile,
        UnsafePath as UnsafePath,
        UnsupportedPlatform as UnsupportedPlatform,
        WouldEmptyTarget as WouldEmptyTarget,
        WriteBlocked as WriteBlocked,
        WriteDenied as WriteDenied,
        WriteFailed as WriteFailed,
    )
    from .governance.actors import (
        WriteContext as WriteContext,
    )
    from .home import (
        Home as Home,
        resolve_home as resolve_home,
    )
    from .llm import (
        ChatClient as ChatClient,
        ChatResult as ChatResult,
        OpenAIChatClient as OpenAIChatClient,
    )
    from .ops.forget import (
        forget_sessions as forget_sessions,
        forget_user as forget_user,
    )
    from .ops.retention import (
        collect_garbage as collect_garbage,
    )
    from .ops.review import (
        PendingQueue as PendingQueue,
    )
    from .ops.stats import (
        metrics_text as metrics_text,
    )
    from .prompt import (
        SystemPrompt as SystemPrompt,
        build_system_prompt as build_system_prompt,
    )
    from .providers import (
        MemoryProvider as MemoryProvider,
        ProviderManager as ProviderManager,
        RecallProvider as RecallProvider,
        available_providers as available_providers,
        load_provider as load_provider,
        scrub_text as scrub_text,
    )
    from .scan import (
        Finding as Finding,
        ScanResult as ScanResult,
        scan_sections as scan_sections,
        scan_text as scan_text,
    )
    from .sessions import (
        SESSION_SEARCH_TOOL as SESSION_SEARCH_TOOL,
        NewMessage as NewMessage,
        NewSession as NewSession,
        SessionStore as SessionStore,
        SQLiteSessionStore as SQLiteSessionStore,
        open_store as open_store,
        run_session_search as run_session_search,
    )
    from .skills import (
        SkillChange as SkillChange,
        SkillStore as SkillStore,
        run_skill_tool as run_skill_tool,
        skill_tool_specs as skill_tool_specs,
        skills_index as skills_index,
    )
    from .tooling import (
        ToolSpec as ToolSpec,
    )
    from .tools import (
        ToolRegistry as ToolRegistry,
    )
