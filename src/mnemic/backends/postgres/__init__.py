"""The PostgreSQL backend: one shared memory and history for many hosts.

Selected by ``store = "postgresql://user@host/db"`` in ``config.toml`` (or
``MNEMIC_STORE``), with ``[postgres]`` settings (schema, pool size, connect timeout,
``migrate_on_start``). It implements every storage seam of mnemic with the semantics of
the embedded default:

- :mod:`.curated`: MEMORY.md / USER.md as rows; each mutation is one transaction holding
  a per-target advisory transaction lock (re-read, validate, write, version, audit);
- :mod:`.sessions`: the session history with a stored ``tsvector`` built from the same
  segmentation and tokenizer as the SQLite index, a GIN index and the same ranking;
- :mod:`.governance`: the pending queue and the hash-chained audit journal;
- :mod:`.migrations`: versioned schema migrations (``mnemic db migrate``);
- :mod:`.copy`: ``mnemic db copy`` between a home's files and a database, verified;
- :mod:`.db`: the connection pool, error mapping and lock keys.

Needs the ``postgres`` extra (``pip install 'mnemic[postgres]'``): importing this package
without it raises :class:`~mnemic.errors.MissingDependency`, which says so.

See ``docs/postgres.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...extras import require_extra

require_extra("postgres", "The PostgreSQL store (store = postgresql://...)")

if TYPE_CHECKING:
    from ...curated.backend import CuratedBackend
    from ...home import Home
    from .curated import PostgresBackend
    from .db import Database
    from .sessions import PostgresSessionStore

__all__ = [
    "Database",
    "PostgresBackend",
    "PostgresSessionStore",
    "open_curated_backend",
    "open_session_store",
]


def open_curated_backend(home: Home) -> CuratedBackend:
    """The curated backend of a home whose ``store`` is a PostgreSQL URL."""
    from .curated import PostgresBackend
    from .db import Database

    db = Database.for_settings(home.settings)
    return PostgresBackend(db, history_limit=home.settings.memory.history_limit)


def open_session_store(home: Home) -> PostgresSessionStore:
    """The session store of a home whose ``store`` is a PostgreSQL URL."""
    from .db import Database
    from .sessions import PostgresSessionStore

    return PostgresSessionStore(
        Database.for_settings(home.settings), timeout=home.settings.sessions.write_timeout
    )


def __getattr__(name: str) -> Any:
    import importlib

    where = {
        "Database": ".db",
        "PostgresBackend": ".curated",
        "PostgresSessionStore": ".sessions",
    }.get(name)
    if where is None:
        raise AttributeError(f"module 'mnemic.backends.postgres' has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value
    return value
