"""Scanner 30: the learned layer fitted on more strangers, judged on sets it never saw
(issue 29; protocol written and committed before any figure was read).

The eighth and ninth fresh sets have been looked at five to seven times each: worn as
held-out sets, they become training rows if the rule below says the fit gains by them.

**Protocol.**

1. *Folds.* Every strangers' training set (``scan_strangers/a-f.jsonl``) and the fresh
   sets one to nine: fifteen folds. For each fold X and each recipe: fit the recipe's
   rows without X (none of its rows), choose the thresholds by the shipped rule (1 % of
   the dev rows no stranger wrote, floor 0.5), install the model and score X's **dev
   rows** with the whole scanner at ``balanced`` (a split row read with its context), by
   :mod:`_scan_loso22`'s machinery (its ``score_rows``, ``basis``; :mod:`_scan_loso20`'s
   ``fit``). A fold whose set the recipe does not train on is scored by the recipe's fit
   on everything (the same rows; one fit, cached). Pooled over the folds: attacks caught
   (blocked or held), honest held and blocked, per set, family and language, n and 95 %
   Wilson intervals. Each fit also scores the public corpus's dev benign rows.
2. *Beyond the folds.* A fit of each recipe on everything scores the **dev halves** of
   the tenth, eleventh and twelfth sets (never a test half), unless the recipe trains on
   them; the public dev benign rows; every dev benign row the thresholds are chosen on.
3. *Recipes* (same features, function words, split pairs and weights as shipped: dev
   rows of the strangers' sets in the fit, a stranger's row weighing 2):
   ``today``: the shipped fit (fresh1-7, strangers a-e), the baseline in the same loop;
   ``+8,9``: today's rows plus both halves of fresh8 and fresh9, weighing as the
   strangers' rows;
   ``+8,9+dev10-12``: ``+8,9`` plus the dev halves of fresh10, fresh11 and fresh12
   (their test halves stay held out). Run only if the machine's time allows, after the
   other two; then those dev halves are training rows and no longer a selection signal:
   this recipe is judged on the folds alone, and the beyond-the-folds test does not
   apply to it (reported as such).
   A feature change (e.g. the byte n-gram range) is tried only if the fits show a clear
   language gap and the feature function already has the knob; none is planned.
4. *Rule* (scanner 22/25's). A recipe ships only if, against ``today`` in the same run:
   pooled caught over the fifteen folds rises; honest blocked rises on no set (nor
   pooled); pooled honest held rises by at most one percentage point of the pooled
   honest rows; the public corpus's dev benign rows keep today's blocks at ``balanced``
   in every fit; the fit on everything blocks no more of the dev benign rows the
   thresholds are chosen on; p50 per entry <= 2 ms; and (recipes not trained on them)
   the tenth-to-twelfth dev halves' caught, pooled, does not fall and their honest
   blocked does not rise. Among the recipes that pass, the most pooled attacks caught
   wins; ties: fewer honest held, then the simpler. None passes: the model stays as it
   is, fresh8 and fresh9 stay reported as held out, and the report says so.
5. *Ship* the chosen recipe refitted byte-reproducibly (``./x bench scan --train``);
   the sets it trains on move to "trained on" in ``./x bench scan``'s report.
6. *Held out, once, at the end*, after the model is final: the tenth, eleventh and
   twelfth sets' **test halves** and the public test split, before (main's model, same
   run) and after, ``balanced`` and ``strict`` (:func:`held_out`). Not before.

    .venv/bin/python bench/_scan_loso30.py [--recipes today +8,9] [--folds ...]
        [--out bench/results/scan30_loso_today.json]
    .venv/bin/python bench/_scan_loso22.py --merge A.json,B.json --out FILE  # one table
    .venv/bin/python bench/_scan_loso22.py --table set|family|lang --out FILE
    .venv/bin/python bench/_scan_loso30.py --rule --out FILE  # each recipe against the rule

Writes the result after every fit; prints the pooled figures last.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

import _scan_fresh as fresh
import _scan_loso as loso
import _scan_loso20 as loso20
import _scan_loso22 as loso22
import _scan_loso25 as loso25
import _scan_training as training
from mnemic.scan import scan_text

ROOT = Path(__file__).resolve().parent.parent
FRESH_1_7 = loso20.FRESH_FOLDS
FRESH_8_9 = ("scan_fresh8.jsonl", "scan_fresh9.jsonl")
STRANGERS_AE = loso25.STRANGERS_AE
#: The folds: every strangers' set and fresh1-9.
FOLDS = (*FRESH_1_7, *FRESH_8_9, *loso25.STRANGERS_AF)
#: The sets judged beyond the folds (their dev halves), unless a recipe trains on them.
BEYOND = (fresh.TENTH, fresh.ELEVENTH, fresh.TWELFTH)


class Recipe(NamedTuple):
    fresh: tuple[str, ...]
    strangers: tuple[str, ...]
    #: Fresh sets whose dev half (only) joins the fit.
    dev_halves: tuple[str, ...]


#: The recipe the rule chose (docs/scanner.md, Scanner 30): none beyond today's; the
#: model stays as it is and the eighth and ninth sets stay held out.
SHIPPED = "today"
RECIPES = {
    "today": Recipe(FRESH_1_7, STRANGERS_AE, ()),
    "+8,9": Recipe((*FRESH_1_7, *FRESH_8_9), STRANGERS_AE, ()),
    "+8,9+dev10-12": Recipe(
        (*FRESH_1_7, *FRESH_8_9), STRANGERS_AE, ("fresh10", "fresh11", "fresh12")
    ),
}


def _dev_half_files(names: tuple[str, ...], where: Path) -> tuple[str, ...]:
    """Files in ``where`` holding only the dev half of each named fresh set (absolute
    paths: :class:`training.Data` joins them to its data directory unchanged)."""
    out = []
    for name in names:
        s = fresh.SETS[name]
        path = where / f"{name}_dev.jsonl"
        rows = [r for r in fresh.load(s.path, s.seed) if r["split"] == "dev"]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        out.append(str(path))
    return tuple(out)


class Loop:
    """One recipe's fits, each made once (a fold the recipe does not train on is scored
    by the fit on everything)."""

    def __init__(self, recipe: Recipe, dev_benign: list[str], public: list[str]) -> None:
        self.recipe = recipe
        self.dev_benign = dev_benign
        self.public = public
        self._tmp = tempfile.TemporaryDirectory(prefix="scan30-")
        self.extra = _dev_half_files(recipe.dev_halves, Path(self._tmp.name))
        self.cache: dict[tuple[tuple[str, ...], tuple[str, ...]], loso20.Fitted] = {}

    def fit(self, exclude: str | None) -> loso20.Fitted:
        fresh_sets = tuple(n for n in self.recipe.fresh if n != exclude) + self.extra
        strangers = tuple(n for n in self.recipe.strangers if n != exclude)
        key = (fresh_sets, strangers)
        if key not in self.cache:
            data = training.Data(
                loso22.DATA / "threats" / "train",
                loso22.BENCH_DATA,
                fresh=fresh_sets,
                strangers=strangers,
            )
            self.cache[key] = loso20.fit(data, True, 2.0, self.dev_benign, self.public)
        f = self.cache[key]
        loso.install(f.weights, f.bias, f.thresholds)
        return f


def run(path: Path, names: list[str], folds: list[str], full: bool) -> None:
    """Each recipe of ``names`` over ``folds``, then its fit on everything beyond them;
    the result written to ``path`` after every fit."""
    loso25.configure(loso25.RECIPES["today"])  # the shipped features and lexicon
    dev_benign, public = loso22.basis()
    beyond = loso22.held_dev_halves(BEYOND)
    out: dict[str, Any] = {
        "protocol": "docs/scanner.md, Scanner 30 (bench/_scan_loso30.py)",
        "recipes": {k: RECIPES[k]._asdict() for k in names},
        "folds": {},
        "full": {},
    }
    scored: dict[str, list[dict[str, Any]]] = {k: [] for k in names}

    def save() -> None:
        out["pooled"] = {k: loso.summarise(v, "balanced") for k, v in scored.items() if v}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")

    for rname in names:
        loop = Loop(RECIPES[rname], dev_benign, public)
        for name in folds:
            f = loop.fit(name)
            rows = loso22.score_rows(loso20.fold_rows(name))
            scored[rname] += rows
            out["folds"].setdefault(name, {})[rname] = loso22.fold_entry(name, rname, f, rows)
            save()
        if full:
            f = loop.fit(None)
            fit_dev = [scan_text(t, "memory", "balanced").verdict for t in dev_benign]
            res: dict[str, Any] = {
                "thresholds": f.thresholds,
                "public_dev_benign": f.public,
                "fit_dev_benign": loso20.counts(fit_dev),
            }
            trained = set(RECIPES[rname].dev_halves)
            every: list[dict[str, Any]] = []
            for hname, hrows in beyond.items():
                if hname.removesuffix("_dev") in trained:
                    continue
                rows = loso22.score_rows(hrows)
                every += rows
                res[hname] = loso.summarise(rows, "balanced")
                print(loso.line(f"full {rname} {hname}", res[hname]), flush=True)
            if every:
                res["beyond_pooled"] = loso.summarise(every, "balanced")
                print(loso.line(f"full {rname} fresh10-12 dev", res["beyond_pooled"]), flush=True)
            print(f"full {rname}", f.public, res["fit_dev_benign"], flush=True)
            out["full"][rname] = res
            save()
    save()
    loso.print_pooled(out.get("pooled", {}))


def rule(res: dict[str, Any]) -> dict[str, list[str]]:
    """Each recipe's failures of the protocol's rule (step 4) against ``today``, by
    :func:`_scan_loso25.rule`; a recipe trained on the tenth to twelfth dev halves is not
    judged beyond the folds (its ``beyond_pooled`` is absent and the test reads as
    today's), which the answer says."""
    res = json.loads(json.dumps(res))
    base = res.get("full", {}).get("today", {})
    notes: dict[str, str] = {}
    for name, full in res.get("full", {}).items():
        if "beyond_pooled" not in full and "beyond_pooled" in base:
            full["beyond_pooled"] = base["beyond_pooled"]
            notes[name] = "fresh10-12 dev halves trained on: not judged beyond the folds"
    out = loso25.rule(res)
    for name, note in notes.items():
        out.setdefault(name, []).append(f"(note) {note}")
    return out


def _groups(fig: dict[str, Any]) -> dict[str, Any]:
    """English against every other language (mixed text among them), attacks and honest."""
    out: dict[str, Any] = {}
    for kind in ("attacks", "honest"):
        for group in ("en", "other"):
            acc = None
            for lang, count in fig[f"{kind}_by_lang"].items():
                if (lang == "en") == (group == "en"):
                    acc = loso20._add(acc, count)
            out[f"{kind}_{group}"] = acc or loso20._add(None, None)
    return out


def held_out(
    old: Path, sets: tuple[fresh.FreshSet, ...] = BEYOND, protocol: str = "Scanner 30, step 6"
) -> dict[str, Any]:
    """The protocol's step 6, run once: the model file ``old`` (main's) and the shipped
    one, same run, whole scanner at ``balanced`` and ``strict``, on the **test halves** of
    ``sets`` (the tenth, eleventh and twelfth unless said), pooled and each, and the public
    corpus's test split."""
    import _scan_v3 as v3
    from mnemic import scan as _scan
    from mnemic.scan import classifier

    loso25.configure(loso25.RECIPES["today"])
    halves = {
        f"{s.name}_test": [
            dict(r, set=s.name) for r in fresh.load(s.path, s.seed) if r["split"] == "test"
        ]
        for s in sets
    }
    train_dir = loso22.DATA / "threats" / "train"
    public = training.load_rows(train_dir / "attacks.jsonl", train_dir / "benign.jsonl")
    split = training.read_split(loso22.BENCH_DATA / "scan_split.json", public)
    test = [r for r in public if split[r.source] == "test"]
    named = {
        "attacks": [r.text for r in test if r.label == "attack"],
        "benign": [r.text for r in test if r.label == "benign"],
    }
    out: dict[str, Any] = {"protocol": f"docs/scanner.md, {protocol} (run once)"}
    pooled = f"{sets[0].name}-{sets[-1].name.removeprefix('fresh')}_test"
    for tag, path in (("before", old), ("after", Path(classifier.MODEL_PATH))):
        model = loso22._load_any(path)
        classifier._model = model
        _scan._memo.clear()
        res: dict[str, Any] = {"model": str(path), "thresholds": model.thresholds}
        for level in loso.LEVELS:
            every: list[dict[str, Any]] = []
            for name, rows0 in halves.items():
                rows = [dict(r) for r in rows0]
                for r, v in zip(rows, loso.verdicts(rows, level), strict=True):
                    r["verdict_" + level] = v
                every += rows
                fig = loso.summarise(rows, level)
                fig["groups"] = _groups(fig)
                res.setdefault(name, {})[level] = fig
                print(loso.line(f"{tag} {name} {level}", fig), flush=True)
            fig = loso.summarise(every, level)
            fig["groups"] = _groups(fig)
            res.setdefault(pooled, {})[level] = fig
            print(loso.line(f"{tag} {pooled} {level}", fig), flush=True)
            res.setdefault("public_test", {})[level] = v3.public_verdicts(named, level)
            print(
                tag,
                "public test",
                level,
                {k: v["verdicts"] for k, v in res["public_test"][level].items()},
                flush=True,
            )
        out[tag] = res
    classifier._model = None
    _scan._memo.clear()
    return out


def at_cut(path: Path, cut: float) -> dict[str, Any]:
    """Post hoc, dev only: the model file ``path`` with its ``strict`` and ``balanced``
    thresholds set to ``cut``, whole scanner at ``balanced``, on the tenth to twelfth
    sets' dev halves, the public dev benign rows and the dev benign rows the thresholds
    are chosen on (does a fit keep its gain when the cut stays where it was?)."""
    from mnemic import scan as _scan
    from mnemic.scan import classifier

    loso25.configure(loso25.RECIPES["today"])
    model = loso22._load_any(path)
    model.thresholds.update(strict=cut, balanced=cut)
    classifier._model = model
    _scan._memo.clear()
    dev_benign, public = loso22.basis()
    rows = [dict(r) for rows in loso22.held_dev_halves(BEYOND).values() for r in rows]
    for r, v in zip(rows, loso.verdicts(rows, "balanced"), strict=True):
        r["verdict_balanced"] = v
    out: dict[str, Any] = {"model": str(path), "cut": cut}
    out["beyond_pooled"] = loso.summarise(rows, "balanced")
    for name, texts in (("public_dev_benign", public), ("fit_dev_benign", dev_benign)):
        out[name] = loso20.counts([scan_text(t, "memory", "balanced").verdict for t in texts])
    print(loso.line(f"{path.name} at {cut}", out["beyond_pooled"]), out["fit_dev_benign"],
          out["public_dev_benign"], flush=True)  # fmt: skip
    classifier._model = None
    _scan._memo.clear()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recipes", nargs="+", default=["today", "+8,9"], choices=list(RECIPES))
    ap.add_argument("--folds", default=",".join(FOLDS))
    ap.add_argument("--no-full", action="store_true", help="skip the fits on everything")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "scan30_loso.json")
    ap.add_argument("--rule", action="store_true", help="each recipe's failures in --out")
    ap.add_argument(
        "--held-out", type=Path, help="step 6, once: main's model file against the shipped one"
    )
    ap.add_argument("--at-cut", nargs=2, metavar=("MODEL", "CUT"), help="post hoc, dev only")
    args = ap.parse_args()
    if args.at_cut:
        res = at_cut(Path(args.at_cut[0]), float(args.at_cut[1]))
        args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        return
    if args.held_out:
        res = held_out(args.held_out)
        args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        return
    if args.rule:
        print(json.dumps(rule(json.loads(args.out.read_text(encoding="utf-8"))), indent=1))
        return
    run(args.out, args.recipes, args.folds.split(","), not args.no_full)


if __name__ == "__main__":
    main()
