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

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .errors import ConfigError
from .plugins import entry_points, load_entry_point

if TYPE_CHECKING:  # annotations only (these modules import this one, or sit above it)
    from .curated.backend import CuratedBackend
    from .governance.chain import JournalStore
    from .governance.pending import PendingRecordStore
    from .sessions.sql import SessionStore


class Configured(Protocol):
    """What the registry reads of a home's settings (:class:`mnemic.config.Settings`):
    the ``store`` value. The registry sits below ``config`` and ``home``, which ask it
    about schemes, so it names what it takes by shape, not by import (none of the
    modules whose types it names imports it: no circle, annotations included)."""

    @property
    def store(self) -> str: ...


class StoreBackend(Protocol):
    """Every storage seam of one kind of store, each the raw store its domain's
    policy works over. ``home`` is a :class:`mnemic.home.Home` (and ``settings`` its
    :class:`~mnemic.config.Settings`), typed loosely for the reason given at
    :class:`Configured`."""

    name: str
    """The scheme it serves (``files``, ``postgresql``...)."""

    def curated(self, home: Any, *, cleanup: bool = True) -> CuratedBackend:
        """The curated-memory backend. ``cleanup``, for a writer's session: first
        remove what crashed writers left (temp files, an interrupted two-file commit
        to complete); a reader passes False and nothing is written."""
        ...

    def read_curated(self, root: str, settings: Any, target: str) -> str | None:
        """One target's raw text in the home at ``root``, without opening a writer
        (no lock, nothing written); ``None`` when absent. The light path of
        ``render_snapshot``, which must not import more than it reads with."""
        ...

    def sessions(self, home: Any) -> SessionStore:
        """The session history (created on first use)."""
        ...

    def has_sessions(self, home: Any) -> bool:
        """Whether a session history exists (reports need not create one)."""
        ...

    def journal(self, home: Any) -> JournalStore:
        """Where the audit journal's records live (the policy is
        :class:`~mnemic.governance.chain.Journal`'s)."""
        ...

    def pending(self, home: Any, subsystem: str) -> PendingRecordStore:
        """Where the records of one subsystem's pending queue (``memory``,
        ``skills``) live (the policy is
        :class:`~mnemic.governance.pending.PendingQueueStore`'s)."""
        ...


@runtime_checkable
class ProjectCatalog(Protocol):
    """A store backend that also holds project stores (``mnemic.curated.scope``) in its
    own storage, beside the global one: each project's rows are keyed by its id
    (``settings.scope`` of the settings the seams are opened with), and the catalog
    says which projects have a store. The files store needs none (a project store is a
    directory of the home); a backend without one refuses projects."""

    def projects(self, home: Any) -> dict[str, str]:
        """The id and directory of every project store of ``home``."""
        ...

    def add_project(self, home: Any, project_id: str, path: str) -> None:
        """Record the store of project ``project_id`` (directory ``path``), once."""
        ...


@runtime_checkable
class ProjectForgetMove(Protocol):
    """A :class:`ProjectCatalog` that can also take a project store out whole or re-key
    it (``mnemic project forget`` / ``move``). Optional: a catalog without it still
    holds project stores, and those two commands refuse its home (``unsupported``)."""

    def remove_project(self, home: Any, project_id: str, head: str | None, timeout: float) -> bool:
        """Delete the store of project ``project_id``, all of it or none, under the locks
        its writers take; ``False`` (nothing deleted) when its journal's last record's
        hash is no longer ``head`` (a write came in since it was read)."""
        ...

    def move_project(self, home: Any, old: str, new: str, path: str, timeout: float) -> bool:
        """Take the store of project ``old`` over to project ``new`` (directory ``path``),
        all of it or none, under both stores' locks; ``False`` (nothing changed) when
        ``new`` has a store already."""
        ...


@runtime_checkable
class ProjectTombstones(Protocol):
    """A :class:`ProjectCatalog` that marks a project store it removed or moved (a
    tombstone), so a failed write can tell a removed store from one whose rows are
    simply gone. Optional: without it, a store missing from the catalog reads as removed."""

    def removed_project(self, home: Any, project_id: str) -> str | None:
        """The tombstone of project ``project_id`` (when it was removed, and a move's new
        id: :func:`mnemic.curated.scope.read_tombstone` reads it); ``None``: none."""
        ...

    def drop_tombstones(self, home: Any, older_than: float, *, dry_run: bool = False) -> list[str]:
        """Delete the tombstones left before ``older_than`` (a time; ``mnemic gc``), none
        with ``dry_run``; the ids of the project stores they marked."""
        ...


@runtime_checkable
class JournalPeek(Protocol):
    """A store backend that can tell, without opening the audit journal (and the
    governance kernel with it), that no record of it holds a key: the light look the
    session start takes before folding the journal for entries past their expiry. A
    backend without it is always folded."""

    def journal_may_hold(self, root: str, settings: Any, key: str) -> bool:
        """``False`` only when no record of the audit journal of the home at ``root``
        has the key ``key`` (anywhere in it); ``True`` when one may."""
        ...


__all__ = [
    "ENTRY_POINT_GROUP",
    "Configured",
    "JournalPeek",
    "ProjectCatalog",
    "ProjectForgetMove",
    "ProjectTombstones",
    "StoreBackend",
    "backend_for",
    "check_store",
    "known_schemes",
    "project_catalog",
    "scheme_of",
    "store_scheme",
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


def store_scheme(settings: Configured) -> str:
    """The kind of store a home's settings select: ``files``, ``postgresql``..."""
    return scheme_of(settings.store)


def stores_in_home(settings: Configured) -> bool:
    """Whether a home's memory lives in its own directory (the embedded ``files`` store),
    so that a home with no directory has no memory at all."""
    return scheme_of(settings.store) == "files"


def project_catalog(settings: Configured) -> ProjectCatalog | None:
    """Where a home keeps its project stores when they live in its database (``None``:
    in the home's directory, for the files store, or nowhere: the backend has no
    catalog and refuses projects; see :func:`stores_in_home`)."""
    if stores_in_home(settings):
        return None
    store = backend_for(settings)
    return store if isinstance(store, ProjectCatalog) else None


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


def backend_for(settings: Configured) -> StoreBackend:
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
