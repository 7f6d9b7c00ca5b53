"""What a :class:`~mnemic.curated.memory.Memory` session hands out: the frozen
:class:`Snapshot`, a write's :class:`WriteResult`, a read's :class:`ReadResult`, the
:class:`Changes` another writer made, and :class:`MemoryCommitted` for observers.
Plain values, re-exported by :mod:`.memory`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .entries import TARGETS
from .operations import OpResult
from .provenance import Provenance
from .snapshot import Block
from .usage import Usage, label

__all__ = ["Changes", "MemoryCommitted", "ReadResult", "Snapshot", "WriteResult"]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The frozen view of both targets taken at session start."""

    blocks: Mapping[str, Block]
    entries: Mapping[str, tuple[str, ...]]
    """Raw entries as loaded (the blocks show them sanitised)."""
    enabled: Mapping[str, bool]
    errors: Mapping[str, str] = field(default_factory=dict)
    """Targets that could not be read, with the reason (their block is omitted)."""
    taken_at: float = 0.0

    def block(self, target: str) -> str:
        """The rendered block of one target ('' when empty, disabled or unreadable)."""
        if not self.enabled.get(target, False):
            return ""
        b = self.blocks.get(target)
        return b.text if b is not None else ""

    @property
    def text(self) -> str:
        """Both enabled, non-empty blocks, MEMORY first, separated by a blank line."""
        return "\n\n".join(b for b in (self.block(t) for t in TARGETS) if b)


@dataclass(frozen=True, slots=True)
class Changes:
    """Entries another writer added or removed since this session last saw a target."""

    target: str
    added: tuple[str, ...]
    removed: tuple[str, ...]

    def describe(self) -> str:
        """One sentence for the model."""
        parts = []
        if self.added:
            parts.append(f"{len(self.added)} added")
        if self.removed:
            parts.append(f"{len(self.removed)} removed")
        what = ", ".join(parts) or "entries reordered"
        return (
            f"{label(self.target)} was changed by another session or tool since you last saw "
            f"it ({what}); the system prompt still shows the snapshot from session start."
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "target": self.target,
            "note": self.describe(),
            "added": list(self.added),
            "removed": list(self.removed),
        }


@dataclass(frozen=True, slots=True)
class WriteResult:
    """A successful write (or a no-op such as a duplicate add)."""

    target: str
    action: str
    message: str
    usage: Usage
    results: tuple[OpResult, ...]
    """One per operation, in call order (``OpResult.target`` says which file)."""
    written: bool
    external_changes: Changes | None = None
    staged: bool = False
    """True when the write waits in the pending queue: nothing was saved yet."""
    pending_id: str | None = None
    """Id of the pending write (approve with ``mnemic pending approve ID``)."""
    others: tuple[WriteResult, ...] = ()
    """The other target of a batch that spans both (its usage, changes and results)."""
    evicted: tuple[tuple[str, str, str], ...] = ()
    """``(target, entry, reason)`` of the entries ``[memory] on_full`` moved to the
    archive to make room (:mod:`.pressure`)."""
    held: str = ""
    """Why the threat scanner held a staged write for approval (empty: the policy did)."""
    again: bool = False
    """The same write already waited for approval as ``pending_id`` (proposed before):
    nothing new was queued."""


@dataclass(frozen=True, slots=True)
class MemoryCommitted:
    """A write that changed memory, as :meth:`Memory.observe` callbacks see it."""

    result: WriteResult
    origin: str
    """Who wrote: the session's origin (``agent``, ``flush``, ``review``, ``cli``,
    ``mcp:<client>``...); ``""`` for an ungoverned memory."""
    session_id: str | None

    def changes(self) -> list[OpResult]:
        """The operations that changed something (both targets of a batch; duplicates of
        an existing entry left out), in call order."""
        return [r for r in self.result.results if r.status != "duplicate"]


@dataclass(frozen=True, slots=True)
class ReadResult:
    """Live entries of a target, sanitised for display."""

    target: str
    entries: tuple[str, ...]
    usage: Usage
    blocked: tuple[str, ...]
    """Handles (``entry:<hex>``) of entries hidden because of a threat finding."""
    differs_from_snapshot: bool
    external_changes: Changes | None = None
    provenance: tuple[Provenance, ...] = ()
    """Who wrote each entry and when (same order as ``entries``; see :meth:`Memory.provenance`)."""
