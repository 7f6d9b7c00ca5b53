"""The PostgreSQL store backend as the registry sees it (``postgresql://`` URLs).

Every seam shares one connection pool per process and settings
(:meth:`~.db.Database.for_settings`). The curated, journal and pending seams serve the
store ``settings.scope`` names (``''``: global; a project's id, set by
:func:`mnemic.curated.scope.project_settings`), and the ``projects`` table is the
catalog of project stores (:class:`~mnemic.registry.ProjectCatalog`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...config import Settings
from ...home import Home
from .curated import (
    PostgresBackend,
    drop_tombstones,
    move_project,
    project_rows,
    record_project,
    remove_project,
    tombstone,
)
from .db import Database
from .governance import PostgresJournalStore, PostgresPendingRecords
from .migrations import check_schema

if TYPE_CHECKING:
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
            group_commit=settings.memory.group_commit,
        )

    def read_curated(self, root: str, settings: Settings, target: str) -> str | None:
        return self.curated(Home(root, settings), cleanup=False).read(target)

    def sessions(self, home: Home) -> PostgresSessionStore:
        from .sessions import PostgresSessionStore  # the session search: not for a write

        return PostgresSessionStore(
            _database(home.settings), timeout=home.settings.sessions.write_timeout
        )

    def has_sessions(self, home: Home) -> bool:
        return True  # the tables exist once the schema is migrated

    def journal(self, home: Home) -> PostgresJournalStore:
        settings = home.settings
        return PostgresJournalStore(
            _database(settings), project=settings.scope, path=settings.scope_path
        )

    def pending(self, home: Home, subsystem: str) -> PostgresPendingRecords:
        settings = home.settings
        return PostgresPendingRecords(
            _database(settings), subsystem, settings.memory.lock_timeout, project=settings.scope
        )

    def projects(self, home: Home) -> dict[str, str]:
        """The id and directory of every project store in the database."""
        return project_rows(_database(home.settings))

    def add_project(self, home: Home, project_id: str, path: str) -> None:
        """Record a project's store (kept as first recorded when it exists)."""
        record_project(_database(home.settings), project_id, path)

    def remove_project(self, home: Home, project_id: str, head: str | None, timeout: float) -> bool:
        """Delete a project's store in one transaction (:func:`.curated.remove_project`)."""
        return remove_project(_database(home.settings), project_id, head, timeout)

    def move_project(self, home: Home, old: str, new: str, path: str, timeout: float) -> bool:
        """Re-key a project's store in one transaction (:func:`.curated.move_project`)."""
        return move_project(_database(home.settings), old, new, path, timeout)

    def removed_project(self, home: Home, project_id: str) -> str | None:
        """A project store's tombstone (:func:`.curated.tombstone`)."""
        return tombstone(_database(home.settings), project_id)

    def drop_tombstones(self, home: Home, older_than: float, *, dry_run: bool = False) -> list[str]:
        """Tombstones left before ``older_than`` (:func:`.curated.drop_tombstones`)."""
        return drop_tombstones(_database(home.settings), older_than, dry_run=dry_run)


def _database(settings: Settings) -> Database:
    """The home's database, its schema checked before the first connection."""
    return Database.for_settings(settings, schema_check=check_schema)


POSTGRES = PostgresStore()
"""The PostgreSQL backend object the registry hands out."""
