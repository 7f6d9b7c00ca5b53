"""How times are written, one rule for every command and page.

People read local time with its offset from UTC: ``2026-12-06 06:06 +05:30`` (a day
alone is the local day). Models and ``--json`` read machine forms: Unix seconds in
number fields, and strings in ISO 8601 UTC ending ``Z`` (``2026-12-06T00:36Z``). Light:
the commands that print times load it at start-up.
"""

from __future__ import annotations

import calendar
import time

__all__ = [
    "ago",
    "NO_TIME",
    "in_calendar",
    "local_day",
    "local_time",
    "offset",
    "parse_iso",
    "read_shown",
    "utc_minute",
]


FIRST_SECOND = -62135596800.0 + 86400
"""The first Unix time every zone shows as a date of the calendar (0001-01-02 UTC)."""
LAST_SECOND = 253402300799.0 - 86400
"""The last Unix time every zone shows as a date of the calendar (9999-12-30 UTC)."""


def in_calendar(ts: float) -> bool:
    """Whether ``ts`` is a time this module can show in every zone: a finite number of
    seconds whose date lies between the years 1 and 9999 (``1e400``, ``NaN`` or a year
    of 33658 have no local time: :func:`time.localtime` raises on them)."""
    return FIRST_SECOND <= ts <= LAST_SECOND  # False for NaN; infinities fall outside


NO_TIME = "(time out of range)"
"""What every formatter here writes for a time :func:`in_calendar` refuses: one a store
kept from before imports checked them (``1e400``, a year 33658) is shown as such, and
never stops a listing with "timestamp out of range for platform time_t"."""


def offset(ts: float) -> str:
    """The local offset from UTC at ``ts``: ``+05:30``, ``-04:00``, ``+00:00`` ("" for
    a time out of the calendar)."""
    if not in_calendar(ts):
        return ""
    off = time.localtime(ts).tm_gmtoff
    sign = "-" if off < 0 else "+"
    off = abs(off)
    return f"{sign}{off // 3600:02d}:{off % 3600 // 60:02d}"


def local_time(ts: float, *, seconds: bool = False) -> str:
    """``ts`` as people read it: local time to the minute (or second), with the offset."""
    if not in_calendar(ts):
        return NO_TIME
    shown = time.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M", time.localtime(ts))
    return f"{shown} {offset(ts)}"


def read_shown(shown: str) -> float | None:
    """The Unix time of a local ``YYYY-MM-DD HH:MM``, with its offset (``+02:00``, as
    session search writes its times) or without (then read in this machine's zone);
    None for anything else."""
    text = shown.strip()
    rest = text[16:].strip()
    try:
        parsed = time.strptime(text[:16], "%Y-%m-%d %H:%M")
        if not rest:
            return time.mktime(parsed)
    except (ValueError, OverflowError):
        return None
    if len(rest) != 6 or rest[0] not in "+-" or rest[3] != ":" or not rest[1:3].isdigit():
        return None
    if not rest[4:6].isdigit():
        return None
    minutes = int(rest[1:3]) * 60 + int(rest[4:6])
    return float(calendar.timegm(parsed)) - (-1 if rest[0] == "-" else 1) * minutes * 60


def ago(ts: float, now: float) -> str:
    """How long before ``now`` ``ts`` was, in words that need no zone and read the same to
    a model and a person: ``today`` (under a day), ``1 day ago``, ``12 days ago``; a time
    after ``now`` (a clock that moved back) reads ``today``; :data:`NO_TIME` when either
    lies outside the calendar."""
    if not (in_calendar(ts) and in_calendar(now)):
        return NO_TIME
    days = int((now - ts) // 86400)
    if days <= 0:
        return "today"
    return f"{days} day{'s' if days != 1 else ''} ago"


def local_day(ts: float) -> str:
    """The local day of ``ts``: ``2026-12-06``."""
    if not in_calendar(ts):
        return NO_TIME
    return time.strftime("%Y-%m-%d", time.localtime(ts))


def utc_minute(ts: float) -> str:
    """``ts`` as models read it: ISO 8601 UTC to the minute, ``2026-12-06T00:36Z``."""
    if not in_calendar(ts):
        return NO_TIME
    return time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(ts))


def utc_seconds(ts: float) -> str:
    """``ts`` as ``--json`` gives a time (docs/json.md): ISO 8601 UTC to the second,
    ``2026-12-06T00:36:12Z``."""
    if not in_calendar(ts):
        return NO_TIME
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def parse_iso(text: str) -> float | None:
    """Unix seconds of an ISO 8601 time with an offset (``Z`` or ``+05:30``), as the
    journal and the machine forms write them; ``None`` when it is not one."""
    import datetime as _dt  # only the readers of stored ISO strings need it

    try:
        moment = _dt.datetime.fromisoformat(text.strip().replace("z", "Z"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return moment.timestamp()
