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
