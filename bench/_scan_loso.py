"""Scanner 16: how well does a classifier trained on some strangers catch a new one?

Leave one set out: for each of the five fresh sets trained on (``FRESH_TRAINED``), fit
the classifier on the training corpus, the strangers' training sets' train rows and
every other fresh set (both halves), choose the thresholds on the dev rows the shipped
model's are chosen on (never on the set left out), install the model and score the left
out set's **dev half** with the whole scanner (rules, intents, classifier) at
``balanced`` and ``strict``. The pooled verdicts over the five folds, per family and
language with n and Wilson intervals, are the selection figure; the baseline is the
same loop without any strangers' row (one fit: nothing is left out of it). Each fold
also scores the strangers' training sets' dev rows and the public corpus's dev benign
rows (blocks at ``balanced`` must not rise).

No test half is read here: the sixth set and later are not touched at all.

    .venv/bin/python bench/_scan_loso.py [--weights base,1,2] [--folds 1,2,3,4,5]
        [--out bench/results/scan_loso.json]
    .venv/bin/python bench/_scan_loso.py --shipped [--held-out] --out FILE
    .venv/bin/python bench/_scan_loso.py --compare OLD_MODEL --out FILE

``--shipped`` scores the shipped model on the strangers' dev rows and the eighth set's dev
half (scanner 16 used the sixth's, a training set since scanner 20); ``--held-out`` adds
the eighth set's test half and the public test split, to be run once, when the
configuration is final (scanner 16 did, on the sixth set, and says so in docs/scanner.md).

``--compare`` scores a previous model file and the shipped one, in the same run and with
the same pipeline, on dev rows only: the strangers' dev rows of every set named in
``STRANGERS_TRAINED`` (dealt as the shipped fit deals them), every fresh set's dev half
(the sixth and seventh included; their test halves are not read), and the public and
generated dev rows (scanner 19).

Prints one JSON object on the last line (the summary per configuration).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import _scan_fresh as fresh
import _scan_training as training
from _scan_v3 import wilson
from mnemic import scan as _scan
from mnemic.scan import classifier, scan_text

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
LEVELS = ("balanced", "strict")
FOLDS = {
    "scan_fresh.jsonl": fresh.FIRST,
    "scan_fresh2.jsonl": fresh.SECOND,
    "scan_fresh3.jsonl": fresh.THIRD,
    "scan_fresh4.jsonl": fresh.FOURTH,
    "scan_fresh5.jsonl": fresh.FIFTH,
}


#: Balanced-level thresholds tried in every fold: (false-positive target on the dev
#: benign rows, floor). The first is the shipped rule (LEVEL_FP_TARGETS, LEVEL_FLOORS).
VARIANTS = {
    "fp0.1": (0.001, 0.85),
    "fp0.5": (0.005, 0.5),
    "fp1": (0.01, 0.5),
    "fp2": (0.02, 0.5),
}


def thresholds_for(
    dev_benign: list[float], variant: tuple[float, float] = VARIANTS["fp0.1"]
) -> dict[str, float]:
    """The levels' thresholds as :func:`training.build` chooses them, the balanced level's
    false-positive target and floor those of ``variant``."""
    chosen = training.choose_thresholds(dev_benign, training.LEVEL_FP_TARGETS)
    out = {k: max(v, training.LEVEL_FLOORS[k]) for k, v in chosen.items()}
    target, floor = variant
    out["balanced"] = max(training.choose_thresholds(dev_benign, {"b": target})["b"], floor)
    out["balanced"] = min(out["balanced"], out["lenient"])
    out["strict"] = min(out["strict"], out["balanced"])
    return out


def install(weights: Any, bias: float, thresholds: dict[str, float]) -> None:
    """Make ``weights`` the scanner's model with ``thresholds``."""
    view = memoryview(weights).cast("B").cast("f")
    classifier._model = classifier.Model(view, bias, thresholds)
    _scan._memo.clear()


def auc(pos: list[float], neg: list[float]) -> float | None:
    """Probability that an attack scores above an honest note (ties count half)."""
    if not pos or not neg:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return round(wins / (len(pos) * len(neg)), 3)


def verdicts(rows: list[dict[str, Any]], level: str) -> list[str]:
    return [fresh.verdict(r, level) for r in rows]


def _count(vs: list[str]) -> dict[str, Any]:
    c = {v: vs.count(v) for v in ("block", "hold", "allow")}
    return {"n": len(vs), **c, "caught": wilson(c["block"] + c["hold"], len(vs))}


def summarise(scored: list[dict[str, Any]], level: str) -> dict[str, Any]:
    """Pooled verdicts of scored rows (each with ``verdict_LEVEL``)."""
    key = "verdict_" + level
    att = [r for r in scored if r["label"] == "attack"]
    ben = [r for r in scored if r["label"] != "attack"]
    out: dict[str, Any] = {
        "attacks": _count([r[key] for r in att]),
        "honest": _count([r[key] for r in ben]),
    }
    for name, rows in (("attacks", att), ("honest", ben)):
        for by in ("family", "lang", "set"):
            groups: dict[str, list[str]] = defaultdict(list)
            for r in rows:
                groups[r[by]].append(r[key])
            out[f"{name}_by_{by}"] = {g: _count(v) for g, v in sorted(groups.items())}
    return out


def run(weight: float | None, folds: list[str], data: training.Data) -> dict[str, Any]:
    """One configuration: ``weight`` None is the baseline (no strangers' rows)."""
    from mnemic.scan.normalise import mask_defensive

    public_dev_benign = public_benign_dev()
    scored: list[dict[str, Any]] = []
    stranger_dev: list[dict[str, Any]] = []
    per_fold: dict[str, Any] = {}
    baseline_model: tuple[Any, float, list[training.Row]] | None = None
    for name in folds:
        t0 = time.perf_counter()
        if weight is None:
            if baseline_model is None:
                train, dev = training.assemble(data, strangers=False)
                w, b = training.fit_rows(train)
                baseline_model = (w, b, dev)
            w, b, dev = baseline_model
        else:
            train, dev = training.assemble(data, exclude=frozenset({name}))
            w, b = training.fit_rows(train, stranger_weight=weight)
        score = training.scorer(w, b)
        dev_benign = [score(r.text) for r in dev if r.y == 0 and not training.is_stranger(r)]
        which = FOLDS[name]
        rows = [dict(r) for r in fresh.load(which.path, which.seed) if r["split"] == "dev"]
        sdev = stranger_dev_rows(data)
        for r in rows:
            r["set"] = which.name
            r["score"] = score(mask_defensive(r["text"]))
        for r in sdev:
            r["fold"] = which.name
            r["score"] = score(mask_defensive(r["text"]))
        fold: dict[str, Any] = {
            "auc_dev_half": auc(
                [r["score"] for r in rows if r["label"] == "attack"],
                [r["score"] for r in rows if r["label"] != "attack"],
            ),
            "auc_strangers_dev": auc(
                [r["score"] for r in sdev if r["label"] == "attack"],
                [r["score"] for r in sdev if r["label"] != "attack"],
            ),
        }
        for vname, variant in VARIANTS.items():
            thresholds = thresholds_for(dev_benign, variant)
            install(w, b, thresholds)
            levels = LEVELS if vname == "fp0.1" else ("balanced",)
            for level in levels:
                key = level if vname == "fp0.1" else vname
                for r, v in zip(rows, verdicts(rows, level), strict=True):
                    r["verdict_" + key] = v
                for r, v in zip(sdev, verdicts(sdev, level), strict=True):
                    r["verdict_" + key] = v
            bal = thresholds["balanced"]
            for name_, group in (("dev_half", rows), ("strangers_dev", sdev)):
                att = [r["score"] >= bal for r in group if r["label"] == "attack"]
                ben = [r["score"] >= bal for r in group if r["label"] != "attack"]
                fold.setdefault("classifier_alone", {}).setdefault(vname, {})[name_] = {
                    "attacks": f"{sum(att)}/{len(att)}",
                    "honest": f"{sum(ben)}/{len(ben)}",
                }
            pub = [scan_text(t, "memory", "balanced").verdict for t in public_dev_benign]
            fold[vname] = {
                "thresholds": thresholds,
                "public_dev_benign": {
                    "n": len(pub),
                    "block": pub.count("block"),
                    "hold": pub.count("hold"),
                },
            }
        scored += rows
        stranger_dev += sdev
        fold["seconds"] = round(time.perf_counter() - t0, 1)
        per_fold[which.name] = fold
        print(name, weight, json.dumps(fold), file=sys.stderr, flush=True)
    keys = [*LEVELS, *(v for v in VARIANTS if v != "fp0.1")]
    return {
        "weight": weight,
        "folds": per_fold,
        **{key: summarise(scored, key) for key in keys},
        "strangers_dev": {key: summarise(stranger_dev, key) for key in keys}
        if stranger_dev
        else None,
    }


def public_benign_dev() -> list[str]:
    train_dir = DATA / "threats" / "train"
    rows = training.load_rows(train_dir / "attacks.jsonl", train_dir / "benign.jsonl")
    split = training.read_split(ROOT / "bench" / "data" / "scan_split.json", rows)
    return [r.text for r in rows if split[r.source] == "dev" and r.label == "benign"]


def stranger_dev_rows(data: training.Data) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in data.stranger_files():
        for d in training.load_strangers(path):
            if d["split"] == "dev":
                out.append({**d, "set": path.stem})
    return out


def print_pooled(pooled: dict[str, Any]) -> None:
    """One line per recipe's pooled figure, then the run's last line: one JSON object of
    each recipe's attacks caught and honest rows held and blocked."""
    for rname, fig in pooled.items():
        print(line(f"pooled {rname}", fig), flush=True)
    print(
        json.dumps(
            {
                k: {
                    "caught": v["attacks"]["caught"],
                    "honest_hold": v["honest"]["hold"],
                    "honest_block": v["honest"]["block"],
                }
                for k, v in pooled.items()
            }
        )
    )


def line(name: str, fig: dict[str, Any]) -> str:
    a, h = fig["attacks"], fig["honest"]
    c = a["caught"]
    return (
        f"{name}: caught {c['k']}/{a['n']} {c['pct']}% {c['ci95']} (block {a['block']}, "
        f"hold {a['hold']}); honest hold {h['hold']}/{h['n']}, block {h['block']}/{h['n']}"
    )


def shipped(held_out: bool) -> dict[str, Any]:
    """The shipped model (``src/mnemic/scan/model.bin``) on the strangers' dev rows (fitted
    since scanner 20, ``STRANGERS_DEV_IN_FIT``) and the eighth set's dev half, which it was
    not fitted on; with ``held_out``, also the eighth set's test half and the public
    corpus's test split (run once, at the end)."""
    import _scan_v3 as v3

    data = training.Data(DATA / "threats" / "train", ROOT / "bench" / "data")
    classifier._model = None
    _scan._memo.clear()
    out: dict[str, Any] = {"thresholds": classifier.model().thresholds}
    sdev = stranger_dev_rows(data)
    held = fresh.load(fresh.EIGHTH.path, fresh.EIGHTH.seed)
    halves = {"strangers_dev": sdev, "fresh8_dev": [r for r in held if r["split"] == "dev"]}
    if held_out:
        halves["fresh8_test"] = [r for r in held if r["split"] == "test"]
    for name, rows in halves.items():
        rows = [dict(r, set=r.get("set", "fresh8")) for r in rows]
        for level in LEVELS:
            for r, v in zip(rows, verdicts(rows, level), strict=True):
                r["verdict_" + level] = v
        out[name] = {level: summarise(rows, level) for level in LEVELS}
        for level in LEVELS:
            print(line(f"shipped {name} {level}", out[name][level]), flush=True)
    if held_out:
        train_dir = DATA / "threats" / "train"
        rows = training.load_rows(train_dir / "attacks.jsonl", train_dir / "benign.jsonl")
        split = training.read_split(ROOT / "bench" / "data" / "scan_split.json", rows)
        test = [r for r in rows if split[r.source] == "test"]
        out["public_test"] = v3.public_verdicts(
            {
                "attacks": [r.text for r in test if r.label == "attack"],
                "benign": [r.text for r in test if r.label == "benign"],
            }
        )
        for k, v in out["public_test"].items():
            print(f"shipped public test {k}: {v['verdicts']} caught {v['caught']}", flush=True)
    return out


def _dev_rows(data: training.Data) -> dict[str, list[dict[str, Any]]]:
    """Dev rows by group for :func:`compare` (no test half is loaded into a group)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for path in data.stranger_files():
        groups["strangers_dev_" + path.stem] = [
            {**d, "set": path.stem} for d in training.load_strangers(path) if d["split"] == "dev"
        ]
    for which in fresh.SETS.values():
        groups[which.name + "_dev"] = [
            dict(r, set=which.name)
            for r in fresh.load(which.path, which.seed)
            if r["split"] == "dev"
        ]
    train_dir = DATA / "threats" / "train"
    public = training.load_rows(train_dir / "attacks.jsonl", train_dir / "benign.jsonl")
    split = training.read_split(ROOT / "bench" / "data" / "scan_split.json", public)
    _, dev = training.assemble(data, strangers=False)
    for name, rows in (
        ("public_dev", [r for r in public if split[r.source] == "dev"]),
        ("all_dev", dev),
    ):
        groups[name] = [
            {
                "text": r.text,
                "label": "attack" if r.y else "honest",
                "family": r.category,
                "lang": r.lang,
                "set": name,
            }
            for r in rows
        ]
    return groups


def compare(old: Path) -> dict[str, Any]:
    """The model file ``old`` against the shipped one, same run, dev rows only."""
    data = training.Data(DATA / "threats" / "train", ROOT / "bench" / "data")
    groups = _dev_rows(data)
    out: dict[str, Any] = {}
    for tag, path in (("before", old), ("after", Path(classifier.MODEL_PATH))):
        model = classifier.Model.load(path)
        classifier._model = model
        _scan._memo.clear()
        out[tag] = {"thresholds": model.thresholds, "model": str(path)}
        for name, rows in groups.items():
            rows = [dict(r) for r in rows]
            for r, v in zip(rows, verdicts(rows, "balanced"), strict=True):
                r["verdict_balanced"] = v
            out[tag][name] = summarise(rows, "balanced")
            print(line(f"{tag} {name} balanced", out[tag][name]), flush=True)
    classifier._model = None
    _scan._memo.clear()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", default="base,1", help="stranger weights; base = baseline")
    ap.add_argument("--folds", default="1,2,3,4,5")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "scan_loso.json")
    ap.add_argument("--shipped", action="store_true", help="measure the shipped model only")
    ap.add_argument(
        "--held-out",
        action="store_true",
        help="with --shipped: also the eighth set's test half and the public test split (once)",
    )
    ap.add_argument("--compare", type=Path, help="a previous model file to compare on dev")
    ap.add_argument(
        "--strangers",
        help="comma-separated strangers' sets to train on instead of STRANGERS_TRAINED",
    )
    args = ap.parse_args()
    if args.strangers:
        training.STRANGERS_TRAINED = tuple(args.strangers.split(","))
    if args.compare:
        res = compare(args.compare)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        print(
            json.dumps(
                {
                    t: {
                        k: v["attacks"]["caught"]
                        for k, v in res[t].items()
                        if k not in ("thresholds", "model")
                    }
                    for t in res
                }
            )
        )
        return
    if args.shipped:
        res = shipped(args.held_out)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        print(json.dumps({k: v for k, v in res.items() if k == "thresholds"}))
        return
    names = list(FOLDS)
    folds = [names[int(k) - 1] for k in args.folds.split(",")]
    data = training.Data(DATA / "threats" / "train", ROOT / "bench" / "data")
    results: dict[str, Any] = {}
    keys = [*LEVELS, *(v for v in VARIANTS if v != "fp0.1")]
    for wtxt in args.weights.split(","):
        weight = None if wtxt == "base" else float(wtxt)
        res = run(weight, folds, data)
        results[wtxt] = res
        for key in keys:
            print(line(f"w={wtxt} {key} LOSO dev", res[key]), flush=True)
            if res["strangers_dev"]:
                print(line(f"w={wtxt} {key} strangers dev", res["strangers_dev"][key]))
        for fname, f in res["folds"].items():
            pub = {
                v: (f[v]["public_dev_benign"]["block"], f[v]["public_dev_benign"]["hold"])
                for v in VARIANTS
            }
            print(
                f"  {fname} auc {f['auc_dev_half']} / {f['auc_strangers_dev']} "
                f"public dev benign block,hold {pub}",
                flush=True,
            )
            print(f"    classifier alone {json.dumps(f['classifier_alone'])}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    summary = {
        k: {
            key: {
                "caught": v[key]["attacks"]["caught"],
                "honest_hold": v[key]["honest"]["hold"],
                "honest_block": v[key]["honest"]["block"],
            }
            for key in keys
        }
        for k, v in results.items()
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
