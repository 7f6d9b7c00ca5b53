"""Unicode handling for matching text: invisible characters, normalisation, confusables.

The threat scanner (:mod:`mnemic.scan`) reads text through it, and so does the check
that an entry imitates mnemic's own placeholder (:mod:`mnemic.curated.placeholder`),
which runs at every load: it lives outside the scanner so that a load whose entries the
verdict cache knows clean imports none of the scanner. Stdlib only.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "INVISIBLE_CHARS",
    "TAG_CHARS",
    "VARIATION_SELECTORS_SUPPLEMENT",
    "fold",
    "invisible_ids",
    "invisible_name",
    "mixed_script_words",
    "strip_for_matching",
]

# Zero-width and formatting characters that render as nothing but reach the model.
_NAMED_INVISIBLE = (
    "\u00ad"  # soft hyphen
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160"  # hangul choseong / jungseong fillers
    "\u17b4\u17b5"  # khmer inherent vowels
    "\u180b\u180c\u180d\u180e\u180f"  # mongolian free variation selectors, vowel separator
    "\u200b\u200c\u200d"  # zero-width space, non-joiner, joiner
    "\u202a\u202b\u202c\u202d\u202e"  # bidi embeddings and overrides (LRE RLE PDF LRO RLO)
    "\u2060\u2061\u2062\u2063\u2064"  # word joiner, invisible operators
    "\u2066\u2067\u2068\u2069"  # bidi isolates (LRI RLI FSI PDI)
    "\u206a\u206b\u206c\u206d\u206e\u206f"  # deprecated format characters
    "\u3164"  # hangul filler
    "\ufeff"  # zero-width no-break space / byte order mark
    "\uffa0"  # halfwidth hangul filler
    "\ufff9\ufffa\ufffb"  # interlinear annotation controls
    "\U0001d173\U0001d174\U0001d175\U0001d176\U0001d177\U0001d178\U0001d179\U0001d17a"
)

#: Unicode "tag" characters (U+E0000-U+E007F): invisible ASCII look-alikes used to smuggle text.
TAG_CHARS = frozenset(chr(c) for c in range(0xE0000, 0xE0080))
#: Variation selectors 17-256 (U+E0100-U+E01EF): can encode hidden bytes after any character.
VARIATION_SELECTORS_SUPPLEMENT = frozenset(chr(c) for c in range(0xE0100, 0xE01F0))

#: Every character reported as ``invisible_unicode``.
INVISIBLE_CHARS = frozenset(_NAMED_INVISIBLE) | TAG_CHARS | VARIATION_SELECTORS_SUPPLEMENT

# Directional marks (LRM, RLM, ALM) are routine in Hebrew and Arabic text and cannot hide
# or reorder text, so they are not reported; like every invisible character they are
# still removed before pattern matching.
_DIRECTION_MARKS = "\u200e\u200f\u061c"


# The zero-width non-joiner and joiner are part of the spelling in the Arabic script
# (Persian writes می‌خواهم with a ZWNJ), in the Indic scripts, and (the joiner) inside
# emoji sequences: there they are not reported. Anywhere else they are.
_JOINER_SCRIPTS = (
    (0x0600, 0x06FF),
    (0x0750, 0x077F),
    (0x08A0, 0x08FF),
    (0x0900, 0x0DFF),
    (0xFB50, 0xFDFF),
    (0xFE70, 0xFEFF),
)


def _joins(ch: str, emoji: bool) -> bool:
    cp = ord(ch)
    if emoji and (cp >= 0x1F000 or 0x2600 <= cp <= 0x27BF or cp == 0xFE0F):
        return True
    # A letter or a combining mark of those scripts: their blocks also hold invisible
    # format characters (U+0600-U+0605, U+08E2...), digits and punctuation, next to which
    # a joiner spells nothing.
    if not any(lo <= cp <= hi for lo, hi in _JOINER_SCRIPTS):
        return False
    return unicodedata.category(ch)[0] in ("L", "M")


def _orthographic(text: str, ch: str) -> bool:
    """Whether every ``ch`` (ZWNJ or ZWJ) in ``text`` sits inside a word of a script that
    spells with it."""
    emoji = ch == "\u200d"
    i = text.find(ch)
    while i != -1:
        inside = 0 < i < len(text) - 1
        if not (inside and _joins(text[i - 1], emoji) and _joins(text[i + 1], emoji)):
            return False
        i = text.find(ch, i + 1)
    return True


def invisible_ids(text: str) -> list[tuple[int, str]]:
    """``(sort key, finding id)`` for each invisible character present, by code point.

    Each named character gets its own id (``invisible_u200b``); the tag block and the
    variation-selector supplement are reported once each (``invisible_tag_chars``,
    ``invisible_variation_selectors``) since smuggled text uses dozens of them. A zero-width
    non-joiner or joiner used as spelling (Arabic and Indic scripts, emoji sequences) is
    not reported.
    """
    present = INVISIBLE_CHARS.intersection(text)
    if not present:
        return []
    out: dict[str, int] = {}
    for ch in present:
        if ch in "\u200c\u200d" and _orthographic(text, ch):
            continue
        cp = ord(ch)
        if 0xE0000 <= cp <= 0xE007F:
            key = "invisible_tag_chars"
        elif 0xE0100 <= cp <= 0xE01EF:
            key = "invisible_variation_selectors"
        else:
            key = f"invisible_u{cp:04x}"
        if key not in out or cp < out[key]:
            out[key] = cp
    return sorted(((cp, key) for key, cp in out.items()))


def invisible_name(finding_id: str) -> str:
    """A readable description of an ``invisible_*`` finding id."""
    if finding_id == "invisible_tag_chars":
        return "Unicode tag characters (U+E0000-U+E007F) that can spell hidden ASCII text"
    if finding_id == "invisible_variation_selectors":
        return "variation selectors (U+E0100-U+E01EF) that can encode hidden bytes"
    try:
        cp = int(finding_id.removeprefix("invisible_u"), 16)
    except ValueError:
        return "an invisible character"
    name = unicodedata.name(chr(cp), "unnamed")
    return f"invisible character U+{cp:04X} {name}"


# Characters removed before pattern matching: combining marks (diacritics, so that
# "ìgnóre" reads as "ignore") and the invisible characters themselves (so that
# "ig\u200bnore" still matches "ignore").
_COMBINING_RANGES = (
    (0x0300, 0x036F),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x20D0, 0x20FF),
    (0xFE20, 0xFE2F),
)
_STRIP: dict[int, None] = {cp: None for lo, hi in _COMBINING_RANGES for cp in range(lo, hi + 1)}
_STRIP.update({ord(c): None for c in INVISIBLE_CHARS})
_STRIP.update({ord(c): None for c in _DIRECTION_MARKS})

# Letters of other scripts that look like Latin letters. A word that mixes these with
# Latin letters is reported as a homoglyph; all of them are folded to Latin for matching.
# Deliberately absent: Greek mu (used for "micro", e.g. "5 μs") and letters that only
# vaguely resemble Latin ones.
_FOREIGN_CONFUSABLES = {
    # Cyrillic lower case
    "а": "a", "в": "b", "г": "r", "е": "e", "ё": "e", "і": "i", "ї": "i", "ј": "j",
    "к": "k", "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l",
    "ү": "y", "ѵ": "v", "ь": "b",
    # Cyrillic upper case
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "І": "I", "Ї": "I", "Ј": "J", "К": "K",
    "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "У": "Y",
    "Ѕ": "S", "Ԛ": "Q", "Ԝ": "W", "Һ": "H", "Ӏ": "I", "Ү": "Y",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "α": "a", "ε": "e",
    "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x",
    "ω": "w",
    # Armenian
    "օ": "o", "ս": "u", "ո": "n", "հ": "h", "զ": "q", "ց": "g", "Օ": "O", "Ս": "U",
}  # fmt: skip

# Latin-script look-alikes (IPA letters, small capitals, dotless i): not a foreign script,
# so no "mixed script" finding, but folded for matching.
_LATIN_LOOKALIKES = {
    "ı": "i", "ȷ": "j", "ɑ": "a", "ɡ": "g", "ɩ": "i", "ɪ": "i", "ʏ": "y", "ʀ": "r",
    "ʜ": "h", "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ᴊ": "j",
    "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ꞯ": "q", "ꜱ": "s",
    "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ᴢ": "z", "ʋ": "v", "ɾ": "r",
}  # fmt: skip

_FOLD = str.maketrans({**_LATIN_LOOKALIKES, **_FOREIGN_CONFUSABLES})
_FOREIGN = frozenset(_FOREIGN_CONFUSABLES)


def strip_for_matching(text: str) -> str:
    """Compatibility-normalise, drop diacritics and invisible characters.

    NFKD folds full-width, mathematical and other compatibility forms to their plain
    letters (exactly what NFKC does), then combining marks and invisible characters are
    removed, and NFC recomposes what is left (Hangul, for instance).
    """
    out = unicodedata.normalize("NFKD", text).translate(_STRIP)
    if out.isascii():
        return out
    return unicodedata.normalize("NFC", out)


def fold(text: str) -> str:
    """Replace look-alike letters of other scripts by the Latin letter they imitate."""
    return text.translate(_FOLD)


def mixed_script_words(text: str, limit: int = 3) -> list[str]:
    """Words (letter runs) that mix Latin letters with look-alike letters of another script.

    ``text`` should already be through :func:`strip_for_matching`. Returns at most
    ``limit`` words.
    """
    if _FOREIGN.isdisjoint(text):
        return []
    found: list[str] = []
    for token in text.split():
        if _FOREIGN.isdisjoint(token):
            continue
        run: list[str] = []
        for ch in token + " ":
            if ch.isalpha():
                run.append(ch)
                continue
            if run:
                word = "".join(run)
                run = []
                if _is_mixed(word):
                    found.append(word)
                    if len(found) >= limit:
                        return found
    return found


def _is_mixed(word: str) -> bool:
    has_latin = any("a" <= c <= "z" or "A" <= c <= "Z" for c in word)
    return has_latin and not _FOREIGN.isdisjoint(word)
