"""What a commit changed in a target, as its audit record keeps it.

The audit journal is the one durable record of memory (see ``docs/ARCHITECTURE.md``,
"The one durable record"): the record of each commit says, per target it wrote, which
entries it added (their keys: :func:`entry_key`), which it removed (key, text and why:
:data:`REASONS`) and who wrote it. Provenance and the archive are folded from these
(:mod:`.fold`). A record's hash leaves the removed texts out (their keys stay in), so
forgetting a text rewrites its line without breaking the chain
(:func:`mnemic.governance.chain.record_hash`).

The added entries' texts are kept too: a hand edit destroys the only other copy of an
entry (the file), so the journal must hold the text of every live entry for the archive
to keep what a hand edit drops. A record stays as small as its change; a target's first
record also lists the entries it found there (``seen``), and a change found with no
record of its own lists the whole text found (``found``, :mod:`.recovery`), once.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..governance.chain import text_key
from .entries import SCAN_MAX, entry_handle, fresh_tail
from .operations import OpResult, recorded_expiry

__all__ = ["REASONS", "Reason", "Removed", "TargetChange", "confirmed", "diff", "entry_key"]

REASONS = (
    "removed",
    "replaced",
    "merged",
    "superseded",
    "evicted",
    "expired",
    "edited",
    "restored",
    "adopted",
    "hand_edit",
    "unrecorded",
    "imported",
    "imported_over_budget",
    "moved",
)
"""Why an entry left its target: ``removed`` (a remove), ``replaced`` (the old text of a
replace; ``by`` names the new entry's key), ``merged`` (replaced by an entry that was
already there, or dropped by an approved tidy merge: ``by`` names the kept entry),
``superseded`` (dropped by an approved tidy proposal for a newer entry that contradicts
it: ``by`` names that entry), ``evicted`` and ``expired`` (the lifecycle's policies), ``edited`` (a
person's whole-text edit: ``mnemic memory edit``, the console), ``restored`` (a
previous version was restored over it), ``adopted`` (``mnemic memory adopt`` of a hand
edit dropped it), ``hand_edit`` (found changed outside mnemic), ``unrecorded`` (a
mnemic write whose record was lost: a power cut before the journal's flush),
``imported`` (archived in the agent it was imported from) and ``imported_over_budget``
(an imported entry that did not fit the budget): these two were never live here;
``moved`` (moved to the other scope, global or project: ``mnemic memory move``)."""

entry_key = text_key
"""The key of an entry: the SHA-256 of its text (hex, 32 digits)."""

Reason = str | tuple[str, str]
"""Why an entry leaves, as a write is told it: a reason of :data:`REASONS`, or
``(reason, text)`` naming the entry it went into (``merged``, ``superseded``: a tidy
proposal's kept entry, recorded as ``by`` when that entry is there after the write)."""


@dataclass(frozen=True, slots=True)
class Removed:
    """An entry a commit removed from its target."""

    key: str
    text: str | None
    """``None`` once forgotten (``mnemic forget``, ``[retention] archive_days``)."""
    reason: str
    by: str | None = None
    """The key of the entry that replaced it (``replaced``, ``merged``)."""

    def as_json(self) -> dict[str, Any]:
        """The form the record holds."""
        out: dict[str, Any] = {"key": self.key, "reason": self.reason}
        if self.text is not None:
            out["text"] = self.text
        if self.by is not None:
            out["by"] = self.by
        return out


@dataclass(frozen=True, slots=True)
class TargetChange:
    """What one commit did to one target."""

    added: tuple[tuple[str, str], ...] = ()
    """``(key, text)`` of the entries it added, in file order."""
    removed: tuple[Removed, ...] = ()
    author: tuple[str, str | None, str | None] | None = None
    """``(actor, origin, session)`` the entries it added are credited to (see
    :class:`~mnemic.curated.provenance.Stamp`)."""
    restored: tuple[str, ...] = ()
    """Ids of archived entries this commit brought back (``archive restore``)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    confirmed: tuple[str, ...] = ()
    """Keys of entries it confirmed without changing them: an add of a text already
    there, a replace by the same text (see :func:`confirmed`)."""
    expires: Mapping[str, float] = field(default_factory=dict)
    """When entries it wrote or confirmed stop being valid, by key (``Op.expires``;
    :data:`~.operations.NO_EXPIRY`: no longer, recorded as ``null``)."""

    @property
    def empty(self) -> bool:
        """Whether it changed no entry."""
        return not self.added and not self.removed

    def as_json(self) -> dict[str, Any]:
        """The form the record holds."""
        out: dict[str, Any] = {
            "added": [{"key": k, "text": t} for k, t in self.added],
            "removed": [r.as_json() for r in self.removed],
        }
        if self.author is not None:
            actor, origin, session = self.author
            out["author"] = {"actor": actor, "origin": origin, "session": session}
        if self.restored:
            out["restored"] = list(self.restored)
        if self.confirmed:
            out["confirmed"] = list(self.confirmed)
        if self.expires:
            out["expires"] = {k: recorded_expiry(t) for k, t in self.expires.items()}
        out.update(self.extra)
        return out


def confirmed(results: Iterable[OpResult]) -> tuple[str, ...]:
    """Keys of the entries ``results`` confirmed: re-added (an add of a text already
    there) or replaced by the same text. Recorded, they date the entry's last
    confirmation (a no-op write's record carries them too)."""
    out: dict[str, None] = {}
    for r in results:
        same = r.status == "replaced" and r.previous == r.entry
        if (r.status == "duplicate" or same) and r.entry is not None:
            out[entry_key(r.entry)] = None
    return tuple(out)


def diff(
    before: Sequence[str],
    after: Sequence[str],
    results: Iterable[OpResult] = (),
    *,
    reason: str = "removed",
    author: tuple[str, str | None, str | None] | None = None,
    restored: Mapping[str, str] | None = None,
    reasons: Mapping[str, Reason] | None = None,
    expires: Mapping[str, float] | None = None,
) -> TargetChange:
    """The change from the entries ``before`` to ``after``.

    ``results`` (the store's operations, in order) say which entry a replace turned into
    which: an entry replaced, perhaps several times within one call, by an entry that
    is in ``after`` is ``replaced`` by it (``merged`` when that entry was there before);
    one the operations removed, or replaced by something removed later in the call, is
    ``removed``. An entry gone for no operation's sake (a whole-text write) leaves for
    ``reason``. ``restored`` maps an added entry's text to the archive id it came from.
    ``reasons`` overrides why an entry left, by its text or its handle (``evicted``,
    ``expired``: the lifecycle's policies; ``(reason, text)`` also names the entry it
    went into, :data:`Reason`); ``expires`` maps the text of an entry in ``after`` to when
    it stops being valid.
    """
    ops = list(results)
    came = fresh_tail(before, after)
    if came is not None:
        # An add to a large target: nothing left, and only the entries after the ones
        # found can have come; no set of the whole target, no pass over it in Python.
        new: Collection[str] = after if len(expires or ()) <= SCAN_MAX else set(after)
        return _change((), came, ops, author, restored, expires, new)
    had = set(before)
    has = set(after)
    into: dict[str, str] = {}
    for r in ops:
        if r.status == "replaced" and r.previous is not None and r.entry is not None:
            into[r.previous] = r.entry
        elif r.status == "removed" and r.previous is not None:
            into[r.previous] = ""
    removed: list[Removed] = []
    # The entries that went and came, found by comprehensions: a write passes its
    # whole target here, so only these few should cost a Python step each.
    for entry in [e for e in before if e not in has]:
        why, by = reason, None
        if entry in into:
            target, steps = into[entry], 0
            while target and target not in has and target in into and steps < len(into):
                target, steps = into[target], steps + 1
            if target and target in has:
                why, by = ("merged" if target in had else "replaced"), entry_key(target)
            else:
                why = "removed"
        if reasons:
            given = reasons.get(entry) or reasons.get(entry_handle(entry))
            if isinstance(given, tuple):
                why, into_text = given
                by = entry_key(into_text) if into_text in has else None
            elif given is not None:
                why, by = given, None
        removed.append(Removed(entry_key(entry), entry, why, by))
    came = [e for e in after if e not in had]
    return _change(tuple(removed), came, ops, author, restored, expires, has)


def _change(
    removed: tuple[Removed, ...],
    came: list[str],
    ops: list[OpResult],
    author: tuple[str, str | None, str | None] | None,
    restored: Mapping[str, str] | None,
    expires: Mapping[str, float] | None,
    has: Collection[str],
) -> TargetChange:
    """The change that removed ``removed`` and added ``came`` (``has``: the entries
    after it)."""
    added = tuple((entry_key(e), e) for e in came)
    back = tuple(restored[e] for e in came if e in restored) if restored else ()
    until = {entry_key(e): t for e, t in (expires or {}).items() if e in has}
    return TargetChange(added, removed, author, back, confirmed=confirmed(ops), expires=until)
