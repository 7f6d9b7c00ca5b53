"""Where the pending queue and the audit journal live: the governance storage seam.

The embedded default keeps both under the home (:class:`~.pending.PendingStore`,
:class:`~.audit.AuditJournal`). A home whose ``store`` is a ``postgresql://`` URL keeps
them in the database with its memory (:mod:`mnemic.backends.postgres.governance`), so
every host sees one queue and one journal. Both implementations follow the protocols
below; :func:`open_journal` and :func:`open_pending` pick the one a home's settings name.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..config import Settings
    from .audit import VerifyReport
    from .pending import PendingListing, PendingRecord

__all__ = ["Journal", "PendingQueueStore", "open_journal", "open_pending"]


class Journal(Protocol):
    """An append-only, hash-chained audit journal."""

    def append(self, **fields: Any) -> dict[str, Any]:
        """Append one record; return it with its id, sequence number and hashes."""
        ...

    def records(self) -> Iterator[dict[str, Any]]:
        """Every readable record, oldest first."""
        ...

    def verify(self) -> VerifyReport:
        """Walk the chain and report the first record that does not fit."""
        ...


class PendingQueueStore(Protocol):
    """The staged writes of one subsystem."""

    subsystem: str

    @property
    def location(self) -> str:
        """Where the queue lives (a directory or a database table), for messages."""
        ...

    def lock(self) -> contextlib.AbstractContextManager[Any]:
        """Hold the queue while adding, approving, rejecting or expiring."""
        ...

    def present(self) -> bool:
        """Whether the queue has ever been created (nothing to expire otherwise)."""
        ...

    def has(self, pending_id: str) -> bool:
        """Whether a record with this id is present (readable or not)."""
        ...

    def read(self, pending_id: str) -> PendingRecord:
        """One record (``PendingNotFound`` if absent, ``StorageError`` if unreadable)."""
        ...

    def listing(self) -> PendingListing:
        """Every record, oldest first, plus the ones that could not be read."""
        ...

    def ids(self) -> list[str]:
        """Ids of the records present."""
        ...

    def add(
        self,
        *,
        actor: str,
        origin: str,
        session_id: str,
        summary: str,
        detail: str,
        payload: dict[str, Any],
        base: dict[str, str | None],
    ) -> PendingRecord:
        """Stage a write (takes the lock)."""
        ...

    def remove(self, pending_id: str) -> bool:
        """Delete a record (caller holds the lock); False if it was not there."""
        ...

    def remove_file(self, path: str) -> bool:
        """Delete an unreadable record by the location a listing reported."""
        ...


def _is_remote(settings: Settings) -> bool:
    return settings.store != "files"


def open_journal(
    root: Path, settings: Settings, *, clock: Callable[[], float] = time.time
) -> Journal:
    """The audit journal of the home at ``root`` with ``settings``."""
    if _is_remote(settings):
        from ..backends.postgres.db import Database
        from ..backends.postgres.governance import PostgresJournal

        return PostgresJournal(Database.for_settings(settings), clock=clock)
    from .audit import AuditJournal

    return AuditJournal(Path(root) / "audit", clock=clock, fsync=settings.audit.fsync)


def open_pending(
    root: Path,
    settings: Settings,
    subsystem: str,
    *,
    clock: Callable[[], float] = time.time,
) -> PendingQueueStore:
    """The pending queue of ``subsystem`` of the home at ``root`` with ``settings``."""
    ttl = settings.approval.pending_ttl_hours
    limit = settings.retention.pending_limit
    timeout = settings.memory.lock_timeout
    if _is_remote(settings):
        from ..backends.postgres.db import Database
        from ..backends.postgres.governance import PostgresPendingStore

        return PostgresPendingStore(
            Database.for_settings(settings),
            subsystem,
            ttl_hours=ttl,
            limit=limit,
            clock=clock,
            lock_timeout=timeout,
        )
    from .pending import PendingStore

    return PendingStore(
        Path(root) / "pending",
        subsystem,
        ttl_hours=ttl,
        limit=limit,
        clock=clock,
        lock_timeout=timeout,
    )
