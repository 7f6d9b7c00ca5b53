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
- :mod:`.copy`: ``mnemic db copy`` between a home's files and a database, verified
  (:mod:`.copy_sides`: the two kinds of side, each with its project stores);
- :mod:`.db`: the connection pool, error mapping and lock keys.

Needs the ``postgres`` extra (``pip install 'mnemic[postgres]'``): importing this package
without it raises :class:`~mnemic.errors.MissingDependency`, which says so.

See ``docs/postgres.md``.
"""

from __future__ import annotations

from ...extras import require_extra

require_extra("postgres", "The PostgreSQL store (store = postgresql://...)")

from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:
    from .curated import PostgresBackend
    from .db import Database
    from .migrations import check_schema, migrate
    from .plugin import POSTGRES, PostgresStore
    from .sessions import PostgresSessionStore

__all__ = [
    "POSTGRES",
    "Database",
    "PostgresBackend",
    "PostgresSessionStore",
    "PostgresStore",
    "check_schema",
    "migrate",
]

_HOMES = {
    "POSTGRES": "plugin",
    "Database": "db",
    "PostgresBackend": "curated",
    "PostgresSessionStore": "sessions",
    "PostgresStore": "plugin",
    "check_schema": "migrations",
    "migrate": "migrations",
}


def __getattr__(name: str) -> object:
    """The names above, each imported from its module when first asked for: a process
    that only writes curated memory (``mnemic.backends.postgres.plugin``, the registry's
    entry) loads nothing of the session search, which costs at start-up and again at
    exit (the interpreter's last collections walk every object the imports made)."""
    module = _HOMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
