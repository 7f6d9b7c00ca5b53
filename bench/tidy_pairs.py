"""Tidy 15: the learned pair layer, judged set by set (leave one set out), and its fit.

Usage: ./x bench tidy_pairs [--offline] [--fit] [--held-out]

Without flags: for each hand-written set fresh_k (k = 1..3), the pair model is fitted on
the generated families' dev half, the strangers' pairs' train share and the other two
sets' test halves; its decision points are chosen on the other sets' dev halves and the
strangers' dev share (never on fresh_k); then fresh_k's **dev half** is scored with the
rules alone and with the rules and the model (:func:`mnemic.ops.tidy.plan.plan`, one
pair at a time, as ``bench/tidy.py`` does). The figures are pooled over k per kind, with
n and Wilson intervals, offline and (when the ``semantic`` extra loads) with the
embedder. This is the selection figure (``docs/lifecycle.md``, tidy 15).

``--fit``: the shipped model (``src/mnemic/ops/tidy/pair_model.bin``): decision points
chosen the same way over every source (fit on the train shares, chosen on the dev
shares), then the model fitted again on every share of every source with them.
fresh1-3 are training data from then on.

``--held-out``: fresh4's test half, rules alone and with the shipped model, offline and
with the embedder: run once, at the end (see ``docs/lifecycle.md``).

Decision points: per head, the lowest (grid 0.75-0.99, then off) at which no honest pair
of the dev shares gets a proposal from the model, and at most 1 % of their updates and
contradictions a merge; of those, the pair that flags the most.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _tidy_fresh
import _tidy_pairfit as tp
from _common import emit
from _metrics import wilson
from mnemic.ops.tidy.pairmodel import CASES, MODEL_PATH, PairModel

GRID = [round(0.75 + 0.01 * i, 2) for i in range(25)] + [0.995, 1.01]
MERGE_FLOOR = 0.8
"""The merge head's lowest decision point (LOSO, dev halves: at 0.75 one honest pair of
the first set, two things said of one subject, was merged)."""
LOSO = ("fresh", "fresh2", "fresh3")
KINDS = _tidy_fresh.KINDS


def embedder_cosine(texts: Sequence[str]) -> Any:
    """A cosine function over ``texts`` (embedded once, in batches), or None when the
    ``semantic`` extra does not load."""
    try:
        from mnemic.sessions.search.retrieval import default_embedder_loader

        emb = default_embedder_loader()
    except Exception as exc:  # the extra is optional
        print(f"embedder not available: {type(exc).__name__}: {exc}", flush=True)
        return None, None
    unique = sorted(set(texts))
    vec: dict[str, Any] = {}
    for i in range(0, len(unique), 64):
        chunk = unique[i : i + 64]
        for t, v in zip(chunk, emb.embed_passages(chunk), strict=True):
            vec[t] = v

    def cosine(a: str, b: str) -> float:
        for t in (a, b):
            if t not in vec:
                vec[t] = emb.embed_passages([t])[0]
        return float(vec[a] @ vec[b])

    return cosine, emb.model_id


def combined(
    rules: str, merge: float, change: float, tm: float, tc: float, kept: tuple[bool, bool]
) -> str:
    """The verdict of the rules and the model on a pair alone, as :func:`plan` gives it:
    the model reads the pairs the rules proposed nothing for, and a head whose proposal
    a rule keeps apart (``kept``: merge, change; :func:`pairmodel.apart`) proposes
    nothing."""
    if rules != "none":
        return rules
    if change >= tc and change >= merge:
        return "none" if kept[1] else "supersede"
    if merge >= tm:
        return "none" if kept[0] else "merge"
    return "none"


def choose(
    pairs: Sequence[tp.LPair],
    rules: Sequence[str],
    scores: Sequence[tuple[float, float]],
    kept: Sequence[tuple[bool, bool]],
) -> tuple[float, float]:
    """The decision points (merge, change) on ``pairs`` (see the module docstring)."""
    changes = sum(p.kind in tp.CHANGE_KINDS for p in pairs) or 1
    best: tuple[int, float, float] = (-1, 1.01, 1.01)
    for tm, tc in itertools.product([t for t in GRID if t >= MERGE_FLOOR], GRID):
        flagged = honest = merged = 0
        for p, r, (m, c), k in zip(pairs, rules, scores, kept, strict=True):
            v = combined(r, m, c, tm, tc, k)
            if p.kind in ("honest", "unrelated"):
                honest += v != "none" and r == "none"
            elif p.kind in tp.CHANGE_KINDS:
                flagged += v == "supersede"
                merged += v == "merge" and r == "none"
            else:
                flagged += v != "none"
        if honest == 0 and merged <= 0.01 * changes:
            key = (flagged, tm, tc)
            if flagged > best[0] or (flagged == best[0] and (tm + tc) > best[1] + best[2]):
                best = key
    return best[1], best[2]


class Run:
    """The pairs, their rules' verdicts and features per case, computed once."""

    def __init__(self, offline: bool) -> None:
        sets = [tp.fresh(_tidy_fresh.SETS[n]) for n in LOSO]
        self.pairs: list[tp.LPair] = tp.generated() + [p for s in sets for p in s] + tp.strangers()
        self.cosine, self.embedder = (None, None)
        if not offline:
            texts = [t for p in self.pairs for t in (p.a, p.b)]
            held = _tidy_fresh.load_halves(_tidy_fresh.FOURTH)
            texts += [t for h in held.values() for p in h for t in (p.a, p.b)]
            self.cosine, self.embedder = embedder_cosine(texts)
        self.cases = ["offline"] + (["semantic"] if self.cosine is not None else [])
        start = time.perf_counter()
        self.feats = {case: [tp.names(p, self.cosine if case == "semantic" else None,
                                      case == "semantic" and tp.COSINE_FEATURE)
                             for p in self.pairs] for case in self.cases}  # fmt: skip
        self.rules = {
            case: [_tidy_fresh.verdict(p, self.cosine if case == "semantic" else None, False)
                   for p in self.pairs]
            for case in self.cases
        }  # fmt: skip
        self.kept = {case: [tp.kept(p, self.cosine if case == "semantic" else None)
                            for p in self.pairs] for case in self.cases}  # fmt: skip
        print(f"{len(self.pairs)} pairs read in {time.perf_counter() - start:.1f}s", flush=True)

    def fit(self, case: str, keep: Sequence[int]) -> dict[str, Any]:
        return tp.fit_heads([self.pairs[i] for i in keep], [self.feats[case][i] for i in keep])

    def thresholds(
        self, case: str, fitted: dict[str, Any], dev: Sequence[int]
    ) -> tuple[float, float]:
        model = tp.as_model({case: fitted}, {case: {"merge": 1.01, "change": 1.01}},
                            {"cosine_feature": tp.COSINE_FEATURE})  # fmt: skip
        scores = []
        for i in dev:
            s = model.score(self.feats[case][i], case)
            scores.append((s.merge, s.change))
        return choose(
            [self.pairs[i] for i in dev],
            [self.rules[case][i] for i in dev],
            scores,
            [self.kept[case][i] for i in dev],
        )


def pooled(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Counts summed over the sets, per kind and what is counted, with Wilson intervals."""
    out: dict[str, Any] = {}
    for kind in KINDS:
        out[kind] = {}
        for what in rows[0][kind]:
            if what.startswith("by_"):
                continue
            k = sum(r[kind][what]["k"] for r in rows)
            n = sum(r[kind][what]["n"] for r in rows)
            out[kind][what] = {"n": n, "k": k, "share": round(k / n, 4) if n else None,
                               "ci95": wilson(k, n)}  # fmt: skip
    return out


def brief(s: dict[str, Any]) -> dict[str, Any]:
    return {kind: {w: v for w, v in s[kind].items() if not w.startswith("by_")} for kind in KINDS}


def loso(run: Run) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in run.cases:
        cos = run.cosine if case == "semantic" else None
        rules_rows, model_rows, per_set = [], [], {}
        for held in LOSO:
            train = [i for i, p in enumerate(run.pairs) if p.source != held and p.share == "train"]
            dev = [i for i, p in enumerate(run.pairs)
                   if p.source not in (held, "generated") and p.share == "dev"]  # fmt: skip
            fitted = run.fit(case, train)
            tm, tc = run.thresholds(case, fitted, dev)
            model = tp.as_model({case: fitted}, {case: {"merge": tm, "change": tc}},
                                {"cosine_feature": tp.COSINE_FEATURE})  # fmt: skip
            scored = _tidy_fresh.load_halves(_tidy_fresh.SETS[held])["dev"]
            alone = [_tidy_fresh.verdict(p, cos, False) for p in scored]
            both = [_tidy_fresh.verdict(p, cos, model) for p in scored]
            r, m = _tidy_fresh.summary(scored, alone), _tidy_fresh.summary(scored, both)
            rules_rows.append(r)
            model_rows.append(m)
            per_set[held] = {"thresholds": {"merge": tm, "change": tc}, "n_train": len(train),
                             "n_dev_for_thresholds": len(dev), "rules": brief(r),
                             "rules_and_model": brief(m)}  # fmt: skip
            print(f"{case} leave out {held} (points merge {tm}, change {tc}):", flush=True)
            print("  " + _tidy_fresh.line("rules alone", r), flush=True)
            print("  " + _tidy_fresh.line("rules + model", m), flush=True)
        out[case] = {"pooled": {"rules": pooled(rules_rows), "rules_and_model": pooled(model_rows)},
                     "sets": per_set}  # fmt: skip
        print(
            f"{case} pooled: " + _tidy_fresh.line("rules", out[case]["pooled"]["rules"]), flush=True
        )
        print(
            f"{case} pooled: "
            + _tidy_fresh.line("rules + model", out[case]["pooled"]["rules_and_model"]),
            flush=True,
        )
    return out


def ship(run: Run) -> dict[str, Any]:
    """Fit and write the shipped model (see the module docstring)."""
    if "semantic" not in run.cases:
        raise SystemExit(
            "--fit needs the embedder (the semantic extra): the model has a case for it"
        )
    train = [i for i, p in enumerate(run.pairs) if p.share == "train"]
    dev = [i for i, p in enumerate(run.pairs) if p.share == "dev"]
    every = list(range(len(run.pairs)))
    fitted, points = {}, {}
    for case in CASES:
        tm, tc = run.thresholds(case, run.fit(case, train), dev)
        points[case] = {"merge": tm, "change": tc}
        fitted[case] = run.fit(case, every)
    sources = sorted({p.source for p in run.pairs})
    meta = {"data_hash": tp.data_hash(run.pairs), "pairs": len(run.pairs), "sources": sources,
            "embedder": run.embedder, "fit_seed": tp.FIT_SEED, "epochs": tp.EPOCHS,
            "rate": tp.RATE, "l2": tp.L2}  # fmt: skip
    tp.write_model(Path(MODEL_PATH), fitted, points, meta)
    print(f"wrote {MODEL_PATH}: {points}", flush=True)
    return {"thresholds": points, **meta}


def held_out(run: Run) -> dict[str, Any]:
    """fresh4's test half, rules alone and with the shipped model (run once)."""
    model = PairModel.load(MODEL_PATH)
    test = _tidy_fresh.load_halves(_tidy_fresh.FOURTH)["test"]
    out: dict[str, Any] = {"n": len(test)}
    for case in run.cases:
        cos = run.cosine if case == "semantic" else None
        alone = _tidy_fresh.summary(test, [_tidy_fresh.verdict(p, cos, False) for p in test])
        both = _tidy_fresh.summary(test, [_tidy_fresh.verdict(p, cos, model) for p in test])
        out[case] = {"rules": alone, "rules_and_model": both}
        print(_tidy_fresh.line(f"fresh4 test {case} rules alone", alone), flush=True)
        print(_tidy_fresh.line(f"fresh4 test {case} rules + model", both), flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--offline", action="store_true", help="skip the embedder")
    parser.add_argument("--fit", action="store_true", help="fit and write the shipped model")
    parser.add_argument("--held-out", action="store_true", help="fresh4's test half (once)")
    args = parser.parse_args()
    run = Run(args.offline)
    sources = sorted({p.source for p in run.pairs})
    result: dict[str, Any] = {"pairs": {s: sum(p.source == s for p in run.pairs) for s in sources}}
    if run.embedder:
        result["embedder"] = run.embedder
    if args.fit:
        result["shipped"] = ship(run)
    elif args.held_out:
        result["fresh4_test"] = held_out(run)
    else:
        result["loso"] = loso(run)
    emit("tidy_pairs" + ("_fit" if args.fit else "_held_out" if args.held_out else ""), result)


if __name__ == "__main__":
    main()
