"""The vocabulary of a curated mutation: the operations a call asks for (:class:`Op`) and
what each of them did (:class:`OpResult`).

Below both the store that applies them (:mod:`.store`) and the provenance ledger that
records them (:mod:`.provenance`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["ACTIONS", "NO_EXPIRY", "Op", "OpResult", "recorded_expiry"]

ACTIONS = ("add", "replace", "remove")

NO_EXPIRY = math.inf
"""An ``expires`` that says the entry does not expire: an add or replace given it
clears the entry's expiry, also when its text stays (a confirm, which otherwise keeps
the expiry it had). The audit record holds it as ``null`` (JSON has no infinity):
:func:`recorded_expiry`."""


def recorded_expiry(when: float) -> float | None:
    """An ``Op.expires`` as a JSON record holds it (the audit record, a staged write's
    payload): :data:`NO_EXPIRY` as ``null``, a time as itself."""
    return None if math.isinf(when) else when


@dataclass(frozen=True, slots=True)
class Op:
    """One operation: ``add`` (content), ``replace`` (old_text, content), ``remove`` (old_text)."""

    action: str
    content: str | None = None
    old_text: str | None = None
    target: str | None = None
    """The target of this operation (default: the target the call names). A batch whose
    operations name both targets commits both or neither."""
    expires: float | None = None
    """add, replace: when the entry it writes stops being valid (Unix seconds): at the
    first agent session start (or ``mnemic gc``) after it, the entry goes to the archive
    with reason ``expired`` (:meth:`~.memory.Memory.expire`). Kept in the audit record,
    never in the entry's text. ``None``: not given (a new entry does not expire, a
    confirmed one keeps its expiry); :data:`NO_EXPIRY`: clear it."""


@dataclass(frozen=True, slots=True)
class OpResult:
    """What one operation did."""

    action: str
    status: str
    """``added``, ``duplicate`` (already present: nothing to do), ``replaced`` or ``removed``."""
    entry: str | None = None
    """The entry written (add, replace)."""
    previous: str | None = None
    """The entry overwritten or removed (replace, remove)."""
    target: str = ""
    """The target the operation applied to."""
