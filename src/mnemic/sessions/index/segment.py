"""The one segmentation function shared by indexing and querying.

Full-text engines split text on spaces and punctuation. That loses two kinds of words:

* Chinese, Japanese and Korean text has no spaces, so a whole run of ideographs becomes one
  token and a two-character word inside it is never found. :func:`segment` rewrites each
  CJK run as its overlapping bigrams followed by its last character (``记忆文件`` becomes
  ``记忆 忆文 文件 件``), so any 2-character word is a token and a longer word is a phrase
  of bigrams; the distinct characters of the text are listed apart (``chars``) so that a
  one-character word is a single lookup too.
* E-mail addresses, URLs, paths, version strings and identifiers joined by ``-``, ``_``,
  ``.`` and friends (*compounds*) are split into parts. The parts stay in the text (so
  ``example`` finds ``alice@example.com``) and each compound is also emitted whole, as one
  token of the auxiliary column, so ``alice@example.com`` can be matched exactly.

The text is NFKC-normalised first (full-width Latin, ligatures); case and accents are folded
by the full-text tokenizer itself (``unicode61 remove_diacritics 2``), the same way at index
and query time. Connector characters are *token characters* of that tokenizer, which is why
they are replaced by spaces in the running text and kept only inside whole compounds.

Anything that changes the tokens produced here must bump :data:`SEGMENTER_VERSION`: stores
record the segmenter id and version and rebuild their index when they differ.
"""

from __future__ import annotations

import operator
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

__all__ = [
    "CJK_RUN",
    "CONNECTORS",
    "DEFAULT_SEGMENTER",
    "SEGMENTER_ID",
    "SEGMENTER_VERSION",
    "BigramSegmenter",
    "QueryTokens",
    "Segmented",
    "Segmenter",
    "has_cjk",
    "segment",
    "segment_query",
]

SEGMENTER_ID = "mnemic-bigram"
SEGMENTER_VERSION = 2

CONNECTORS = "-_.@/:+~#%?=&"
"""Characters that join the parts of a compound (and are token characters of the index)."""

MAX_FIELD_CHARS = 200_000
"""Characters of one field that are indexed (the rest of a huge tool output is not)."""
MAX_WHOLE_CHARS = 200
"""Compounds longer than this are indexed by their parts only."""

# Hiragana, Katakana (+ prolonged sound mark), CJK Unified Ideographs and extension A,
# compatibility ideographs, Hangul syllables, iteration marks, supplementary ideographs.
_CJK_CLASS = (
    "\u3005\u3006\u3007\u303b"
    "\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\uac00-\ud7af"
    "\U00020000-\U0003134f"
)
CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
"""A run of Chinese, Japanese or Korean characters."""
_CJK_RUN = CJK_RUN
_CJK_ANY = re.compile(f"[{_CJK_CLASS}]")
_CONN_CLASS = re.escape(CONNECTORS)
# A compound: word parts (letters/digits, no underscore) joined by runs of connectors.
_COMPOUND = re.compile(rf"[^\W_]+(?:[{_CONN_CLASS}]+[^\W_]+)+")
_HAS_CONNECTOR = re.compile(rf"[^\W_][{_CONN_CLASS}]+[^\W_]")
_TO_SPACE = str.maketrans(dict.fromkeys(CONNECTORS + '"', " "))
_TO_SPACE_RE = re.compile(f'[{_CONN_CLASS}"]+')
# CJK and full-width punctuation: a separator either way, and cheaper to drop before NFKC.
_WIDE_PUNCT = re.compile(
    "[\u3000-\u3004\u3008-\u3020\u3030\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+"
)


def has_cjk(text: str) -> bool:
    """Whether ``text`` contains a Chinese, Japanese or Korean character."""
    return not text.isascii() and _CJK_ANY.search(text) is not None


def _normalize(text: str) -> str:
    if len(text) > MAX_FIELD_CHARS:
        text = text[:MAX_FIELD_CHARS]
    if not text.isascii():
        text = _WIDE_PUNCT.sub(" ", text)
        if not unicodedata.is_normalized("NFKC", text):
            text = unicodedata.normalize("NFKC", text)
    return text


def _bigrams(run: str, *, closed: bool) -> list[str]:
    """Tokens of one CJK run: overlapping bigrams, then the last character if ``closed``."""
    out = list(map(operator.add, run, run[1:]))
    if closed or len(run) == 1:
        out.append(run[-1])
    return out


def _index_run(match: re.Match[str]) -> str:
    run = match.group()
    if len(run) == 1:
        return f" {run} "
    return " " + " ".join(map(operator.add, run, run[1:])) + f" {run[-1]} "


@dataclass(frozen=True, slots=True)
class Segmented:
    """Index form of one text: the running ``body``, its whole ``compounds`` and its
    distinct CJK characters (``chars``, so that a one-character query is one lookup)."""

    body: str
    compounds: tuple[str, ...]
    chars: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class QueryTokens:
    """Query form of one search term.

    ``tokens`` form a phrase (adjacent tokens in order); ``prefix`` marks the last token as
    a prefix; ``whole`` is the compound as one token when the term is a compound.
    """

    tokens: tuple[str, ...]
    prefix: bool = False
    whole: str | None = None


def segment(text: str | None) -> Segmented:
    """Index form of ``text`` (see the module docstring). Deterministic and idempotent."""
    if not text:
        return Segmented("", ())
    text = _normalize(text)
    compounds: tuple[str, ...] = ()
    if _HAS_CONNECTOR.search(text):
        seen = dict.fromkeys(m for m in _COMPOUND.findall(text) if len(m) <= MAX_WHOLE_CHARS)
        compounds = tuple(seen)
    if text.isascii():
        return Segmented(text.translate(_TO_SPACE), compounds)
    chars: tuple[str, ...] = ()
    if _CJK_ANY.search(text):
        chars = tuple(dict.fromkeys(_CJK_ANY.findall(text)))
        text = _CJK_RUN.sub(_index_run, text)
    return Segmented(_TO_SPACE_RE.sub(" ", text), compounds, chars)


def segment_query(term: str) -> QueryTokens:
    """Query form of one search term, consistent with :func:`segment`.

    A CJK run that ends the term stays open on the right (the text may continue it), so its
    trailing unigram is left out and a lone final CJK character after other tokens becomes
    a prefix (the bigrams that start with it, or the unigram that ends a run). A term that
    is one CJK character is that character, found among the indexed ``chars``.
    """
    text = _normalize(term)
    bare = text.strip(CONNECTORS + " \t")
    if len(bare) == 1 and _CJK_ANY.match(bare):
        return QueryTokens((bare,))
    whole = None
    compound = _COMPOUND.fullmatch(text.strip(CONNECTORS + " "))
    if compound is not None and len(compound.group()) <= MAX_WHOLE_CHARS:
        whole = compound.group()
    prefix = False
    if not text.isascii() and _CJK_ANY.search(text):
        pieces: list[str] = []
        pos = 0
        stripped_end = len(text.rstrip(CONNECTORS + " \t"))
        for m in _CJK_RUN.finditer(text):
            pieces.append(text[pos : m.start()])
            run = m.group()
            at_end = m.end() >= stripped_end
            if at_end and len(run) == 1:
                prefix = True
            pieces.append(" " + " ".join(_bigrams(run, closed=not at_end)) + " ")
            pos = m.end()
        pieces.append(text[pos:])
        text = "".join(pieces)
    tokens = tuple(t for t in text.translate(_TO_SPACE).split() if _is_token(t))
    if prefix and (not tokens or not has_cjk(tokens[-1])):
        prefix = False
    return QueryTokens(tokens, prefix, whole)


def _is_token(piece: str) -> bool:
    """Whether the full-text tokenizer would keep anything of ``piece``."""
    return any(ch.isalnum() for ch in piece)


@runtime_checkable
class Segmenter(Protocol):
    """A segmentation scheme: an id and version recorded by stores, and its two forms."""

    id: str
    version: int

    def segment(self, text: str | None) -> Segmented:
        """Index form of a text."""
        ...

    def segment_query(self, term: str) -> QueryTokens:
        """Query form of one search term."""
        ...


class BigramSegmenter:
    """The default :class:`Segmenter`: CJK bigrams plus whole compounds."""

    id = SEGMENTER_ID
    version = SEGMENTER_VERSION

    def segment(self, text: str | None) -> Segmented:
        """Index form of ``text``; see :func:`segment`."""
        return segment(text)

    def segment_query(self, term: str) -> QueryTokens:
        """Query form of ``term``; see :func:`segment_query`."""
        return segment_query(term)

    @property
    def key(self) -> str:
        """``id/version``, as stored in a database's meta table."""
        return f"{self.id}/{self.version}"

    def __repr__(self) -> str:
        return f"BigramSegmenter({self.key})"


DEFAULT_SEGMENTER = BigramSegmenter()


def join_fields(parts: Iterable[str | None]) -> str:
    """Join optional text fields with newlines, skipping empty ones."""
    return "\n".join(p for p in parts if p)
