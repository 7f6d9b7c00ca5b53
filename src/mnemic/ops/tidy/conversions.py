"""One fact said in other units or formats (tidy 23): :func:`converted`.

A rule by principle, written before it was measured. Two entries say one fact twice
when

* both state amounts, times of day, dates, paces or sums of money
  (:func:`.quantities.reading`), of the same dimensions, and every value of the side
  that states fewer is one of the other's after conversion (within the 4 % a converted
  figure is rounded to, :func:`.quantities.close`; said in the same units, the same
  figure: "1.200 €" / "1.235 €" are two sums);
* at least one of them is written differently (another unit, format, currency sign or
  code, number in words, thousands separator): the same text twice is the other rules'
  to judge;
* a time of day that may be morning or evening ("7:30" with no am/pm) is no evidence:
  it must be written the same on both sides ("starts at 7:30" / "ends at 7:30 pm" are
  two times);
* no other number differs (the numbers each states besides those amounts are the same:
  "Parcel 4" / "Parcel 4"), and no name: each name one writes with a capital is a name
  or word of the other;
* neither is negated nor says it changed, and they share their subject: the content
  words besides the units' own, as :mod:`.detect` reads a subject (at least one shared,
  and :attr:`.Thresholds.subject_overlap` of the smaller side's).

The vetoes (:mod:`.vetoes`) have run before it, as for every rule.
"""

from __future__ import annotations

import re

from .quantities import _AREA, _CURRENCIES, _UNITS, close, latin, reading, same_name
from .signals import GENERIC, PairSignals, Profile
from .thresholds import THRESHOLDS, Thresholds

__all__ = ["converted"]

_UNIT_WORDS = frozenset(
    w for table in (_UNITS, _AREA, _CURRENCIES) for u in table for w in u.casefold().split()
)
_AMBIGUOUS = re.compile(r"^(?:[1-9]|1[0-2])(?:[:.h]\d{2})?$")
"""A time of day with no am/pm and an hour of a 12-hour clock: morning or evening."""


def _unit(word: str) -> bool:
    return word in _UNIT_WORDS or f"{word}s" in _UNIT_WORDS or word.rstrip("s") in _UNIT_WORDS


def _named(p: Profile, q: Profile) -> bool:
    """Whether each name ``p`` writes with a capital is a name or word of ``q``."""
    theirs = [latin(w) for w in q.names | q.words]
    return all(any(same_name(latin(n), w) for w in theirs) for n in p.names if not _unit(n))


def converted(a: Profile, b: Profile, s: PairSignals, t: Thresholds = THRESHOLDS) -> str | None:
    """Why ``a`` and ``b`` say one fact in other units or formats (see the module
    docstring); None when they do not."""
    ra, rb = reading(a.text), reading(b.text)
    qa, qb, spans_a, spans_b = ra.values, rb.values, ra.spans, rb.spans
    if not qa or qa.keys() != qb.keys() or ra.rest != rb.rest:
        return None
    if a.negated or b.negated or s.update or s.negation_differs:
        return None
    if sorted(spans_a) == sorted(spans_b):
        return None  # nothing written differently
    for dim, xs in qa.items():
        ys = qb[dim]
        few, many = (xs, ys) if len(xs) <= len(ys) else (ys, xs)
        if ra.units.get(dim) == rb.units.get(dim):  # no conversion: the same figure
            if not few <= many:
                return None
        elif not all(close(frozenset({x}), many) for x in few):
            return None
    if "clock" in qa:
        ambiguous_a = {x for x in spans_a if _AMBIGUOUS.match(x)}
        ambiguous_b = {x for x in spans_b if _AMBIGUOUS.match(x)}
        if ambiguous_a != ambiguous_b:
            return None
    if not (_named(a, b) and _named(b, a)):
        return None
    wa = {w for w in a.words - GENERIC if not _unit(w) and not w.isdigit()}
    wb = {w for w in b.words - GENERIC if not _unit(w) and not w.isdigit()}
    shared = wa & wb
    smaller = min(len(wa), len(wb))
    if not shared or len(shared) / max(smaller, 1) < t.subject_overlap:
        return None
    said_a, said_b = ", ".join(sorted(spans_a)), ", ".join(sorted(spans_b))
    return f"one fact in other units or formats: {said_a} / {said_b}"
