"""Retention: bound history versions, drift backups, pending records and temp files.

``mnemic gc`` (:func:`collect_garbage`) applies ``[retention]`` and ``[memory]``:

- history versions: at most ``memory.history_limit`` per target (the store already
  keeps to it; gc applies a lowered limit), none older than ``retention.max_age_days``;
- drift backups (``MEMORY.md.bak.*``): at most ``retention.backup_limit`` per target,
  none older than ``max_age_days``;
- pending writes: those past their expiry (``approval.pending_ttl_hours``) are removed
  and audited as ``expire``;
- temp files: debris of crashed writers (a two-file commit left mid-way is completed
  first), and texts kept by a failed ``mnemic memory edit`` older than ``max_age_days``;
- entries past their ``expires`` time go to the archive (reason ``expired``), in one
  recorded write per target, as at any session start;
- archived entry texts older than ``retention.archive_days`` (0, the default: kept
  forever) are dropped from the audit journal, byte for byte (``archive_text``);
- what a ``mnemic project forget`` killed after its rename left
  (``projects/.removed-*``: a store already removed, kept in its bundle), and what a
  process that had a store open wrote under ``projects/<id>/`` after it was removed
  or moved (no store there, only caches and lock files, idle for an hour:
  :func:`~mnemic.curated.scope.left_behind`);
- project store tombstones (left by ``mnemic project forget`` / ``move`` so a writer
  that had the store open is refused, saying when: the files store's
  ``projects/.tombstones/<id>``, a database's catalog rows) older than ``max_age_days``.

``max_age_days = 0`` turns the age limit off. Each target's files are removed under its
lock, so gc never races a writer. Nothing current is ever removed: not the files
themselves, not a pending write that has not expired. One audit record (``gc``) lists
how many of each kind went. Every project store of the home (:mod:`mnemic.curated.scope`)
gets the same, recorded in its own journal.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..curated import fold_cache
from ..curated.backend import Removal, RetentionPolicy
from ..curated.entries import FILENAMES, entry_handle, preview
from ..curated.memory import Memory, open_backend
from ..curated.pressure import due
from ..curated.scope import (
    PROJECT_FILE,
    REMOVING,
    SET_ASIDE,
    ProjectHome,
    drop_file_tombstones,
    left_behind,
    left_behind_here,
    removal_debris,
    set_aside_stores,
    stored_projects,
)
from ..curated.snapshot import display_entry
from ..fsio import SidecarLock
from ..governance.actors import SUBSYSTEMS
from ..governance.chain import record_texts
from ..governance.governor import Governor
from ..home import Home
from ..registry import ProjectTombstones, project_catalog, stores_in_home
from .review import PendingQueue

__all__ = ["GcReport", "Removal", "collect_garbage"]

DAY = 86400.0


@dataclass
class GcReport:
    """What :func:`collect_garbage` removed."""

    dry_run: bool
    removed: list[Removal] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many of each kind."""
        out: dict[str, int] = {}
        for r in self.removed:
            out[r.kind] = out.get(r.kind, 0) + 1
        return out

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "dry_run": self.dry_run,
            "counts": self.counts(),
            "removed": [{"kind": r.kind, "what": r.what, "reason": r.reason} for r in self.removed],
            "notes": list(self.notes),
        }


def collect_garbage(
    home: Home | str | Path | None = None,
    *,
    dry_run: bool = False,
    clock: Callable[[], float] | None = None,
    origin: str = "gc",
) -> GcReport:
    """Apply the retention policy to a home; see the module docstring."""
    if not isinstance(home, Home):
        home = Home.open(home)
    gov = Governor.for_home(home, actor="foreground", origin=origin, clock=clock)
    # Opened without its own clean-up: removing crashed writers' debris is ours to report.
    backend = open_backend(home, cleanup=False)
    project = home.project.path if isinstance(home, ProjectHome) else None
    mem = Memory(backend, home.settings, governor=gov, project=project)
    now = gov.clock()
    settings = gov.settings
    max_age = settings.retention.max_age_days * DAY
    report = GcReport(dry_run)
    gone = mem.expire() if not dry_run else [(t, e) for t, es in due(mem, now).items() for e in es]
    for t, entry in gone:
        # by its text too: a handle alone names nothing a person can see (first-week #35)
        shown = preview(display_entry(t, entry, mem.level)[0], 60)
        what = f"{FILENAMES[t]} {entry_handle(entry)} {shown!r}"
        what = f"{what} of project {project}" if project is not None else what
        report.removed.append(Removal("expired_entry", what, "past its expires time: archived"))
    policy = RetentionPolicy(
        history_limit=settings.memory.history_limit,
        backup_limit=settings.retention.backup_limit,
        max_age=max_age,
        now=now,
        lock_timeout=settings.memory.lock_timeout,
    )
    report.removed += backend.retention(policy, dry_run=dry_run)
    _edit_leftovers(gov.root, max_age, now, report)
    for record in PendingQueue(mem).expire(dry_run=dry_run):
        report.removed.append(Removal("pending", record.id, "expired"))
    for subsystem in SUBSYSTEMS:
        for path in gov.pending(subsystem).cleanup(dry_run=dry_run):
            report.removed.append(Removal("temp", path, "interrupted staging"))
    _archive_texts(mem, settings.retention.archive_days * DAY, now, report, dry_run)
    if not isinstance(home, ProjectHome):
        _tombstones(home, max_age, now, report, dry_run)
    if not dry_run:
        for r in report.removed:
            if r.kind == "edit_leftover":  # the others went under their locks
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(r.what)
        counts = report.counts()
        gov.record(
            subsystem="memory",
            target="home",
            action="gc",
            decision="retention",
            result="ok" if counts else "noop",
            removed=counts,
        )
    if not isinstance(home, ProjectHome):  # each project store is a home of its own
        for debris in removal_debris(home):
            report.removed.append(
                Removal("removed_store", str(debris), "left by a removal killed half-way")
            )
            if not dry_run:
                shutil.rmtree(debris, ignore_errors=True)
        for debris in left_behind(home, now):
            if dry_run or _take(debris, now):
                report.removed.append(
                    Removal(
                        "store_debris",
                        str(debris),
                        "no store: caches or locks a process wrote after the store was removed",
                    )
                )
        _set_aside(home, now, report, dry_run)
        for store in stored_projects(home):
            sub = collect_garbage(store, dry_run=dry_run, clock=clock, origin=origin)
            report.removed += sub.removed
            report.notes += sub.notes
    return report


def _take(debris: Path, now: float) -> bool:
    """Delete a directory :func:`~mnemic.curated.scope.left_behind` found: renamed out
    of ``projects/`` first (no store is made in a directory no longer there), looked at
    again (its contents: the rename may touch its time), then deleted; put back when a
    store was made in it meanwhile.

    Looked at once more, and moved, only while gc holds every lock file in it
    (:func:`_held`): a writer of a store made in it meanwhile that holds its target's
    lock keeps the directory where it is (moved under that writer, the directory would
    leave it holding a lock no other writer sees, while a second made the directory
    again with a lock file of its own: two writers of one store). A lock file made
    after gc took the others is looked for again once the directory is aside: one held
    puts the directory back."""
    held = _held(debris)
    if held is None:
        return False  # a writer holds a lock in it: a store is being made there
    try:
        if os.path.lexists(debris / PROJECT_FILE) or not left_behind_here(debris, now):
            return False  # a store was made in it since gc's look: looked at again, held
        aside = debris.parent / f"{REMOVING}{debris.name}{SET_ASIDE}"
        try:
            os.rename(debris, aside)
        except OSError:
            return False
        more = _held(aside, held)
        held = more or held
        if (
            more is None
            or os.path.lexists(aside / PROJECT_FILE)
            or not left_behind_here(aside, now, idle=False)
        ):
            _put_back(aside, debris, now)  # a store was made in it between the looks
            return False
        shutil.rmtree(aside, ignore_errors=True)
        return True
    finally:
        _release(held)


def _held(root: Path, taken: _Held | None = None) -> _Held | None:
    """Take every lock file under ``root`` (``*.lock``) that ``taken`` does not hold
    yet (the same files, by inode: the directory may have been renamed since), without
    waiting: the locks held now (``taken`` and these), or ``None`` (the ones just taken
    released) when one is held by someone else, a writer working in ``root``, or
    cannot be taken."""
    have = _Held(list(taken.locks), set(taken.files)) if taken is not None else _Held([], set())
    mine: list[SidecarLock] = []
    try:
        for folder, _dirs, files in os.walk(root):
            for name in sorted(files):
                path = os.path.join(folder, name)
                if not name.endswith(".lock"):
                    continue
                info = os.lstat(path)
                if (info.st_dev, info.st_ino) in have.files:
                    continue
                lock = SidecarLock(path, 0.0)
                if not lock.try_acquire():
                    _release(_Held(mine, set()))
                    return None
                mine.append(lock)
                info = os.lstat(path)  # the file locked: the lock checked the path names it
                have.files.add((info.st_dev, info.st_ino))
    except Exception:  # an unsafe or unreadable lock file: not gc's to move
        _release(_Held(mine, set()))
        return None
    have.locks += mine
    return have


@dataclass
class _Held:
    """The locks :func:`_held` holds, and the files they are on (device, inode)."""

    locks: list[SidecarLock]
    files: set[tuple[int, int]]


def _release(held: _Held | None) -> None:
    for lock in held.locks if held is not None else ():
        lock.release()


def _set_aside(home: Home, now: float, report: GcReport, dry_run: bool) -> None:
    """Put back each store made in a directory gc had set aside whose place was taken
    again (:func:`_put_back`); say where one that cannot go back is."""
    for aside in set_aside_stores(home):
        place = aside.parent / aside.name[len(REMOVING) : -len(SET_ASIDE)]
        if dry_run:
            report.notes.append(f"{aside} holds a project store gc sets back at {place}.")
        elif not _put_back(aside, place, now):
            report.notes.append(
                f"{aside} holds a project store made while gc had set its directory aside, "
                f"and {place} was made again meanwhile with more than caches and locks in "
                f"it, or a writer holds a lock in it: nothing of either was deleted. Run "
                f"mnemic gc again; if this stays, compare the two and move {aside.name} "
                f"back to {place.name}."
            )


def _put_back(aside: Path, place: Path, now: float) -> bool:
    """Rename a directory :func:`_take` set aside back to ``place``: a store was made in
    it between gc's looks. That store's writer may have made ``place`` again after the
    rename (its lock file, its caches): when what is there holds nothing else (no
    ``project.json``, only caches and locks) and no writer holds one of its locks, it is
    moved out of the way (a removal's debris, deleted) under those locks, and the store
    put back; a writer waiting for one of them then takes the store's own (its lock
    file moved, :class:`~mnemic.fsio.SidecarLock` takes the one at the path). Otherwise
    both stay: the aside holding a store is never taken for debris
    (:func:`~mnemic.curated.scope.removal_debris`), a writer holding a lock in ``place``
    finds no ``project.json`` there and is refused, and the next gc tries again.
    Whether it is back."""
    for n in range(3):
        try:
            os.rename(aside, place)
            return True
        except OSError:
            pass
        if os.path.lexists(place / PROJECT_FILE) or not left_behind_here(place, now, idle=False):
            return False
        held = _held(place)
        if held is None:
            return False
        try:
            with contextlib.suppress(OSError):
                os.rename(place, place.parent / f"{REMOVING}{place.name}-{n}{SET_ASIDE}-out")
        finally:
            _release(held)
    return False


def _tombstones(home: Home, max_age: float, now: float, report: GcReport, dry_run: bool) -> None:
    """The tombstones ``mnemic project forget`` / ``move`` left (so that a writer that
    had the store open is refused, saying when; the files store's under
    ``projects/.tombstones/``, a database's in its catalog) older than ``max_age``
    (``[retention] max_age_days``; 0 keeps them). A store of that id made again took
    its tombstone already."""
    catalog = project_catalog(home.settings)
    if not max_age:
        return
    if catalog is None and stores_in_home(home.settings):
        dropped = drop_file_tombstones(home, now - max_age, dry_run=dry_run)
    elif isinstance(catalog, ProjectTombstones):
        dropped = catalog.drop_tombstones(home, now - max_age, dry_run=dry_run)
    else:
        return
    for pid in dropped:
        report.removed.append(
            Removal("tombstone", f"project {pid}", "removed or moved longer ago than max_age")
        )


def _archive_texts(
    mem: Memory, max_age: float, now: float, report: GcReport, dry_run: bool
) -> None:
    """``[retention] archive_days``: drop from the audit journal the text of every entry
    archived longer ago than ``max_age`` (and the journal's older copies of entries no
    longer live), byte for byte; the archive keeps the rest of each (when, why, who)."""
    gov = mem.governor
    if not max_age or gov is None:
        return
    fold = mem.fold()
    live = {name: set(t.live) for name, t in (fold.targets.items() if fold else ())}

    def old(rec: dict[str, Any], target: str, name: str, item: dict[str, Any]) -> bool:
        ts = rec.get("ts")
        if not isinstance(ts, int | float) or now - ts <= max_age:
            return False
        return name == "removed" or item.get("key") not in live.get(target, set())

    if dry_run:
        count = sum(
            1
            for rec in gov.journal.records()
            for target, name, item in record_texts(rec)
            if isinstance(item.get("text"), str) and old(rec, target, name, item)
        )
    else:
        count = gov.journal.forget_texts(old)
        fold_cache.forget_cached(gov.journal)
    for _ in range(count):
        report.removed.append(
            Removal("archive_text", gov.journal.location, "older than archive_days")
        )


def _edit_leftovers(root: Path, max_age: float, now: float, report: GcReport) -> None:
    """Texts kept by a failed ``mnemic memory edit`` (``<home>/MEMORY.md.edit.<stamp>``)."""
    if not max_age:
        return
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        if not any(name.startswith(f"{f}.edit.") for f in FILENAMES.values()):
            continue
        path = root / name
        with contextlib.suppress(OSError):
            if now - path.stat().st_mtime > max_age:
                report.removed.append(Removal("edit_leftover", str(path), "older than max_age"))
