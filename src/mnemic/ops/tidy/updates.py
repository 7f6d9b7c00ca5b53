"""The rules for an entry that says it is an update ("now", "switched to", "replaced ...
with", "改用"), beside an entry it may change (:mod:`.detect` asks them in turn):

* :func:`replaced_side`: it names the other's value as the one it replaced ("moved
  *from Berlin* to Munich", "Linear now, *not Jira*");
* :func:`reworded_update`: it rewords the sentence and names a value the other does not
  hold right after its marker ("reaches for Emacs" / "now uses vim instead");
* :func:`changed_phrase`: its value is a phrase said in one place ("switched to
  *Sublime Text*");
* :func:`reworded_value`: it changes the other's value (a number, a version, a date)
  and rewords what follows its marker ("rate limit is 100 requests per minute" / "now
  *allows* 250 requests per minute");
* :func:`favourite_changed`: not an update at all, but two values of a favourite, a
  key with one value at a time ("favourite cuisine is Thai" / "... is Ethiopian");
* :func:`frame_change`: it says the other's sentence with another value in one place
  (:mod:`.frames`);
* :func:`names_old_value` / :func:`names_new_value`: whether the words right after its
  marker are ones the other holds (the same value for another key) or none of them (a
  new value, never the same fact in other words).
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

from .frames import Aligned, aligned
from .lexicon import STOP_WORDS, stem
from .memo import searched
from .people import relatives
from .phrases import ADDITIVE, FAVOURITE, REPLACEMENT, UPDATE
from .signals import GENERIC, PairSignals, Profile, _words

_REPLACEMENT = re.compile(REPLACEMENT)

if TYPE_CHECKING:
    from .thresholds import Thresholds

__all__ = [
    "adds",
    "changed_phrase",
    "favourite_changed",
    "frame_change",
    "names_new_value",
    "names_old_value",
    "replaced_side",
    "reworded_update",
    "reworded_value",
]


def replaced_side(a: Profile, b: Profile, t: Thresholds) -> str | None:
    """Which of ``a``, ``b`` is an update naming a value the other holds as the one it
    replaced ("moved from Berlin to Munich" / "lives in Berlin", "Linear now, not
    Jira" / "uses Jira for tickets"): ``"a"`` or ``"b"`` when they are about the same
    subject (the other entry says nothing but the user and that value, or shares a word
    with it besides, and the two hold at most :attr:`Thresholds.replaced_extra` words of
    their own besides the values); ``""`` when they are not ("moved from Berlin" beside
    "the user's sister lives in Berlin": the same value of another key, two facts);
    None when neither names the other's value."""
    for side, new, old in (("a", a, b), ("b", b, a)):
        was = set(new.was)
        if not was or old.was or old.negated or not was <= old.words:
            continue
        fresh = new.words - old.words - GENERIC  # the new value, and words of its own
        if not fresh:  # "no longer uses Jira": the negation rule's; else never one fact
            if new.negated:
                continue
            return ""
        rest = old.words - was - GENERIC
        if old.stated <= new.stated and len(rest - new.words) + len(fresh) <= t.replaced_extra:
            if rest & new.words or not rest:  # the other holds no value it does not
                return side
            if _detail_of(old, was, rest) and _ends_with(new, fresh):
                return side  # "uses Trello *for tasks*" / "replaced Trello with Notion"
        if (
            searched(_REPLACEMENT, new.folded)
            and _ends_with(new, fresh)
            and not relatives(old.text)
        ):
            continue  # "replaced *the Nest thermostat* with": it may name the key
        return ""
    return None


def _detail_of(p: Profile, value: set[str], words: frozenset[str]) -> bool:
    """Whether the content ``words`` of ``p`` all stand after its ``value`` (what the
    value is for: "uses Trello *for tasks*"), none before it (its subject: "the user's
    *sister* lives in Berlin")."""
    at = [i for i, w in enumerate(p.order) if w in value]
    return bool(at) and all(i > max(at) for i, w in enumerate(p.order) if w in words)


def _ends_with(p: Profile, words: frozenset[str]) -> bool:
    """Whether the content ``words`` of ``p`` are its last words, said together: an update
    that names only its new value ("replaced Trello with *Notion*"), nothing of its own
    after it ("switched from vim to Emacs *for notes*")."""
    tokens = p.folded.split()
    while tokens and tokens[-1] in STOP_WORDS:  # "with a tado *one*"
        tokens.pop()
    tokens = [stem(t) for t in tokens]
    at = [i for i, w in enumerate(tokens) if w in words]
    return bool(at) and at[-1] == len(tokens) - 1 and at == list(range(at[0], at[-1] + 1))


def reworded_update(a: Profile, b: Profile, s: PairSignals, t: Thresholds) -> bool:
    """An update that also rewords the sentence ("reaches for Emacs" / "now uses vim
    instead"): they share their subject, each side holds a few words or a slot of its
    own, and none of the words right after the update marker (where it names what it
    changed to) is in the other entry: "keeps breakfast low-carb" / "changed lunch to
    low-carb" is the same value for another key, two facts; so are two words of their
    own before one shared word ("the *design* review is on Tuesday" / "the *sprint*
    review moved to Thursday": two keys of one kind). Cautious by design: "the
    web team now deploys with Vercel" beside "the mobile team deploys with Fastlane"
    is left alone (the same-frame rule takes "the team now deploys with GitHub
    Actions" beside "the team deploys with Jenkins", whose frame is the same)."""
    oa, ob = s.only_a - GENERIC, s.only_b - GENERIC
    extra = max(len(oa), len(ob))
    if not (
        (a.marked or b.marked)  # a since phrase alone says no key from its value
        and not s.negation_differs
        and s.shared >= 1
        and s.word_overlap >= t.reworded_overlap
        and extra <= t.reworded_extra
        and (oa or s.slots_differ)
        and (ob or s.slots_differ)
        and _kinds(a) == _kinds(b)  # a time beside a time zone: two facts
    ):
        return False
    for new, old in ((a, b), (b, a)):
        if not new.marked:
            continue
        if adds(new):
            return False
        after = set(new.changed_to)
        if after & old.words:  # the other entry says it already: the same value or key
            return False
        if not after and not s.slots_differ:  # "..., no more": a slot says what changed
            return False
    return not _other_modifier(a, b, oa, ob)


def _after_shared(new: Profile, own: frozenset[str], old: Profile) -> bool:
    """Whether the words ``own`` of ``new`` all stand after the first content word it
    shares with ``old``: what it says of the shared subject, not a word naming another
    ("Since March the *internal* API allows 500" beside "the public API ... 100")."""
    order = [w for w in new.order if w not in GENERIC]
    first = next((i for i, w in enumerate(order) if w in old.words), None)
    return first is not None and all(i > first for i, w in enumerate(order) if w in own)


def _kinds(p: Profile) -> frozenset[str]:
    """The kinds of the values ``p`` states (not of since when: "since *March*" is no
    date the other entry lacks)."""
    return frozenset(v.partition(":")[0] for v in p.stated)


def _other_modifier(a: Profile, b: Profile, oa: frozenset[str], ob: frozenset[str]) -> bool:
    """Whether a word of each side's own stands right before the same shared word, no
    word between ("the *design* review" / "the *sprint* review"): two keys of one kind,
    not one key."""

    def heads(p: Profile, own: frozenset[str]) -> set[str]:
        words = [stem(w) for w in p.folded.split()]
        return {after for w, after in itertools.pairwise(words) if w in own}

    return bool((heads(a, oa) & heads(b, ob)) - oa - ob - GENERIC)


def reworded_value(a: Profile, b: Profile, s: PairSignals, t: Thresholds) -> bool:
    """An update that changes the other entry's value (a slot: a number, a version, a
    date) and rewords the words after its marker: "the public API rate limit is 100
    requests per minute" / "the public API now allows 250 requests per minute". They
    share two content words or more, each holds at most :attr:`Thresholds.value_words`
    of its own, and the update's own words all stand after its marker (the subject
    before it is the other's): "the *internal* API now allows 500 requests per minute"
    names another subject first, another fact."""
    oa, ob = s.only_a - GENERIC, s.only_b - GENERIC
    if not (
        t.value_words > 0
        and s.update
        and s.slots_differ
        and not s.negation_differs
        and s.shared >= 2
        and max(len(oa), len(ob)) <= t.value_words
        and _kinds(a) == _kinds(b)
        and a.stated != b.stated
    ):
        return False
    for new, old_, own, theirs in ((a, b, oa, ob), (b, a, ob, oa)):
        if not new.update or not own:
            continue
        if own <= set(new.after_update) and _after_shared(new, own, old_):
            return True
        if own <= set(new.after_update) | _agent_and_key(new, old_) and _after_value(old_, theirs):
            return True  # "*Landlord* raised *the rent* to 1350 EUR"
    return False


_CHANGE_OBJECT = re.compile(
    r"raised|lowered|increased|decreased|reduced|cut|bumped|moved|switched|changed|resized|"
    r"upgraded|downgraded|extended|shortened|erhöht|gesenkt|angehoben|verschoben|verlegt|"
    r"subió|bajó|aumentó|redujo|cambió|movió|augmenté|augmentée|baissé|baissée|"
    r"aumentou|baixou|reduziu|mudou|aumentato|aumentata|ridotto|ridotta|spostato|spostata|"
    r"verhoogd|verlaagd|verplaatst|涨到|涨至|降到|降至|提高到|提高至|增加到|减少到|调整为|调整到|调到"
)
"""Update markers that are verbs taking the changed key as their object: "raised *the
rent* to", "moved *the standup* to", "hat *die Miete* erhöht"."""
_PARTICLE = re.compile(r"to|from|by|auf|um|von|a|à|de|para|da|naar|met|van")
_POSSESSIVE = re.compile(r"its|their|his|her|our|sein|seine|seinen|ihr|ihre|ihren|su|sus|son|sa|"
                         r"ses|leur|leurs|seu|sua|suo|zijn|haar|hun")  # fmt: skip


def _agent_and_key(new: Profile, old: Profile) -> set[str]:
    """The content words of an update said before its marker, when that marker is a verb
    of change whose object, up to its particle, holds a word the other entry says (the
    key): "*Landlord* raised *the rent* to 1350", "*Doctor* raised the user's *sertraline
    dose* to 100 mg". Those words say who changed the value, and the object's words
    name the key; empty otherwise, or when the object is the agent's own ("the mobile
    team raised *its* rate limit": another subject's key)."""
    text = new.text.casefold()  # "the user's dose": one word before the particle
    marker = UPDATE.search(text)
    if marker is None or not _CHANGE_OBJECT.fullmatch(marker.group(0)):
        return set()
    before = text[: marker.start()]
    tokens = text[marker.end() :].split()
    to = next((i for i, t in enumerate(tokens[:6]) if _PARTICLE.fullmatch(t)), None)
    if to:  # "raised *the rent* to"
        if _POSSESSIVE.fullmatch(tokens[0]):
            return set()
        key = set(_words(" ".join(tokens[:to])))
    else:  # the verb ends its clause: "heeft *de huur* verhoogd naar", "把*房租*涨到"
        ba = before.rfind("把")
        key = set(_words(before[ba + 1 :])) if ba >= 0 else set(_words(before)) & old.words
        before = before[:ba] if ba >= 0 else before
    if not key & old.words:
        return set()
    return key | set(_words(before))


def _after_value(p: Profile, own: frozenset[str]) -> bool:
    """Whether the words ``own`` of ``p`` all stand after its first value or are written
    against it (a detail of the value: "1200 EUR *a month*", "*每月*1200欧元"), none in
    its subject ("the *web* team's limit is 100")."""
    text = p.text.casefold()
    found = [text.find(v.partition(":")[2]) for v in p.stated]
    if not found or min(found) < 0:
        return False
    first = min(found)
    head = text[:first]
    attached = head.split()[-1] if head and not head[-1].isspace() else ""  # "每月1200"
    return set(_words(text[first:])) | set(_words(attached)) >= own


def names_old_value(a: Profile, b: Profile) -> bool:
    """Whether the update among ``a``, ``b`` names, right after its marker, a word the
    other entry already holds: "now eats gluten-free at dinner" beside "keeps lunch
    gluten-free" moves the same value to another key (two facts), where "switched to
    Emacs" beside "prefers vim" names a new value."""
    return any(
        new.update and new.changed_to[:1] and new.changed_to[0] in old.words
        for new, old in ((a, b), (b, a))
    )


def names_new_value(a: Profile, b: Profile) -> bool:
    """Whether the update among ``a``, ``b`` names, after its marker, only words the
    other entry does not hold: the value it changed to ("replaced the Monday workout
    with *climbing*" beside "goes running on Mondays"), never one fact in other words."""
    return any(
        new.update and new.changed_to and not set(new.changed_to) & old.words
        for new, old in ((a, b), (b, a))
    )


def _run(p: Profile, own: frozenset[str]) -> bool:
    """Whether the words ``own`` of ``p`` are said together, one phrase ("sticks to
    *gluten-free* food"), no other content word among them."""
    at = [i for i, w in enumerate(p.order) if w in own]
    return bool(at) and at[-1] - at[0] + 1 == len(at)


def changed_phrase(
    a: Profile, b: Profile, s: PairSignals, t: Thresholds, oa: frozenset[str], ob: frozenset[str]
) -> bool:
    """An update whose value is a phrase: the two share their subject and each says one
    phrase of its own in one place ("prefers *Sublime Text* for code review" / "switched
    to *VS Code* for code review"). Words of one's own in two places are a key and a
    value ("the *web* team now deploys with *Vercel*"), another fact; so is an update
    that names first what the other entry says (the same value for another key)."""
    return (
        t.value_words > 0
        and (a.marked or b.marked)  # a since phrase alone says no key from its value
        and not s.negation_differs
        and s.shared >= 1
        and s.slots_subset
        and a.stated == b.stated
        and 0 < len(oa) <= t.value_words
        and 0 < len(ob) <= t.value_words
        and _run(a, oa)
        and _run(b, ob)
        and not names_old_value(a, b)
        and not (adds(a) or adds(b))
        and not _keys_before_a_name(a, b, oa, ob)
        and relatives(a.text) == relatives(b.text)  # "*annesi* Ankara'da": another person
    )


def _keys_before_a_name(a: Profile, b: Profile, oa: frozenset[str], ob: frozenset[str]) -> bool:
    """Whether each side says its own words before the same name, itself no name: "writes
    *chat replies* in Spanish" / "now writes *code comments* in Spanish". The name both
    keep is the value; the common nouns in front of it are two keys (two facts), where
    a new value is a name ("switched to *VS Code* for code review") or the other's words
    are common nouns as well ("drinks *tea* in the morning")."""
    shared = a.names & b.names
    if not shared or oa & a.names or ob & b.names:
        return False

    def before(p: Profile, own: frozenset[str]) -> bool:
        # the name after a function word ("replies *in* Spanish"), not right after the
        # own words, which then say which one ("*lange* Antworten": a German noun)
        tokens = [stem(t) for t in p.folded.split()]
        last = max((i for i, w in enumerate(tokens) if w in own), default=-1)
        at = next((i for i, w in enumerate(tokens) if i > last and w in shared), None)
        return (
            last >= 0
            and at is not None
            and any(t in STOP_WORDS for t in p.folded.split()[last + 1 : at])
        )

    return before(a, oa) and before(b, ob)


def favourite_changed(
    a: Profile, b: Profile, s: PairSignals, t: Thresholds, oa: frozenset[str], ob: frozenset[str]
) -> bool:
    """Two entries about one favourite (a key with one value at a time: "the user's
    favourite cuisine is Thai" / "... is Ethiopian"), each with a value of its own in one
    place at its start or end, with no marker of change needed. The key must be shared
    beside the word "favourite" ("favourite *cuisine*" / "favourite *dessert*" are two
    keys) and the values said at one end ("*Ben's* favourite band is *Muse*" / "*Sara's*
    ... *Blur*" are two people)."""
    return (
        t.value_words > 0
        and searched(FAVOURITE, a.folded) is not None
        and searched(FAVOURITE, b.folded) is not None
        and not s.negation_differs
        and s.shared >= 2
        and a.stated == b.stated
        and 0 < len(oa) <= t.value_words
        and 0 < len(ob) <= t.value_words
        and _at_an_end(a, oa)
        and _at_an_end(b, ob)
    )


def _at_an_end(p: Profile, own: frozenset[str]) -> bool:
    """Whether the words ``own`` of ``p`` are its first or its last content words."""
    words = [w for w in p.order if w not in GENERIC]
    n = len(own)
    return set(words[:n]) == own or set(words[-n:]) == own


def frame_change(a: Profile, b: Profile, s: PairSignals, t: Thresholds) -> Aligned | None:
    """An update that says the other entry's sentence with another value in one place
    (:func:`.frames.aligned`): "writes emails in Spanish" / "now writes emails in
    German", "lives in Berlin" / "now lives in Munich"."""
    if t.frame_value_words <= 0 or not s.update or s.negation_differs or a.stated != b.stated:
        return None
    if adds(a) or adds(b):
        return None
    found = aligned(a, b, t.frame_value_words)
    if found is not None and _keys_before_a_name(a, b, frozenset(found.was), frozenset(found.now)):
        return None  # "writes chat replies in Spanish" / "now writes code comments in Spanish"
    return found


def adds(p: Profile) -> bool:
    """Whether ``p``, an update, adds its value beside the old one ("now *also* speaks
    Dutch", "spricht jetzt *auch*", "也"): no replaced value, two facts."""
    return p.update and searched(ADDITIVE, p.folded) is not None
