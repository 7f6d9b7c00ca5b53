"""Where two entries say one sentence with another value: the same frame (the words
before and after the value, in order) around a different word or two.

"The user writes emails in Spanish" and "the user now writes emails in German" share
the words "emails" before the value and nothing after it; "the user lives in Berlin"
and "the user now lives in Munich" share only the frame verb "lives"; "the user works
at Acme" and "the user now works at Globex" share no content or frame word, but the
same verb (a function word) and preposition before the value, "works at". Read by position,
the words that differ are the value: "the user keeps *lunch* gluten-free" and "the user
now eats gluten-free at *dinner*" differ in words at two different places of the
sentence (the key moved, the value stayed), which is no value change. :mod:`.detect`
counts an aligned change as a contradiction only when one entry says it is an update
and the words it changed stand after its marker (where an update names its new value):
two entries of one frame that differ in a word without one ("speaks English" / "speaks
German") are two facts as often as one changed fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .lexicon import LIKING, STOP_WORDS, stem
from .phrases import UPDATE
from .signals import GENERIC, Profile

__all__ = ["Aligned", "aligned", "common_ends"]


@dataclass(frozen=True, slots=True)
class Aligned:
    """The words (stems, CJK bigrams) in the place where two entries differ."""

    was: tuple[str, ...]
    now: tuple[str, ...]
    frame: tuple[str, ...]
    """The content words they share around it, or (when they share none) the frame
    words both say ("lives"), or the two words both say before the value ("works
    at")."""


def common_ends(a: Sequence[str], b: Sequence[str]) -> tuple[int, int]:
    """How many words ``a`` and ``b`` share at their start, then at their end (never
    counting one word twice)."""
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    q = 0
    while q < min(len(a), len(b)) - p and a[-1 - q] == b[-1 - q]:
        q += 1
    return p, q


def _size(words: Sequence[str]) -> int:
    """How many words a value holds: a run of CJK bigrams is one character longer than
    its count of bigrams, so "燕麦拿铁" (three bigrams) counts as two words."""
    cjk = sum(1 for w in words if w[:1] >= "\u3000")
    return len(words) - cjk + (cjk + 1) // 2


def _before(p: Profile, word: str, count: int = 1) -> tuple[str, ...] | None:
    """The ``count`` words ``p`` says right before the content word ``word`` (a stem),
    as written (folded): the preposition or article that ties a value to its frame
    ("lives *in* Berlin"), and with ``count`` 2 the verb before it ("*works at* Acme").
    None for CJK, or when not found."""
    if word[:1] >= "\u3000":
        return None
    tokens = [t for t in p.folded.split() if not UPDATE.fullmatch(t)]  # "trinkt *jetzt* Tee"
    at = next((i for i, t in enumerate(tokens) if stem(t) == word), None)
    if not at or at < count:
        return None
    return tuple("likes" if t in LIKING else t for t in tokens[at - count : at])


def _together(p: Profile, words: Sequence[str]) -> bool:
    """Whether the content ``words`` of ``p`` (a changed place) stand together in its text,
    only function words between them: one place, not a subject and a value with the
    sentence's verb between ("the *backend* is written in *Python*"). CJK: always."""
    if any(w[:1] >= "\u3000" for w in words):
        return True
    tokens = p.folded.split()
    at = [i for i, t in enumerate(tokens) if stem(t) in words]
    if not at:
        return True
    return all(t in STOP_WORDS or stem(t) in words for t in tokens[at[0] : at[-1] + 1])


def aligned(a: Profile, b: Profile, limit: int) -> Aligned | None:
    """The place where ``a`` and ``b`` differ, when it is one place of at most ``limit``
    words on each side, with words only that side has, after the update marker of a
    side that says it changed, inside a frame both say the same: shared content words
    around it, or (when they share none) the same frame words, or (when neither holds
    one) the same verb and preposition right before the value ("works at"); an update
    marker between them is read past ("trinkt *jetzt* Tee"). None otherwise."""
    ca = [w for w in a.order if w not in GENERIC]
    cb = [w for w in b.order if w not in GENERIC]
    p, q = common_ends(ca, cb)
    was, now = tuple(ca[p : len(ca) - q]), tuple(cb[p : len(cb) - q])
    if not was or not now or _size(was) > limit or _size(now) > limit:
        return None
    if set(was) & set(cb) or set(now) & set(ca):  # a word moved: another order, not a value
        return None
    if not any(
        side.update and set(words) <= set(side.after_update) for side, words in ((a, was), (b, now))
    ):  # "Commit-Nachrichten *ab sofort* auf Englisch", "changed *lunch* to low-carb": a key
        return None
    if _before(a, was[0]) != _before(b, now[0]):  # "lives *in* Berlin" / "lives *with* Anna"
        return None
    if not (_together(a, was) and _together(b, now)):  # "*backend* is written in *Python*"
        return None
    frame = (*ca[:p], *ca[len(ca) - q :])
    if not frame and a.frame and a.frame == b.frame:  # the same everyday verb: "lives"
        frame = tuple(sorted(a.frame))
    if not frame:  # a verb that is a function word and its preposition: "*works at* Acme"
        tie = _before(a, was[0], 2)
        if tie is None or tie != _before(b, now[0], 2) or stem(tie[0]) in GENERIC:
            return None  # "lives in Berlin" / "works in Munich": another frame
        frame = tie
    return Aligned(was, now, frame)
