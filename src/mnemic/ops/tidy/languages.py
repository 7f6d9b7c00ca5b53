"""Whether two entries are written in two languages, and the words that say an entry
adds to another: read by :mod:`.meaning` (the embedder's gate), :mod:`.across` and
:mod:`.conversions` (split from :mod:`.meaning` in tidy 35, so that :mod:`.across` and
:mod:`.meaning` need not import each other)."""

from __future__ import annotations

import re
from functools import lru_cache

from ...unicode_script import script
from .memo import by_text
from .signals import Profile

__all__ = ["ALSO", "scripts_of", "two_languages_strict"]

ALSO = re.compile(
    r"\b(?:also|too|as well|additionally|außerdem|auch|zusätzlich|además|también|aussi|"
    r"également|en plus|anche|inoltre|ook|eveneens|também|tambem|также|тоже|"
    r"też|także|również|ayrıca)\b|[也还還]|(?<=[\u30a0-\u30ff\u4e00-\u9fff])も|도\b"
)
"""Words that say an entry adds to another ("*also* went to Greece"): two facts."""


_LETTERS = re.compile(r"[^\W\d_]+")
_ONE_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK"}


@lru_cache(maxsize=4096)
def scripts_of(text: str) -> frozenset[str]:
    """The scripts ``text``'s words are written in, by each word's first letter (Han,
    hiragana and katakana as one: Japanese writes all three)."""
    out = set()
    for word in _LETTERS.findall(text):
        name = script(word[0])
        out.add(_ONE_SCRIPT.get(name, name))
    return frozenset(out)


def two_languages_strict(a: Profile, b: Profile) -> bool:
    """Whether ``a`` and ``b`` are written in two languages, read strictly (the cosine
    gate's wider reading is :func:`.across.two_languages_loose`): no script in common ("User
    is allergic to 花生" shares Han with "用户吃花生会过敏", so is not), or one read as
    English and the other as another language (:func:`.quantities.language`). Two
    languages both other than English are not told apart this way: Spanish, Portuguese
    and Catalan share the function words it counts, and short entries in one of them
    read as another."""
    return _keys_differ(_language_key(a.text), _language_key(b.text))


@lru_cache(maxsize=1 << 16)
def _keys_differ(ka: tuple[frozenset[str], str], kb: tuple[frozenset[str], str]) -> bool:
    """:func:`two_languages_strict` of two texts' keys (few keys occur: kept per pair of keys)."""
    (sa, la), (sb, lb) = ka, kb
    return bool(sa and sb and not sa & sb) or bool(la and lb and la != lb and "en" in (la, lb))


@by_text
def _language_key(text: str) -> tuple[frozenset[str], str]:
    """What :func:`two_languages_strict` reads of one text: its scripts and the language it
    reads as. Kept per text, and the answer per two keys (tidycost 2: asked of every pair
    by three rules, it read both texts each time; few keys occur)."""
    from .quantities import language

    return scripts_of(text), language(text)
