"""Which entries of one target say the same thing, and which contradict each other.

Every pair of entries is judged on the signals of :mod:`.signals` (and the cosine of
their embeddings when the embedder runs), contradictions before duplicates:

* **turned round** (first): the same content words the other way round a relation word
  ("tabs over spaces" / "spaces over tabs") contradict each other.
* **replaced** (first): an update that names the other entry's value as the one it
  replaced ("moved from Berlin to Munich" / "lives in Berlin", "Linear now, not Jira" /
  "uses Jira for tickets") contradicts it when the two are about one subject, and is
  kept whichever was written last (:attr:`Verdict.newer`); the same value named for
  another subject is two facts, which no other rule joins.
* **contradiction** (same subject, another value): the two share their subject
  (:attr:`Thresholds.subject_overlap` of the smaller side's content words) and differ in
  a slot (a version, a number, a date, a path) or in negation ("drinks coffee" / "no
  longer drinks coffee"), with at most :attr:`Thresholds.extra_words` words only one of
  them has (a detail) and none only the other has: "the staging database runs
  PostgreSQL 15" and "the production database runs PostgreSQL 14" differ in their
  subject too, and are two true facts. When one says it is an update ("now", "switched
  to", "改用"), the value may instead be up to :attr:`Thresholds.update_words` words on
  each side ("vim" / "Emacs"; 0, the calibrated value, turns this off: the phrase rule
  below covers it with a check on where the words stand), but never words and a slot
  at once.
  An update may also reword the sentence ("reaches for Emacs" / "now uses vim
  instead"): then each side may hold up to :attr:`Thresholds.reworded_extra` words of
  its own if they share :attr:`Thresholds.reworded_overlap` of their content words and
  none of the words right after the update marker (what it says it changed to) is in
  the other entry: "keeps breakfast low-carb" and "changed lunch to low-carb" name the same
  value for two keys, two facts.
  An update may keep the other entry's sentence and change the words in one place
  (:mod:`.frames`: "writes code comments in French" / "now writes code comments in
  Spanish", "lives in Berlin" / "now lives in Munich"): at most
  :attr:`Thresholds.frame_value_words` words on each side, standing after the update
  marker, tied to the frame by the same word ("in").
  Two entries that say one sentence with another value right after an attribute that
  holds one value at a time ("is in Frankfurt" / "is in Dublin", "uses Jira for
  tickets" / "uses Linear for tickets") contradict each other with no marker
  (:mod:`.attributes`: at most :attr:`Thresholds.swap_value_words` words on each side).
* **duplicate**: no slot or negation differs and the texts are alike: lexically at
  :attr:`Thresholds.merge_lexical` when one of them says nothing the other does not
  (the other only adds words), at :attr:`Thresholds.merge_strict` when both add
  something, or (with the embedder) at :attr:`Thresholds.merge_cosine` when one adds
  nothing and they share :attr:`Thresholds.cosine_floor` lexically. Two entries that
  each hold a word the other lacks ("in the morning" / "in the evening") are two facts
  unless they are nearly the same text: a duplicate kept is cheaper than a bad merge.
  With the embedder, two entries the words leave apart are one fact in other words at
  :attr:`Thresholds.meaning_cosine` when no number, negation, update, "also" or single
  changed place tells them apart (:mod:`.meaning`); two entries in two languages, which
  share no words, at :attr:`Thresholds.meaning_cosine_across` when besides no name
  either writes alone tells them apart, and from :attr:`Thresholds.meaning_cosine_anchored`
  when a name or number both write carries them and no value read in either language
  (numbers, months, weekdays, names, colours) differs (tidy 35).
  Offline, two entries that each hold one word the other lacks are one fact when the
  sentence was rebuilt around it: three or more shared content words in another order,
  the changed word no name and not between the same two words on both sides
  (:mod:`.reordered`: "Ob četrtkih *imam* šahovski krožek" / "Šahovski krožek *vodim*
  ob četrtkih"; "Year 10 *chemistry* is in Lab 3" / "Year 10 *physics* ..." stays two).

Knowledge the words do not hold comes from a reviewed table (:mod:`.kinds`,
``kinds.toml``): a value switched for another of a kind a person has one of in use at a
time ("uses VS Code" / "switched to Zed"), judged when the rules above found nothing or
a duplicate, and two states of a person that exclude each other ("an only child" / "has
a brother"), judged before the people veto.

Two vetoes and a second reading come first or last: two entries naming two relatives
("the father" / "the son", :mod:`.people`) get no verdict; a pair left apart is read again
with an acronym one writes in place of the words the other spells it out in ("CI" /
"continuous integration", :mod:`.acronyms`).

The rules for an entry that says it is an update live in :mod:`.updates`; an update
that names, after its marker, only words the other entry lacks ("replaced the Monday
workout with *climbing*" beside "goes running on Mondays") is never a duplicate.

The thresholds are calibrated on the dev half of ``bench/tidy.py``'s labelled pairs and
reported on its test half (see ``docs/lifecycle.md``); e5's cosines sit between 0.75 and
1.0 for any pair, so the cosine is only ever used beside the lexical and rule gates.

:func:`find` groups the verdicts into :class:`Finding` s, each entry in at most one: a
contradiction keeps the newest entry and supersedes the others it contradicts; a group
of duplicates keeps the entry that says the most (then the newest).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .acronyms import spelled
from .across import across as one_fact_across, another_value as another_value_across
from .attributes import value_swap
from .cancelling import cancelled, reached
from .conversions import converted, switched as two_languages
from .holders import holder_swap
from .kinds import kind_switch, states_apart
from .lexicon import STOP_WORDS
from .lookalikes import apart as two_facts
from .meaning import same_meaning
from .negation import inflected
from .people import other_relatives, relatives
from .reordered import reordered
from .rescheduling import rescheduled
from .roles import new_holder, promotion
from .signals import GENERIC, PairSignals, Profile, compare, profile, said
from .since import since_words
from .slots import shown
from .stopping import stopped
from .thresholds import THRESHOLDS, Thresholds
from .updates import (
    changed_phrase,
    favourite_changed,
    frame_change,
    names_new_value,
    names_old_value,
    replaced_side,
    reworded_update,
    reworded_value,
)
from .vetoes import changed_in_place

__all__ = ["THRESHOLDS", "Finding", "Thresholds", "Verdict", "find", "judge", "signals_of"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What one pair is: ``duplicate`` or ``contradiction``, and why, in words."""

    kind: str
    reason: str
    score: float
    newer: str = ""
    """For a contradiction whose text says which came first ("moved *from* Berlin"):
    ``a`` or ``b``, the side that replaced the other; empty: the later written is."""


def judge(a: Profile, b: Profile, s: PairSignals, t: Thresholds = THRESHOLDS) -> Verdict | None:
    """The verdict on the pair ``a``, ``b`` with signals ``s`` (None: unrelated)."""
    holder = new_holder(a, b)  # "a new GP, Dr. Hughes" / "User's GP is Dr. Patel"
    if holder is not None:
        return Verdict("contradiction", f"one says it has a new one: {holder}", 1.0)
    state = states_apart(a, b)  # "an only child" / "has a brother": before the people veto
    if state is not None and not (relatives(a.text) | relatives(b.text)) - _STATE_PEOPLE:
        return Verdict(
            "contradiction",
            f"two states that exclude each other ({state[0]}): '{state[1]}' / '{state[2]}'",
            1.0,
        )
    verdict = _unvetoed(a, b, s, t)
    if verdict is None:
        return None
    # the vetoes: asked after the rules (each a pure reading of the pair, so the order
    # changes no verdict), as they hold for few pairs and the rules find nothing in most
    if other_relatives(a.text, b.text):  # "the father" / "the son": two people
        return None
    if two_facts(a, b):  # a plan beside a fact, "Bus 42" / "Bus 24", another person
        return None
    return verdict


def _unvetoed(a: Profile, b: Profile, s: PairSignals, t: Thresholds) -> Verdict | None:
    """The verdict of :func:`judge`'s rules after its vetoes, as if no veto held."""
    promoted = promotion(a, b)  # "was promoted to Staff Engineer" / "job title is ..."
    if promoted is not None:
        return Verdict("contradiction", f"one says a new job title: {promoted}", 1.0)
    replaced = replaced_side(a, b, t)
    if replaced == "":  # the value it replaced, named for another subject
        return None
    if replaced is not None:
        new, old = (a, b) if replaced == "a" else (b, a)
        return Verdict(
            "contradiction",
            f"one says it replaced the other's value: {said(new, set(new.was))} by "
            f"{said(new, new.words - old.words - GENERIC)}",
            s.word_overlap,
            replaced,
        )
    turned = _turned_round(a, b)
    if turned is not None:
        word, first, second = turned
        return Verdict(
            "contradiction",
            f"the same words the other way round: '{said(a, first)} {word} "
            f"{said(a, second)}' / '{said(b, second)} {word} {said(b, first)}'",
            s.word_overlap,
        )
    same = converted(a, b, s, t)  # "weighs 62 kg" / "weighs about 137 lb": one value
    if same is not None:
        return Verdict("duplicate", same, s.word_overlap)
    if _one_amount(a, b) or _one_clock(a, b):  # "5 ml" / "7.5 ml"; "at 3" / "at 4:30"
        s = dataclasses.replace(s, slots_differ=True)
    verdict = _judge(a, b, s, t)
    if verdict is None:
        across = two_languages(a, b, s)  # "vet is Dr. Lindqvist" / "veterinär är doktor Lindqvist"
        if across is not None:
            return Verdict("duplicate", across, 1.0)
        one = one_fact_across(a, b)  # "allergic to penicillin" / "penisiline alerjik"
        if one is not None:
            return Verdict("duplicate", one, 1.0)
        other = another_value_across(a, b)  # "contact is Odette Lund" / "... est Yann Peretti"
        if other is not None:
            return Verdict("contradiction", other, 1.0)
    if verdict is None:
        verdict = _spelled_out(a, b, s, t)
    if verdict is None and _negated_inflected(a, b, s, t):
        return Verdict(
            "contradiction",
            f"same subject, but one of them says it no longer holds ('{a.negation or b.negation}'"
            "; a word the negation inflects read as one)",
            s.word_overlap,
        )
    if verdict is None and reworded_value(a, b, s, t):
        return Verdict(
            "contradiction",
            f"same subject, one says its value changed (in other words): {_values(a, b)} "
            f"vs {_values(b, a)}",
            s.word_overlap,
        )
    if verdict is None and reworded_update(a, b, s, t):
        was = ", ".join(x for x in (said(a, s.only_a), _values(a, b)) if x)
        now = ", ".join(x for x in (said(b, s.only_b), _values(b, a)) if x)
        return Verdict(
            "contradiction",
            f"same subject, one says it changed (and rewords it): {was} vs {now}",
            s.word_overlap,
        )
    if verdict is None or verdict.kind == "duplicate":
        switched = kind_switch(a, b)  # "uses VS Code" / "switched to Zed": two editors
        if switched is not None:
            kind, was, now = switched
            return Verdict(
                "contradiction",
                f"same {kind.replace('_', ' ')}, another value: {was} vs {now} "
                "(a person has one in use at a time)",
                s.word_overlap,
            )
    if verdict is None:
        held = holder_swap(a, b)  # "The coordinator is Sheila" / "... is Raj Patel"
        if held is not None:
            return Verdict("contradiction", held, s.word_overlap)
    if verdict is None or verdict.kind == "duplicate":
        ended = stopped(a, b)  # "drives the minibus" / "gave up the minibus driving"
        if ended is not None:
            return Verdict("contradiction", ended, s.word_overlap)
        off = cancelled(a, b)  # "Trip to Porto on 12 May" / "The Porto trip is off" (tidy 29)
        if off is not None:
            return Verdict("contradiction", off, s.word_overlap)
        done = reached(a, b)  # "working towards the diploma" / "completed the diploma"
        if done is not None:
            return Verdict("contradiction", done, s.word_overlap)
        moved = rescheduled(a, b)  # "the X-ray is on 6 October" / "... postponed to 20 October"
        if moved is not None:
            return Verdict("contradiction", moved, s.word_overlap)
    return verdict


_STATE_PEOPLE = frozenset(
    ("brother", "sister", "child", "sibling", "siblings", "brothers", "sisters", "bruder",
     "schwester", "geschwister", "hermano", "hermana", "hermanos", "frère", "sœur", "soeur",
     "irmão", "irmã", "fratello", "sorella", "broer", "zus", "bror", "syster", "брат",
     "сестра", "brata", "siostrę", "哥哥", "弟弟", "姐姐", "妹妹", "kind", "barn", "hijo", "hija",
     "fils", "fille", "filho", "filha", "figlio", "figlia", "ребёнок", "ребенок")
)  # fmt: skip
"""The people a state of :func:`.kinds.states_apart` names itself ("only *child*", "a
*brother*"): no other person than the user."""


def _spelled_out(a: Profile, b: Profile, s: PairSignals, t: Thresholds) -> Verdict | None:
    """The verdict on ``a`` and ``b`` read with the acronym one writes in place of the
    words the other spells it out in (:mod:`.acronyms`), None when neither does."""
    written = spelled(a.text, b.text)
    if written is None:
        return None
    pa, pb = profile(written[0]), profile(written[1])
    verdict = judge(pa, pb, compare(pa, pb, s.cosine), t)
    if verdict is None:
        return None
    return dataclasses.replace(verdict, reason=f"{verdict.reason} ({written[2]})")


def _negated_inflected(a: Profile, b: Profile, s: PairSignals, t: Thresholds) -> bool:
    """Whether ``a`` and ``b`` are one statement and its negation once each word one
    says in the form a negation inflects is read as the other's (:func:`.negation.inflected`:
    "є дача" / "немає дачі"): the same subject test as a plain negation, the inflected
    words counted as shared; with nothing else shared (the user alone: "У користувача"),
    the inflected word must be all either says."""
    if not s.negation_differs or s.slots_differ or not s.slots_subset or s.update:
        return False
    oa, ob = set(s.only_a - GENERIC), set(s.only_b - GENERIC)
    paired = 0
    for x in sorted(oa):
        y = next((y for y in sorted(ob) if inflected(x, y)), None)
        if y is not None:
            oa.discard(x)
            ob.discard(y)
            paired += 1
    smaller = min(len(a.words - GENERIC), len(b.words - GENERIC))
    if not paired or not smaller or (oa and ob) or (not s.shared and (oa or ob)):
        return False  # nothing shared but the user: the inflected word must be all they say
    return (s.shared + paired) / smaller >= t.subject_overlap and max(
        len(oa), len(ob)
    ) <= t.extra_words


_RELATION = re.compile(
    r"\b(?:over|than|rather than|instead of|before|after|from|to|vs\.?|versus|statt|"
    r"anstatt|als|vor|nach|antes de|después de|en vez de|en lugar de|plutôt que|"
    r"avant|après|au lieu de)\b"
)
"""Words that order what stands on their two sides ("tabs *over* spaces", "Python *before*
Go", "from staging *to* prod")."""


def _turned_round(a: Profile, b: Profile) -> tuple[str, set[str], set[str]] | None:
    """Where ``a`` and ``b`` say the same content words the other way round around a
    relation word ("prefers tabs over spaces" / "prefers spaces over tabs"): the word,
    the words before it in ``a`` and after it in ``b``, and the reverse; None when they do
    not. Two wordings that only move a phrase ("before Friday, notes go to Notion") keep
    each word on its side of the relation word, and are not turned round."""
    if len(a.order) < 2 or sorted(a.order) != sorted(b.order) or a.order == b.order:
        return None
    for m in _RELATION.finditer(a.folded):
        word = m.group(0)
        other = re.search(r"\b" + re.escape(word) + r"\b", b.folded)
        if other is None:
            continue
        left_a, right_a = (profile(x).words for x in (a.folded[: m.start()], a.folded[m.end() :]))
        left_b, right_b = (
            profile(x).words for x in (b.folded[: other.start()], b.folded[other.end() :])
        )
        if left_a & right_b and right_a & left_b:
            return word, set(left_a & right_b), set(right_a & left_b)
    return None


def _values(p: Profile, q: Profile) -> str:
    """The slot values ``p`` holds and ``q`` does not, for a reason: those it states
    (not since when it holds: "since October" is no changed value) when there are any."""
    own = p.slots - q.slots
    return shown(own - p.when) or shown(own)


_AMOUNT = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)?(?![\w]|[.,]\d)")
"""A number as an amount is written: whole, or with one decimal point or comma."""


_CURRENCY_SIGNS = frozenset("$€£¥₹₽₺₩₪₫")
"""Signs of a currency written before its amount: the unit of "$11" (tidy 30)."""


def _one_amount(a: Profile, b: Profile) -> bool:
    """Whether ``a`` and ``b`` are one sentence with one amount of one unit changed, a
    whole number on one side and a decimal on the other ("the dose is 5 ml" / "... 7.5
    ml", "mede 3 metros" / "4,5 metros"), which :mod:`.slots` reads as a number and a
    version, two kinds, so that no slot of one kind differs: each states one value the
    other does not, the texts are the same once that value is cut out, and the word after
    it, the same on both sides, is a unit (no function word, no digit: "Python 3" /
    "Python 3.12" ends the sentence, and "3 in production" has no unit), or a currency's
    sign stands right before it ("Combo con drink is $11" / "... $12.50", tidy 30)."""
    was, now = a.stated - b.stated, b.stated - a.stated
    if len(was) != 1 or len(now) != 1:
        return False
    kinds = {v.partition(":")[0] for v in was | now}
    if kinds != {"number", "version"}:
        return False
    if not all(re.fullmatch(r"\d+(?:\.\d+)?", v.partition(":")[2]) for v in was | now):
        return False
    cut = []
    for p, value in ((a, next(iter(was))), (b, next(iter(now)))):
        text = " ".join(p.text.casefold().split())
        spots = [m for m in _AMOUNT.finditer(text)
                 if m.group(0).replace(",", ".") == value.partition(":")[2]]  # fmt: skip
        if len(spots) != 1:
            return False
        m = spots[0]
        after = text[m.end() :].split()
        signed = text[m.start() - 1 : m.start()] in _CURRENCY_SIGNS  # "$11" / "$12.50"
        if not signed and (not after or not after[0].isalpha() or after[0] in STOP_WORDS):
            return False
        cut.append(text[: m.start()] + "#" + text[m.end() :])
    return cut[0] == cut[1]


_COUNTED = ("number:", "version:", "address:", "id:")


_CLOCK_BEFORE = frozenset(
    ("at", "um", "à", "a las", "a la", "alle", "às", "om", "klo", "kl", "kello", "o", "godz")
)  # fmt: skip
"""Words a time of day follows ("picked up *at* 3", "*klo* 18"): a whole hour after one
is a time, as "4:30" is."""
_HOUR = re.compile(r"(?<![\w.,:])(\d{1,2})(?:[.:](\d{2}))?(?![\w]|[.,:]\d)")


def _one_clock(a: Profile, b: Profile) -> bool:
    """Whether ``a`` and ``b`` are one sentence with one time of day changed, written as a
    whole hour on one side and with its minutes on the other ("picked up from nursery at 3
    on Fridays" / "... at 4:30 on Fridays", "Harjoitukset ovat klo 18" / "klo 18.30"),
    which :mod:`.slots` reads as a number and a time (or a version): each states one
    value the other does not, both right after the same word of clock time
    (:data:`_CLOCK_BEFORE`), an hour of the day, and the texts are the same once it is cut
    out (tidy 30)."""
    was, now = a.stated - b.stated, b.stated - a.stated
    if len(was) != 1 or len(now) != 1:
        return False
    if {v.partition(":")[0] for v in was | now} not in ({"number", "time"}, {"number", "version"}):
        return False
    cut = []
    for p in (a, b):
        text = " ".join(p.text.casefold().split())
        spots = list(_HOUR.finditer(text))
        if len(spots) != 1:
            return False
        m = spots[0]
        hour, minutes = int(m.group(1)), m.group(2)
        if hour > 24 or (minutes is not None and int(minutes) > 59):
            return False
        before = text[: m.start()].split()
        if not before or (
            before[-1] not in _CLOCK_BEFORE and " ".join(before[-2:]) not in _CLOCK_BEFORE
        ):
            return False
        cut.append(text[: m.start()] + "#" + text[m.end() :])
    return cut[0] == cut[1]


_ONE_VALUE = re.compile(
    r"(?<![\w.,])\d{1,3}(?: \d{3})+(?![\w.,])|(?<![\w.,])\d+ ?[–-] ?\d+(?![\w.,])"
)
"""One value written in two groups of digits: thousands set apart by a space ("24 000",
"10 500") or a range ("9–14", "10-16")."""


def _one_place(a: Profile, b: Profile) -> bool:
    """Whether ``a`` and ``b`` are one sentence with one value changed at one place, the
    value written in two groups of digits (:data:`_ONE_VALUE`: "Садик стоит *9 000*
    рублей" / "*10 500*", "deschis sâmbăta *9–14*" / "*10–16*"), which :mod:`.slots`
    reads as two numbers: not a list of numbered subjects (tidy 30)."""
    cut = []
    for p in (a, b):
        text = " ".join(p.text.casefold().split())
        if len(_ONE_VALUE.findall(text)) != 1 or len(re.findall(r"\d+", _ONE_VALUE.sub("#", text))):
            return False
        cut.append(_ONE_VALUE.sub("#", text))
    return cut[0] == cut[1]


def _numbered_subjects(a: Profile, b: Profile) -> bool:
    """Whether each side has two or more numbers (or versions, addresses, identifiers
    such as ``web-1``) the other has not: a list of like facts ("service 19 listens on
    port 8019", "service 20 ... 8020"; "server web-1 has 8 GB", "web-2 has 16 GB")
    changes the number that names the subject together with its values, where a
    changed fact changes one value. Without an update marker such a pair is two facts,
    not a contradiction."""
    return all(
        sum(v.startswith(_COUNTED) for v in mine - theirs) >= 2
        for mine, theirs in ((a.slots, b.slots), (b.slots, a.slots))
    )


def _judge(a: Profile, b: Profile, s: PairSignals, t: Thresholds) -> Verdict | None:
    oa, ob = s.only_a - GENERIC, s.only_b - GENERIC
    extra = max(len(oa), len(ob))
    subject = s.shared >= 1 and s.word_overlap >= t.subject_overlap
    if not subject and a.words & b.words & GENERIC and not (a.words | b.words) - GENERIC:
        subject = True  # "the user is on UTC-5" / "the user is now in UTC+8": only the user
    # a slot or a negation may differ between two statements of one subject; words only
    # one side has are allowed on one side (a detail), never on both (another subject)
    if subject and extra <= t.extra_words and not (oa and ob):
        if s.slots_differ and (s.update or not _numbered_subjects(a, b) or _one_place(a, b)):
            return Verdict(
                "contradiction",
                f"same subject, different values: {_values(a, b)} vs {_values(b, a)}",
                s.word_overlap,
            )
        if s.negation_differs:
            saying = a.negation or b.negation
            return Verdict(
                "contradiction",
                f"same subject, but one of them says it no longer holds ('{saying}')",
                s.word_overlap,
            )
    if subject and s.slots_differ and not s.negation_differs:  # "... since the balcony reopened"
        ra, rb = oa - since_words(a.folded, oa), ob - since_words(b.folded, ob)
        detail = max(len(ra), len(rb)) <= t.extra_words and not (ra and rb)
        one = s.update or not _numbered_subjects(a, b) or _one_place(a, b)
        if (ra, rb) != (oa, ob) and detail and one:
            return Verdict(
                "contradiction",
                f"same subject, different values, one says since when "
                f"('{said(a, oa - ra) or said(b, ob - rb)}'): {_values(a, b)} vs "
                f"{_values(b, a)}",
                s.word_overlap,
            )
    # an update changes one value: a word or two on each side ("vim" / "Emacs"), or a
    # slot with no more than a detail besides; both at once is another subject
    changed_words = (
        bool(oa and ob) and s.slots_subset and extra <= t.update_words and not names_old_value(a, b)
    )
    changed_slot = s.slots_differ and not (oa and ob) and extra <= t.extra_words
    if subject and s.update and (changed_words or changed_slot) and not s.negation_differs:
        was = ", ".join(x for x in (said(a, oa), _values(a, b)) if x)
        now = ", ".join(x for x in (said(b, ob), _values(b, a)) if x)
        return Verdict(
            "contradiction", f"same subject, one says it changed: {was} vs {now}", s.word_overlap
        )
    if changed_phrase(a, b, s, t, oa, ob):
        return Verdict(
            "contradiction",
            f"same subject, one says its value changed: {said(a, oa)} vs {said(b, ob)}",
            s.word_overlap,
        )
    if favourite_changed(a, b, s, t, oa, ob):
        return Verdict(
            "contradiction",
            f"one favourite, two values: {said(a, oa)} vs {said(b, ob)}",
            s.word_overlap,
        )
    change = frame_change(a, b, s, t)
    if change is not None:
        return Verdict(
            "contradiction",
            f"same subject in the same words ({said(a, set(change.frame))}), one says the "
            f"value changed: {said(a, set(change.was))} vs {said(b, set(change.now))}",
            s.word_overlap,
        )
    swap = value_swap(a, b, t.swap_value_words)
    if swap is not None:
        return Verdict(
            "contradiction",
            f"one attribute, two values ({swap.kind}: '{swap.tie}'): "
            f"{said(a, set(swap.was))} vs {said(b, set(swap.now))}",
            s.word_overlap,
        )
    if s.slots_differ or s.negation_differs or not s.slots_subset:
        return None
    if s.update and a.stated != b.stated:  # "is on UTC" / "moved to UTC+1": a new value
        return None  # (since when it holds is none: "has lived in Berlin since 2019")
    if names_new_value(a, b):  # "replaced the Monday workout with climbing": a new value
        return None
    # what each side says that the other does not: its own words and slot values
    one_sided = not (s.only_a or a.slots - b.slots) or not (s.only_b or b.slots - a.slots)
    if one_sided and s.contained >= t.merge_lexical:
        fa, fb = a.frame - b.frame, b.frame - a.frame
        if (fa or fb) and s.shingle_jaccard < t.merge_lexical:
            was, now = said(a, fa), said(b, fb)  # one side may have none of its own
            differ = f"'{was}' / '{now}'" if was and now else f"one adds '{was or now}'"
            return Verdict(
                "duplicate",
                f"the same fact in other words: only everyday words differ ({differ})",
                s.contained,
            )
        return Verdict(
            "duplicate", f"near-duplicate (one holds the other: {s.contained:.2f})", s.contained
        )
    if s.alike >= t.merge_strict and not changed_in_place(a, b):  # "চাল" / "ডাল": two things
        return Verdict("duplicate", f"near-duplicate (lexical similarity {s.alike:.2f})", s.alike)
    if (
        s.cosine is not None
        and s.cosine >= (t.merge_cosine if one_sided else t.merge_cosine_strict)
        and s.contained >= t.cosine_floor
    ):
        return Verdict(
            "duplicate",
            f"same meaning (cosine {s.cosine:.3f}, lexical {s.contained:.2f})",
            s.cosine,
        )
    if same_meaning(a, b, s, t):
        return Verdict(
            "duplicate",
            f"same meaning in other words (cosine {s.cosine:.3f}; no number, negation, "
            "update or single changed place tells them apart)",
            s.cosine or 0.0,
        )
    rebuilt = reordered(a, b, s)  # "Ob četrtkih imam šahovski krožek": one fact, reordered
    if rebuilt is not None:
        return Verdict(
            "duplicate",
            f"the same fact in another order, one word changed: '{said(a, {rebuilt[0]})}' / "
            f"'{said(b, {rebuilt[1]})}'",
            s.word_overlap,
        )
    return None


@dataclass(frozen=True, slots=True)
class Finding:
    """A group of entries (by index) to tidy: ``keep`` stays, ``drop`` go."""

    kind: str
    """``merge`` (duplicates) or ``supersede`` (a contradiction: the newest is kept)."""
    keep: int
    drop: tuple[int, ...]
    reasons: tuple[str, ...]


def signals_of(
    profiles: Sequence[Profile],
    cosines: Sequence[Sequence[float]] | None = None,
    skip: frozenset[int] = frozenset(),
) -> dict[tuple[int, int], PairSignals]:
    """The signals of every pair ``(i, j)``, ``i < j``, of ``profiles`` (``cosines``: the
    matrix of embedding cosines, if the embedder ran), entries in ``skip`` left out."""
    n = len(profiles)
    return {
        (i, j): compare(profiles[i], profiles[j], cosines[i][j] if cosines is not None else None)
        for i in range(n)
        if i not in skip
        for j in range(i + 1, n)
        if j not in skip
    }


def find(
    profiles: Sequence[Profile],
    times: Sequence[float | None],
    signals: Mapping[tuple[int, int], PairSignals],
    *,
    thresholds: Thresholds = THRESHOLDS,
    verdicts: dict[tuple[int, int], Verdict | None] | None = None,
) -> list[Finding]:
    """The findings among ``profiles`` (one target's entries, in file order), judged on
    the pair ``signals`` (:func:`signals_of`; a pair left out is never judged).

    ``times`` says when each entry was last written (None: unknown; then the later in
    the file is the newer, as adds append). ``verdicts``, when given, receives each
    pair's verdict (None: unrelated), so that a later reader of the same pairs (the
    learned layer of :func:`.plan.plan`) need not judge them again.
    """
    n = len(profiles)
    dups: list[tuple[float, int, int, str]] = []
    contras: list[tuple[int, int, str]] = []  # (older, newer, reason)

    def newer(i: int, j: int) -> bool:
        ti, tj = times[i], times[j]
        if ti is not None and tj is not None and ti != tj:
            return ti > tj
        return i > j

    for (i, j), pair in signals.items():
        verdict = judge(profiles[i], profiles[j], pair, thresholds)
        if verdicts is not None:
            verdicts[(i, j)] = verdict
        if verdict is None:
            continue
        if verdict.kind == "duplicate":
            dups.append((verdict.score, i, j, verdict.reason))
        elif verdict.newer == "b" or (not verdict.newer and newer(j, i)):
            contras.append((i, j, verdict.reason))
        else:
            contras.append((j, i, verdict.reason))

    used: set[int] = set()
    out: list[Finding] = []
    # contradictions: the newest entry of each group supersedes those it contradicts
    groups: dict[int, list[tuple[int, str]]] = {}
    order = sorted(range(n), key=lambda k: (times[k] or 0.0, k), reverse=True)
    rank = {k: r for r, k in enumerate(order)}
    for old, new, reason in sorted(contras, key=lambda c: (rank[c[1]], rank[c[0]])):
        if new in groups and old not in used:
            groups[new].append((old, reason))
            used.add(old)
        elif new not in used and old not in used:
            groups[new] = [(old, reason)]
            used |= {old, new}
    for keep, olds in groups.items():
        out.append(Finding("supersede", keep, tuple(o for o, _ in olds), tuple(r for _, r in olds)))
    # duplicates: grown greedily from the most similar pair; a member must be a
    # duplicate of every entry already in its group
    dup_of = {(i, j) for _, i, j, _ in dups} | {(j, i) for _, i, j, _ in dups}
    members: dict[int, list[int]] = {}
    why: dict[int, list[str]] = {}
    for _, i, j, reason in sorted(dups, key=lambda d: -d[0]):
        gi = next((g for g, m in members.items() if i in m), None)
        gj = next((g for g, m in members.items() if j in m), None)
        if gi is None and gj is None and i not in used and j not in used:
            members[i] = [i, j]
            why[i] = [reason]
            used |= {i, j}
        elif (gi is None) != (gj is None):
            g, other = (gj, i) if gi is None else (gi, j)
            assert g is not None
            if other not in used and all((other, m) in dup_of for m in members[g]):
                members[g].append(other)
                why[g].append(reason)
                used.add(other)
    for g, group in members.items():
        keep = max(group, key=lambda k: (profiles[k].specific, times[k] or 0.0, k))
        drop = tuple(k for k in sorted(group) if k != keep)
        out.append(Finding("merge", keep, drop, tuple(why[g])))
    out.sort(key=lambda f: min(f.keep, *f.drop))
    return out
