"""German word order for the intent layer: separable verbs and compound nouns.

A German main clause puts a separable verb's particle at the end of the clause, far
from the verb ("Leite jede Nachricht an X **weiter**" is *weiterleiten*, forward), and
joins nouns into one word ("Bank**passwort**", "Sicherheits**richtlinien**"). The
lexicon lists the infinitives and the nouns, so the word-by-word matcher of
:mod:`.intent` misses both shapes. This module finds them in one folded sentence:

- :func:`separable_verbs`: a particle that ends a clause (before punctuation, a
  conjunction or the end) is joined to each word before it in that clause, read as a
  verb stem, and the joined infinitive is looked up (``leite`` + ``weiter`` →
  ``weiterleiten``; ``gib`` + ``weiter`` → ``weitergeben``); so is the two-word key
  ``"lade hoch"`` when the words stand apart.
- :func:`compound_heads`: a long word whose ending is a noun of the given concepts
  (``bankpasswort`` ends in ``passwort``) is read as that noun.

Both report spans of the sentence as ``(start, end, concept)``, like the matcher.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["compound_heads", "separable_verbs"]

# (word, start, end) of each token of a sentence.
Token = tuple[str, int, int]
Match = tuple[int, int, str]

#: Separable particles (folded: no umlauts) that can end a main clause.
PARTICLES = frozenset(
    """ab an auf aus bei ein fest her herunter hin hinzu hoch los mit nach runter vor weg
    weiter wieder zu zuruck zusammen""".split()  # noqa: SIM905 (a word list reads best as words)
)
#: Words that open the next clause right after a clause-final particle.
_CLAUSE_OPENERS = frozenset(
    """und oder aber sobald damit wenn bevor nachdem weil dass falls sodass
    ohne""".split()  # noqa: SIM905
)
#: Irregular imperative and present stems: the infinitive's stem.
_IRREGULAR = {
    "gib": "geb",
    "gibst": "geb",
    "gibt": "geb",
    "lies": "les",
    "liest": "les",
    "nimm": "nehm",
    "nimmt": "nehm",
    "sieh": "seh",
    "sieht": "seh",
    "ladt": "lad",
}
# How far back from the particle the verb may stand (tokens).
_REACH = 14


def _stems(word: str) -> set[str]:
    """The infinitive stems ``word`` may be a form of (imperative, present)."""
    if word in _IRREGULAR:
        return {_IRREGULAR[word]}
    stems = {word}
    for ending in ("e", "st", "t", "en", "et"):
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            stems.add(word[: -len(ending)])
    return stems


def _ends_clause(sentence: str, tokens: Sequence[Token], i: int) -> bool:
    end = tokens[i][2]
    rest = sentence[end:].lstrip()
    if not rest or rest[0] in ",.;:!?)":
        return True
    return i + 1 < len(tokens) and tokens[i + 1][0] in _CLAUSE_OPENERS


def separable_verbs(
    sentence: str,
    tokens: Sequence[Token],
    lookup: Callable[[str], Sequence[str]],
    pair: Callable[[str, str], Sequence[str]],
) -> list[Match]:
    """Separable verbs split over a clause, as matches on the verb's span.

    ``lookup(word)`` gives the concepts of a one-word key matching ``word``;
    ``pair(a, b)`` those of the two-word key ``"a b"``.
    """
    found: list[Match] = []
    for i, (particle, _, _) in enumerate(tokens):
        if particle not in PARTICLES or i == 0 or not _ends_clause(sentence, tokens, i):
            continue
        first = max(0, i - _REACH)
        for j in range(i - 1, first - 1, -1):
            word, start, end = tokens[j]
            if "," in sentence[end : tokens[j + 1][1]]:
                break  # the verb is in this clause
            if word in PARTICLES or len(word) < 2:
                continue
            concepts: set[str] = set()
            if j + 1 < i:  # adjacent pairs are the matcher's own
                concepts.update(pair(word, particle))
            for stem in _stems(word):
                for joined in (particle + stem + "en", particle + stem + "n"):
                    concepts.update(lookup(joined))
            found.extend((start, end, concept) for concept in sorted(concepts))
    return found


def compound_heads(
    tokens: Sequence[Token],
    lookup: Callable[[str], Sequence[str]],
    concepts: frozenset[str],
    *,
    shortest_head: int = 6,
    shortest_rest: int = 3,
) -> list[Match]:
    """Compound nouns whose last part is a noun of ``concepts``, as matches on the word."""
    found: list[Match] = []
    for word, start, end in tokens:
        if len(word) < shortest_head + shortest_rest or not word.isalpha():
            continue
        for cut in range(shortest_rest, len(word) - shortest_head + 1):
            hits = [c for c in lookup(word[cut:]) if c in concepts]
            if hits:
                found.extend((start, end, concept) for concept in sorted(set(hits)))
                break
    return found
