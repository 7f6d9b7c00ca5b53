"""Provenance and the archive, folded from the audit journal.

The journal is the one durable record of memory (``docs/ARCHITECTURE.md``, "The one
durable record"): each commit's record says what it added and removed in each target
(:mod:`.changes`). :class:`Fold` applies the records in order and holds, per target,
the live entries the journal knows (key → :class:`~.provenance.Provenance` and text)
and, for every entry that ever left a target, its :class:`Archived` item.

:meth:`Fold.view` reads one target against the text found in it now. A target whose
text is not the state its last record left is corrected the way the next writer will
record it (:mod:`.recovery`), without writing anything: back at the state the last
record started from, that record never committed (its change is undone); any other
text is a change no record covers (a hand edit), whose dropped entries are archived.

The fold is cached (:mod:`.fold_cache`); this module is pure.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .changes import entry_key
from .provenance import Provenance, actor_of, clip
from .recovery import NOT_COMMITTED, REPLAYED
from .store import file_hash

__all__ = ["Archived", "Fold", "TargetFold", "TargetView", "expiry_moves"]

HAND_CAUSES = ("outside_edit", "unknown")


@dataclass(frozen=True, slots=True)
class Archived:
    """An entry that left MEMORY.md or USER.md, as the archive keeps it."""

    id: str
    """``<record seq>.<n>``: stable, from the record that removed it."""
    target: str
    key: str
    text: str | None
    """``None`` once forgotten (``mnemic forget``, ``[retention] archive_days``)."""
    reason: str
    """Why it left (:data:`~mnemic.curated.changes.REASONS`)."""
    archived_at: float | None
    """When it left (``None``: a change no record covers yet, found by a reader)."""
    by: tuple[str, str | None, str | None]
    """Who removed it: ``(actor, origin, session)``."""
    provenance: Provenance
    """What was known of the entry when it left (``created`` is when it was written)."""
    replaced_by: str | None = None
    """The key of the entry that replaced it (``replaced``, ``merged``)."""

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        actor, origin, session = self.by
        return {
            "id": self.id,
            "target": self.target,
            "text": self.text,
            "forgotten": self.text is None,
            "reason": self.reason,
            "archived_at": self.archived_at,
            "created": self.provenance.created,
            "removed_by": {"actor": actor, "origin": origin, "session": session},
            "provenance": self.provenance.as_dict(),
            "key": self.key,
            "replaced_by": self.replaced_by,
        }


@dataclass
class _Undo:
    """How to take back the last change of a target (a record that never committed)."""

    added: list[tuple[str, Provenance | None, str | None]] = field(default_factory=list)
    """Keys it added, with what the fold had for them before (normally nothing)."""
    removed: list[str] = field(default_factory=list)
    """Archive ids it created (their entries go back to the live map)."""
    restored: list[Archived] = field(default_factory=list)
    """Archive items it took out (they go back into the archive)."""
    then: _Undo | None = None
    """The undo of the record before it in the same group commit (taken back after
    this one: the batch's records commit together, by one rename, or not at all)."""


@dataclass
class TargetFold:
    """What the journal says about one target."""

    live: dict[str, Provenance] = field(default_factory=dict)
    texts: dict[str, str | None] = field(default_factory=dict)
    state: str | None = None
    """The content hash its last record left."""
    started: str | None = None
    """The content hash its last commit started from (``None``: unknown or no file)."""
    recorded: bool = False
    """Whether any record names it."""
    partial: bool = False
    """Whether records from before the journal kept changes name it (its entries from
    then on are ``unknown``)."""
    undo: _Undo | None = None
    batch: str | None = None
    """The group commit its last record belongs to (``None``: a commit of its own)."""


@dataclass(frozen=True, slots=True)
class TargetView:
    """One target's entries with their provenance, as of the text found in it."""

    provenance: tuple[Provenance, ...]
    pending: tuple[Archived, ...]
    """Entries a change with no record of its own (yet) dropped."""
    voided: tuple[str, ...]
    """Archive ids of a record that never committed (their entries are live)."""
    unvoided: tuple[Archived, ...] = ()
    """Archive items a record that never committed took out (an archive restore's):
    still archived, their entries not live."""


class Fold:
    """The journal folded record by record (see the module docstring)."""

    def __init__(self) -> None:
        self.targets: dict[str, TargetFold] = {}
        self.archive: dict[str, Archived] = {}
        self.seq = 0
        self.hash: str | None = None

    def target(self, name: str) -> TargetFold:
        """The fold of one target (empty when no record names it)."""
        found = self.targets.get(name)
        if found is None:
            found = self.targets[name] = TargetFold()
        return found

    # -- folding -----------------------------------------------------------------
    def apply(self, rec: Mapping[str, Any]) -> None:
        """Fold one record in (records must come in journal order)."""
        seq = rec.get("seq")
        if isinstance(seq, int):
            self.seq = seq
        digest = rec.get("hash")
        self.hash = digest if isinstance(digest, str) else self.hash
        if rec.get("result") == "noop":
            self._touched(rec.get("touched"), _number(rec.get("ts")))
        if rec.get("result") != "ok":
            return
        before, after = rec.get("before"), rec.get("after")
        if not isinstance(before, dict) or not isinstance(after, dict):
            return
        changes = rec.get("changes")
        changes = changes if isinstance(changes, dict) else {}
        ts = _number(rec.get("ts"))
        if rec.get("action") == "recovered":
            for name in after:
                self._recovered(name, rec, changes.get(name), ts)
            return
        origin = _str(rec.get("origin"))
        by = (actor_of(origin or "api"), clip(origin), clip(_str(rec.get("session"))))
        batch, start = _batch(rec)
        for name, state in after.items():
            t = self.target(str(name))
            change = changes.get(name)
            # Within a group commit, the records chain through texts no file held: each
            # one's undo keeps the one before, and all start from the batch's state.
            earlier = t.undo if batch is not None and t.batch == batch else None
            if isinstance(change, dict):
                self._commit(str(name), t, change, rec, ts, by)
                if t.undo is not None:
                    t.undo.then = earlier
            elif before.get(name) != state:
                t.partial = True  # a record from before records kept changes
                t.undo = None
            t.recorded = True
            t.started = _str(start.get(name, before.get(name)))
            t.state = _str(state)
            t.batch = batch

    def _commit(
        self,
        name: str,
        t: TargetFold,
        change: Mapping[str, Any],
        rec: Mapping[str, Any],
        ts: float | None,
        by: tuple[str, str | None, str | None],
    ) -> None:
        author = change.get("author")
        if isinstance(author, dict):
            actor = clip(_str(author.get("actor"))) or "unknown"
            by_author = (actor, clip(_str(author.get("origin"))), clip(_str(author.get("session"))))
        else:
            by_author = by
        self._seen(t, change.get("seen"), ts)
        undo = _Undo()
        prov_of: dict[str, Provenance] = {}
        for i, item in enumerate(_items(change.get("removed"))):
            key = item["key"]
            prov = t.live.pop(key, None) or Provenance(None, None, "unknown")
            text = item.get("text") if "text" in item else t.texts.get(key)
            t.texts.pop(key, None)
            replaced = _str(item.get("by"))
            if replaced:
                prov_of.setdefault(replaced, prov)
            aid = f"{self.seq}.{i}"
            self.archive[aid] = Archived(
                aid,
                name,
                key,
                _str(text),
                _str(item.get("reason")) or "removed",
                ts,
                by,
                prov,
                replaced,
            )
            undo.removed.append(aid)
        for aid in change.get("restored") or ():
            back = self.archive.pop(str(aid), None)
            if back is not None:
                undo.restored.append(back)
                prov_of.setdefault(back.key, back.provenance)  # keeps when it was created
        actor, origin, session = by_author
        until = _expiries(change.get("expires"))
        for item in _items(change.get("added")):
            key = item["key"]
            old = prov_of.get(key)
            created = old.created if old is not None and old.created is not None else ts
            seen = old.seen if old is not None and old.seen is not None else ts
            undo.added.append((key, t.live.get(key), t.texts.get(key)))
            t.live[key] = Provenance(
                created, ts, actor, origin, session, seen, expires=until.get(key)
            )
            t.texts[key] = _str(item.get("text"))
        written = {k for k, _, _ in undo.added}
        for key in _keys(change.get("confirmed")):
            known = t.live.get(key)
            if known is not None and key not in written:
                undo.added.append((key, known, t.texts.get(key)))
                t.live[key] = _confirm(known, key, ts, until)
        t.undo = undo

    def _touched(self, touched: object, ts: float | None) -> None:
        """A write that changed nothing confirmed entries (added again as they are,
        replaced by the same text), perhaps with a new expiry."""
        for _, t, key, prov, until in _confirmed(self, touched):
            t.live[key] = _confirm(prov, key, ts, until)

    def _seen(self, t: TargetFold, items: object, ts: float | None) -> None:
        for item in _items(items):
            if item["key"] not in t.live:
                t.live[item["key"]] = Provenance(None, None, "unknown", seen=ts)
                t.texts[item["key"]] = _str(item.get("text"))

    def _recovered(
        self, name: str, rec: Mapping[str, Any], change: object, ts: float | None
    ) -> None:
        t = self.target(name)
        after = rec.get("after")
        state = _str(after.get(name)) if isinstance(after, dict) else None
        cause = rec.get("cause")
        if cause == NOT_COMMITTED:
            if t.undo is not None:
                self._revert(t)
        elif cause == REPLAYED:
            pass  # the text a power cut lost, rebuilt as the last record left it
        elif isinstance(change, dict) and "found" in change:
            found = {i["key"]: _str(i.get("text")) for i in _items(change.get("found"))}
            for item in _dropped(self, name, t, found, cause, ts, f"{self.seq}."):
                self.archive[item.id] = item
            for key, text in found.items():
                if key not in t.live:
                    who = "unknown" if cause == "lost_record" else "hand"
                    when = ts if who == "hand" else None
                    t.live[key] = Provenance(when, when, who, seen=ts)
                    t.texts[key] = text
        elif isinstance(change, dict):
            self._seen(t, change.get("seen"), ts)
        elif t.recorded:
            t.partial = True  # recovered before records kept changes: entries unknown
        t.recorded = True
        t.undo = None
        t.batch = None
        t.started = t.state
        t.state = state

    def _revert(self, t: TargetFold) -> None:
        """Take back the last commit of ``t`` (a whole group commit: newest first)."""
        undo = t.undo
        assert undo is not None
        while undo is not None:
            for key, prov, text in undo.added:
                if prov is None:
                    t.live.pop(key, None)
                    t.texts.pop(key, None)
                else:
                    t.live[key], t.texts[key] = prov, text
            for aid in undo.removed:
                item = self.archive.pop(aid, None)
                if item is not None:
                    t.live[item.key] = item.provenance
                    t.texts[item.key] = item.text
            for item in undo.restored:
                self.archive[item.id] = item
            undo = undo.then
        t.undo = None
        t.batch = None

    # -- reading -----------------------------------------------------------------
    def view(
        self,
        name: str,
        raw: str | None,
        entries: Sequence[str],
        *,
        legacy: Mapping[str, Provenance] | None = None,
    ) -> TargetView:
        """The provenance of ``entries`` (the entries of the text ``raw`` found in the
        target now), and the corrections a change with no record implies."""
        t = self.targets.get(name)
        if t is None or not t.recorded:
            known = tuple((legacy or {}).get(entry_key(e), _UNKNOWN) for e in entries)
            return TargetView(known, (), ())
        live = t.live
        pending: tuple[Archived, ...] = ()
        voided: tuple[str, ...] = ()
        unvoided: tuple[Archived, ...] = ()
        digest = file_hash(raw)
        if digest != t.state:
            if t.undo is not None and digest == t.started:
                scratch = self._part(name)
                scratch._revert(scratch.targets[name])
                live = scratch.targets[name].live
                voided = tuple(aid for u in _chain(t.undo) for aid in u.removed)
                unvoided = tuple(item for u in _chain(t.undo) for item in u.restored)
            else:
                found = {entry_key(e): e for e in entries}
                pending = tuple(_dropped(self, name, t, found, "outside_edit", None, "pending."))
        out: list[Provenance] = []
        for e in entries:
            key = entry_key(e)
            prov = live.get(key)
            if prov is None:
                if legacy is not None and key in legacy:
                    prov = legacy[key]
                elif t.partial:
                    prov = _UNKNOWN
                else:
                    prov = _HAND
            out.append(prov)
        return TargetView(tuple(out), pending, voided, unvoided)

    def _part(self, name: str) -> Fold:
        """A fold holding only ``name`` and the archive items its undo names."""
        part = Fold()
        t = self.targets[name]
        part.targets[name] = TargetFold(
            dict(t.live), dict(t.texts), t.state, t.started, t.recorded, t.partial, t.undo
        )
        for undo in _chain(t.undo):
            for aid in undo.removed:
                if aid in self.archive:
                    part.archive[aid] = self.archive[aid]
        return part


_UNKNOWN = Provenance(None, None, "unknown")
_HAND = Provenance(None, None, "hand")


def _chain(undo: _Undo | None) -> list[_Undo]:
    """An undo and those of the earlier records of its group commit, newest first."""
    out = []
    while undo is not None:
        out.append(undo)
        undo = undo.then
    return out


def _batch(rec: Mapping[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """The group commit a record belongs to, and the states its one rename replaced."""
    batch = rec.get("batch")
    if not isinstance(batch, dict) or not isinstance(batch.get("id"), str):
        return None, {}
    start = batch.get("from")
    return batch["id"], start if isinstance(start, dict) else {}


def _dropped(
    fold: Fold,
    name: str,
    t: TargetFold,
    found: Mapping[str, str | None],
    cause: object,
    ts: float | None,
    prefix: str,
) -> list[Archived]:
    """Archive items for the live entries of ``t`` that the text ``found`` lacks (and,
    when recording, take them out of the live map)."""
    reason = "hand_edit" if cause in HAND_CAUSES else "unrecorded"
    by = ("hand", None, None) if reason == "hand_edit" else ("unknown", None, None)
    out = []
    recording = prefix != "pending."
    for i, key in enumerate([k for k in t.live if k not in found]):
        prov = t.live[key]
        text = t.texts.get(key)
        if recording:
            t.live.pop(key)
            t.texts.pop(key, None)
        aid = f"{prefix}{i}" if recording else f"{prefix}{name}.{key[:12]}"
        out.append(Archived(aid, name, key, text, reason, ts, by, prov))
    return out


def expiry_moves(
    fold: Fold, rec: Mapping[str, Any]
) -> list[tuple[str, str, str | None, float | None, float | None]]:
    """What the record ``rec``, to be folded next into ``fold``, does to expiries when it
    is a write that kept its text (``result: "noop"``): each confirmed entry whose
    expiry it moves, as ``(target, key, text, old, new)`` (``text``: ``None`` when
    forgotten or unknown; ``None`` expiry: none), old as ``fold`` has it. An entry the
    fold does not know is left out (its old expiry is unknown)."""
    if rec.get("result") != "noop":
        return []
    return [
        (name, key, t.texts.get(key), prov.expires, until[key])
        for name, t, key, prov, until in _confirmed(fold, rec.get("touched"))
        if key in until and until[key] != prov.expires
    ]


def _confirmed(
    fold: Fold, touched: object
) -> Iterator[tuple[str, TargetFold, str, Provenance, dict[str, float | None]]]:
    """Each live entry a record's ``touched`` confirms: ``(target, the fold's target,
    key, its provenance, the expiries the record gives)``; nothing when ``touched`` is
    not a mapping, and a target or key the fold does not hold is left out."""
    if not isinstance(touched, dict):
        return
    for name, what in touched.items():
        t = fold.targets.get(str(name))
        if t is None or not isinstance(what, dict):
            continue
        until = _expiries(what.get("expires"))
        for key in _keys(what.get("confirmed")):
            prov = t.live.get(key)
            if prov is not None:
                yield str(name), t, key, prov, until


def _confirm(
    prov: Provenance, key: str, ts: float | None, until: Mapping[str, float | None]
) -> Provenance:
    """``prov`` (of the entry ``key``) confirmed at ``ts``; an expiry ``until`` names
    for it replaces its own (``None``: cleared)."""
    return dataclasses.replace(prov, confirmed=ts, expires=until.get(key, prov.expires))


def _keys(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    return [k for k in value if isinstance(k, str)]


def _expiries(value: object) -> dict[str, float | None]:
    """A record's ``expires``: by key, when the entry stops being valid, or ``None``
    where it says ``null`` (no longer expires: ``Op.expires`` = ``NO_EXPIRY``). Records
    written before that value existed hold numbers only, and fold as they always did."""
    if not isinstance(value, dict):
        return {}
    out: dict[str, float | None] = {}
    for key, when in value.items():
        t = _number(when)
        if isinstance(key, str) and (t is not None or when is None):
            out[key] = t
    return out


def _items(value: object) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    return [i for i in value if isinstance(i, dict) and isinstance(i.get("key"), str)]


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
