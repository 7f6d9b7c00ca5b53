"""Which storage a home uses: the one place that reads the ``store`` setting.

A *store backend* provides every storage seam of mnemic for one kind of store: the
curated-memory backend, the session store, the audit journal and the pending queues
(:class:`StoreBackend`). A home names its backend with ``store`` in ``config.toml``:
``"files"`` (the embedded default: files and SQLite under the home) or a URL whose
scheme names a backend (``postgresql://...``).

Backends are plugins, found by scheme: the built-in ones are listed below (so the cold
path never scans package metadata), and any other scheme is looked up in the
``mnemic.backends`` entry-point group, where a third party registers an object (or a
class, instantiated without arguments) that follows :class:`StoreBackend`::

    [project.entry-points."mnemic.backends"]
    sqlite3-cloud = "mypackage.mnemic_store:STORE"

Domains never pick a backend themselves: ``Memory.open``, ``sessions.open_store`` and the
governance kernel ask :func:`backend_for` and call the seam they need.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from .errors import ConfigError
from .plugins import entry_points, load_entry_point

if TYPE_CHECKING:  # annotations only (these modules import this one, or sit above it)
    from .config import Settings
    from .curated.backend import CuratedBackend
    from .governance.storage import Journal, PendingQueueStore
    from .home import Home
    from .sessions.sql import SessionStore

    class StoreBackend(Protocol):
        """Every storage seam of one kind of store."""

        name: str
        """The scheme it serves (``files``, ``postgresql``...)."""

        def curated(self, home: Home, *, cleanup: bool = True) -> CuratedBackend:
            """The curated-memory backend (``cleanup``: remove crashed writers' debris)."""
            ...

        def read_curated(self, root: str, settings: Settings, target: str) -> str | None:
            """One target's raw text in the home at ``root``, without opening a writer (no
            lock, nothing written); ``None`` when absent. The light path of
            ``render_snapshot``, which must not import more than it reads with."""
            ...

        def sessions(self, home: Home) -> SessionStore:
            """The session history (created on first use)."""
            ...

        def has_sessions(self, home: Home) -> bool:
            """Whether a session history exists (reports need not create one)."""
            ...

        def journal(self, home: Home, *, clock: Callable[[], float]) -> Journal:
            """The hash-chained audit journal."""
            ...

        def pending(
            self, home: Home, subsystem: str, *, clock: Callable[[], float]
        ) -> PendingQueueStore:
            """The pending queue of one subsystem (``memory``, ``skills``)."""
            ...

else:
    StoreBackend = object

__all__ = [
    "ENTRY_POINT_GROUP",
    "StoreBackend",
    "backend_for",
    "check_store",
    "known_schemes",
    "scheme_of",
    "stores_in_home",
]

ENTRY_POINT_GROUP = "mnemic.backends"

#: Built-in backends by scheme: ``module:attribute`` of the backend object.
BUILTIN: dict[str, str] = {
    "files": "mnemic.backends.files:FILES",
    "postgresql": "mnemic.backends.postgres.plugin:POSTGRES",
    "postgres": "mnemic.backends.postgres.plugin:POSTGRES",
}

_loaded: dict[str, StoreBackend] = {}


def scheme_of(store: str) -> str:
    """The backend name in a ``store`` value: ``files``, or a URL's scheme."""
    if store == "files":
        return "files"
    scheme, sep, _ = store.partition("://")
    if not sep or not scheme:
        raise ConfigError(
            "store",
            f"expected 'files' or a URL such as postgresql://user@host/db, got {store!r}",
        )
    return scheme.lower()


def stores_in_home(settings: Settings) -> bool:
    """Whether a home's memory lives in its own directory (the embedded ``files`` store),
    so that a home with no directory has no memory at all."""
    return scheme_of(settings.store) == "files"


def check_store(store: str) -> None:
    """Refuse a ``store`` value no backend handles (``ConfigError`` naming the known ones);
    built-in schemes are checked without scanning installed plugins."""
    scheme = scheme_of(store)
    if scheme not in BUILTIN and scheme not in known_schemes():
        raise ConfigError(
            "store",
            f"no storage backend handles {scheme!r} URLs (known: {', '.join(known_schemes())}); "
            f"expected 'files' or a postgresql:// URL, or a plugin registered in the "
            f"{ENTRY_POINT_GROUP!r} entry-point group",
        )


def backend_for(settings: Settings) -> StoreBackend:
    """The store backend a home's settings select (loaded once per process)."""
    scheme = scheme_of(settings.store)
    backend = _loaded.get(scheme)
    if backend is None:
        backend = _load(scheme)
        _loaded[scheme] = backend
    return backend


def known_schemes() -> list[str]:
    """Built-in schemes plus those registered by installed plugins."""
    return sorted(set(BUILTIN) | {ep.name for ep in entry_points(ENTRY_POINT_GROUP)})


def _load(scheme: str) -> StoreBackend:
    if scheme not in BUILTIN:
        check_store(f"{scheme}://")
    value = load_entry_point(ENTRY_POINT_GROUP, scheme, BUILTIN)
    if isinstance(value, type):
        value = value()
    backend: StoreBackend = value
    return backend
