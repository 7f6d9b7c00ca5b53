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

Every other question, and every store without word vectors (not embedded, embedded
before the word table, or a backend without one), is searched exactly as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..index.query import parse_query
from ..index.stems import STOP_WORDS, words
from ..sql import SessionStore
from ..store import SearchFilters
from .query_vectors import query_vectors
from .speaker import scripts
from .timeframe import read_timeframe

__all__ = ["BRIDGE", "FOUND", "applies", "bridge_words", "nearest_pieces"]

BRIDGE = True
"""Whether the bridge runs (a bench knob)."""
FOUND = 50
"""Messages nearest the question one of which must write a bridged word."""
CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def applies(text: str, written: set[str] | None) -> bool:
    """Whether ``text`` is a question the bridge is for: it has CJK letters and content
    words, and none of them is written only in scripts of ``written`` (the scripts of
    the nearest messages; None: unknown, no bridge)."""
    if not BRIDGE or written is None or not CJK_RUN.search(text):
        return False
    lettered = [w for w in words(text) if scripts(w) and w.casefold() not in STOP_WORDS]
    return bool(lettered) and not any(scripts(w) <= written for w in lettered)


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
