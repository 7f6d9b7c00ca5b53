"""One error tree for all of mnemic.

Every error derives from :class:`MnemicError` and carries structured data. Each error
knows how to explain itself to a model (:meth:`MnemicError.to_llm`), to a person at the
command line (:meth:`MnemicError.to_human`: the same facts, with commands a person runs
instead of tool calls), and how to render itself as a tool response
(:meth:`MnemicError.to_response`). Callers branch on the type or on
:attr:`MnemicError.code`, never on message text.

A class says two things. Its domain base says which part of mnemic refused
(:class:`CuratedError`, :class:`SkillError`, :class:`SessionError`,
:class:`GovernanceError`, :class:`StorageError`, :class:`LLMError`,
:class:`ProviderError`); its kind says how to handle it: a :class:`ToolError` is a refusal
the model can recover from (it becomes a tool response), a :class:`StorageError` means
the storage failed and nothing changed. Where a domain holds both kinds, its errors
derive from both (marked "also" below). The errors that belong to no one domain sit
directly under :class:`MnemicError` or :class:`ToolError`.

Tree::

    MnemicError
    ├── ConfigError
    ├── GovernanceError
    │   ├── ApprovalUnavailable        also a StorageError
    │   ├── PendingExpired
    │   ├── PendingNotFound
    │   ├── WriteBlocked               also a ToolError
    │   └── WriteDenied                also a ToolError
    ├── IntegrationError
    ├── LLMError
    │   ├── LLMNotConfigured
    │   ├── LLMRequestFailed
    │   └── LLMTimeout
    ├── McpServerError
    ├── MissingDependency              also an ImportError
    ├── ProviderError
    │   ├── ProviderConflict
    │   ├── ProviderNotFound
    │   ├── ProviderTimeout
    │   └── ProviderUnavailable
    ├── SessionError
    │   ├── ImportFailed
    │   ├── MessageNotFound            also a ToolError
    │   ├── SemanticUnavailable
    │   │   ├── EmbeddingModelDamaged
    │   │   └── SemanticExtraMissing
    │   ├── SessionExists              also a ToolError
    │   ├── SessionNotFound            also a ToolError
    │   ├── SessionStoreBusy           also a StorageError
    │   └── SessionStoreError          also a StorageError
    ├── StorageError
    │   ├── HomeNotFound
    │   ├── LockTimeout
    │   ├── ReadOnlyHome
    │   ├── UnreadableFile
    │   ├── UnsafePath
    │   ├── UnsupportedPlatform
    │   └── WriteFailed
    └── ToolError
        ├── CuratedError
        │   ├── AmbiguousMatch
        │   ├── BatchFailed
        │   ├── BudgetExceeded
        │   ├── ContentRejected
        │   ├── DriftDetected
        │   ├── EntryChanged
        │   ├── LoopStopped
        │   ├── NoMatch
        │   └── WouldEmptyTarget
        ├── InvalidArgument
        ├── SkillError
        │   ├── PatchAmbiguous
        │   ├── PatchNoMatch
        │   ├── SkillChanged
        │   ├── SkillExists
        │   ├── SkillInvalid
        │   ├── SkillNotFound
        │   ├── SkillPathRefused
        │   ├── SkillReadOnly
        │   ├── SkillTooLarge
        │   └── SkillUnsafe
        ├── ThreatBlocked
        │   └── SkillThreatBlocked     also a SkillError
        └── UnknownTool

Each class's docstring says when it is raised. The modules of this package hold one
domain each; import the names from :mod:`mnemic.errors` itself. The package imports
nothing else from mnemic: it is the bottom layer.
"""

from __future__ import annotations

from .._lazy import load

# Loaded on first use: the snapshot path needs only a few of these modules, and each costs
# a module import on every agent hook and CLI start.
_EXPORTS = {
    "AmbiguousMatch": "mnemic.errors.curated",
    "ApprovalUnavailable": "mnemic.errors.governance",
    "BatchFailed": "mnemic.errors.curated",
    "BudgetExceeded": "mnemic.errors.curated",
    "ConfigError": "mnemic.errors.platform",
    "ContentRejected": "mnemic.errors.curated",
    "CuratedError": "mnemic.errors.curated",
    "DriftDetected": "mnemic.errors.curated",
    "EmbeddingModelDamaged": "mnemic.errors.sessions",
    "EntryChanged": "mnemic.errors.curated",
    "GovernanceError": "mnemic.errors.governance",
    "HomeNotFound": "mnemic.errors.storage",
    "ImportFailed": "mnemic.errors.sessions",
    "IntegrationError": "mnemic.errors.platform",
    "InvalidArgument": "mnemic.errors._base",
    "LLMError": "mnemic.errors.llm",
    "LLMNotConfigured": "mnemic.errors.llm",
    "LLMRequestFailed": "mnemic.errors.llm",
    "LLMTimeout": "mnemic.errors.llm",
    "LockTimeout": "mnemic.errors.storage",
    "LoopStopped": "mnemic.errors.curated",
    "McpServerError": "mnemic.errors.platform",
    "MessageNotFound": "mnemic.errors.sessions",
    "MissingDependency": "mnemic.errors.platform",
    "MnemicError": "mnemic.errors._base",
    "NoMatch": "mnemic.errors.curated",
    "PatchAmbiguous": "mnemic.errors.skills",
    "PatchNoMatch": "mnemic.errors.skills",
    "PendingExpired": "mnemic.errors.governance",
    "PendingNotFound": "mnemic.errors.governance",
    "ProviderConflict": "mnemic.errors.providers",
    "ProviderError": "mnemic.errors.providers",
    "ProviderNotFound": "mnemic.errors.providers",
    "ProviderTimeout": "mnemic.errors.providers",
    "ProviderUnavailable": "mnemic.errors.providers",
    "ReadOnlyHome": "mnemic.errors.storage",
    "SemanticExtraMissing": "mnemic.errors.sessions",
    "SemanticUnavailable": "mnemic.errors.sessions",
    "SessionError": "mnemic.errors.sessions",
    "SessionExists": "mnemic.errors.sessions",
    "SessionNotFound": "mnemic.errors.sessions",
    "SessionStoreBusy": "mnemic.errors.sessions",
    "SessionStoreError": "mnemic.errors.sessions",
    "SkillChanged": "mnemic.errors.skills",
    "SkillError": "mnemic.errors.skills",
    "SkillExists": "mnemic.errors.skills",
    "SkillInvalid": "mnemic.errors.skills",
    "SkillNotFound": "mnemic.errors.skills",
    "SkillPathRefused": "mnemic.errors.skills",
    "SkillReadOnly": "mnemic.errors.skills",
    "SkillThreatBlocked": "mnemic.errors.skills",
    "SkillTooLarge": "mnemic.errors.skills",
    "SkillUnsafe": "mnemic.errors.skills",
    "StorageError": "mnemic.errors.storage",
    "ThreatBlocked": "mnemic.errors._base",
    "ToolError": "mnemic.errors._base",
    "UnknownTool": "mnemic.errors._base",
    "UnreadableFile": "mnemic.errors.storage",
    "UnsafePath": "mnemic.errors.storage",
    "UnsupportedPlatform": "mnemic.errors.storage",
    "WouldEmptyTarget": "mnemic.errors.curated",
    "WriteBlocked": "mnemic.errors.governance",
    "WriteDenied": "mnemic.errors.governance",
    "WriteFailed": "mnemic.errors.storage",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    return load(__name__, _EXPORTS, name, globals())


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs (explicit re-exports)
    from ._base import (
        InvalidArgument as InvalidArgument,
        MnemicError as MnemicError,
        ThreatBlocked as ThreatBlocked,
        ToolError as ToolError,
        UnknownTool as UnknownTool,
    )
    from .curated import (
        AmbiguousMatch as AmbiguousMatch,
        BatchFailed as BatchFailed,
        BudgetExceeded as BudgetExceeded,
        ContentRejected as ContentRejected,
        CuratedError as CuratedError,
        DriftDetected as DriftDetected,
        EntryChanged as EntryChanged,
        LoopStopped as LoopStopped,
        NoMatch as NoMatch,
        WouldEmptyTarget as WouldEmptyTarget,
    )
    from .governance import (
        ApprovalUnavailable as ApprovalUnavailable,
        GovernanceError as GovernanceError,
        PendingExpired as PendingExpired,
        PendingNotFound as PendingNotFound,
        WriteBlocked as WriteBlocked,
        WriteDenied as WriteDenied,
    )
    from .llm import (
        LLMError as LLMError,
        LLMNotConfigured as LLMNotConfigured,
        LLMRequestFailed as LLMRequestFailed,
        LLMTimeout as LLMTimeout,
    )
    from .platform import (
        ConfigError as ConfigError,
        IntegrationError as IntegrationError,
        McpServerError as McpServerError,
        MissingDependency as MissingDependency,
    )
    from .providers import (
        ProviderConflict as ProviderConflict,
        ProviderError as ProviderError,
        ProviderNotFound as ProviderNotFound,
        ProviderTimeout as ProviderTimeout,
        ProviderUnavailable as ProviderUnavailable,
    )
    from .sessions import (
        EmbeddingModelDamaged as EmbeddingModelDamaged,
        ImportFailed as ImportFailed,
        MessageNotFound as MessageNotFound,
        SemanticExtraMissing as SemanticExtraMissing,
        SemanticUnavailable as SemanticUnavailable,
        SessionError as SessionError,
        SessionExists as SessionExists,
        SessionNotFound as SessionNotFound,
        SessionStoreBusy as SessionStoreBusy,
        SessionStoreError as SessionStoreError,
    )
    from .skills import (
        PatchAmbiguous as PatchAmbiguous,
        PatchNoMatch as PatchNoMatch,
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
    )
    from .storage import (
        HomeNotFound as HomeNotFound,
        LockTimeout as LockTimeout,
        ReadOnlyHome as ReadOnlyHome,
        StorageError as StorageError,
        UnreadableFile as UnreadableFile,
        UnsafePath as UnsafePath,
        UnsupportedPlatform as UnsupportedPlatform,
        WriteFailed as WriteFailed,
    )
