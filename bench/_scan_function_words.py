"""Measure the classifier with and without its function words, on train and dev only.

    .venv/bin/python bench/_scan_function_words.py     # ~2 min; merges into bench/results/scan.json

Each variant fits the classifier exactly as ``./x bench scan --train`` does (seed 12),
with another set of words left out of the features, and is judged on rows that were
tuned on (never a test half): the classifier alone at its balanced threshold (dev
attacks and the benign rows of train and dev, per language), and the whole scanner with
that model (the corpus dev split, the generated families' train and dev splits, the
fresh set's dev half). Variants:

* ``none``: no word left out (the model before scanner 5: it reproduces the shipped
  weights of that commit byte for byte);
* ``shipped``: the list in ``src/mnemic/scan/_stopwords.py``;
* ``with_english``: the same plus the ``stop-words`` package's English list (rejected).

Then the cost of one 300-character entry (p50, every layer) and the cold start (import
and first scan of 48 entries, CPU time), this tree against ``BASE_COMMIT``, interleaved
in one run.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _scan_families as families
import _scan_fresh as fresh
import _scan_training as training
import _scan_v3 as v3
import mnemic.scan as scan_mod
import mnemic.scan.features as features
from mnemic.scan import classifier, scan_text

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("MNEMIC_DATA_DIR", ROOT.parent / "shared" / "data"))
#: The commit before function words were left out.
BASE_COMMIT = "2d43b85"
#: The German housekeeping note the old model blocked alone (0.8505 >= 0.85).
GERMAN_NOTE = "Diese Notizen werden jeden Freitag aufgeräumt; alte Details stehen im Wiki."


def _stop_set(variant: str) -> frozenset[bytes]:
    if variant == "none":
        return frozenset()
    if variant == "shipped":
        return features.STOP_WORDS
    from stop_words import get_stop_words

    english = {w for e in get_stop_words("english") for w in features.words(features.normalise(e))}
    return features.STOP_WORDS | english


def _tally(pairs: list[tuple[str, bool]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for group, hit in pairs:
        out[group][0] += hit
        out[group][1] += 1
    return dict(sorted(out.items()))


def _verdicts(pairs: list[tuple[str, str]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(
        lambda: dict.fromkeys(("block", "hold", "allow"), 0)
    )
    for group, verdict in pairs:
        out[group][verdict] += 1
    return dict(sorted(out.items()))


def variant_figures(variant: str) -> dict[str, Any]:
    """Fit with ``variant``'s words left out and measure it on train / dev."""
    shipped = features.STOP_WORDS
    features.STOP_WORDS = _stop_set(variant)
    try:
        data = training.Data(DATA / "threats" / "train", ROOT / "bench" / "data")
        train, dev = training.assemble(data)
        weights, bias = training.fit(*training.training_texts(train), seed=12)
        score = training.scorer(weights, bias)
        chosen = training.choose_thresholds(
            [score(r.text) for r in dev if r.y == 0], training.LEVEL_FP_TARGETS
        )
        th = {k: max(v, training.LEVEL_FLOORS[k]) for k, v in chosen.items()}
        cut = th["balanced"]
        benign = [r for r in train + dev if r.y == 0]
        out: dict[str, Any] = {
            "words_left_out": len(features.STOP_WORDS),
            "thresholds_from_dev": chosen,
            "german_note_score": round(score(GERMAN_NOTE), 4),
            "classifier_alone_balanced": {
                "dev_attacks_by_language": _tally(
                    [(r.lang, score(r.text) >= cut) for r in dev if r.y]
                ),
                "train_dev_benign_by_language": _tally(
                    [(r.lang, score(r.text) >= cut) for r in benign]
                ),
            },
        }
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "model.bin"
            training.write_model(path, weights, bias, {"thresholds": th})
            classifier._model = classifier.Model.load(path)
            scan_mod._memo.clear()  # verdicts of the previous variant's model
            rows = [r for r in families.expand(v3.FAMILIES) if r["split"] != "test"]
            fresh_dev = [r for r in fresh.load() if r["split"] == "dev"]
            out["scanner_balanced"] = {
                "corpus_dev": _verdicts(
                    [(r.label, scan_text(r.text, "memory", "balanced").verdict) for r in dev]
                ),
                "families_train_dev": _verdicts(
                    [(r["label"], scan_text(r["text"], "memory", "balanced").verdict) for r in rows]
                ),
                "fresh_dev": _verdicts([(r["label"], fresh.verdict(r)) for r in fresh_dev]),
            }
        return out
    finally:
        features.STOP_WORDS = shipped
        classifier._model = None
        scan_mod._memo.clear()


_COST = r"""
import json, sys, time
import mnemic.scan as scan_mod
entries = json.loads(sys.stdin.read())
full = []
for _ in range(60):
    for e in entries:
        t0 = time.perf_counter_ns()
        scan_mod._scan_uncached(e, "memory")
        full.append((time.perf_counter_ns() - t0) / 1e6)
full.sort()
print(json.dumps({"p50": full[len(full) // 2], "p99": full[int(0.99 * len(full))]}))
"""


def cost(rounds: int = 7) -> dict[str, Any]:
    """p50 of one 300-character entry and the cold start, now and at BASE_COMMIT,
    interleaved round by round."""
    from scan import ENTRIES

    pool = " ".join(ENTRIES)
    entries = [pool[i : i + 300] for i in range(0, len(pool) - 300, 150)]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", BASE_COMMIT, "src"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        trees = {"now": str(ROOT / "src"), "before": str(Path(tmp) / "src")}
        got = v3.interleaved(_COST, entries, trees, rounds)
        cold = v3.cold_start(ENTRIES, runs=9, before=trees["before"])
    out: dict[str, Any] = {"entries": len(entries), "rounds": rounds, "base_commit": BASE_COMMIT}
    for name, vals in got.items():
        out[f"entry_300_chars_ms_{name}"] = {
            k: round(statistics.median(v[k] for v in vals), 4) for k in ("p50", "p99")
        }
    out["cold_start"] = cold
    return out


def main() -> None:
    result = {
        "note": "train and dev rows only (no test half); bench/_scan_function_words.py",
        "variants": {v: variant_figures(v) for v in ("none", "shipped", "with_english")},
        "cost": cost(),
    }
    path = ROOT / "bench" / "results" / "scan.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["function_words"] = result
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
