"""Curated memory: MEMORY.md (agent notes) and USER.md (user profile).

Start with :class:`~mnemic.curated.memory.Memory` (also ``mnemic.Memory``, an agent's
session) or :class:`~mnemic.curated.view.MemoryView` (reading memory as it is, without a
session); the other modules are their parts: :mod:`.operations` and :mod:`.store`
(validate, then apply a batch of operations), :mod:`.backend` (the storage seam),
:mod:`.entries` and :mod:`.usage`, :mod:`.tool` (the memory tool), :mod:`.provenance`,
:mod:`.admin` (doctor, adopt, restore) and :mod:`.snapshot`
(:func:`~mnemic.curated.snapshot.render_snapshot`, the light path of agent hooks). Import
names from their module: this package imports none of them, so that a hook rendering the
snapshot loads only what it renders.
"""

from __future__ import annotations

from .._moved import moved

_MOVED = {
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
    "Op": "mnemic.curated.operations",
    "OpResult": "mnemic.curated.operations",
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
"""The names this package exported before, and the module each is imported from now
(``mnemic.curated.X`` still works, with a DeprecationWarning naming the new import)."""


def __getattr__(name: str) -> object:
    return moved(__name__, _MOVED, name)
