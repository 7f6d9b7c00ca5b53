"""Who said it: a question in the first person asks about what the user said, one that
asks what *you* said asks about the assistant's replies.

A history between one user and an assistant holds both sides on every topic: the user's
one-line facts ("I adopted a cat named Miso") next to the assistant's long replies full
of the same topic's words. Words and meaning alone rank the long reply as high as the
fact, often higher. The question says whose words it wants: "Which cities did I visit?"
(the user's), "Which scratching post did you recommend?" (the assistant's). The messages
of the other side keep :data:`OTHER_SHARE` of their score; nothing is left out. A
question in the third person ("What did Caroline research?") or one that names neither
changes nothing here.

A conversation between named people (a group chat, an imported LoCoMo dialogue: each
message keeps its speaker's ``name``) is asked about them in the third person: "What
recipes has Nate made?" wants Nate's own words, not Joanna's replies full of the same
words. When the question names exactly one of the speakers among the best matches, the
messages of the others keep :data:`NAMED_SHARE` (:func:`prefer_named`); a question
that names two of them, or none, changes nothing.

A question asked in another script than the names are written in ("卡罗琳研究了什么？"
of a conversation whose speaker is "Caroline") names no one literally. Then the embedder
says whom it names (:class:`NameMatcher`): the name whose vector is nearest the
question's, by at least :data:`NAME_MARGIN` over the next, and only when the question
holds letters of a script none of the names uses (an English question about English
names never pays for it).

One exchange, one place (:func:`yield_replies`, hybrid only, after the statement step):
an assistant that restates the user's fact takes a second place for the same exchange,
and a question answered over several sessions (a list over the year, a thread: "Which
dogs did she have, and what happened to them?") needs those places for the other
sessions' statements. An assistant's reply among the best :data:`REPLY_TOP` that
follows the user's statement (not a question) keeps :data:`REPLY_SHARE` of its score;
when it ranked above that statement, or the statement was not ranked, the statement
takes the reply's score and a hair (:data:`REPLY_LIFTS`): the exchange's place is the
statement's. Only an assistant's reply: a speaker with a person's name (a dialogue
between two people, LoCoMo's) answers with news of their own and is left alone, as is
a question asking what the assistant said. Recalls 35 and 36 (docs/recall.md).

The user's statement above the reply that answers it (:func:`place_statements`, hybrid
only, the last step of the ranking): an assistant that writes long replies restates the
user's fact in the question's sense ("Parsnip is terrified of the hoover" →
"Fear of the vacuum cleaner is very common in ex-racing dogs ...") and wins by meaning;
the fact is in the user's line. When a reply among the best :data:`STATEMENT_TOP` follows
a user's statement (not a question) that matches a word of the question itself and ranks
below it, the statement takes the reply's score (plus a hair) and goes directly above it.
It reads the scores the speaker and freshness steps left, so a reply they discounted
lifts its statement no higher than itself; and it is skipped when the question names the
reply's speaker (by name, in another script by meaning, or as "you"). Recall 30
(docs/recall.md): strangers6 dev turn@10 and the held-out figures there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from ...unicode_script import script
from ..sql import SessionStore
from ..store import Message
from .hybrid import FusedMessage
from .query_vectors import query_vectors

__all__ = [
    "NAME_MARGIN",
    "OTHER_SHARE",
    "STATEMENT_TOP",
    "NameMatcher",
    "asked_role",
    "named_speaker",
    "place_statements",
    "prefer_named",
    "yield_replies",
    "prefer_role",
    "scripts",
]

OTHER_SHARE = 0.6
"""Share of its score a message of the side the question does not ask about keeps
(0.8 and 0.6 measured on the long-chat dev split: 0.6 the better)."""
NAMED_SHARE = 0.8
"""Share of its score a message of another speaker than the one a question names keeps."""
CANDIDATES = 100
"""Best positions whose side is read and weighed."""
NAME_MARGIN = 0.015
"""How much nearer the question's vector the name it names must be than any other
speaker's (cosine; the Chinese LoCoMo dev questions naming one speaker: 0.020 to 0.089)."""
STATEMENT_TOP = 10
"""Best positions whose reply may lift the user's statement before it (:func:`place_statements`)."""
REPLY_TOP = 50
"""Best positions whose assistant reply may give way to its statement (:func:`yield_replies`)."""
REPLY_SHARE = 0.5
"""Share of its score an assistant's reply keeps when the user's statement it follows
ranks above it (:func:`yield_replies`; chosen on the strangers' dev sets, recall 35)."""
REPLY_LIFTS = True
"""Whether an assistant's reply among the best :data:`REPLY_TOP` ranked above the user's
statement it follows (or with the statement nowhere among the ranked) gives its place to
that statement: the statement takes the reply's score and a hair, the reply keeps
:data:`REPLY_SHARE` (:func:`yield_replies`; recall 36)."""
_HAIR = 1e-9

_ASSISTANT = re.compile(
    r"\b(?:(?:did|do|have|had)\s+you\s+(?!remember|recall|know|think|mind)"
    r"|(?:would|could|can|will)\s+you\s+(?:recommend|suggest|advise|say)"
    r"|you\s+(?:said|suggested|recommended|told|mentioned|proposed|gave|wrote|advised|"
    r"explained|showed|listed|named|picked)\b|your\s+(?:suggestion|recommendation|advice|"
    r"answer|tip|idea)s?\b"
    r"|hast\s+du\s+(?:gesagt|empfohlen|vorgeschlagen)|(?:recomendaste|dijiste|sugeriste)\b"
    r"|m'as[- ]tu\s+(?:dit|conseillé|recommandé))"
    r"|你(?:说|建议|推荐|提到|提议)",
    re.I,
)
_USER = re.compile(
    r"\b(?:I|my|me|mine|myself|I'm|I've|I'd|ich|mein\w*|mir|mich|yo|mis?|je|j'|mon|ma|"
    r"mes|moi)\b|我",
    re.I,
)


def asked_role(text: str) -> str | None:
    """``assistant`` when the question asks what the assistant said, ``user`` when it
    speaks in the first person, else None."""
    if _ASSISTANT.search(text):
        return "assistant"
    if _USER.search(text):
        return "user"
    return None


def prefer_role(
    store: SessionStore, fused: Sequence[FusedMessage], role: str | None
) -> list[FusedMessage]:
    """``fused`` (best first) with the other side's messages among the best
    :data:`CANDIDATES` keeping :data:`OTHER_SHARE` of their score (the roles of those
    without a lexical hit in one read)."""
    if role is None or not fused:
        return list(fused)
    head = list(fused[:CANDIDATES])
    unknown = [(f.session_id, f.seq) for f in head if f.hit is None]
    read = dict(zip(unknown, store.roles_at(unknown), strict=True)) if unknown else {}
    said = [f.hit.role if f.hit is not None else read.get((f.session_id, f.seq)) for f in head]
    others = [s in ("user", "assistant") and s != role for s in said]
    return _weighed(fused, others, OTHER_SHARE)


def _weighed(
    fused: Sequence[FusedMessage], others: Sequence[bool], share: float
) -> list[FusedMessage]:
    """``fused`` with each of its first positions that ``others`` marks keeping ``share``
    of its score (noted ``other_side``), those re-sorted, the rest after them as they were."""
    out = [
        f._replace(score=f.score * share, notes=(*f.notes, "other_side")) if other else f
        for f, other in zip(fused, others, strict=False)
    ]
    out.sort(key=lambda f: (-f.score, not f.direct, f.session_id, f.seq))
    return out + list(fused[len(others) :])


class _Embeds(Protocol):
    model_id: str

    def embed_queries(self, texts: Sequence[str]) -> Any: ...


def scripts(text: str) -> set[str]:
    """The scripts of the letters of ``text`` (``LATIN``, ``CJK``, ``CYRILLIC``, ...:
    :func:`mnemic.unicode_script.script`)."""
    return {script(ch) for ch in text if ch.isalpha()}


class NameMatcher:
    """Whom a question names when it writes the name in another script than the
    speakers do: the name nearest the question by meaning (see the module docstring).

    ``embedder`` embeds the names (each once per process, as queries: a bare name is no
    passage); ``vector`` is the question's own vector, already made for the search."""

    def __init__(self, embedder: _Embeds, vector: Any) -> None:
        self.embedder = embedder
        self.vector = vector

    def __call__(self, text: str, names: Iterable[str]) -> str | None:
        """The one of ``names`` that ``text`` names by meaning, or None."""
        ordered = sorted(set(names))
        if len(ordered) < 2 or not scripts(text) - scripts("".join(ordered)):
            return None
        try:
            vectors = dict(zip(ordered, query_vectors(self.embedder, ordered), strict=True))
        except Exception:  # a failing model leaves the question unweighed, never failed
            return None
        near = sorted(((float(vectors[n] @ self.vector), n) for n in ordered), reverse=True)
        return near[0][1] if near[0][0] - near[1][0] >= NAME_MARGIN else None


def named_speaker(text: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` that ``text`` names as a word, or None when it names none or
    several."""
    named = _named(text, names)
    return named.pop() if len(named) == 1 else None


def _named(text: str, names: Iterable[str]) -> set[str]:
    """The ``names`` that ``text`` names as a word, written as the speaker writes it
    ("Nate", "Nate's")."""
    return {n for n in names if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", text)}


def _speakers(store: SessionStore, fused: Sequence[FusedMessage]) -> list[str | None]:
    """The speaker of each of the best :data:`CANDIDATES` (in one read): the ``name`` of
    a user or assistant message; a tool result's name (its tool's) is none."""
    return [
        s[1] if s is not None and s[0] in ("user", "assistant") else None
        for s in store.speakers_at([(f.session_id, f.seq) for f in fused[:CANDIDATES]])
    ]


def prefer_named(
    store: SessionStore,
    fused: Sequence[FusedMessage],
    text: str,
    by_meaning: Callable[[str, Iterable[str]], str | None] | None = None,
) -> list[FusedMessage]:
    """``fused`` (best first) with the messages among the best :data:`CANDIDATES` said
    by another named speaker than the one ``text`` names keeping :data:`NAMED_SHARE` of
    their score (their speakers in one read); unchanged unless the question names
    exactly one of at least two speakers found there. A speaker is the ``name`` of a
    user or assistant message; a tool result's name (its tool's) is none. A question
    naming none of them literally asks ``by_meaning`` (a :class:`NameMatcher`), when
    given, whom it names."""
    if not fused:
        return list(fused)
    said = _speakers(store, fused)
    names = {n for n in said if n}
    literal = _named(text, names) if len(names) > 1 else set()
    name = next(iter(literal)) if len(literal) == 1 else None
    if not literal and by_meaning is not None and len(names) > 1:
        name = by_meaning(text, names)
    if name is None:
        return list(fused)
    return _weighed(fused, [bool(speaker) and speaker != name for speaker in said], NAMED_SHARE)


def _asks(text: str | None) -> bool:
    return (text or "").rstrip().endswith(("?", "？"))


def _names_asked(
    store: SessionStore,
    fused: Sequence[FusedMessage],
    text: str,
    by_meaning: Callable[[str, Iterable[str]], str | None] | None,
) -> set[str]:
    """The speakers among the best :data:`CANDIDATES` that ``text`` names as a word, else
    the one ``by_meaning`` says it names."""
    names = {n for n in _speakers(store, fused) if n}
    literal = _named(text, names)
    if literal or by_meaning is None or len(names) < 2:
        return literal
    name = by_meaning(text, names)
    return {name} if name else set()


def place_statements(
    store: SessionStore,
    fused: Sequence[FusedMessage],
    text: str,
    by_meaning: Callable[[str, Iterable[str]], str | None] | None = None,
) -> list[FusedMessage]:
    """``fused`` (best first, after every other step) with the user's statement that an
    assistant reply among the first :data:`STATEMENT_TOP` answers placed directly above
    the reply (noted ``stated``; see the module docstring). A reply that moved its
    statement, or a statement that moved, moves nothing further; the question naming the
    reply's speaker (``by_meaning`` for another script) or asking what the assistant said
    moves nothing."""
    if not fused or asked_role(text) == "assistant":
        return list(fused)
    winners = [(f.session_id, f.seq) for f in fused[:STATEMENT_TOP]]
    said: dict[tuple[str, int], Message] = {}
    for window in store.windows([(sid, max(0, seq - 1), seq + 1) for sid, seq in winners]):
        said.update(((one.session_id, one.seq), one) for one in window)
    by_pos = {(f.session_id, f.seq): f for f in fused}
    order = [(f.session_id, f.seq) for f in fused]
    names: set[str] | None = None
    moved: set[tuple[str, int]] = set()
    for w in winners:
        sid, seq = w
        choice = (sid, seq - 1)
        m, prev = said.get(w), said.get(choice)
        if w in moved or choice in moved or m is None or prev is None:
            continue
        if m.role != "assistant" or prev.role != "user" or _asks(prev.content):
            continue
        f = by_pos.get(choice)
        if f is None or f.hit is None or order.index(choice) < order.index(w):
            continue
        if m.name:
            names = _names_asked(store, fused, text, by_meaning) if names is None else names
            if m.name in names:
                continue
        order.remove(choice)
        order.insert(order.index(w), choice)
        by_pos[choice] = f._replace(score=by_pos[w].score + _HAIR, notes=(*f.notes, "stated"))
        moved.update((choice, w))
    out = [by_pos[pos] for pos in order]
    out.sort(key=lambda f: (-f.score, not f.direct, f.session_id, f.seq))
    return out


def _assistant(m: Message) -> bool:
    """Whether ``m`` is an assistant's reply rather than a named person's turn (no name,
    or the role's own word: an import that names every speaker calls it "Assistant")."""
    return m.role == "assistant" and (not m.name or m.name.casefold() == "assistant")


def yield_replies(
    store: SessionStore,
    fused: Sequence[FusedMessage],
    text: str,
) -> list[FusedMessage]:
    """``fused`` (best first) with each assistant reply among the first :data:`REPLY_TOP`
    that follows the user's statement (not a question) keeping :data:`REPLY_SHARE` of
    its score (noted ``reply``): when the statement ranks above it, and, with
    :data:`REPLY_LIFTS`, when it ranks below it or nowhere, the statement then taking the
    reply's score and a hair (noted ``stated``); the first positions re-sorted, the rest
    after them as they were. Unchanged for a question asking what the assistant said
    (see the module docstring)."""
    if not fused or asked_role(text) == "assistant":
        return list(fused)
    head = [(f.session_id, f.seq) for f in fused[:REPLY_TOP]]
    place = {pos: i for i, pos in enumerate(head)}
    said: dict[tuple[str, int], Message] = {}
    # each reply and the message before it (a window stops before its end: seq + 1)
    for window in store.windows([(sid, max(0, seq - 1), seq + 1) for sid, seq in head]):
        said.update(((one.session_id, one.seq), one) for one in window)
    by_pos = {(f.session_id, f.seq): f for f in fused}
    lifted: set[tuple[str, int]] = set()
    moved = False
    for i, (sid, seq) in enumerate(head):
        m, prev = said.get((sid, seq)), said.get((sid, seq - 1))
        if m is None or prev is None or not _assistant(m):
            continue
        if prev.role != "user" or _asks(prev.content):
            continue
        statement = (sid, seq - 1)
        above = place.get(statement, REPLY_TOP) < i
        if not above and not REPLY_LIFTS:
            continue
        reply = by_pos[(sid, seq)]
        if not above:
            score = reply.score + _HAIR
            f = by_pos.get(statement)
            if f is None:
                f = FusedMessage(sid, seq - 1, score, (), None, None)
            by_pos[statement] = f._replace(score=max(f.score, score), notes=(*f.notes, "stated"))
            lifted.add(statement)
        by_pos[(sid, seq)] = reply._replace(
            score=reply.score * REPLY_SHARE, notes=(*reply.notes, "reply")
        )
        moved = True
    if not moved:
        return list(fused)
    top = [*head, *(pos for pos in lifted if pos not in place)]
    out = sorted(
        (by_pos[pos] for pos in top), key=lambda f: (-f.score, not f.direct, f.session_id, f.seq)
    )
    rest = [pos for pos in ((f.session_id, f.seq) for f in fused[len(head) :]) if pos not in lifted]
    return out + [by_pos[pos] for pos in rest]
