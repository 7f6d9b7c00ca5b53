"""The storage seam of the curated store: what every backend provides.

The store never touches files itself: it reads targets, and mutates them inside a
:meth:`CuratedBackend.transaction` that serialises writers of the same target (a sidecar
``flock`` for files, :mod:`mnemic.backends.files.curated`; an advisory transaction lock
in PostgreSQL) and re-reads under that lock. Every committed write keeps the previous
version in a bounded history; text refused as drift is kept as a backup. Retention
(``mnemic gc``) and purging (``mnemic forget --user``) are part of the seam, so callers
never need to know which backend they hold. So is the storage of each target's
provenance ledger (who wrote each entry, and when: :mod:`.provenance`), written in the
transaction of the text, and a cheap signature of each target for watchers.
"""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..errors import InvalidArgument
from .entries import FILENAMES

__all__ = [
    "MAX_LEDGER_BYTES",
    "Backup",
    "CuratedBackend",
    "CuratedTxn",
    "Problem",
    "Removal",
    "RetentionPolicy",
    "Version",
    "version_text",
]

MAX_LEDGER_BYTES = 8 * 1024 * 1024
"""A stored provenance ledger larger than this is ignored (with a warning) as damaged or
hostile; a file backend does not even read it."""


@dataclass(frozen=True, slots=True)
class Version:
    """A previous version of a target, kept when a newer one was committed."""

    target: str
    id: int
    """Increasing sequence number within the target."""
    saved_at: float
    """Unix time at which this version was replaced."""
    size: int
    """Size in bytes."""
    location: str
    """Where it is kept (a path, or a database reference)."""


@dataclass(frozen=True, slots=True)
class Backup:
    """A text kept when drift was detected (one per distinct text)."""

    target: str
    id: int
    """Increasing within the backend (a row id; for files, the position, oldest first)."""
    saved_at: float
    """Unix time of the last refusal that kept this text."""
    size: int
    """Size in bytes."""
    location: str
    """Where it is kept (a path, or a database reference)."""


@dataclass(frozen=True, slots=True)
class Removal:
    """One thing retention or a purge removed (or, in a dry run, would remove)."""

    kind: str
    """``history``, ``backup``, ``temp``, ``intent``, ``edit_leftover`` or ``pending``."""
    what: str
    """A path, a database reference or a pending id."""
    reason: str


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding of ``mnemic memory doctor`` (:func:`mnemic.curated.admin.doctor`)."""

    severity: str
    """``error`` (memory cannot be used as is), ``warning`` or ``info``."""
    target: str | None
    message: str
    fix: str
    """What a person can do about it."""
    fixed: bool = False
    """Whether ``--fix`` repaired it."""


@dataclass(frozen=True, slots=True)
class RetentionPolicy:
    """What ``mnemic gc`` keeps of history versions and drift backups."""

    history_limit: int
    backup_limit: int
    max_age: float
    """Seconds; 0 turns the age limit off."""
    now: float
    lock_timeout: float
    """How long each target's lock is waited for."""

    def past(
        self, versions: Sequence[Version], backups: Sequence[Backup]
    ) -> list[tuple[Version | Backup, Removal]]:
        """The versions and backups (oldest first each) to remove, with why: the oldest
        beyond the limit, then any older than ``max_age``. Every backend applies this one
        policy under its own locks."""
        out: list[tuple[Version | Backup, Removal]] = []
        kinds: tuple[tuple[str, Sequence[Version | Backup], int], ...] = (
            ("history", versions, self.history_limit),
            ("backup", backups, self.backup_limit),
        )
        for kind, items, limit in kinds:
            excess = max(0, len(items) - limit)
            for i, item in enumerate(items):
                if i < excess:
                    out.append((item, Removal(kind, item.location, f"over {kind}_limit")))
                elif self.max_age and self.now - item.saved_at > self.max_age:
                    out.append((item, Removal(kind, item.location, "older than max_age")))
        return out


class CuratedTxn(Protocol):
    """The view of the locked targets inside a transaction."""

    lock_wait_ms: float

    def read(self, target: str) -> str | None:
        """Current text of ``target`` as of now (under the lock); ``None`` if absent."""
        ...

    def write(self, writes: Mapping[str, str], *, record: Callable[[], None] | None = None) -> None:
        """Replace each locked target named in ``writes`` with its text, keeping the
        previous version in history: all of them are committed or none (a crash in the
        middle is completed, or undone, by the next transaction or writer's open). The
        write is durable before the transaction releases its locks.

        ``record()`` is called once, before the commit point (the new texts written
        and their fsync under way, the previous versions linked: files; in the
        transaction: PostgreSQL), to append the commit's audit record; if it raises,
        nothing is committed."""
        ...

    def read_provenance(self, target: str) -> str | None:
        """The stored provenance ledger of ``target`` under the lock (``None``: none).

        Raises a :class:`~mnemic.errors.StorageError` when it exists but cannot be read
        (the caller treats provenance as advisory and goes on without it)."""
        ...

    def write_provenance(self, target: str, ledger: str) -> None:
        """Store the provenance ledger of ``target`` (see :mod:`.provenance`), joining
        this transaction; called before the target's write. A failure raises a
        :class:`~mnemic.errors.MnemicError` and leaves the transaction usable."""
        ...


class CuratedBackend(Protocol):
    """Where MEMORY.md and USER.md live. Implementations must give the same semantics."""

    def location(self, target: str) -> str:
        """Human-readable location of a target (a path or a URL)."""
        ...

    def signature(self, target: str) -> Hashable | None:
        """A cheap token that changes whenever the target's text may have changed (it may
        also change when the text did not, a touch); ``None`` when there is none cheaper
        than reading the text (a watcher then reads it at every look)."""
        ...

    def read(self, target: str) -> str | None:
        """Read a target without locking (readers see whole versions only)."""
        ...

    def read_provenance(self, target: str) -> str | None:
        """The stored provenance ledger of ``target`` without locking (``None``: none).

        Raises a :class:`~mnemic.errors.StorageError` when it cannot be read (a sidecar
        that is not a regular file, a symlink, too large, not UTF-8)."""
        ...

    def transaction(
        self, targets: Sequence[str], timeout: float
    ) -> contextlib.AbstractContextManager[CuratedTxn]:
        """Lock ``targets`` (in a fixed order), yield a view to read and write them."""
        ...

    def history(self, target: str) -> list[Version]:
        """Previous versions of ``target``, oldest first."""
        ...

    def read_version(self, target: str, version_id: int) -> str | None:
        """The text of one previous version (``None``: no such version is kept; see
        :func:`version_text`)."""
        ...

    def save_backup(self, target: str, raw: str) -> str:
        """Keep a copy of ``raw`` (drift evidence); return where it went."""
        ...

    def backups(self, target: str) -> list[Backup]:
        """Drift backups of ``target``, oldest first."""
        ...

    def doctor(self, *, fix: bool = False) -> list[Problem]:
        """Storage-level health (permissions, interrupted commits, debris left by crashed
        writers); with ``fix`` the safe repairs are made (content is never changed)."""
        ...

    def retention(self, policy: RetentionPolicy, *, dry_run: bool = False) -> list[Removal]:
        """Apply ``policy`` to history versions and backups, and remove debris of crashed
        writers, each target under its lock; return what was (or would be) removed."""
        ...

    def purge(self, target: str, *, lock_timeout: float, dry_run: bool = False) -> list[str]:
        """Delete ``target`` with every copy of it (versions, backups, debris) under its
        lock; return what was (or would be) removed."""
        ...

    def forget_copies(
        self,
        target: str,
        holds: Callable[[str], bool],
        *,
        lock_timeout: float,
        dry_run: bool = False,
    ) -> list[str]:
        """Delete the history versions and drift backups of ``target`` whose text
        ``holds`` selects (a forgotten text), under its lock; the live text and every
        other copy stay. Return what was (or would be) removed."""
        ...


def version_text(
    backend: CuratedBackend, target: str, version_id: int, *, project: str | None = None
) -> str:
    """The text of one kept version of ``target``; :class:`InvalidArgument` naming the
    versions there are when it is not one of them (and the command that lists them, with
    ``--project`` when the store is ``project``'s)."""
    text = backend.read_version(target, version_id)
    if text is not None:
        return text
    known = ", ".join(str(v.id) for v in backend.history(target)) or "none"
    flag = "" if project is None else f" --project {shlex.quote(project)}"
    raise InvalidArgument(
        "version",
        f"No version {version_id} of {FILENAMES[target]} (known versions: {known}). "
        f"See `mnemic memory history{flag}`.",
    )
