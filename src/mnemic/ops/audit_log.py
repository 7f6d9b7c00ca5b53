"""The audit records of several stores, each named by its store: :func:`store_records`;
each store's chain checked: :func:`verify_stores`.

Every curated store keeps its own hash-chained journal: the global one in the home, a
project's in its own store (files: ``<home>/projects/<id>/audit/``; PostgreSQL: the
``audit`` rows whose ``project`` column holds its id). A record itself does not say
which store it belongs to, and must not start to: its hashed bytes are what
``mnemic audit verify`` checks, so a field added to new records would make two kinds of
record, and one added when reading would break every old journal. The store is told
beside the record instead (:class:`StoreRecord`), from where the record was read.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..curated.scope import ProjectHome
from ..governance.chain import VerifyReport
from ..governance.storage import open_journal
from ..home import Home

__all__ = ["StoreRecord", "store_label", "store_records", "verify_stores"]


def store_label(store: Home) -> dict[str, Any]:
    """Which store ``store`` is: ``scope`` (``global`` / ``project``), the ``project``
    directory and its ``project_id`` (both ``None`` for the global store)."""
    if isinstance(store, ProjectHome):
        project = store.project
        return {"scope": "project", "project": project.path or None, "project_id": project.id}
    return {"scope": "global", "project": None, "project_id": None}


@dataclass(frozen=True)
class StoreRecord:
    """One audit record, as its journal holds it, and the store it was read from."""

    store: Home
    record: dict[str, Any]

    @property
    def label(self) -> dict[str, Any]:
        """:func:`store_label` of the store."""
        return store_label(self.store)

    def as_dict(self) -> dict[str, Any]:
        """The record's fields, then ``store``: its :attr:`label` (told beside the
        record; not part of what the chain hashes)."""
        return {**self.record, "store": self.label}


def _time(item: StoreRecord) -> float:
    ts = item.record.get("ts")
    return float(ts) if isinstance(ts, int | float) and not isinstance(ts, bool) else 0.0


def _read(store: Home) -> Iterator[StoreRecord]:
    for record in open_journal(store.root, store.settings).records():
        yield StoreRecord(store, record)


def store_records(
    stores: Sequence[Home],
    *,
    action: str | None = None,
    result: str | None = None,
    limit: int = 0,
) -> list[StoreRecord]:
    """The records of every journal of ``stores`` whose ``action`` and ``result`` match
    (``None``: any), oldest first: the journals merged by record time, each journal's
    own order kept (a record without a readable ``ts`` counts as time 0). ``limit`` > 0
    keeps the newest ``limit``. A journal that cannot be read raises its
    :class:`~mnemic.errors.StorageError`."""
    merged = heapq.merge(*(_read(store) for store in stores), key=_time)
    found = [
        item
        for item in merged
        if (action is None or item.record.get("action") == action)
        and (result is None or item.record.get("result") == result)
    ]
    return found[-limit:] if limit > 0 else found


def verify_stores(stores: Sequence[Home]) -> list[tuple[Home, VerifyReport]]:
    """Each store of ``stores`` with the verdict on its journal's chain (its own: a
    store's records never chain into another's)."""
    return [(store, open_journal(store.root, store.settings).verify()) for store in stores]
