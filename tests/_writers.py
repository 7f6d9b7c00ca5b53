"""Many processes writing one home at once: ``tests/workers/curated_writer.py`` workers,
started together by a start gun, their reports collected."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

WORKER = Path(__file__).parent / "workers" / "curated_writer.py"


def run_curated_writers(
    home: Path | str,
    writers: int,
    ops: int,
    seed: int,
    *,
    timeout: float = 240,
    env: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Start ``writers`` workers of ``ops`` writes each (worker ``i`` seeded ``seed + i``),
    release them together once every one is up, and return each worker's final report
    (asserting that every worker exited 0)."""
    procs = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(home), str(i), str(ops), str(seed + i)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=None if env is None else dict(env),
        )
        for i in range(writers)
    ]
    for p in procs:  # start gun: every worker is up (and connected) before any writes
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=timeout)
        assert p.returncode == 0, err[-2000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return reports
