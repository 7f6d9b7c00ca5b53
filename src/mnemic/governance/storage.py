"""Where the pending queue and the audit journal live: the governance storage seam.

The policy of both lives once in the kernel: :class:`Journal` (records, hash chain,
crash repair, verification) and :class:`PendingQueueStore` (limit, expiry, ids, record
form). A storage backend gives each a raw store: :class:`~.chain.JournalStore` (append
lines under a lock, read them and the head back) and :class:`~.pending.PendingRecordStore`
(put, get, list, delete, lock). The embedded default keeps both under the home
(:mod:`mnemic.backends.files`); a home whose ``store`` is a ``postgresql://`` URL keeps
them in the database with its memory (:mod:`mnemic.backends.postgres.governance`), so
every host sees one queue and one journal. :func:`open_journal` and :func:`open_pending`
ask the home's store backend (:mod:`mnemic.registry`) for its raw store and put the
policy, with the home's settings, over it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from ..config import Settings
from ..home import Home
from ..registry import backend_for
from .chain import Journal, JournalStore
from .pending import PendingQueueStore, PendingRecordStore

__all__ = [
    "Journal",
    "JournalStore",
    "PendingQueueStore",
    "PendingRecordStore",
    "open_journal",
    "open_pending",
    "waiting",
]


def open_journal(
    root: Path, settings: Settings, *, clock: Callable[[], float] = time.time
) -> Journal:
    """The audit journal of the home at ``root`` with ``settings``."""
    return Journal(backend_for(settings).journal(Home(root, settings)), clock=clock)


def open_pending(
    root: Path,
    settings: Settings,
    subsystem: str,
    *,
    clock: Callable[[], float] = time.time,
) -> PendingQueueStore:
    """The pending queue of ``subsystem`` of the home at ``root`` with ``settings``: at
    most ``retention.pending_limit`` live records, each expiring
    ``approval.pending_ttl_hours`` after it was staged."""
    return PendingQueueStore(
        backend_for(settings).pending(Home(root, settings), subsystem),
        subsystem,
        ttl_hours=settings.approval.pending_ttl_hours,
        limit=settings.retention.pending_limit,
        clock=clock,
    )


def waiting(root: Path, settings: Settings, *, now: float | None = None) -> dict[str, int]:
    """How many live (unexpired) memory writes of the queue at ``root`` touch each target.
    Reading takes no lock and creates nothing; a queue that cannot be read counts none
    (what shows memory must not depend on it)."""
    from ..errors import MnemicError

    try:
        records = open_pending(root, settings, "memory").listing().records
    except MnemicError:
        return {}
    at = time.time() if now is None else now
    out: dict[str, int] = {}
    for record in records:
        if not record.expired(at):
            for target in record.targets:
                out[target] = out.get(target, 0) + 1
    return out
