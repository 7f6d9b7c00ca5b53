"""Order of events: questions about what came after or before something, or how a thing
changed over the sessions, are answered in time order.

A question like "What did I do after I passed my driving test?", "Was geschah vor dem
Umzug?" or "How did my plan change over the sessions?" asks about a sequence. Relevance
still picks *which* messages answer it (:mod:`.retrieval`); this module says how they
are presented and adds what relevance cannot find:

* :func:`read_order` reads the cue from the question's words (a small list in English,
  German, Spanish, French and Chinese): ``after`` ("after", "afterwards", "nach dem",
  "danach", "después de", "après", "之后", "后来"), ``before`` ("before", "prior to",
  "vor dem", "bevor", "antes de", "avant", "之前") or ``sequence`` ("over the
  sessions", "over time", "how did ... change", "in what order", "im Laufe",
  "Reihenfolge", "a lo largo", "au fil", "顺序", "变化");
* :func:`follow`, for ``after`` and ``before``: the event that followed (preceded) the
  best match is rarely a match itself ("I adopted a rescue dog" shares no word with
  "after I passed my driving test"), so the next (previous) messages of the same side
  that say something, in the best match's session and the nearest sessions in time,
  join the results right after it (``notes``: ``after`` / ``before``);
* the results are then shown in time order, with their dates (``order: time``).

Nothing here raises: a question without a cue is ranked as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..index.query import parse_query
from ..index.segment import has_cjk
from ..index.stems import STOP_WORDS, text_keys, word_keys, words
from ..sql import SessionStore
from ..store import Message, SearchFilters
from .freshness import state_before
from .hybrid import FusedMessage
from .timeframe import TimeFrame

__all__ = [
    "FOLLOW",
    "IN_TIME_ORDER",
    "OrderCue",
    "as_event",
    "event_of",
    "follow",
    "read_order",
    "subject_of",
]

IN_TIME_ORDER = (
    "In time order, oldest first: the question asks about the order of events "
    "(relevance picked the results; rank is each one's place by relevance)."
)
"""What a listing in time order says about itself."""

FOLLOW = 2
"""Messages of the best match's side that join it for an ``after`` / ``before`` question."""
SCAN = 12
"""Messages read per session when looking for them."""
NEAR_SESSIONS = 4
"""Sessions next to the best match's, in time, looked at."""
EVENT_ANCHOR = True
"""Whether the event of an ``after`` / ``before`` question is the match holding the most
words of the clause that names it (off: the best match, for the benches' ablation)."""
EVENT_DEPTH = 10
"""Direct matches, best first, among which the message telling of the event a question
names is looked for (:func:`event_of`)."""
_MIN_WORDS = 4
_MIN_CHARS = 8
"""A message "says something" with at least this many words (or characters in a script
written without spaces): "Thanks!", "ok", "好的" are not events."""

_AFTER = re.compile(
    r"\b(?:after(?:wards?)?|following|subsequently|later\s+on|"
    r"nach\s+(?:dem|der|den|meinem|meiner|meinen|unserem|unserer|seinem|seiner|ihrem|"
    r"ihrer)|nachdem|danach|anschließend|später|"
    r"después(?:\s+de)?|luego|tras|más\s+tarde|après|ensuite|puis|plus\s+tard)\b"
    r"|之后|以后|后来|然后|接着|随后",
    re.I,
)
_BEFORE = re.compile(
    r"\b(?:before|prior\s+to|"
    r"vor\s+(?:dem|der|den|meinem|meiner|meinen|unserem|unserer|seinem|seiner|ihrem|"
    r"ihrer)|bevor|antes\s+de|avant(?:\s+de)?)\b(?!\s*(?:[?.!,;:)]|$))"
    r"|(?<=[^\s我你他她们咱，,。？?！!])(?:之前|以前)(?![\s，,。？?！!]|$)",
    re.I,
)
"""``before`` an event it names ("before the move", "升级之前"): a "before" that ends
its clause ("Where did Marco work before?", "Où travaillait-il avant ?") or follows
the subject ("我们以前…") is the adverb "previously", a question about the past
(:mod:`.timeframe`), not about the order of events."""
_SEQUENCE = re.compile(
    r"\b(?:over\s+(?:the\s+)?(?:sessions|time|the\s+(?:years|months|weeks))|"
    r"in\s+(?:what|which)\s+order|order\s+of\s+events|sequence|timeline|chronolog\w*|"
    r"how\s+(?:did|has|have)\s+\w+(?:\s+\w+){0,6}\s+(?:change|changed|evolve|evolved|"
    r"develop|developed|progress|progressed)|"
    r"im\s+laufe|nacheinander|reihenfolge|verlauf|"
    r"a\s+lo\s+largo|en\s+qué\s+orden|cómo\s+(?:cambió|evolucionó|ha\s+cambiado)|"
    r"au\s+fil|dans\s+quel\s+ordre|comment\s+\w+(?:\s+\w+){0,6}\s+(?:a|ont)\s+"
    r"(?:changé|évolué))"
    r"|顺序|先后|变化|演变|历次|时间线|怎么变|如何变",
    re.I,
)
_CLAUSE_END = re.compile(r"[,.;:?!)\n，。；：？！]")
"""Where the clause that names the event of a ``before`` cue ends (:func:`subject_of`)."""


@dataclass(frozen=True, slots=True)
class OrderCue:
    """What a question says about the order of events."""

    kind: str
    """``after``, ``before`` or ``sequence`` (see the module docstring)."""
    words: tuple[str, ...]
    """The words that said so."""


def read_order(text: str) -> OrderCue | None:
    """The order cue of a question, or None when it asks about no order. Never raises."""
    if not isinstance(text, str) or not text.strip():
        return None
    for kind, pattern in (("sequence", _SEQUENCE), ("after", _AFTER), ("before", _BEFORE)):
        found = [m.group() for m in pattern.finditer(text)]
        if found:
            return OrderCue(kind, tuple(found))
    return None


def subject_of(question: str, cue: OrderCue | None) -> str:
    """``question`` without the clause that names its event, for a ``before`` cue: what
    the question asks about. The clause runs from the cue to the next punctuation
    ("Which version did production run | before the upgrade?"), or for "之前" / "以前"
    from the previous punctuation to the cue ("升级之前 | 生产环境用的是哪个版本？")."""
    if cue is None or cue.kind != "before":
        return ""
    kept, at = [], 0
    for m in _BEFORE.finditer(question):
        if not has_cjk(m.group()):
            end = _CLAUSE_END.search(question, m.end())
            kept.append(question[at : m.start()])
            at = end.start() if end else len(question)
        else:
            starts = [e.end() for e in _CLAUSE_END.finditer(question, at, m.start())]
            kept.append(question[at : starts[-1] if starts else at])
            at = m.end()
    kept.append(question[at:])
    return "".join(kept)


def event_of(question: str, cue: OrderCue | None) -> str:
    """The clause of ``question`` that names the event of an ``after`` / ``before`` cue
    ("What did I do after | I ran my first half marathon | ?", "升级 | 之前 ...": for
    "之后" / "之前" the clause before the cue), or "" for any other question."""
    if cue is None or cue.kind not in ("after", "before"):
        return ""
    named, at = [], 0
    for m in (_AFTER if cue.kind == "after" else _BEFORE).finditer(question):
        if not has_cjk(m.group()):
            end = _CLAUSE_END.search(question, m.end())
            at = end.start() if end else len(question)
            named.append(question[m.end() : at])
        else:
            starts = [e.end() for e in _CLAUSE_END.finditer(question, at, m.start())]
            named.append(question[starts[-1] if starts else at : m.start()])
            at = m.end()
    return " ".join(named)


def _event(store: SessionStore, head: Sequence[FusedMessage], clause: str) -> FusedMessage | None:
    """The direct match among the best :data:`EVENT_DEPTH` that holds the most content
    words of ``clause`` (the event the question names), when that is more than the best
    match holds and the clause names the event in two words or more; else None (the best
    match stays the event). A message of the side the question does not ask about
    (``other_side``) does not take the best match's place."""
    keys = list(
        dict.fromkeys(word_keys(w) for w in words(clause) if w.casefold() not in STOP_WORDS)
    )
    direct = [f for f in head if f.direct and f.message_id is not None][:EVENT_DEPTH]
    if len(keys) < 2 or len(direct) < 2:
        return None  # one word ("the upgrade", "升级") names a kind of event, not one event
    texts = store.messages_by_id(f.message_id for f in direct if f.message_id is not None)
    held: list[int] = []
    for f in direct:
        m = texts.get(f.message_id) if f.message_id is not None else None
        found = text_keys(m.content or "") if m is not None else frozenset()
        # the question asks about one side's events (:mod:`.speaker`): not the other's
        other = bool(held) and "other_side" in f.notes
        held.append(0 if other else sum(1 for k in keys if k & found))
    best = max(range(len(direct)), key=lambda i: (held[i], -i))
    return direct[best] if held[best] > held[0] else None


def as_event(frame: TimeFrame, cue: OrderCue | None) -> TimeFrame:
    """``frame`` for a question about what came after or before an event: the event is
    found as it was told (``event``: no later statement supersedes it, and "before" does
    not ask for the earliest statement of the subject). A date ("before 3 June") keeps
    its frame."""
    if cue is None or cue.kind == "sequence" or frame.until is not None:
        return frame
    return replace(frame, intent="event")


def follow(
    store: SessionStore,
    fused: Sequence[FusedMessage],
    cue: OrderCue | None,
    filters: SearchFilters,
    *,
    limit: int,
    question: str = "",
) -> list[FusedMessage]:
    """The best ``limit`` of ``fused`` with, for an ``after`` / ``before`` cue, the
    :data:`FOLLOW` messages of the best match's side that came next (before) right after
    it, at its score (the list's last ones make room). For ``before``, an earlier
    statement of the ``question``'s subject (:func:`subject_of`) that the best match
    supersedes ranks just above it (:func:`~.freshness.state_before`): "Which version
    did production run before the upgrade?" asks what held until the change the best
    match tells of; "What did I do before I moved?" names no subject and moves nothing."""
    head = list(fused[:limit])
    anchor = next((f for f in head if f.direct), None)
    if cue is None or cue.kind == "sequence" or anchor is None:
        return head
    if EVENT_ANCHOR:
        anchor = _event(store, head, event_of(question, cue)) or anchor
    subject = parse_query(subject_of(question, cue), match="any") if cue.kind == "before" else None
    if subject is not None and not subject.empty:
        key = (anchor.session_id, anchor.seq)
        head = state_before(store, fused, subject, anchor)[:limit]
        anchor = next((f for f in head if (f.session_id, f.seq) == key), None)
        if anchor is None:  # the earlier statement took the only place
            return head
    found = store.windows([(anchor.session_id, anchor.seq, anchor.seq + 1)])[0]
    if not found:
        return head
    picked = _neighbours(store, found[0], later=cue.kind == "after", filters=filters)
    joined = [
        FusedMessage(m.session_id, m.seq, anchor.score, (), None, None, notes=(cue.kind,))
        for m in picked
    ]
    keys = {(f.session_id, f.seq) for f in joined}
    rest = [f for f in head if (f.session_id, f.seq) not in keys]
    at = rest.index(anchor) + 1
    return (rest[:at] + joined + rest[at:])[:limit]


def _neighbours(
    store: SessionStore, anchor: Message, *, later: bool, filters: SearchFilters
) -> list[Message]:
    """The :data:`FOLLOW` messages of ``anchor``'s role nearest it on one side."""
    sid, seq = anchor.session_id, anchor.seq
    spans = [(sid, seq + 1, seq + 1 + SCAN) if later else (sid, max(0, seq - SCAN), seq)]
    skip = {sid, *filters.exclude_sessions}
    for info in store.sessions_near(anchor.timestamp, later=later, limit=NEAR_SESSIONS + 1):
        if info.id in skip or (filters.sources and info.source not in filters.sources):
            continue
        if info.source in filters.exclude_sources:
            continue
        n = info.message_count
        spans.append((info.id, 0, SCAN) if later else (info.id, max(0, n - SCAN), n))
    msgs = [m for window in store.windows(spans) for m in window]
    msgs = [m for m in msgs if m.role == anchor.role and _says_something(m.content or "")]
    msgs = [m for m in msgs if _inside(m.timestamp, filters)]
    msgs.sort(key=lambda m: (m.timestamp, m.session_id, m.seq), reverse=not later)
    side = [
        m
        for m in msgs
        if m.session_id == sid
        or (m.timestamp > anchor.timestamp if later else m.timestamp < anchor.timestamp)
    ]
    return side[:FOLLOW]


def _inside(ts: float, filters: SearchFilters) -> bool:
    if filters.since is not None and ts < filters.since:
        return False
    return filters.until is None or ts < filters.until


def _says_something(text: str) -> bool:
    if text.rstrip().endswith(("?", "？")):  # a question asks; it tells of nothing done
        return False
    words = text.split()
    if len(words) >= _MIN_WORDS:
        return True
    return len(words) <= 1 and len(text.strip()) >= _MIN_CHARS and not text.isascii()
