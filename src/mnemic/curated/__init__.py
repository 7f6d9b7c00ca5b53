"""Curated memory: MEMORY.md (agent notes) and USER.md (user profile).

Start with :class:`Memory`; the other names are its parts.
"""

from __future__ import annotations

from .backend import CuratedBackend, CuratedTxn, FileBackend, Version
from .entries import DELIMITER, TARGETS
from .memory import Changes, Memory, ReadResult, Snapshot, WriteResult, open_backend
from .store import Commit, CuratedStore, Op, OpResult
from .usage import Usage, estimate_tokens

__all__ = [
    "DELIMITER",
    "TARGETS",
    "Changes",
    "Commit",
    "CuratedBackend",
    "CuratedStore",
    "CuratedTxn",
    "FileBackend",
    "Memory",
    "Op",
    "OpResult",
    "ReadResult",
    "Snapshot",
    "Usage",
    "Version",
    "WriteResult",
    "estimate_tokens",
    "open_backend",
]
