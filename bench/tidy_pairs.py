"""Tidy 15 and 17: the learned pair layer, judged set by set (leave one set out), and its fit.

Usage: ./x bench tidy_pairs [--offline] [--fit] [--rule none|crossfit]
       ./x bench tidy_pairs --tidy31 [--offline] [--order]
       ./x bench tidy_pairs --fit --recipe today|plus69|plus69s
       ./x bench tidy_pairs --fit --recipe today [--rule count] [--out PATH]
       ./x bench tidy_pairs --tidy32 [--offline | --semantic-only]
       ./x bench tidy_pairs --tidy33 CANDIDATE [--tidy33-old OLD] [--offline]
       ./x bench tidy_pairs --tidy34 CANDIDATE [--tidy34-old OLD] [--offline]

``--fit --recipe today`` (tidy 32, ``bench/_tidy_pairfit32.py``) rebuilds the recipe
byte for byte, its header recording the probe digest of today's features that
``tests/test_tidy_pairmodel_rebuild.py`` checks; ``--rule count``, with rule (b)'s points
(rules and model join at most 2 % of the honest pairs of a nested pool). ``--tidy32``
runs tidy 32's protocol (the shipped file against its rebuild, each with tidy 15's points
and rule (b)'s); ``--tidy32-heldout BEFORE`` its held-out step, once. ``--tidy33`` runs
tidy 33's (``bench/_tidy_pairfit33.py``: which file ships, judged on the sets neither
candidate was fitted on); ``--tidy34`` tidy 34's (``bench/_tidy_pairfit34.py``: the
same two, decided on tidy_fresh13's dev half, a set written after the question).

``--tidy31`` runs tidy 31's protocol (``bench/_tidy_pairfit31.py``: three recipes on
feature version 1, leave one set out over fresh1-9 and the strangers' files, fresh10-11's
dev halves beyond the folds; ``--order``, its ordering diagnostic), ``--fit --recipe``
fits one of its recipes as it would ship (none did: ``docs/lifecycle.md``).

Without flags (tidy 17's protocol, ``docs/lifecycle.md``): each set of
:func:`left_out` (fresh1-5, then each strangers' file) is left out in turn. Two models
are fitted without it: today's recipe (:data:`BASELINE_SOURCES`, feature version 1: the
baseline, in the same loop) and the candidate (every source, this feature version);
each has its decision points chosen on the dev shares of its sources without the set.
The set is scored with the rules alone, the rules + baseline and the rules + candidate
(:func:`mnemic.ops.tidy.plan.plan`, one pair at a time, as ``bench/tidy.py`` does): a
fresh set's **dev half**, a strangers' file whole. Pooled per kind with n and Wilson
intervals, offline and (when the ``semantic`` extra loads) with the embedder, and per
set the honest pairs joined (which must not rise).

``--fit``: the shipped model (``src/mnemic/ops/tidy/pair_model.bin``): decision points
chosen the same way over every source (fit on the train shares, chosen on the dev
shares), then the model fitted again on every share of every source with them.
A model it writes is fitted on fresh1-5 and every strangers' file (tidy 17's was not
shipped: ``docs/lifecycle.md``); fresh6 and later are held out (``./x bench tidy
--fresh-only --set fresh6``). ``--features 1`` fits and compares on tidy 15's features.

Decision points: per head, the lowest (grid 0.75-0.99, then off) at which no honest pair
of the dev shares gets a proposal from the model, and at most 1 % of their updates and
contradictions a merge; of those, the pair that flags the most. ``--rule crossfit``
(tidy 19; results in ``tidy_pairs_crossfit.json``): the candidate is fitted on every
share, and its points are chosen on cross-fitted scores (each source scored by a fit on
the others) so that the upper end of the 95 % interval of the model's honest share is
at most :data:`CROSSFIT_AIM`, in place of none.
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
from mnemic.ops.tidy.pairmodel import CASES, FEATURE_VERSION, MODEL_PATH

GRID = [round(0.75 + 0.01 * i, 2) for i in range(25)] + [0.995, 1.01]
MERGE_FLOOR = 0.8
CROSSFIT_AIM = 0.01
"""Tidy 19: the most the upper end of the 95 % interval of the model's honest share on
cross-fitted scores may reach (half the issue's 2 % aim; the rules spend the rest)."""
"""The merge head's lowest decision point (LOSO, dev halves: at 0.75 one honest pair of
the first set, two things said of one subject, was merged)."""
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
    honest_share: float = 0.0,
    aim: float | None = None,
) -> tuple[float, float]:
    """The decision points (merge, change) on ``pairs`` (see the module docstring);
    ``honest_share``: the share of their honest pairs the model may propose for (0:
    none, tidy 15's rule); ``aim`` (tidy 19, in its place): the most their 95 % Wilson
    interval's upper end may reach."""
    changes = sum(p.kind in tp.CHANGE_KINDS for p in pairs) or 1
    n_honest = sum(p.kind in ("honest", "unrelated") for p in pairs)
    allowed = int(honest_share * n_honest)
    if aim is not None:
        allowed = max((k for k in range(n_honest + 1) if wilson(k, n_honest)[1] <= aim),
                      default=-1)  # fmt: skip
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
        if honest <= allowed and merged <= 0.01 * changes:
            key = (flagged, tm, tc)
            if flagged > best[0] or (flagged == best[0] and (tm + tc) > best[1] + best[2]):
                best = key
    return best[1], best[2]


FRESH = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5")
"""The hand-written sets the model is fitted on (tidy 17: fresh4 and fresh5 joined,
their test halves spent); fresh6 and later stay out of every fit."""
BASELINE_SOURCES = ("generated", "fresh", "fresh2", "fresh3", "stranger-a", "stranger-b",
                    "stranger-c", "stranger-d")  # fmt: skip
"""Tidy 15's recipe, the baseline in the same loop: these sources, feature version 1."""


def left_out() -> list[str]:
    """The sets left out one at a time: fresh1-5, then each strangers' file here."""
    return [*FRESH, *(f"stranger-{n}" for n in tp.STRANGER_SHARES
                      if (tp.STRANGERS / f"{n}.jsonl").exists())]  # fmt: skip


def scored_pairs(held: str) -> list[Any]:
    """What a set left out is scored on: a fresh set's dev half (its test half is in no
    figure), a strangers' file whole (training data, never a test set)."""
    if held.startswith("stranger-"):
        return [_tidy_fresh.FreshPair(**d) for d in tp.stranger_rows(held.split("-", 1)[1])]
    return _tidy_fresh.load_halves(_tidy_fresh.SETS[held])["dev"]


class Run:
    """The pairs, their rules' verdicts, what the rules keep apart and the features of
    each version per case, computed once."""

    def __init__(
        self,
        offline: bool,
        versions: Sequence[int] = (FEATURE_VERSION,),
        pairs: Sequence[tp.LPair] | None = None,
    ) -> None:
        given = pairs is not None
        if pairs is None:
            sets = [tp.fresh(_tidy_fresh.SETS[n]) for n in FRESH]
            pairs = tp.generated() + [p for s in sets for p in s] + tp.strangers()
        self.pairs: list[tp.LPair] = list(pairs)
        self.cosine, self.embedder = (None, None)
        if not offline:
            texts = [t for p in self.pairs for t in (p.a, p.b)]
            for held in () if given else left_out():
                texts += [t for p in scored_pairs(held) for t in (p.a, p.b)]
            self.cosine, self.embedder = embedder_cosine(texts)
        self.cases = ["offline"] + (["semantic"] if self.cosine is not None else [])
        start = time.perf_counter()
        self.feats = {(case, v): [tp.names(p, self.cosine if case == "semantic" else None,
                                           case == "semantic" and tp.COSINE_FEATURE, v)
                                  for p in self.pairs]
                      for case in self.cases for v in versions}  # fmt: skip
        self.rules = {
            case: [_tidy_fresh.verdict(p, self.cosine if case == "semantic" else None, False)
                   for p in self.pairs]
            for case in self.cases
        }  # fmt: skip
        self.kept = {case: [tp.kept(p, self.cosine if case == "semantic" else None)
                            for p in self.pairs] for case in self.cases}  # fmt: skip
        print(f"{len(self.pairs)} pairs read in {time.perf_counter() - start:.1f}s", flush=True)

    def fit(
        self, case: str, keep: Sequence[int], version: int = FEATURE_VERSION, l2: float = tp.L2
    ) -> dict[str, Any]:
        return tp.fit_heads(
            [self.pairs[i] for i in keep], [self.feats[case, version][i] for i in keep], l2
        )

    def scores(
        self, case: str, fitted: dict[str, Any], idx: Sequence[int], version: int
    ) -> list[tuple[float, float]]:
        """The heads' probabilities for the pairs ``idx`` under ``fitted``."""
        model = tp.as_model({case: fitted}, {case: {"merge": 1.01, "change": 1.01}},
                            {"cosine_feature": tp.COSINE_FEATURE,
                             "feature_version": version})  # fmt: skip
        out = []
        for i in idx:
            s = model.score(self.feats[case, version][i], case)
            out.append((s.merge, s.change))
        return out

    def thresholds(
        self,
        case: str,
        fitted: dict[str, Any],
        dev: Sequence[int],
        version: int = FEATURE_VERSION,
        honest_share: float = 0.0,
    ) -> tuple[float, float]:
        return choose(
            [self.pairs[i] for i in dev],
            [self.rules[case][i] for i in dev],
            self.scores(case, fitted, dev, version),
            [self.kept[case][i] for i in dev],
            honest_share,
        )

    def crossfit(
        self,
        case: str,
        keep: Sequence[int],
        version: int,
        aim: float = CROSSFIT_AIM,
        l2: float = tp.L2,
    ) -> tuple[dict[str, Any], tuple[float, float]]:
        """Tidy 19's rule: the model fitted on every pair of ``keep``, its decision
        points chosen on cross-fitted scores (each source but the generated one scored
        by a fit on the other sources of ``keep``), the model's honest share with its
        upper 95 % bound at most ``aim``."""
        pool: list[int] = []
        scores: list[tuple[float, float]] = []
        for source in sorted({self.pairs[i].source for i in keep} - {"generated"}):
            scored = [i for i in keep if self.pairs[i].source == source]
            others = [i for i in keep if self.pairs[i].source != source]
            pool += scored
            scores += self.scores(case, self.fit(case, others, version, l2), scored, version)
        points = choose(
            [self.pairs[i] for i in pool],
            [self.rules[case][i] for i in pool],
            scores,
            [self.kept[case][i] for i in pool],
            aim=aim,
        )
        return self.fit(case, keep, version, l2), points

    def model(
        self,
        case: str,
        held: str | None,
        version: int,
        sources: Sequence[str] | None,
        honest_share: float = 0.0,
        rule: str = "none",
        l2: float = tp.L2,
    ) -> Any:
        """A model fitted without ``held`` on the train shares of ``sources`` (None:
        all), decision points chosen on their dev shares without ``held``; with the
        ``crossfit`` rule, fitted on every share, points from :meth:`crossfit`."""

        def ok(p: tp.LPair) -> bool:
            return p.source != held and (sources is None or p.source in sources)

        if rule == "crossfit":
            every = [i for i, p in enumerate(self.pairs) if ok(p)]
            fitted, (tm, tc) = self.crossfit(case, every, version, l2=l2)
            return tp.as_model({case: fitted}, {case: {"merge": tm, "change": tc}},
                               {"cosine_feature": tp.COSINE_FEATURE,
                                "feature_version": version})  # fmt: skip
        train = [i for i, p in enumerate(self.pairs) if ok(p) and p.share == "train"]
        dev = [i for i, p in enumerate(self.pairs)
               if ok(p) and p.source != "generated" and p.share == "dev"]  # fmt: skip
        fitted = self.fit(case, train, version, l2)
        tm, tc = self.thresholds(case, fitted, dev, version, honest_share)
        return tp.as_model({case: fitted}, {case: {"merge": tm, "change": tc}},
                           {"cosine_feature": tp.COSINE_FEATURE,
                            "feature_version": version})  # fmt: skip


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


def honest_line(s: dict[str, Any]) -> str:
    h = s["honest"]
    return f"honest joined {h['joined']['k']}/{h['joined']['n']} merged {h['false_merge']['k']}"


def loso(
    run: Run,
    version: int = FEATURE_VERSION,
    honest_share: float = 0.0,
    rule: str = "none",
    l2: float = tp.L2,
) -> dict[str, Any]:
    """Tidy 17's selection figure: each set of :func:`left_out` scored with the rules
    alone, today's recipe (:data:`BASELINE_SOURCES`, feature version 1) and the
    candidate (every source, this feature version), both fitted and with decision
    points chosen without it."""
    out: dict[str, Any] = {}
    for case in run.cases:
        cos = run.cosine if case == "semantic" else None
        rows: dict[str, list[dict[str, Any]]] = {"rules": [], "baseline": [], "candidate": []}
        per_set = {}
        for held in left_out():
            models = {"baseline": run.model(case, held, 1, BASELINE_SOURCES),
                      "candidate": run.model(case, held, version, None,
                                             honest_share, rule, l2)}  # fmt: skip
            scored = scored_pairs(held)
            got = {
                "rules": _tidy_fresh.summary(
                    scored, [_tidy_fresh.verdict(p, cos, False) for p in scored]
                )
            }
            for name, m in models.items():
                got[name] = _tidy_fresh.summary(
                    scored, [_tidy_fresh.verdict(p, cos, m) for p in scored]
                )
            points = {k: {h: m.threshold(case, h) for h in ("merge", "change")}
                      for k, m in models.items()}  # fmt: skip
            per_set[held] = {"n": len(scored), **{k: brief(v) for k, v in got.items()},
                             "thresholds": points}  # fmt: skip
            print(f"{case} leave out {held} (n {len(scored)}):", flush=True)
            for k, v in got.items():
                rows[k].append(v)
                print(f"  {_tidy_fresh.line(k, v)}; {honest_line(v)}", flush=True)
        out[case] = {"pooled": {k: pooled(v) for k, v in rows.items()}, "sets": per_set}
        for k in rows:
            print(f"{case} pooled: " + _tidy_fresh.line(k, out[case]["pooled"][k]), flush=True)
        worse = [
            held
            for held, r in per_set.items()
            if r["candidate"]["honest"]["joined"]["k"] > r["baseline"]["honest"]["joined"]["k"]
        ]
        out[case]["honest_rose_on"] = worse
        print(f"{case}: honest joined rose on {worse or 'no set'}", flush=True)
    return out


def ship(
    run: Run,
    version: int = FEATURE_VERSION,
    honest_share: float = 0.0,
    rule: str = "none",
    l2: float = tp.L2,
    recipe: str | None = None,
) -> dict[str, Any]:
    """Fit and write the shipped model (see the module docstring); ``recipe``: tidy
    31's recipe the pairs of ``run`` are (recorded in the header)."""
    if "semantic" not in run.cases:
        raise SystemExit(
            "--fit needs the embedder (the semantic extra): the model has a case for it"
        )
    train = [i for i, p in enumerate(run.pairs) if p.share == "train"]
    dev = [i for i, p in enumerate(run.pairs) if p.share == "dev"]
    every = list(range(len(run.pairs)))
    fitted, points = {}, {}
    for case in CASES:
        if rule == "crossfit":
            fitted[case], (tm, tc) = run.crossfit(case, every, version, l2=l2)
        else:
            tm, tc = run.thresholds(case, run.fit(case, train, version, l2), dev, version,
                                    honest_share)  # fmt: skip
            fitted[case] = run.fit(case, every, version, l2)
        points[case] = {"merge": tm, "change": tc}
    sources = sorted({p.source for p in run.pairs})
    meta = {"honest_share": honest_share, "data_hash": tp.data_hash(run.pairs),
            "rule": rule, "aim": CROSSFIT_AIM if rule == "crossfit" else None,
            "pairs": len(run.pairs), "sources": sources,
            "embedder": run.embedder, "fit_seed": tp.FIT_SEED, "epochs": tp.EPOCHS,
            "rate": tp.RATE, "l2": l2,
            **({"recipe": recipe} if recipe is not None else {})}  # fmt: skip
    tp.write_model(Path(MODEL_PATH), fitted, points, meta, version)
    print(f"wrote {MODEL_PATH}: {points}", flush=True)
    return {"thresholds": points, **meta}


def tidy31(offline: bool, order: bool = False) -> None:
    """Tidy 31's protocol (``bench/_tidy_pairfit31.py``), offline and, when the
    embedder loads and ``offline`` is not set, with it; ``tidy_pairs31.json``
    (``order``: its ordering diagnostic, offline, ``tidy_pairs31_order.json``)."""
    import _tidy_pairfit31 as t31

    pairs = t31.every_pair()
    if order:
        emit("tidy_pairs31_order", {"pairs": len(pairs), "offline": t31.order(t31.Table(pairs))})
        return
    result: dict[str, Any] = {"pairs": len(pairs)}
    cases: list[Any] = [None]
    if not offline:
        texts = [t for p in pairs for t in (p.a, p.b)]
        for name in t31.BEYOND:
            halves = _tidy_fresh.load_halves(_tidy_fresh.SETS[name])
            texts += [t for p in halves["dev"] for t in (p.a, p.b)]
        cosine, embedder = embedder_cosine(texts)
        if cosine is not None:
            cases.append(cosine)
            result["embedder"] = embedder
    for cosine in cases:
        table = t31.Table(pairs, cosine)
        got = {"loso": t31.loso(table), "beyond": t31.beyond(table)}
        got["verdicts"] = {n: t31.verdict(got, n) for n in t31.RECIPES if n != "today"}
        print(f"{table.case}: {got['verdicts']}", flush=True)
        result[table.case] = got
        emit("tidy_pairs31", result)


def _suffix(args: argparse.Namespace) -> str:
    """The results file's suffix for a LOSO run with another rule (the fit has one file)."""
    if args.fit:
        return ""
    return ("_crossfit" if args.rule == "crossfit" else "") + (
        f"_l2_{args.l2:g}" if args.l2 != tp.L2 else ""
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--offline", action="store_true", help="skip the embedder")
    parser.add_argument("--fit", action="store_true", help="fit and write the shipped model")
    parser.add_argument(
        "--features",
        type=int,
        choices=(1, FEATURE_VERSION),
        default=FEATURE_VERSION,
        help="the candidate's (and the fit's) feature version",
    )
    parser.add_argument(
        "--honest-share",
        type=float,
        default=0.0,
        help="the share of the dev shares' honest pairs the candidate's (and the fit's) "
        "decision points may give a model proposal (0: none, tidy 15's rule)",
    )
    parser.add_argument(
        "--rule",
        choices=("none", "crossfit", "count"),
        default="none",
        help="how the candidate's (and the fit's) decision points are chosen: none (no "
        "honest pair of the dev shares, tidy 15) or crossfit (tidy 19: cross-fitted "
        "scores, the honest share's upper 95 %% bound under CROSSFIT_AIM) or count (tidy "
        "32, with --fit --recipe today: nested cross-fitted scores, rules and model "
        "joining at most 2 %% of the honest pairs)",
    )
    parser.add_argument(
        "--l2",
        type=float,
        default=tp.L2,
        help="the candidate's (and the fit's) L2 penalty (the baseline keeps tidy 15's)",
    )
    parser.add_argument(
        "--recipe",
        choices=("today", "plus69", "plus69s"),
        default=None,
        help="with --fit: fit tidy 31's recipe (bench/_tidy_pairfit31.py; feature "
        "version 1) in place of every source",
    )
    parser.add_argument(
        "--tidy31",
        action="store_true",
        help="tidy 31's protocol (bench/_tidy_pairfit31.py): leave one set out over "
        "fresh1-9 and the strangers' files for each recipe, and fresh10-11's dev halves",
    )
    parser.add_argument(
        "--order",
        action="store_true",
        help="with --tidy31: the ordering diagnostic instead (tidy_pairs31_order.json)",
    )
    parser.add_argument(
        "--tidy32",
        action="store_true",
        help="tidy 32's protocol (bench/_tidy_pairfit32.py): the shipped file against "
        "its rebuild, each with tidy 15's points and with a fixed 2 %% honest share",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="with --fit --recipe today: write the model here, not over pair_model.bin "
        "(nothing saved under bench/results)",
    )
    parser.add_argument(
        "--semantic-only",
        action="store_true",
        help="with --tidy32: the case with the embedder alone (tidy_pairs32_semantic.json)",
    )
    parser.add_argument(
        "--tidy32-heldout",
        type=Path,
        metavar="BEFORE",
        help="tidy 32's held-out step, once: fresh10-11's test halves under the rules, "
        "the model file BEFORE and the shipped one (tidy_pairs32_heldout.json)",
    )
    parser.add_argument(
        "--tidy33",
        type=Path,
        metavar="CANDIDATE",
        help="tidy 33's protocol (bench/_tidy_pairfit33.py): the model file CANDIDATE "
        "against --tidy33-old (default: the shipped file) on data neither was fitted on "
        "(tidy_pairs33.json); offline, and with the embedder unless --offline",
    )
    parser.add_argument(
        "--tidy33-old", type=Path, metavar="OLD", help="with --tidy33: the old model file"
    )
    parser.add_argument(
        "--tidy34",
        type=Path,
        metavar="CANDIDATE",
        help="tidy 34's protocol (bench/_tidy_pairfit34.py): the model file CANDIDATE "
        "against --tidy34-old (default: the shipped file) on tidy_fresh13's dev half "
        "(tidy_pairs34.json); offline, and with the embedder unless --offline",
    )
    parser.add_argument(
        "--tidy34-old", type=Path, metavar="OLD", help="with --tidy34: the old model file"
    )
    args = parser.parse_args()
    if args.tidy34:
        import _tidy_pairfit34 as t34

        t34.run(args.tidy34, args.tidy34_old, semantic=not args.offline)
        return
    if args.tidy33:
        import _tidy_pairfit33 as t33

        t33.run(args.tidy33, args.tidy33_old, semantic=not args.offline)
        return
    if args.tidy32_heldout:
        import _tidy_pairfit32 as t32

        t32.heldout(args.tidy32_heldout)
        return
    if args.tidy32:
        import _tidy_pairfit32 as t32

        t32.run(args.offline, args.semantic_only)
        return
    if args.rule == "count" and not (args.fit and args.recipe == "today"):
        parser.error("--rule count goes with --fit --recipe today")
    if args.fit and args.recipe == "today":
        import _tidy_pairfit32 as t32

        got = t32.ship("b" if args.rule == "count" else "a", args.out or Path(MODEL_PATH))
        if args.out is None:
            emit("tidy_pairs_fit", {"shipped": got})
        return
    if args.tidy31:
        tidy31(args.offline, args.order)
        return
    if args.recipe is not None:
        if not args.fit:
            parser.error("--recipe goes with --fit")
        import _tidy_pairfit31 as t31

        pairs = t31.recipe_pairs(args.recipe, t31.every_pair())
        run = Run(args.offline, (t31.VERSION,), pairs)
        result = {"recipe": args.recipe,
                  "pairs": {s: sum(p.source == s for p in run.pairs)
                            for s in sorted({p.source for p in run.pairs})},
                  "embedder": run.embedder,
                  "shipped": ship(run, t31.VERSION, recipe=args.recipe)}  # fmt: skip
        emit("tidy_pairs_fit", result)
        return
    run = Run(args.offline, (args.features,) if args.fit else (1, args.features))
    sources = sorted({p.source for p in run.pairs})
    result: dict[str, Any] = {"pairs": {s: sum(p.source == s for p in run.pairs) for s in sources}}
    if run.embedder:
        result["embedder"] = run.embedder
    if args.fit:
        result["shipped"] = ship(run, args.features, args.honest_share, args.rule, args.l2)
    else:
        result["rule"] = args.rule
        result["l2"] = args.l2
        result["loso"] = loso(run, args.features, args.honest_share, args.rule, args.l2)
    emit("tidy_pairs" + ("_fit" if args.fit else "") + _suffix(args), result)


if __name__ == "__main__":
    main()
