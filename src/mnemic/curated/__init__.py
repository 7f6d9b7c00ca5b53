"""Curated memory: MEMORY.md (agent notes) and USER.md (user profile).

Start with :class:`Memory`; the other names are its parts. Names load lazily so that the
light-weight snapshot path (:func:`render_snapshot`) does not pay for the rest.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .backend import CuratedBackend, CuratedTxn, Version
    from .entries import DELIMITER, TARGETS
    from .file_backend import FileBackend
    from .memory import Changes, Memory, ReadResult, Snapshot, WriteResult, open_backend
    from .snapshot import render_snapshot
    from .store import Commit, CuratedStore, Op, OpResult
    from .usage import Usage, estimate_tokens

_EXPORTS = {
    "DELIMITER": "entries",
    "TARGETS": "entries",
    "Changes": "memory",
    "Commit": "store",
    "CuratedBackend": "backend",
    "CuratedStore": "store",
    "CuratedTxn": "backend",
    "FileBackend": "file_backend",
    "Memory": "memory",
    "Op": "store",
    "OpResult": "store",
    "ReadResult": "memory",
    "Snapshot": "memory",
    "Usage": "usage",
    "Version": "backend",
    "WriteResult": "memory",
    "estimate_tokens": "usage",
    "open_backend": "memory",
    "render_snapshot": "snapshot",
}

__all__ = [
    "Changes",
    "Commit",
    "CuratedBackend",
    "CuratedStore",
    "CuratedTxn",
    "DELIMITER",
    "FileBackend",
    "Memory",
    "Op",
    "OpResult",
    "ReadResult",
    "Snapshot",
    "TARGETS",
    "Usage",
    "Version",
    "WriteResult",
    "estimate_tokens",
    "open_backend",
    "render_snapshot",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mnemic.curated' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
