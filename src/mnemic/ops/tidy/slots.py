"""The values an entry states, read as typed slots (``kind:value``): URLs, e-mail
addresses, paths, IPv4 addresses, dates, identifiers (``host-7``, ``UTC+1``), time zones,
times of day, versions and numbers. Two entries that differ in a slot of one kind may
state one fact with another value (:mod:`.detect`); a value written two ways ("2am",
"02:00") is one slot."""

from __future__ import annotations

import re

from .lexicon import ABBREVIATIONS

__all__ = ["CJK", "CJK_LETTER", "read_slots", "shown"]

CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"  # kana, Han, Hangul
CJK_LETTER = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
"""One kana, Han or Hangul character (an entry written, in part, in a CJK script)."""

_URL = re.compile(r"\b(?:https?|ftp|ssh|git)://\S+|\bwww\.\S+", re.IGNORECASE)
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_PATH = re.compile(r"(?:(?<=[\s:=(\[\"'])|^)(?:~|\.{1,2})?(?:/[\w.@+-]+){2,}/?|\b[A-Za-z]:\\[^\s]+")
_ADDRESS = re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?:/\d{1,2})?(?!\w|\.\d)")
"""An IPv4 address (with a port or a prefix length): one value, not a date and a number."""
_DATE = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b"
    r"|(?:\d{4}年)?\d{1,2}月\d{1,2}[日号](?:之前|以前|前)?"
)
"""A date: ISO, day/month/year, or Chinese (``7月1日``; ``7月1日前``, "by July 1", is
that date too)."""
_BEFORE = re.compile(r"(?:之前|以前|前)$")
_IDENTIFIER = re.compile(  # letters and digits in one token: host-7, utc+1, q3, gpt-4o
    r"(?<![\w.])(?=[a-z0-9+-]*[0-9])(?=[a-z0-9+-]*[a-z])[a-z0-9]+(?:[+-][a-z0-9]+)*(?![\w])"
)
_ZONE = re.compile(r"\b(?:utc|gmt|cet|cest|eet|wet|bst|pst|pdt|mst|mdt|cst|cdt|jst|aest)\b")
"""A time zone named without an offset: a value as ``utc+1`` is."""
_NUMBER = re.compile(  # before CJK first: "Ubuntu *24.04*に" is one version, not 24 and 04
    r"\d+(?:[.,:]\d+)*(?=[%" + CJK + r"])|(?<![\w.])\d+(?:[.,:]\d+)*(?![\w])"
)
_TIME = re.compile(r"\d{1,2}:\d{2}")
_CLOCK = re.compile(
    r"(?<![\w.:])(\d{1,2})(?::(\d{2}))?(?:(am|pm)|(?<=\d{2})\s(am|pm)|\s?([ap])\.m\.)(?![\w])"
    r"|(?<![\w.:])(\d{1,2}):(\d{2})(?![\w:])"
)
"""A time of day, written "2am", "2:30pm", "10:30 am", "7 p.m." or "02:00" (a 12-hour
time with a space needs its minutes: "2 am Tag" is German for "twice a day")."""


def _clock(m: re.Match[str]) -> str:
    """A time of day as ``H:MM`` (24-hour), so "2am", "2:00 a.m." and "02:00" are one
    value; anything that is no time of day is left as written."""
    if m.group(6) is not None:
        hour, minute = int(m.group(6)), int(m.group(7))
    else:
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        half = (m.group(3) or m.group(4) or m.group(5) or "")[:1]
        if not 1 <= hour <= 12:
            return m.group(0)
        hour = hour % 12 + (12 if half == "p" else 0)
    if hour > 23 or minute > 59:
        return m.group(0)
    return f"{hour}:{minute:02d}"


def _kind(number: str) -> str:
    if _TIME.fullmatch(number):
        return "time"
    return "version" if "." in number else "number"


def read_slots(folded: str) -> tuple[set[str], str]:
    """The slot values of ``folded`` text (``kind:value``), and the text without them."""
    found: set[str] = set()
    rest = _CLOCK.sub(_clock, folded)
    for kind, pattern in (("url", _URL), ("email", _EMAIL), ("path", _PATH),
                          ("address", _ADDRESS), ("date", _DATE),
                          ("id", _IDENTIFIER), ("id", _ZONE)):  # fmt: skip
        for m in pattern.finditer(rest):
            if m.group(0) in ABBREVIATIONS:  # "k8s": a word that holds a digit
                continue
            value = m.group(0).rstrip(".,;:)").rstrip("/")
            found.add(f"{kind}:{_BEFORE.sub('', value) if kind == 'date' else value}")
        rest = pattern.sub(_blank_value, rest)
    for m in _NUMBER.finditer(rest):
        value = m.group(0).replace(",", ".")
        found.add(f"{_kind(value)}:{value}")
    rest = _NUMBER.sub(" ", rest)
    return found, rest


def _blank_value(m: re.Match[str]) -> str:
    """What a slot value leaves in the text once read: a space (an abbreviation such as
    "k8s" stays, a word)."""
    return m.group(0) if m.group(0) in ABBREVIATIONS else " "


def shown(slots: frozenset[str] | set[str]) -> str:
    """Slot values for a person: ``3.10, june``."""
    return ", ".join(sorted(s.partition(":")[2] for s in slots))
