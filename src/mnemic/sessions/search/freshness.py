"""Later statements supersede earlier ones: the time-aware step after retrieval and fusion.

A history keeps every value a fact ever had ("the deadline is March 3", weeks later "the
deadline moved to March 17"). Words and meaning rank both alike, and the shorter, older
one often first. What a store knows settles it. One of the two best direct matches is
*superseded* by a later message that states the same subject: one of its sentences holds
at least half of the query-word weight the earlier one states (a word weighs more the
fewer candidates hold it, copies of one sentence counting as one; a long reply with
"daily" in one paragraph and "step" in another states no daily step goal) including its
most specific word (so another budget or another city does not count), it is not the
reply right after it (an assistant repeating the user states nothing new), and it scores
at least :data:`RATIO` of it (:data:`MARKED_RATIO` when it holds a word that marks a
change: "now", "moved to", "no longer", "instead", "jetzt", "ahora", "改成", ...). The
later message then moves just above it; chains cascade (the latest of three values
comes first). A question about the past (:mod:`.timeframe`: "originally", "before",
"以前") turns the rule around: the earlier statement moves above the later one. A
question about an event (asked in the past tense, no word either way) changes nothing:
what happened then is not superseded by what happened later. A date the question names
lifts the messages of that day, month or year; an "as of" date has already cut the later
messages out (:func:`~.retrieval.candidates`).

Only the order of direct matches among the best :data:`CANDIDATES` changes, never what
is found; each moved message says why in its ``notes`` (``fresh``, ``superseded``,
``earlier``, ``later``, ``date``). Costs one read of those messages' texts. Measured by
the knowledge-update set of ``./x bench recall`` (docs/recall.md); the head-only rule
(:data:`HEAD`) keeps it from reordering conversations where the same words come back
about other matters (LoCoMo).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from ..index.query import Query
from ..index.segment import has_cjk
from ..index.stems import content_word_keys, text_keys
from ..sql import SessionStore
from ..store import Message
from .hybrid import FusedMessage
from .timeframe import TimeFrame

__all__ = ["CANDIDATES", "CHANGE_WORDS", "freshen", "query_words", "state_before"]

CANDIDATES = 40
"""Direct matches, best first, whose order the step may change."""
SAME_SUBJECT = 0.5
"""Share of an earlier message's query-word weight a later one must hold."""
RATIO = 0.3
"""A later message supersedes an earlier one when its score is at least this share of
the earlier one's ..."""
MARKED_RATIO = 0.25
"""... or this share when it holds a word that marks a change."""
ANCHOR_BOOST = 0.5
"""Score added (as a share) to a message of the date the question names."""
TEXT_CHARS = 1500
"""Characters of a message compared (its start states what it is about)."""
HEAD = 2
"""Only a message among this many best direct matches can be superseded: the question
is about what the head of the ranking states (deeper, a later mention of the same words
is more often another matter than a new value)."""
STEP = 1.0001
"""How far above the message it supersedes a message moves."""

CHANGE_WORDS = re.compile(
    r"\b(?:now|no\s+longer|not\s+\w+\s+anymore|anymore|instead|moved\s+to|changed|switched|"
    r"rescheduled|postponed|pushed\s+(?:back|to)|rebooked|upgraded|downgraded|replaced|"
    r"cancel+ed|update[ds]?|actually|from\s+now\s+on|new|jetzt|nicht\s+mehr|stattdessen|"
    r"verschoben|geändert|umgezogen|umgebucht|aktualisiert|abgesagt|neu\w*|ahora|ya\s+no|"
    r"en\s+su\s+lugar|en\s+vez\s+de|cambi\w+|se\s+mud\w+|se\s+movió|actualiz\w+|"
    r"cancel\w+|nuev\w+|maintenant|plus\s+maintenant|désormais|au\s+lieu|remplacé\w*|"
    r"chang[ée]\w*|déménag\w+)\b"
    r"|改成|改为|改到|换成|换到|换了|搬到|迁到|升级|推迟|取消|不再|已经不|现在|调整为|更新",
    re.I,
)
"""Words that mark a change of state (English, German, Spanish, French, Chinese)."""
SENTENCE = re.compile(r"(?<=[.!?;])\s+|[\n。！？；]+")
"""Where a sentence ends: a subject is stated within one."""


def query_words(query: Query) -> list[frozenset[str]]:
    """The keys of each distinct content word of the query."""
    return content_word_keys(t.text for t in query.terms)


def freshen(
    store: SessionStore,
    fused: Sequence[FusedMessage],
    query: Query,
    frame: TimeFrame,
    read: Mapping[int, Message] | None = None,
) -> list[FusedMessage]:
    """``fused`` (best first) re-ordered as the module docstring says. ``read``: messages
    an earlier step already read (only the others are read)."""
    direct = [f for f in fused if f.direct and f.message_id is not None][:CANDIDATES]
    if len(direct) < 1 or (len(direct) < 2 and frame.anchor is None):
        return list(fused)
    qwords = query_words(query)
    if frame.anchor is None and not (qwords and frame.states):
        return list(fused)  # nothing could move: the texts are not read
    known = read or {}
    missing = [f.message_id for f in direct if f.message_id is not None]
    missing = [i for i in missing if i not in known]
    messages = {**known, **store.messages_by_id(missing)} if missing else dict(known)
    found = [(f, messages[f.message_id]) for f in direct if f.message_id in messages]
    score = {(f.session_id, f.seq): f.score for f, _ in found}
    notes: dict[tuple[str, int], list[str]] = {pos: [] for pos in score}
    if frame.anchor is not None:
        lo, hi = frame.anchor
        for f, m in found:
            if lo <= m.timestamp < hi:
                score[(f.session_id, f.seq)] *= 1.0 + ANCHOR_BOOST
                notes[(f.session_id, f.seq)].append("date")
    if qwords and len(found) > 1 and frame.states:
        _supersede(found, qwords, score, notes, past=frame.past)
    if not any(notes.values()):
        return list(fused)
    out = []
    for f in fused:
        pos = (f.session_id, f.seq)
        if pos in score:
            f = f._replace(score=score[pos], notes=f.notes + tuple(notes[pos]))
        out.append(f)
    out.sort(key=lambda f: (-f.score, not f.direct, f.session_id, f.seq))
    return out


def state_before(
    store: SessionStore,
    fused: Sequence[FusedMessage],
    query: Query,
    event: FusedMessage,
) -> list[FusedMessage]:
    """``fused`` (best first) with the statement ``event`` supersedes, if any, moved just
    above it (``notes``: ``earlier`` / ``later``): for a question about what held before
    a change ("Which version did production run before the upgrade?", :mod:`.sequence`),
    the change is the event the question names and the state it replaced is the answer.
    The rule is the past-first one of :func:`freshen`, with ``event`` the only message
    that can be superseded: no other order changes, so the event stays the event. Of
    several earlier statements the best scored is the state (the user's statement, not
    the assistant's echo of it that came a turn later: :mod:`.repeats`)."""
    direct = [f for f in fused if f.direct and f.message_id is not None][:CANDIDATES]
    qwords = query_words(query)
    if len(direct) < 2 or not qwords or event not in direct:
        return list(fused)
    messages = store.messages_by_id(f.message_id for f in direct if f.message_id is not None)
    found = [(f, messages[f.message_id]) for f in direct if f.message_id in messages]
    score = {(f.session_id, f.seq): f.score for f, _ in found}
    notes: dict[tuple[str, int], list[str]] = {pos: [] for pos in score}
    _supersede(
        found, qwords, score, notes, past=True, head={(event.session_id, event.seq)}, strongest=True
    )
    moved = [f for f in direct if "earlier" in notes.get((f.session_id, f.seq), ())]
    if not moved:
        return list(fused)
    pos = (moved[0].session_id, moved[0].seq)
    earlier = moved[0]._replace(score=score[pos], notes=(*moved[0].notes, "earlier"))
    later = event._replace(notes=(*event.notes, "later"))
    out = [f for f in fused if f is not moved[0]]
    at = out.index(event)
    return [*out[:at], earlier, later, *out[at + 1 :]]


def _supersede(
    found: list[tuple[FusedMessage, Message]],
    qwords: list[frozenset[str]],
    score: dict[tuple[str, int], float],
    notes: dict[tuple[str, int], list[str]],
    *,
    past: bool,
    head: set[tuple[str, int]] | None = None,
    strongest: bool = False,
) -> None:
    """Move later statements of a subject above earlier ones (or, ``past``, the reverse);
    only a message of ``head`` (default: the :data:`HEAD` best) can be superseded, by the
    first message in that order that may (``strongest``: by the best scored of them)."""
    rows = []
    holders: list[set[str]] = [set() for _ in qwords]
    cjk = [any(has_cjk(k) for k in w) for w in qwords]
    if head is None:
        head = {(f.session_id, f.seq) for f, _ in found[:HEAD]}
    for f, m in found:
        text = m.content or ""
        held, sentence = _stated(text[:TEXT_CHARS], qwords)
        for i in held:
            # a sentence many messages repeat word for word (an assistant's template:
            # "Small, consistent steps matter more than a perfect plan") is one holder of
            # its words, not one per copy: copies would make "step" as common as "goal"
            holders[i].add(sentence)
        marked = CHANGE_WORDS.search(text[:TEXT_CHARS]) is not None
        rows.append(((f.session_id, f.seq), m.timestamp, held, marked))
    n = len(rows)
    df = [len(h) for h in holders]
    # a CJK bigram only one candidate holds is most often one that spans two words of the
    # question (月云 in 每月云服务器, copied from that one message): it tells nothing
    weight = [
        math.log(1.0 + n / d) if d > 1 or (d == 1 and not cjk[i]) else 0.0 for i, d in enumerate(df)
    ]
    rows.sort(key=lambda r: (r[1], r[0]))  # oldest first
    order = rows if not past else rows[::-1]
    taken: set[tuple[str, int]] = set()
    claims: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for j, (pos, _, held, marked) in enumerate(order):
        mine = sum(weight[i] for i in held)
        if mine <= 0:
            continue
        best = None
        for other, _, other_held, _ in order[:j]:
            if other in taken or other not in head:
                continue
            if other[0] == pos[0] and abs(other[1] - pos[1]) <= 1:
                continue  # a reply restating the turn before it is not a new state
            theirs = sum(weight[i] for i in other_held)
            shared = sum(weight[i] for i in held & other_held)
            if theirs <= 0 or shared < SAME_SUBJECT * theirs:
                continue
            if not held & _most_specific(other_held, weight):
                continue  # another thing of the same kind (another budget, city...)
            ratio = MARKED_RATIO if marked and not past else RATIO
            if score[other] < score[pos] or score[pos] < ratio * score[other]:
                continue
            if best is None or score[other] > score[best]:
                best = other
        if best is not None and strongest:
            claims.setdefault(best, []).append(pos)
        elif best is not None:
            _move(pos, best, score, notes, past=past)
            taken.add(best)
    for best, by in claims.items():
        _move(max(by, key=lambda p: score[p]), best, score, notes, past=past)


def _move(
    pos: tuple[str, int],
    best: tuple[str, int],
    score: dict[tuple[str, int], float],
    notes: dict[tuple[str, int], list[str]],
    *,
    past: bool,
) -> None:
    """``pos`` just above ``best``, which it supersedes (``past``: precedes)."""
    score[pos] = score[best] * STEP
    notes[pos].append("earlier" if past else "fresh")
    notes[best].append("later" if past else "superseded")


def _stated(text: str, qwords: list[frozenset[str]]) -> tuple[frozenset[int], str]:
    """The query words ``text`` states together: those of its sentence that holds the
    most of them, and that sentence (case and spacing folded). A long reply that holds
    "daily" in one paragraph and "step" in another states no daily step goal."""
    best: frozenset[int] = frozenset()
    said = ""
    for sentence in SENTENCE.split(text):
        keys = text_keys(sentence, limit=len(sentence))
        held = frozenset(i for i, w in enumerate(qwords) if w & keys)
        if len(held) > len(best):
            best, said = held, sentence
    return best, " ".join(said.casefold().split())


def _most_specific(held: frozenset[int], weight: list[float]) -> frozenset[int]:
    """The query words of ``held`` with the highest weight (the rarest among the
    candidates: what tells this subject from others of its kind)."""
    top = max((weight[i] for i in held), default=0.0)
    return frozenset(i for i in held if weight[i] >= top - 1e-9)
