"""Where the pending queue and the audit journal live: the governance storage seam.

The embedded default keeps both under the home (:class:`~.pending.PendingStore`,
:class:`~.audit.AuditJournal`). A home whose ``store`` is a ``postgresql://`` URL keeps
them in the database with its memory (:mod:`mnemic.backends.postgres.governance`), so
every host sees one queue and one journal. Both implementations follow the protocols
below; :func:`open_journal` and :func:`open_pending` ask the home's store backend
(:mod:`mnemic.registry`) for its own.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..config import Settings
from ..home import Home
from ..registry import backend_for

if TYPE_CHECKING:
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
        """Walk the chain and report every record that does not fit, first one first."""
        ...

    @property
    def location(self) -> str:
        """Where the journal lives (a path or a database table), for messages."""
        ...

    def torn_tail(self) -> dict[str, Any] | None:
        """An incomplete last record left by a crash mid-append (length and hash, never
        content), or ``None``; always ``None`` where appends are transactional."""
        ...

    def repair(self) -> dict[str, Any] | None:
        """Cut a torn tail under the journal lock and record the repair; the repair
        record, or ``None`` when there was nothing to cut."""
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

    def cleanup(self, *, dry_run: bool = False) -> list[str]:
        """Remove debris of an interrupted staging; return what was (or would be) removed."""
        ...


def open_journal(
    root: Path, settings: Settings, *, clock: Callable[[], float] = time.time
) -> Journal:
    """The audit journal of the home at ``root`` with ``settings``."""
    return backend_for(settings).journal(Home(root, settings), clock=clock)


def open_pending(
    root: Path,
    settings: Settings,
    subsystem: str,
    *,
    clock: Callable[[], float] = time.time,
) -> PendingQueueStore:
    """The pending queue of ``subsystem`` of the home at ``root`` with ``settings``."""
    return backend_for(settings).pending(Home(root, settings), subsystem, clock=clock)
