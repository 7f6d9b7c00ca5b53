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
    release them together once every one has opened the store (before session 50 the
    gun went off at once, and a worker whose imports finished first could make all its
    writes before the last one started), and return each worker's final report
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
    for p in procs:  # every worker has opened the store (and connected)...
        assert p.stdout is not None
        assert p.stdout.readline() == "ready\n", p.communicate(timeout=timeout)[1][-2000:]
    for p in procs:  # ...before the start gun lets any of them write
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=timeout)
        assert p.returncode == 0, err[-2000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return reports
