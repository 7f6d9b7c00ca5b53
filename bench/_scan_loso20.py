"""Scanner 20: which strangers' rows, and how heavy, help a classifier catch a new stranger?

Leave one stranger's set out at a time over the seven fresh sets and the strangers'
training sets (``scan_strangers/*.jsonl``): for each set X and each *recipe* (which sets
are trained on, the weight of a strangers' row, whether the strangers' dev rows join the
fit), fit on the recipe's rows without X, choose the thresholds by the shipped rule on the
dev rows no stranger wrote (never on X), install the model and score X's **dev rows** (a
fresh set's dev half, a strangers' set's dev families) with the whole scanner at
``balanced``. The verdicts pooled over every X, per set, family and language with n and
Wilson intervals, are the selection figure; ``today`` (the fit as shipped by scanner 19:
fresh1-5 and a-d's train rows, weight 1) is the baseline, in the same loop. Each fit also
scores the public corpus's dev benign rows (blocks at ``balanced`` must not rise). A fit
of each recipe on everything (nothing left out) scores the eighth set's dev half, the
public dev benign rows and every dev benign row the thresholds are chosen on.

No test half is scored: the eighth set's test half is not loaded, and the sixth and
seventh sets' test halves are only ever training rows.

    .venv/bin/python bench/_scan_loso20.py [--recipes today,w1,w1dev,w2dev]
        [--folds scan_fresh.jsonl,...,a.jsonl,...] [--out bench/results/scan20_loso.json]

Writes the result after every fold (a run cut short keeps what it measured); prints one
JSON object on the last line (pooled caught and honest held / blocked per recipe).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import _scan_fresh as fresh
import _scan_loso as loso
import _scan_training as training
from _scan_v3 import wilson
from mnemic.scan import classifier, scan_text
from mnemic.scan.normalise import mask_defensive

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
BENCH_DATA = ROOT / "bench" / "data"

FRESH_BY_FILE = {w.path.name: w for w in fresh.SETS.values()}
#: The fresh sets a fold may leave out: the first seven (the eighth is held out).
FRESH_FOLDS = tuple(f"scan_fresh{n}.jsonl" for n in ("", 2, 3, 4, 5, 6, 7))
TODAY_FRESH = FRESH_FOLDS[:5]
TODAY_STRANGERS = ("a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl")


def strangers_present() -> tuple[str, ...]:
    """Every strangers' training set in ``bench/data/scan_strangers``, sorted."""
    return tuple(sorted(p.name for p in (BENCH_DATA / "scan_strangers").glob("*.jsonl")))


class Recipe(NamedTuple):
    fresh: tuple[str, ...]
    strangers: tuple[str, ...]
    weight: float
    dev_in_fit: bool


def recipes() -> dict[str, Recipe]:
    more = strangers_present()
    return {
        "today": Recipe(TODAY_FRESH, TODAY_STRANGERS, 1.0, False),
        "w1": Recipe(FRESH_FOLDS, more, 1.0, False),
        "w1dev": Recipe(FRESH_FOLDS, more, 1.0, True),
        "w2dev": Recipe(FRESH_FOLDS, more, 2.0, True),
        "w2": Recipe(FRESH_FOLDS, more, 2.0, False),
        "w0.5dev": Recipe(FRESH_FOLDS, more, 0.5, True),
    }


def fold_rows(name: str) -> list[dict[str, Any]]:
    """The dev rows of the set ``name`` (a fresh set's dev half, a strangers' dev rows)."""
    if name in FRESH_BY_FILE:
        which = FRESH_BY_FILE[name]
        rows = fresh.load(which.path, which.seed)
        return [dict(r, set=which.name) for r in rows if r["split"] == "dev"]
    path = BENCH_DATA / "scan_strangers" / name
    return [dict(d, set=path.stem) for d in training.load_strangers(path) if d["split"] == "dev"]


class Fitted(NamedTuple):
    weights: Any
    bias: float
    thresholds: dict[str, float]
    public: dict[str, int]
    seconds: float


def counts(verdicts: list[str]) -> dict[str, int]:
    """How many verdicts, and how many of them block and hold."""
    return {"n": len(verdicts), "block": verdicts.count("block"), "hold": verdicts.count("hold")}


def fit(
    data: training.Data, dev_in_fit: bool, weight: float, dev_benign: list[str], public: list[str]
) -> Fitted:
    """Fit on ``data`` (its dev rows too with ``dev_in_fit``, a strangers' row weighing
    ``weight``), choose the thresholds by the shipped rule (1 % of ``dev_benign``, floor
    0.5), install the model and score ``public`` with the whole scanner."""
    t0 = time.perf_counter()
    train, _ = training.assemble(data, dev_in_fit=dev_in_fit)
    w, b = training.fit_rows(train, stranger_weight=weight)
    score = training.scorer(w, b)
    thresholds = loso.thresholds_for([score(t) for t in dev_benign], loso.VARIANTS["fp1"])
    loso.install(w, b, thresholds)
    pub = [scan_text(t, "memory", "balanced").verdict for t in public]
    return Fitted(w, b, thresholds, counts(pub), round(time.perf_counter() - t0, 1))


def _labelled(rows: list[dict[str, Any]]) -> tuple[list[float], list[float]]:
    pos = [r["score"] for r in rows if r["label"] == "attack"]
    neg = [r["score"] for r in rows if r["label"] != "attack"]
    return pos, neg


def _cell(c: dict[str, Any]) -> str:
    k, n = c["caught"]["k"], c["n"]
    lo, hi = c["caught"]["ci95"]
    return f"{k}/{n}, {c['caught']['pct']} % [{lo}, {hi}]"


def markdown(path: Path, by: str) -> str:
    """A markdown table of a result file's pooled figures: rows per ``by`` (set, family,
    lang), a column per recipe (attacks caught with n and interval; honest held /
    blocked)."""
    res = json.loads(path.read_text(encoding="utf-8"))
    pooled = res["pooled"]
    names = list(pooled)
    head = f"| {by} | " + " | ".join(names) + " |"
    lines = [head, "|" + " --- |" * (len(names) + 1)]
    groups = sorted({g for v in pooled.values() for g in v[f"attacks_by_{by}"]})
    groups += sorted({g for v in pooled.values() for g in v[f"honest_by_{by}"]} - set(groups))
    for g in ["(all)", *groups]:
        cells = []
        for name in names:
            v = pooled[name]
            a = v["attacks"] if g == "(all)" else v[f"attacks_by_{by}"].get(g)
            h = v["honest"] if g == "(all)" else v[f"honest_by_{by}"].get(g)
            cell = _cell(a) if a else ""
            if h:
                cell += f"; honest {h['hold']}/{h['block']} of {h['n']}"
            cells.append(cell)
        lines.append(f"| {g} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _add(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any]:
    """Two :func:`loso._count` figures of disjoint rows as one."""
    parts = [x for x in (a, b) if x]
    n = sum(x["n"] for x in parts)
    c = {v: sum(x[v] for x in parts) for v in ("block", "hold", "allow")}
    return {"n": n, **c, "caught": wilson(c["block"] + c["hold"], n)}


def merge(paths: list[Path]) -> dict[str, Any]:
    """Result files of disjoint folds as one: folds side by side, pooled counts added
    (per set, family and language; intervals recomputed), recipes every file has."""
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in paths]
    names = [k for k in docs[0]["pooled"] if all(k in d["pooled"] for d in docs)]
    out: dict[str, Any] = {
        "protocol": docs[0]["protocol"],
        "merged_from": [p.name for p in paths],
        "recipes": {k: [d["recipes"][k] for d in docs] for k in names},
        "folds": {f: v for d in docs for f, v in d["folds"].items()},
        "full": {p.name: d.get("full") for p, d in zip(paths, docs, strict=True)},
        "pooled": {},
    }
    for k in names:
        pooled: dict[str, Any] = {}
        for d in docs:
            add_pooled(pooled, d["pooled"][k])
        out["pooled"][k] = pooled
    return out


def add_pooled(pooled: dict[str, Any], fig: dict[str, Any]) -> None:
    """Add a :func:`loso.summarise` figure of other rows into ``pooled``, in place: its
    attacks and honest counts, and each group's of its per-set, family and language
    counts (intervals recomputed)."""
    for key, val in fig.items():
        if key in ("attacks", "honest"):
            pooled[key] = _add(pooled.get(key), val)
        else:
            groups = pooled.setdefault(key, {})
            for g, v in val.items():
                groups[g] = _add(groups.get(g), v)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", choices=("set", "family", "lang"), help="print a result's table")
    ap.add_argument("--merge", help="comma-separated result files of disjoint folds, to --out")
    ap.add_argument("--recipes", default="today,w1,w1dev,w2dev")
    ap.add_argument("--folds", default=",".join(FRESH_FOLDS + strangers_present()))
    ap.add_argument("--no-full", action="store_true", help="skip the fits on everything")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "scan20_loso.json")
    args = ap.parse_args()
    if args.merge:
        merged = merge([Path(p) for p in args.merge.split(",")])
        args.out.write_text(json.dumps(merged, indent=1) + "\n", encoding="utf-8")
        return
    if args.table:
        print(markdown(args.out, args.table))
        return
    # Every fit featurises the same texts: compute each text's features once per process.
    training.features = functools.lru_cache(maxsize=None)(training.features)
    table = recipes()
    chosen = {k: table[k] for k in args.recipes.split(",")}
    folds = args.folds.split(",")
    corpus = DATA / "threats" / "train"
    base = training.Data(corpus, BENCH_DATA, fresh=(), strangers=())
    _, dev0 = training.assemble(base, strangers=False)
    dev_benign = [r.text for r in dev0 if r.y == 0]
    public = loso.public_benign_dev()
    cache: dict[Any, Fitted] = {}

    def fitted(recipe: Recipe, exclude: frozenset[str]) -> Fitted:
        key = (
            recipe.weight,
            recipe.dev_in_fit,
            tuple(n for n in recipe.fresh if n not in exclude),
            tuple(n for n in recipe.strangers if n not in exclude),
        )
        if key not in cache:
            data = training.Data(corpus, BENCH_DATA, fresh=key[2], strangers=key[3])
            cache[key] = fit(data, recipe.dev_in_fit, recipe.weight, dev_benign, public)
        f = cache[key]
        loso.install(f.weights, f.bias, f.thresholds)
        return f

    out: dict[str, Any] = {
        "protocol": "docs/scanner.md, Scanner 20",
        "recipes": {k: r._asdict() for k, r in chosen.items()},
        "folds": {},
    }
    scored: dict[str, list[dict[str, Any]]] = {k: [] for k in chosen}

    def save() -> None:
        out["pooled"] = {k: loso.summarise(v, "balanced") for k, v in scored.items() if v}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")

    for name in folds:
        base_rows = fold_rows(name)
        out["folds"][name] = {}
        for rname, recipe in chosen.items():
            f = fitted(recipe, frozenset({name}))
            rows = [dict(r) for r in base_rows]
            model = classifier.model()
            for r in rows:
                r["score"] = model.score(mask_defensive(r["text"]))
            for r, v in zip(rows, loso.verdicts(rows, "balanced"), strict=True):
                r["verdict_balanced"] = v
            scored[rname] += rows
            fig = loso.summarise(rows, "balanced")
            out["folds"][name][rname] = {
                "attacks": fig["attacks"],
                "honest": fig["honest"],
                "auc": loso.auc(*_labelled(rows)),
                "thresholds": f.thresholds,
                "public_dev_benign": f.public,
                "fit_seconds": f.seconds,
            }
            print(
                loso.line(f"{name} {rname}", fig),
                "auc",
                loso.auc(*_labelled(rows)),
                "public",
                f.public,
                file=sys.stderr,
                flush=True,
            )
        save()
    if not args.no_full:
        eighth = [
            dict(r, set="fresh8")
            for r in fresh.load(fresh.EIGHTH.path, fresh.EIGHTH.seed)
            if r["split"] == "dev"
        ]
        out["full"] = {}
        for rname, recipe in chosen.items():
            f = fitted(recipe, frozenset())
            rows = [dict(r) for r in eighth]
            for r, v in zip(rows, loso.verdicts(rows, "balanced"), strict=True):
                r["verdict_balanced"] = v
            fit_dev = [scan_text(t, "memory", "balanced").verdict for t in dev_benign]
            out["full"][rname] = {
                "thresholds": f.thresholds,
                "fresh8_dev": loso.summarise(rows, "balanced"),
                "public_dev_benign": f.public,
                "fit_dev_benign": counts(fit_dev),
            }
            print(
                loso.line(f"full {rname} fresh8 dev", out["full"][rname]["fresh8_dev"]),
                "public",
                f.public,
                "fit dev benign",
                out["full"][rname]["fit_dev_benign"],
                flush=True,
            )
            save()
    save()
    loso.print_pooled(out.get("pooled", {}))


if __name__ == "__main__":
    main()
