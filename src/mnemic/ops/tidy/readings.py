"""Reading versions (tidy 39): which numbers, times, months and units tidy reads.

The rule readings of :mod:`.numerals` and :mod:`.quantities` grow (tidy 37 read numbers
in words in 13 more languages, East Asian and Vietnamese clock times, month names of 25
more languages, litres and cubic feet). The rules read with the latest version; the
learned pair model (:mod:`.pairmodel`) reads its features with the version it was
fitted on (:data:`.pairmodel.READING`), so ``pair_model.bin`` keeps its bytes and still
rebuilds from its features (``tests/test_tidy_pairmodel_rebuild.py``) when a version
adds readings.

* **1**: the readings before tidy 37's step B (what ``pair_model.bin`` was fitted on);
* **2** (tidy 39, :data:`LATEST`): tidy 37's step B.

A version adds readings; it does not change those before it. So a text in which no
reading of a later version can match (:func:`.quantities.read_alike`) reads the same
in every version, and tidy reads it once: :func:`.signals.profile` and the per-text
caches (:mod:`.memo`) keep one reading of it. Only a text a later version reads
differently is read again, under :func:`at`, and only where the model asks.

The version in force is a context variable (:func:`version`, default :data:`LATEST`):
:func:`at` sets it for what runs inside, the rules the model reads included (its
verdict of the pair is one of its features).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["LATEST", "VERSIONS", "at", "version"]

LATEST = 2
"""The readings the rules read with (tidy 39: tidy 37's step B)."""
VERSIONS = (1, 2)

_VERSION: ContextVar[int] = ContextVar("mnemic_tidy_reading", default=LATEST)


def version() -> int:
    """The reading version in force (:data:`LATEST` unless inside :func:`at`)."""
    return _VERSION.get()


@contextmanager
def at(v: int) -> Iterator[None]:
    """Read with version ``v`` inside the block (this thread or task only)."""
    if v not in VERSIONS:
        raise ValueError(f"no reading version {v}; there are {VERSIONS}")
    token = _VERSION.set(v)
    try:
        yield
    finally:
        _VERSION.reset(token)
