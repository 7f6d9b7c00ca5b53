"""What a question says about time: now or the past, "as of" a date, a date it names.

A history holds facts that changed: a deadline moved, a version was upgraded, a plan was
cancelled. Ranking prefers the latest statement of a subject (:mod:`.freshness`) unless
the question asks about the past. :func:`read_timeframe` reads that from the question's
words, in English, German, Spanish, French and Chinese:

* ``past``: "first", "originally", "before", "used to", "früher", "antes", "最初",
  "以前"... ask for the earlier statement;
* ``now``: "now", "currently", "latest", "jetzt", "ahora", "现在", "目前"... ask for the
  latest (the default ranking does too; the words only make it explicit);
* ``as_of``: "as of", "by", "until", "Stand", "hasta", "截至" followed by a date: what held
  then, so messages after the end of that day (month, year) are left out and the latest
  before it wins;
* ``before``: "before", "vor dem", "antes del", "avant le" followed by a date, or the
  date followed by "之前" / "以前" / "前": a day named is kept (what was told that day
  happened before it: "...was shown last Sunday", said on 25 October, answers "on the
  Sunday before October 25", and its messages are lifted as a date named is), a month
  or a year is cut at its start, a time of day
  ("2023-05-03T14:30", "3 May 2023 at 14:30", "2023年5月3日14点") at that time; then it
  reads as "as of" does (the latest first): the "before" of a date asks for no earlier
  statement, a bare "before" still does;
* ``anchor``: any other date the question names ("on 3 June, 2023", "in July 2022",
  "2023年6月"): messages of that day (month, year) are preferred, not required.

Dates: ISO (2023-06-03, 2023-06), "3 June 2023", "June 3, 2023", "June 2023", "3. Juni
2023", "3 de junio de 2023", "2023年6月3日", "6月3日", and a month or day without a year
("in August", "last August", "八月份", "8月": the latest such date not after ``now``), a
day with a time of day ("as of 2023-05-03 14:30": that minute, as ``--as-of
2023-05-03T14:30``; a day alone is its end, as ``--as-of 2023-05-03``). Times are local,
as ``--since``/``--until`` read them. Nothing here raises: a question without time words
gives the empty frame.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...timefmt import local_time

__all__ = ["TimeFrame", "at_time", "read_timeframe"]

_MONTHS: dict[str, int] = {}
for _names in (
    "january february march april may june july august september october november december",
    "jan feb mar apr may jun jul aug sep oct nov dec",
    "januar februar märz april mai juni juli august september oktober november dezember",
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
):
    for _n, _name in enumerate(_names.split(), 1):
        _MONTHS.setdefault(_name, _n)
_MONTH = "(" + "|".join(sorted(map(re.escape, _MONTHS), key=len, reverse=True)) + r")\.?"
_ORD = r"(\d{1,2})(?:st|nd|rd|th|er|\.)?"
_YEAR = r"((?:19|20)\d{2})"

_ZH_DIGITS = "一二三四五六七八九十"
_ZH_MONTH = rf"十[一二]?|[{_ZH_DIGITS[:9]}]|1[0-2]|0?[1-9]"
"""A month's number written before 月 without a year or a day ("八月", "8月份"): what
"in August" says (recall 21)."""

_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"\b{_YEAR}-(\d{{1,2}})-(\d{{1,2}})(?!\d)"), "ymd"),
    (re.compile(rf"{_YEAR}\s*年\s*(\d{{1,2}})\s*月\s*(\d{{1,2}})\s*[日号]"), "ymd"),
    (re.compile(rf"\b{_ORD}\s*(?:de\s+)?{_MONTH}(?:,?\s*(?:de\s+)?{_YEAR})?", re.I), "dmy"),
    (re.compile(rf"\b{_MONTH}\s+{_ORD}(?:,?\s*{_YEAR})?\b", re.I), "mdy"),
    (re.compile(rf"\b{_MONTH}(?:\s+(?:de\s+)?|,\s*){_YEAR}\b", re.I), "my"),
    (re.compile(rf"{_YEAR}\s*年\s*(\d{{1,2}})\s*月"), "ym"),
    (re.compile(rf"\b{_YEAR}-(\d{{1,2}})\b"), "ym"),
    (re.compile(r"(?<!\d)(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), "md"),
    # "in March", and "last March" (the latest March gone by, as "in March" reads it:
    # "last" is part of what is named, so "as of last March" is still an "as of")
    (
        re.compile(
            rf"(?:(?<=\b(?:in|im|en|au|of)\s)|\b(?:last|letzten|vergangenen|pasado)\s+)"
            rf"{_MONTH}\b",
            re.I,
        ),
        "m",
    ),
    (re.compile(rf"(?<=\b(?:in|im|en|of)\s){_YEAR}\b|{_YEAR}\s*年", re.I), "y"),
    (re.compile(rf"(?<![\d{_ZH_DIGITS}])({_ZH_MONTH})\s*月份?(?!\s*[\d{_ZH_DIGITS}])"), "zm"),
]

_DAYS = frozenset({"ymd", "dmy", "mdy", "md"})
"""The patterns that name one day: "before" such a day keeps it (recall 22)."""
_CLOCK = re.compile(
    r"(?:T|\s*(?:at|um|à|a\s+las|,)?\s*)([01]?\d|2[0-3])[:：]([0-5]\d)(?::[0-5]\d)?(?!\d)"
    r"|\s*([01]?\d|2[0-3])\s*[点點时時](?:\s*([0-5]?\d)\s*分)?",
    re.I,
)
"""A time of day right after a day ("2023-05-03T14:30", "3 May 2023 at 14:30",
"2023年5月3日14点"): the point a "before" or "as of" cuts at."""
_AFTER_BEFORE = re.compile(r"\s*(?:之前|以前|前)(?![后後])")
"""Chinese puts "before" after its date: "2022年10月25日之前", "5月3日前" (not 前后,
"around")."""

_AS_OF = re.compile(
    r"(?:\bas\s+of|\bby|\buntil|\btill|\bstand|\bbis\s+(?:zum|zur)?|\bhasta(?:\s+el)?|"
    r"\ba\s+fecha\s+de|\bjusqu'au|\bà\s+la\s+date\s+du|截至|截止到?|到)\s*$",
    re.I,
)
_BEFORE = re.compile(
    r"(?:\bbefore|\bvor\s+dem|\bvor|\bantes\s+del?|\bavant\s+le|在?之前?)\s*$", re.I
)
_PAST = re.compile(
    r"\b(?:first|originally|original|initially|initial|previously|previous|formerly|"
    r"used\s+to|at\s+first|earlier|before|prior|ursprünglich\w*|zuerst|früher|vorher|"
    r"anfangs|zunächst|damals|originalmente|al\s+principio|antes|primero|inicialmente|"
    r"anteriormente|d'abord|initialement|auparavant|à\s+l'origine|autrefois)\b"
    r"|最初|起初|原来|以前|之前|当初|一开始|最开始|原先|原本|早先|第一次|第一个|首次",
    re.I,
)
_NOW = re.compile(
    r"\b(?:now|currently|current|latest|nowadays|these\s+days|at\s+the\s+moment|"
    r"most\s+recent(?:ly)?|so\s+far|anymore|jetzt|aktuell\w*|derzeit|momentan|zurzeit|"
    r"inzwischen|ahora|actualmente|actual|hoy\s+en\s+día|maintenant|actuellement|"
    r"actuel\w*)\b|现在|目前|最新|如今|当前|眼下|正在",
    re.I,
)

_EVENT = re.compile(
    r"\bwas\b(?!\s+(?:ist|sind|hat|haben|kann|soll|wird|gibt|macht|für)\b)|"  # not German "Was"
    r"\b(?:did|didn't|wasn't|were|weren't|had|hadn't|war|waren|hatte|hatten|wurde|"
    r"wurden|fue|fueron|era|eran|estaba|estaban|tuvo|hizo|dijo|était|étaient|avait|"
    r"avaient|fut)\b|[了过][吗呢？?]?\s*$|(?<![为除罢])了(?![解不])",
    re.I,
)
"""Past-tense auxiliaries: a question about an event ("When did she go ...?"), not a
state that may have changed. Chinese marks it with the aspect particle 了 after the verb
("卡罗琳研究了什么？", "What did Caroline research?"), not in 为了, 除了, 了解 (recall 21)."""


@dataclass(frozen=True, slots=True)
class TimeFrame:
    """What a question says about time (see the module docstring)."""

    intent: str = "any"
    """``now``, ``past``, ``event`` (asked in the past tense, no word either way: what
    happened then, so no statement supersedes another) or ``any`` (a state, present
    tense: the latest statement is preferred, as for ``now``)."""
    until: float | None = None
    """Messages at or after this time are left out (an "as of" or "before" date)."""
    anchor: tuple[float, float] | None = None
    """``[start, end)`` of a date the question names: messages then are preferred."""
    words: tuple[str, ...] = ()
    """The words that said so (for explanations)."""

    @property
    def past(self) -> bool:
        """Whether the question asks about an earlier state."""
        return self.intent == "past"

    def describe(self) -> dict[str, Any]:
        """JSON-able form (times as local ``YYYY-MM-DD HH:MM +HH:MM``, with their offset)."""
        show = local_time

        out: dict[str, Any] = {"intent": self.intent}
        if self.until is not None:
            out["until"] = show(self.until)
        if self.anchor is not None:
            out["date"] = [show(self.anchor[0]), show(self.anchor[1])]
        if self.words:
            out["words"] = list(self.words)
        return out

    @property
    def states(self) -> bool:
        """Whether the question asks about a state (now, then, or unsaid), not an event."""
        return self.intent != "event"


def _span(
    kind: str, found: tuple[str | None, ...], now: dt.datetime
) -> tuple[dt.datetime, dt.datetime] | None:
    """The ``[start, end)`` of a date pattern's match, None when it is no date."""
    g = [x or "" for x in found]

    def month(name: str) -> int:
        return _MONTHS[name.lower().rstrip(".")]

    try:
        if kind == "ymd":
            return _day(int(g[0]), int(g[1]), int(g[2]))
        if kind in ("dmy", "mdy"):
            day_s, month_s, year_s = (g[0], g[1], g[2]) if kind == "dmy" else (g[1], g[0], g[2])
            mon, day = month(month_s), int(day_s)
            if year_s:
                return _day(int(year_s), mon, day)
            return _latest(lambda y: _day(y, mon, day), now)
        if kind == "my":
            return _month(int(g[1]), month(g[0]))
        if kind == "ym":
            return _month(int(g[0]), int(g[1]))
        if kind == "md":
            mon, day = int(g[0]), int(g[1])
            return _latest(lambda y: _day(y, mon, day), now)
        if kind == "m":
            mon = month(g[0])
            return _latest(lambda y: _month(y, mon), now)
        if kind == "zm":
            zmon = _zh_number(g[0])
            return _latest(lambda y: _month(y, zmon), now)
        year = int(next(x for x in g if x))
        return dt.datetime(year, 1, 1), dt.datetime(year + 1, 1, 1)
    except (ValueError, KeyError, StopIteration):
        return None


def _zh_number(text: str) -> int:
    """1-12 written in digits or Chinese numerals ("8", "八", "十二")."""
    if text.isdigit():
        return int(text)
    tens, _, units = text.rpartition("十")
    digit = _ZH_DIGITS.index
    if "十" not in text:
        return digit(text) + 1
    return (digit(tens) + 1 if tens else 1) * 10 + (digit(units) + 1 if units else 0)


def _day(y: int, m: int, d: int) -> tuple[dt.datetime, dt.datetime]:
    start = dt.datetime(y, m, d)
    return start, start + dt.timedelta(days=1)


def _month(y: int, m: int) -> tuple[dt.datetime, dt.datetime]:
    start = dt.datetime(y, m, 1)
    return start, (dt.datetime(y + 1, 1, 1) if m == 12 else dt.datetime(y, m + 1, 1))


def _latest(
    make: Callable[[int], tuple[dt.datetime, dt.datetime]], now: dt.datetime
) -> tuple[dt.datetime, dt.datetime] | None:
    """The latest span ``make(year)`` that starts no later than ``now``."""
    for year in (now.year, now.year - 1):
        span: tuple[dt.datetime, dt.datetime] = make(year)
        if span[0] <= now:
            return span
    return None


def _earlier(until: float | None, cut: float) -> float:
    """The earlier of two cuts (a question may name two dates)."""
    return cut if until is None else min(until, cut)


def at_time(frame: TimeFrame, as_of: float | None) -> TimeFrame:
    """``frame`` asked "as of" ``as_of`` (Unix time; None: unchanged): messages after it
    are left out, and the latest before it is preferred unless the question asks about
    the past."""
    if as_of is None:
        return frame
    until = as_of if frame.until is None else min(frame.until, as_of)
    intent = "past" if frame.past else "now"
    return TimeFrame(intent, until, frame.anchor, frame.words)


def read_timeframe(text: str, *, now: float | None = None) -> TimeFrame:
    """The :class:`TimeFrame` of a question (see the module docstring). Never raises."""
    if not isinstance(text, str) or not text.strip():
        return TimeFrame()
    clock = dt.datetime.fromtimestamp(time.time() if now is None else now)
    said: list[str] = []
    until = None
    anchor = None
    taken: list[tuple[int, int]] = []
    dated: list[tuple[int, int]] = []
    for pattern, kind in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < b and a < m.end() for a, b in taken):
                continue
            span = _span(kind, m.groups(), clock)
            if span is None:
                continue
            end, point = m.end(), None
            at = _CLOCK.match(text, end) if kind in _DAYS else None
            if at is not None:
                hour, minute = at.group(1) or at.group(3), at.group(2) or at.group(4)
                point = span[0].replace(hour=int(hour), minute=int(minute or 0))
                end = at.end()
            taken.append((m.start(), end))
            named = text[m.start() : end].strip()
            after = _AFTER_BEFORE.match(text, end)
            if _AS_OF.search(text[: m.start()]):
                until = _earlier(until, (point or span[1]).timestamp())
                said.append(f"as of {named}")
            elif (cue := _BEFORE.search(text[: m.start()]) or after) is not None:
                # a day named is kept (what was told that day happened before it), a
                # month or a year is cut at its start, a time of day at that time
                cut = point or (span[1] if kind in _DAYS else span[0])
                until = _earlier(until, cut.timestamp())
                said.append(f"before {named}")
                dated.append((cue.start(), cue.end()))
                if kind in _DAYS and point is None and anchor is None:
                    # and lifted: the question names the day because something happened
                    anchor = (span[0].timestamp(), span[1].timestamp())
            elif anchor is None:
                anchor = (span[0].timestamp(), span[1].timestamp())
                said.append(named)
    # "before" a date is its cut, as "as of" is (what held then: the latest first), not
    # a question about the earlier statement
    past = [
        m.group()
        for m in _PAST.finditer(text)
        if not any(m.start() < b and a < m.end() for a, b in dated)
    ]
    present = [m.group() for m in _NOW.finditer(text)]
    intent = "past" if past and not present else "now" if present or until else "any"
    if intent == "any" and _EVENT.search(text):
        intent = "event"
    said += past if intent == "past" else present
    return TimeFrame(intent, until, anchor, tuple(said))


def time_read(described: Any, *, passed: str = "as_of") -> str | None:
    """How a search read time, for a person, from :meth:`TimeFrame.describe` (a
    response's ``time``): what the question's words (or ``as_of``) cut out or lifted,
    ``"Time: as of January 2024 → only messages before 2024-02-01 00:00; the latest
    statement first"``; ``passed`` names the date given apart from the words (the
    option's name where it is read); None when it said nothing."""
    if not isinstance(described, dict):
        return None
    effects = []
    if described.get("until"):
        effects.append(f"only messages before {described['until']}")
    date = described.get("date")
    if isinstance(date, list) and len(date) == 2:
        effects.append(f"messages from {date[0]} to {date[1]} ranked up")
    intent = str(described.get("intent"))
    effects.append(
        {"past": "earlier statements first", "now": "the latest statement first"}.get(intent, "")
    )
    shown = "; ".join(e for e in effects if e)
    said = ", ".join(map(str, described.get("words") or ())) or passed
    return f"Time: {said} → {shown}" if shown else None
