"""Entry provenance: when each entry of MEMORY.md / USER.md was written, and by whom.

The targets stay plain ``§``-delimited text. Provenance is folded from the audit
journal (:mod:`.fold`): each commit's record names the entries it added and removed, by
a hash of their text (:func:`entry_key`), and who wrote them. Matching by content means
a hand edit keeps the provenance of every entry it left alone; an entry no record
explains is ``hand`` (edited outside mnemic; dated from the record that first saw it,
:mod:`.recovery`), or ``unknown`` when it was there before any record.

This module holds the values (:class:`Provenance`, :class:`Stamp`) and reads the
per-target ledger that earlier versions kept beside each file (:func:`decode`): a home
upgraded from them still shows what those ledgers knew, for the entries the journal
does not explain. Nothing here is read by
:func:`mnemic.curated.snapshot.render_snapshot` or enters the system prompt.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..control_chars import printable
from ..errors import StorageError
from ..governance.chain import text_key
from .backend import MAX_LEDGER_BYTES, CuratedBackend

__all__ = [
    "ACTOR_LABELS",
    "API",
    "MAX_LEDGER_BYTES",
    "Ledger",
    "Provenance",
    "Stamp",
    "actor_of",
    "brief",
    "clip",
    "decode",
    "entry_key",
    "legacy",
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
    """The actor label of an origin: ``agent`` → ``model``, ``mcp:<client>`` → ``mcp``,
    ``import:<agent> <source>`` → ``import:<agent>``..."""
    if origin == "mcp" or origin.startswith("mcp:"):
        return "mcp"
    if origin.startswith("import:"):  # "import:<agent> <file>:<line>": the file is the origin's
        return origin.split(" ", 1)[0][:_MAX_TEXT]
    return ACTOR_LABELS.get(origin, origin[:_MAX_TEXT] or "api")


entry_key = text_key
"""The key of an entry: the SHA-256 of its text (hex, 32 digits)."""


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
    confirmed: float | None = None
    """When it was last confirmed without being rewritten: added again as it is, replaced
    by the same text, or such a write approved (``None``: never since it was written)."""
    expires: float | None = None
    """When it stops being valid (the ``expires`` of the write that made or confirmed
    it); ``None``: it does not expire."""

    @property
    def last_touched(self) -> float | None:
        """The time staleness is counted from: the last write, else the first sighting."""
        return self.updated if self.updated is not None else self.seen

    @property
    def last_confirmed(self) -> float | None:
        """When it was last written or confirmed (else first seen; ``None``: unknown)."""
        times = [t for t in (self.updated, self.confirmed) if t is not None]
        return max(times) if times else self.seen

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form (the stored form too)."""
        return {
            "created": self.created,
            "updated": self.updated,
            "actor": self.actor,
            "origin": self.origin,
            "session_id": self.session_id,
            "seen": self.seen,
            "confirmed": self.confirmed,
            "expires": self.expires,
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


def clip(value: str | None) -> str | None:
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


def brief(p: Provenance) -> dict[str, str]:
    """A compact form for a model (UTC times to the minute; unknown fields left out)."""
    out: dict[str, str] = {}
    for key, value in (("created", p.created), ("updated", p.updated)):
        if value is not None:
            out[key] = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(value))
    out["by"] = p.actor
    if p.session_id:
        out["session"] = p.session_id
    if p.confirmed is not None:
        out["confirmed"] = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(p.confirmed))
    if p.expires is not None:
        out["expires"] = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(p.expires))
    return out


def legacy(backend: CuratedBackend, target: str) -> dict[str, Provenance]:
    """What the ledger an earlier version kept beside ``target`` knew, by entry key
    (empty when there is none, or it cannot be read or trusted: logged)."""
    try:
        ledger = decode(backend.read_provenance(target), target)
    except StorageError as exc:
        log.warning("provenance of %s ignored: %s", target, exc)
        return {}
    return dict(ledger.entries) if ledger is not None else {}
