"""The child of ``tests/test_sessions_replace_crash.py``'s kill test (and of its
PostgreSQL twin), forked by ``tests/workers/forker.py`` (see ``tests/_forker.py``): a
``--replace`` import that tells a byte after each committed write of its store."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

from mnemic.home import Home
from mnemic.sessions import import_path, open_store

Tell = Callable[[bytes], None]
PROGRESS = "p"
"""Told once the store is open (before any write), then after each committed write."""


class Reporting:
    """The store, telling :data:`PROGRESS` after each committed write it makes."""

    def __init__(self, store: Any, tell: Tell) -> None:
        self.store = store
        self.tell = tell

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def delete_session(self, session_id: str) -> int:
        n: int = self.store.delete_session(session_id)
        self.tell(PROGRESS.encode())
        return n

    def import_sessions(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        for result in self.store.import_sessions(*args, **kwargs):
            self.tell(PROGRESS.encode())
            yield result


def replace_import(tell: Tell, home: str, path: str) -> None:
    """Import ``path`` into ``home`` with ``replace=True``, telling as it goes."""
    store = Reporting(open_store(Home.open(home)), tell)
    extra = {"batch": 300}
    known = inspect.signature(import_path).parameters
    extra = {k: v for k, v in extra.items() if k in known}
    tell(PROGRESS.encode())  # ready: the store is open, nothing written yet
    import_path(store, path, replace=True, **extra)
