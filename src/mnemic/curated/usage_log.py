"""How often each entry mattered in a session: a small sidecar cache of the home.

:mod:`mnemic.ops.entry_usage` counts it when a session ends or is imported (the signal is
defined there and in ``docs/lifecycle.md``, "Usage"); this module keeps the counts in
``<home>/cache/entry-usage.json``, by entry key (the SHA-256 of the text: no text is
kept), with what was counted of each session.

The file is derived data. It is written under its own lock (``entry-usage.lock``), never
under a target's write lock and never as part of a write's record; a count that cannot be
written is logged and the counts stay as they were (best-effort). It is rebuildable:
delete it, and the next count reads every session in the store again. Readers (the
eviction candidates, ``mnemic memory show --long``, the console) only read it, and read a
missing or damaged file as "nothing counted yet".
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import MnemicError
from ..fsio import SidecarLock, atomic_write_text, ensure_private_dir, read_text_strict

__all__ = [
    "EntryUse",
    "UsageCounts",
    "describe_use",
    "read_counts",
    "update_counts",
    "usage_path",
]

log = logging.getLogger(__name__)

VERSION = 1
MAX_BYTES = 64 << 20
LOCK_TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class EntryUse:
    """How often an entry mattered: in how many sessions, and when last."""

    uses: int
    last_used: float | None


NEVER = EntryUse(0, None)


@dataclass
class UsageCounts:
    """The counts as stored (see the module docstring)."""

    sessions: dict[str, list[Any]] = field(default_factory=dict)
    """Session id -> ``[the next message to count (its seq), the session's message
    count then, [keys of the entries it mattered for]]``."""
    entries: dict[str, list[Any]] = field(default_factory=dict)
    """Entry key -> ``[sessions it mattered in, when last (the latest message's time)]``."""

    @property
    def counted(self) -> bool:
        """Whether any session was counted (else no entry's usage is known)."""
        return bool(self.sessions)

    def of(self, key: str) -> EntryUse:
        """The usage of the entry ``key`` (never used: zero)."""
        found = self.entries.get(key)
        if found is None:
            return NEVER
        return EntryUse(int(found[0]), found[1])

    def next_message(self, session_id: str) -> int:
        """The seq of the first message of ``session_id`` not counted yet."""
        found = self.sessions.get(session_id)
        return int(found[0]) if found else 0

    def unchanged(self, session_id: str, messages: int) -> bool:
        """Whether ``session_id`` held ``messages`` messages when it was last counted."""
        found = self.sessions.get(session_id)
        return found is not None and found[1] == messages

    def count(self, session_id: str, upto: int, messages: int, keys: dict[str, float]) -> int:
        """Record that a session's messages before seq ``upto`` were counted (it held
        ``messages`` then), and that it mattered for ``keys`` (key -> the time of the
        latest message that matched). An entry counts once per session, however often
        the session is counted. Returns the uses this added."""
        known = self.sessions.get(session_id)
        seen = set(known[2]) if known else set()
        added = 0
        for key, when in keys.items():
            use = self.entries.setdefault(key, [0, None])
            if key not in seen:
                use[0] += 1
                added += 1
                seen.add(key)
            use[1] = when if use[1] is None else max(use[1], when)
        self.sessions[session_id] = [upto, messages, sorted(seen)]
        return added


def describe_use(counts: UsageCounts, key: str, last_confirmed: float | None) -> str:
    """One line on how an entry (``key``) was used and when it was last written or
    confirmed, for a person (``memory show --long``, the console)."""
    confirmed = "last confirmed " + _day(last_confirmed) if last_confirmed else "never confirmed"
    if not counts.counted:
        return f"{confirmed}; usage not counted yet (no session ended or imported since)"
    use = counts.of(key)
    if use.uses == 0:
        return f"{confirmed}; mattered in no counted session"
    last = f", last {_day(use.last_used)}" if use.last_used is not None else ""
    return f"{confirmed}; mattered in {use.uses} session{'s' if use.uses != 1 else ''}{last}"


def _day(t: float | None) -> str:
    from ..timefmt import local_day  # only the readers that print a day need it

    return "unknown" if t is None else local_day(t)


def usage_path(root: Path) -> Path:
    """Where a home at ``root`` keeps the counts."""
    return root / "cache" / "entry-usage.json"


def _decode(text: str) -> UsageCounts:
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise ValueError("not a version-1 usage file")
    sessions, entries = data.get("sessions"), data.get("entries")
    if not isinstance(sessions, dict) or not isinstance(entries, dict):
        raise ValueError("sessions or entries is not an object")
    for value in sessions.values():
        if not (isinstance(value, list) and len(value) == 3 and isinstance(value[0], int)):
            raise ValueError("a session is not [next message, messages, keys]")
        if not isinstance(value[1], int) or not isinstance(value[2], list):
            raise ValueError("a session's message count or keys are of the wrong kind")
    for value in entries.values():
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], int)):
            raise ValueError("an entry is not [uses, last used]")
        if not (value[1] is None or isinstance(value[1], int | float)):
            raise ValueError("a time is not a number")
    return UsageCounts(sessions, entries)


def read_counts(root: Path | None) -> UsageCounts:
    """The counts of the home at ``root`` (empty: none, no root, or unreadable: logged)."""
    if root is None:
        return UsageCounts()
    path = usage_path(root)
    try:
        text = read_text_strict(path, nofollow=True, max_bytes=MAX_BYTES)
        return UsageCounts() if text is None else _decode(text)
    except (MnemicError, ValueError, RecursionError) as exc:
        log.info("entry usage in %s is read as nothing counted: %s", path, exc)
        return UsageCounts()


def update_counts(root: Path, change: Callable[[UsageCounts], None]) -> bool:
    """Read the counts under their lock, let ``change`` update them, write them back.
    Best-effort: a failure is logged and ``False`` returned (the counts stay as they
    were)."""
    path = usage_path(root)
    try:
        ensure_private_dir(path.parent)
        with SidecarLock(path.with_suffix(".lock"), LOCK_TIMEOUT):
            counts = read_counts(root)
            change(counts)
            data = {"version": VERSION, "sessions": counts.sessions, "entries": counts.entries}
            text = json.dumps(data, separators=(",", ":"), sort_keys=True)
            atomic_write_text(path, text, sync_dir=False, fsync=False)
        return True
    except (MnemicError, OSError) as exc:
        log.warning("entry usage was not counted: %s", exc)
        return False
