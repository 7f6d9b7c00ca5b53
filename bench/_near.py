"""Recall 27's two rules as bench variants (``near``, ``hop``; ``bench/_misses.py``).

Written before either was run on dev (the numbers they produce are in docs/recall.md,
recall 27). Both act in hybrid only (the lexical mode is the baseline hybrid must not
fall below, and it has no embedder); both leave a question in a script the chat does not
write (the bridge's, :mod:`mnemic.sessions.search.bridge`) alone.

**Rule A, ``near``: the question's words in the chat's words of the same meaning** (the
cause "the evidence's words differ from the question's", 4.1 points of dev R@10). The
store keeps a vector of every word its messages write (``chat_words``, recall 25). For a
question the lexical side can read:

1. its content words: no function word, no speaker's name, no word of what it says
   about time (:func:`~mnemic.sessions.search.timeframe.read_timeframe`), letters only,
   three characters or more;
2. each word's vector: the stored one when the chat writes the word, else the word
   embedded as a query (one batch for all of them);
3. its neighbours: the chat's words at cosine :data:`TAU` or more to it, the nearest
   first, at most :data:`PER_WORD`; none that shares a stem key with a word of the
   question (the search already matches those), is a function word, a speaker's name or
   shorter than three letters;
4. a second lexical search of the neighbours alone (any of them, the same filters, the
   same candidate count); each of its hits counts :data:`WEIGHT` times its bm25 and is
   added to the question's own hits before the neighbour context and session prior
   (:func:`~mnemic.sessions.search.ranking.rank`; a message in both lists adds both).
   So a word of the same meaning counts half a word of the question.

TAU = 0.90, PER_WORD = 3, WEIGHT = 0.5, fixed before the run (recall 24 saw real
translations at 0.90-0.95 and accidents at 0.84-0.88 with this embedder).

**Rule B, ``hop``: a list question's second hop by meaning** (the cause "a multi-hop
question's second hop never retrieved", 60 turns, 3.3 points). For a question that reads
as asking for several things (``bench/_spread.py``'s ``asks_several``: a plural after
what/which, how many, both, all ...), the vector search runs a second time with the
question's vector plus the mean vector of its :data:`HOP_SEEDS` nearest messages from
distinct sessions (pseudo-relevance feedback in the vector space, equal weights, one
more search: bounded), and its hits from sessions none of the first search's
:data:`HOP_SEEDS` seeds is from join the semantic candidates with their cosine to the
*question* (so they enter the blend below the hits that are nearer it, and the rescale
of the cosines spans the same candidates plus these). Every other question untouched.
HOP_SEEDS = 3, fixed before the run.

Forms added later, each fixed before its own run: ``near92`` (TAU 0.92, 2 a word; after
reading rule A's words for 25 dev questions, before any recall run); after the first run
was read, ``nearq`` (a word kept only if also among the :data:`CONTEXT` chat words nearest
the whole question), ``hopq`` (the new hits scored by their cosine to the moved vector
times the question's best cosine over the moved search's best, at most the
:data:`HOP_CAP`-th candidate's), ``nearpool`` (``near92``'s hits only below the
question's own), ``nears`` (a word kept only if one of the 50 messages nearest the
question writes it) and, last, ``nearrare`` (``nears`` and a word at most 1 % of the
messages hold). None passed (docs/recall.md, recall 27).

The rule for shipping (written before the run): a variant ships if LoCoMo dev hybrid
turn@10 gains with a paired 95 % interval above 0, nothing drops at any k by more than
its paired interval, hybrid stays at or above lexical at every k on LoCoMo dev, the
update fixture and the long chat, and a question's CPU median rises by at most 25 %.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import mnemic.sessions.search.ranking as ranking_module
import mnemic.sessions.search.retrieval as retrieval_module
from mnemic.sessions.index.query import parse_query
from mnemic.sessions.index.stems import STOP_WORDS, content_word_keys, words
from mnemic.sessions.search.hybrid import SemanticHit
from mnemic.sessions.search.query_vectors import query_vectors
from mnemic.sessions.search.speaker import scripts
from mnemic.sessions.search.timeframe import read_timeframe

TAU = 0.90
PER_WORD = 3
WEIGHT = 0.5
HOP_SEEDS = 3
CONTEXT = 30
HOP_CAP = 5

SEEN: dict[str, list[str]] = {}
"""Question -> the neighbours rule A searched (for reading them)."""


def _keys(word: str) -> frozenset[str]:
    got = content_word_keys([word])
    return got[0] if got else frozenset()


def neighbours(
    store: Any,
    embedder: Any,
    text: str,
    tau: float = TAU,
    per_word: int = PER_WORD,
    vec: Any = None,
) -> list[str]:
    """Rule A's steps 1-3: the chat's words near the question's content words (with
    ``vec``, the question's vector: only those also among the :data:`CONTEXT` words
    nearest it, form ``nearq``)."""
    import numpy as np

    if store.words is None:
        return []
    table = store.words.matrix(embedder.model_id)
    if table is None:
        return []
    timed = {w.casefold() for said in read_timeframe(text).words for w in words(said)}
    asked = [
        w.casefold()
        for w in dict.fromkeys(words(text))
        if w.isalpha()
        and len(w) >= 3
        and w.casefold() not in STOP_WORDS
        and w.casefold() not in table.names
        and w.casefold() not in timed
    ]
    if not asked:
        return []
    index = {w: i for i, w in enumerate(table.words)}
    missing = [w for w in asked if w not in index]
    made = dict(zip(missing, query_vectors(embedder, missing), strict=True)) if missing else {}
    vecs = np.stack(
        [table.matrix[index[w]] if w in index else np.asarray(made[w], np.float32) for w in asked]
    )
    sims = vecs @ table.matrix.T
    own = set().union(*(_keys(w) for w in words(text)))
    context = None
    if vec is not None:
        whole = table.matrix @ np.asarray(vec, np.float32)
        context = {table.words[j] for j in np.argsort(-whole)[:CONTEXT]}
    out: list[str] = []
    for row in sims:
        order = np.argsort(-row)
        took = 0
        for j in order[: 50 + per_word]:
            if row[j] < tau or took >= per_word:
                break
            cand = table.words[j]
            if (
                len(cand) < 3
                or not cand.isalpha()
                or cand in STOP_WORDS
                or cand in table.names
                or _keys(cand) & own
                or (context is not None and cand not in context)
            ):
                continue
            out.append(cand)
            own |= _keys(cand)
            took += 1
    return out


_COUNTS: dict[int, dict[str, int]] = {}


def _held_counts(store: Any) -> dict[str, int]:
    """Word (casefolded) -> how many of ``store``'s messages hold it ("": the messages)."""
    if id(store) not in _COUNTS:
        counts: dict[str, int] = {"": 0}
        for info in store.list_sessions(limit=1_000_000):
            for m in store.messages(info.id):
                counts[""] += 1
                for w in {w.casefold() for w in words(m.content or "")}:
                    counts[w] = counts.get(w, 0) + 1
        _COUNTS[id(store)] = counts
    return _COUNTS[id(store)]


@contextmanager
def near(
    tau: float = TAU,
    per_word: int = PER_WORD,
    weight: float = WEIGHT,
    whole: bool = False,
    pool: bool = False,
    written: bool = False,
    rare: float | None = None,
) -> Iterator[None]:
    """Variant ``near`` (rule A; ``whole``: form ``nearq``; ``pool``: form ``nearpool``,
    the neighbours' hits join only below the question's own: a message the question's
    words found is left as it is, any other scores at most as the weakest of those;
    ``written``: form ``nears``, a neighbour is kept only if one of the 50 messages
    nearest the question's meaning writes it, the shipped bridge's check; ``rare``: form
    ``nearrare``, a neighbour is kept only if at most that share of the store's messages
    (at least 2) holds it, recall 15's bound)."""
    orig_retrieve = retrieval_module._retrieve
    orig_rank = retrieval_module.rank_messages

    def retrieve(
        store: Any, query: Any, text: str, filters: Any, *, mode: Any, state: Any, frame: Any
    ) -> Any:
        want = mode or "hybrid"
        if want != "hybrid" or state.embedder is None or not scripts(text) - {"CJK"}:
            return orig_retrieve(store, query, text, filters, mode=mode, state=state, frame=frame)
        vec = (
            query_vectors(state.embedder, [text[: retrieval_module.QUERY_CHARS]])[0]
            if whole
            else None
        )
        found = neighbours(store, state.embedder, text, tau, per_word, vec)
        if written and found:
            qv = query_vectors(state.embedder, [text[: retrieval_module.QUERY_CHARS]])[0]
            near_ids = [
                i for i, _ in store.vectors.search(qv, state.embedder.model_id, filters, 50)
            ]
            said = store.messages_by_id(near_ids)
            held = {w.casefold() for m in said.values() for w in words(m.content or "")}
            found = [w for w in found if w in held]
        if rare is not None and found:
            held_by = _held_counts(store)
            most = max(2, int(rare * held_by[""]))
            found = [w for w in found if held_by.get(w, 0) <= most]
        SEEN[text] = found
        if not found:
            return orig_retrieve(store, query, text, filters, mode=mode, state=state, frame=frame)
        extra = parse_query(" ".join(found)).with_match("any")

        def rank_messages(store_: Any, query_: Any, filters_: Any, *, candidates: int) -> Any:
            hits = store_.search(query_, filters_, limit=candidates)
            more = store_.search(extra, filters_, limit=candidates)
            if pool and hits:
                weakest = max(h.score for h in hits)
                own = {h.message_id for h in hits}
                more = [
                    h._replace(score=max(h.score * weight, weakest) / weight)
                    for h in more
                    if h.message_id not in own
                ]
            merged = [*hits, *(h._replace(score=h.score * weight) for h in more)]
            merged.sort(key=lambda h: h.score)
            return ranking_module.rank(merged)

        retrieval_module.rank_messages = rank_messages
        try:
            return orig_retrieve(store, query, text, filters, mode=mode, state=state, frame=frame)
        finally:
            retrieval_module.rank_messages = orig_rank

    retrieval_module._retrieve = retrieve
    try:
        yield
    finally:
        retrieval_module._retrieve = orig_retrieve


@contextmanager
def hop(
    seeds: int = HOP_SEEDS, several: Callable[[str], bool] | None = None, scaled: bool = False
) -> Iterator[None]:
    """Variant ``hop`` (rule B; ``scaled``: form ``hopq``)."""
    import numpy as np

    from _spread import asks_several

    several = several or asks_several
    orig_soon = retrieval_module._semantic_soon
    orig_hits = retrieval_module._semantic_hits
    asked: list[str] = [""]

    def soon(store: Any, embedder: Any, text: str, *args: Any, **kw: Any) -> Any:
        asked[0] = text
        return orig_soon(store, embedder, text, *args, **kw)

    def hits(
        store: Any, embedder: Any, vec: Any, filters: Any, limit: int, read: Any = None
    ) -> list[SemanticHit]:
        got = orig_hits(store, embedder, vec, filters, limit, read)
        text = asked[0]
        cache = getattr(store.vectors, "_cache", None)
        if not got or cache is None or not several(text) or "CJK" in scripts(text):
            return got
        picked: list[SemanticHit] = []
        for h in got:
            if all(h.session_id != p.session_id for p in picked):
                picked.append(h)
            if len(picked) == seeds:
                break
        rows = [int(np.flatnonzero(cache.ids == h.message_id)[0]) for h in picked]
        q = np.asarray(vec, np.float32)
        q = q / np.linalg.norm(q)
        moved = q + cache.matrix[rows].astype(np.float32).mean(axis=0)
        moved = moved / np.linalg.norm(moved)
        seeded = {p.session_id for p in picked}
        have = {h.message_id for h in got}
        again = orig_hits(store, embedder, moved, filters, limit, read)
        more = [h for h in again if h.message_id not in have and h.session_id not in seeded]
        if not more:
            return got
        if scaled:
            best_moved = max(h.cosine for h in again)
            cap = got[min(HOP_CAP, len(got)) - 1].cosine
            top_q = got[0].cosine
            cos = [min(h.cosine * top_q / best_moved, cap) for h in more]
        else:
            cos = [
                float((cache.matrix[cache.ids == h.message_id].astype(np.float32) @ q).max())
                for h in more
            ]
        more = [h._replace(cosine=c) for h, c in zip(more, cos, strict=True)]
        return sorted([*got, *more], key=lambda h: -h.cosine)

    retrieval_module._semantic_soon = soon
    retrieval_module._semantic_hits = hits
    try:
        yield
    finally:
        retrieval_module._semantic_soon = orig_soon
        retrieval_module._semantic_hits = orig_hits
