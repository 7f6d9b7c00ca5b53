"""Entry provenance: when each entry of MEMORY.md / USER.md was written, and by whom.

The targets stay plain ``§``-delimited text; provenance is kept beside them by the
backend (a private sidecar file per target, a table in PostgreSQL) as a *ledger*: one
:class:`Provenance` per entry, keyed by a hash of the entry's text. Matching by content
means a hand edit keeps the provenance of every entry it left alone; an entry mnemic has
never recorded is marked ``hand`` (edited outside mnemic) from the first time mnemic sees
it under the target's lock.

The ledger is written under the target lock, in the same transaction as the text, just
before the text is committed. It is advisory: a failure to read or write it is logged and
never fails or blocks a memory write, and a missing or unreadable ledger makes every
entry read as ``unknown``. So that a crash between the ledger and the text loses
nothing, the ledger also remembers the entries the write dropped, with the hash of the
text before the write: when the file is still that text, they are used again.

Nothing here is read by :func:`mnemic.curated.snapshot.render_snapshot` or enters the
system prompt.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..control_chars import printable
from ..errors import MnemicError, StorageError
from .backend import MAX_LEDGER_BYTES, CuratedBackend, CuratedTxn
from .entries import parse
from .operations import OpResult

__all__ = [
    "ACTOR_LABELS",
    "MAX_LEDGER_BYTES",
    "Ledger",
    "Provenance",
    "Stamp",
    "actor_of",
    "advance",
    "annotate",
    "brief",
    "decode",
    "encode",
    "entry_key",
    "inspect",
    "record",
    "resolve",
    "stale",
]

log = logging.getLogger(__name__)

ACTOR_LABELS = {
    "agent": "model",
    "flush": "flush",
    "review": "review",
    "background_review": "review",
    "background": "review",
    "cli": "cli",
    "ui": "ui",
    "import": "import",
    "api": "api",
    "adopt": "hand",
    "hand": "hand",
}
"""The actor recorded for a write, by the origin of the session that made it (``mcp``
and ``mcp:<client>`` record ``mcp``; any other origin is recorded as it is)."""

_MAX_TEXT = 200


def actor_of(origin: str) -> str:
    """The actor label of an origin: ``agent`` → ``model``, ``mcp:<client>`` → ``mcp``..."""
    if origin == "mcp" or origin.startswith("mcp:"):
        return "mcp"
    return ACTOR_LABELS.get(origin, origin[:_MAX_TEXT] or "api")


@functools.lru_cache(maxsize=1024)
def entry_key(entry: str) -> str:
    """The ledger key of an entry: the SHA-256 of its text (hex, 32 digits).

    Memoised: a write looks up every entry of the target two or three times, and the
    same entries again at the next write."""
    return hashlib.sha256(entry.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _digest(text: str | None) -> str | None:
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class Stamp:
    """Who is writing now: the actor label, the session's origin and its id."""

    actor: str
    origin: str
    session_id: str | None = None

    @classmethod
    def of(cls, origin: str, session_id: str | None = None) -> Stamp:
        """The stamp of a session with this origin (see :func:`actor_of`)."""
        return cls(actor_of(origin), origin[:_MAX_TEXT], (session_id or None))


API = Stamp("api", "api", None)


@dataclass(frozen=True, slots=True)
class Provenance:
    """What is known of one entry. Times are Unix seconds; ``None`` means unknown."""

    created: float | None
    """When the entry was first written (a replace keeps it)."""
    updated: float | None
    """When it was last written (added, or replaced into its current text)."""
    actor: str
    """Who last wrote it: ``model`` (the memory tool in an agent turn), ``flush``,
    ``review``, ``mcp``, ``cli``, ``ui``, ``import``, ``api``, ``hand`` (edited outside
    mnemic), or ``unknown`` (no provenance was kept for it)."""
    origin: str | None = None
    """The origin of the writing session (``mcp:<client>``, ``edit``, ``restore``...)."""
    session_id: str | None = None
    seen: float | None = None
    """When mnemic first recorded this entry (for ``hand`` and ``unknown`` entries, the
    only time known)."""

    @property
    def last_touched(self) -> float | None:
        """The time staleness is counted from: the last write, else the first sighting."""
        return self.updated if self.updated is not None else self.seen

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form (the stored form too)."""
        return {
            "created": self.created,
            "updated": self.updated,
            "actor": self.actor,
            "origin": self.origin,
            "session_id": self.session_id,
            "seen": self.seen,
        }


UNKNOWN = Provenance(None, None, "unknown")


@dataclass(frozen=True, slots=True)
class Ledger:
    """The stored provenance of one target."""

    text: str | None
    """SHA-256 of the target text the ledger describes (after the write that made it)."""
    entries: Mapping[str, Provenance]
    """By :func:`entry_key`, the entries of that text."""
    before: str | None = None
    """SHA-256 of the text before that write."""
    dropped: Mapping[str, Provenance] | None = None
    """Entries of the text before the write that it removed (used again only when the
    target is still that text: the write did not commit)."""


def encode(ledger: Ledger) -> str:
    """The stored form of a ledger: compact JSON, keys sorted at every level.

    Built from each record's JSON, memoised: a write re-encodes every entry of the
    target, and all but the one or two it touched are the same records as last time."""
    return (
        f'{{"before":{_json_str(ledger.before)},"dropped":{_records_json(ledger.dropped or {})},'
        f'"entries":{_records_json(ledger.entries)},"text":{_json_str(ledger.text)},'
        '"version":1}'
    )


def _json_str(value: str | None) -> str:
    return "null" if value is None else json.dumps(value)


def _records_json(records: Mapping[str, Provenance]) -> str:
    parts = []
    for key in sorted(records):
        parts.append(f"{json.dumps(key)}:{_record_json(records[key])}")
    return "{" + ",".join(parts) + "}"


_ENCODED: dict[Provenance, str] = {}
_ENCODED_MAX = 4096


def _record_json(p: Provenance) -> str:
    text = _ENCODED.get(p)
    if text is None:
        text = json.dumps(p.as_dict(), separators=(",", ":"), sort_keys=True)
        if len(_ENCODED) >= _ENCODED_MAX:
            _ENCODED.clear()
        _ENCODED[p] = text
    return text


class _Damaged(ValueError):
    pass


def _time(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Damaged(f"a time is {type(value).__name__}, not a number")
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise _Damaged(f"a time is {value!r}")
    return value


def _clip(value: str | None) -> str | None:
    """A text field as stored: at most ``_MAX_TEXT`` chars, on one line, control characters
    and lone surrogates as U+FFFD (see :func:`~mnemic.control_chars.printable`: the CLI and
    the console print these fields), an empty one as ``None``."""
    return printable(value[:_MAX_TEXT], lines=False) or None if value is not None else None


def _text(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > _MAX_TEXT:
        raise _Damaged("a text field is not a short string")
    return printable(value, lines=False) or None  # a hand edit may hold escapes


def _records(value: object) -> dict[str, Provenance]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _Damaged("the records are not an object")
    out: dict[str, Provenance] = {}
    for key, rec in value.items():
        if not isinstance(key, str) or len(key) != 32 or not isinstance(rec, dict):
            raise _Damaged("a record is not a 32-digit key with an object")
        out[key] = Provenance(
            _time(rec.get("created")),
            _time(rec.get("updated")),
            _text(rec.get("actor")) or "unknown",
            _text(rec.get("origin")),
            _text(rec.get("session_id")),
            _time(rec.get("seen")),
        )
    return out


def decode(raw: str | None, where: str) -> Ledger | None:
    """A stored ledger, or ``None`` when there is none or it cannot be trusted.

    Anything that is not exactly the stored form (not JSON, another version, a record
    with a field of the wrong kind, too large) is ignored as a whole, with a warning:
    its entries then read as ``unknown``, and the next write starts a new ledger.
    """
    if raw is None:
        return None
    if len(raw) > MAX_LEDGER_BYTES:
        log.warning("provenance of %s ignored: %d chars is too large", where, len(raw))
        return None
    try:
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("version") != 1:
            raise _Damaged("not a version-1 provenance record")
        text, before = data.get("text"), data.get("before")
        if not isinstance(text, str | None) or not isinstance(before, str | None):
            raise _Damaged("a text hash is not a string")
        return Ledger(text, _records(data.get("entries")), before, _records(data.get("dropped")))
    except (ValueError, RecursionError) as exc:  # _Damaged is a ValueError, as is bad JSON
        reason = exc if isinstance(exc, _Damaged) else "it is not valid JSON"
        log.warning("provenance of %s ignored: %s", where, reason)
        return None


def resolve(
    ledger: Ledger | None, raw: str | None, entries: Sequence[str], now: float | None
) -> list[Provenance]:
    """The provenance of each of ``entries`` (the entries of the text ``raw``).

    An entry the ledger does not know is ``hand`` (changed outside mnemic) when there is
    a ledger, ``unknown`` when there is none; ``now`` is recorded as when it was first
    seen (``None``: a read that records nothing, the time stays unknown).
    """
    known: dict[str, Provenance] = {}
    if ledger is not None:
        known.update(ledger.entries)
        if ledger.dropped and ledger.before is not None and _digest(raw) == ledger.before:
            # the write that made this ledger did not commit: its dropped entries are live
            for key, was in ledger.dropped.items():
                known.setdefault(key, was)
    out: list[Provenance] = []
    for entry in entries:
        found = known.get(entry_key(entry))
        if found is None:
            if ledger is None:
                found = Provenance(None, None, "unknown", seen=now)
            else:
                found = Provenance(now, now, "hand", seen=now)
        out.append(found)
    return out


def advance(
    ledger: Ledger | None,
    raw_before: str | None,
    before: Sequence[str],
    after: Sequence[str],
    after_text: str | None,
    stamp: Stamp,
    now: float,
    results: Iterable[OpResult] = (),
) -> Ledger:
    """The ledger after a write from ``before`` to ``after`` by ``stamp`` at ``now``.

    ``results`` (the store's operations, in order) say which entry a replace turned into
    which, so the new text keeps the created time of the old one. Entries of ``after``
    not produced by an operation and not in ``before`` (a whole-text write: edit, adopt,
    restore) are new, written by ``stamp``.

    What the write drops (entries of ``before`` that ``after`` lacks: the ones it replaced
    or removed) is kept with the records ``before`` had, so that if the text is never
    renamed into place (a crash between the ledger and the text) every entry reads as it
    did before the write.
    """
    was = dict(zip(before, resolve(ledger, raw_before, before, now), strict=True))
    recs = dict(was)
    # Stored as a reader will decode them: at most _MAX_TEXT chars, "" as None (a longer
    # session id once made every later read reject the whole ledger).
    actor, origin, session = (
        _clip(stamp.actor) or "unknown",
        _clip(stamp.origin),
        _clip(stamp.session_id),
    )
    fresh = Provenance(now, now, actor, origin, session, now)
    for r in results:
        if r.status == "added" and r.entry is not None:
            recs[r.entry] = fresh
        elif r.status == "replaced" and r.entry is not None:
            old = recs.pop(r.previous, None) if r.previous is not None else None
            created = old.created if old is not None and old.created is not None else now
            seen = old.seen if old is not None and old.seen is not None else now
            recs[r.entry] = Provenance(created, now, actor, origin, session, seen)
        elif r.status == "removed" and r.previous is not None:
            recs.pop(r.previous, None)
    entries = {entry_key(e): recs.get(e, fresh) for e in after}
    dropped = {entry_key(e): was[e] for e in before if entry_key(e) not in entries}
    return Ledger(_digest(after_text), entries, _digest(raw_before), dropped)


def record(
    txn: CuratedTxn,
    target: str,
    raw_before: str | None,
    before: Sequence[str],
    after: Sequence[str],
    after_text: str | None,
    stamp: Stamp,
    now: float | None = None,
    results: Iterable[OpResult] = (),
) -> None:
    """Write the ledger of ``target`` for a write about to commit in ``txn`` (under its
    lock). Advisory: any failure is logged and swallowed, the write goes on."""
    try:
        try:
            raw = txn.read_provenance(target)
            ledger = _DECODED.get(raw) if raw is not None else None
            if ledger is None:
                ledger = decode(raw, target)
        except StorageError as exc:  # a FIFO, a symlink, too large...: start afresh
            log.warning("provenance of %s ignored and rewritten: %s", target, exc)
            ledger = None
        new = advance(
            ledger,
            raw_before,
            before,
            after,
            after_text,
            stamp,
            time.time() if now is None else now,
            results,
        )
        text = encode(new)
        txn.write_provenance(target, text)
        _remember(text, new)
    except (MnemicError, OSError, ValueError) as exc:
        log.warning("provenance of %s not recorded: %s", target, exc)


_DECODED: dict[str, Ledger] = {}
"""Ledger texts this process wrote, with the ledgers they encode (equal to what
:func:`decode` makes of them: :func:`advance` stores fields as a reader decodes them):
the next write of the target usually reads its own last text back and skips decoding
it. Keyed by the text, so it holds whatever home it came from."""
_DECODED_MAX = 8
_DECODED_GUARD = threading.Lock()


def _remember(text: str, ledger: Ledger) -> None:
    with _DECODED_GUARD:  # writers on several threads of one process share it
        while len(_DECODED) >= _DECODED_MAX:
            _DECODED.pop(next(iter(_DECODED)), None)
        _DECODED[text] = ledger


def stale(
    entries: Sequence[str],
    provenance: Sequence[Provenance],
    *,
    days: float,
    now: float,
) -> list[tuple[int, str, Provenance]]:
    """``(index, entry, provenance)`` of the entries untouched for ``days`` or more,
    oldest first. Entries whose times are all unknown are not listed."""
    cutoff = now - days * 86400.0
    out = [
        (i, e, p)
        for i, (e, p) in enumerate(zip(entries, provenance, strict=True))
        if p.last_touched is not None and p.last_touched <= cutoff
    ]
    out.sort(key=lambda item: item[2].last_touched or 0.0)
    return out


def inspect(
    backend: CuratedBackend,
    target: str,
    *,
    now: float,
    record: bool = False,
    lock_timeout: float = 1.0,
) -> list[tuple[str, Provenance]]:
    """The live entries of ``target`` with their provenance.

    With ``record``, entries seen for the first time (edited by hand, or kept before any
    ledger existed) are written to the ledger with ``now`` as when they were first seen,
    under the target's lock (waited for at most ``lock_timeout``); when the lock or the
    write is not possible, this reads like a plain look. A plain look takes no lock and
    writes nothing (times of entries never recorded stay unknown). Raises only when the
    target itself cannot be read.
    """
    if record:
        try:
            with backend.transaction([target], lock_timeout) as txn:
                raw = txn.read(target)
                entries = parse(raw) if raw is not None else []
                try:
                    ledger = decode(txn.read_provenance(target), target)
                except StorageError as exc:
                    log.warning("provenance of %s ignored: %s", target, exc)
                    ledger = None
                provs = resolve(ledger, raw, entries, now)
                digest = _digest(raw)
                if (
                    ledger is None
                    or ledger.text != digest
                    or any(entry_key(e) not in ledger.entries for e in entries)
                ):
                    new = advance(ledger, raw, entries, entries, raw, API, now)
                    try:
                        txn.write_provenance(target, encode(new))
                    except (MnemicError, OSError) as exc:
                        log.warning("provenance of %s not recorded: %s", target, exc)
                return list(zip(entries, provs, strict=True))
        except MnemicError as exc:  # busy, read-only, unreadable: a plain look says more
            log.info("provenance of %s read without recording: %s", target, exc)
    raw = backend.read(target)
    entries = parse(raw) if raw is not None else []
    return list(zip(entries, annotate(backend, target, raw, entries), strict=True))


def annotate(
    backend: CuratedBackend, target: str, raw: str | None, entries: Sequence[str]
) -> list[Provenance]:
    """The provenance of ``entries`` (parsed from ``raw``, the text just read), from the
    stored ledger read now without a lock; an unusable ledger is logged and ignored."""
    try:
        ledger = decode(backend.read_provenance(target), target)
    except StorageError as exc:
        log.warning("provenance of %s ignored: %s", target, exc)
        ledger = None
    return resolve(ledger, raw, entries, None)


def brief(p: Provenance) -> dict[str, str]:
    """A compact form for a model (UTC times to the minute; unknown fields left out)."""
    out: dict[str, str] = {}
    for key, value in (("created", p.created), ("updated", p.updated)):
        if value is not None:
            out[key] = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(value))
    out["by"] = p.actor
    if p.session_id:
        out["session"] = p.session_id
    return out
