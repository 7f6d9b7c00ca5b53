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
  words besides the units' own and the words of the amounts as written, as
  :mod:`.detect` reads a subject (at least one shared, and
  :attr:`.Thresholds.subject_overlap` of the smaller side's); a unit of time is the
  subject's where no duration was read ("three times a *week*").

:func:`switched` reads a fact said once in each of two languages (:func:`.languages.
two_languages_strict`: two scripts, or English and one of the six others
:func:`.quantities.language` tells) where its names and numbers carry it, with no
translation table: every name either writes with a capital is written in the other (the
same letters in one script, a transliteration across two: :func:`.quantities.same_name`;
"Lolo" / "Lola" are two people), the numbers and amounts are the same, neither is
negated or says it changed, no other rule gave a verdict, and the names and numbers are
at least two and a third of the shorter side's content words (a name alone in a
sentence of other words carries too little: "Grace leads the Swahili songs").

The vetoes (:mod:`.vetoes`) have run before both, as for every rule.
"""

from __future__ import annotations

import re

from .languages import two_languages_strict
from .quantities import (
    _AREA,
    _CURRENCIES,
    _DURATION_UNITS,
    _UNITS,
    close,
    latin,
    reading,
    same_name,
)
from .signals import GENERIC, PairSignals, Profile
from .thresholds import THRESHOLDS, Thresholds

__all__ = ["converted", "switched"]

_UNIT_WORDS = frozenset(
    w for table in (_UNITS, _AREA, _CURRENCIES) for u in table for w in u.casefold().split()
)
_DURATION_WORDS = frozenset(_DURATION_UNITS)
"""Units of time: not the subject where a duration was read ("kept for 90 days" / "three
months"), part of it where none was ("three times a week")."""
_AMBIGUOUS = re.compile(r"^(?:[1-9]|1[0-2])(?:[:.h]\d{2})?$")
"""A time of day with no am/pm and an hour of a 12-hour clock: morning or evening."""
_LETTERS = re.compile(r"[^\W\d_]+")


def _unit(word: str, durations: bool = False) -> bool:
    if durations and (word in _DURATION_WORDS or f"{word}s" in _DURATION_WORDS):
        return True
    return (
        word in _UNIT_WORDS
        or f"{word}s" in _UNIT_WORDS
        or word.rstrip("s") in _UNIT_WORDS
        or f"{word}$" in _UNIT_WORDS  # "R$", "US$": the sign read as a word and a name
    )


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
    timed = "duration" in qa
    # a word of an amount as written ("4 min 40 au kilomètre", "1 600 litrů"; the
    # detector's words are stems) is no subject either
    amounts = {latin(w) for x in (*spans_a, *spans_b) for w in _LETTERS.findall(x)}

    def subject(p: Profile) -> set[str]:
        return {
            w
            for w in p.words - GENERIC
            if not _unit(w, timed)
            and not w.isdigit()
            and not (len(w) >= 3 and any(x.startswith(w) for x in amounts))
        }

    wa, wb = subject(a), subject(b)
    shared = wa & wb
    smaller = min(len(wa), len(wb))
    if not shared or len(shared) / max(smaller, 1) < t.subject_overlap:
        return None
    said_a, said_b = ", ".join(sorted(spans_a)), ", ".join(sorted(spans_b))
    return f"one fact in other units or formats: {said_a} / {said_b}"


def switched(a: Profile, b: Profile, s: PairSignals) -> str | None:
    """Why ``a`` and ``b`` say one fact in two languages, read by what carries its
    identity without a translator (see the module docstring); None when they do not."""
    if not two_languages_strict(a, b) or a.negated or b.negated or s.update:
        return None
    ra, rb = reading(a.text), reading(b.text)
    if ra.rest != rb.rest or ra.values.keys() != rb.values.keys():
        return None
    for dim, xs in ra.values.items():
        if not close(xs, rb.values[dim]) or not close(rb.values[dim], xs):
            return None
    names_a = {n for n in a.names if len(n) >= 3 and not _unit(n)}
    names_b = {n for n in b.names if len(n) >= 3 and not _unit(n)}
    words_a = {w: latin(w) for w in _LETTERS.findall(a.text.casefold())}
    words_b = {w: latin(w) for w in _LETTERS.findall(b.text.casefold())}

    def found(name: str, words: dict[str, str]) -> bool:
        # in one script a name is written as it is ("Lolo" / "Lola" are two people);
        # across scripts, as :func:`.quantities.same_name` reads a transliteration
        if name in words or latin(name) in words.values():
            return True
        mine = latin(name)
        return any(same_name(mine, w) for k, w in words.items() if k != w or name != mine)

    if not all(found(n, words_b) for n in names_a) or not all(found(n, words_a) for n in names_b):
        return None
    carried = len(names_a | names_b) + len(ra.rest) + len(ra.values)
    smaller = min(len(a.words - GENERIC), len(b.words - GENERIC))
    if carried < 2 or carried * 3 < smaller:
        return None
    return "one fact in two languages: the same names and numbers, nothing else to tell apart"
