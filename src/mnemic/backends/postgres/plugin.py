"""The PostgreSQL store backend as the registry sees it (``postgresql://`` URLs).

Every seam shares one connection pool per process and settings
(:meth:`~.db.Database.for_settings`). The curated, journal and pending seams serve the
store ``settings.scope`` names (``''``: global; a project's id, set by
:func:`mnemic.curated.scope.project_settings`), and the ``projects`` table is the
catalog of project stores (:class:`~mnemic.registry.ProjectCatalog`).
"""

from __future__ import annotations

import time

from ...config import Settings
from ...home import Home
from .curated import PostgresBackend, check_project
from .db import Database, mapped_errors
from .governance import PostgresJournalStore, PostgresPendingRecords
from .migrations import check_schema
from .sessions import PostgresSessionStore

__all__ = ["POSTGRES", "PostgresStore"]


class PostgresStore:
    """Curated memory, session history, audit journal and pending queues in one database."""

    name = "postgresql"

    def curated(self, home: Home, *, cleanup: bool = True) -> PostgresBackend:
        """(A transaction leaves no debris: ``cleanup`` has nothing to do.)"""
        settings = home.settings
        return PostgresBackend(
            _database(settings),
            history_limit=settings.memory.history_limit,
            project=settings.scope,
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
        return PostgresJournalStore(_database(home.settings), project=home.settings.scope)

    def pending(self, home: Home, subsystem: str) -> PostgresPendingRecords:
        settings = home.settings
        return PostgresPendingRecords(
            _database(settings), subsystem, settings.memory.lock_timeout, project=settings.scope
        )

    def projects(self, home: Home) -> dict[str, str]:
        """The id and directory of every project store in the database."""
        db = _database(home.settings)
        with mapped_errors(f"{db.location}: projects", writing=False), db.connection() as conn:
            rows = conn.execute(db.sql("SELECT id, path FROM {s}.projects")).fetchall()
        return {str(pid): str(path) for pid, path in rows}

    def add_project(self, home: Home, project_id: str, path: str) -> None:
        """Record a project's store (kept as first recorded when it exists)."""
        db = _database(home.settings)
        with mapped_errors(f"{db.location}: projects", writing=True), db.connection() as conn:
            conn.execute(
                db.sql(
                    "INSERT INTO {s}.projects (id, path, created_at) VALUES (%s, %s, %s) "
                    "ON CONFLICT (id) DO NOTHING"
                ),
                (check_project(project_id), path, time.time()),
            )


def _database(settings: Settings) -> Database:
    """The home's database, its schema checked before the first connection."""
    return Database.for_settings(settings, schema_check=check_schema)


POSTGRES = PostgresStore()
"""The PostgreSQL backend object the registry hands out."""
