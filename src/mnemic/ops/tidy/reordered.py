"""One fact said again in another order, its one verb changed (tidy 34, issue 26 §3).

A person who writes a fact a second time rebuilds the sentence: what stood last comes
first and the verb is another ("Šahovski krožek *vodim* ob četrtkih" / "Ob četrtkih
*imam* šahovski krožek", "Las colmenas del páramo se *tratan* con timol en agosto" /
"En agosto se *aplica* timol a las colmenas del páramo"). The rules of :mod:`.detect`
read two entries that each hold a word the other lacks as two facts, since most such
pairs are: the same sentence with one thing swapped *in place* ("Year 10 *chemistry*
is in Lab 3" / "Year 10 *physics* is in Lab 3", "*Sofia's* rating is 1390" /
"*Sophie's* ..."). :func:`reordered` tells the first kind by what the second never
does: the words both say stand in another order.

It holds when the two share at least :data:`MIN_SHARED` content words, each holds
exactly one the other lacks, neither of those is a name (written with a capital inside
its sentence: "Kai wohnt in *Hamburg*" / "Kai ... wohnt in *München*" is another
value), no slot (number, date, time...), negation or update marker tells them apart,
the shared words, each counted once, come in another order, and the changed word does
not stand between the same two words on both sides: a phrase moved whole with a value
swapped inside it ("Rehearsals are in the *church* hall on Tuesdays" / "On Tuesdays
rehearsals are in the *school* hall") is another value, where a rebuilt sentence moves
the words around its verb ("krožek *vodim* ob" / "četrtkih *imam* šahovski").
"""

from __future__ import annotations

from .signals import GENERIC, PairSignals, Profile

__all__ = ["MIN_SHARED", "reordered"]

MIN_SHARED = 3
"""The content words both must say: with two, "prefers tea" / "tea preferred" holds
too little to tell a rebuilt sentence from two facts."""


def _shared_order(p: Profile, shared: frozenset[str]) -> list[str]:
    """``p``'s shared content words in the order it says them, each once."""
    return list(dict.fromkeys(w for w in p.order if w in shared))


def reordered(a: Profile, b: Profile, s: PairSignals) -> tuple[str, str] | None:
    """The one word each of ``a`` and ``b`` says in place of the other's, when they are
    one fact in another order (see the module docstring); None otherwise."""
    only_a, only_b = s.only_a - GENERIC, s.only_b - GENERIC
    if len(only_a) != 1 or len(only_b) != 1 or s.shared < MIN_SHARED:
        return None
    if s.slots_differ or not s.slots_subset or s.negation_differs or s.update:
        return None
    (x,), (y,) = only_a, only_b
    if x in a.names or y in b.names:
        return None
    shared = a.words & b.words
    if _shared_order(a, shared) == _shared_order(b, shared):
        return None  # the same sentence, one word swapped in place: another thing
    if _around(a.order, x) == _around(b.order, y):
        return None  # a phrase moved whole, a value swapped inside it
    return x, y


def _around(order: tuple[str, ...], word: str) -> tuple[str | None, str | None]:
    """The content words right before and right after ``word``'s first place in
    ``order`` (None at either end)."""
    i = order.index(word)
    return (order[i - 1] if i else None, order[i + 1] if i + 1 < len(order) else None)
