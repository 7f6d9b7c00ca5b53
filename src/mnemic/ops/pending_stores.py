"""The approval queues of several stores: every item named by its store
(:func:`store_pending`), and the one store whose queue holds an id (:func:`locate_pending`).

Every curated store keeps its own pending queue (the global one in the home, a project's
in its own store), and approving a record applies it to the store whose queue holds it.
``mnemic pending`` and the console's Pending page work every store's queue
(:func:`mnemic.curated.scope.every_store`) unless told one, as ``mnemic audit`` reads
every store's journal: an item is listed with its store told beside it
(:func:`~mnemic.ops.audit_log.store_label`; the record itself does not say), and an id
given without a store is looked for in each queue. Pending ids are drawn per queue, so
two stores can hold the same one: then the store must be named
(:class:`~mnemic.errors.PendingAmbiguous`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..curated.scope import ProjectHome
from ..errors import PendingAmbiguous, PendingNotFound
from ..governance.pending import PendingRecord
from ..home import Home
from .audit_log import store_label
from .review import SUBSYSTEMS, PendingQueue

__all__ = ["StorePending", "StoreQueue", "locate_pending", "store_name", "store_pending"]


def store_name(store: Home) -> str:
    """How a person names ``store``: ``global``, or the project's directory (its id when
    the directory is unknown)."""
    if isinstance(store, ProjectHome):
        return store.project.path or store.project.id
    return "global"


@dataclass(frozen=True)
class StoreQueue:
    """One store and its pending queue, worked by one session."""

    store: Home
    queue: PendingQueue

    @classmethod
    def open(cls, store: Home, *, origin: str = "cli") -> StoreQueue:
        """The queue of ``store`` for a person at the keyboard (:meth:`PendingQueue.open`)."""
        return cls(store, PendingQueue.open(store, origin=origin))

    @property
    def label(self) -> dict[str, Any]:
        """:func:`~mnemic.ops.audit_log.store_label` of the store."""
        return store_label(self.store)


@dataclass(frozen=True)
class StorePending:
    """One pending write and the store whose queue holds it."""

    where: StoreQueue
    record: PendingRecord

    def as_dict(self) -> dict[str, Any]:
        """The record's fields, then ``store``: the store's label (told beside the
        record, as :class:`~mnemic.ops.audit_log.StoreRecord` tells an audit record's)."""
        return {**self.record.as_dict(), "store": self.where.label}


def store_pending(queues: Sequence[StoreQueue]) -> list[StorePending]:
    """Every pending write of ``queues`` (expired ones included), oldest first across
    the stores (ties by id)."""
    found = [StorePending(q, r) for q in queues for r in q.queue.records()]
    found.sort(key=lambda item: (item.record.created_at, item.record.id))
    return found


def locate_pending(queues: Sequence[StoreQueue], pending_id: str) -> StoreQueue:
    """The one queue of ``queues`` that holds ``pending_id``. Raises
    :class:`~mnemic.errors.PendingNotFound` (naming every id the queues hold) when none
    does, :class:`~mnemic.errors.PendingAmbiguous` when more than one does."""
    holders: list[StoreQueue] = []
    known: list[str] = []
    for q in queues:
        subsystems = [q.queue.store(sub) for sub in SUBSYSTEMS]
        if any(sub.has(pending_id) for sub in subsystems):
            holders.append(q)
        known.extend(i for sub in subsystems for i in sub.ids())
    if not holders:
        raise PendingNotFound(pending_id, known)
    if len(holders) > 1:
        raise PendingAmbiguous(pending_id, [store_name(q.store) for q in holders])
    return holders[0]
