"""Shared helpers for benchmark scripts: timing statistics and the result file.

Each benchmark prints human-readable progress, then its result as ONE JSON object on its
last line of output, and saves the same object to ``bench/results/<name>.json``.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile (0..100) of samples, nearest-rank."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def summarize_ms(samples_s: list[float]) -> dict[str, float]:
    """p50/p99/max/mean in milliseconds and ops/s from per-op durations in seconds."""
    ms = [s * 1000.0 for s in samples_s]
    total = sum(samples_s)
    return {
        "n": len(ms),
        "p50_ms": round(percentile(ms, 50), 4),
        "p99_ms": round(percentile(ms, 99), 4),
        "max_ms": round(max(ms), 4) if ms else float("nan"),
        "mean_ms": round(statistics.fmean(ms), 4) if ms else float("nan"),
        "ops_per_s": round(len(ms) / total, 1) if total else float("nan"),
    }


T95 = (
    12.71,
    4.30,
    3.18,
    2.78,
    2.57,
    2.45,
    2.36,
    2.31,
    2.26,
    2.23,
    2.20,
    2.18,
    2.16,
    2.14,
    2.13,
    2.12,
    2.11,
    2.10,
    2.09,
    2.09,
    2.08,
    2.07,
    2.07,
    2.06,
    2.06,
    2.06,
    2.05,
    2.05,
    2.05,
)
"""Student's t, two-sided 95 %, for 1 to 29 degrees of freedom (2.0 beyond)."""


def paired(ratios: list[float]) -> dict[str, Any]:
    """The geometric mean of per-round ratios with its 95 % interval (Student's t on the
    logarithms): each round's two sides ran minutes apart at most, so the machine's
    load, which moves a run by more than a change does, cancels in the ratio."""
    import math

    logs = [math.log(r) for r in ratios if r > 0]
    n = len(logs)
    if not n:
        return {"n": 0}
    mean = statistics.fmean(logs)
    out: dict[str, Any] = {"n": n, "geomean": round(math.exp(mean), 3)}
    if n > 1:
        half = (T95[n - 2] if n - 2 < len(T95) else 2.0) * statistics.stdev(logs) / math.sqrt(n)
        out["ci95"] = [round(math.exp(mean - half), 3), round(math.exp(mean + half), 3)]
    return out


def emit(name: str, result: dict[str, Any]) -> None:
    """Save ``result`` to bench/results/NAME.json and print it as the last line."""
    result = {
        "bench": name,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
        **result,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    text = json.dumps(result, ensure_ascii=False, sort_keys=False)
    tmp = RESULTS / f"{name}.json.tmp"
    tmp.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, RESULTS / f"{name}.json")
    sys.stdout.flush()
    print(text, flush=True)
