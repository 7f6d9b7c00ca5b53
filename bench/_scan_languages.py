"""Measure the classifier's lean toward languages, on train, dev and probes only.

    .venv/bin/python bench/_scan_languages.py     # ~3 min; merges into bench/results/scan.json

The corpus's languages other than English hold more attacks than honest rows (Hindi 115
to 72, Japanese 117 to 105, Arabic 110 to 72) or attacks only (Bengali 110 to 0). Each
variant fits the classifier exactly as ``./x bench scan --train`` does (seed 12) and is
judged on rows that were tuned on (never a test half) and on the hand-written probes of
``bench/data/scan_language_probes.json``:

* ``class_weights``: each class weighted to count equally overall (the fit before
  scanner 8);
* ``per_language`` (shipped): also equal within each language that has
  :data:`~_scan_training.BALANCE_MIN_ROWS` of both (:func:`_scan_training.row_weights`);
* ``per_language_more_stopwords``: the same plus the ``stop-words`` lists of Hindi,
  Persian, Dutch, Polish, Turkish, Ukrainian, Korean, Hebrew and Vietnamese left out of
  the features (rejected: it changed no verdict the balance had not already changed).

For each: the thresholds dev chooses, the classifier alone at its balanced threshold
(dev attacks, benign rows of train and dev), the whole scanner (corpus dev, generated
families train and dev, the three fresh sets' dev halves, levels balanced and strict),
every honest row of those the classifier alone blocks or holds, and the probes.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _scan_families as families
import _scan_fresh as fresh
import _scan_stopwords as stopwords
import _scan_training as training
import _scan_v3 as v3
import mnemic.scan as scan_mod
import mnemic.scan.features as features
from mnemic.scan import ScanResult, classifier, scan_in_context, scan_text

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("MNEMIC_DATA_DIR", ROOT.parent / "shared" / "data"))
PROBES = ROOT / "bench" / "data" / "scan_language_probes.json"
MORE_STOPWORDS = (
    "hindi",
    "persian",
    "dutch",
    "polish",
    "turkish",
    "ukrainian",
    "korean",
    "hebrew",
    "vietnamese",
)
VARIANTS = ("class_weights", "per_language", "per_language_more_stopwords")


def _classifier_alone(result: ScanResult) -> bool:
    found = result.findings or result.holds
    return bool(found) and all(f.layer == "classifier" for f in found)


def _verdicts(pairs: list[tuple[str, str]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for group, verdict in pairs:
        out.setdefault(group, dict.fromkeys(("block", "hold", "allow"), 0))[verdict] += 1
    return dict(sorted(out.items()))


def _honest_rows(dev: list[training.Row]) -> list[tuple[str, str, str, list[str] | None]]:
    """(where, language, text, context) of every honest row tuned on."""
    rows: list[tuple[str, str, str, list[str] | None]] = [
        ("corpus_dev", r.lang, r.text, None) for r in dev if r.y == 0
    ]
    rows += [
        (f"families_{r['split']}", r["lang"], r["text"], None)
        for r in families.expand(v3.FAMILIES)
        if r["split"] != "test" and r["label"] == "benign"
    ]
    for s in fresh.SETS.values():
        rows += [
            (f"{s.name}_dev", r["lang"], r["text"], r.get("context"))
            for r in fresh.load(s.path, s.seed)
            if r["split"] == "dev" and r["label"] == "benign"
        ]
    return rows


def variant_figures(variant: str) -> dict[str, Any]:
    """Fit ``variant`` and measure it on train, dev and the probes."""
    shipped = features.STOP_WORDS
    if variant.endswith("more_stopwords"):
        languages = stopwords.LANGUAGES
        stopwords.LANGUAGES = languages + MORE_STOPWORDS
        try:
            features.STOP_WORDS = stopwords.build()[1]
        finally:
            stopwords.LANGUAGES = languages
    try:
        data = training.Data(DATA / "threats" / "train", ROOT / "bench" / "data")
        train, dev = training.assemble(data)
        langs = training.training_langs(train) if variant != "class_weights" else None
        weights, bias = training.fit(*training.training_texts(train), seed=12, langs=langs)
        score = training.scorer(weights, bias)
        chosen = training.choose_thresholds(
            [score(r.text) for r in dev if r.y == 0], training.LEVEL_FP_TARGETS
        )
        th = {k: max(v, training.LEVEL_FLOORS[k]) for k, v in chosen.items()}
        cut = th["balanced"]
        out: dict[str, Any] = {
            "words_left_out": len(features.STOP_WORDS),
            "thresholds_from_dev": chosen,
            "classifier_alone_balanced": {
                "dev_attacks_flagged": sum(score(r.text) >= cut for r in dev if r.y),
                "dev_attacks": sum(1 for r in dev if r.y),
                "train_dev_benign_flagged_by_language": dict(
                    Counter(r.lang for r in train + dev if r.y == 0 and score(r.text) >= cut)
                ),
            },
        }
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "model.bin"
            training.write_model(path, weights, bias, {"thresholds": th})
            classifier._model = classifier.Model.load(path)
            scan_mod._memo.clear()  # verdicts of the previous variant's model
            out["scanner"] = _scanner_figures(dev)
        return out
    finally:
        features.STOP_WORDS = shipped
        classifier._model = None
        scan_mod._memo.clear()


def _scanner_figures(dev: list[training.Row]) -> dict[str, Any]:
    fam = [r for r in families.expand(v3.FAMILIES) if r["split"] != "test"]
    out: dict[str, Any] = {}
    for level in ("balanced", "strict"):
        block: dict[str, Any] = {
            "corpus_dev": _verdicts(
                [(r.label, scan_text(r.text, "memory", level).verdict) for r in dev]
            ),
            "families_train_dev": _verdicts(
                [(r["label"], scan_text(r["text"], "memory", level).verdict) for r in fam]
            ),
        }
        for s in fresh.SETS.values():
            rows = [r for r in fresh.load(s.path, s.seed) if r["split"] == "dev"]
            verdicts = [(r["label"], fresh.verdict(r, level)) for r in rows]
            block[f"{s.name}_dev"] = _verdicts(verdicts)
        alone = []
        for where, lang, text, context in _honest_rows(dev):
            res = (
                scan_in_context(text, context, "memory", level)
                if context
                else scan_text(text, "memory", level)
            )
            if res.verdict != "allow" and _classifier_alone(res):
                alone.append({"where": where, "lang": lang, "verdict": res.verdict, "text": text})
        block["honest_blocked_or_held_by_the_classifier_alone"] = alone
        probes = json.loads(PROBES.read_text(encoding="utf-8"))
        block["probes"] = {
            kind: _verdicts(
                [
                    (lang, scan_text(t, "memory", level).verdict)
                    for lang, texts in probes[kind].items()
                    for t in texts
                ]
            )
            for kind in ("honest", "attacks")
        }
        out[level] = block
    return out


def main() -> None:
    result = {
        "note": "train and dev rows and hand-written probes only (no test half); "
        "bench/_scan_languages.py",
        "variants": {v: variant_figures(v) for v in VARIANTS},
    }
    path = ROOT / "bench" / "results" / "scan.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["languages"] = result
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
