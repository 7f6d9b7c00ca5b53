"""Recall 11: a learned re-ranker of the hybrid pool, chosen by leaving a conversation out.

    .venv/bin/python bench/_rerank.py loco --sets locomo,zh,longchat,updates
    .venv/bin/python bench/_rerank.py loco --rich --kinds learned,learned_top50,learned_l2x10

Dev only (LoCoMo conv-26/30/42 and their Chinese questions, the long-chat dev histories,
the update fixture's dev half); the test split is never read. Protocol: docs/recall.md,
*A learned re-ranker* (recall 11).

1. Every dev question is ranked once by the shipped hybrid ranking; the first
   :data:`POOL` positions of what :func:`~mnemic.sessions.search.retrieval.candidates`
   returned are captured with their features (:func:`features`).
2. A linear pairwise logistic model (:func:`fit`) is trained per fold on the other
   folds' LoCoMo (English) and long-chat questions: LoCoMo's folds are its three
   conversations, the long chat's its five dev histories. The Chinese questions are
   ranked by the model of their conversation's fold; the update fixture (never trained
   on) by the model of all training folds.
3. Every question is ranked again end to end (``search_messages``), shipped and with its
   fold's model re-ordering the pool, interleaved question by question, and scored as
   ``./x bench recall`` scores it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np

import _misses as mb
import mnemic.sessions.search.retrieval as retrieval_module
import recall as rb
from _metrics import Scores
from _vcache import CachedEmbedder
from mnemic.sessions.search.hybrid import FusedMessage
from mnemic.sessions.search.retrieval import readable_share
from mnemic.sessions.search.speaker import scripts

POOL = 100
NOTES = ("other_side", "repeated")
"""The notes of the steps before the re-ranker (the time-aware step runs after it, on
the re-ranked list, so its moves stand: a re-ranker after it undid them, fresh first
0.984 -> 0.175 on the update fixture's dev half in the first run)."""
NAMES = (
    "fused", "fused_rank", "lex", "lex_rank", "lex_direct", "cos", "cos_gap", "cos_rank",
    "sem_direct", "context_only", "session_best", "session_share", "user", "length",
    "asks", "place", "readable", "readable_lex", *(f"note_{n}" for n in NOTES),
)  # fmt: skip
MORE = (
    "session_sum", "session_head", "session_first", "neighbour_best", "recip_rank",
    "cos_lex", "fused_sq",
)  # fmt: skip
"""Session and neighbour aggregates (the second run's features, :data:`RICH`)."""
RICH = False
TRAIN_SETS = ("locomo", "longchat")
L2 = 1e-2
KINDS: dict[str, dict[str, Any]] = {"learned": {}, "learned_top20": {"top": 20}}
"""The models measured: name -> :func:`fit`'s options."""
STEPS = 300


@dataclass(frozen=True)
class Lists:
    """What both re-rankers' features read of the fused list: the rows of the turns
    looked at by (session, seq), the top fused and lexical scores, each list's ranks, the
    best cosine, and how readable the question is in the semantic head's scripts."""

    by_pos: dict[tuple[str, int], Any]
    top: float
    lex_top: float
    lex_rank: dict[tuple[str, int], int]
    sem_rank: dict[tuple[str, int], int]
    cos_top: float
    readable: float


def lists(
    store: Any, fused: Sequence[FusedMessage], picked: Sequence[FusedMessage], text: str
) -> Lists:
    """:class:`Lists` of ``fused``, with the message rows of ``picked`` (the turns whose
    features are wanted)."""
    ids = [f.message_id for f in picked if f.message_id is not None]
    rows = store.messages_by_id(ids) if ids else {}
    by_pos = {(m.session_id, m.seq): m for m in rows.values()}
    top = max((f.score for f in fused), default=1.0) or 1.0
    lex = sorted((f for f in fused if f.hit is not None), key=lambda f: f.hit.score)
    lex_top = max((-f.hit.score for f in lex), default=1.0) or 1.0
    lex_rank = {(f.session_id, f.seq): i + 1 for i, f in enumerate(lex)}
    sem = sorted((f for f in fused if f.semantic is not None), key=lambda f: -f.semantic.cosine)
    cos_top = sem[0].semantic.cosine if sem else 0.0
    sem_rank = {(f.session_id, f.seq): i + 1 for i, f in enumerate(sem)}
    near = [by_pos.get((f.session_id, f.seq)) for f in sem[:5]]
    written = scripts("".join((m.content or "")[:300] for m in near if m is not None))
    readable = readable_share(text, written) if written else 1.0
    return Lists(by_pos, top, lex_top, lex_rank, sem_rank, cos_top, readable)


def features(store: Any, fused: Sequence[FusedMessage], text: str) -> np.ndarray:
    """One row per position of ``fused`` (the pool, best first), :data:`NAMES`."""
    ls = lists(store, fused, fused, text)
    by_pos, top, lex_top, cos_top, readable = ls.by_pos, ls.top, ls.lex_top, ls.cos_top, ls.readable
    lex_rank, sem_rank = ls.lex_rank, ls.sem_rank
    best: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    total_of: dict[str, float] = defaultdict(float)
    head: dict[str, int] = defaultdict(int)
    first: dict[str, int] = {}
    score_at = {(f.session_id, f.seq): f.score / top for f in fused}
    for i, f in enumerate(fused):
        best[f.session_id] = max(best[f.session_id], f.score / top)
        count[f.session_id] += 1
        total_of[f.session_id] += f.score / top
        head[f.session_id] += int(i < 20 and f.direct)
        first.setdefault(f.session_id, i)
    out = []
    for i, f in enumerate(fused):
        pos = (f.session_id, f.seq)
        m = by_pos.get(pos)
        content = (m.content or "") if m is not None else ""
        total = None
        if f.hit is not None:
            total = f.hit.session_messages
        elif f.semantic is not None:
            total = f.semantic.session_messages
        lx = max(-f.hit.score, 0.0) / lex_top if f.hit is not None else 0.0
        out.append([
            f.score / top,
            math.log(i + 1),
            lx,
            math.log(lex_rank.get(pos, POOL + 1)),
            float(f.hit is not None),
            f.semantic.cosine if f.semantic is not None else cos_top - 0.1,
            (cos_top - f.semantic.cosine) if f.semantic is not None else 0.1,
            math.log(sem_rank.get(pos, POOL + 1)),
            float(f.semantic is not None),
            float(not f.matched),
            best[f.session_id],
            count[f.session_id] / len(fused),
            float(m is not None and m.role == "user"),
            math.log(1 + len(content)),
            float(content.rstrip().endswith(("?", "？"))),
            f.seq / total if total else 0.5,
            readable,
            readable * lx,
            *(float(n in f.notes) for n in NOTES),
        ])  # fmt: skip
        if RICH:
            near = [score_at.get((f.session_id, f.seq + d), 0.0) for d in (-2, -1, 1, 2)]
            lx_cos = out[-1][2] * (out[-1][5] - cos_top + 0.1)
            out[-1] += [
                total_of[f.session_id], head[f.session_id] / 20, float(first[f.session_id] == i),
                max(near), 1.0 / (i + 1), lx_cos, (f.score / top) ** 2,
            ]  # fmt: skip
    width = len(NAMES) + (len(MORE) if RICH else 0)
    return np.asarray(out, dtype=np.float64).reshape(len(fused), width)


class Model:
    """A linear scorer over standardised features."""

    def __init__(self, mean: np.ndarray, scale: np.ndarray, w: np.ndarray) -> None:
        self.mean, self.scale, self.w = mean, scale, w

    def scores(self, x: np.ndarray) -> np.ndarray:
        return ((x - self.mean) / self.scale) @ self.w


def fit(
    pools: list[tuple[np.ndarray, np.ndarray]],
    l2: float = L2,
    steps: int = STEPS,
    top: int | None = None,
) -> Model:
    """Pairwise logistic regression: each labelled position against each other position of
    its pool; full-batch gradient descent from zero (deterministic)."""
    xs = np.concatenate([x for x, _ in pools])
    mean = xs.mean(axis=0)
    scale = xs.std(axis=0)
    scale[scale < 1e-9] = 1.0
    diffs, weights = [], []
    for x, y in pools:
        z = (x - mean) / scale
        pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y <= 0)
        if top is not None:
            neg = neg[neg < top]  # only the shipped head's negatives: what @k sees
        if not len(pos) or not len(neg):
            continue
        d = (z[pos][:, None, :] - z[neg][None, :, :]).reshape(-1, z.shape[1])
        diffs.append(d)
        weights.append(np.full(len(d), 1.0 / len(d)))  # each question weighs the same
    d = np.concatenate(diffs)
    wq = np.concatenate(weights)
    wq /= wq.sum()
    w = np.zeros(d.shape[1])
    lr = 1.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(np.clip(d @ w, -30, 30)))  # P(wrong order)
        grad = -(d * (wq * p)[:, None]).sum(axis=0) + l2 * w
        w -= lr * grad
    return Model(mean, scale, w)


def rerank(fused: list[FusedMessage], x: np.ndarray, model: Model) -> list[FusedMessage]:
    """The pool re-ordered by ``model`` (ties: the shipped order); the rest after it."""
    s = model.scores(x)
    order = sorted(range(len(x)), key=lambda i: (-s[i], i))
    ladder = sorted((f.score for f in fused[: len(x)]), reverse=True)
    head = [fused[i]._replace(score=v) for i, v in zip(order, ladder, strict=True)]
    return head + list(fused[len(x) :])


CAPTURE: list[Any] = []
_FRESHEN = retrieval_module.freshen


def is_hybrid(fused: Sequence[FusedMessage]) -> bool:
    """Both lists found something (a hybrid search's fused list)."""
    return any(f.semantic is not None for f in fused) and any(f.hit is not None for f in fused)


@contextmanager
def freshen_as(wrapped: Callable[..., Any]) -> Iterator[None]:
    """Searches inside call ``wrapped`` where the time-aware step ran (put back after);
    ``wrapped`` calls :data:`_FRESHEN` itself."""
    retrieval_module.freshen = wrapped
    try:
        yield
    finally:
        retrieval_module.freshen = _FRESHEN


def _capturing(store: Any, fused: Any, query: Any, *args: Any, **kw: Any) -> Any:
    CAPTURE.append((store, query.text, list(fused), "hybrid" if is_hybrid(fused) else "other"))
    return _FRESHEN(store, fused, query, *args, **kw)


def capturing() -> AbstractContextManager[None]:
    return freshen_as(_capturing)


@contextmanager
def reranking(model: Model) -> Iterator[None]:
    def wrapped(store: Any, fused: Any, query: Any, *args: Any, **kw: Any) -> Any:
        fused = list(fused)
        if is_hybrid(fused):
            pool = fused[:POOL]
            fused = rerank(fused, features(store, pool, query.text), model)
        return _FRESHEN(store, fused, query, *args, **kw)

    with freshen_as(wrapped):
        yield


def fold_of(q: rb.Question) -> str:
    return q.corpus


def labels(q: rb.Question, corpus: rb.Corpus, fused: Sequence[FusedMessage]) -> np.ndarray:
    ev = set(q.evidence)
    return np.asarray([float(corpus.keys.get((f.session_id, f.seq)) in ev) for f in fused])


def loco(
    corpora: dict[str, rb.Corpus], questions: list[rb.Question], loader: Any
) -> dict[str, Any]:
    # 1. the pools
    pools: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for i, q in enumerate(questions):
        if q.set not in TRAIN_SETS or q.kind != "recall":
            continue
        corpus = corpora[q.corpus]
        CAPTURE.clear()
        with capturing():
            rb.ranked_results(corpus, q.text, "hybrid", loader, q.as_of)
        store, text, fused, used = CAPTURE[0]
        pool = list(fused[:POOL])
        if used != "hybrid" or not pool:
            continue
        pools[i] = (features(store, pool, text), labels(q, corpus, pool))
    folds = sorted({fold_of(questions[i]) for i in pools})
    kinds = KINDS
    models: dict[str, dict[str, Model]] = {k: {} for k in kinds}
    for kind, kw in kinds.items():
        for fold in [*folds, "all"]:
            train = [p for i, p in pools.items() if fold_of(questions[i]) != fold]
            models[kind][fold] = fit(train, **kw)
    names = NAMES + (MORE if RICH else ())
    weights = {
        kind: {
            fold: dict(zip(names, (m.w / m.scale).round(4).tolist(), strict=True))
            for fold, m in ms.items()
        }
        for kind, ms in models.items()
    }
    diag: dict[str, Any] = {}
    for kind in kinds:
        right = {"shipped": [0, 0], kind: [0, 0]}
        for i, (x, y) in pools.items():
            pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y <= 0)
            s_ = models[kind][fold_of(questions[i])].scores(x)
            for a in pos:
                right["shipped"][0] += int((neg > a).sum())
                right[kind][0] += int((s_[neg] < s_[a]).sum())
                right["shipped"][1] += len(neg)
                right[kind][1] += len(neg)
        diag[kind] = {k: round(v[0] / max(v[1], 1), 4) for k, v in right.items()}
    # what the held-out model leaves outside its top 10, by what matched it
    left: dict[str, int] = defaultdict(int)
    first_kind = next(iter(kinds))
    for i, (x, y) in pools.items():
        s_ = models[first_kind][fold_of(questions[i])].scores(x)
        order = sorted(range(len(x)), key=lambda j: (-s_[j], j))
        place = {j: r for r, j in enumerate(order)}
        for j in np.flatnonzero(y > 0):
            if place[j] < 10:
                continue
            lex_, sem_ = x[j, 4] > 0, x[j, 8] > 0
            kind = ("context", "semantic", "lexical", "both")[2 * lex_ + sem_]
            left[kind] += 1
            left["pool rank 11-50" if place[j] < 50 else "pool rank 51-100"] += 1
            left["cos rank > 10" if x[j, 7] > math.log(10) else "cos rank <= 10"] += 1
    diag["outside_top10_in_pool"] = dict(left)
    evidence = sum(len(questions[i].evidence) for i in pools)
    in_pool = sum(int(y.sum()) for _, y in pools.values())
    diag["evidence_in_pool"] = round(in_pool / max(evidence, 1), 4)
    print(json.dumps({"folds": folds, "pools": len(pools), "held_out": diag}))
    # 2. end to end, shipped and re-ranked, question by question
    table: dict[tuple[str, str, str], Scores] = {}
    paired: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for q in questions:
        corpus = corpora[q.corpus]
        fold = q.corpus if q.corpus in models["learned"] else "all"
        runs: list[tuple[str, Callable[[], Any] | None]] = [("lexical", None), ("shipped", None)]
        for kind in kinds:
            runs.append((kind, lambda m=models[kind][fold]: reranking(m)))
        for name, ctx in runs:
            mode = "lexical" if name == "lexical" else "hybrid"
            if ctx is None:
                ranked = rb.ranking(corpus, q.text, mode, loader, q.as_of)
            else:
                with ctx():
                    ranked = rb.ranking(corpus, q.text, mode, loader, q.as_of)
            sc = table.setdefault((q.set, name, ""), Scores())
            rb.score(q, corpus, ranked, sc)
            if q.kind == "recall":
                paired.setdefault(q.set, {}).setdefault(name, []).append(
                    (sc.values["turn@10"][-1], sc.values["session@5"][-1])
                )
    out: dict[str, Any] = {"weights": weights, "diagnostics": diag, "paired": {}}
    for set_, by in paired.items():  # question by question against shipped
        for name, vals in by.items():
            if name == "shipped":
                continue
            base = by["shipped"]
            out["paired"].setdefault(set_, {})[name] = {
                m: {
                    "better": sum(v[k] > b[k] for v, b in zip(vals, base, strict=True)),
                    "worse": sum(v[k] < b[k] for v, b in zip(vals, base, strict=True)),
                }
                for k, m in enumerate(("turn@10", "session@5"))
            }
    print(json.dumps(out["paired"]))
    for (set_, name, _), sc in sorted(table.items()):
        r = sc.result()
        out.setdefault(set_, {})[name] = r
        mb.print_figures(f"{set_:8s} {name:8s}", r, ci=True, figures=(
            "turn@5", "turn@10", "turn@50", "session@2", "session@5",
            "fresh_first", "past_first", "as_of_first"))  # fmt: skip
    return out


def run_on_dev(sets: list[str], prefix: str, run: Callable[..., Any], save: Path | None) -> None:
    """Build the dev stores of ``sets`` in a temporary directory, ``run(corpora,
    questions, embedder factory)`` on them, write its result to ``save`` as JSON."""
    embedder = CachedEmbedder()
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        corpora, questions = mb._stores(sets, "dev", embedder, Path(tmp))
        got = run(corpora, questions, lambda: embedder)
        if save is not None:
            save.write_text(json.dumps(got, indent=1), encoding="utf-8")
        for c in corpora.values():
            c.store.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("loco",))
    parser.add_argument("--sets", default="locomo,zh,longchat,updates")
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--rich", action="store_true", help="session and neighbour aggregates")
    parser.add_argument("--kinds", default="learned,learned_top20")
    args = parser.parse_args()
    global RICH, KINDS
    RICH = args.rich
    more = {"learned_l2x10": {"l2": L2 * 10}, "learned_top50": {"top": 50}}
    KINDS = {k: {**KINDS, **more}[k] for k in args.kinds.split(",")}
    run_on_dev(args.sets.split(","), "mnemic-rerank-", loco, args.save)


if __name__ == "__main__":
    main()
