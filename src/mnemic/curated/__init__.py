"""Curated memory: MEMORY.md (agent notes) and USER.md (user profile).

Start with :class:`Memory` (an agent's session) or :class:`MemoryView` (reading it as it
is, without one); the other names are their parts. Names load lazily so that the
light-weight snapshot path (:func:`render_snapshot`) does not pay for the rest.
"""

from __future__ import annotations

from .._lazy import load

_EXPORTS = {
    "Backup": "mnemic.curated.backend",
    "Changes": "mnemic.curated.memory",
    "Commit": "mnemic.curated.store",
    "CuratedBackend": "mnemic.curated.backend",
    "CuratedStore": "mnemic.curated.store",
    "CuratedTxn": "mnemic.curated.backend",
    "DELIMITER": "mnemic.curated.entries",
    "Memory": "mnemic.curated.memory",
    "MemoryCommitted": "mnemic.curated.memory",
    "MemoryView": "mnemic.curated.view",
    "Op": "mnemic.curated.store",
    "OpResult": "mnemic.curated.store",
    "ReadResult": "mnemic.curated.memory",
    "Snapshot": "mnemic.curated.memory",
    "TARGETS": "mnemic.curated.entries",
    "Usage": "mnemic.curated.usage",
    "Version": "mnemic.curated.backend",
    "WriteResult": "mnemic.curated.memory",
    "estimate_tokens": "mnemic.curated.usage",
    "open_backend": "mnemic.curated.memory",
    "render_snapshot": "mnemic.curated.snapshot",
    "run_memory_tool": "mnemic.curated.tool",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    return load(__name__, _EXPORTS, name, globals())


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs (explicit re-exports)
    from .backend import (
        Backup as Backup,
        CuratedBackend as CuratedBackend,
        CuratedTxn as CuratedTxn,
        Version as Version,
    )
    from .entries import (
        DELIMITER as DELIMITER,
        TARGETS as TARGETS,
    )
    from .memory import (
        Changes as Changes,
        Memory as Memory,
        MemoryCommitted as MemoryCommitted,
        ReadResult as ReadResult,
        Snapshot as Snapshot,
        WriteResult as WriteResult,
        open_backend as open_backend,
    )
    from .snapshot import (
        render_snapshot as render_snapshot,
    )
    from .store import (
        Commit as Commit,
        CuratedStore as CuratedStore,
        Op as Op,
        OpResult as OpResult,
    )
    from .tool import (
        run_memory_tool as run_memory_tool,
    )
    from .usage import (
        Usage as Usage,
        estimate_tokens as estimate_tokens,
    )
    from .view import (
        MemoryView as MemoryView,
    )
