"""Two entries that look alike and say two facts, read by principle (tidy 20).

The rules of :mod:`.detect` join two entries that share their words and differ in one
place. Three shapes of honest pair do that and say two facts; each is read here from
what the sentence says, never from the values it holds:

* **a plan beside a fact** (:func:`plan_beside_fact`): one entry says someone wants,
  plans, intends or is thinking of doing something ("User *wants to visit* Aberdeen in
  May", "On *pense acheter* une voiture électrique", "Nhà *định* chuyển sang bếp từ"),
  the other says what is or was ("User visited Aberdeen last May", "On a une Clio").
  An intention neither repeats a fact nor replaces it: the fact stays true until it
  changes. Both saying an intention is left to the other rules ("wants to learn Spanish"
  / "no longer wants to learn Spanish").
* **a number or letter that names which thing** (:func:`names_which`): a label right
  after a noun at the head of the sentence, before its verb ("*Bus 42* leaves at 8:05",
  "De oefenavond van *post 1* is op dinsdag", "Miete *Lindenstraße 12*: 780 €", "*A동*
  골조 공사는 3월에 끝난다"), where the two entries write another label: two buses, two
  posts, two flats. The same noun and number after a copula or a verb is the value the
  sentence states ("George's allotment *is plot 17*" / "... plot 31", "The office is on
  floor 3"), which may change, and stays the contradiction rules' to judge; so is a
  number with a unit ("fasst 800 Liter"), a time, a date or a version.
* **another person as the subject** (:func:`other_subject`): one entry is about the user
  ("*De gebruiker* heeft een afspraak bij de tandarts op dinsdag"), the other names a
  person by name as its subject instead ("*Jonas* heeft een afspraak ... op
  donderdag"), the name written nowhere in the first. People named by their relation
  ("Ihr Mann", "η μητέρα της") are :mod:`.people`'s.

:func:`apart` says which of them holds for a pair (empty: none); :func:`.detect.judge`
gives such a pair no verdict, and :func:`.plan.plan` proposes nothing of the learned pair
model's for it (both ask it through :func:`.lookalikes.apart`, which adds tidy 28's).

* **one word changed by a letter** (:func:`changed_in_place`): two texts alike as a
  whole that differ in one place, and there not by a typo ("চাল" / "ডাল", rice and
  lentils; "토요일" / "일요일"; tax band "C" / "D"), are no near-duplicate
  (:func:`.detect.judge`'s lexical-similarity merge asks it).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache

from .lexicon import STOP_WORDS, fold, stem
from .memo import every, per_entry
from .signals import GENERIC, Profile

__all__ = [
    "INTENT",
    "Veto",
    "apart",
    "changed_in_place",
    "first_veto",
    "names_which",
    "other_subject",
    "plan_beside_fact",
]

_INF_ROMANCE = r"\w+(?:ar|er|ir|re)\b"
_ACT = (
    r"(?:visit|go|travel|buy|sell|move|learn|start|try|build|switch|change|replace|"
    r"renovate|retire|adopt|open|get|see|take|book|plant|join|leave|apply|study)"
)
"""Verbs of doing something once: "wants to *visit*" is a plan, "wants to *be called*
Sam" and "wants to *avoid* pesticides" are preferences."""
_VI_DINH = "cố quyết nhất xác ổn chỉ quy giả khẳng ấn phủ thiết bền nhận phán suy kiên hiệp án"
"""The first syllables of Vietnamese words that end in "định" and say no plan."""
INTENT = re.compile(
    "|".join(
        (
            # en
            r"\b(?:plans?|planning|planned|intends?|intending|hopes?|hoping) to \w+",
            r"\b(?:wants?|wanted|would like|'d like) to " + _ACT + r"\b",
            r"\b(?:is|are|am) going to " + _ACT + r"\b",
            r"\b(?:thinking|thinks) (?:of|about) \w+ing\b",
            r"\bconsidering \w+ing\b",
            # de
            r"\b(?:hat vor|haben vor|vorhat|vorhaben|überlegt|überlegen|"
            r"denkt darüber nach|würde gern|würden gern|möchte gern)\b",
            r"\b(?:plant|planen)\b.*\bzu \w+en\b",
            # fr, es, it, pt, ca: a plan, or a wish in the conditional, with an infinitive
            r"\b(?:voudrait|voudraient|aimerait|aimeraient|envisage|envisagent|prévoit de|"
            r"prévoient de|compte|comptent|projette de|a l'intention de|pense|pensent|"
            r"querría|quisiera|planea|planean|piensa|piensan|tiene pensado|tienen pensado|"
            r"tiene previsto|le gustaría|les gustaría|pretende|pretendem|planeja|planeia|"
            r"gostaria de|vorrebbe|vorrebbero|pensa di|pensano di|ha intenzione di|"
            r"progetta di|intende|gli piacerebbe|le piacerebbe|voldria)\s+(?:de |d')?"
            + _INF_ROMANCE,
            # nl, sv, da, no
            r"\b(?:is van plan|zijn van plan|overweegt|overwegen|zou graag|zouden graag|"
            r"planerar att|funderar på att|planlegger å|planlægger at|overvejer at)\b",
            # pl, cs, sk, ru, uk
            r"\b(?:planuje|planują|zamierza|zamierzają|chciałby|chciałaby|plánuje|plánujú|"
            r"chystá se|chtěl by|chtěla by|планирует|планируют|собирается|собираются|"
            r"хотел бы|хотела бы|планує|збирається)\b",
            # tr, vi, id, ms, tl
            r"\b(?:planlıyor|düşünüyor|dự định|có ý định|berencana|balak)\b",
            # vi "định" + a verb, not in a word of two syllables: "cố định" (fixed),
            # "quyết định" (decided), "chỉ định" (prescribed)
            "".join(f"(?<!{w} )" for w in _VI_DINH.split()) + r"\bđịnh (?=\w)",
            # zh, ja, ko
            # "计划", "予定", "계획", "예정" are also nouns ("保险计划", "会議は月曜の予定"):
            # only the forms that say someone means to
            r"打算|つもり|려고|계획이다|계획이에요|계획입니다",
        )
    )
)
"""An entry saying someone plans, intends or is thinking of doing something, or would
like to, per language. A wish for a thing ("wants replies in French", "möchte Antworten
auf Deutsch", "wil geen emoji") is a preference, no plan: "wants to" counts before a
verb of doing something once (:data:`_ACT`), the Romance forms need an infinitive, and
the present "wants" of the other languages is not read."""

_COPULAS = (
    "is are was were be been 's ist sind war waren es son está están era eran est sont "
    "était étaient è sono era erano é são está estão foi zijn jest są este sunt är er on je"
)
_COPULA = frozenset(_COPULAS.split())
"""A copula before a noun and its number makes them the value ("is *plot 17*")."""
_LABEL = re.compile(r"^(?:\d{1,4}[a-z]?|[a-z]\d{0,3}|\d{1,3}[a-z]\d{1,2})$")
"""A label: a number of up to four digits, a letter and a number, a number and a letter
("42", "1a", "4b", "b", "b2")."""
_TOKEN = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*|[:,;]")
_COUNTER = re.compile(r"^([a-z]|\d{1,4}|[a-z]\d{1,3})(동|호|층|관|号楼|号館|号线|楼|栋|棟|館|室)")
"""A label written before the counter word of a building, unit, floor or line, in
Korean, Chinese and Japanese ("A동", "3号楼", "2층")."""
_UNIT_AFTER = re.compile(
    r"^(?:%|€|\$|£|kg|g|mg|km|m|cm|mm|l|ml|liter|litre|liters|litres|h|min|s|kn|t|"
    r"m2|m²|km2|ft2|sq|euro|euros|eur|usd|gbp|dollars?|pounds?|percent|prozent|°)$"
)
"""A unit after a number: then it is an amount, not a label."""


@per_entry
def _heads(p: Profile) -> dict[tuple[str, str], str]:
    """The labels ``p`` names its thing by: (the noun before the label, or the counter
    after it) -> the label. A label counts at the head of the sentence: right after a
    content word with no copula and at most four words before that, no unit after it,
    and a value of the sentence's own after it (a time, a date, an amount: "Bus 42
    leaves *at 8:05*"), so it is not itself the value the sentence states; or, in
    Korean, Chinese and Japanese, the first word, the label before its counter ("A동")."""
    folded = fold(p.text)
    tokens = _TOKEN.findall(folded)
    out: dict[tuple[str, str], str] = {}
    for k, tok in enumerate(tokens):
        counted = _COUNTER.match(tok)
        if counted is not None and k == 0:
            out[("", counted.group(2))] = counted.group(1)
            continue
        if k == 0 or not _LABEL.match(tok) or not tokens[k - 1][:1].isalpha():
            continue
        if tok.isalpha() and not re.search(rf"(?<!\w){tok.upper()}(?!\w)", p.text):
            continue  # a lone letter is a label when written as one: "flat B", not "u"
        noun, before, after = tokens[k - 1], tokens[: k - 1], tokens[k + 1 :]
        if stem(noun) not in p.words or any(t in _COPULA for t in (*before, noun)):
            continue
        if len(before) > 4 or not {f"number:{tok}", f"id:{tok}"} & p.stated:
            continue
        if before and before[-1] not in STOP_WORDS and stem(noun) not in p.names:
            continue  # a noun opens the sentence, follows an article or is a name
        if not after or _UNIT_AFTER.match(after[0]) or re.fullmatch(r"\d{3}", after[0]):
            continue  # an amount: "12 000 forint", "60 m²"
        at = re.search(rf"(?<!\w){re.escape(noun)}\W+{re.escape(tok)}(?!\w)", folded)
        if at is None:
            continue
        own = {f"number:{tok}", f"id:{tok}"}
        where = [folded.find(v.split(":", 1)[1]) for v in p.stated if v not in own]
        if not any(w >= at.end() for w in where) or any(0 <= w < at.start() for w in where):
            continue  # the sentence's value must follow the label: "Bus 42 leaves at 8:05"
        out[(noun, "")] = tok
    return out


def names_which(a: Profile, b: Profile) -> str:
    """The noun both entries name a thing by with another label ("bus 42 / 24"), or ""."""
    ha, hb = _heads(a), _heads(b)
    for key in sorted(ha.keys() & hb.keys()):
        if ha[key] != hb[key]:
            return f"{key[0] or key[1]} {ha[key]} / {hb[key]}"
    return ""


@lru_cache(maxsize=4096)  # each entry is judged beside every other
def _intent(folded: str) -> re.Match[str] | None:
    return INTENT.search(folded)


def plan_beside_fact(a: Profile, b: Profile) -> str:
    """The words of intention one entry says and the other does not ("wants to visit"),
    or "". A fact that denies the plan ("cancelled the trip", "not going") ends it: an
    update, which the other rules judge."""
    ma, mb = _intent(a.folded), _intent(b.folded)
    if (ma is None) == (mb is None) or (b if ma else a).negated:
        return ""
    return (ma or mb).group(0)  # type: ignore[union-attr]


def other_subject(a: Profile, b: Profile) -> str:
    """The name one entry has as its subject in the place where the other says the user
    ("*De gebruiker* heeft een afspraak ..." / "*Jonas* heeft een afspraak ..."), or "":
    the user's words (an article and "user") and one capitalised word the user's entry
    does not hold, each followed by the same word."""
    for mine, other in ((a, b), (b, a)):
        words, theirs = every(_TOKEN, mine.folded), other.text.split()
        k = next((i for i, w in enumerate(words[:3]) if stem(w) in GENERIC), None)
        if k is None or len(words) <= k + 1 or len(theirs) < 2:
            continue
        name = theirs[0].strip(",.:;")
        if not name.isalpha() or not name[:1].isupper() or other.words & GENERIC:
            continue  # the other names the user somewhere too: one subject
        if stem(fold(name)) in mine.words:
            continue
        if fold(name) in STOP_WORDS or fold(theirs[1]) != words[k + 1]:
            continue
        if any(_typo(fold(name), w) for w in words[: k + 1]):
            continue  # the user's word misspelt ("Anvädaren" / "Användaren") is no name
        return name
    return ""


_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe"})


def _plain(word: str) -> str:
    """``word`` without its accents ("sokołow" -> "sokolow")."""
    bare = unicodedata.normalize("NFKD", word.translate(_LETTERS))
    return "".join(c for c in bare if not unicodedata.combining(c))


def _typo(x: str, y: str) -> bool:
    """Whether ``x`` and ``y`` are one word written two ways: the same letters but for
    accents, a letter left out or doubled, two letters swapped, "w" for "v" ("Sokołow"
    / "Sokolov", "kümmert" / "kümert", "Gold" / "Gol"). A letter changed is another
    word: "চাল" / "ডাল" (rice, lentils), "토요일" / "일요일", band "C" / "D"."""
    x, y = _plain(x).replace("w", "v"), _plain(y).replace("w", "v")
    if x == y:
        return True
    if len(x) == len(y):
        diff = [k for k in range(len(x)) if x[k] != y[k]]
        return len(diff) == 2 and diff[1] == diff[0] + 1 and x[diff[0]] == y[diff[1]]
    short, long = sorted((x, y), key=len)
    return len(long) - len(short) == 1 and any(
        long[:k] + long[k + 1 :] == short for k in range(len(long))
    )


def changed_in_place(a: Profile, b: Profile) -> str:
    """The word each entry has in the one place where they differ, written as a word and
    not as a typo of the other ("চাল" / "ডাল"), or "": two things in one sentence."""
    ta, tb = _TOKEN.findall(a.folded), _TOKEN.findall(b.folded)
    ops = [op for op in difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes()
           if op[0] != "equal"]  # fmt: skip
    if len(ops) != 1 or ops[0][0] != "replace":
        return ""
    _, i1, i2, j1, j2 = ops[0]
    x, y = " ".join(ta[i1:i2]), " ".join(tb[j1:j2])
    if _typo(x.replace(" ", ""), y.replace(" ", "")):
        return ""
    return f"{x} / {y}"


Veto = tuple[Callable[[Profile, Profile], str], str]
"""A check of a pair (what it found in it, or "") and the reason it then gives, ``{}``
standing for what it found."""


def first_veto(vetoes: Sequence[Veto], a: Profile, b: Profile) -> str:
    """The reason of the first of ``vetoes`` whose check finds something in ``a``, ``b``
    (empty: none does)."""
    for check, reason in vetoes:
        found = check(a, b)
        if found:
            return reason.format(found)
    return ""


_VETOES: tuple[Veto, ...] = (
    (plan_beside_fact, "one says a plan or a wish ('{}'), the other a fact"),
    (names_which, "a number or letter that names which thing: {}"),
    (other_subject, "another person as the subject: {}"),
)


def apart(a: Profile, b: Profile) -> str:
    """Why ``a`` and ``b`` are two facts whatever their words share (empty: no veto
    holds): a plan beside a fact, a label that names another thing, another person as
    the subject."""
    return first_veto(_VETOES, a, b)
