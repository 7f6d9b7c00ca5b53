"""An acronym against its full name: "CI" and "continuous integration", "BBVA" and
"Banco Bilbao Vizcaya Argentaria", "TGV" and "train à grande vitesse".

An entry that writes a name in capitals (two to six letters: "CI", "ODTÜ", "PKO BP") and
another that spells it out in words whose first letters give it, in order (a function
word never gives a letter: "the admin panel is" is no API; the small words between
them, "à", "of", "de", may be skipped), name one thing. :func:`spelled`
writes the acronym in place of the words it stands for, so :mod:`.detect` judges the two
entries as if they had used one form: a pair joined that way says so in its reason.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .lexicon import STOP_WORDS

__all__ = ["spelled"]

_ACRONYM = re.compile(r"(?<![\w-])([^\W\d_a-z]{2,6})(?=$|[^\w-]|'\w)")
_WORD = re.compile(r"[^\W\d_]+")
_SMALL = frozenset(
    {
        "a",
        "à",
        "and",
        "of",
        "the",
        "for",
        "de",
        "del",
        "des",
        "di",
        "da",
        "do",
        "du",
        "e",
        "et",
        "y",
        "i",
        "la",
        "le",
        "el",
        "les",
        "und",
        "der",
        "die",
        "das",
        "van",
        "von",
        "w",
        "z",
    }
)


@lru_cache(maxsize=4096)  # each entry is judged beside every other
def _acronyms(text: str) -> tuple[str, ...]:
    """The words of ``text`` written in capitals only, two to six letters ("CI", "ODTÜ")."""
    return tuple(m.group(1) for m in _ACRONYM.finditer(text) if m.group(1).isupper())


@lru_cache(maxsize=1 << 16)  # an acronym beside each entry, again per pair (tidycost 2)
def _run(acronym: str, text: str) -> tuple[int, int] | None:
    """Where in ``text`` words stand whose first letters spell ``acronym`` (small words
    between them counted or skipped): the span, or None."""
    letters = unicodedata.normalize("NFKC", acronym).casefold()
    words = list(_WORD.finditer(text))
    for start in range(len(words)):
        at, k = start, 0
        while at < len(words) and k < len(letters):
            word = words[at].group(0)
            if word.casefold()[0] == letters[k] and word.casefold() not in STOP_WORDS:
                k += 1
            elif word.casefold() not in _SMALL or at == start:
                break
            at += 1
        if k == len(letters) and at - start >= 2:
            return words[start].start(), words[at - 1].end()
    return None


def spelled(a: str, b: str) -> tuple[str, str, str] | None:
    """``a`` and ``b`` with each acronym one of them writes put in place of the words the
    other spells it out in, and what was put for what ("CI = Continuous integration");
    None when neither spells out an acronym of the other."""
    texts = [a, b]
    said: list[str] = []
    for side in (0, 1):
        other = 1 - side
        for acronym in _acronyms(texts[side]):
            if acronym in _acronyms(texts[other]):
                continue
            span = _run(acronym, texts[other])
            if span is None:
                continue
            start, end = span
            said.append(f"{acronym} = {texts[other][start:end]}")
            texts[other] = texts[other][:start] + acronym + texts[other][end:]
    if not said:
        return None
    return texts[0], texts[1], "; ".join(said)
