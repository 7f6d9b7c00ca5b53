"""An event one entry dates, and the other says was moved to another date (tidy 30).

"Dara's chest X-ray for the medical is on 6 October" / "The chest X-ray was postponed
to 20 October", "Walne zebranie klubu jest 12 lutego" / "Walne zebranie klubu przełożono
na 26 lutego", "Retro is every other Friday at 3 pm" / "Retro has been moved to
Wednesday mornings": the newer entry holds a word of moving a date (:data:`_MOVED`:
postponed, pushed back, brought forward, rescheduled, moved to; "verschoben",
"vorverlegt", "aplazado", "adelantado", "reporté", "rinviato", "adiado", "uitgesteld",
"przełożono", "перенесли", "flyttad", "siirretty", "ertelendi"...) and a date, weekday or
time the older does not; besides that word, auxiliaries, function words and its dates,
it says only words of the older entry (in another form: "zebranie" / "zebrania", or a part
of one: "Röntgen" / "Röntgenaufnahme"; never a word that adds letters of its own:
"*Kunden*meeting" beside "Team-Meeting"),
at least two of them (the event, and whose or where) or one long compound that names the
event alone ("Zahnarzttermin"). *Why the two cannot both be
current:* an event has one date at a time; the word that the same event (the same
thing, said in the older entry's words) was moved ends the older date. The older entry
may say more about the event (who it is for, where): the newer names it, it need not
repeat it.

Apart: another event (a word of the moving entry's own: "the *dental check* was moved
to 20 October" beside the chest X-ray), a one-off change beside a habit ("Rehearsals are
every Thursday" / "the rehearsal on 24 December was moved to 23 December": a date beside
a weekday, an exception, not a new rule; the dates the newer entry names must be of a
kind the older entry dates the event by), a reason or a time span of its own ("because
of the holiday", "this week": words of its own), another number changed besides the
date, a negated entry. An entry that moves a date and says nothing the older does not
besides it is the update; two entries that both say a date was moved are read the same
way (the later move wins, as it is written last).

:func:`rescheduled` gives the reason, or None.
"""

from __future__ import annotations

import re

from .cancelling import AUX, words_of
from .lexicon import STOP_WORDS, fold
from .memo import by_text, searched
from .phrases import CALENDAR, MONTH_NAMES, calendar_value
from .signals import Profile

__all__ = ["rescheduled"]

_MOVED = re.compile(
    r"(?<!\w)(?:postponed|pushed back|put back|brought forward|moved (?:forward|up|back|to)|"
    r"rescheduled|re-scheduled|delayed|"
    r"verschoben|vorverlegt|vorgezogen|verlegt|"
    r"aplazad[oa]s?|aplazaron|aplazó|pospuest[oa]s?|pospusieron|pospuso|adelantad[oa]s?|"
    r"adelantaron|adelantó|retrasad[oa]s?|retrasaron|retrasó|"
    r"report[ée]e?s?|repouss[ée]e?s?|avanc[ée]e?s?|décal[ée]e?s?|reprogramm[ée]e?s?|"
    r"rinviat[oaie]|posticipat[oaie]|anticipat[oaie]|rimandat[oaie]|slittat[oaie]|"
    r"adiad[oa]s?|adiaram|antecipad[oa]s?|anteciparam|remarcad[oa]s?|remarcaram|"
    r"uitgesteld|vervroegd|verschoven|"
    r"przełożono|przełożon[ya]|przełożyli|przesunięto|przesunięt[ya]|przesunęli|"
    r"přesunut[oaý]?|přeložen[oaý]?|odložen[oaý]?|presunut[ýáéo]?|preložen[ýáéo]?|"
    r"перенесли|перенесен[аоы]?|перенесён|отложили|отложен[аоы]?|перенесено|перенесена|"
    r"відклали|відкладено|"
    r"uppskjuten|uppskjutet|senarelagd|senarelagt|tidigarelagd|tidigarelagt|"
    r"utsatt|udsat|fremrykket|framskyndet|fremskyndet|"
    r"siirretty|siirrettiin|lykätty|lykättiin|aikaistettu|aikaistettiin|"
    r"ertelendi|ertelendik|öne alındı|öne çekildi|"
    r"amânat[ăa]?|reprogramat[ăa]?|"
    r"elhalasztották|elhalasztva|áttették)(?!\w)"
)
"""A word of moving an event's date (postponed, brought forward, rescheduled, moved to),
in the languages the reader knows. "Moved" alone is also moving house, "verplaatst",
"spostato", "flyttet" also moving a thing: they are not here (the update markers of
:mod:`.phrases` read them)."""
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
_CLOCK_WORDS = frozenset(
    ("am", "pm", "uhr", "h", "hrs", "klo", "kl", "kello", "godz", "часов", "час", "ora", "ore",
     "heures", "heure", "horas", "hora")
)  # fmt: skip
"""Words a time of day is said with ("4 *pm*", "19 *Uhr*"): part of the date."""
_PARTICLES = frozenset(
    ("to", "till", "until", "for", "auf", "bis", "zum", "zur", "al", "para", "hasta", "au",
     "jusqu", "tot", "naar", "na", "на", "до", "з", "på", "til", "asti", "saakka", "kadar",
     "pe", "la")
)  # fmt: skip
"""The words a move names its new date with ("postponed *to*", "verschoben *auf*",
"przełożono *na*", "перенесли *на*"): part of the move."""
_COMPOUND = 8
"""A word this long names an event alone ("Zahnarzttermin", "jaarvergadering"): one
shared word of it is as specific as two shorter ones."""
_DAY = re.compile(r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th|\.)?")
_YEAR = re.compile(r"(?:19|20)\d\d")


def _when(p: Profile) -> tuple[frozenset[str], frozenset[str]]:
    """The values of ``p`` that date something (months, weekdays, dates, times; a day's
    number or a year beside a month) and their kinds (``date``, ``weekday``, ``time``)."""
    months = any(v.startswith("calendar:") and v.partition(":")[2] in MONTH_NAMES for v in p.stated)
    values: set[str] = set()
    kinds: set[str] = set()
    for v in p.stated:
        kind, _, value = v.partition(":")
        if kind == "calendar":
            kinds.add("date" if value in MONTH_NAMES else "weekday")
        elif kind in ("date", "time"):
            kinds.add(kind)
        elif kind == "number" and months and (_DAY.fullmatch(value) or _YEAR.fullmatch(value)):
            pass  # the day of a month, a year: part of the date
        else:
            continue
        values.add(v)
    return frozenset(values), frozenset(kinds)


def _dating(word: str) -> bool:
    """Whether ``word`` (folded) is part of a date or a time ("20", "october", "4pm")."""
    return (
        word.isdigit()
        or word in _CLOCK_WORDS
        or word in CALENDAR
        or calendar_value(word) in MONTH_NAMES
        or bool(re.fullmatch(r"\d+(?:st|nd|rd|th|h|am|pm)", word))
    )


_ENDING = 4
"""Letters an inflection may add or change at a word's end ("zebranie" / "zebrania")."""


def _same(new: str, old: str) -> bool:
    """Whether ``new`` names what the older entry's word ``old`` names: the same word, an
    inflection of it (a shared start, at most :data:`_ENDING` letters of each its own),
    or a part of it ("Röntgen" of "Röntgenaufnahme": the newer may name it shorter); a
    word that adds letters of its own before ``old`` names another thing ("*Kunden*meeting"
    beside "Team-Meeting": another meeting)."""
    if new == old or (len(new) >= 4 and new in old):
        return True
    if new.isdigit() or old.isdigit():
        return False
    shared = 0
    while shared < min(len(new), len(old)) and new[shared] == old[shared]:
        shared += 1
    return shared >= 4 and len(new) - shared <= _ENDING and len(old) - shared <= _ENDING


def _moved(new: Profile, old: Profile) -> str | None:
    if new.negated or old.negated:
        return None
    n, o = fold(new.text), fold(old.text)
    m = searched(_MOVED, n)
    if m is None or searched(_CJK, n):
        return None
    new_when, _ = _when(new)
    old_when, old_kinds = _when(old)
    if not new_when - old_when:
        return None  # no new date: "the X-ray was postponed" says no when
    own_kinds = _when_kinds(new, new_when - old_when)
    if not own_kinds <= old_kinds:
        return None  # a date beside a weekday: an exception to a habit, not its change
    if (new.stated - new_when) - old.stated:
        return None  # another number changed besides the date
    said = words_of(o)
    shared: list[str] = []
    for w in words_of(n[: m.start()] + " " + n[m.end() :]):
        if w in STOP_WORDS or w in AUX or w in _PARTICLES or _dating(w):
            continue
        if not any(_same(w, x) for x in said):
            return None  # a word of its own: another event, a reason, a span of time
        shared.append(w)
    named = len(shared) >= 2 or any(len(w) >= _COMPOUND for w in shared)
    return m.group(0) if named else None


def _when_kinds(p: Profile, values: frozenset[str]) -> frozenset[str]:
    """The kinds of the dating ``values`` of ``p`` (a day's number: a date)."""
    out: set[str] = set()
    for v in values:
        kind, _, value = v.partition(":")
        if kind == "calendar":
            out.add("date" if value in MONTH_NAMES else "weekday")
        elif kind == "number":
            out.add("date")
        else:
            out.add(kind)
    return frozenset(out)


@by_text
def _move_marked(text: str) -> bool:
    """Whether ``text`` (folded) has what :func:`_moved` needs in the newer entry: a word
    of moving a date, and no CJK (tidycost 2: read once per entry)."""
    n = fold(text)
    return searched(_MOVED, n) is not None and not searched(_CJK, n)


def rescheduled(a: Profile, b: Profile) -> str | None:
    """The reason one of ``a``, ``b`` says the event the other dates was moved to
    another date (see the module docstring), or None."""
    if not (_move_marked(a.text) or _move_marked(b.text)):
        return None  # neither can be the newer entry that moved a date
    for new, old in ((b, a), (a, b)):
        verb = _moved(new, old)
        if verb is not None:
            return f"one says the date was moved ('{verb}'): '{old.text}' / '{new.text}'"
    return None
