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
(FTS5's Porter tokenizer, the same lexemes on PostgreSQL), so nothing here changes what a
store holds. A question in another language than English also matches its words' other
inflections in that language through the index's own vocabulary (:func:`inflected`).
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

import snowballstemmer

from .query import FUNCTION_WORDS, MAX_TERMS, STOP_WORDS as ENGLISH_STOP_WORDS, Query, Term
from .segment import CJK_RUN

__all__ = [
    "FORMS",
    "LANGUAGES",
    "STOP_WORDS",
    "Vocabulary",
    "content_word_keys",
    "inflected",
    "text_keys",
    "word_keys",
    "words",
]

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


# --- a question's words in their other inflections ----------------------------------------

FORMS = 4
"""Other forms of one word of a question a search also matches (the ones most messages
hold first): a word has a handful of inflections in one conversation, and each form is
one more listing of the index."""
SHORTEST_STEM = 3
"""A stem shorter than this is not looked up (two letters begin too many words)."""

Vocabulary = Callable[[Sequence[str]], Mapping[str, Sequence[tuple[str, int]]]]
"""A store's index terms beginning with each of some prefixes, with the number of
messages holding each: ``{prefix: [(term, messages), ...]}``."""


def _fold(text: str) -> str:
    """``text`` with the accents of its Latin letters taken off, as the index's tokenizer
    takes them off (``remove_diacritics``: "café" is held as "cafe", but Cyrillic "й" and
    "ё" stay)."""
    return "".join(_fold_char(c) for c in text)


@lru_cache(maxsize=4096)
def _fold_char(c: str) -> str:
    if c.isascii() or ord(c) >= 0x250:  # beyond the Latin blocks
        return c
    return "".join(d for d in unicodedata.normalize("NFKD", c) if not unicodedata.combining(d))


def _stemmer(language: str) -> Any:
    found: dict[str, Any] | None = getattr(_local, "by_language", None)
    if found is None:
        found = _local.by_language = {}
    stemmer = found.get(language)
    if stemmer is None:
        stemmer = found[language] = snowballstemmer.stemmer(language)
    return stemmer


@lru_cache(maxsize=1 << 16)
def _stem(word: str, language: str) -> str:
    """``word``'s Snowball stem in ``language``, accents folded (as the index folds them)."""
    return _fold(_stemmer(language).stemWord(word.casefold()))


@lru_cache(maxsize=1 << 14)
def _stems(word: str, language: str) -> frozenset[str]:
    """The stems a word of a question is matched by in ``language``: its Snowball stem,
    and in German, where the stemmer leaves a past participle's ``ge-`` in place
    ("gearbeitet" → "gearbeit", "arbeitet" → "arbeit"), the stem with it taken off or
    put on."""
    stem = _stem(word, language)
    out = {stem}
    if language == "german":
        if stem.startswith("ge") and len(stem) - 2 >= 4:
            out.add(stem[2:])
        elif not stem.startswith("ge"):
            out.add("ge" + stem)
    return frozenset(s for s in out if len(s) >= SHORTEST_STEM)


NAMES_UNINFLECTED = frozenset(["french", "spanish", "italian", "portuguese"])
"""Languages that write only names with a capital inside a sentence and do not inflect
them (German capitalises every noun; Russian inflects names)."""


def _inflectable(term: Term, languages: Sequence[str]) -> bool:
    """A plain word of letters (not quoted, a prefix or a compound), not a function word
    of the question's languages, nor a name: a word with a capital in a question of
    :data:`NAMES_UNINFLECTED` ("Marie" is no form of "mars"; a question begins with a
    question word, a function word, more often than with a word that inflects)."""
    if term.phrase or term.prefix or term.whole is not None or len(term.tokens) != 1:
        return False
    word = term.text.casefold()
    if not word.isalpha() or CJK_RUN.search(word):
        return False
    if term.text[:1].isupper() and NAMES_UNINFLECTED.issuperset(languages):
        return False
    return not any(word in FUNCTION_WORDS.get(lang, ()) for lang in languages)


def _own_form(word: str) -> str:
    """The index's own form of ``word`` (its English Porter stem, accents folded)."""
    return _fold(_stemmer("porter").stemWord(_fold(word.casefold())))


def inflected(queries: Sequence[Query], vocabulary: Vocabulary) -> list[Query]:
    """``queries`` with each plain word of a question in another language
    (:attr:`~.query.Query.languages`) also matching its other inflections in that
    language: the index terms that share its Snowball stem there, found among the terms
    the index holds (``vocabulary``, one call for every query) and joined to the word's
    group as alternatives, at most :data:`FORMS` a word (those most messages hold
    first), within :data:`~.query.MAX_TERMS` terms a query. "¿Cuánto tomaba?" also
    matches "toma" and "tomo", "Wo hat Marco gearbeitet?" also "arbeitet". The index
    itself stays as it is (one English Porter stemming), so a question without another
    language (English ones, keyword searches) is searched exactly as before."""
    wanted: dict[tuple[str, tuple[str, ...]], frozenset[str]] = {}
    for query in queries:
        for term in query.terms:
            if query.languages and _inflectable(term, query.languages):
                key = (term.text, query.languages)
                wanted[key] = frozenset().union(
                    *(_stems(term.text, lang) for lang in query.languages)
                )
    if not wanted:
        return list(queries)
    found = vocabulary(sorted(frozenset().union(*wanted.values())))
    out = []
    for query in queries:
        if not query.languages:
            out.append(query)
            continue
        count = len(query.terms)
        groups = []
        for group in query.groups:
            grown = list(group)
            for term in group:
                stems = wanted.get((term.text, query.languages))
                if not stems:
                    continue
                forms = _forms(term.text, stems, query.languages, found)
                for form in forms:
                    if count >= MAX_TERMS:
                        break
                    if all(form != t.text.casefold() for t in grown):
                        grown.append(Term(form, (form,)))
                        count += 1
            groups.append(tuple(grown))
        out.append(replace(query, groups=tuple(groups)))
    return out


def _forms(
    word: str,
    stems: frozenset[str],
    languages: Sequence[str],
    found: Mapping[str, Sequence[tuple[str, int]]],
) -> list[str]:
    """The index terms of ``found`` (under the prefixes ``stems``) that are another form
    of ``word`` in one of ``languages``: the same stem there."""
    own = _own_form(word)
    held: dict[str, int] = {}
    for prefix in stems:
        for term, count in found.get(prefix, ()):
            if term == own or term in held or term in STOP_WORDS or term in ENGLISH_STOP_WORDS:
                continue  # a function word is no form of a word that has a subject
            # the index's form is the stem itself ("habite" is held as "habit", whose
            # French stem is "hab"), or has the same stem
            if term in stems or any(_stem(term, lang) in stems for lang in languages):
                held[term] = count
    ranked = sorted(held.items(), key=lambda kv: (-kv[1], kv[0]))
    return [term for term, _ in ranked[:FORMS]]
