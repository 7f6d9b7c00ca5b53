"""Lexical, semantic and hybrid retrieval on LoCoMo: rankings, scores and the fusion tuning.

Used by ``bench/locomo.py --retrieval``. Every question is ranked three ways over the same
conversation store:

* lexical: ``mnemic.sessions.rank`` (bm25 + neighbour context + session prior), as today;
* semantic: exact cosine over the conversation's passage vectors (the passage recipe
  decides what text of a turn was embedded), the best ``SEM_CANDIDATES`` turns;
* hybrid: both fused with ``mnemic.sessions.search.hybrid`` (RRF or a score blend).

Fusion parameters are chosen on a tuning split of the conversations only (a fixed-seed
split by conversation) and reported on the held-out split and on all of them.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from _recall import Tally
from _semantic import RECIPES, cached_vectors, store_turns
from mnemic.sessions import SearchFilters, parse_query, rank
from mnemic.sessions.search.hybrid import SemanticHit, blend, rrf, semantic_context
from mnemic.sessions.search.ranking import CANDIDATES, RankedMessage

SEM_CANDIDATES = 100
SPLIT_SEED = 13
TUNE_COUNT = 3


@dataclass
class Item:
    """One question to score: where it comes from, its evidence and its rankings."""

    conv: str
    category: int
    question: str
    evidence: list[str]
    lexical: list[RankedMessage]
    hits: dict[str, list[SemanticHit]]
    """Semantic candidates per passage recipe."""


@dataclass
class Side:
    """A conversation's vectors under one passage recipe."""

    matrix: Any
    pos: list[tuple[str, int]]
    ids: list[int]
    sizes: dict[str, int]


def split(conv_ids: Sequence[str]) -> tuple[list[str], list[str]]:
    """(tuning, held-out) conversation ids, a fixed-seed split by conversation."""
    ids = sorted(conv_ids)
    random.Random(SPLIT_SEED).shuffle(ids)
    return sorted(ids[:TUNE_COUNT]), sorted(ids[TUNE_COUNT:])


def sides(convs: Sequence[Any], recipe: str) -> dict[str, Side]:
    """Passage vectors of every conversation under ``recipe`` (cached in bench/.cache)."""
    out = {}
    fn = RECIPES[recipe]
    for c in convs:
        ids, pos, turns = store_turns(c.store)
        matrix = cached_vectors(
            "passage", [fn(t) for t in turns], label=f"locomo-{c.sample_id}-{recipe}"
        )
        sizes: dict[str, int] = defaultdict(int)
        for sid, _ in pos:
            sizes[sid] += 1
        out[c.sample_id] = Side(matrix, pos, ids, dict(sizes))
    return out


def semantic_hits(side: Side, qvec: Any, limit: int = SEM_CANDIDATES) -> list[SemanticHit]:
    """The ``limit`` best turns by cosine (what ``store.vector_search`` returns, resolved)."""
    cos = side.matrix @ qvec
    top = np.argsort(-cos, kind="stable")[:limit]
    return [
        SemanticHit(
            side.ids[i], side.pos[i][0], side.pos[i][1], float(cos[i]), side.sizes[side.pos[i][0]]
        )
        for i in top
    ]


def lexical_ranking(store: Any, question: str) -> list[RankedMessage]:
    """The shipped lexical ranking of ``question``."""
    query = parse_query(question, match="any")
    return rank(store.search(query, SearchFilters(), limit=CANDIDATES))


Ranker = Callable[[Item], list[tuple[str, int]]]


def rankers(params: dict[str, Any]) -> dict[str, Ranker]:
    """The three modes as functions of an item and its conversation's vectors."""
    recipe = params["recipe"]

    def lexical(item: Item) -> list[tuple[str, int]]:
        return [(r.session_id, r.seq) for r in item.lexical]

    def semantic(item: Item) -> list[tuple[str, int]]:
        return [p for p, _, _ in semantic_context(item.hits[recipe], ())]  # plain cosine order

    def hybrid(item: Item) -> list[tuple[str, int]]:
        return [(f.session_id, f.seq) for f in fused(params, item)]

    return {"lexical": lexical, "semantic": semantic, "hybrid": hybrid}


def fused(params: dict[str, Any], item: Item) -> list[Any]:
    """The fused ranking of ``item`` under ``params``."""
    hits = item.hits[params["recipe"]][: params.get("candidates", SEM_CANDIDATES)]
    ctx = tuple(params.get("context", ()))
    if params["method"] == "rrf":
        return rrf(item.lexical, hits, k=params["k"], weights=(1.0, params["w_sem"]), context=ctx)
    return blend(item.lexical, hits, alpha=params["alpha"], context=ctx)


def score(
    items: Sequence[Item],
    rank_fn: Ranker,
    dia: dict[str, dict[tuple[str, int], str]],
) -> dict[str, Any]:
    """Turn and session recall, overall and per category, of ``rank_fn`` over ``items``."""
    tally = Tally()
    for item in items:
        names = dia[item.conv]
        tally.add(item.category, item.evidence, [names[p] for p in rank_fn(item) if p in names])
    return tally.result()


def objective(result: dict[str, Any]) -> float:
    """What tuning maximises: turn recall @10 and @50 and session recall @5, equally."""
    t, s = result["turn_recall"], result["session_recall"]
    return float(t["10"] + t["50"] + s["5"]) / 3


def grid(recipe: str) -> list[dict[str, Any]]:
    """Every fusion configuration tried on the tuning split for one passage recipe."""
    out: list[dict[str, Any]] = []
    for cands in (50, 100):
        for context in ((), (0.5, 0.2)):
            common = {"recipe": recipe, "candidates": cands, "context": list(context)}
            for k in (5.0, 10.0, 30.0):
                for w_sem in (0.75, 1.0, 1.25):
                    out.append({**common, "method": "rrf", "k": k, "w_sem": w_sem})
            for alpha in (0.6, 0.7):
                out.append({**common, "method": "blend", "alpha": alpha})
    return out


def build_items(
    convs: Sequence[Any],
    questions: dict[str, list[tuple[int, str, list[str]]]],
    qvecs: Any,
    side_sets: dict[str, dict[str, Side]],
) -> list[Item]:
    """Items for ``questions`` (per conversation: category, text, evidence), vectors in order."""
    items = []
    i = 0
    for c in convs:
        for category, text, ev in questions.get(c.sample_id, []):
            hits = {r: semantic_hits(s[c.sample_id], qvecs[i]) for r, s in side_sets.items()}
            lexical = lexical_ranking(c.store, text)
            items.append(Item(c.sample_id, category, text, ev, lexical, hits))
            i += 1
    return items


def tune(
    items: Sequence[Item], dia: dict[str, dict[tuple[str, int], str]], recipes: Sequence[str]
) -> list[dict[str, Any]]:
    """Every grid configuration with its objective on ``items`` (the tuning split), best first."""
    rows = []
    for recipe in recipes:
        for params in grid(recipe):
            result = score(items, rankers(params)["hybrid"], dia)
            rows.append({**params, "objective": round(objective(result), 4)})
    rows.sort(key=lambda r: -r["objective"])
    return rows


def headline(result: dict[str, Any]) -> dict[str, Any]:
    """The figures the targets name."""
    return {
        "turn_recall": result["turn_recall"],
        "session_recall": result["session_recall"],
    }


ZH_SEED = 2026
ZH_SIZE = 100


def translation_sample(
    valid: Sequence[tuple[str, int, int, str, list[str]]], size: int = ZH_SIZE
) -> list[tuple[str, int, int, str, list[str]]]:
    """A fixed-seed sample of ``size`` questions stratified by category (largest remainder).

    ``valid`` holds (sample id, index in its qa list, category, question, evidence) of the
    questions with valid evidence; the sample comes back in ``valid`` order.
    """
    by_cat: dict[int, list[int]] = defaultdict(list)
    for n, v in enumerate(valid):
        by_cat[v[2]].append(n)
    total = len(valid)
    quota = {c: size * len(ns) / total for c, ns in by_cat.items()}
    counts = {c: int(q) for c, q in quota.items()}
    left = size - sum(counts.values())
    for c in sorted(quota, key=lambda c: (-(quota[c] - counts[c]), c))[:left]:
        counts[c] += 1
    rng = random.Random(ZH_SEED)
    chosen: list[int] = []
    for c in sorted(by_cat):
        chosen += rng.sample(by_cat[c], counts[c])
    return [valid[n] for n in sorted(chosen)]


NAMES_ZH = {
    "卡罗琳": "Caroline",
    "梅兰妮": "Melanie",
    "乔恩": "Jon",
    "吉娜": "Gina",
    "玛丽亚": "Maria",
    "约翰": "John",
    "乔安娜": "Joanna",
    "内特": "Nate",
    "蒂姆": "Tim",
    "马克斯": "Max",
    "影子": "Shadow",
}
"""The transliterations used in locomo-zh.json, and the names they stand for."""


def latin_names(text: str) -> str:
    """A Chinese question with the people's names written as in the conversation (how a
    Chinese speaker often types foreign names)."""
    for zh, name in NAMES_ZH.items():
        text = text.replace(zh, f" {name} ")
    return " ".join(text.split())
