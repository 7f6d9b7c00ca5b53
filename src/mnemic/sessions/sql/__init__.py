"""The one SQL session store: statements written once, a small dialect per database.

:class:`~.store.SqlSessionStore` (:data:`SessionStore`) is the store; a backend subclasses
it with its :class:`~.tables.Dialect` and supplies the :class:`~.tables.Engine` members.
"""

from __future__ import annotations

from .store import SessionStore, SqlSessionStore
from .tables import Dialect, Engine

__all__ = ["Dialect", "Engine", "SessionStore", "SqlSessionStore"]
