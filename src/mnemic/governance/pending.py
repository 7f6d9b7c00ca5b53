"""The pending queue: writes staged for approval, and the queue's policy.

The queue of each subsystem has a lock held while a record is added, approved, rejected
or expired, so one record is never applied twice by two approvers. The embedded default
keeps one JSON file per write under ``<home>/pending/<subsystem>/``
(:mod:`mnemic.backends.files.pending`).

A record holds what the approver needs (summary, a human-readable detail, who asked and
when) and what the applier needs (``payload``: the operations, validated when staged).
It expires ``approval.pending_ttl_hours`` after staging: an expired record can no longer
be approved and ``mnemic gc`` removes it. At most ``retention.pending_limit`` live
records are kept per subsystem; staging beyond that is an approval failure (the actor's
``fail_open`` setting decides).

:class:`PendingQueueStore` is that policy, once, for every backend: the limit, expiry,
id allocation, the stored JSON form and parsing it, removing an unreadable record by the
place a listing named. Under it a backend provides only a raw :class:`PendingRecordStore`
(put, get, list, delete, lock): one file per record
(:class:`~mnemic.backends.files.pending.FilePendingRecords`), the ``pending`` table in
PostgreSQL (:class:`~mnemic.backends.postgres.governance.PostgresPendingRecords`).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict

from ..control_chars import printable
from ..errors import PendingNotFound, StorageError, UnreadableFile, WriteFailed

__all__ = [
    "AlreadyPending",
    "PendingListing",
    "PendingQueueStore",
    "PendingRecord",
    "PendingRecordStore",
    "QueuePolicy",
]

_ID_CHARS = frozenset("0123456789abcdef")


def valid_id(pending_id: str) -> bool:
    """Whether ``pending_id`` has the shape of a pending id (lower-case hex)."""
    return 4 <= len(pending_id) <= 32 and set(pending_id) <= _ID_CHARS


HELD_PREFIX = "Held by the threat scanner: "
"""How the detail of a write the threat scanner held opens (its reason follows)."""


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

    @property
    def held(self) -> str:
        """Why the threat scanner held the write for approval, as its detail opens with
        it ('': the policy staged it, or the detail is not kept)."""
        first = (self.detail or "").split("\n\n", 1)[0]
        return first.removeprefix(HELD_PREFIX) if first.startswith(HELD_PREFIX) else ""

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
        for key in ("subsystem", "actor", "origin", "session_id"):  # labels, shown as they are
            if printable(data[key], lines=False) != data[key]:
                raise ValueError(f"field {key!r} holds a control character")
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


class AlreadyPending(Exception):
    """The write :meth:`PendingQueueStore.add` was asked to stage ``once`` already waits
    as ``record``: nothing new was queued."""

    def __init__(self, record: PendingRecord) -> None:
        super().__init__(record.id)
        self.record = record


@dataclass(frozen=True, slots=True)
class PendingListing:
    """Readable records (oldest first) and the files that could not be read."""

    records: tuple[PendingRecord, ...]
    problems: tuple[tuple[str, str], ...] = ()
    """(path, reason) of record files that could not be read or parsed."""


class PendingRecordStore(Protocol):
    """Where the records of one queue live: the raw part a storage backend provides.

    Ids reach ``get`` and ``put`` checked (:func:`valid_id`); a record's text is its JSON
    (:meth:`PendingRecord.to_json`); writes happen while the caller holds :meth:`lock`
    (across processes and hosts). ``ids`` lists the records present, readable or not
    (none when the queue was never created; StorageError if it cannot tell); ``where``
    names the place of one, for messages; ``get`` returns one's text (``None`` if
    absent, StorageError if unreadable); ``scan`` yields (id, where, text or the error
    reading it) of each; ``put`` stores a new record (False, nothing written, if the id
    is taken); ``delete`` returns False if it was not there; ``cleanup`` removes (or
    lists, ``dry_run``) the debris of an interrupted staging.
    """

    @property
    def location(self) -> str: ...
    def where(self, pending_id: str) -> str: ...
    def lock(self) -> contextlib.AbstractContextManager[Any]: ...
    def ids(self) -> list[str]: ...
    def get(self, pending_id: str) -> str | None: ...
    def scan(self) -> Iterator[tuple[str, str, str | StorageError]]: ...
    def put(self, pending_id: str, created_at: float, text: str) -> bool: ...
    def delete(self, pending_id: str) -> bool: ...
    def cleanup(self, *, dry_run: bool = False) -> list[str]: ...


class PendingQueueStore:
    """The pending writes of one subsystem: the queue policy over a raw record store.

    Staging checks the limit (``retention.pending_limit`` live records) and allocates an
    id; a record expires ``ttl_hours`` after staging; reading parses and checks a record.
    """

    def __init__(
        self,
        records: PendingRecordStore,
        subsystem: str,
        *,
        ttl_hours: float = 168.0,
        limit: int = 200,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.records = records
        self.subsystem = subsystem
        self.ttl_s = ttl_hours * 3600.0
        self.limit = limit
        self.clock = clock
        self.location = records.location
        """Where the queue lives (a directory or a database table), for messages."""

    def lock(self) -> contextlib.AbstractContextManager[Any]:
        """Hold the queue while adding, approving, rejecting or expiring."""
        return self.records.lock()

    # -- reading -----------------------------------------------------------------
    def ids(self) -> list[str]:
        """Ids of the records present (readable or not); none if the queue is unreadable."""
        try:
            return sorted(self.records.ids())
        except StorageError:
            return []

    def has(self, pending_id: str) -> bool:
        """Whether a record with this id is present, readable or not (``PendingNotFound``:
        not a pending id)."""
        try:
            return self.records.get(_checked(pending_id)) is not None
        except StorageError:
            return True

    def read(self, pending_id: str) -> PendingRecord:
        """One record; :class:`PendingNotFound` if there is none, StorageError if unreadable."""
        text = self.records.get(_checked(pending_id))
        if text is None:
            raise PendingNotFound(pending_id, self.ids())
        return _parse(text, self.records.where(pending_id))

    def listing(self) -> PendingListing:
        """Every record (expired ones included), oldest first, plus unreadable ones."""
        records: list[PendingRecord] = []
        problems: list[tuple[str, str]] = []
        for pending_id, where, text in self.records.scan():
            if not valid_id(pending_id):
                continue  # not a record (a stray file)
            try:
                if isinstance(text, StorageError):
                    raise text
                records.append(_parse(text, where))
            except StorageError as exc:
                problems.append((where, exc.to_llm()))
        records.sort(key=lambda r: (r.created_at, r.id))
        return PendingListing(tuple(records), tuple(problems))

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
        once: bool = False,
    ) -> PendingRecord:
        """Stage a write (takes the lock). Raises :class:`StorageError` if it cannot.

        ``once``: a write whose payload is the payload of a live (unexpired) record is
        not queued a second time: :class:`AlreadyPending` is raised with that record
        (the oldest such). Looking and adding happen under the queue's lock, so two
        processes proposing one change at once still leave one record."""
        with self.lock():
            now = self.clock()
            ids = self.records.ids()
            if once and ids:
                same = self._live_same(payload, now)
                if same is not None:
                    raise AlreadyPending(same)
            live = len(ids)
            if live >= self.limit:  # only then is it worth reading them
                live = sum(1 for r in self.listing().records if not r.expired(now))
            if live >= self.limit:
                raise WriteFailed(
                    self.location,
                    f"the pending queue is full ({live} writes waiting, "
                    "retention.pending_limit); approve or reject some first",
                )
            for _ in range(8):
                record = PendingRecord(
                    os.urandom(4).hex(),
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
                if self.records.put(record.id, record.created_at, record.to_json()):
                    return record
            raise WriteFailed(self.location, "no free pending id was found; retry")

    def _live_same(self, payload: dict[str, Any], now: float) -> PendingRecord | None:
        """The oldest live record that stages ``payload`` (compared as stored: JSON)."""
        wanted = _canonical(payload)
        for record in self.listing().records:
            if not record.expired(now) and _canonical(record.payload) == wanted:
                return record
        return None

    def insert(self, record: PendingRecord) -> bool:
        """Store a record as it is (copying a queue; takes the lock); False if its id is
        taken."""
        with self.lock():
            return self.records.put(_checked(record.id), record.created_at, record.to_json())

    def remove(self, pending_id: str) -> bool:
        """Delete a record (caller holds the lock); False if it was not there."""
        return self.records.delete(_checked(pending_id))

    def remove_file(self, path: str) -> bool:
        """Delete an unreadable record by where a listing reported it (hold the lock);
        False if no record of this queue is there (any more): nothing else is touched."""
        for pending_id in self.records.ids():
            if self.records.where(pending_id) == path:
                return self.records.delete(pending_id)
        return False

    def cleanup(self, *, dry_run: bool = False) -> list[str]:
        """Remove debris of an interrupted staging; return what was (or would be) removed."""
        return self.records.cleanup(dry_run=dry_run)


def _canonical(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, sort_keys=True)


def _checked(pending_id: str) -> str:
    if not valid_id(pending_id):
        raise PendingNotFound(pending_id)
    return pending_id


def _parse(text: str, where: str) -> PendingRecord:
    try:
        return PendingRecord.from_dict(json.loads(text))
    except ValueError as exc:
        raise UnreadableFile(where, f"not a pending record: {exc}") from exc


class QueuePolicy(TypedDict, total=False):
    """The policy settings of :class:`PendingQueueStore`, as keywords."""

    ttl_hours: float
    limit: int
    clock: Callable[[], float]
