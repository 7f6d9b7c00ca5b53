"""Recall 19's rules for "hybrid never loses", measured on dev and dropped (``docs/recall.md``).

The rule, written before measuring: a turn the lexical or the semantic list ranks ``r``
(as the fusion gets them, with their neighbours; the first :data:`DEPTH` of each) is
placed no lower than ``2r`` in the fused list (the lexical list's places spread by the
share of its weight the question leaves it, ``readable``: ``2r / readable``, none at 0).
The fused order is kept wherever it meets this; a turn it would place lower moves up,
the turns between move down one, and every place keeps the fused score of that place.
A second form, also fixed before its run, promises places only to a turn one list never
scored (the blend counts it as that list's worst).

Variants of ``bench/_misses.py``: ``standing`` (every turn) and ``standingabsent`` (only
a turn one list never scored); ``trusted`` is the third rule measured and dropped, a
per-question weight of the lexical list (:func:`trusted`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import mnemic.sessions.search.hybrid as hybrid_module
import mnemic.sessions.search.retrieval as retrieval_module

FACTOR = 2.0
"""Two lists share the places, so each is promised every second one."""
DEPTH = 50
"""The places of each list promised (the semantic list's own length)."""

Pos = tuple[str, int]


def keep_standing(
    ordered: Sequence[Pos],
    ranks: Sequence[tuple[dict[Pos, tuple[int, float]], float]],
    depth: int = DEPTH,
) -> list[Pos]:
    """``ordered`` with every position a list ranks ``r`` (its first ``depth``) placed no
    lower than ``factor * r`` (``ranks``: each list's ranks from 1 and its factor; 0 or
    less promises nothing). Each place goes to the next position of ``ordered`` unless a
    promise would then be broken: when the ``j`` positions with the nearest latest places
    need every place from here to the ``j``-th of those, the one of them ``ordered``
    ranks first takes this place. Two lists with factor 2 can always be kept."""
    latest: dict[Pos, int] = {}
    for side, factor in ranks:
        if factor <= 0:
            continue
        for pos, (rank, _) in side.items():
            if rank <= depth:
                place = math.ceil(factor * rank - 1e-9)
                latest[pos] = min(latest.get(pos, place), place)
    at = {pos: i for i, pos in enumerate(ordered)}
    pending = sorted((place, at[pos], pos) for pos, place in latest.items() if pos in at)
    out: list[Pos] = []
    placed: set[Pos] = set()
    nxt = 0
    while pending:
        here = len(out) + 1
        due = next((j for j, (place, _, _) in enumerate(pending, 1) if place - here + 1 <= j), None)
        if due is not None:
            chosen = min(pending[:due], key=lambda item: item[1])[2]
        else:
            while ordered[nxt] in placed:
                nxt += 1
            chosen = ordered[nxt]
        placed.add(chosen)
        out.append(chosen)
        pending = [item for item in pending if item[2] != chosen]
    out.extend(pos for pos in ordered if pos not in placed)
    return out


def standing_fuse(absent_only: bool) -> Any:
    """The shipped :func:`~mnemic.sessions.search.hybrid.fuse`, then :func:`keep_standing`."""
    shipped = hybrid_module.fuse

    def fuse(lexical: Any, semantic: Any, **kw: Any) -> list[Any]:
        fused = shipped(lexical, semantic, **kw)
        if not lexical:  # semantic mode: its own order
            return fused
        readable = kw.get("readable", 1.0)
        share = hybrid_module.ASK_SHARE if kw.get("statements") else 1.0
        lex, lex_hits = hybrid_module._lexical_side(lexical)
        sem, _ = hybrid_module._semantic_side(semantic, hybrid_module.SEMANTIC_CONTEXT, share)
        if absent_only:
            lex, sem = (
                {p: r for p, r in lex.items() if p not in sem},
                {p: r for p, r in sem.items() if p not in lex_hits},
            )
        ordered = [(f.session_id, f.seq) for f in fused]
        factor = FACTOR / readable if readable > 0 else 0.0
        kept = keep_standing(ordered, ((lex, factor), (sem, FACTOR)))
        by_pos = {(f.session_id, f.seq): f for f in fused}
        # a moved turn takes the place, and the score, it gets
        return [by_pos[p]._replace(score=f.score) for p, f in zip(kept, fused, strict=True)]

    return fuse


@contextmanager
def standing(absent_only: bool = False) -> Iterator[None]:
    """The rule switched on for the calls inside."""
    saved = retrieval_module.fuse
    retrieval_module.fuse = standing_fuse(absent_only)  # type: ignore[assignment]
    try:
        yield
    finally:
        retrieval_module.fuse = saved  # type: ignore[assignment]


# --- a per-question trust of the lexical list (recall 19's third rule) -----------------

_ASKED: dict[str, Any] = {}


@contextmanager
def trusted() -> Iterator[None]:
    """The third rule, written before its run: the lexical list weighs, on top of the
    share of the question it can read, by the best share of the question's searched words
    one of its first 5 matches holds (the floor's word signal,
    :func:`~mnemic.sessions.search.floor._word_share`, with the forms the search matched):
    a question worded away from the turns leans on meaning."""
    from mnemic.sessions.search import floor as floor_module

    retrieve, shipped = retrieval_module._retrieve, retrieval_module.fuse

    def remember(store: Any, query: Any, *args: Any, **kw: Any) -> Any:
        _ASKED.update(store=store, query=query)
        return retrieve(store, query, *args, **kw)

    def fuse(lexical: Any, semantic: Any, **kw: Any) -> Any:
        store, query = _ASKED.get("store"), _ASKED.get("query")
        ids = [r.hit.message_id for r in lexical if r.hit is not None][:5]
        if ids and store is not None and not query.empty:
            found = store.messages_by_id(ids)
            texts = [found[i].content or "" for i in ids if i in found]
            share = floor_module._word_share(query, texts, store.forms_of(query))
            kw["readable"] = kw.get("readable", 1.0) * share
        return shipped(lexical, semantic, **kw)

    retrieval_module._retrieve = remember  # type: ignore[assignment]
    retrieval_module.fuse = fuse  # type: ignore[assignment]
    try:
        yield
    finally:
        retrieval_module._retrieve = retrieve  # type: ignore[assignment]
        retrieval_module.fuse = shipped  # type: ignore[assignment]
