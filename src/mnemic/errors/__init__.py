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
    ├── BundleError
    ├── ConfigError
    ├── GovernanceError
    │   ├── ApprovalUnavailable        also a StorageError
    │   ├── PendingAmbiguous
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
    │   ├── AttachmentRefused
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
    │   ├── StoreUnreachable
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
        │   ├── ProjectScopeError
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
        ├── ThreatHeld
        ├── ThreatBlocked
        │   └── SkillThreatBlocked     also a SkillError
        └── UnknownTool

Each class's docstring says when it is raised. The modules of this package hold one
domain each and are all imported with it; import the names from :mod:`mnemic.errors`
itself. The package imports nothing else from mnemic: it is the bottom layer.
"""

from __future__ import annotations

from ._base import (
    InvalidArgument,
    MnemicError,
    ThreatBlocked,
    ThreatHeld,
    ToolError,
    UnknownTool,
)
from .curated import (
    AmbiguousMatch,
    BatchFailed,
    BudgetExceeded,
    ContentRejected,
    CuratedError,
    DriftDetected,
    EntryChanged,
    LoopStopped,
    NoMatch,
    ProjectScopeError,
    WouldEmptyTarget,
)
from .governance import (
    ApprovalUnavailable,
    GovernanceError,
    PendingAmbiguous,
    PendingExpired,
    PendingNotFound,
    WriteBlocked,
    WriteDenied,
)
from .llm import (
    LLMError,
    LLMNotConfigured,
    LLMRequestFailed,
    LLMTimeout,
)
from .platform import (
    BundleError,
    ConfigError,
    IntegrationError,
    McpServerError,
    MissingDependency,
)
from .providers import (
    ProviderConflict,
    ProviderError,
    ProviderNotFound,
    ProviderTimeout,
    ProviderUnavailable,
)
from .sessions import (
    AttachmentRefused,
    EmbeddingModelDamaged,
    ImportFailed,
    MessageNotFound,
    SemanticExtraMissing,
    SemanticUnavailable,
    SessionError,
    SessionExists,
    SessionNotFound,
    SessionStoreBusy,
    SessionStoreError,
)
from .skills import (
    PatchAmbiguous,
    PatchNoMatch,
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
)
from .storage import (
    HomeNotFound,
    LockTimeout,
    ReadOnlyHome,
    StorageError,
    StoreUnreachable,
    UnreadableFile,
    UnsafePath,
    UnsupportedPlatform,
    WriteFailed,
)

__all__ = [
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
    "MnemicError",
    "NoMatch",
    "ProjectScopeError",
    "PatchAmbiguous",
    "PatchNoMatch",
    "PendingAmbiguous",
    "PendingExpired",
    "PendingNotFound",
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
    "ToolError",
    "UnknownTool",
    "UnreadableFile",
    "UnsafePath",
    "UnsupportedPlatform",
    "WouldEmptyTarget",
    "WriteBlocked",
    "WriteDenied",
    "WriteFailed",
]
