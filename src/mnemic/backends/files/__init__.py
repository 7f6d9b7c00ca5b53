"""The embedded default store: everything under the home directory.

Curated memory as ``memories/MEMORY.md`` and ``USER.md`` (:class:`~mnemic.curated.backend.
FileBackend`), session history in ``sessions.db`` (SQLite), the audit journal under
``audit/`` and the pending queues under ``pending/``. Registered as ``files`` in
:mod:`mnemic.registry`.

Each seam imports its implementation when first asked for: the registry loads this
module on the cold path of ``render_snapshot``, which needs only :meth:`read_curated`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ...config import Settings
    from ...governance.pending import PendingStore
    from ...home import Home
    from ...sessions.sqlite import SQLiteSessionStore
    from .curated import FileBackend
    from .journal import AuditJournal

__all__ = ["FILES", "FilesStore"]


class FilesStore:
    """Files and SQLite under the home (see the module docstring)."""

    name = "files"

    def curated(self, home: Home, *, cleanup: bool = True) -> FileBackend:
        import logging

        from .curated import FileBackend

        backend = FileBackend(home.memories_dir, history_limit=home.settings.memory.history_limit)
        if cleanup:
            removed = backend.cleanup()
            if removed:
                logging.getLogger(__name__).info(
                    "removed %d stale temp file(s) left by crashed writers", len(removed)
                )
        return backend

    def read_curated(self, root: str, settings: Settings, target: str) -> str | None:
        import os

        from ...curated.entries import FILENAMES
        from ...fsread import read_text_strict

        return read_text_strict(os.path.join(root, "memories", FILENAMES[target]), nofollow=True)

    def sessions(self, home: Home) -> SQLiteSessionStore:
        from ...sessions.sqlite import SQLiteSessionStore

        settings = home.settings.sessions
        return SQLiteSessionStore(
            home.sessions_db, timeout=settings.write_timeout, durable=settings.durable
        )

    def has_sessions(self, home: Home) -> bool:
        return home.sessions_db.exists()

    def journal(self, home: Home, *, clock: Callable[[], float]) -> AuditJournal:
        from .journal import AuditJournal

        return AuditJournal(home.root / "audit", clock=clock, fsync=home.settings.audit.fsync)

    def pending(self, home: Home, subsystem: str, *, clock: Callable[[], float]) -> PendingStore:
        from ...governance.pending import PendingStore

        s = home.settings
        return PendingStore(
            home.root / "pending",
            subsystem,
            ttl_hours=s.approval.pending_ttl_hours,
            limit=s.retention.pending_limit,
            clock=clock,
            lock_timeout=s.memory.lock_timeout,
        )


FILES = FilesStore()
"""The files backend object the registry hands out."""
