"""The pending store: writes staged for approval, one JSON file per write.

Layout: ``<home>/pending/<subsystem>/<id>.json`` (0600, written atomically) and a
sidecar lock ``<home>/pending/<subsystem>/.lock`` held while a record is added, approved,
rejected or expired, so one record is never applied twice by two approvers.

A record holds what the approver needs (summary, a human-readable detail, who asked and
when) and what the applier needs (``payload``: the operations, validated when staged).
It expires ``approval.pending_ttl_hours`` after staging: an expired record can no longer
be approved and ``mnemic gc`` removes it. At most ``retention.pending_limit`` live
records are kept per subsystem; staging beyond that is an approval failure (the actor's
``fail_open`` setting decides).

:class:`BasePendingStore` holds what the file queue here and the database queue
(:class:`~mnemic.backends.postgres.governance.PostgresPendingStore`) do the same way:
staging within the limit, the stored JSON form, parsing a stored record.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import PendingNotFound, StorageError, UnreadableFile, UnsafePath, WriteFailed
from ..fsio import SidecarLock, atomic_write_text, ensure_private_dir, read_text_strict

__all__ = ["BasePendingStore", "PendingListing", "PendingRecord", "PendingStore"]

_ID_CHARS = frozenset("0123456789abcdef")


def valid_id(pending_id: str) -> bool:
    """Whether ``pending_id`` has the shape of a pending id (lower-case hex)."""
    return 4 <= len(pending_id) <= 32 and set(pending_id) <= _ID_CHARS


@dataclass(frozen=True, slots=True)
class PendingRecord:
    """One staged write."""

    id: str
    subsystem: str
    actor: str
    origin: str
    session_id: str
    summary: str
    """One line: what the write does (``add to user profile: Prefers tea``)."""
    detail: str
    """What a person reviews: every operation, in full."""
    payload: dict[str, Any]
    """What the applier replays (for memory: target, operations, batch, allow_empty)."""
    created_at: float
    expires_at: float
    base: dict[str, str | None] = field(default_factory=dict)
    """SHA-256 of each file the write touches, as it was when the write was staged."""

    def expired(self, now: float) -> bool:
        """Whether the record is past its expiry time at ``now``."""
        return now >= self.expires_at

    @property
    def targets(self) -> tuple[str, ...]:
        """The targets (files) the write touches."""
        return tuple(sorted(self.base))

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form (also the stored form, see :meth:`to_json`)."""
        return {
            "version": 1,
            "id": self.id,
            "subsystem": self.subsystem,
            "actor": self.actor,
            "origin": self.origin,
            "session_id": self.session_id,
            "summary": self.summary,
            "detail": self.detail,
            "payload": self.payload,
            "created_at": self.created_at,
            "expires_at": self.expires_at,
            "base": self.base,
        }

    def to_json(self) -> str:
        """The stored text of the record (a file's content, a database row's)."""
        return json.dumps(self.as_dict(), ensure_ascii=False, indent=1, sort_keys=True)

    @classmethod
    def from_dict(cls, data: Any) -> PendingRecord:
        """Parse the on-disk form; raises ``ValueError`` if a field is missing or wrong."""
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        strings = ("id", "subsystem", "actor", "origin", "session_id", "summary", "detail")
        for key in strings:
            if not isinstance(data.get(key), str):
                raise ValueError(f"field {key!r} is missing or not a string")
        for key in ("created_at", "expires_at"):
            if not isinstance(data.get(key), int | float) or isinstance(data.get(key), bool):
                raise ValueError(f"field {key!r} is missing or not a number")
        if not isinstance(data.get("payload"), dict):
            raise ValueError("field 'payload' is missing or not an object")
        base = data.get("base", {})
        if not isinstance(base, dict) or not all(
            isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in base.items()
        ):
            raise ValueError("field 'base' is not an object of hashes")
        if not valid_id(data["id"]):
            raise ValueError("field 'id' is not a pending id")
        return cls(
            data["id"],
            data["subsystem"],
            data["actor"],
            data["origin"],
            data["session_id"],
            data["summary"],
            data["detail"],
            data["payload"],
            float(data["created_at"]),
            float(data["expires_at"]),
            dict(base),
        )


@dataclass(frozen=True, slots=True)
class PendingListing:
    """Readable records (oldest first) and the files that could not be read."""

    records: tuple[PendingRecord, ...]
    problems: tuple[tuple[str, str], ...] = ()
    """(path, reason) of record files that could not be read or parsed."""


class BasePendingStore(ABC):
    """The pending writes of one subsystem, wherever they are stored.

    Staging (:meth:`add`) and reading a record (:meth:`read`) are the same for every
    store; a subclass says where records live (:meth:`_fetch`, :meth:`_store`), how the
    queue is locked, listed and counted.
    """

    def __init__(
        self,
        subsystem: str,
        *,
        ttl_hours: float = 168.0,
        limit: int = 200,
        clock: Callable[[], float] = time.time,
        lock_timeout: float = 10.0,
    ) -> None:
        self.subsystem = subsystem
        self.ttl_s = ttl_hours * 3600.0
        self.limit = limit
        self.clock = clock
        self.lock_timeout = lock_timeout

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the queue lives, for messages."""

    @abstractmethod
    def lock(self) -> contextlib.AbstractContextManager[Any]:
        """Hold the queue while adding, approving, rejecting or expiring."""

    @abstractmethod
    def ids(self) -> list[str]:
        """Ids of the records present (readable or not)."""

    @abstractmethod
    def listing(self) -> PendingListing:
        """Every record (expired ones included), oldest first, plus unreadable ones."""

    # -- reading -----------------------------------------------------------------
    def read(self, pending_id: str) -> PendingRecord:
        """One record; :class:`PendingNotFound` if there is none, StorageError if unreadable."""
        text, where = self._fetch(pending_id)
        if text is None:
            raise PendingNotFound(pending_id, self.ids())
        try:
            return PendingRecord.from_dict(json.loads(text))
        except ValueError as exc:
            raise UnreadableFile(where, f"not a pending record: {exc}") from exc

    @abstractmethod
    def _fetch(self, pending_id: str) -> tuple[str | None, str]:
        """(the stored text of a record or None, where it is); :class:`PendingNotFound`
        when ``pending_id`` is not a pending id."""

    # -- writing -----------------------------------------------------------------
    def add(
        self,
        *,
        actor: str,
        origin: str,
        session_id: str,
        summary: str,
        detail: str,
        payload: dict[str, Any],
        base: dict[str, str | None],
    ) -> PendingRecord:
        """Stage a write (takes the lock). Raises :class:`StorageError` if it cannot."""
        with self.lock():
            now = self.clock()
            live = self._count()
            if live >= self.limit:  # only then is it worth reading them
                live = sum(1 for r in self.listing().records if not r.expired(now))
            if live >= self.limit:
                raise WriteFailed(
                    self.location,
                    f"the pending queue is full ({live} writes waiting, "
                    "retention.pending_limit); approve or reject some first",
                )
            for _ in range(8):
                pending_id = os.urandom(4).hex()
                if not self._taken(pending_id):
                    break
            record = PendingRecord(
                pending_id,
                self.subsystem,
                actor,
                origin,
                session_id,
                summary,
                detail,
                payload,
                now,
                now + self.ttl_s,
                base,
            )
            self._store(record)
            return record

    @abstractmethod
    def _count(self) -> int:
        """How many records are present (expired and unreadable ones included)."""

    def _taken(self, pending_id: str) -> bool:
        """Whether a new id is already in use (a store that cannot tell says no)."""
        return False

    @abstractmethod
    def _store(self, record: PendingRecord) -> None:
        """Write a new record (the caller holds the lock)."""

    @abstractmethod
    def insert(self, record: PendingRecord) -> bool:
        """Store a record as it is (copying a queue); False if its id is taken."""


class PendingStore(BasePendingStore):
    """Pending writes of one subsystem under ``<home>/pending/<subsystem>/``."""

    def __init__(
        self,
        root: Path,
        subsystem: str,
        *,
        ttl_hours: float = 168.0,
        limit: int = 200,
        clock: Callable[[], float] = time.time,
        lock_timeout: float = 10.0,
    ) -> None:
        super().__init__(
            subsystem, ttl_hours=ttl_hours, limit=limit, clock=clock, lock_timeout=lock_timeout
        )
        self.root = root
        self.directory = root / subsystem

    # -- paths and checks --------------------------------------------------------
    def path(self, pending_id: str) -> Path:
        """The file of one record."""
        if not valid_id(pending_id):
            raise PendingNotFound(pending_id)
        return self.directory / f"{pending_id}.json"

    def _check_dir(self, create: bool) -> bool:
        """Make sure the directory is a real private directory; False if absent."""
        for d in (self.root, self.directory):
            try:
                st = os.lstat(d)
            except FileNotFoundError:
                if not create:
                    return False
                try:
                    ensure_private_dir(d)
                except Exception as exc:
                    raise WriteFailed(str(d), f"cannot create the pending queue: {exc}") from exc
                continue
            except OSError as exc:
                raise UnreadableFile(str(d), exc.strerror or str(exc)) from exc
            if stat.S_ISLNK(st.st_mode):
                raise UnsafePath(str(d), "the pending queue directory is a symlink")
            if not stat.S_ISDIR(st.st_mode):
                raise UnreadableFile(str(d), "the pending queue is not a directory")
        return True

    @property
    def location(self) -> str:
        """The queue's directory, for messages."""
        return str(self.directory)

    def present(self) -> bool:
        """Whether the queue's directory exists (nothing was ever staged otherwise)."""
        return self.directory.exists()

    def has(self, pending_id: str) -> bool:
        """Whether a record file with this id exists (``PendingNotFound``: not an id)."""
        return self.path(pending_id).exists()

    def lock(self) -> SidecarLock:
        """The queue's lock (hold it while adding, approving, rejecting or expiring)."""
        self._check_dir(create=True)
        return SidecarLock(self.directory / ".lock", self.lock_timeout)

    # -- reading -----------------------------------------------------------------
    def _names(self) -> list[str]:
        if not self._check_dir(create=False):
            return []
        try:
            names = os.listdir(self.directory)
        except OSError as exc:
            raise UnreadableFile(str(self.directory), exc.strerror or str(exc)) from exc
        return [n for n in names if n.endswith(".json") and not n.startswith(".")]

    def _fetch(self, pending_id: str) -> tuple[str | None, str]:
        path = self.path(pending_id)
        return read_text_strict(path, nofollow=True, max_bytes=4 * 1024 * 1024), str(path)

    def listing(self) -> PendingListing:
        """Every record (expired ones included), oldest first, plus unreadable files."""
        records: list[PendingRecord] = []
        problems: list[tuple[str, str]] = []
        for name in self._names():
            try:
                records.append(self.read(name[: -len(".json")]))
            except PendingNotFound:
                continue  # removed meanwhile
            except StorageError as exc:
                problems.append((str(self.directory / name), exc.to_llm()))
        records.sort(key=lambda r: (r.created_at, r.id))
        return PendingListing(tuple(records), tuple(problems))

    def ids(self) -> list[str]:
        """Ids of the record files present (readable or not)."""
        try:
            return sorted(n[: -len(".json")] for n in self._names())
        except StorageError:
            return []

    # -- writing (hold lock()) ---------------------------------------------------
    def _count(self) -> int:
        return len(self._names())

    def _taken(self, pending_id: str) -> bool:
        return os.path.lexists(self.path(pending_id))

    def _store(self, record: PendingRecord) -> None:
        atomic_write_text(self.path(record.id), record.to_json())

    def insert(self, record: PendingRecord) -> bool:
        """Store a record as it is (copying a queue; takes the lock); False if its id is
        taken."""
        with self.lock():
            if self.path(record.id).exists():
                return False
            self._store(record)
        return True

    def remove(self, pending_id: str) -> bool:
        """Delete a record (caller holds the lock); False if it was not there."""
        try:
            os.unlink(self.path(pending_id))
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise WriteFailed(str(self.path(pending_id)), exc.strerror or str(exc)) from exc
        return True

    def remove_file(self, path: str) -> bool:
        """Delete an unreadable record file by path (caller holds the lock)."""
        if os.path.dirname(path) != str(self.directory):
            raise UnsafePath(path, "not a file of the pending queue")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
            return True
        return False

    def cleanup(self, *, dry_run: bool = False) -> list[str]:
        """Remove the temp files of an interrupted staging (only when no writer holds the
        queue's lock); return them."""
        if not self.directory.is_dir():
            return []
        lock = SidecarLock(self.directory / ".lock", 0.0)
        if not lock.try_acquire():
            return []
        try:
            debris = [
                str(self.directory / n)
                for n in sorted(os.listdir(self.directory))
                if n.startswith(".") and n.endswith(".tmp")
            ]
            if not dry_run:
                for path in debris:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path)
            return debris
        finally:
            lock.release()
