"""The session history of the files backend: ``sessions.db``, SQLite in WAL mode with FTS5.

:class:`~.store.SQLiteSessionStore` is the shared SQL session store
(:mod:`mnemic.sessions.sql`) in SQLite's dialect; :mod:`.open` opens the file (writable,
read-only or immutable), :mod:`.schema` holds its tables, triggers and migrations, and
:mod:`.search` is its FTS5 engine under the shared lexical ranking.
"""

from __future__ import annotations

from .store import SQLiteSessionStore

__all__ = ["SQLiteSessionStore"]
