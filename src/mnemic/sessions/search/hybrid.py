"""Hybrid ranking: lexical and semantic candidates fused into one list (pure functions).

The lexical side is the ranked message positions of :func:`~.ranking.rank`
(bm25 plus neighbour context and the session prior); the semantic side is the messages a
vector search returned, best cosine first, already resolved to their positions
(:class:`SemanticHit`). Both are fused by position ``(session_id, seq)``:

* :func:`rrf` — reciprocal-rank fusion: ``w_lex / (k + rank_lex) + w_sem / (k + rank_sem)``.
  Uses ranks only, so the scales of bm25 and cosine never meet.
* :func:`blend` — a score blend: lexical scores divided by the best one, cosines rescaled
  between the last and the best candidate, ``alpha * lexical + (1 - alpha) * semantic``.

Before fusing, the semantic candidates may lend a share of their strength to their
neighbours (:func:`semantic_context`), as the lexical ranker does: in a conversation the
answer often sits next to the turn that is about the question.

Every fused position says which part matched the message itself (``matched``):
``("lexical",)``, ``("semantic",)``, ``("lexical", "semantic")``, or ``()`` for a
neighbour that ranks only through a matching message's context. Ties break by position
(direct matches before neighbours), so the result is deterministic. Measured on LoCoMo
in ``bench/locomo.py``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from ..store import Hit
from .ranking import RankedMessage

__all__ = [
    "BLEND_ALPHA",
    "FUSION",
    "LEXICAL",
    "PASSAGE_RECIPE",
    "RRF_K",
    "RRF_WEIGHTS",
    "SEMANTIC",
    "SEMANTIC_CONTEXT",
    "FusedMessage",
    "SemanticHit",
    "blend",
    "fuse",
    "rrf",
    "semantic_context",
]

LEXICAL = "lexical"
SEMANTIC = "semantic"

RRF_K = 10.0
"""The rank offset of reciprocal-rank fusion (larger flattens the head of each list)."""
RRF_WEIGHTS = (1.0, 1.0)
"""(lexical, semantic) weights of reciprocal-rank fusion."""
BLEND_ALPHA = 0.6
"""Lexical share of the score blend."""
FUSION = "blend"
"""The shipped fusion method: ``blend`` or ``rrf`` (the better on LoCoMo's tuning split)."""
SEMANTIC_CONTEXT: tuple[float, ...] = (0.5, 0.2)
"""Share of a semantic candidate's strength given to neighbours at distance 1, 2, ..."""
ASK_SHARE = 0.5
"""Share of its semantic strength a message that asks a question keeps when the
question searched for is in the first person (:func:`fuse`'s ``statements``): "Which
cities did I visit?" is answered by what the user stated ("I visited Ghent for a long
weekend"), not by what they asked ("Which city should I visit on a long weekend?"),
which the meaning of the question is as near to. The lexical side is not touched."""
PASSAGE_RECIPE = "context"
"""What text of a message is embedded (measured on LoCoMo; the embedding package's
``passage_text`` implements it): ``plain`` (the text), ``speaker`` ("Name: text") or
``context`` (the previous turn, then "Name: text")."""


class SemanticHit(NamedTuple):
    """One vector-search result resolved to its position."""

    message_id: int
    session_id: str
    seq: int
    cosine: float
    session_messages: int | None = None
    """Messages in its session, when known (bounds the neighbours of :func:`semantic_context`)."""
    source: str | None = None
    """Its session's source, when known."""
    asks: bool = False
    """Whether the message is a question (ends with a question mark)."""


class FusedMessage(NamedTuple):
    """A message position of the fused ranking (higher ``score`` is better)."""

    session_id: str
    seq: int
    score: float
    matched: tuple[str, ...]
    """Which parts matched the message itself: ``lexical``, ``semantic``, both (in that
    order) or none (a neighbour ranked through context)."""
    hit: Hit | None
    """The lexical hit at this position, or None."""
    semantic: SemanticHit | None
    """The semantic candidate at this position, or None."""
    notes: tuple[str, ...] = ()
    """What moved it after fusion (:mod:`.freshness`): ``fresh`` (a later statement of
    the subject of a message it now ranks above), ``superseded``, ``earlier`` / ``later``
    (the same for a question about the past), ``date`` (of a date the question names),
    ``other_side`` (said by the side the question does not ask about, :mod:`.speaker`),
    ``stated`` (the user's statement placed above the reply that answers it, :mod:`.speaker`),
    ``reply`` (an assistant's reply that gave way to the statement it follows, :mod:`.speaker`)."""

    @property
    def direct(self) -> bool:
        """Whether the message itself matched (lexically, or as a semantic candidate)."""
        return bool(self.matched)

    @property
    def message_id(self) -> int | None:
        """The message id when a part knew it (neighbours only have a position)."""
        if self.hit is not None:
            return self.hit.message_id
        return self.semantic.message_id if self.semantic is not None else None

    @property
    def source(self) -> str | None:
        """The session's source when a part knew it."""
        if self.hit is not None:
            return self.hit.source
        return self.semantic.source if self.semantic is not None else None


Pos = tuple[str, int]


def semantic_context(
    hits: Sequence[SemanticHit],
    context: Sequence[float] = SEMANTIC_CONTEXT,
    asks_share: float = 1.0,
) -> list[tuple[Pos, float, SemanticHit | None]]:
    """Semantic positions best first with their strength, neighbours included.

    A candidate's strength is its cosine rescaled between the worst and the best candidate
    (0..1); with ``context`` each candidate adds ``weight * strength`` to its neighbours at
    distance 1, 2, ... (bounded by ``session_messages`` when known). A candidate that asks
    a question (``asks``) keeps ``asks_share`` of its strength. Ties break by position.
    """
    if not hits:
        return []
    best = max(h.cosine for h in hits)
    worst = min(h.cosine for h in hits)
    span = best - worst
    scores: dict[Pos, float] = defaultdict(float)
    direct: dict[Pos, SemanticHit] = {}
    for h in hits:
        pos = (h.session_id, h.seq)
        if pos in direct:
            continue
        direct[pos] = h
        value = (h.cosine - worst) / span if span > 0 else 1.0
        if h.asks:
            value *= asks_share
        scores[pos] += value
        for distance, weight in enumerate(context, 1):
            for seq in (h.seq - distance, h.seq + distance):
                if seq < 0 or (h.session_messages is not None and seq >= h.session_messages):
                    continue
                scores[(h.session_id, seq)] += weight * value
    ordered = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0] not in direct, kv[0]))
    return [(pos, s, direct.get(pos)) for pos, s in ordered]


def _lexical_side(
    lexical: Sequence[RankedMessage],
) -> tuple[dict[Pos, tuple[int, float]], dict[Pos, Hit | None]]:
    order: dict[Pos, tuple[int, float]] = {}
    hits: dict[Pos, Hit | None] = {}
    top = max((r.score for r in lexical), default=0.0) or 1.0
    for r in lexical:
        pos = (r.session_id, r.seq)
        if pos in order:
            continue
        order[pos] = (len(order) + 1, max(r.score, 0.0) / top)
        hits[pos] = r.hit
    return order, hits


def _semantic_side(
    semantic: Sequence[SemanticHit], context: Sequence[float], asks_share: float = 1.0
) -> tuple[dict[Pos, tuple[int, float]], dict[Pos, SemanticHit | None]]:
    order: dict[Pos, tuple[int, float]] = {}
    hits: dict[Pos, SemanticHit | None] = {}
    for pos, strength, hit in semantic_context(semantic, context, asks_share):
        order[pos] = (len(order) + 1, strength)
        hits[pos] = hit
    return order, hits


def _finish(
    scores: dict[Pos, float],
    lex: dict[Pos, tuple[int, float]],
    lex_hits: dict[Pos, Hit | None],
    sem: dict[Pos, tuple[int, float]],
    sem_hits: dict[Pos, SemanticHit | None],
    limit: int | None,
) -> list[FusedMessage]:
    def key(pos: Pos) -> tuple[float, bool, str, int]:
        direct = lex_hits.get(pos) is not None or sem_hits.get(pos) is not None
        return (-scores[pos], not direct, pos[0], pos[1])

    ordered = sorted(scores, key=key)
    if limit is not None:
        ordered = ordered[:limit]
    out = []
    for pos in ordered:
        matched = tuple(
            name
            for name, found in ((LEXICAL, lex_hits.get(pos)), (SEMANTIC, sem_hits.get(pos)))
            if found is not None
        )
        out.append(
            FusedMessage(pos[0], pos[1], scores[pos], matched, lex_hits.get(pos), sem_hits.get(pos))
        )
    return out


def rrf(
    lexical: Sequence[RankedMessage],
    semantic: Sequence[SemanticHit],
    *,
    k: float = RRF_K,
    weights: tuple[float, float] = RRF_WEIGHTS,
    context: Sequence[float] = SEMANTIC_CONTEXT,
    limit: int | None = None,
    asks_share: float = 1.0,
) -> list[FusedMessage]:
    """Reciprocal-rank fusion of the lexical ranking and the semantic candidates.

    Each position appears once; its score is the sum over the parts that ranked it of
    ``weight / (k + rank)`` (ranks from 1, best first).
    """
    lex, lex_hits = _lexical_side(lexical)
    sem, sem_hits = _semantic_side(semantic, context, asks_share)
    scores: dict[Pos, float] = defaultdict(float)
    for side, weight in ((lex, weights[0]), (sem, weights[1])):
        for pos, (rank, _) in side.items():
            scores[pos] += weight / (k + rank)
    return _finish(scores, lex, lex_hits, sem, sem_hits, limit)


def blend(
    lexical: Sequence[RankedMessage],
    semantic: Sequence[SemanticHit],
    *,
    alpha: float = BLEND_ALPHA,
    context: Sequence[float] = SEMANTIC_CONTEXT,
    limit: int | None = None,
    asks_share: float = 1.0,
) -> list[FusedMessage]:
    """Score blend: ``alpha * lexical + (1 - alpha) * semantic``.

    Lexical scores are divided by the best lexical score; semantic strengths come from
    :func:`semantic_context`. A position missing from one side scores 0 there.
    """
    lex, lex_hits = _lexical_side(lexical)
    sem, sem_hits = _semantic_side(semantic, context, asks_share)
    scores: dict[Pos, float] = defaultdict(float)
    for side, weight in ((lex, alpha), (sem, 1.0 - alpha)):
        for pos, (_, strength) in side.items():
            scores[pos] += weight * strength
    return _finish(scores, lex, lex_hits, sem, sem_hits, limit)


def fuse(
    lexical: Sequence[RankedMessage],
    semantic: Sequence[SemanticHit],
    *,
    limit: int | None = None,
    statements: bool = False,
    readable: float = 1.0,
) -> list[FusedMessage]:
    """The shipped fusion (the method and parameters chosen on LoCoMo's tuning split).

    ``statements``: the question asks what the user stated or did (it is in the first
    person): a semantic candidate that is itself a question keeps :data:`ASK_SHARE` of
    its strength. ``readable``: the share of the question's words the lexical side can
    match at all (:func:`~.retrieval.readable_share`: a question in Chinese over an
    English chat, 0); the lexical side weighs that share of its weight."""
    share = ASK_SHARE if statements else 1.0
    if FUSION == "rrf":
        weights = (RRF_WEIGHTS[0] * readable, RRF_WEIGHTS[1])
        return rrf(lexical, semantic, limit=limit, asks_share=share, weights=weights)
    return blend(lexical, semantic, limit=limit, asks_share=share, alpha=BLEND_ALPHA * readable)
