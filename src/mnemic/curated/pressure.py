"""A full target: which entries to drop first, and the ``on_full`` policy that drops them.

:func:`candidates` ranks a target's entries for dropping, each with why:

1. **expired**: its ``expires`` date has passed (it leaves at the next session start
   anyway);
2. **duplicate of another**: its text (case, spacing and punctuation aside) is inside
   another entry, or the two share at least :data:`DUPLICATE_JACCARD` of their words and
   hold the same numbers (the older of the two is named): "service 19 listens on port
   8019" and "service 20 listens on port 8020" are two facts, however many words they
   share;
3. then **least used** (the sessions it mattered in, :mod:`mnemic.ops.entry_usage`; only
   said once any session was counted: zero uses before that is no evidence) and **oldest
   unconfirmed** (the last time it was written or confirmed: re-added, replaced by the
   same text, approved).

A refusal for the budget carries the best :data:`CANDIDATES` (:func:`add_candidates`), so
the model can free room in one call. ``[memory] on_full = "archive_oldest"`` or
``"archive_least_used"`` (``on_full_user`` for USER.md) turns the refusal into an
eviction inside the same write (:func:`evictor`): expired entries first, then the oldest
or the least used, down to :data:`EVICT_HEADROOM` of the budget below the limit so that the
next add does not evict again; never an entry the write itself adds or replaces. What is
evicted leaves with reason ``evicted`` (``expired``) in the write's own audit record:
the archive keeps it, crash-safe as any removal.

Expiry (``docs/lifecycle.md``, "Expiry"): :func:`parse_expires` reads the ``expires`` of
an add or replace; :func:`due` names the entries past it, which
:meth:`~mnemic.curated.memory.Memory.expire` moves to the archive at each snapshot.
"""

from __future__ import annotations

import datetime
import logging
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..control_chars import printable
from ..errors import BatchFailed, BudgetExceeded, InvalidArgument, MnemicError, ToolError
from .entries import char_count, entry_handle
from .operations import NO_EXPIRY
from .provenance import Provenance, entry_key
from .snapshot import display_entry
from .store import Evict
from .usage_log import EntryUse, UsageCounts, read_counts
from .view import MemoryView

__all__ = [
    "CANDIDATES",
    "DUPLICATE_JACCARD",
    "EVICT_HEADROOM",
    "Candidate",
    "add_candidates",
    "candidates",
    "describe_expires",
    "given_as",
    "due",
    "evictor",
    "parse_expires",
    "policy",
]

EVICT_HEADROOM = 0.1
"""An eviction frees room down to this share of the budget below the limit (a tenth:
220 chars of MEMORY.md's 2,200), so that the next add of a typical entry fits without
evicting again. When even evicting every other entry cannot make that room, it evicts
only what the write needs to fit."""
CANDIDATES = 5
"""Candidates a refusal lists."""
DUPLICATE_JACCARD = 0.8
"""Share of words two entries (of three words or more) hold in common to be duplicates."""
_UNKNOWN = Provenance(None, None, "unknown")
log = logging.getLogger(__name__)
_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Candidate:
    """An entry worth dropping, and why."""

    entry: str
    """The raw text (never shown as is: :meth:`as_dict` sanitises it)."""
    reasons: tuple[str, ...]
    expired: bool
    duplicate_of: str | None
    """The handle of the entry it duplicates."""
    duplicate_text: str | None
    """The raw text of that entry (a person does not know which entry a bare handle
    names: ``memory show`` and the console list none)."""
    use: EntryUse | None
    """``None``: no session was counted yet."""
    confirmed: float | None
    """When it was last written or confirmed (``None``: unknown)."""

    def as_dict(self, target: str, level: str | None = None) -> dict[str, Any]:
        """The JSON form a refusal carries (a blocked entry as its placeholder)."""
        return {
            "handle": entry_handle(self.entry),
            "entry": display_entry(target, self.entry, level)[0],
            "chars": len(self.entry),
            "reasons": list(self.reasons),
            "uses": None if self.use is None else self.use.uses,
            "last_used": _utc(self.use.last_used) if self.use is not None else None,
            "last_confirmed": _utc(self.confirmed),
            "expired": self.expired,
            "duplicate_of": self.duplicate_of,
            "duplicate_of_entry": None
            if self.duplicate_text is None
            else display_entry(target, self.duplicate_text, level)[0],
        }


def policy(view: MemoryView, target: str) -> str:
    """The ``on_full`` policy of ``target``: ``refuse``, ``archive_oldest`` or
    ``archive_least_used``."""
    memory = view.settings.memory
    return memory.on_full_user if target == "user" else memory.on_full


def _utc(t: float | None) -> str | None:
    from ..timefmt import utc_minute  # only a refusal's candidates need it

    return None if t is None else utc_minute(t)


def _norm(text: str) -> str:
    return " ".join(w.casefold() for w in _WORD.findall(text))


def _provenance(view: MemoryView, target: str, entries: Sequence[str]) -> list[Provenance]:
    """What the journal's fold knows of ``entries`` (unknown where it knows nothing).
    Nothing is written: the evictor runs under the write lock."""
    fold = view.fold(write_back=False)
    live = fold.targets[target].live if fold is not None and target in fold.targets else {}
    return [live.get(entry_key(e), _UNKNOWN) for e in entries]


def _duplicates(entries: Sequence[str], provs: Sequence[Provenance]) -> dict[int, int]:
    """Index of an entry -> index of the entry it duplicates (the older of a pair goes)."""
    norms = [_norm(e) for e in entries]
    words = [set(n.split()) for n in norms]
    numbers = [{w for w in ws if any(c.isdigit() for c in w)} for ws in words]
    out: dict[int, int] = {}
    for i in range(len(entries)):
        for j in range(len(entries)):
            if i == j or i in out or not norms[i]:
                continue
            inside = norms[i] in norms[j] and (norms[i] != norms[j] or i < j)
            similar = False
            if min(len(words[i]), len(words[j])) >= 3 and numbers[i] == numbers[j]:
                jac = len(words[i] & words[j]) / len(words[i] | words[j])
                older = (provs[i].last_confirmed or 0.0) <= (provs[j].last_confirmed or 0.0)
                similar = jac >= DUPLICATE_JACCARD and older and j not in out
            if inside or similar:
                out[i] = j
    return out


def _age(ts: float, now: float) -> str:
    """How long before ``now`` ``ts`` was, in words that need no zone: the days of
    :func:`~mnemic.timefmt.ago` (``12 days ago``), and under a day the hours and minutes
    (``4 hours 50 minutes ago``, ``12 minutes ago``, ``under a minute ago``) where ``ago``
    says ``today``: a store filled in one day had every candidate "last written or
    confirmed today", with nothing to choose by (docs/first-week.md, row 92)."""
    from ..timefmt import ago, in_calendar  # only a full target ranks: not at every start-up

    gap = now - ts
    if not (in_calendar(ts) and in_calendar(now)) or not 0 <= gap < 86_400:
        return ago(ts, now)
    hours, minutes = int(gap // 3600), int(gap % 3600 // 60)
    parts = [
        f"{n} {unit}{'s' if n != 1 else ''}"
        for n, unit in ((hours, "hour"), (minutes, "minute"))
        if n
    ]
    return f"{' '.join(parts)} ago" if parts else "under a minute ago"


def _rank(
    view: MemoryView,
    target: str,
    entries: Sequence[str],
    *,
    now: float,
    counts: UsageCounts,
    by_use: bool,
) -> list[Candidate]:
    """Every entry of ``entries`` as a candidate, best dropped first."""
    provs = _provenance(view, target, entries)
    dups = _duplicates(entries, provs)
    counted = counts.counted
    oldest = min((p.last_confirmed for p in provs if p.last_confirmed is not None), default=None)
    out: list[tuple[tuple[Any, ...], Candidate]] = []
    for i, (entry, prov) in enumerate(zip(entries, provs, strict=True)):
        expired = prov.expires is not None and prov.expires <= now
        use = counts.of(entry_key(entry)) if counted else None
        reasons = []
        if prov.expires is not None and expired:
            reasons.append(f"expired {_age(prov.expires, now)}")
        dup_text = entries[dups[i]] if i in dups else None
        dup = entry_handle(dup_text) if dup_text is not None else None
        if dup is not None:
            reasons.append(f"duplicate of {dup}")
        if use is not None:
            if use.uses == 0:
                reasons.append("never mattered in a counted session")
            else:
                last = f", last {_age(use.last_used, now)}" if use.last_used is not None else ""
                reasons.append(f"least used: mattered in {use.uses} session(s){last}")
        confirmed = prov.last_confirmed
        if confirmed is None:
            reasons.append("never confirmed (its age is unknown)")
        else:
            label = "oldest unconfirmed" if confirmed == oldest else "unconfirmed"
            reasons.append(f"{label}: last written or confirmed {_age(confirmed, now)}")
        uses = use.uses if use is not None else 0
        age = confirmed if confirmed is not None else -math.inf
        order = (uses, age) if by_use else (age, uses)
        key = (0 if expired else 1, 0 if dup is not None else 1, *order, i)
        out.append((key, Candidate(entry, tuple(reasons), expired, dup, dup_text, use, confirmed)))
    out.sort(key=lambda pair: pair[0])
    return [c for _, c in out]


def candidates(
    view: MemoryView,
    target: str,
    entries: Sequence[str] | None = None,
    *,
    limit: int = CANDIDATES,
    now: float | None = None,
) -> list[Candidate]:
    """The entries of ``target`` (or ``entries``, its entries as read) best dropped
    first, at most ``limit`` (see the module docstring)."""
    live = list(entries) if entries is not None else view.entries(target)
    counts = read_counts(view.root)
    when = view.now() if now is None else now
    by_use = policy(view, target) != "archive_oldest"
    return _rank(view, target, live, now=when, counts=counts, by_use=by_use)[:limit]


def add_candidates(view: MemoryView, exc: ToolError) -> None:
    """Name the best candidates in a refusal for the budget (``exc``, or the cause of a
    failed batch); a refusal that is not about the budget, or one whose entry can never
    fit, is left as it is. Reading them must not fail the refusal: any error leaves it
    without candidates."""
    cause = exc.cause if isinstance(exc, BatchFailed) else exc
    if not isinstance(cause, BudgetExceeded) or cause.entry_chars is not None:
        return
    try:
        found = candidates(view, cause.target)
    except Exception:  # a refusal is being reported: it must reach the model as it is
        return
    cause.with_candidates([c.as_dict(cause.target, view.level) for c in found])
    if cause is not exc:
        exc.extra["candidates"] = cause.extra.get("candidates", [])


NEVER_WORDS = ("never", "none")
"""What ``expires`` takes for "does not expire" (:data:`~.operations.NO_EXPIRY`)."""


def parse_expires(value: str, now: float, field: str = "expires") -> float:
    """When an entry given ``expires=value`` stops being valid (Unix seconds): a date
    ``YYYY-MM-DD`` is valid through that day (UTC), so it expires at the next midnight
    UTC; a time ``YYYY-MM-DDTHH:MM[:SS]`` (UTC, or with ``Z`` / ``+HH:MM``) expires then;
    ``never`` (or ``none``) is :data:`~.operations.NO_EXPIRY`, which clears an entry's
    expiry. :class:`~mnemic.errors.InvalidArgument` for anything else, or a time not
    after ``now``."""
    text = value.strip()
    if text.lower() in NEVER_WORDS:
        return NO_EXPIRY
    try:
        day = _iso_day(text)
        if day is not None:  # a date in any ISO form (20301231 too): valid through it
            if day == datetime.date.max:  # valid through it: its end is past the calendar
                raise InvalidArgument(
                    field,
                    f"{field} {text} is the calendar's last day, which has no end to expire "
                    f"at. Give an earlier date, or leave {field} out for a fact that does not "
                    "expire.",
                )
            start = datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.UTC)
            when = (start + datetime.timedelta(days=1)).timestamp()
        else:
            moment = datetime.datetime.fromisoformat(text.replace("z", "Z"))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=datetime.UTC)
            when = moment.timestamp()
            if when >= _CALENDAR_END:
                raise InvalidArgument(
                    field,
                    f"{field} {printable(text[:40], lines=False)!r} is past the calendar's "
                    "last day (9999-12-31 UTC). Give an earlier time, or leave "
                    f"{field} out for a fact that does not expire.",
                )
    except (ValueError, OverflowError):
        raise InvalidArgument(
            field,
            f"{field} must be a date YYYY-MM-DD (valid through that day, UTC; YYYYMMDD the "
            "same), a time YYYY-MM-DDTHH:MM (UTC; or with its zone, YYYY-MM-DDTHH:MMZ or "
            "YYYY-MM-DDTHH:MM+05:30) or never (no expiry); words for a day to come "
            f"(tomorrow, in 3 days) are not read: got {printable(value[:40], lines=False)!r}.",
        ) from None
    if when <= now:
        raise InvalidArgument(
            field, f"{field} {text[:40]!r} is not in the future: leave the fact out instead."
        )
    return when


_CALENDAR_END = datetime.datetime.max.replace(tzinfo=datetime.UTC).timestamp()
"""The last instant a ``datetime`` holds (9999-12-31 23:59:59.999999 UTC): an expiry at
or after it could not be shown (year 10000)."""


def _iso_day(text: str) -> datetime.date | None:
    """The day ``text`` names when it is a date alone in an ISO 8601 form
    (``2030-12-31``, ``20301231``, ``2030-W01-1``), else ``None``. Every form of a day
    means the same: valid through it (``20301231`` once read as a time expired at that
    day's first instant, a day before ``2030-12-31``)."""
    if "T" in text.upper() or ":" in text or " " in text:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


def given_as(when: float) -> str | None:
    """An expiry in the terms :func:`parse_expires` took it in (UTC): the date
    ``YYYY-MM-DD`` it is valid through, when it falls at a midnight (a date expires at
    the next midnight: that instant reads as the date given, not as the day after), else
    the time ``YYYY-MM-DDTHH:MM``; ``None`` past 9999 (kept before it was refused). The
    one place the midnight rule is read back: :func:`describe_expires` and the console's
    "Valid until" field (:func:`mnemic.ui.memory.until_input`)."""
    try:
        moment = datetime.datetime.fromtimestamp(when, datetime.UTC)
    except (ValueError, OverflowError, OSError):
        return None
    if moment.time() == datetime.time(0):
        return (moment - datetime.timedelta(days=1)).date().isoformat()
    return f"{moment:%Y-%m-%dT%H:%M}"


def describe_expires(when: float, now: float | None = None) -> str:
    """An entry's expiry for a person, in the terms it was given in (:func:`given_as`):
    a date reads "valid through" it; any other time reads as itself. Past ``now``, it
    says the entry is on its way out (it leaves at a session start or ``mnemic gc``)."""
    given = given_as(when)
    if given is None:
        return "expires after 9999-12-31 UTC"
    if "T" not in given:
        text = f"valid through {given} UTC"
    else:
        text = f"expires {given.replace('T', ' ')} UTC"
    if now is not None and when <= now:
        text += " (expired: it moves to the archive at the next session start or `mnemic gc`)"
    return text


def due(view: MemoryView, now: float) -> dict[str, list[str]]:
    """The live entries of each target whose ``expires`` time is ``now`` or before (from
    the journal's fold; none when it cannot be read). Cheap when nothing expires: one
    look at the fold, no target read, nothing written (it runs at every snapshot)."""
    fold = view.fold(write_back=False)
    if fold is None:
        return {}
    out: dict[str, list[str]] = {}
    for target, t in fold.targets.items():
        keys = {k for k, p in t.live.items() if p.expires is not None and p.expires <= now}
        if not keys:
            continue
        try:
            entries = view.entries(target)
        except MnemicError as exc:
            log.warning("expired entries of %s not read: %s", target, exc)
            continue
        found = [e for e in entries if entry_key(e) in keys]
        if found:
            out[target] = found
    return out


def evictor(view: MemoryView) -> Evict | None:
    """The ``on_full`` policy as the store applies it (``None`` when both targets
    refuse): entries to move out of a target that would overflow, best first."""
    if policy(view, "memory") == "refuse" and policy(view, "user") == "refuse":
        return None

    def evict(
        target: str, entries: Sequence[str], protected: frozenset[str], limit: int
    ) -> Mapping[str, str]:
        which = policy(view, target)
        if which == "refuse":
            return {}
        counts = read_counts(view.root)
        ranked = _rank(
            view,
            target,
            entries,
            now=view.now(),
            counts=counts,
            by_use=which == "archive_least_used",
        )
        order = [c for c in ranked if c.entry not in protected]
        goal = limit - math.ceil(limit * EVICT_HEADROOM)
        chosen = _prefix(entries, order, goal)
        if chosen is None:
            chosen = _prefix(entries, order, limit)
        if chosen is None:
            return {}
        return {c.entry: "expired" if c.expired else "evicted" for c in chosen}

    return evict


def _prefix(
    entries: Sequence[str], order: Sequence[Candidate], room: int
) -> list[Candidate] | None:
    """The fewest of ``order``, taken in order, whose removal brings ``entries`` to
    ``room`` chars or less (``None``: even all of them do not)."""
    left = list(entries)
    taken: list[Candidate] = []
    for c in order:
        if char_count(left) <= room:
            return taken
        left.remove(c.entry)
        taken.append(c)
    return taken if char_count(left) <= room else None
