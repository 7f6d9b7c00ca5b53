"""The PostgreSQL store backend as the registry sees it (``postgresql://`` URLs).

Every seam shares one connection pool per process and settings
(:meth:`~.db.Database.for_settings`).
"""

from __future__ import annotations

from ...config import Settings
from ...home import Home
from .curated import PostgresBackend
from .db import Database
from .governance import PostgresJournalStore, PostgresPendingRecords
from .migrations import check_schema
from .sessions import PostgresSessionStore

__all__ = ["POSTGRES", "PostgresStore"]


class PostgresStore:
    """Curated memory, session history, audit journal and pending queues in one database."""

    name = "postgresql"

    def curated(self, home: Home, *, cleanup: bool = True) -> PostgresBackend:
        """(A transaction leaves no debris: ``cleanup`` has nothing to do.)"""
        return PostgresBackend(
            _database(home.settings), history_limit=home.settings.memory.history_limit
        )

    def read_curated(self, root: str, settings: Settings, target: str) -> str | None:
        return self.curated(Home(root, settings), cleanup=False).read(target)

    def sessions(self, home: Home) -> PostgresSessionStore:
        return PostgresSessionStore(
            _database(home.settings), timeout=home.settings.sessions.write_timeout
        )

    def has_sessions(self, home: Home) -> bool:
        return True  # the tables exist once the schema is migrated

    def journal(self, home: Home) -> PostgresJournalStore:
        return PostgresJournalStore(_database(home.settings))

    def pending(self, home: Home, subsystem: str) -> PostgresPendingRecords:
        settings = home.settings
        return PostgresPendingRecords(_database(settings), subsystem, settings.memory.lock_timeout)


def _database(settings: Settings) -> Database:
    """The home's database, its schema checked before the first connection."""
    return Database.for_settings(settings, schema_check=check_schema)


POSTGRES = PostgresStore()
"""The PostgreSQL backend object the registry hands out."""
