"""A question that asks for several things: its first ten spread over sessions. A ranking
variant of ``bench/_misses.py`` (``spread``, ``spread3``, ``spreaddup``), measured on dev
and dropped (``docs/recall.md``, *Lists across sessions (recall 20)*).

"Which cities has Jon visited?", "What books has Melanie read?", "How many times has
Joanna been rejected?": each answer was said on its own, in its own session, and what
ties them is the question's topic. Ranked by how well each message matches, the first
ten fill with one or two sessions' matches and their neighbours, and the other sessions'
answers wait further down.

:func:`asks_several` reads the question: a plural asked for (``what``/``which`` and a
plural noun, ``what are``), a count (``how many``, ``how often``), ``both``, ``all``,
``list``, a perfect tense of experience ("what has she painted"), and the same cues in
Spanish, French, German, Italian, Portuguese, Dutch, Polish and Chinese.

:func:`spread` then re-orders the head of such a question's ranking (maximal marginal
relevance by session): the first :data:`KEEP` places stay; each next place of the first
:data:`HEAD` goes to the candidate among the first :data:`POOL` whose score divided by
one plus the number of places its session already holds is the highest; a direct match
whose words an already placed message holds almost all of (:data:`DUPLICATE`: one fact
said twice) waits until no other candidate is left. Every other question, and every
place past the head, is untouched; a moved message says so (``notes``: ``spread``).
:func:`after` applies it to what ``retrieval.candidates`` returns (after the fresh-facts
step, in every mode).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from mnemic.sessions.index.stems import text_keys
from mnemic.sessions.search.hybrid import FusedMessage
from mnemic.sessions.sql import SessionStore
from mnemic.sessions.store import Message

KEEP = 2
"""Places at the top a list question keeps as ranked (its best match and its neighbour)."""
HEAD = 10
"""Places re-ordered."""
POOL = 50
"""Candidates a place is chosen from."""
DUPLICATE = 0.8
"""Share of a message's word keys another placed message holds above which it repeats it."""
FREE = 1
"""Places a session holds before the next one of it is divided (1: from its second)."""
BY_SESSION = True
"""Whether places are divided by their session's (off: only repeats wait)."""
MIN_KEYS = 3
"""Word keys a message needs before it can count as a repeat (a short reply repeats
nothing)."""

_EN_PLURAL = re.compile(
    r"\b(?:what|which)\s+(?:\S+\s+){0,3}?"
    r"(?![a-z]*(?:ss|us|is|ous)\b)[a-z]{2,}s'?\s+"
    r"(?:do|does|did|has|have|had|are|were|is|was|can|could|would|will|of)\b"
)
"""``what``/``which`` and a plural noun before its verb ("What books has", "Which cities
have", "What types of")."""
_CUES = re.compile(
    r"\b(?:what|which)\s+(?:are|were)\b|\bhow\s+(?:many|often)\b|\bboth\b|\ball\b|\blist\b"
    r"|\bseveral\b|\bvarious\b|\b(?:what|which|where)\b[^?.]*\b(?:has|have)\s+\S+\s+\S*ed\b"
    r"|\bqu[ée]\s+[^\W\d_]{3,}s\b"
    r"|\b(?:cuáles|cuántos|cuántas|ambos|ambas|todos|todas|quais|quantos|quantas)\b"
    r"|\b(?:quels|quelles|combien|tous|toutes|les\s+deux)\b"
    r"|\b(?:welche|wie\s+viele|wie\s+oft|beide|beiden|alle|allen)\b"
    r"|\b(?:quali|quanti|quante|entrambi|entrambe|tutti|tutte)\b"
    r"|\b(?:welke|hoeveel|beide|alle)\b"
    r"|\b(?:jakie|które|ile|wszystkie|oba|obie)\b"
    r"|哪些|多少|几次|几个|几种|都|一些",
    re.I,
)
"""Cues of several things asked for, per language (the plural above is English's)."""


def asks_several(text: str) -> bool:
    """Whether the question asks for several things (see the module docstring)."""
    return bool(_CUES.search(text) or _EN_PLURAL.search(text.lower()))


def _divisor(held: int) -> float:
    return 1.0 + max(0, held - FREE + 1) if BY_SESSION else 1.0


def spread(
    store: SessionStore,
    fused: Sequence[FusedMessage],
    text: str,
    read: Mapping[int, Message] | None = None,
) -> list[FusedMessage]:
    """``fused`` (best first) with its head spread over sessions when ``text`` asks for
    several things (the module docstring); otherwise as it is. ``read``: messages an
    earlier step already read."""
    if len(fused) <= KEEP + 1 or not asks_several(text):
        return list(fused)
    pool = list(fused[:POOL])
    known = read or {}
    ids = [f.message_id for f in pool if f.direct and f.message_id is not None]
    missing = [i for i in ids if i not in known]
    messages = {**known, **store.messages_by_id(missing)} if missing else dict(known)
    keys = {i: text_keys(m.content or "") for i in ids if (m := messages.get(i)) is not None}
    held: Counter[str] = Counter()
    shown: list[frozenset[str]] = []
    chosen: list[FusedMessage] = []

    def place(f: FusedMessage) -> None:
        chosen.append(f)
        held[f.session_id] += 1
        k = keys.get(f.message_id) if f.message_id is not None else None
        if k:
            shown.append(k)

    def repeats(f: FusedMessage) -> bool:
        k = keys.get(f.message_id) if f.direct and f.message_id is not None else None
        if not k or len(k) < MIN_KEYS:
            return False
        return any(len(k & other) >= DUPLICATE * len(k) for other in shown)

    for f in pool[:KEEP]:
        place(f)
    rest = pool[KEEP:]
    while rest and len(chosen) < HEAD:
        fresh = [f for f in rest if not repeats(f)] or rest
        best = max(fresh, key=lambda f: f.score / _divisor(held[f.session_id]))
        rest.remove(best)
        place(best)
    head = chosen
    order = {(f.session_id, f.seq): i for i, f in enumerate(fused)}
    out = [
        f._replace(notes=(*f.notes, "spread")) if order[(f.session_id, f.seq)] > i else f
        for i, f in enumerate(head)
    ]
    out += rest
    out += fused[POOL:]
    return out


def after(step: Any) -> Any:
    """``step`` (``retrieval.candidates``, as the message ranking calls it) followed by
    :func:`spread` of its positions."""

    def wrapped(
        store: SessionStore, query: Any, text: str, *args: Any, **kw: Any
    ) -> tuple[list[FusedMessage], str, str | None]:
        fused, used, notice = step(store, query, text, *args, **kw)
        return spread(store, fused, text), used, notice

    return wrapped
