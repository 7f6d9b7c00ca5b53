"""Usage of a target: characters against the budget, entry count, a token estimate.

The budget is in characters (model-independent). The token estimate is a guide only: it
knows that Chinese, Japanese and Korean text costs about one token per character while
English costs about one token per four.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tokens import estimate_tokens, tokens_of_counts
from .entries import all_ascii, char_count, serialize

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["Usage", "estimate_tokens", "label"]

_LABELS = {"memory": "MEMORY", "user": "USER PROFILE"}


def _tokens(entries: Sequence[str], chars: int) -> int:
    """``estimate_tokens(serialize(entries))`` (``chars``: their :func:`char_count`).
    Entries all ASCII are counted without joining and encoding their text (a pass per
    entry per write of a large target): only their delimiters' section signs are not
    ASCII, one character and two UTF-8 bytes each; whether they are is known for an
    add's entries from the entries it added to (:func:`~.entries.all_ascii`)."""
    if len(entries) > 1 and all_ascii(entries):
        signs = len(entries) - 1
        return tokens_of_counts(chars - signs, signs, signs)
    return estimate_tokens(serialize(entries))


def label(target: str) -> str:
    """Display name of a target: ``MEMORY`` or ``USER PROFILE``."""
    return _LABELS.get(target, target.upper())


class Usage:
    """How full a target is: characters against the limit, entries, a token estimate."""

    __slots__ = ("chars", "entries", "limit", "target", "tokens")

    def __init__(self, target: str, chars: int, limit: int, entries: int, tokens: int) -> None:
        self.target = target
        self.chars = chars
        self.limit = limit
        self.entries = entries
        self.tokens = tokens

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Usage) and self.as_dict() == other.as_dict()

    def __hash__(self) -> int:
        return hash((self.target, self.chars, self.limit, self.entries, self.tokens))

    def __repr__(self) -> str:
        return f"Usage({self.target!r}, {self.line()!r}, entries={self.entries})"

    @classmethod
    def of(cls, target: str, entries: Sequence[str], limit: int) -> Usage:
        """Usage of ``entries`` against ``limit``."""
        chars = char_count(entries)
        return cls(target, chars, limit, len(entries), _tokens(entries, chars))

    @property
    def percent(self) -> int:
        """Whole percent used, capped at 100 (0 when the limit is 0)."""
        if self.limit <= 0:
            return 0
        return min(100, int(self.chars * 100 / self.limit))

    @property
    def ratio(self) -> float:
        """chars / limit (may exceed 1.0 for a hand-bloated file)."""
        return self.chars / self.limit if self.limit > 0 else 0.0

    @property
    def over_budget(self) -> bool:
        """True when the target holds more characters than its limit."""
        return self.chars > self.limit

    def line(self) -> str:
        """``67% — 1,474/2,200 chars``."""
        return f"{self.percent}% — {self.chars:,}/{self.limit:,} chars"

    def pressure_note(self, threshold: float, *, evicts: bool = False) -> str | None:
        """A warning when usage is at or above ``threshold`` (a ratio), else ``None``;
        ``evicts``: the target's ``on_full`` policy archives instead of refusing, so the
        next add is not refused, and the warning says what happens instead."""
        if self.ratio < threshold:
            return None
        free = max(0, self.limit - self.chars)
        full = f"{label(self.target)} is {self.percent}% full ({free:,} chars free)."
        if evicts:
            return (
                f"{full} The user enabled eviction: a write that does not fit moves the "
                "entries ranked best to drop (expired, duplicates, oldest) to the archive. "
                "To choose yourself what leaves, merge overlapping entries or remove stale "
                "ones first (one operations call can do both)."
            )
        return (
            f"{full} Before the next add, merge overlapping entries or remove stale ones "
            "(one operations call can do both)."
        )

    def as_dict(self) -> dict[str, object]:
        """JSON-able summary."""
        return {
            "target": self.target,
            "chars": self.chars,
            "limit": self.limit,
            "percent": self.percent,
            "entries": self.entries,
            "tokens_estimate": self.tokens,
            "over_budget": self.over_budget,
        }
