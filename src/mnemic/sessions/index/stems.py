"""Word keys for comparing texts by their words: stems in several languages, CJK bigrams.

Ranking sometimes needs to know which words two texts share (whether a later message
states the same subject as an earlier one; which entries of MEMORY.md hold a query's
words). Exact words miss inflections ("deadlines", "deadline"), so each word is reduced
to its stems by the Snowball stemmers (``snowballstemmer``, a maintained library; no
suffix rules of our own) of the languages in :data:`LANGUAGES`. The language of a short
text cannot be told reliably, so a word keeps its stem in each of them (two or three
distinct keys at most) and two words match when their keys meet. Chinese, Japanese and
Korean runs give their bigrams (as the full-text index does, :mod:`.segment`), so a
two-character word matches wherever it sits.

Stemming is cached per word; the stemmers are per thread (they keep state between calls).
This is for comparing texts at query time; the full-text index keeps its own stemming
(FTS5's Porter tokenizer, PostgreSQL's configuration), so nothing here changes what a
store holds.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import snowballstemmer

from .segment import CJK_RUN

__all__ = ["LANGUAGES", "STOP_WORDS", "content_word_keys", "text_keys", "word_keys", "words"]

LANGUAGES = ("english", "german", "spanish", "french", "italian", "portuguese", "russian")
"""The Snowball stemmers every word is reduced by."""

_WORD = re.compile(r"[^\W\d_]+|\d+(?:[.,:]\d+)*")
_local = threading.local()

STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "am",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "i",
        "me",
        "my",
        "we",
        "our",
        "you",
        "your",
        "he",
        "him",
        "his",
        "she",
        "her",
        "they",
        "them",
        "their",
        "what",
        "which",
        "who",
        "whom",
        "when",
        "where",
        "why",
        "how",
        "do",
        "does",
        "did",
        "done",
        "have",
        "has",
        "had",
        "not",
        "no",
        "so",
        "if",
        "then",
        "than",
        "there",
        "here",
        "just",
        "also",
        "very",
        "can",
        "could",
        "would",
        "should",
        "will",
        "shall",
        "may",
        "might",
        "must",
        "about",
        "into",
        "over",
        "under",
        "again",
        "more",
        "most",
        "some",
        "any",
        "all",
        "each",
        "only",
        "own",
        "same",
        "der",
        "die",
        "das",
        "den",
        "dem",
        "des",
        "ein",
        "eine",
        "einen",
        "einem",
        "einer",
        "und",
        "oder",
        "aber",
        "ist",
        "sind",
        "war",
        "waren",
        "ich",
        "du",
        "er",
        "sie",
        "es",
        "wir",
        "ihr",
        "mein",
        "meine",
        "dein",
        "nicht",
        "wie",
        "was",
        "wer",
        "wo",
        "wann",
        "warum",
        "mit",
        "von",
        "zu",
        "im",
        "am",
        "auf",
        "für",
        "an",
        "bei",
        "aus",
        "nach",
        "um",
        "el",
        "la",
        "los",
        "las",
        "un",
        "una",
        "unos",
        "unas",
        "y",
        "o",
        "pero",
        "es",
        "son",
        "fue",
        "era",
        "yo",
        "tú",
        "él",
        "ella",
        "nosotros",
        "mi",
        "mis",
        "tu",
        "su",
        "sus",
        "que",
        "qué",
        "quién",
        "cómo",
        "dónde",
        "cuándo",
        "por",
        "para",
        "con",
        "de",
        "del",
        "al",
        "en",
        "le",
        "les",
        "une",
        "et",
        "ou",
        "mais",
        "est",
        "sont",
        "était",
        "je",
        "tu",
        "il",
        "elle",
        "nous",
        "vous",
        "ils",
        "mon",
        "ma",
        "mes",
        "ton",
        "ta",
        "son",
        "sa",
        "ses",
        "qui",
        "quoi",
        "où",
        "quand",
        "comment",
        "pour",
        "avec",
        "dans",
        "sur",
        "au",
        "aux",
        "unser",
        "unsere",
        "unseren",
        "unserem",
        "unserer",
        "euer",
        "eure",
        "nuestro",
        "nuestra",
        "nuestros",
        "nuestras",
        "vuestro",
        "vuestra",
        "notre",
        "nos",
        "votre",
        "vos",
        "leur",
        "leurs",
        "и",
        "в",
        "во",
        "не",
        "что",
        "он",
        "она",
        "оно",
        "они",
        "на",
        "я",
        "с",
        "со",
        "как",
        "а",
        "то",
        "это",
        "так",
        "его",
        "её",
        "ее",
        "но",
        "да",
        "ты",
        "к",
        "у",
        "же",
        "вы",
        "мы",
        "за",
        "бы",
        "по",
        "от",
        "из",
        "о",
        "об",
        "для",
        "где",
        "когда",
        "кто",
        "какой",
        "какая",
        "какие",
        "мой",
        "моя",
        "мои",
        "мне",
        "меня",
        "наш",
        "наша",
        "ваш",
        "был",
        "была",
        "было",
        "были",
        "есть",
    ]
)
"""Function words of the stemmed languages: never the subject of a text."""


def _stemmers() -> list[Any]:
    found: list[Any] | None = getattr(_local, "stemmers", None)
    if found is None:
        found = [snowballstemmer.stemmer(lang) for lang in LANGUAGES]
        _local.stemmers = found
    return found


@lru_cache(maxsize=1 << 16)
def word_keys(word: str) -> frozenset[str]:
    """The keys of one word: its stems in :data:`LANGUAGES` (case and accents folded
    after stemming, so an accent the stemmer needs is still there when it runs)."""
    low = word.casefold()
    if not low.isalpha() or CJK_RUN.match(low):
        return frozenset([low])
    out = set()
    for stemmer in _stemmers():
        stem = stemmer.stemWord(low)
        folded = "".join(
            c for c in unicodedata.normalize("NFKD", stem) if not unicodedata.combining(c)
        )
        out.add(folded or low)
    return frozenset(out)


def words(text: str) -> list[str]:
    """The words of ``text``: letters or numbers (``2.3.1`` whole), and the bigrams of
    each CJK run (a run of one character is itself)."""
    out: list[str] = []
    pos = 0
    for m in CJK_RUN.finditer(text):
        out += _WORD.findall(text[pos : m.start()])
        run = m.group()
        out += [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
        pos = m.end()
    out += _WORD.findall(text[pos:])
    return out


def text_keys(text: str, *, limit: int = 2000, stop: bool = True) -> frozenset[str]:
    """Every key of the words of ``text`` (its first ``limit`` characters), function
    words left out when ``stop``."""
    keys: set[str] = set()
    for word in words(unicodedata.normalize("NFKC", text[:limit])):
        if stop and word.casefold() in STOP_WORDS:
            continue
        keys |= word_keys(word)
    return frozenset(keys)


def content_word_keys(texts: Iterable[str]) -> list[frozenset[str]]:
    """The keys of each distinct content word of ``texts`` (a query's terms), in the
    order first met: one set per word, function words left out."""
    out: dict[frozenset[str], None] = {}
    for text in texts:
        for word in words(text):
            if word.casefold() not in STOP_WORDS:
                out.setdefault(word_keys(word))
    return list(out)
