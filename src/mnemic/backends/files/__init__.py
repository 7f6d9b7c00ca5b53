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

import json
import os
from typing import TYPE_CHECKING

from ...curated.entries import FILENAMES
from ...errors import MnemicError
from ...fsread import open_regular, read_text_strict

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

        settings = home.settings.memory
        # a project store no write made yet (ProjectHome.unmade): nothing is created
        # before its first kept write, which then writes alone (no group commit queue)
        unmade = bool(getattr(home, "unmade", False))
        backend = FileBackend(
            home.memories_dir,
            history_limit=settings.history_limit,
            group_commit="off" if unmade else settings.group_commit,
            durability=settings.durability,
            journal_dir=home.root / "audit",
            make_dir=not unmade,
        )
        if cleanup:
            removed = backend.cleanup()
            if removed:
                log.info("removed %d stale temp file(s) left by crashed writers", len(removed))
            if backend.replay_pending():
                log.warning("rebuilt memory a power cut lost from the audit journal")
        return backend

    def read_curated(self, root: str, settings: Settings, target: str) -> str | None:
        """The text of ``target``: the file's, or with ``[memory] durability =
        "journal"`` the committed text when a power cut lost the file's and the audit
        journal rebuilds it (:meth:`.curated.FileBackend.read`: made durable again when
        the lock is free and the home writable, else shown without writing)."""
        memories = os.path.join(root, "memories")
        if settings.memory.durability != "journal":
            return read_text_strict(os.path.join(memories, FILENAMES[target]), nofollow=True)
        from .lost import may_be_lost  # the light look: os and json, no governance kernel

        if not may_be_lost(os.path.join(root, "audit", "journal.jsonl"), target):
            return read_text_strict(os.path.join(memories, FILENAMES[target]), nofollow=True)
        from pathlib import Path

        from .curated import FileBackend

        backend = FileBackend(
            Path(memories),
            history_limit=settings.memory.history_limit,
            durability="journal",
            journal_dir=Path(root, "audit"),
            make_dir=False,
        )
        return backend.read(target)

    def sessions(self, home: Home) -> SQLiteSessionStore:
        from .sqlite import SQLiteSessionStore

        settings = home.settings.sessions
        return SQLiteSessionStore(
            home.sessions_db, timeout=settings.write_timeout, durable=settings.durable
        )

    def has_sessions(self, home: Home) -> bool:
        return home.sessions_db.exists()

    def journal_may_hold(self, root: str, settings: Settings, key: str) -> bool:
        """Whether ``audit/journal.jsonl`` holds the bytes ``"key"``: every record is one
        JSON line, so a record with the key holds them, while the word inside an entry's
        text is escaped (``\\"key\\"``) and does not count; another field of that name
        may (the caller then looks properly). Read in chunks, without a lock: the
        journal only grows, but for a rewrite that renames a whole new file into place.
        A journal that is not a regular file, or cannot be read, answers ``True``."""
        needle = json.dumps(key).encode("utf-8")
        try:
            fd = open_regular(os.path.join(root, "audit", "journal.jsonl"), nofollow=True)
        except (MnemicError, OSError):
            return True
        if fd is None:
            return False
        try:
            with os.fdopen(fd, "rb") as fh:
                tail = b""
                while chunk := fh.read(1 << 20):
                    if needle in tail + chunk:
                        return True
                    tail = chunk[-len(needle) :]
        except OSError:
            return True
        return False

    def journal(self, home: Home) -> FileJournalStore:
        from .journal import FileJournalStore

        return FileJournalStore(home.root / "audit", fsync=home.settings.audit.fsync)

    def pending(self, home: Home, subsystem: str) -> FilePendingRecords:
        from .pending import FilePendingRecords

        root = home.root / "pending"
        return FilePendingRecords(root, root / subsystem, home.settings.memory.lock_timeout)


FILES = FilesStore()
"""The files backend object the registry hands out."""
