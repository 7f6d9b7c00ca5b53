"""Removing a project store whole (``mnemic project forget ID``), its memory kept in a
bundle first; taking one over to its directory's new path (``mnemic project move ID
NEWDIR``).

A project store outlives its directory (moved, renamed, deleted): ``memory status``
lists it with ``(directory gone; --project ID)``. :func:`remove_store` takes it out of
the home, on the files store and on PostgreSQL alike:

1. **Kept first.** The store is written to a bundle of its own (``docs/bundles.md``: its
   MEMORY.md, history, audit journal, from which its archive folds, and pending writes)
   under ``<home>/removed-projects/`` (or where the caller says), and the journal's last
   record is noted. ``mnemic import --bundle FILE`` brings it back into this home
   (:func:`~mnemic.ops.bundle.restore.import_bundle`: a bundle of project stores only
   goes into a home that has none of them). Nothing is removed unless the bundle was
   written.
2. **Removed under the writers' locks, all or nothing.** Files: under the locks of its
   targets, if the journal's last record is still the one the bundle holds, its
   tombstone is written (``<home>/projects/.tombstones/<id>``: when), then
   ``<home>/projects/<id>`` is renamed to ``<home>/projects/.removed-<id>-<n>`` (one
   rename: the store is gone, every part at once), then that is deleted; a process
   killed between the two leaves a ``.removed-*`` directory no listing reads as a store,
   deleted by the next removal or ``mnemic gc``. PostgreSQL: one transaction under the
   same advisory locks and audit head its writers take deletes its rows from every
   project-keyed table and its catalog row (:func:`~mnemic.backends.postgres.curated.
   remove_project`). A write that came in after the bundle was read leaves the store
   whole and the removal refused (``changed``: run it again); a writer that was
   waiting, or whose store was opened before, is refused (``removed``, saying when,
   from the tombstone, and where the bundle went) by
   :class:`~mnemic.curated.memory.Memory` and records nothing. A store of that id made
   again supersedes the tombstone; ``mnemic gc`` drops it past ``[retention]
   max_age_days``.

A store whose directory still exists is refused (``directory_exists``) unless
``force``: its sessions would make a new store on their next write.

**Moving** (:func:`move_store`) re-keys the store to the id of its new directory (an id
is the hash of the path: ``mnemic.curated.scope``), nothing of it rewritten: its audit
records never name their store, so the journal verifies as before. Files: under its
targets' locks the old id's tombstone is written (when, and the new id), then
``projects/<old>`` is renamed to ``projects/<new>`` (the step that moves it), then its
``project.json`` names the new directory; a process killed between the
two leaves the store at its new id, reached by ``--project NEWDIR``, listed with the
old path until the move is run again (``project move NEWID NEWDIR`` then only writes
the path). PostgreSQL: one transaction under both ids' locks updates the ``project``
column of every project-keyed table and the catalog row. A directory that has a store
already is refused (``target_has_store``); a writer of the old id is refused
(``removed``) as after a removal.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..curated.archive import listing
from ..curated.entries import FILENAMES
from ..curated.scope import (
    PROJECT_FILE,
    REMOVED_PROJECTS,
    REMOVING,
    ProjectHome,
    locate,
    mark_gone,
    project_id,
    removal_debris,
    stored_projects,
    unmark_gone,
)
from ..curated.view import MemoryView
from ..errors import ProjectScopeError
from ..fsio import SidecarLock, atomic_write_text, ensure_private_dir, fsync_dir
from ..governance.storage import open_journal, open_pending
from ..home import Home
from ..registry import ProjectForgetMove, project_catalog, store_scheme
from .bundle.export import export_bundle

__all__ = [
    "REMOVED_DIR",
    "StoreMove",
    "StoreRemoval",
    "clear_debris",
    "find_store",
    "move_store",
    "remove_store",
]

REMOVED_DIR = REMOVED_PROJECTS
"""Where the bundles of removed project stores go by default: ``<home>/removed-projects``."""
DEBRIS = REMOVING
"""The prefix of a removed store's directory on its way out (``<home>/projects/``)."""


@dataclass
class StoreRemoval:
    """What removing one project store took (or, with ``dry_run``, would take)."""

    project_id: str
    path: str
    directory_exists: bool
    entries: int
    archived: int
    records: int
    pending: int
    dry_run: bool
    bundle: str | None = None
    removed: bool = False

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "project_id": self.project_id,
            "project": self.path or None,
            "directory_exists": self.directory_exists,
            "entries": self.entries,
            "archived": self.archived,
            "audit_records": self.records,
            "pending": self.pending,
            "dry_run": self.dry_run,
            "bundle": self.bundle,
            "removed": self.removed,
        }


def find_store(home: Home, named: str) -> ProjectHome:
    """The project store ``named`` names: its id as ``memory status`` lists it, or its
    directory (existing or not). :class:`~mnemic.errors.ProjectScopeError`
    (``no_store``) when the home has none."""
    stores = stored_projects(home)
    for store in stores:
        if store.project.id == named:
            return store
    try:
        wanted = project_id(named) if named and "\x00" not in named else ""
    except (OSError, ValueError):
        wanted = ""
    for store in stores:
        if store.project.id == wanted:
            return store
    ids = ", ".join(s.project.id for s in stores[:5]) or "none"
    raise ProjectScopeError(
        "no_store",
        f"This home has no project store {named!r} (its stores: {ids}). Nothing was "
        "removed. `mnemic memory status` lists them, each with its id.",
    )


def _count(store: ProjectHome) -> tuple[int, int, int, int]:
    view = MemoryView.open(store)
    entries = len(view.entries("memory"))
    archived = len(listing(view))
    records = sum(1 for _ in open_journal(store.root, store.settings).records())
    pending = len(open_pending(store.root, store.settings, "memory").listing().records)
    return entries, archived, records, pending


def _head(store: ProjectHome) -> str | None:
    """The hash of the store's journal's last record (``None``: it has none)."""
    last = None
    for record in open_journal(store.root, store.settings).records():
        last = record.get("hash")
    return last if isinstance(last, str) else None


def remove_store(
    home: Home,
    store: ProjectHome,
    *,
    force: bool = False,
    dry_run: bool = False,
    bundle: Path | None = None,
) -> StoreRemoval:
    """Remove ``store`` from ``home`` after writing it to a bundle (see the module
    docstring); with ``dry_run`` only say what would go. ``bundle``: the file to write
    (default ``<home>/removed-projects/<id>-<UTC time>.mnemic``)."""
    project = store.project
    there = bool(project.path) and os.path.isdir(project.path)
    if there and not force:
        raise ProjectScopeError(
            "directory_exists",
            f"The directory {project.path!r} of project store {project.id} still exists: "
            "its sessions use this store, and their next write would make a new one. "
            "Nothing was removed. Remove the store anyway with --force, or keep it.",
        )
    entries, archived, records, pending = _count(store)
    report = StoreRemoval(
        project.id, project.path, there, entries, archived, records, pending, dry_run
    )
    if dry_run:
        return report
    catalog = _catalog(home, "removed")
    head = _head(store)
    if bundle is None:
        ensure_private_dir(home.root / REMOVED_DIR)
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        bundle = home.root / REMOVED_DIR / f"{project.id}-{stamp}.mnemic"
        n = 1
        while bundle.exists():
            n += 1
            bundle = home.root / REMOVED_DIR / f"{project.id}-{stamp}-{n}.mnemic"
    written = export_bundle(home, bundle, only=store)
    report.bundle = written.path
    timeout = home.settings.memory.lock_timeout
    if catalog is not None:
        done = catalog.remove_project(home, project.id, head, timeout)
    else:
        done = _remove_files(store, head, timeout)
    if not done:
        raise ProjectScopeError(
            "changed",
            f"Project store {project.id} was written to while it was being removed. Nothing "
            f"was removed (the bundle {written.path} holds it as it was before that write). "
            "Run the removal again.",
        )
    if catalog is not None:  # the local caches beside the database's rows
        shutil.rmtree(store.root, ignore_errors=True)
    clear_debris(home)
    report.removed = True
    return report


def _catalog(home: Home, verb: str) -> ProjectForgetMove | None:
    """The home's project catalog (``None``: the files store), refused (``unsupported``)
    when it cannot remove or move a store whole (a plugin's catalog need not)."""
    catalog = project_catalog(home.settings)
    if catalog is None or isinstance(catalog, ProjectForgetMove):
        return catalog
    raise ProjectScopeError(
        "unsupported",
        f"This home's store ({store_scheme(home.settings)}) keeps project stores but cannot "
        f"remove or move one whole. Nothing was {verb}. Move its entries one by one (mnemic "
        "memory move TEXT --to global --project ID) or remove them (mnemic memory remove "
        "TEXT --project ID).",
    )


def _remove_files(store: ProjectHome, head: str | None, timeout: float) -> bool:
    """Rename the store's directory out of ``projects/`` under its targets' locks, if
    its journal's last record is still ``head``; then delete it."""
    root = store.project.root
    with _writers_locks(root, timeout):
        if _head(store) != head:
            return False
        n = 0
        while True:
            aside = root.parent / f"{DEBRIS}{store.project.id}-{n}"
            if not os.path.lexists(aside):
                break
            n += 1
        mark_gone(root, time.time())  # before the rename: after it, the store has one
        os.rename(root, aside)
        fsync_dir(root.parent)
    _discard(aside)
    return True


@contextlib.contextmanager
def _writers_locks(root: Path, timeout: float) -> Iterator[None]:
    """Hold the lock of every target of the store at ``root`` (sorted, as its writers
    take theirs), each made when no write made it yet: a first writer that made it
    after a look would write beside a removal or move that never waited for it."""
    folder = root / "memories"
    ensure_private_dir(folder)
    locks: list[SidecarLock] = []
    try:
        for name in sorted(FILENAMES.values()):
            lock = SidecarLock(folder / f"{name}.lock", timeout)
            lock.acquire()
            locks.append(lock)
        yield
    finally:
        for lock in reversed(locks):
            lock.release()


def _discard(directory: Path) -> None:
    """Delete a removed store's directory (the step after the rename that removed it)."""
    shutil.rmtree(directory, ignore_errors=True)


def clear_debris(home: Home) -> int:
    """Delete what removals killed half-way left (``<home>/projects/.removed-*``);
    how many there were."""
    found = removal_debris(home)
    for path in found:
        with contextlib.suppress(OSError):
            shutil.rmtree(path)
    return len(found)


@dataclass
class StoreMove:
    """What moving one project store to a new directory did (or would do)."""

    old_id: str
    old_path: str
    new_id: str
    new_path: str
    entries: int
    dry_run: bool
    moved: bool = False

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "project_id": self.old_id,
            "project": self.old_path or None,
            "new_project_id": self.new_id,
            "new_project": self.new_path,
            "entries": self.entries,
            "dry_run": self.dry_run,
            "moved": self.moved,
        }


def move_store(
    home: Home,
    store: ProjectHome,
    directory: str | os.PathLike[str],
    *,
    force: bool = False,
    dry_run: bool = False,
) -> StoreMove:
    """Take ``store`` over to ``directory`` (see the module docstring)."""
    project = store.project
    target = locate(home.root, directory)  # an existing directory, not / or ~
    same = target.id == project.id
    there = bool(project.path) and os.path.isdir(project.path)
    if not same:
        if any(s.project.id == target.id for s in stored_projects(home)):
            raise ProjectScopeError(
                "target_has_store",
                f"The directory {target.path!r} has a project store of its own "
                f"({target.id}). Nothing was moved. Move entries one by one (mnemic memory "
                f"move TEXT --to global --project {project.id}, then --to project), or "
                f"remove one of the stores first (mnemic project forget ID).",
            )
        if there and not force:
            raise ProjectScopeError(
                "directory_exists",
                f"The directory {project.path!r} of project store {project.id} still "
                "exists: its sessions use this store, and their next write would make a "
                "new one. Nothing was moved. Move it anyway with --force, or keep it.",
            )
    entries = len(MemoryView.open(store).entries("memory"))
    report = StoreMove(project.id, project.path, target.id, target.path, entries, dry_run)
    if dry_run:
        return report
    timeout = home.settings.memory.lock_timeout
    catalog = _catalog(home, "moved")
    if catalog is not None:
        if not catalog.move_project(home, project.id, target.id, target.path, timeout):
            raise ProjectScopeError(
                "target_has_store",
                f"The directory {target.path!r} was given a project store of its own "
                f"({target.id}) meanwhile. Nothing was moved. Move entries one by one "
                f"(mnemic memory move TEXT --to global --project {project.id}, then --to "
                "project), or remove one of the stores first (mnemic project forget ID); "
                "mnemic memory status lists both.",
            )
        if not same and project.root.is_dir() and not os.path.lexists(target.root):
            with contextlib.suppress(OSError):  # the local caches beside the rows
                os.rename(project.root, target.root)
    else:
        _move_files(store, target.root, target.path, timeout)
    report.moved = True
    return report


def _move_files(store: ProjectHome, root: Path, path: str, timeout: float) -> None:
    """Rename the store's directory to ``root`` under its targets' locks, then write
    ``path`` into its ``project.json``."""
    old = store.project.root
    if old != root:
        if os.path.lexists(root):  # no store there (checked): a never-made store's locks
            n = 0
            while os.path.lexists(aside := root.parent / f"{DEBRIS}{root.name}-{n}"):
                n += 1
            os.rename(root, aside)
        with _writers_locks(old, timeout):
            mark_gone(old, time.time(), root.name)  # before the rename, as a removal's
            os.rename(old, root)
            fsync_dir(root.parent)
        unmark_gone(root)  # a store at the new id supersedes a tombstone left there
    atomic_write_text(root / PROJECT_FILE, json.dumps({"path": path}, ensure_ascii=False))
