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

    .venv/bin/python bench/_scan_loso.py [--weights 0,1,2] [--folds 1,2,3,4,5]
        [--out bench/results/scan_loso.json]

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


def install(weights: Any, bias: float, dev: list[training.Row]) -> dict[str, float]:
    """Make ``weights`` the scanner's model, thresholds chosen as :func:`training.build`
    chooses them (dev benign rows that no stranger wrote); returns the thresholds."""
    score = training.scorer(weights, bias)
    dev_benign = [score(r.text) for r in dev if r.y == 0 and not training.is_stranger(r)]
    chosen = training.choose_thresholds(dev_benign, training.LEVEL_FP_TARGETS)
    thresholds = {k: max(v, training.LEVEL_FLOORS[k]) for k, v in chosen.items()}
    view = memoryview(weights).cast("B").cast("f")
    classifier._model = classifier.Model(view, bias, thresholds)
    _scan._memo.clear()
    return thresholds


def verdicts(rows: list[dict[str, Any]], level: str) -> list[str]:
    return [fresh.verdict(r, level) for r in rows]


def _count(vs: list[str]) -> dict[str, Any]:
    c = {v: vs.count(v) for v in ("block", "hold", "allow")}
    return {"n": len(vs), **c, "caught": wilson(c["block"] + c["hold"], len(vs))}


def summarise(scored: list[dict[str, Any]], level: str) -> dict[str, Any]:
    """Pooled verdicts of scored rows (each with ``verdict_LEVEL``)."""
    key = "verdict_" + level
    att = [r for r in scored if r["label"] == "attack"]
    ben = [r for r in scored if r["label"] == "benign"]
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
        thresholds = install(w, b, dev)
        which = FOLDS[name]
        rows = [dict(r) for r in fresh.load(which.path, which.seed) if r["split"] == "dev"]
        for level in LEVELS:
            for r, v in zip(rows, verdicts(rows, level), strict=True):
                r["verdict_" + level] = v
        for r in rows:
            r["set"] = which.name
        scored += rows
        blocks = sum(scan_text(t, "memory", "balanced").verdict == "block" for t in public_dev_benign)
        holds = sum(scan_text(t, "memory", "balanced").verdict == "hold" for t in public_dev_benign)
        sdev = stranger_dev_rows(data)
        for level in LEVELS:
            for r, v in zip(sdev, verdicts(sdev, level), strict=True):
                r["verdict_" + level] = v
        for r in sdev:
            r["fold"] = which.name
        stranger_dev += sdev
        per_fold[which.name] = {
            "thresholds": thresholds,
            "seconds": round(time.perf_counter() - t0, 1),
            "dev_half": summarise(rows, "balanced")["attacks"],
            "dev_half_honest": summarise(rows, "balanced")["honest"],
            "public_dev_benign": {"n": len(public_dev_benign), "block": blocks, "hold": holds},
        }
        print(name, weight, json.dumps(per_fold[which.name]), file=sys.stderr, flush=True)
    return {
        "weight": weight,
        "folds": per_fold,
        **{level: summarise(scored, level) for level in LEVELS},
        "strangers_dev": {level: summarise(stranger_dev, level) for level in LEVELS}
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


def line(name: str, fig: dict[str, Any]) -> str:
    a, h = fig["attacks"], fig["honest"]
    c = a["caught"]
    return (
        f"{name}: caught {c['k']}/{a['n']} {c['pct']}% {c['ci95']} (block {a['block']}, "
        f"hold {a['hold']}); honest hold {h['hold']}/{h['n']}, block {h['block']}/{h['n']}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", default="base,1", help="stranger weights; base = baseline")
    ap.add_argument("--folds", default="1,2,3,4,5")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "scan_loso.json")
    args = ap.parse_args()
    names = list(FOLDS)
    folds = [names[int(k) - 1] for k in args.folds.split(",")]
    data = training.Data(DATA / "threats" / "train", ROOT / "bench" / "data")
    results: dict[str, Any] = {}
    for wtxt in args.weights.split(","):
        weight = None if wtxt == "base" else float(wtxt)
        res = run(weight, folds, data)
        results[wtxt] = res
        for level in LEVELS:
            print(line(f"w={wtxt} {level} LOSO dev", res[level]), flush=True)
            if res["strangers_dev"]:
                print(line(f"w={wtxt} {level} strangers dev", res["strangers_dev"][level]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    summary = {
        k: {
            level: {
                "caught": v[level]["attacks"]["caught"],
                "honest_hold": v[level]["honest"]["hold"],
                "honest_block": v[level]["honest"]["block"],
            }
            for level in LEVELS
        }
        for k, v in results.items()
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
