"""The audit records of several stores, each named by its store: :func:`store_records`;
each store's chain checked: :func:`verify_stores`.

Every curated store keeps its own hash-chained journal: the global one in the home, a
project's in its own store (files: ``<home>/projects/<id>/audit/``; PostgreSQL: the
``audit`` rows whose ``project`` column holds its id). A record itself does not say
which store it belongs to, and must not start to: its hashed bytes are what
``mnemic audit verify`` checks, so a field added to new records would make two kinds of
record, and one added when reading would break every old journal. The store is told
beside the record instead (:class:`StoreRecord`), from where the record was read.

**What an expiry-only change did.** A write that leaves the text as it was and only
moves an entry's expiry (``memory replace OLD --expires DATE|never`` without a new text)
is recorded with ``result: "noop"`` and the new expiry in ``touched``; the expiry it had
is in no record of its own. Each store's journal is folded as it is read
(:class:`~mnemic.curated.fold.Fold`, the archive's fold), so each such record is told
with what it changed (:attr:`StoreRecord.expiry`: old -> new, by entry) and reads
``expiry`` (:attr:`StoreRecord.result`) instead of ``noop``; journals written before
fold the same (the record's bytes are untouched).
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..curated.fold import Fold, expiry_moves
from ..curated.pressure import given_as
from ..curated.scope import ProjectHome
from ..governance.chain import VerifyReport
from ..governance.storage import open_journal
from ..home import Home

__all__ = ["EXPIRY", "ExpiryMove", "StoreRecord", "store_label", "store_records", "verify_stores"]

EXPIRY = "expiry"
"""The result an expiry-only change reads as (:attr:`StoreRecord.result`)."""


def store_label(store: Home) -> dict[str, Any]:
    """Which store ``store`` is: ``scope`` (``global`` / ``project``), the ``project``
    directory and its ``project_id`` (both ``None`` for the global store)."""
    if isinstance(store, ProjectHome):
        project = store.project
        return {"scope": "project", "project": project.path or None, "project_id": project.id}
    return {"scope": "global", "project": None, "project_id": None}


def _given(when: float | None) -> str | None:
    """An expiry as it was given (``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM``, UTC);
    ``None``: none."""
    return None if when is None else (given_as(when) or repr(when))


@dataclass(frozen=True)
class ExpiryMove:
    """One entry's expiry, moved by a write that left its text as it was."""

    target: str
    key: str
    """The entry's key (its provenance key, as the record names it)."""
    text: str | None
    """The entry's text (``None``: forgotten since, or unknown)."""
    old: float | None
    """The expiry it had (``None``: none)."""
    new: float | None
    """The expiry it has now (``None``: cleared)."""

    def as_dict(self) -> dict[str, Any]:
        """``from`` and ``to`` as given (``YYYY-MM-DD``: valid through that day, UTC; or
        ``YYYY-MM-DDTHH:MM``); ``null``: no expiry."""
        return {
            "target": self.target,
            "key": self.key,
            "text": self.text,
            "from": _given(self.old),
            "to": _given(self.new),
        }

    def describe(self) -> str:
        """``memory "Deploy freeze until Fri…": 2027-01-05 -> never`` (the key's first
        8 digits when the text is gone)."""
        text = self.text if self.text is not None else ""
        shown = json.dumps(text[:29] + "…" if len(text) > 30 else text, ensure_ascii=False)
        return (
            f"{self.target} {shown if text else self.key[:8]}: "
            f"{_given(self.old) or 'never'} -> {_given(self.new) or 'never'}"
        )


@dataclass(frozen=True)
class StoreRecord:
    """One audit record, as its journal holds it, and the store it was read from."""

    store: Home
    record: dict[str, Any]
    expiry: tuple[ExpiryMove, ...] = ()
    """The expiries a write that kept its text moved (recorded as ``noop``)."""

    @property
    def label(self) -> dict[str, Any]:
        """:func:`store_label` of the store."""
        return store_label(self.store)

    @property
    def result(self) -> str:
        """The record's ``result``, or :data:`EXPIRY` for a ``noop`` that moved an
        expiry."""
        if self.expiry:
            return EXPIRY
        found = self.record.get("result")
        return found if isinstance(found, str) else ""

    def as_dict(self) -> dict[str, Any]:
        """The record's fields, then ``store``: its :attr:`label` (told beside the
        record; not part of what the chain hashes), and ``expiry`` (each entry's
        :meth:`ExpiryMove.as_dict`) for a write that only moved expiries."""
        told: dict[str, Any] = {"store": self.label}
        if self.expiry:
            told["expiry"] = [move.as_dict() for move in self.expiry]
        return {**self.record, **told}


def _time(item: StoreRecord) -> float:
    ts = item.record.get("ts")
    return float(ts) if isinstance(ts, int | float) and not isinstance(ts, bool) else 0.0


def _read(store: Home) -> Iterator[StoreRecord]:
    fold = Fold()
    for record in open_journal(store.root, store.settings).records():
        moved = expiry_moves(fold, record)
        fold.apply(record)
        yield StoreRecord(store, record, tuple(ExpiryMove(*m) for m in moved))


def store_records(
    stores: Sequence[Home],
    *,
    action: str | None = None,
    result: str | None = None,
    limit: int = 0,
) -> list[StoreRecord]:
    """The records of every journal of ``stores`` whose ``action`` and ``result``
    (:attr:`StoreRecord.result`: ``expiry`` for an expiry-only change) match (``None``:
    any), oldest first: the journals merged by record time, each journal's
    own order kept (a record without a readable ``ts`` counts as time 0). ``limit`` > 0
    keeps the newest ``limit``. A journal that cannot be read raises its
    :class:`~mnemic.errors.StorageError`."""
    merged = heapq.merge(*(_read(store) for store in stores), key=_time)
    found = [
        item
        for item in merged
        if (action is None or item.record.get("action") == action)
        and (result is None or item.result == result)
    ]
    return found[-limit:] if limit > 0 else found


def verify_stores(stores: Sequence[Home]) -> list[tuple[Home, VerifyReport]]:
    """Each store of ``stores`` with the verdict on its journal's chain (its own: a
    store's records never chain into another's)."""
    return [(store, open_journal(store.root, store.settings).verify()) for store in stores]
