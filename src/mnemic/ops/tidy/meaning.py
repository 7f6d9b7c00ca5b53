"""When the embedder's cosine may say two entries are one fact in other words.

e5 rates any two entries of one memory between 0.75 and 1.0, and two true facts that
share their frame ("the user's *father* is allergic to nuts" / "the user's *son* ...",
0.977) as high as many rewordings, so the cosine never decides alone. It joins a pair
the lexical rules of :mod:`.detect` left apart when all of these hold:

* the cosine reaches :attr:`Thresholds.meaning_cosine` (fitted on the dev halves of the
  generated set and of both hand-written sets);
* nothing the words can read says they differ (the **vetoes**): no slot differs and
  neither holds a number, a version, a date the other lacks; neither is negated where the
  other is not; neither says it is an update (those are :mod:`.updates`' to judge); one
  does not say it adds to the other ("also", "außerdem", "además"); and the two are not
  one sentence with one place changed (:func:`swapped`: "father" / "son", "search
  cluster" / "cache cluster", "uses Copilot" / "uses Docker Desktop"), which is how two
  facts about two subjects, or two items of a list, are written; and neither names an
  identifier the other writes with a character changed, moved or left out
  (:func:`_other_code`: the plates "KX19 LMP" / "KX19 LPM", model codes "RX-100" /
  "RX-10"), which the embedder reads as one and which name two things;
* they share a subject: a content word, or a third of their character 3-grams.

Two entries in two languages (:func:`.languages.two_languages_strict`: their words in
scripts they do not share, or one read as English and the other as another language by
:func:`.quantities.language`) share no words when they say one fact ("User is allergic
to penicillin" / "Der Nutzer ist allergisch gegen Penicillin"), so the subject test and
:func:`swapped` cannot speak: they are one fact at :attr:`Thresholds.meaning_cosine_across`
(chosen on dev pairs so that no honest pair across two languages was merged) when the
vetoes above on numbers, negation, updates and "also" hold and neither names someone or
something the other does not write (:func:`_other_names`: "Odette Lund" / "Yann
Peretti"). Tidy 35 reads two languages by :func:`.across.two_languages_loose`, keeps
apart two entries that name two colours ("grey" / "blauer": :func:`.across.other_colour`),
and joins them from :attr:`Thresholds.meaning_cosine_anchored` (0.88) when a value both
write carries the pair and no value read in either language tells them apart
(:func:`.across.anchored`: "Priya works on Sunday mornings" / "प्रिया आइतबार बिहान काम
गर्छिन्" is not; "The coffee beans come from a roaster in Bristol" / "Kahve çekirdekleri
Bristol'daki bir kavurucudan geliyor" is). e5 puts two unrelated entries of one memory
in two scripts at 0.80 (median), a hundredth of them above 0.874: below 0.925 the cosine
alone would join them.

A rewording moves words about or says them with other words (a passive, a synonym verb,
a paraphrase); what the vetoes keep apart is a rewording that changes one word in place
("deployed in" / "runs in"), which stays a miss rather than a bad merge.
"""

from __future__ import annotations

import difflib
import re

from .across import anchored, english_and_another, other_colour, two_languages_loose
from .exonyms import places, unwritten
from .languages import _LETTERS, ALSO
from .memo import searched
from .signals import PairSignals, Profile
from .thresholds import Thresholds

__all__ = ["misspelt", "same_meaning", "swapped"]


def swapped(a: Profile, b: Profile) -> bool:
    """Whether ``a`` and ``b`` say their content words in the same order but for one
        place where each has its own ("the *search* cluster has 3 nodes" / "the *cache*
        cluster has 3 nodes"): one frame, two subjects or two values. A place where one word is the
    other misspelt ("servcie", :func:`misspelt`) is no change."""
    ops = difflib.SequenceMatcher(a=a.order, b=b.order, autojunk=False).get_opcodes()
    changed = [op for op in ops if op[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace":
        return False
    _, i1, i2, j1, j2 = changed[0]
    mine, theirs = a.order[i1:i2], b.order[j1:j2]
    return len(mine) != len(theirs) or not all(map(misspelt, mine, theirs))


def misspelt(x: str, y: str) -> bool:
    """Whether ``x`` and ``y`` (stems of five letters or more) are one word misspelt: a
    letter left out or doubled, or two swapped ("lesons", "servcie", "Gloabl"). A letter
    changed is not: "Maria" / "Marie" are two people."""
    if min(len(x), len(y)) < 5 or abs(len(x) - len(y)) > 1:
        return False
    if len(x) == len(y):
        diff = [k for k in range(len(x)) if x[k] != y[k]]
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and x[diff[0]] == y[diff[1]]
            and (x[diff[1]] == y[diff[0]])
        )
    short, long = sorted((x, y), key=len)
    return any(long[:k] + long[k + 1 :] == short for k in range(len(long)))


def _adds(a: Profile, b: Profile) -> bool:
    """Whether one side says it adds to the other ("also", "außerdem") and the other
    does not."""
    return bool(searched(ALSO, a.folded)) != bool(searched(ALSO, b.folded))


_CODE = re.compile(
    r"(?<![\w-])(?=[\w-]*[A-Z])(?=[\w-]*[A-Z\d][A-Z\d])[A-Z\d][\w-]*[A-Z\d](?![\w-])"
)
"""An identifier as written: a word of two characters or more, capitals and digits
(and hyphens) at least two of which stand together ("LMP", "KX19", "RX-100", "A4"): a
plate, an account, a model, a code."""


def _codes(text: str) -> frozenset[str]:
    return frozenset(m.group(0).casefold() for m in _CODE.finditer(text))


def _near(x: str, y: str) -> bool:
    """Whether identifiers ``x`` and ``y`` are one written with a character or two
    changed, two swapped, or one more or fewer: two identifiers that look alike."""
    if sorted(x) == sorted(y):
        return True
    if len(x) == len(y):
        return sum(p != q for p, q in zip(x, y, strict=True)) <= max(1, len(x) // 3)
    short, long = sorted((x, y), key=len)
    return len(long) - len(short) == 1 and any(
        long[:k] + long[k + 1 :] == short for k in range(len(long))
    )


def _other_code(a: Profile, b: Profile) -> bool:
    """Whether ``a`` and ``b`` each name an identifier the other does not, and two of
    them look alike (:func:`_near`): "KX19 LMP" / "KX19 LPM" are two plates."""
    ca, cb = _codes(a.text), _codes(b.text)
    return any(_near(x, y) for x in ca - cb for y in cb - ca)


def _other_names(a: Profile, b: Profile) -> bool:
    """Whether each of ``a`` and ``b`` names (a word written with a capital inside the
    sentence) something the other does not write, in Latin letters, accents dropped
    (:func:`.quantities.same_name`): two people or two things, whatever the language."""
    from .quantities import latin, same_name

    def unmatched(p: Profile, q: Profile) -> bool:
        theirs = [latin(w) for w in _LETTERS.findall(q.text.casefold())]
        named = [latin(n) for n in p.names if len(n) >= 3]
        others = [n for n in named if not any(same_name(n, w) for w in theirs)]
        return bool(unwritten(others, places(theirs)))  # tidy 42: "Norway" / "Norge"

    return unmatched(a, b) and unmatched(b, a)


def same_meaning(a: Profile, b: Profile, s: PairSignals, t: Thresholds) -> bool:
    """Whether the cosine of ``a`` and ``b`` joins them as one fact (see the module
    docstring): False without a cosine."""
    if s.cosine is None:
        return False
    across = s.cosine < t.meaning_cosine and (
        two_languages_loose(a, b) or english_and_another(a, b)  # strict too; tidy 40
    )
    floor = min(t.meaning_cosine_across, t.meaning_cosine_anchored)
    if s.cosine < (floor if across else t.meaning_cosine):
        return False
    if s.slots_differ or not s.slots_subset or s.negation_differs or a.update or b.update:
        return False
    if across:
        if _adds(a, b) or _other_code(a, b) or _other_names(a, b) or other_colour(a, b):
            return False
        return s.cosine >= t.meaning_cosine_across or anchored(a, b)
    if not s.shared and s.shingle_jaccard < 1 / 3:
        return False
    return not (_adds(a, b) or swapped(a, b) or _other_code(a, b))
