"""More look-alikes that say two facts, read by principle (tidy 28).

The rules join two entries that share their words; the tenth hand-written set's dev half
showed five more shapes of honest pair that do so and say two facts. Each is read from
what the sentence says, never from the values it holds:

* **a list and one of its items** (:func:`list_and_item`): one entry lists three things
  or more ("Im Lager: Schläuche, Mäntel, Ketten, Bremszüge"), the other says one of them
  and none of the rest ("Wir haben Bremszüge im Lager"). The list already holds the item:
  merging them loses nothing only when the list is the entry kept and the item says
  nothing more, and the list changes item by item ("the chains ran out") while the item
  stays a fact of its own, so the two are kept apart. A rewording of the list names its
  items again ("We stock hoses, tyres, chains and brake cables"); one that drops some of
  them names two or more, and is left to the other rules. An item is a few words with no
  value: "..., policy AD-77312, renews 3 August" are details of one fact, and an update's
  parts ("moved to Thursdays at 11, room C04, from week 5") are no list.
* **two people named** (:func:`two_named`): both entries open with a name, then the same
  word ("*Priya* bleeds hydraulic brakes" / "*Tom* bleeds hydraulic brakes on
  Saturdays"), the names differ and not by a typo, and one of them is nowhere in the
  other entry: two people doing one thing are two facts. A name is a capitalised word
  of three letters or more with no "'s" (a possessive is a key: "Wife's name"), no
  function word, no relative (:mod:`.people`'s), no value (a weekday, a month), not
  "user", and the word after it is written small ("Mrs Haldane" / "Patient Haldane" is
  one patient). A copula or "has" after the name makes it a role's holder, the value
  ("Sanne *is* de scrum master" / "Daan *is* ...": an update), and two first words of
  one stem ("Predstavnik" / "Predstavnica", "Bukas" / "Nagbubukas") are one word.
* **an identifier changed in one character** (:func:`identifier_changed`): the entries
  are one sentence but for one identifier of letters and digits ("Jakub zo *7.A*" /
  "*7.B*", "ward *4B*" / "*4C*"), which differs in one letter (or in a digit of a code
  led by letters: "LH123"), and no copula, colon or update marker stands before it: a
  class, a ward, a flight named, not its value ("User's seat is 14C" / "14D" is a change
  of seat, and stays the rules'). A digit changed after a digit is an amount ("8h" /
  "7h", "3-month", "2015-ben", "17時"), which the contradiction rules read. Two members
  of one numbered series (letters, maybe a hyphen, then a number: "stg-4" / "stg-6",
  "web-9" / "web-10") in that one place are two things too (tidy 33, first week row 8:
  templated notes about six staging hosts were superseded by one another).
* **another measure of one quantity** (:func:`another_measure`): one entry says a word
  that names another measure of a key both say ("Chloe's *peak* rating was 1655" /
  "Chloe's rating is 1610", "*resting* heart rate" / "*max* heart rate", "*half*
  marathon PB"): a closed list of such words (peak, max, minimum, resting, average, record,
  half, top, starting, and a few of other languages; not "min", which is also
  minutes, nor "target", also a verb: "Pull requests *target* main" / "The default
  branch is main", a generated paraphrase). Tidy 20's open form (any one word more
  before the changed value) lost 8 true pairs.
* **a plan beside its result** (:func:`plan_beside_result`): :func:`.vetoes.plan_beside_fact`
  in more words: Afrikaans "beplan om" and "is van plan om", and an English "will" after
  a time ahead ("*Next week* Year 9 *will try* the electrolysis practical" / "Year 9's
  electrolysis practical worked"). The result makes the plan stale, so replacing the plan
  by the result would lose nothing either; a merge would, and the rules read no
  difference between the two, so the pair is kept apart.

:func:`apart` says which of tidy 20's vetoes (:func:`.vetoes.apart`) or these holds
(empty: none); :func:`.detect.judge`, :func:`.plan.plan` and :mod:`.explain` ask it.
"""

from __future__ import annotations

import difflib
import re

from .lexicon import STOP_WORDS, fold
from .memo import every, per_reading, searched
from .people import relatives
from .signals import GENERIC, Profile, profile
from .vetoes import (
    _COPULA,  # a copula
    Veto,
    _typo,  # one spelling or two
    apart as tidy20_apart,
    first_veto,
)

__all__ = [
    "another_measure",
    "apart",
    "identifier_changed",
    "list_and_item",
    "plan_beside_result",
    "two_named",
]

_SEP = re.compile(
    r"\s*[,،、;；]\s*|\s+(?:and|und|et|y|e|i|a|og|och|en|és|ja|ve|و|и|та)\s+", re.IGNORECASE
)
"""What separates the items of a list: a comma (Latin, Arabic, CJK), a semicolon, an
"and" of the set's languages."""
LIST_ITEMS = 3
"""A list names at least this many items (and has a comma fewer)."""
ITEM_WORDS = 3
"""An item of a list is said in at most this many words ("magnesium ribbon")."""


@per_reading  # each entry is judged beside every other
def _items(text: str) -> list[frozenset[str]]:
    """The content words of each item ``text`` lists after its head (after its colon, if
    any), or [] when it lists fewer than :data:`LIST_ITEMS` things, or its parts are no
    items: each part after the first a few words naming a thing, with no value (a date, a
    number: "renews 3 August", "policy AD-77312" are details of one fact)."""
    body = text.split(":", 1)[1] if ":" in text else text
    parts = [p for p in _SEP.split(body.strip().rstrip(".")) if p.strip()]
    commas = len(re.findall(r"[,،、;；]", body))
    if len(parts) < LIST_ITEMS or commas < LIST_ITEMS - 1:
        return []
    items = parts if ":" in text else parts[1:]  # without a colon the first holds the head
    read = [profile(p) for p in items]
    if any(len(p.split()) > ITEM_WORDS for p in items) or any(r.slots for r in read):
        return []
    return [w for w in (r.words - GENERIC for r in read) if w]


def list_and_item(a: Profile, b: Profile) -> str:
    """The one item of one entry's list the other entry says, and none of the rest
    ("Bremszüge"), or ""."""
    for whole, one in ((a, b), (b, a)):
        items = _items(whole.text)
        if len(items) < LIST_ITEMS or len(_items(one.text)) >= LIST_ITEMS:
            continue
        if whole.update or whole.marked:
            continue  # "moved to Thursdays at 11, room C04, from week 5": an update
        held = [w for w in items if w <= one.words]
        if len(held) == 1:
            return " ".join(sorted(held[0]))
    return ""


_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")


def _name(word: str, p: Profile) -> bool:
    """Whether ``word`` (the first word of ``p``, as written) reads as a person's name."""
    low = fold(word)
    if not word.isalpha() or not word[:1].isupper() or low in STOP_WORDS or low in GENERIC:
        return False
    return not (relatives(word) or any(low in v for v in p.stated))  # "Sister", "Monday"


_HOLDS = frozenset(
    (
        " ".join(_COPULA) + " has have had hat haben har heeft tiene tienen a ont ha hanno "
        "tem têm ma mają má mají"
    ).split()
)
"""A copula or a verb of having after a name makes the name the value of a role ("Sanne
*is* de scrum master", "Erik *har* jouren"): a role's new holder, the rules' to judge."""
NAME_LETTERS = 3
"""A name has at least this many letters; the word after it is written small (a verb,
not a surname after a title)."""
SAME_WORD = 0.75
"""Two first words this alike (difflib's ratio) are one word inflected or misspelt."""


def two_named(a: Profile, b: Profile) -> str:
    """The two names the entries open with, each before the same word ("Priya / Tom"),
    or ""."""
    wa, wb = every(_WORD, a.text), every(_WORD, b.text)
    if len(wa) < 2 or len(wb) < 2 or fold(wa[1]) != fold(wb[1]):
        return ""
    x, y = wa[0], wb[0]
    if fold(x) == fold(y) or _typo(fold(x), fold(y)) or not (_name(x, a) and _name(y, b)):
        return ""
    if a.negated or b.negated or fold(wa[1]) in _HOLDS:
        return ""  # "Priya *is* the tech lead" / "Oskar *is* ...": a role's holder, its value
    fx, fy = fold(x), fold(y)
    if difflib.SequenceMatcher(a=fx, b=fy).ratio() >= SAME_WORD or fx in fy or fy in fx:
        return ""  # "Predstavnik" / "Predstavnica", "Bukas" / "Nagbubukas": one word
    if min(len(x), len(y)) < NAME_LETTERS or not (wa[1].islower() and wb[1].islower()):
        return ""  # "Za", "У": a preposition; "Mrs Haldane" / "Patient Haldane": a title
    if fold(x) in map(fold, wb) and fold(y) in map(fold, wa):
        return ""
    return f"{x} / {y}"


_IDENT = re.compile(r"[^\W_]+(?:[.\-/][^\W_]+)*")
_BEFORE_VALUE_WORDS = (
    "is are was were be been ist sind war es son está est sont è sono é são zijn jest je "
    "är er on now jetzt ahora maintenant agora nu teď teraz"
)
_BEFORE_VALUE = frozenset(_BEFORE_VALUE_WORDS.split())
"""A copula or an update marker before an identifier makes it the value the sentence
states ("seat *is* 14C", "now 15C")."""


_MEMBER = re.compile(r"([a-z]+[-.]?)(\d+)")
"""A member of a numbered series: letters, maybe a hyphen or a dot, then its number
("stg-4", "web-10", "lh123"). Two members of one series in one sentence are two things
(first week, row 8: "The staging host stg-5 runs postgres 15" / "... stg-6 ...")."""


def _mixed(tok: str) -> bool:
    return any(c.isdigit() for c in tok) and any(c.isalpha() for c in tok)


def identifier_changed(a: Profile, b: Profile) -> str:
    """The identifier each entry names in the one place they differ ("7.a / 7.b"), when it
    differs in one character, or is another member of one numbered series ("stg-4 /
    stg-6"), and names which thing, or ""."""
    ta, tb = every(_IDENT, fold(a.text)), every(_IDENT, fold(b.text))
    if len(ta) != len(tb):
        return ""
    diff = [k for k in range(len(ta)) if ta[k] != tb[k]]
    if len(diff) != 1:
        return ""
    k = diff[0]
    x, y = ta[k], tb[k]
    if not (_mixed(x) and _mixed(y)):
        return ""
    mx, my = _MEMBER.fullmatch(x), _MEMBER.fullmatch(y)
    if not (mx and my and mx.group(1) == my.group(1)):  # "stg-4" / "stg-6", "web-9" / "web-10"
        if len(x) != len(y):
            return ""
        changed = [(c, d) for c, d in zip(x, y, strict=True) if c != d]
        if len(changed) != 1:
            return ""
        c, d = changed[0]
        if not (c.isascii() and c.isalpha() and d.isascii() and d.isalpha()) and not re.match(
            r"[a-z]+\d", x
        ):
            return ""  # a digit changed is an amount ("8h", "3-month", "2015-ben") unless a
            # code leads with letters ("lh123", "b12")
    before = fold(a.text)[: fold(a.text).find(x)].rstrip()
    if k > 0 and (ta[k - 1] in _BEFORE_VALUE or before.endswith(":")):
        return ""
    return f"{x} / {y}"


_MEASURE_WORDS = (
    "peak max maximum minimum resting average avg highest lowest record half top "
    "starting höchst maximal minimal durchschnittlich máximo mínimo medio pico "
    "maximale minimale moyen moyenne"
)
_MEASURES = frozenset(_MEASURE_WORDS.split())
"""Words that name another measure of one quantity: a rating's *peak*, a heart rate at
*rest*, a *half* marathon's best time. Not "target", which is also a verb ("pull requests
*target* main"), nor "min" (minutes)."""


def another_measure(a: Profile, b: Profile) -> str:
    """The word one entry says before a key both say, naming another measure of it ("peak
    rating" / "rating", "half marathon" / "marathon"), or ""."""
    ta, tb = every(_WORD, fold(a.text)), every(_WORD, fold(b.text))
    for mine, other in ((ta, tb), (tb, ta)):
        for k, word in enumerate(mine[:-1]):
            if word in _MEASURES and word not in other and mine[k + 1] in other:
                return f"{word} {mine[k + 1]}"
    return ""


_PLAN = re.compile(
    r"\b(?:beplan om|is van plan om|van plan om)\b"
    r"|\b(?:next (?:week|month|year|term|time)|tomorrow|soon)\b.*\bwill \w+"
)
"""A plan in words :data:`.vetoes.INTENT` does not read: Afrikaans, and an English
"will" after a time ahead."""


def plan_beside_result(a: Profile, b: Profile) -> str:
    """The words of a plan one entry says and the other does not, or "" (as
    :func:`.vetoes.plan_beside_fact`: a fact that denies the plan is its update)."""
    ma, mb = searched(_PLAN, a.folded), searched(_PLAN, b.folded)
    if (ma is None) == (mb is None) or (b if ma else a).negated:
        return ""
    return (ma or mb).group(0)  # type: ignore[union-attr]


def apart(a: Profile, b: Profile) -> str:
    """Why ``a`` and ``b`` are two facts whatever their words share (empty: no veto
    holds): tidy 20's vetoes first, then tidy 28's."""
    return first_veto(_VETOES, a, b)


_VETOES: tuple[Veto, ...] = (
    (tidy20_apart, "{}"),
    (list_and_item, "one lists things, the other says one of them ('{}'): the list holds it"),
    (two_named, "two people named: {}"),
    (identifier_changed, "an identifier that names which thing: {}"),
    (another_measure, "one names another measure of it: '{}'"),
    (plan_beside_result, "one says a plan ('{}'), the other a fact"),
)
