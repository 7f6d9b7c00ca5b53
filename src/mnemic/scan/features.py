"""Features of the learned classifier: hashed word and character n-grams.

:func:`features` turns text into a list of bucket indices; the training script
(``bench/_scan_training.py``, not in the wheel) fits on it and the runtime scorer
(:mod:`mnemic.scan.classifier`) computes the same thing in pieces it can cache, so the
model always sees text the way it was trained on. Hashing is CRC-32 (``binascii.crc32``,
equal to ``zlib.crc32``; the same on every platform and interpreter run, unlike
``hash()``), with a different start value per feature kind so that a word and a
character n-gram with the same bytes land in different buckets.

The text is NFKC-normalised (non-ASCII only), stripped of invisible characters and
lower-cased, and every digit reads as ``0``. Then, each counted once however often it
repeats (a note that says one harmless phrase forty times scores as that phrase does):

* the distinct word bigrams (a word is a run of letters or digits; the punctuation of
  the common scripts separates words);
* for each distinct *token* (a run of non-space characters, punctuation included): its
  words' unigrams and the byte n-grams (n = :data:`BYTE_NGRAMS`) of the token padded
  with a space on each side. For Latin text these are character n-grams; a CJK character
  is three bytes, so a 4-gram spans the end of one character and the whole next one,
  which plays the part of a character bigram.

Because everything but the bigrams depends on one token alone, the scorer keeps each
token's weight sum in a cache: a note of familiar words costs a few dictionary look-ups
and one ``crc32`` per word pair.
"""

from __future__ import annotations

import unicodedata
from binascii import crc32  # the same CRC-32 as zlib.crc32; binascii is loaded anyway
from itertools import pairwise

from ..unicode_fold import INVISIBLE_CHARS

__all__ = [
    "BUCKET_BITS",
    "BYTE_NGRAMS",
    "FEATURE_VERSION",
    "NORM_POWER",
    "bigram_features",
    "features",
    "normalise",
    "token_features",
    "words",
]

#: log2 of the number of weight buckets.
BUCKET_BITS = 18
#: Orders of the byte n-grams.
BYTE_NGRAMS = (4,)
#: Changes whenever :func:`features` or :data:`NORM_POWER` change meaning (the model file
#: records it).
FEATURE_VERSION = 5
#: A text's score is bias + (sum of its feature weights) / n ** NORM_POWER, n its feature
#: count. On dev, 0.5 separates attacks from honest text better than 0.75 or 1.0 (the
#: mean); its weakness, a long run of mildly suspicious tokens adding up, is met with
#: chunking and with generated runs of such tokens among the benign rows.
NORM_POWER = 0.5

_MASK = (1 << BUCKET_BITS) - 1
_SEED_WORD = 0x5EED_0001
_SEED_BIGRAM = 0x5EED_0002
_SEED_BYTES = 0x5EED_0100

# ASCII letters and digits kept (lower case), everything else a separator.
_ASCII_WORDS = bytes(
    c + 32 if 65 <= c <= 90 else c if (48 <= c <= 57 or 97 <= c <= 122) else 32 for c in range(256)
)
# Punctuation of other scripts that separates words.
_UNICODE_SEPARATORS = str.maketrans(
    {
        c: " "
        for c in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
        "\u3000\u3001\u3002\uff0c\uff01\uff1f\uff1a\uff1b\u201c\u201d\u2018\u2019\uff08\uff09"
        "\u300a\u300b\u3010\u3011\u300c\u300d\u300e\u300f\u2014\u2026\u00bf\u00a1\u00ab\u00bb"
        "\u060c\u061f\u0964"
    }
)


def words(low: str) -> list[bytes]:
    """The words of lower-cased text, as UTF-8 bytes."""
    if low.isascii():
        return low.encode("ascii").translate(_ASCII_WORDS).split()
    return [w.encode("utf-8") for w in low.translate(_UNICODE_SEPARATORS).split()]


# Every ASCII digit reads as 0: numbers are not words, and an enumeration (word1 word2
# ... word4000, a list of ids) must not read as thousands of distinct words.
_DIGITS = str.maketrans("123456789", "000000000")


def normalise(text: str) -> str:
    """Lower case, digits as ``0``; for non-ASCII text also NFKC (full-width and other
    compatibility forms) without invisible characters."""
    if not text.isascii():
        if not INVISIBLE_CHARS.isdisjoint(text):
            text = "".join(c for c in text if c not in INVISIBLE_CHARS)
        text = unicodedata.normalize("NFKC", text)
    return text.lower().translate(_DIGITS)


def token_features(token: str) -> list[int]:
    """Buckets of one lower-cased token: its words, and the byte n-grams of the token
    with a space on each side."""
    out = [crc32(w, _SEED_WORD) & _MASK for w in words(token)]
    data = b" " + token.encode("utf-8") + b" "
    for n in BYTE_NGRAMS:
        seed = _SEED_BYTES + n
        out += [crc32(data[i : i + n], seed) & _MASK for i in range(len(data) - n + 1)]
    return out


def bigram_features(low: str) -> set[int]:
    """Buckets of the distinct word bigrams of lower-cased text."""
    ws = words(low)
    if len(ws) < 2:
        return set()
    return {crc32(pair, _SEED_BIGRAM) & _MASK for pair in map(b" ".join, pairwise(ws))}


def features(text: str) -> list[int]:
    """Bucket indices of ``text``: its distinct bigrams, then each distinct token's
    :func:`token_features` (a bucket can repeat across tokens)."""
    low = normalise(text)
    out = list(bigram_features(low))
    for token in dict.fromkeys(low.split()):
        out += token_features(token)
    return out
