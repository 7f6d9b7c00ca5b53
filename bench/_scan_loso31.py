"""Scanner 31: the cut, not the rows: thresholds that keep what a better fit orders
(issue 29; protocol written and committed before any figure was read).

Scanner 30 found that adding the eighth and ninth sets to the fit raises the AUC on the
set left out in 12 of 15 folds, yet loses pooled caught because the shipped threshold rule
(1 % of the generated dev benign rows, floor 0.5) moves the cut up with the generated
look-alikes' scores. This loop crosses the rows a fit reads with the rule that places its
cut.

**Protocol.**

1. *Folds* (scanner 30's, :mod:`_scan_loso30`): the strangers' sets a-f and the fresh sets
   one to nine, fifteen folds. For each fold X and each row recipe: fit without X (none of
   its rows; a fold whose set the recipe does not train on is scored by the recipe's fit on
   everything), then for **each cut recipe** choose the thresholds from that fit, install
   them and score X's **dev rows** with the whole scanner at ``balanced`` (a split row read
   with its context), by :mod:`_scan_loso22`'s machinery. The fit is the shipped one
   (features, function words, split pairs, weights, seed 12); its per-row arithmetic is run
   by a C transcription of :func:`_scan_training.fit` (same visiting order, same double
   sums, same AdaGrad steps), checked byte for byte against the Python fit on the fit on
   everything before any fold is scored; a fit that does not match stops the loop.
   Pooled over the folds per (rows, cut): attacks caught (blocked or held), honest held and
   blocked, per set, family and language, n and 95 % Wilson intervals. Each (fit, cut)
   scores the public corpus's dev benign rows.
2. *Beyond the folds.* Each row recipe's fit on everything, under each cut, scores the
   **dev halves** of the tenth, eleventh and twelfth sets (never a test half), the public
   dev benign rows and the generated dev benign rows the shipped rule chooses its cut on.
3. *Row recipes* (:data:`_scan_loso30.RECIPES`): ``today`` (fresh1-7, strangers a-e) and
   ``+8,9`` (plus both halves of fresh8 and fresh9), and ``+8,9,f`` (``+8,9`` plus the
   strangers' set f, dealt and weighted like a-e).
4. *Cut recipes* (``strict`` and ``balanced`` share the cut, as shipped; ``lenient``
   keeps today's rule, 0 % of the generated dev benign rows, floor 0.95, and caps the
   other two):
   ``rule25``: today's rule, the cut holding at most 1 % of the generated dev benign rows
   (those no stranger wrote), floor 0.5;
   ``honest-strangers``: the cut holding at most a share S of the honest rows strangers
   wrote among **the fit's own rows** (every honest row of the fresh and strangers' sets
   it trains on; never a row of the set left out), floor 0.5. S is fixed once, before any
   fold is scored, as the share of those rows that today's fit on everything flags at
   today's shipped cut (0.8528): it reproduces today's cut on today's rows and moves with
   the strangers' honest rows instead of the generated ones. (Those rows are in the fit,
   so their scores are in-sample and low; the share, not the score, is what is carried.)
   *Found when S was computed, before any fold was scored: S = 0. No honest row strangers
   wrote scores 0.8528 in-sample (the highest, 0.6722 of 2,377), so this recipe is the
   cut just above the fit's highest-scoring honest stranger row; on today's rows it does
   not reproduce today's cut (0.6723). Run as written.*
   ``keep-cut``: the cut fixed at today's shipped 0.8528 for every fit (a probability on
   the same logistic scale; scanner 30's post-hoc look, made a rule).
   ``fixed-holds`` (the brief's third idea: the cut holding as many generated dev benign
   rows as today's model) is ``rule25`` itself: 1 % of a fixed set of rows is a fixed
   number of rows (32 of 3,208) whatever the fit, so it is not run twice.
5. *Rule* (scanner 25's, :func:`_scan_loso25.rule`). A (rows, cut) ships only if, against
   (``today``, ``rule25``) in the same run: pooled caught over the fifteen folds rises;
   honest blocked rises on no set (nor pooled); pooled honest held rises by at most one
   percentage point of the pooled honest rows; the public dev benign rows keep today's
   blocks at ``balanced`` in every fit; the fit on everything blocks no more of the
   generated dev benign rows; p50 per entry <= 2 ms; the tenth-to-twelfth dev halves'
   caught, pooled, does not fall and their honest blocked does not rise. Among those that
   pass, the most pooled attacks caught wins; ties: fewer honest held, then the simpler
   (fewer rows; ``rule25`` < ``keep-cut`` < ``honest-strangers``). Nine candidates are
   compared with one baseline on the same folds: the winner's margin is read with that
   in mind (a gain of a few rows among eight tries is reported as such). None passes: the
   model stays, fresh8/9 stay held out, and the report says so.
6. *Ship* the chosen (rows, cut) refitted byte-reproducibly by ``./x bench scan
   --train`` (the Python fit; the header names the cut recipe and its inputs); sets it
   trains on move to "trained on".
7. *Held out, once, at the end*, only if something shipped: the thirteenth set's test
   half, the tenth's, eleventh's and twelfth's test halves and the public test split,
   ``balanced`` and ``strict``, before (main's model, same run) and after. Not before.

    .venv/bin/python bench/_scan_loso31.py [--rows today +8,9 +8,9,f] [--folds ...]
        [--out bench/results/scan31_loso.json]
    .venv/bin/python bench/_scan_loso31.py --rule --out FILE  # each (rows, cut) judged
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import _fastfit
import _scan_fresh as fresh
import _scan_loso as loso
import _scan_loso20 as loso20
import _scan_loso22 as loso22
import _scan_loso25 as loso25
import _scan_loso30 as loso30
import _scan_training as training
from mnemic.scan import classifier, scan_text

ROOT = Path(__file__).resolve().parent.parent
#: Today's shipped cut (``strict`` and ``balanced``), the one ``keep-cut`` keeps.
TODAY_CUT = 0.8528
ROWS = {
    **{k: loso30.RECIPES[k] for k in ("today", "+8,9")},
    "+8,9,f": loso30.Recipe(loso30.RECIPES["+8,9"].fresh, loso25.STRANGERS_AF, ()),
}
CUTS = ("rule25", "keep-cut", "honest-strangers")
#: Where the loop keeps each fit's weights (a fit is made once, whatever process asks),
#: by the names and bytes of its inputs.
CACHE = Path("/tmp") / "scan31-fits"


def label(rows: str, cut: str) -> str:
    """A (rows, cut) pair's name in the result; (``today``, ``rule25``) is ``today``,
    the baseline :func:`_scan_loso25.rule` judges the others against."""
    return "today" if (rows, cut) == ("today", "rule25") else f"{rows}@{cut}"


def _data(recipe: loso30.Recipe, exclude: str | None) -> training.Data:
    return training.Data(
        loso22.DATA / "threats" / "train",
        loso22.BENCH_DATA,
        fresh=tuple(n for n in recipe.fresh if n != exclude),
        strangers=tuple(n for n in recipe.strangers if n != exclude),
    )


class Fit:
    """A fit's weights and bias and the honest rows strangers wrote among its rows."""

    def __init__(self, recipe: loso30.Recipe, exclude: str | None) -> None:
        data = _data(recipe, exclude)
        names = [[p.name for p in data.fresh_files()], data.stranger_names]
        # The inputs' bytes and the script's version too: a changed file is another fit.
        key = json.dumps([names, training.corpus_hash(*data.files()), training.SCRIPT_VERSION])
        digest = hashlib.sha256(key.encode()).hexdigest()[:16]
        path = CACHE / f"{digest}.f32"
        train, _ = training.assemble(data, dev_in_fit=True)
        self.honest = [r.text for r in train if training.is_stranger(r) and r.y == 0]
        t0 = time.perf_counter()
        if path.is_file():
            meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
            self.weights = array("f")
            self.weights.frombytes(path.read_bytes())
            self.bias: float = meta["bias"]
        else:
            self.weights, self.bias = training.fit_rows(train, stranger_weight=2.0)
            CACHE.mkdir(exist_ok=True)
            path.write_bytes(self.weights.tobytes())
            path.with_suffix(".json").write_text(json.dumps({"key": key, "bias": self.bias}))
        self.seconds = round(time.perf_counter() - t0, 1)

    def honest_share(self, cut: float) -> float:
        """The share of the strangers' honest rows of this fit its score flags at ``cut``."""
        score = training.scorer(self.weights, self.bias)
        return sum(score(t) >= cut for t in self.honest) / len(self.honest)

    def thresholds(self, cut: str, dev_benign: list[str], share: float) -> dict[str, float]:
        """The levels' thresholds by the cut recipe ``cut`` (protocol, step 4)."""
        score = training.scorer(self.weights, self.bias)
        out = loso.thresholds_for([score(t) for t in dev_benign], loso.VARIANTS["fp1"])
        if cut == "rule25":
            return out
        if cut == "keep-cut":
            return training.kept_cut(out, TODAY_CUT)
        chosen = training.choose_thresholds([score(t) for t in self.honest], {"b": share})
        return training.kept_cut(out, max(chosen["b"], training.LEVEL_FLOORS["balanced"]))


def _installed(f: Fit, thresholds: dict[str, float], public: list[str]) -> loso20.Fitted:
    """Install ``f`` with ``thresholds`` and score the public dev benign rows."""
    loso.install(f.weights, f.bias, thresholds)
    pub = loso20.counts([scan_text(t, "memory", "balanced").verdict for t in public])
    return loso20.Fitted(f.weights, f.bias, thresholds, pub, f.seconds)


def run(path: Path, names: list[str], folds: list[str], full: bool, share: float) -> None:
    """Each row recipe of ``names`` over ``folds`` under every cut, then its fit on
    everything beyond them; the result written to ``path`` after every fit."""
    loso25.configure(loso25.RECIPES["today"])  # the shipped features and lexicon
    training.adagrad = _fastfit.adagrad
    dev_benign, public = loso22.basis()
    beyond = loso22.held_dev_halves(loso30.BEYOND)
    out: dict[str, Any] = {
        "protocol": "docs/scanner.md, Scanner 31 (bench/_scan_loso31.py)",
        "honest_share": share,
        "rows": {k: ROWS[k]._asdict() for k in names},
        "folds": {},
        "full": {},
    }
    scored: dict[str, list[dict[str, Any]]] = {}

    def save() -> None:
        out["pooled"] = {k: loso.summarise(v, "balanced") for k, v in scored.items() if v}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")

    for rname in names:
        recipe = ROWS[rname]
        trained = {*recipe.fresh, *recipe.strangers}
        for name in [*folds, *([None] if full else [])]:
            f = Fit(recipe, name if name in trained else None)
            for cut in CUTS:
                fitted = _installed(f, f.thresholds(cut, dev_benign, share), public)
                tag = label(rname, cut)
                if name is not None:
                    rows = loso22.score_rows(loso20.fold_rows(name))
                    scored.setdefault(tag, []).extend(rows)
                    out["folds"].setdefault(name, {})[tag] = loso22.fold_entry(
                        name, tag, fitted, rows
                    )
                    continue
                res, every = loso22.full_entry(tag, fitted, dev_benign, beyond)
                res["beyond_pooled"] = loso.summarise(every, "balanced")
                head = loso.line(f"full {tag} fresh10-12 dev", res["beyond_pooled"])
                print(head, fitted.thresholds, fitted.public, res["fit_dev_benign"], flush=True)
                out["full"][tag] = res
            save()
    save()
    loso.print_pooled(out.get("pooled", {}))


def honest_share() -> float:
    """Protocol step 4's S: the share of the strangers' honest rows in today's fit on
    everything that its score flags at today's cut (training rows only)."""
    loso25.configure(loso25.RECIPES["today"])
    training.adagrad = _fastfit.adagrad
    return Fit(ROWS["today"], None).honest_share(TODAY_CUT)


def check_fast() -> bool:
    """Whether the C fit gives today's fit on everything byte for byte (step 1)."""
    loso25.configure(loso25.RECIPES["today"])
    train, _ = training.assemble(_data(ROWS["today"], None), dev_in_fit=True)
    return _fastfit.same_as_python(train)


def _main_and_shipped(old: Path) -> Iterator[tuple[str, classifier.Model]]:
    """``("before", main's model file ``old``)``, then ``("after", the shipped model)``,
    both under the shipped features, each installed (scan memo cleared) when yielded."""
    from mnemic import scan as _scan

    for tag, path in (("before", old), ("after", Path(classifier.MODEL_PATH))):
        loso25.configure(loso25.RECIPES["today"])
        classifier._model = model = loso22._load_any(path)
        _scan._memo.clear()
        yield tag, model


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", nargs="+", default=list(ROWS), choices=list(ROWS))
    ap.add_argument("--folds", default=",".join(loso30.FOLDS))
    ap.add_argument("--no-full", action="store_true", help="skip the fits on everything")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "scan31_loso.json")
    ap.add_argument("--rule", action="store_true", help="each (rows, cut)'s failures in --out")
    ap.add_argument("--share", type=float, help="step 4's S (computed when not given)")
    ap.add_argument("--check", action="store_true", help="the C fit against the Python one")
    ap.add_argument(
        "--held-out", type=Path, help="step 7, once: main's model file against the shipped one"
    )
    ap.add_argument("--p50", type=Path, help="per-entry time: main's model file, the shipped one")
    args = ap.parse_args()
    if args.p50:
        res = loso22.p50(args.p50, models=_main_and_shipped)
        args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        print(json.dumps(res))
        return
    if args.held_out:
        sets = (*loso30.BEYOND, fresh.THIRTEENTH)
        res = loso30.held_out(args.held_out, sets, "Scanner 31, step 7")
        args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        return
    if args.check:
        ok = check_fast()
        print("C fit same bytes as the Python fit:", ok)
        sys.exit(0 if ok else 1)
    if args.rule:
        print(json.dumps(loso25.rule(json.loads(args.out.read_text(encoding="utf-8"))), indent=1))
        return
    share = args.share if args.share is not None else honest_share()
    print("honest-strangers share S =", share, flush=True)
    run(args.out, args.rows, args.folds.split(","), not args.no_full, share)


if __name__ == "__main__":
    main()
