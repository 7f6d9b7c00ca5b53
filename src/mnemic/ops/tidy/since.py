"""Since when the newer value holds, said in words of its own (tidy 30).

"The puppet theatre seats 90" / "The puppet theatre seats 120 *since the balcony
reopened*", "Користувач бігає по 5 км" / "*З минулого місяця* користувач бігає по 10 км":
the newer entry is the older one's sentence with a value changed, and a phrase that says
from when the new value holds. :mod:`.phrases` reads such a phrase when it names a point
in time ("since October", "seit 2024", "since the last review"); said with an event or
a relative time of a language it does not list, its words stood as words of the entry's
own, and a word of its own on the newer side was read as another subject. *Why:* the
newer may say when; the words that say since when a value holds say nothing about
which thing holds it.

:func:`since_words` gives the content words (stems) of ``p`` that stand in such a phrase:
after a word that opens one (:data:`_OPENS`: "since", "seit", "sinds", "siden", "tangu",
"desde que", "depuis que"; "с", "з", "від" and "od", which also say *with* or *from*,
only before a word of a relative time: "з *минулого* місяця") or before a word that
closes one (:data:`_CLOSES`: "lähtien", "beri", "itibaren"), up to the first word the
other entry also says or a number (the value).
"This year" ("quest'anno", "dieses Jahr", "w tym roku") is such a phrase too. "After"
is not: "takes 10 mg *after dinner*" says a condition, not since when.
"""

from __future__ import annotations

import re

from .lexicon import STOP_WORDS, stem
from .memo import by_text

__all__ = ["since_words"]

_OPENS = frozenset(("since", "seit", "sinds", "siden", "tangu", "desde que", "depuis que",
                    "da quando", "sedan dess"))  # fmt: skip
"""Words that open a phrase of since when, in the languages the reader knows ("desde",
"depuis", "dal" alone also say *from* a place: only their clause of since when)."""
_RELATIVE_OPENS = frozenset(("с", "со", "з", "із", "від", "od"))
"""Words that open one only before a relative time (:data:`_RELATIVE`): they also say
*with* (ru, uk) or *from* (pl)."""
_RELATIVE = re.compile(
    r"(?:минул|прошл|нов|цьог|этог|наступн|следующ|ubiegł|zeszł|ostatni|tego)\w*"
)
"""A word of a relative time ("last", "this", "next", "new") in ru, uk, pl."""
_CLOSES = frozenset(("lähtien", "beri", "itibaren", "alkaen"))
"""Words that close a phrase of since when (fi, tr)."""
_THIS_YEAR = re.compile(
    r"\b(?:this year|this season|dieses jahr|diese saison|este año|esta temporada|"
    r"cette année|cette saison|quest'anno|quest anno|questa stagione|este ano|esta temporada|"
    r"dit jaar|dit seizoen|w tym roku|в этом году|цього року|i år|i år|tänä vuonna|bu yıl)\b"
)
"""This year: the value holds for now."""
_TOKEN = re.compile(r"[^\W_]+")


def _key(token: str) -> str:
    return stem(token)


def since_words(text: str, own: frozenset[str] | set[str]) -> frozenset[str]:
    """The content words (stems) of ``own`` (words only this entry says) that ``text``
    (folded) says in a phrase of since when (see the module docstring)."""
    if not _opens_or_closes(text):
        return frozenset()  # no word that opens or closes such a phrase: none
    tokens = _TOKEN.findall(text)
    out: set[str] = set()

    def inside(token: str) -> bool:
        return token in STOP_WORDS or _key(token) in own

    for i, token in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        pair = f"{token} {nxt}" in _OPENS
        opens = (
            pair or token in _OPENS or (token in _RELATIVE_OPENS and bool(_RELATIVE.fullmatch(nxt)))
        )
        if opens:
            j = i + 2 if pair else i + 1
            while j < len(tokens) and not tokens[j].isdigit() and inside(tokens[j]):
                j += 1
            phrase = {_key(t) for t in tokens[i:j]} & set(own)
            if j > i + 1:
                out |= phrase
        elif token in _CLOSES:
            k = i - 1
            while k >= 0 and not tokens[k].isdigit() and inside(tokens[k]):
                k -= 1
            if k < i - 1:
                out |= {_key(t) for t in tokens[k + 1 : i + 1]} & set(own)
    for m in _THIS_YEAR.finditer(text):
        out |= {_key(t) for t in _TOKEN.findall(m.group(0))} & set(own)
    return frozenset(out)


@by_text
def _opens_or_closes(text: str) -> bool:
    """Whether ``text`` (folded) has a word that opens or closes a phrase of since when, or
    says this year, as :func:`since_words` reads them: without one, it finds none
    whatever the other entry says (tidycost 2: read once per entry, not per pair)."""
    tokens = _TOKEN.findall(text)
    for i, token in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if f"{token} {nxt}" in _OPENS or token in _OPENS or token in _CLOSES:
            return True
        if token in _RELATIVE_OPENS and _RELATIVE.fullmatch(nxt):
            return True
    return _THIS_YEAR.search(text) is not None
