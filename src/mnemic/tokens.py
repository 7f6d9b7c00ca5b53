"""The one token estimate of mnemic (curated memory usage, session messages, the console).

A guide, not a tokenizer: about four characters per token for ASCII text, one token per
character for Chinese, Japanese and Korean (and other characters that take three or four
bytes in UTF-8), half a token for two-byte characters (accented Latin, Greek, Cyrillic).
Computed from encoded lengths (C speed, no loop over characters).
"""

from __future__ import annotations

__all__ = ["estimate_tokens", "tokens_of_counts"]


def estimate_tokens(text: str | None) -> int:
    """Rough token count of ``text`` (0 for None or empty); see the module docstring."""
    if not text:
        return 0
    n = len(text)
    if text.isascii():
        return (n + 3) // 4
    ascii_chars = len(text.encode("ascii", "ignore"))
    extra = len(text.encode("utf-8", "surrogatepass")) - n
    return tokens_of_counts(ascii_chars, n - ascii_chars, extra)


def tokens_of_counts(ascii_chars: int, wide: int, extra: int) -> int:
    """:func:`estimate_tokens` of a text known by its counts: ``ascii_chars`` ASCII
    characters, ``wide`` others, and ``extra`` bytes its UTF-8 takes beyond one per
    character (for a caller that knows them without encoding the text)."""
    three_plus = max(0, extra - wide)
    two = max(0, wide - three_plus)
    return (ascii_chars + 3) // 4 + three_plus + (two + 1) // 2
