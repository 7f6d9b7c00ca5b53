"""Scanner 22: learned shape features and split pairs in the fit, chosen by leaving a
stranger out (issue 29; protocol written and committed before any figure was read).

**Protocol.**

1. *Folds.* The seven fresh sets trained on (fresh1-7) and the strangers' training sets
   (``scan_strangers/a-e.jsonl``; ``f.jsonl`` as a fold once it is merged from main). For
   each set X and each recipe: fit on the recipe's rows without X (none of its rows),
   choose the thresholds by the shipped rule (1 % of the dev rows no stranger wrote,
   floor 0.5), install the model and score X's **dev rows** (a fresh set's dev half, a
   strangers' set's dev families) with the whole scanner at ``balanced``; a split row
   (one with ``context``) is read with its context as the whole-store scan reads it.
   Pooled over the folds: attacks caught (blocked or held), honest held and honest
   blocked, per set, family and language, with n and 95 % Wilson intervals. Each fit
   also scores the public corpus's dev benign rows. A fit of each recipe on everything
   scores the eighth and ninth sets' **dev halves** (never a test half), the public dev
   benign rows and every dev benign row the thresholds are chosen on.
2. *Recipes.* ``today``: scanner 20's fit as shipped (fresh1-7, every row of the
   strangers' sets, a strangers' row weighing 2, split attacks left out, feature version
   6 with its function words), the baseline, in the same loop. ``s22``: the same rows and
   weight, with (a) the shape features (addresses the agent, claims a speaker or an
   authority, states a standing permission or default, points at another entry or step,
   names a future trigger, steers a choice), (b) split pairs in the fit (a row with a
   ``context`` trains as the context joined with the entry, attack and honest twin
   alike; the whole-store scan scores the same join), (c) the function words of
   ``_UNTIL_REFIT`` dropped. ``shape`` and ``pairs`` ((a)+(c) alone, (b)+(c) alone) run
   when time allows, for attribution.
3. *Rule.* A recipe ships only if, against ``today`` in the same run: pooled caught
   rises; honest blocked rises on no set (nor pooled); pooled honest held rises by at
   most one percentage point of the pooled honest rows; the public corpus's dev benign
   rows keep today's blocks at ``balanced`` in every fit; the fit on everything blocks
   no more of the dev benign rows the thresholds are chosen on; p50 per entry ≤ 2 ms.
   Among recipes that pass, the most pooled attacks caught wins (ties: fewer honest
   held, then the simpler). If none passes, the features and the protocol ship without
   a refit of the model and the report says so.
4. *f.jsonl* (being written during this work): merged from main when it lands, dealt
   like a-e (whole families, seed 1616, a quarter to dev), a fold of its own and a
   training set of the chosen recipe, refitted only if its fold keeps the rule.
5. *No test half* is scored here: the eighth and ninth sets' test halves are not
   loaded; ``scan_fresh10*`` is never opened. The lead measures held-out sets once.

    .venv/bin/python bench/_scan_loso22.py [--recipes today,s22] [--folds ...]
        [--strangers a.jsonl,...] [--out bench/results/scan22_loso.json]
    .venv/bin/python bench/_scan_loso22.py --merge A.json,B.json --out FILE  # one table
    .venv/bin/python bench/_scan_loso22.py --table set|family|lang --out FILE
    .venv/bin/python bench/_scan_loso22.py --shipped OLD_MODEL --out FILE    # dev, same run
    .venv/bin/python bench/_scan_loso22.py --p50 OLD_MODEL --out FILE        # per-entry time

Writes the result after every fold; prints one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import _scan_fresh as fresh
import _scan_loso as loso
import _scan_loso20 as loso20
import _scan_shapes
import _scan_training as training
from mnemic.scan import classifier, features, pipeline, scan_text
from mnemic.scan.normalise import mask_defensive

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
BENCH_DATA = ROOT / "bench" / "data"
#: The strangers' sets of today's fit (scanner 20).
TODAY_STRANGERS = ("a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl", "e.jsonl")
#: The function words today's model was fitted with: the list before ``_UNTIL_REFIT``
#: was dropped (two Arabic words joined to "and", read as negations since scanner 21).
UNTIL_REFIT = frozenset({"ولا".encode(), "ولم".encode()})
NEW_STOP_WORDS = features.STOP_WORDS
OLD_STOP_WORDS = features.STOP_WORDS | UNTIL_REFIT
_PAIR_FINDING = pipeline.pair_finding


class Recipe(NamedTuple):
    shapes: bool
    pairs: bool
    refit_words: bool


RECIPES = {
    "today": Recipe(False, False, False),
    "s22": Recipe(True, True, True),
    "shape": Recipe(True, False, True),
    "pairs": Recipe(False, True, True),
}
#: The recipe shipped (chosen by the rule among those run: docs/scanner.md, Scanner 22).
SHIPPED = "pairs"
R = TypeVar("R")


def held_dev_halves(
    sets: tuple[fresh.FreshSet, ...] = (fresh.EIGHTH, fresh.NINTH),
) -> dict[str, list[dict[str, Any]]]:
    """The dev halves of the fresh sets no fit reads (the eighth and ninth unless
    ``sets`` says), each row naming its set; their test rows are dropped as they are
    read, never scored."""
    return {
        f"{s.name}_dev": [
            dict(r, set=s.name) for r in fresh.load(s.path, s.seed) if r["split"] == "dev"
        ]
        for s in sets
    }


def configure(recipe: Recipe) -> None:
    """Make the features, the fit's reading of split rows and the whole-store scan those
    of ``recipe`` (module switches; one recipe at a time in a process)."""
    _scan_shapes.switch(recipe.shapes)
    features.STOP_WORDS = NEW_STOP_WORDS if recipe.refit_words else OLD_STOP_WORDS
    training.SPLIT_PAIRS = recipe.pairs
    pipeline.pair_finding = _PAIR_FINDING if recipe.pairs else (lambda *a, **k: None)  # type: ignore[assignment]
    # Every fit of a recipe featurises the same texts: once per text and recipe.
    training.features = functools.lru_cache(maxsize=None)(features.features)
    classifier._model = None


def _load_any(path: Path) -> classifier.Model:
    """A model file of any feature version (the previous model, to time it beside the
    new one in one process)."""
    raw = path.read_bytes()
    end1 = raw.index(b"\n", len(classifier.MAGIC))
    end2 = raw.index(b"\n", end1 + 1)
    fields = dict(kv.split("=", 1) for kv in raw[len(classifier.MAGIC) : end1].decode().split())
    view = memoryview(bytearray(raw[end2 + 1 :])).cast("f")
    thresholds = {k: float(fields[k]) for k in ("strict", "balanced", "lenient")}
    return classifier.Model(view, float(fields["bias"]), thresholds)


def _previous_and_shipped(old: Path) -> Iterator[tuple[str, classifier.Model]]:
    """``("before", the model file ``old`` under today's recipe)``, then ``("after", the
    shipped model under the shipped recipe)``, each installed (and the scan memo
    cleared) before it is yielded."""
    from mnemic import scan as _scan

    for tag, recipe, model in (
        ("before", RECIPES["today"], _load_any(old)),
        ("after", RECIPES[SHIPPED], classifier.Model.load(classifier.MODEL_PATH)),
    ):
        configure(recipe)
        classifier._model = model
        _scan._memo.clear()
        yield tag, model


def p50(
    old: Path,
    rounds: int = 3,
    models: Callable[[Path], Iterator[tuple[str, classifier.Model]]] | None = None,
) -> dict[str, Any]:
    """Per-entry time of the whole scanner (``balanced``, memory; a split row read with
    its context) over the strangers' rows, the previous model (today's features) and the
    shipped one in turn (``models``: :func:`_previous_and_shipped` unless given),
    ``rounds`` times each, in one process."""
    rows = [
        dict(d, set=p.stem)
        for p in sorted((BENCH_DATA / "scan_strangers").glob("*.jsonl"))
        for d in training.stranger_dicts(p)
    ]
    out: dict[str, Any] = {"n": len(rows)}
    for rnd in range(rounds):
        for tag, _model in (models or _previous_and_shipped)(old):
            times = []
            for r in rows:
                t0 = time.perf_counter()
                fresh.verdict(r, "balanced")
                times.append(time.perf_counter() - t0)
            times.sort()
            ms = round(1000 * times[len(times) // 2], 3)
            out.setdefault(tag, []).append(ms)
            print(f"round {rnd} {tag}: p50 {ms} ms", file=sys.stderr, flush=True)
    configure(RECIPES[SHIPPED])
    return out


def fold_entry(
    name: str, rname: str, f: loso20.Fitted, rows: list[dict[str, Any]]
) -> dict[str, Any]:
    """What a fold records of recipe ``rname`` fitted without set ``name`` (``f``) and
    scored on that set's rows: the balanced figures, the AUC, the thresholds, the public
    dev benign verdicts and the fit's seconds; its line is printed on stderr."""
    fig = loso.summarise(rows, "balanced")
    auc = loso.auc(*loso20._labelled(rows))
    print(loso.line(f"{name} {rname}", fig), "auc", auc, "public", f.public,
          f.seconds, "s", file=sys.stderr, flush=True)  # fmt: skip
    return {
        "attacks": fig["attacks"],
        "honest": fig["honest"],
        "auc": auc,
        "thresholds": f.thresholds,
        "public_dev_benign": f.public,
        "fit_seconds": f.seconds,
    }


def fit(
    strangers: tuple[str, ...],
    exclude: str | None,
    dev_benign: list[str],
    public: list[str],
    fresh_sets: tuple[str, ...] = loso20.FRESH_FOLDS,
) -> loso20.Fitted:
    """Fit the configured recipe on fresh1-7 and ``strangers`` without the set
    ``exclude`` (dev rows in the fit, a strangers' row weighing 2), choose the thresholds
    by the shipped rule on ``dev_benign``, install the model and score ``public``."""
    data = training.Data(
        DATA / "threats" / "train",
        BENCH_DATA,
        fresh=tuple(n for n in fresh_sets if n != exclude),
        strangers=tuple(n for n in strangers if n != exclude),
    )
    return loso20.fit(data, True, 2.0, dev_benign, public)


def basis() -> tuple[list[str], list[str]]:
    """The dev benign rows no stranger wrote (the thresholds are chosen on them), then
    the public corpus's dev benign rows (every fit scores them)."""
    base = training.Data(DATA / "threats" / "train", BENCH_DATA, fresh=(), strangers=())
    _, dev0 = training.assemble(base, strangers=False)
    return [r.text for r in dev0 if r.y == 0], loso.public_benign_dev()


def score_rows(rows0: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of ``rows0`` with the installed model's score (a split row's pair, as the
    fit reads it) and the whole scanner's verdict at ``balanced``."""
    rows = [dict(r) for r in rows0]
    model = classifier.model()
    for r in rows:
        ctx = training.context_list(r)
        text = training.fit_text(r) if ctx and training.SPLIT_PAIRS else r["text"]
        r["score"] = model.score(mask_defensive(text))
    for r, v in zip(rows, loso.verdicts(rows, "balanced"), strict=True):
        r["verdict_balanced"] = v
    return rows


def full_entry(
    rname: str, f: loso20.Fitted, dev_benign: list[str], held: dict[str, list[dict[str, Any]]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What a fit on everything (``f``, installed) records: its thresholds, the public and
    the threshold-choosing dev benign rows' verdicts, and each set of ``held`` scored
    (its line printed); with every scored row of ``held``, for a pooled figure."""
    fit_dev = [scan_text(t, "memory", "balanced").verdict for t in dev_benign]
    full: dict[str, Any] = {
        "thresholds": f.thresholds,
        "public_dev_benign": f.public,
        "fit_dev_benign": loso20.counts(fit_dev),
    }
    every: list[dict[str, Any]] = []
    for hname, hrows in held.items():
        rows = score_rows(hrows)
        every += rows
        full[hname] = loso.summarise(rows, "balanced")
        print(loso.line(f"full {rname} {hname}", full[hname]), flush=True)
    return full, every


def combine(paths: list[Path]) -> dict[str, Any]:
    """Result files of this loop (one recipe each, or other folds) as one: the folds side
    by side, each recipe's pooled counts added over the files that have it."""
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in paths]
    out: dict[str, Any] = {
        "protocol": docs[0]["protocol"],
        "combined_from": [p.name for p in paths],
        "folds": {},
        "full": {},
        "pooled": {},
    }
    for d in docs:
        for fold, recipes in d["folds"].items():
            out["folds"].setdefault(fold, {}).update(recipes)
        out["full"].update(d.get("full", {}))
        for name, fig in d.get("pooled", {}).items():
            loso20.add_pooled(out["pooled"].setdefault(name, {}), fig)
    return out


def shipped(old: Path) -> dict[str, Any]:
    """The previous model file (today's features) and the shipped one, same run, whole
    scanner at ``balanced``: the eighth and ninth sets' dev halves, the public corpus's
    dev benign rows and every dev benign row the thresholds are chosen on."""
    dev_benign, public = basis()
    groups = held_dev_halves()
    benign = {"public_dev_benign": public, "fit_dev_benign": dev_benign}
    out: dict[str, Any] = {}
    for tag, model in _previous_and_shipped(old):
        res: dict[str, Any] = {"thresholds": model.thresholds}
        for name, rows in groups.items():
            rows = [dict(r) for r in rows]
            for r, v in zip(rows, loso.verdicts(rows, "balanced"), strict=True):
                r["verdict_balanced"] = v
            res[name] = loso.summarise(rows, "balanced")
            print(loso.line(f"{tag} {name}", res[name]), flush=True)
        for name, texts in benign.items():
            res[name] = loso20.counts([scan_text(t, "memory", "balanced").verdict for t in texts])
            print(tag, name, res[name], flush=True)
        out[tag] = res
    configure(RECIPES[SHIPPED])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", choices=("set", "family", "lang"), help="print a result's table")
    ap.add_argument("--merge", help="comma-separated result files (recipes or folds), to --out")
    ap.add_argument("--recipes", default="today,s22")
    ap.add_argument("--strangers", default=",".join(TODAY_STRANGERS), help="sets trained on")
    ap.add_argument("--folds", default=",".join(loso20.FRESH_FOLDS + TODAY_STRANGERS))
    ap.add_argument("--no-full", action="store_true", help="skip the fits on everything")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "scan22_loso.json")
    ap.add_argument("--p50", type=Path, help="time a previous model file against the shipped one")
    ap.add_argument("--shipped", type=Path, help="a previous model file against the shipped one")
    args = ap.parse_args()
    if args.shipped:
        res = shipped(args.shipped)
        args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        return
    if args.p50:
        res = p50(args.p50)
        args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        print(json.dumps(res))
        return
    if args.merge:
        merged = combine([Path(p) for p in args.merge.split(",")])
        args.out.write_text(json.dumps(merged, indent=1) + "\n", encoding="utf-8")
        return
    if args.table:
        print(loso20.markdown(args.out, args.table))
        return
    chosen = {k: RECIPES[k] for k in args.recipes.split(",")}
    folds = args.folds.split(",")
    strangers = tuple(args.strangers.split(","))
    out: dict[str, Any] = {
        "protocol": "docs/scanner.md, Scanner 22 (bench/_scan_loso22.py)",
        "recipes": {k: r._asdict() for k, r in chosen.items()},
        "strangers": list(strangers),
        "folds": {},
        "full": {},
    }
    held = None if args.no_full else held_dev_halves()
    fold_loop(args.out, out, chosen, folds, configure, lambda _: strangers, held)
    configure(RECIPES[SHIPPED])


def fold_loop(
    path: Path,
    out: dict[str, Any],
    chosen: Mapping[str, R],
    folds: list[str],
    configure: Callable[[R], None],
    strangers: Callable[[R], tuple[str, ...]],
    held: Mapping[str, list[dict[str, Any]]] | None,
    pooled: tuple[str, str] | None = None,
) -> None:
    """Each recipe of ``chosen`` in turn, ``configure``d: for each fold, a :func:`fit` on
    ``strangers(recipe)`` without the fold scores the fold's dev rows; then, unless
    ``held`` is None, a fit on everything scores the ``held`` rows (and, with ``pooled``
    as ``(key, name)``, all of them pooled under ``key``), the public dev benign rows and
    those its thresholds are chosen on. ``out``'s ``folds`` and ``full`` take each fit's
    figures, its ``pooled`` each recipe's folds pooled; ``out`` is written to ``path``
    after every fit, and the pooled figures are printed last."""
    dev_benign, public = basis()
    scored: dict[str, list[dict[str, Any]]] = {k: [] for k in chosen}

    def save() -> None:
        out["pooled"] = {k: loso.summarise(v, "balanced") for k, v in scored.items() if v}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")

    for rname, recipe in chosen.items():
        configure(recipe)
        for name in folds:
            f = fit(strangers(recipe), name, dev_benign, public)
            rows = score_rows(loso20.fold_rows(name))
            scored[rname] += rows
            out["folds"].setdefault(name, {})[rname] = fold_entry(name, rname, f, rows)
            save()
        if held is not None:
            f = fit(strangers(recipe), None, dev_benign, public)
            full, every = full_entry(rname, f, dev_benign, held)
            if pooled is not None:
                key, label = pooled
                full[key] = loso.summarise(every, "balanced")
                print(loso.line(f"full {rname} {label}", full[key]), flush=True)
            print(f"full {rname}", f.public, full["fit_dev_benign"], flush=True)
            out["full"][rname] = full
            save()
    save()
    loso.print_pooled(out.get("pooled", {}))


if __name__ == "__main__":
    main()
