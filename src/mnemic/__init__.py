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
    # tools and scanning
    "ToolSpec": "mnemic.tooling",
    "scan_text": "mnemic.scan",
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
}

__all__ = [
    "AmbiguousMatch",
    "ApprovalUnavailable",
    "AuditJournal",
    "BatchFailed",
    "BudgetExceeded",
    "Changes",
    "ConfigError",
    "ContentRejected",
    "CuratedBackend",
    "DriftDetected",
    "EntryChanged",
    "FileBackend",
    "Home",
    "InvalidArgument",
    "LockTimeout",
    "LoopStopped",
    "MEMORY_TOOL",
    "Memory",
    "MnemicError",
    "NoMatch",
    "Op",
    "PendingExpired",
    "PendingNotFound",
    "PendingQueue",
    "ReadResult",
    "Settings",
    "Snapshot",
    "StorageError",
    "ThreatBlocked",
    "ToolError",
    "ToolSpec",
    "UnreadableFile",
    "UnsafePath",
    "Usage",
    "Version",
    "WouldEmptyTarget",
    "WriteBlocked",
    "WriteContext",
    "WriteDenied",
    "WriteFailed",
    "WriteResult",
    "collect_garbage",
    "forget_sessions",
    "forget_user",
    "load_settings",
    "metrics_text",
    "render_snapshot",
    "resolve_home",
    "run_memory_tool",
    "scan_text",
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
    from .config import Settings, load_settings
    from .curated.backend import CuratedBackend, FileBackend, Version
    from .curated.memory import Changes, Memory, ReadResult, Snapshot, WriteResult
    from .curated.snapshot import render_snapshot
    from .curated.store import Op
    from .curated.tool import MEMORY_TOOL, run_memory_tool
    from .curated.usage import Usage
    from .errors import (
        AmbiguousMatch,
        ApprovalUnavailable,
        BatchFailed,
        BudgetExceeded,
        ConfigError,
        ContentRejected,
        DriftDetected,
        EntryChanged,
        InvalidArgument,
        LockTimeout,
        LoopStopped,
        MnemicError,
        NoMatch,
        PendingExpired,
        PendingNotFound,
        StorageError,
        ThreatBlocked,
        ToolError,
        UnreadableFile,
        UnsafePath,
        WouldEmptyTarget,
        WriteBlocked,
        WriteDenied,
        WriteFailed,
    )
    from .governance.actors import WriteContext
    from .governance.audit import AuditJournal
    from .governance.forget import forget_sessions, forget_user
    from .governance.metrics import metrics_text
    from .governance.retention import collect_garbage
    from .governance.review import PendingQueue
    from .home import Home, resolve_home
    from .scan import scan_text
    from .tooling import ToolSpec
