"""Scanner 18: the destination layer measured against the scanner without it, same run.

    ./x bench scan_dest [--level balanced] [--misses]

Rows read (never a test half): the **dev** halves of the seven fresh sets, the strangers'
training sets (``bench/data/scan_strangers/*.jsonl``), the public corpus's dev split
(attacks and benign) and every benign dev row of the fit (``_scan_training.assemble``).
Each row is scanned with the destination layer off (``pipeline.DESTINATIONS = False``,
the baseline) and on, in one process; a split instruction is read with its context.

Reported per source, level ``balanced`` and ``strict``: attacks caught (blocked + held)
and honest held / blocked, with n and 95 % Wilson intervals; per attack family; the
honest rows the layer newly holds, by family and relation (what a person is asked);
p50 / p95 ms per entry with and without the layer (400 dev rows). Prints one JSON
object on the last line and saves ``bench/results/scan_dest.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _scan_fresh as fresh
import _scan_training as training
import mnemic.scan as scan_mod
from _scan_generated import _entry_ms as entry_ms
from _scan_v3 import wilson
from mnemic.scan import pipeline, scan_in_context, scan_text

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("MNEMIC_DATA_DIR", ROOT.parent / "shared" / "data"))
STRANGERS = ROOT / "bench" / "data" / "scan_strangers"
OUT = ROOT / "bench" / "results" / "scan_dest.json"
#: Families of harm that reads as an ordinary preference or fact (where money, goods,
#: trust, reports or account recovery go), across the sets' own names.
DESTINATION_FAMILIES = frozenset(
    {
        "payment_redirection",
        "payee_change",
        "payee_diversion",
        "payee_fraud",
        "shipping_redirection",
        "standing_approval",
        "trusted_domain",
        "report_diversion",
        "travel_hijack",
        "account_takeover",
    }
)


def _rows() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for s in fresh.SETS.values():
        out[f"{s.name}_dev"] = [
            {**r, "honest": r["label"] != "attack"}
            for r in fresh.load(s.path, s.seed)
            if r["split"] == "dev"
        ]
    for p in sorted(STRANGERS.glob("*.jsonl")):
        rows = [json.loads(x) for x in p.read_text(encoding="utf-8").splitlines() if x.strip()]
        out[f"strangers_{p.stem}"] = [{**r, "honest": r["label"] != "attack"} for r in rows]
    data = training.Data(DATA / "threats" / "train", ROOT / "bench" / "data")
    _, dev = training.assemble(data)
    rows = training.load_rows(data.corpus_dir / "attacks.jsonl", data.corpus_dir / "benign.jsonl")
    split = training.read_split(data.split, rows)
    out["public_dev"] = [
        {"text": r.text, "honest": not r.y, "family": "public", "lang": r.lang, "label": ""}
        for r in rows
        if split[r.source] == "dev"
    ]
    out["dev_benign_all"] = [
        {"text": r.text, "honest": True, "family": "fit_dev", "lang": r.lang, "label": ""}
        for r in dev
        if not r.y
    ]
    return out


def _verdict(row: dict[str, Any], level: str) -> tuple[str, str]:
    if row.get("context"):
        res = scan_in_context(row["text"], row["context"], "memory", level)
    else:
        res = scan_text(row["text"], "memory", level)
    rel = next((f.id for f in res.holds if f.id.startswith(pipeline.DESTINATION_PREFIX)), "")
    return res.verdict, rel


def _run(rows: dict[str, list[dict[str, Any]]], level: str, on: bool) -> dict[str, list[Any]]:
    pipeline.DESTINATIONS = on
    scan_mod._memo.clear()
    return {name: [_verdict(r, level) for r in rs] for name, rs in rows.items()}


def _tally(verdicts: list[str]) -> dict[str, Any]:
    n = len(verdicts)
    return {
        "n": n,
        "caught": wilson(sum(v != "allow" for v in verdicts), n),
        "blocked": wilson(verdicts.count("block"), n),
        "held": wilson(verdicts.count("hold"), n),
    }


def _figures(
    rows: dict[str, list[dict[str, Any]]],
    before: dict[str, list[Any]],
    after: dict[str, list[Any]],
    misses: bool,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    fam_a: dict[str, list[tuple[str, str]]] = defaultdict(list)
    dest_a: list[tuple[str, str]] = []
    new_honest: dict[str, int] = defaultdict(int)
    asked: list[dict[str, str]] = []
    for name, rs in rows.items():
        b = [v for v, _ in before[name]]
        a = [v for v, _ in after[name]]
        att = [i for i, r in enumerate(rs) if not r["honest"]]
        hon = [i for i, r in enumerate(rs) if r["honest"]]
        block: dict[str, Any] = {}
        for label, idx in (("attacks", att), ("honest", hon)):
            if idx:
                block[label] = {
                    "before": _tally([b[i] for i in idx]),
                    "after": _tally([a[i] for i in idx]),
                }
        out[name] = block
        for i in att:
            fam_a[rs[i]["family"]].append((b[i], a[i]))
            if rs[i]["family"] in DESTINATION_FAMILIES:
                dest_a.append((b[i], a[i]))
        for i in hon:
            rel = after[name][i][1]
            if rel and b[i] == "allow":
                key = f"{name}/{rs[i]['family']}/{rel}"
                new_honest[key] += 1
                if misses:
                    asked.append({"where": key, "text": rs[i]["text"][:200]})
    out["attacks_by_family"] = {
        f: {
            "n": len(p),
            "before": sum(x != "allow" for x, _ in p),
            "after": sum(y != "allow" for _, y in p),
        }
        for f, p in sorted(fam_a.items())
    }
    out["destination_families"] = {
        "before": _tally([x for x, _ in dest_a]),
        "after": _tally([y for _, y in dest_a]),
    }
    out["honest_newly_held"] = dict(sorted(new_honest.items()))
    if misses:
        out["honest_asked"] = asked
    return out


def _timing(texts: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for on in (False, True, False, True):
        pipeline.DESTINATIONS = on
        out["with" if on else "without"] = entry_ms(texts)
    out["p50_ratio"] = round(out["with"]["p50_ms"] / out["without"]["p50_ms"], 3)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", action="append", choices=("balanced", "strict", "lenient"))
    ap.add_argument("--misses", action="store_true", help="list honest rows newly held")
    args = ap.parse_args()
    rows = _rows()
    result: dict[str, Any] = {"note": "dev halves, strangers' training sets, public dev only"}
    for level in args.level or ["balanced", "strict"]:
        before = _run(rows, level, False)
        after = _run(rows, level, True)
        result[level] = _figures(rows, before, after, args.misses)
        print(level, "done", file=sys.stderr, flush=True)
    texts = [r["text"] for r in rows["dev_benign_all"]][::7][:400]
    result["timing"] = _timing(texts)
    pipeline.DESTINATIONS = True
    if not args.misses:
        OUT.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
