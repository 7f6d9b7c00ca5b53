"""Retention: bound history versions, drift backups, pending records and temp files.

``mnemic gc`` (:func:`collect_garbage`) applies ``[retention]`` and ``[memory]``:

- history versions: at most ``memory.history_limit`` per target (the store already
  keeps to it; gc applies a lowered limit), none older than ``retention.max_age_days``;
- drift backups (``MEMORY.md.bak.*``): at most ``retention.backup_limit`` per target,
  none older than ``max_age_days``;
- pending writes: those past their expiry (``approval.pending_ttl_hours``) are removed
  and audited as ``expire``;
- temp files: debris of crashed writers (a two-file commit left mid-way is completed
  first), and texts kept by a failed ``mnemic memory edit`` older than ``max_age_days``.

``max_age_days = 0`` turns the age limit off. Each target's files are removed under its
lock, so gc never races a writer. Nothing current is ever removed: not the files
themselves, not a pending write that has not expired. One audit record (``gc``) lists
how many of each kind went.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..curated.backend import CuratedBackend, FileBackend
from ..curated.entries import FILENAMES, TARGETS
from ..fsio import SidecarLock, stale_temp_files

if TYPE_CHECKING:
    from ..home import Home

__all__ = ["GcReport", "Removal", "collect_garbage"]

DAY = 86400.0


@dataclass(frozen=True, slots=True)
class Removal:
    """One thing gc removed (or would remove)."""

    kind: str
    """``history``, ``backup``, ``pending``, ``temp``, ``edit_leftover`` or ``intent``."""
    what: str
    """A path, or a pending id."""
    reason: str


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
    from ..curated.memory import Memory, open_backend
    from ..home import Home
    from .governor import Governor
    from .review import PendingQueue

    if not isinstance(home, Home):
        home = Home.open(home)
    gov = Governor.for_home(home, actor="foreground", origin=origin, clock=clock)
    if home.settings.store == "files":  # not open_backend(): its clean-up is ours to report
        backend: CuratedBackend = FileBackend(
            home.memories_dir, history_limit=home.settings.memory.history_limit
        )
    else:
        backend = open_backend(home)
    mem = Memory(backend, home.settings, governor=gov)
    now = gov.clock()
    settings = gov.settings
    max_age = settings.retention.max_age_days * DAY
    report = GcReport(dry_run)
    if not isinstance(backend, FileBackend):
        prune = getattr(backend, "retention", None)
        if prune is None:
            report.notes.append("history and backups live in the backend; not pruned here")
        else:  # a database backend applies the same limits in its own transactions
            for kind, what, reason in prune(
                history_limit=settings.memory.history_limit,
                backup_limit=settings.retention.backup_limit,
                max_age=max_age,
                now=now,
                dry_run=dry_run,
            ):
                report.removed.append(Removal(kind, what, reason))
    else:
        _files(
            backend,
            settings.memory.history_limit,
            settings.retention.backup_limit,
            max_age,
            now,
            mem.settings.memory.lock_timeout,
            report,
        )
        _edit_leftovers(gov.root, max_age, now, report)
    for record in PendingQueue(mem).expire(dry_run=dry_run):
        report.removed.append(Removal("pending", record.id, "expired"))
    _pending_debris(gov.root / "pending", report)
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
    return report


def _files(
    backend: FileBackend,
    history_limit: int,
    backup_limit: int,
    max_age: float,
    now: float,
    lock_timeout: float,
    report: GcReport,
) -> None:
    # Each target under its lock: a writer may be linking a version or recycling one.
    for target in TARGETS:
        with backend.transaction([target], lock_timeout):
            versions = backend.history(target)
            excess = max(0, len(versions) - history_limit)
            for i, v in enumerate(versions):
                if i < excess:
                    report.removed.append(Removal("history", v.location, "over history_limit"))
                elif max_age and now - v.saved_at > max_age:
                    report.removed.append(Removal("history", v.location, "older than max_age"))
            backups = backend.backups(target)
            excess = max(0, len(backups) - backup_limit)
            for i, path in enumerate(backups):
                if i < excess:
                    report.removed.append(Removal("backup", str(path), "over backup_limit"))
                    continue
                with contextlib.suppress(FileNotFoundError):
                    if max_age and now - path.stat().st_mtime > max_age:
                        report.removed.append(Removal("backup", str(path), "older than max_age"))
            if not report.dry_run:
                for r in report.removed:
                    if r.kind in ("history", "backup") and _belongs(r.what, target):
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(r.what)
    # Temp files of crashed writers: only removable when no writer holds the lock.
    if report.dry_run:
        for target in TARGETS:
            for p in stale_temp_files(backend.path(target)):
                report.removed.append(Removal("temp", p, "left by a crashed writer"))
        if backend.intent_path.exists():
            report.removed.append(
                Removal("intent", str(backend.intent_path), "interrupted commit to complete")
            )
    else:
        for p in backend.cleanup():
            kind = "intent" if p == str(backend.intent_path) else "temp"
            report.removed.append(Removal(kind, p, "left by a crashed writer"))


def _belongs(path: str, target: str) -> bool:
    name = os.path.basename(path)
    return name.startswith(FILENAMES[target] + ".")


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


def _pending_debris(root: Path, report: GcReport) -> None:
    """Temp files of the pending queues (an interrupted staging)."""
    for sub in ("memory", "skills"):
        directory = root / sub
        if not directory.is_dir():
            continue
        lock = SidecarLock(directory / ".lock", 0.0)
        if not lock.try_acquire():
            continue
        try:
            for name in os.listdir(directory):
                if name.startswith(".") and name.endswith(".tmp"):
                    path = directory / name
                    report.removed.append(Removal("temp", str(path), "interrupted staging"))
                    if not report.dry_run:
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(path)
        finally:
            lock.release()
