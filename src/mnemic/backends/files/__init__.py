"""The embedded default store: everything under the home directory.

Every storage seam of mnemic, as files and SQLite in the home, beside
:mod:`mnemic.backends.postgres`:

- :mod:`.curated`: ``memories/MEMORY.md`` and ``USER.md`` (:class:`~.curated.FileBackend`:
  sidecar locks, hard-link history, drift backups, the redo log of two-file commits),
  with their provenance sidecars (:mod:`.ledger`);
- ``sessions.db``: the session history (SQLite);
- :mod:`.journal`: the audit journal's lines under ``audit/``
  (:class:`~.journal.FileJournalStore`);
- :mod:`.pending`: the pending queues' records under ``pending/``
  (:class:`~.pending.FilePendingRecords`);
- :mod:`.flusher`: the background thread that makes the journal durable and drops old
  versions after a call returns.

Registered as ``files`` in :mod:`mnemic.registry`. Domains hold the policy (the curated
store, the journal's chain, the queue's limits); this package only stores.

Each seam imports its implementation when first asked for: the registry loads this
module on the path of ``render_snapshot`` (every prompt hook), which reads with
:meth:`FilesStore.read_curated` alone and must not pay for the governance kernel the
journal and the queues import.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ...curated.entries import FILENAMES
from ...fsread import read_text_strict

if TYPE_CHECKING:
    from ...config import Settings
    from ...home import Home
    from .curated import FileBackend
    from .journal import FileJournalStore
    from .pending import FilePendingRecords
    from .sqlite import SQLiteSessionStore

__all__ = ["FILES", "FilesStore"]


class FilesStore:
    """Files and SQLite under the home (see the module docstring)."""

    name = "files"

    def curated(self, home: Home, *, cleanup: bool = True) -> FileBackend:
        from .curated import FileBackend, log

        backend = FileBackend(home.memories_dir, history_limit=home.settings.memory.history_limit)
        if cleanup:
            removed = backend.cleanup()
            if removed:
                log.info("removed %d stale temp file(s) left by crashed writers", len(removed))
        return backend

    def read_curated(self, root: str, settings: Settings, target: str) -> str | None:
        return read_text_strict(os.path.join(root, "memories", FILENAMES[target]), nofollow=True)

    def sessions(self, home: Home) -> SQLiteSessionStore:
        from .sqlite import SQLiteSessionStore

        settings = home.settings.sessions
        return SQLiteSessionStore(
            home.sessions_db, timeout=settings.write_timeout, durable=settings.durable
        )

    def has_sessions(self, home: Home) -> bool:
        return home.sessions_db.exists()

    def journal(self, home: Home) -> FileJournalStore:
        from .journal import FileJournalStore

        return FileJournalStore(home.root / "audit", fsync=home.settings.audit.fsync)

    def pending(self, home: Home, subsystem: str) -> FilePendingRecords:
        from .pending import FilePendingRecords

        root = home.root / "pending"
        return FilePendingRecords(root, root / subsystem, home.settings.memory.lock_timeout)


FILES = FilesStore()
"""The files backend object the registry hands out."""
