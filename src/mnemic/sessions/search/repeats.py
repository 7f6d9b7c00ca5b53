"""Said before: a sentence that recurs across the best matches carries little evidence.

A long history repeats itself. An assistant reuses the same paragraphs session after
session ("A first marathon plan usually runs sixteen to twenty weeks ..."), closes with
the same line ("Thanks for the update."), and echoes what the user just told it
("Okay, I'll keep that in mind. Our production cluster runs Django 12.6."). Words and
meaning rank every copy as high as the one message that states the fact, and often
higher: a paragraph full of the topic's words outweighs one sentence.

Evidence is what a message says that the others do not. Among the best direct matches
(:data:`CANDIDATES`), each sentence is counted by the messages that hold it (an inverse
document frequency over messages, computed at query time from the texts the ranking
already found): a user's sentence by the user's messages, an assistant's by every
message, so that an assistant repeating the user's words shares them with the user's
statement while the statement stays the user's own. A sentence held by ``n`` messages
is ``1 / n`` new. A message keeps the larger of two shares of its score: its words'
(the query words its best sentence holds, weighed by that sentence's novelty, over the
most query words one of its sentences holds: a copied paragraph dense with the
question's words keeps ``1 / n``, a message that states them in a sentence of its own
keeps all) and its text's (the novelty of its sentences weighed by their length: a
reply that opens with a stock "Thanks, Caroline!" and goes on in its own words keeps
most of its score by meaning). A message whose every sentence is its own is untouched:
a conversation without repeats ranks as before. Each discounted message says so
(``notes``: ``repeated``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from functools import lru_cache

from ..index.query import Query
from ..index.stems import text_keys
from ..sql import SessionStore
from ..store import Message
from .freshness import query_words
from .hybrid import FusedMessage

__all__ = ["CANDIDATES", "discount_repeats"]

CANDIDATES = 100
"""Best direct matches whose sentences are counted and whose scores may be discounted."""
TEXT_CHARS = 2000
"""Characters of a message read for its sentences (a long reply's start is enough to
tell a template)."""
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|[\n。！？；]+")


@lru_cache(maxsize=1024)
def _sentences(text: str) -> tuple[str, ...]:
    """The sentences of a message's text, each case-folded with its spaces collapsed
    (remembered per process: the best matches of one question are mostly those of the
    last)."""
    out = []
    for sentence in _SENTENCE.split(text[:TEXT_CHARS]):
        key = " ".join(sentence.casefold().split())
        if key:
            out.append(key)
    return tuple(out)


@lru_cache(maxsize=8192)
def _keys(sentence: str) -> frozenset[str]:
    """The word keys of one sentence (remembered: a template's sentences recur)."""
    return text_keys(sentence, limit=len(sentence))


def discount_repeats(
    store: SessionStore,
    fused: Sequence[FusedMessage],
    query: Query,
    read: dict[int, Message] | None = None,
) -> list[FusedMessage]:
    """``fused`` (best first) with each direct match among the best :data:`CANDIDATES`
    keeping the share of its score that is its own (see the module docstring), re-sorted.
    The messages it reads (one read) are added to ``read``, for the steps after it."""
    direct = [f for f in fused[:CANDIDATES] if f.direct and f.message_id is not None]
    if len(direct) < 2:
        return list(fused)
    messages = store.messages_by_id(f.message_id for f in direct if f.message_id is not None)
    if read is not None:
        read.update(messages)
    said: dict[int, tuple[str, tuple[str, ...]]] = {}
    users: dict[str, set[int]] = defaultdict(set)
    anyone: dict[str, set[int]] = defaultdict(set)
    for f in direct:
        m = messages.get(f.message_id) if f.message_id is not None else None
        if m is None or m.id in said:
            continue
        sentences = _sentences(m.content or "")
        said[m.id] = (m.role, sentences)
        for key in sentences:
            anyone[key].add(m.id)
            if m.role == "user":
                users[key].add(m.id)
    if all(len(ids) < 2 for ids in anyone.values()):
        return list(fused)
    qwords = query_words(query)
    share: dict[int, float] = {}
    holds: dict[str, int] = {}
    for mid, (role, sentences) in said.items():
        counts = [len((users if role == "user" else anyone)[key]) for key in sentences]
        if not counts or max(counts) < 2:
            continue
        held = []
        for key in sentences:
            if key not in holds:  # a template's sentence is read once, not once a copy
                found = _keys(key)
                holds[key] = sum(1 for w in qwords if w & found)
            held.append(holds[key])
        most = max(held)
        words_own = max(h / n for h, n in zip(held, counts, strict=True)) / most if most else 0
        size = [len(key) for key in sentences]
        text_own = sum(z / n for z, n in zip(size, counts, strict=True)) / sum(size)
        own = max(words_own, text_own)
        if own < 1.0:
            share[mid] = own
    if not share:
        return list(fused)
    out = list(fused)
    for i, f in enumerate(fused[:CANDIDATES]):
        s = share.get(f.message_id) if f.direct and f.message_id is not None else None
        if s is not None:
            out[i] = f._replace(score=f.score * s, notes=(*f.notes, "repeated"))
    out.sort(key=lambda f: (-f.score, not f.direct, f.session_id, f.seq))
    return out
