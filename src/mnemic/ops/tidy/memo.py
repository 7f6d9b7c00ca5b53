"""What tidy reads in one entry, read once per entry, not once per pair (tidycost).

Tidy judges every pair of a target's entries: at 431 entries that is 92,665 pairs, and
most rules read something of each side that depends on that side alone (its script, the
labels it names its thing by, the states it says, the words of its text). Read per pair,
that work is done n - 1 times over for each entry. :func:`per_entry` keeps such a
reading by the entry's text: a :class:`~.signals.Profile` is a function of its text
(:func:`.signals.profile` is its only maker), so the reading of one text is the same
whichever profile of it asks, and a verdict cannot change.

:func:`analyses` counts the readings actually done (the cache's misses), for the cost
test (``tests/test_tidy_cost.py``): bounded by the distinct texts, where per pair it
grew as n².
"""

from __future__ import annotations

import re
from collections import Counter, OrderedDict
from collections.abc import Callable
from functools import lru_cache, wraps
from threading import Lock
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .readings import LATEST, version as reading_version

if TYPE_CHECKING:
    from .signals import Profile

__all__ = ["SIZE", "analyses", "by_text", "every", "per_entry", "per_reading", "searched"]

SIZE = 8192
"""Texts kept per reading: every entry of the largest store tidy plans at once, and the
rewritings some rules judge besides (an acronym spelled out, a state cut out)."""

R = TypeVar("R")

_COUNTS: Counter[str] = Counter()


class _HasText(Protocol):
    text: str
    reading: int


def analyses() -> Counter[str]:
    """How many times each :func:`per_entry` reading was computed
    (by its qualified name) since the process started: a copy."""
    return Counter(_COUNTS)


def _cached(fn: Callable[[Any], Any], key_of: Callable[[Any], str]) -> Callable[[Any], Any]:
    name = f"{fn.__module__}.{fn.__qualname__}"
    store: OrderedDict[str, Any] = OrderedDict()
    lock = Lock()

    @wraps(fn)
    def read(arg: Any) -> Any:
        key = key_of(arg)
        with lock:
            if key in store:
                store.move_to_end(key)
                return store[key]
        value = fn(arg)
        with lock:
            _COUNTS[name] += 1
            store[key] = value
            if len(store) > SIZE:
                store.popitem(last=False)
        return value

    return read


def per_entry(fn: Callable[[Profile], R]) -> Callable[[Profile], R]:
    """``fn`` (a reading of one profile) computed once per profile text and reading
    version (:mod:`.readings`: a profile read with an older version than the latest is
    another reading of its text)."""
    return _cached(fn, _text_of)


def _text_of(p: _HasText) -> str:
    return p.text if p.reading == LATEST else f"\x00{p.reading}\x00{p.text}"


def per_reading(fn: Callable[[str], R]) -> Callable[[str], R]:
    """``fn`` (a reading of one text that reads its numbers, times or dates through
    :func:`.signals.profile`) kept per text and reading version (:mod:`.readings`), one
    reading of a text every version reads alike (:func:`.quantities.read_alike`)."""
    latest = lru_cache(maxsize=4096)(fn)
    older = lru_cache(maxsize=1024)(lambda text, version: fn(text))

    @wraps(fn)
    def read(text: str) -> R:
        v = reading_version()
        if v == LATEST:
            return latest(text)
        from .quantities import read_alike

        return latest(text) if read_alike(text) else older(text, v)

    return read


def by_text(fn: Callable[[str], R]) -> Callable[[str], R]:
    """``fn`` (a reading of one text) computed once per text: a plain dict, no lock and no
    recency order (:func:`per_entry`'s cost is more than the cheap readings it would keep,
    asked twice per pair), emptied when it reaches its bound; two threads may each
    compute one reading, and keep the same value."""
    kept: dict[str, R] = {}

    @wraps(fn)
    def read(text: str) -> R:
        try:
            return kept[text]
        except KeyError:
            pass
        if len(kept) >= SIZE:
            kept.clear()
        value = kept[text] = fn(text)
        return value

    return read


_FOUND: dict[tuple[int, str], tuple[re.Pattern[str], re.Match[str] | None]] = {}


def searched(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """``pattern.search(text)``, searched once per pattern and text: the rules ask the
    same question of an entry's whole text (or folded text) beside every other entry.

    Kept by the pattern's identity, not its value: a compiled pattern's hash is computed
    from its whole source and code at every call (2 µs for a 600-character pattern,
    more than the look-up it serves; tidycost 2). Each kept entry holds its pattern, so
    no other pattern can take that identity while the entry is kept."""
    key = (id(pattern), text)
    try:
        return _FOUND[key][1]
    except KeyError:
        pass
    if len(_FOUND) >= SIZE * 16:
        _FOUND.clear()  # a bound, not a policy: the next store refills what it needs
    m = pattern.search(text)
    _FOUND[key] = (pattern, m)
    return m


_ALL: dict[tuple[int, str], tuple[re.Pattern[str], tuple[Any, ...]]] = {}


def every(pattern: re.Pattern[str], text: str) -> tuple[Any, ...]:
    """``pattern.findall(text)`` as a tuple, found once per pattern and text (as
    :func:`searched`, kept by the pattern's identity)."""
    key = (id(pattern), text)
    try:
        return _ALL[key][1]
    except KeyError:
        pass
    if len(_ALL) >= SIZE * 16:
        _ALL.clear()
    out = tuple(pattern.findall(text))
    _ALL[key] = (pattern, out)
    return out
