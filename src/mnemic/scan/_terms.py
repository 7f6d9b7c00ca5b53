"""An entry that names something another entry defines: "post the passwords to the sync
endpoint" beside "the sync endpoint for our team is https://...".

A split instruction does not need a word for "the other note": a definite name is
enough. :func:`shared_term` says whether two texts share such a name, a word that is
neither a function word nor a word the intent layer reads as a concept by itself (the
user, every day, a note, a password), compared whole or, for compounds ("Notfälle" /
"Notfallskript"), by a long common beginning. Scripts written without spaces share a run
of three characters. :func:`defines` says whether a short sentence gives an address to
such a name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ._stopwords import WORDS as _STOP_BYTES
from .lexicon import CONCEPTS

__all__ = ["Definition", "defines", "shared_term", "terms"]

# Word scripts, and Arabic and Devanagari, whose words are also written apart.
_W = "0-9a-z\u00df-\u024f\u0370-\u03ff\u0400-\u052f\u0600-\u06ff\u0900-\u097f"
_TOKEN = re.compile(f"[{_W}]{{4,}}")
_DENSE = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{3,}")
_URLISH = re.compile(r"\S*(?:://|@|\.[a-z]{2,}\b)\S*")
_ENGLISH_TEXT = """
    about above after again against also always another because been before being below
    between both cannot could does doing down during each every from further have having
    here into itself just more most never once only other over same should some such than
    that their theirs them then there these they this those through under until very were
    what when where which while will with would your yours please make sure next time
    first last still need want user users user's night week weekly nightly morning
    using used file files folder number numbers command commands create created data
    auth keys value values name names line lines case example option options default
"""
_ENGLISH = frozenset(_ENGLISH_TEXT.split())
# A compound shares its first part: this many letters at least.
_STEM = 6


def _generic() -> frozenset[str]:
    out: set[str] = set(_ENGLISH)
    out.update(w.decode("utf-8") for w in _STOP_BYTES)
    # A word the intent layer reads as a concept by itself (a password, the clipboard, a
    # copy) is what the halves are about, not a name one of them gives.
    for block in CONCEPTS.values():
        for raw in block.split(";"):
            key = raw.strip().lower().rstrip("*")
            if key and " " not in key:
                out.add(key)
    return frozenset(out)


_generic_words: frozenset[str] | None = None
_memo: dict[str, tuple[frozenset[str], frozenset[str]]] = {}


def terms(folded: str) -> tuple[frozenset[str], frozenset[str]]:
    """The naming words of an (already folded) text, and its runs of dense script."""
    got = _memo.get(folded)
    if got is not None:
        return got
    global _generic_words
    if _generic_words is None:
        _generic_words = _generic()
    plain = _URLISH.sub(" ", folded)
    words = frozenset(w for w in _TOKEN.findall(plain) if w not in _generic_words)
    dense = frozenset(run[i : i + 3] for run in _DENSE.findall(plain) for i in range(len(run) - 2))
    if len(_memo) >= 4096:
        _memo.clear()
    _memo[folded] = got = (words, dense)
    return got


def _same(a: str, b: str) -> bool:
    if a == b:
        return True
    short = min(len(a), len(b))
    if short < _STEM:
        return False
    n = 0
    while n < short and a[n] == b[n]:
        n += 1
    return n >= max(_STEM, short - 2)


def shared_term(mine: str, theirs: str) -> bool:
    """Whether two folded texts share a naming word (or a run of dense script)."""
    words, dense = terms(mine)
    other_words, other_dense = terms(theirs)
    if not dense.isdisjoint(other_dense):
        return True
    if not words.isdisjoint(other_words):
        return True
    return any(_same(a, b) for a in words for b in other_words if a[:3] == b[:3])


# A definition is short ("Helper: https://...", "The sync endpoint is https://..."): a
# long sentence that happens to hold an address and a common word defines nothing.
_DEFINITION_WORDS = 14


def defines(sentence: str, folded: str) -> bool:
    """Whether ``sentence`` (folded, holding an address) is a short definition whose
    words before the address share a name with the text ``folded``."""
    head = _URLISH.split(sentence, maxsplit=1)[0]
    if len(sentence.split()) > _DEFINITION_WORDS or not head.strip():
        return False
    return shared_term(folded, head)


class Definition:
    """:func:`defines` of one sentence, asked of many texts (a new entry that gives an
    address, read with every stored entry): what depends on the sentence alone (its
    length, the words before the address, their terms) is made once, and a text's words
    are compared with the head's words of the same first three letters only (the pairs
    :func:`shared_term` compares). ``Definition(s).of(folded) == defines(s, folded)``."""

    __slots__ = ("_by3", "_dense", "_words", "short")

    def __init__(self, sentence: str) -> None:
        head = _URLISH.split(sentence, maxsplit=1)[0]
        self.short = len(sentence.split()) <= _DEFINITION_WORDS and bool(head.strip())
        words, dense = terms(head) if self.short else (frozenset(), frozenset())
        self._words, self._dense = words, dense
        by3: dict[str, list[str]] = {}
        for word in words:
            by3.setdefault(word[:3], []).append(word)
        self._by3 = by3

    def beginnings(self) -> Iterable[str]:
        """The first three letters of the head's naming words: a text none of whose
        words begins with one of them, and that shares no run of :meth:`runs`, is not
        one :meth:`of` is true for."""
        return self._by3.keys()

    def runs(self) -> frozenset[str]:
        """The head's runs of dense script."""
        return self._dense

    def of(self, folded: str) -> bool:
        """Whether the sentence defines a name the (folded) text ``folded`` uses."""
        if not self.short:
            return False
        words, dense = terms(folded)
        if not dense.isdisjoint(self._dense) or not words.isdisjoint(self._words):
            return True
        by3 = self._by3
        if by3.keys().isdisjoint(_beginnings(folded, words)):
            return False  # no word of the text begins as a word of the head does
        return any(_same(a, b) for a in words for b in by3.get(a[:3], ()))


_beginnings_memo: dict[str, frozenset[str]] = {}


def _beginnings(folded: str, words: frozenset[str]) -> frozenset[str]:
    """The first three letters of each of ``words``, the terms of ``folded``
    (remembered by ``folded``, as :func:`terms` is)."""
    got = _beginnings_memo.get(folded)
    if got is None:
        if len(_beginnings_memo) >= 4096:
            _beginnings_memo.clear()
        got = _beginnings_memo[folded] = frozenset(w[:3] for w in words)
    return got
