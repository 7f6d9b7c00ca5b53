"""Scanner 3 figures for ``./x bench scan``: verdicts (block / hold / allow) per family,
language and split on the generated families, split instructions read in context, the
public sets by verdict, and the cold start (import + scan of 48 entries).

Every rate comes with its n and a 95 % Wilson interval. The families were split by
template (``_scan_families``, seed 29); the lexicon and frames were tuned looking at
train and dev only. The intent layer is pure Python: it does not use numpy or the
embedder, so there is one figure, with or without the ``semantic`` extra.
"""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import _scan_families as families
from mnemic.scan import scan_in_context, scan_text

__all__ = ["cold_start", "family_figures", "public_verdicts", "wilson"]

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = ROOT / "bench" / "data" / "scan_families.json"


def wilson(hit: int, n: int, z: float = 1.96) -> dict[str, Any]:
    """``{n, k, pct, ci95: [low, high]}``: the rate and its Wilson score interval."""
    if n == 0:
        return {"n": 0, "k": 0, "pct": None, "ci95": None}
    p = hit / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return {
        "n": n,
        "k": hit,
        "pct": round(100 * p, 1),
        "ci95": [round(100 * max(0.0, mid - half), 1), round(100 * min(1.0, mid + half), 1)],
    }


def _verdicts(rows: list[tuple[str, str]]) -> dict[str, Any]:
    """rows: (group, verdict) -> per verdict counts and the caught / held / blocked rates."""
    n = len(rows)
    count = {v: sum(1 for _, x in rows if x == v) for v in ("block", "hold", "allow")}
    return {
        "n": n,
        "verdicts": count,
        "caught": wilson(count["block"] + count["hold"], n),
        "blocked": wilson(count["block"], n),
        "held": wilson(count["hold"], n),
    }


def _grouped(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for r in rows:
        groups[r[key]].append((r[key], r["verdict"]))
    return {g: _verdicts(v) for g, v in sorted(groups.items())}


def family_figures(level: str = "balanced") -> dict[str, Any]:
    """The generated families by split: attacks and honest notes, per family and
    language, each verdict with its interval; split instructions in context."""
    rows = families.expand(FAMILIES)
    for r in rows:
        r["verdict"] = scan_text(r["text"], "memory", level).verdict
    pairs = families.pairs(FAMILIES)
    for p in pairs:
        p["alone"] = scan_text(p["second"], "memory", level).verdict
        p["first_alone"] = scan_text(p["first"], "memory", level).verdict
        p["verdict"] = scan_in_context(p["second"], [p["first"]], "memory", level).verdict
        p["family"] = "split_instruction"
    out: dict[str, Any] = {"level": level, "seed": families.SEED}
    for split in ("test", "dev", "train"):
        att = [r for r in rows if r["split"] == split and r["label"] == "attack"]
        att += [p for p in pairs if p["split"] == split]
        ben = [r for r in rows if r["split"] == split and r["label"] == "benign"]
        block: dict[str, Any] = {
            "attacks": _verdicts([("", r["verdict"]) for r in att]),
            "honest": _verdicts([("", r["verdict"]) for r in ben]),
            "attacks_by_family": _grouped(att, "family"),
            "attacks_by_language": _grouped(att, "lang"),
            "honest_by_family": _grouped(ben, "family"),
            "honest_by_language": _grouped(ben, "lang"),
            "split_pairs": {
                "n": sum(1 for p in pairs if p["split"] == split),
                "second_half_alone": _verdicts(
                    [("", p["alone"]) for p in pairs if p["split"] == split]
                )["verdicts"],
                "first_half_alone": _verdicts(
                    [("", p["first_alone"]) for p in pairs if p["split"] == split]
                )["verdicts"],
            },
        }
        if split == "test":
            block["misses"] = [
                {"family": r["family"], "lang": r["lang"], "text": r.get("text", r.get("second"))}
                for r in att
                if r["verdict"] == "allow"
            ]
            block["honest_not_allowed"] = [
                {"family": r["family"], "verdict": r["verdict"], "text": r["text"]}
                for r in ben
                if r["verdict"] != "allow"
            ]
        out[split] = block
    return out


def public_verdicts(named: dict[str, list[str]], level: str = "balanced") -> dict[str, Any]:
    """Verdicts on public sets: ``{name: texts}`` (benign sets: what is held or blocked)."""
    out: dict[str, Any] = {}
    for name, texts in named.items():
        rows = [("", scan_text(t, "memory", level).verdict) for t in texts]
        out[name] = _verdicts(rows)
        out[name]["held_examples"] = [
            t[:120] for t, (_, v) in zip(texts, rows, strict=True) if v == "hold"
        ][:10]
    return out


_COLD = """
import json, sys, time
entries = json.loads(sys.stdin.read())
t0, c0 = time.perf_counter_ns(), time.process_time_ns()
import mnemic.scan as S
t1, c1 = time.perf_counter_ns(), time.process_time_ns()
for e in entries:
    S.scan_text(e, "memory")
t2, c2 = time.perf_counter_ns(), time.process_time_ns()
print(json.dumps({"import_ms": (t1 - t0) / 1e6, "scan_ms": (t2 - t1) / 1e6,
                  "import_cpu_ms": (c1 - c0) / 1e6, "scan_cpu_ms": (c2 - c1) / 1e6}))
"""


def interleaved(
    code: str, payload: Any, trees: dict[str, str], rounds: int
) -> dict[str, list[dict[str, float]]]:
    """Each run's JSON answer, by tree, of ``code`` run in a fresh interpreter on each
    source tree of ``trees`` (name -> the folder put on ``PYTHONPATH``) in turn,
    ``rounds`` times, ``payload`` as JSON on its stdin."""
    got: dict[str, list[dict[str, float]]] = {k: [] for k in trees}
    for _ in range(rounds):
        for name, src in trees.items():
            out = subprocess.run(
                [sys.executable, "-c", code],
                input=json.dumps(payload),
                capture_output=True,
                text=True,
                check=True,
                env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"},
            )
            got[name].append(json.loads(out.stdout))
    return got


def cold_start(entries: list[str], runs: int = 9, before: str | None = None) -> dict[str, Any]:
    """``import mnemic.scan`` + the first scan of 48 entries in a fresh process (wall and
    CPU time), this code and (``before``: a source tree, e.g. a git archive of the base
    commit) the code before scanner 3, interleaved run by run."""
    texts = [entries[i % len(entries)] + f" ({i})" for i in range(48)]
    variants = {"now": str(ROOT / "src")}
    if before:
        variants["before"] = before
    got = interleaved(_COLD, texts, variants, runs)
    res: dict[str, Any] = {"runs": runs, "entries": 48}
    for name, vals in got.items():
        res[name] = {
            "import_ms_median": round(statistics.median(v["import_ms"] for v in vals), 2),
            "scan_48_ms_median": round(statistics.median(v["scan_ms"] for v in vals), 2),
            "total_ms_median": round(
                statistics.median(v["import_ms"] + v["scan_ms"] for v in vals), 2
            ),
            # CPU time of the process (time.process_time): what a loaded machine's
            # waiting does not inflate
            "import_cpu_ms_median": round(statistics.median(v["import_cpu_ms"] for v in vals), 2),
            "scan_48_cpu_ms_median": round(statistics.median(v["scan_cpu_ms"] for v in vals), 2),
            "total_cpu_ms_median": round(
                statistics.median(v["import_cpu_ms"] + v["scan_cpu_ms"] for v in vals), 2
            ),
        }
    return res
