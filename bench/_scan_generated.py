"""Scanner 12: measure models on train/dev rows and probes only (never a test half).

    git show main:src/mnemic/scan/model.bin > /tmp/base.bin
    .venv/bin/python bench/_scan_generated.py --model base=/tmp/base.bin \
        --model scanner12=src/mnemic/scan/model.bin --out bench/results/scan_generated.json

Each ``--model NAME=PATH`` is loaded in turn into the scanner (the same process, the same
rows, so the figures compare in one run) and measured, scope ``memory``, levels
``balanced`` and ``strict``, on:

* the four fresh sets' **dev** halves (``_scan_fresh``; the test halves are not read);
* the hand-written families' dev split (``_scan_families``, split pairs read together);
* the public corpus's dev split (``scan_split.json``) and every benign dev row of the
  fit (corpus dev, hand-written dev notes, templates, generated families, noise, docs):
  honest rows held or blocked, in all and per language, and those the classifier alone
  flags;
* the generated families' dev rows (:func:`_scan_corpus.expand_generated`), and those of
  the families written for scanner 15 and not fitted (``scan_generated_unfitted``), per family,
  language and framing;
* the language probes (``scan_language_probes.json``).

Every rate comes with n and a Wilson 95 % interval. Prints one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _scan_corpus as corpus
import _scan_families as families
import _scan_fresh as fresh
import _scan_training as training
import mnemic.scan as scan_mod
from _scan_v3 import FAMILIES, wilson
from mnemic.scan import ScanResult, classifier, scan_in_context, scan_text

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("MNEMIC_DATA_DIR", ROOT.parent / "shared" / "data"))
PROBES = ROOT / "bench" / "data" / "scan_language_probes.json"
#: Scanner 15's generated families, measured here but not fitted (docs/scanner.md).
UNFITTED = ROOT / "bench" / "data" / "scan_generated_unfitted"
LEVELS = ("balanced", "strict")


def _alone(result: ScanResult) -> bool:
    found = result.findings or result.holds
    return bool(found) and all(f.layer == "classifier" for f in found)


def _tally(verdicts: list[str]) -> dict[str, Any]:
    count = {v: verdicts.count(v) for v in ("block", "hold", "allow")}
    return {
        "n": len(verdicts),
        **count,
        "caught": wilson(count["block"] + count["hold"], len(verdicts)),
    }


def _grouped(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    groups: dict[str, list[str]] = defaultdict(list)
    for g, v in pairs:
        groups[g].append(v)
    return {g: _tally(v) for g, v in sorted(groups.items())}


def _halves(rows: list[dict[str, Any]], level: str) -> dict[str, Any]:
    att, ben = [], []
    for r in rows:
        (att if r["label"] == "attack" else ben).append(r)
    return {"attacks": _tally([r["v"] for r in att]), "honest": _tally([r["v"] for r in ben])}


def measure(level: str, dev: list[training.Row], public: list[training.Row]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for s in fresh.SETS.values():
        rows = [dict(r) for r in fresh.load(s.path, s.seed) if r["split"] == "dev"]
        for r in rows:
            r["v"] = fresh.verdict(r, level)
        block = _halves(rows, level)
        block["attacks_by_family"] = _grouped(
            [(r["family"], r["v"]) for r in rows if r["label"] == "attack"]
        )
        out[f"{s.name}_dev"] = block
    fam = [r for r in families.expand(FAMILIES) if r["split"] == "dev"]
    for r in fam:
        r["v"] = scan_text(r["text"], "memory", level).verdict
    pairs = [p for p in families.pairs(FAMILIES) if p["split"] == "dev"]
    for p in pairs:
        fam.append(
            {
                "label": "attack",
                "v": scan_in_context(p["second"], [p["first"]], "memory", level).verdict,
            }
        )
    out["families_dev"] = _halves(fam, level)
    out["public_dev"] = {
        "attacks": _tally([scan_text(r.text, "memory", level).verdict for r in public if r.y]),
        "benign": _tally([scan_text(r.text, "memory", level).verdict for r in public if not r.y]),
    }
    benign_by_lang: list[tuple[str, str]] = []
    alone: list[tuple[str, str]] = []
    gen: list[tuple[str, str, str, str, str]] = []
    for r in dev:
        res = scan_text(r.text, "memory", level)
        if r.y == 0:
            benign_by_lang.append((r.lang, res.verdict))
            alone.append((r.lang, "flag" if res.verdict != "allow" and _alone(res) else "allow"))
    generated = ROOT / "bench" / "data" / "scan_generated"
    dev_rows = corpus.expand_generated(generated, "dev")
    dev_rows += corpus.expand_generated(UNFITTED, "dev", frames_from=generated)
    for d in dev_rows:
        v = scan_text(d["text"], "memory", level).verdict
        gen.append((d["label"], d["family"], d["lang"], d["framing"], v))
    out["dev_benign_all"] = _tally([v for _, v in benign_by_lang])
    out["dev_benign_by_language"] = _grouped(benign_by_lang)
    out["dev_benign_classifier_alone_by_language"] = {
        g: t["caught"]["k"] for g, t in _grouped(alone).items() if t["caught"]["k"]
    }
    for label in ("attack", "benign"):
        sel = [g for g in gen if g[0] == label]
        out[f"generated_dev_{label}"] = {
            "all": _tally([g[4] for g in sel]),
            "by_family": _grouped([(g[1], g[4]) for g in sel]),
            "by_language": _grouped([(g[2], g[4]) for g in sel]),
            "by_framing": _grouped([(g[3], g[4]) for g in sel]),
        }
    probes = json.loads(PROBES.read_text(encoding="utf-8"))
    out["probes"] = {
        kind: _grouped(
            [
                (lang, scan_text(t, "memory", level).verdict)
                for lang, ts in probes[kind].items()
                for t in ts
            ]
        )
        for kind in ("honest", "attacks")
    }
    out["probes_total"] = {
        kind: _tally(
            [scan_text(t, "memory", level).verdict for ts in probes[kind].values() for t in ts]
        )
        for kind in ("honest", "attacks")
    }
    return out


def _entry_ms(texts: list[str]) -> dict[str, float]:
    times = []
    for t in texts:
        scan_mod._memo.clear()
        t0 = time.perf_counter()
        scan_text(t, "memory", "balanced")
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {
        "p50_ms": round(times[len(times) // 2], 3),
        "p95_ms": round(times[int(len(times) * 0.95)], 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", action="append", required=True, help="NAME=PATH (repeatable)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    data = training.Data(DATA / "threats" / "train", ROOT / "bench" / "data")
    _, dev = training.assemble(data)
    rows = training.load_rows(data.corpus_dir / "attacks.jsonl", data.corpus_dir / "benign.jsonl")
    split = training.read_split(data.split, rows)
    public = [r for r in rows if split[r.source] == "dev"]
    result: dict[str, Any] = {"note": "train/dev rows and probes only; no test half read"}
    timing_texts = [r.text for r in dev][::7][:400]
    for spec in args.model:
        name, _, path = spec.partition("=")
        model = classifier.Model.load(Path(path))
        classifier._model = model
        scan_mod._memo.clear()
        block: dict[str, Any] = {
            "path": path,
            "size_bytes": Path(path).stat().st_size,
            "thresholds": model.thresholds,
        }
        for level in LEVELS:
            block[level] = measure(level, dev, public)
        block["timing"] = _entry_ms(timing_texts)
        result[name] = block
        print(name, "done", flush=True)
    if args.out:
        args.out.write_text(
            json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
