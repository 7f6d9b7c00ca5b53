"""Features of the learned classifier: hashed word and character n-grams.

One function, :func:`features`, turns text into a list of bucket indices; the runtime
scorer (:mod:`mnemic.scan.classifier`) and the training script
(:mod:`mnemic.scan.training`) both call it, so the model always sees text the way it was
trained on. Hashing is ``zlib.crc32`` (the same on every platform and interpreter run,
unlike ``hash()``), with a different start value per feature kind so that a word and a
character n-gram with the same bytes land in different buckets.

Kinds (all on the lower-cased text with runs of whitespace collapsed to one space):

* word unigrams and bigrams (a word is a run of letters or digits; the punctuation of
  the common scripts separates words);
* byte n-grams of the UTF-8 text, n = :data:`BYTE_NGRAMS`. For Latin text these are
  character n-grams; a CJK character is three bytes, so a 4-gram spans the end of one
  character and the whole next one, which plays the part of a character bigram.

Each bucket counts once however often its n-gram repeats (a set, not a bag): a note
that says one harmless phrase forty times must score as that phrase does.

Cost is linear in the text: about one ``crc32`` call per byte per n-gram order.
"""

from __future__ import annotations

from itertools import pairwise
from zlib import crc32

__all__ = ["BUCKET_BITS", "BYTE_NGRAMS", "FEATURE_VERSION", "features"]

#: log2 of the number of weight buckets.
BUCKET_BITS = 18
#: Orders of the byte n-grams.
BYTE_NGRAMS = (4,)
#: Changes whenever :func:`features` changes meaning (the model file records it).
FEATURE_VERSION = 2

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


def _words(low: str) -> list[bytes]:
    if low.isascii():
        return low.encode("ascii").translate(_ASCII_WORDS).split()
    return [w.encode("utf-8") for w in low.translate(_UNICODE_SEPARATORS).split()]


def _normalise(text: str) -> str:
    """NFKC (full-width and other compatibility forms) without invisible characters."""
    import unicodedata

    from ._unicode import INVISIBLE_CHARS

    if not INVISIBLE_CHARS.isdisjoint(text):
        text = "".join(c for c in text if c not in INVISIBLE_CHARS)
    return unicodedata.normalize("NFKC", text)


def features(text: str) -> set[int]:
    """The distinct bucket indices of the hashed n-grams of ``text``.

    Non-ASCII text is first NFKC-normalised and stripped of invisible characters.
    """
    if not text.isascii():
        text = _normalise(text)
    low = " ".join(text.lower().split())
    words = _words(low)
    out = {crc32(w, _SEED_WORD) & _MASK for w in words}
    if len(words) > 1:
        out.update([crc32(b, _SEED_BIGRAM) & _MASK for b in map(b" ".join, pairwise(words))])
    data = b" " + low.encode("utf-8") + b" "
    for n in BYTE_NGRAMS:
        seed = _SEED_BYTES + n
        out.update([crc32(data[i : i + n], seed) & _MASK for i in range(len(data) - n + 1)])
    return out
