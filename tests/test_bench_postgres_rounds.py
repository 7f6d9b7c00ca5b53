"""``./x bench postgres --interleaved-writes``' figures (perf17): the paired ratio of a
workload's rounds with its 95 % interval, and the server's CPU counted from ``/proc``
(its live processes and those it has reaped)."""

from __future__ import annotations

import importlib.util
import math
import os
import subprocess
import sys
from pathlib import Path

# bench/postgres.py, by its path: ``postgres`` is also the name of tests/postgres/
_SPEC = importlib.util.spec_from_file_location(
    "bench_postgres", Path(__file__).resolve().parents[1] / "bench" / "postgres.py"
)
assert _SPEC is not None and _SPEC.loader is not None
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)
paired, server_cpu = bench.paired, bench.server_cpu

BURN = r"""
import sys, time
while time.process_time() < 0.3:
    pass
print("burnt", flush=True)
sys.stdin.readline()
"""


def test_one_ratio_has_no_interval_and_equal_ratios_a_point() -> None:
    assert paired([1.5]) == {"n": 1, "geomean": 1.5}
    assert paired([2.0, 2.0, 2.0]) == {"n": 3, "geomean": 2.0, "ci95": [2.0, 2.0]}
    assert paired([]) == {"n": 0}


def test_the_interval_is_the_geometric_mean_s_on_the_log_scale() -> None:
    got = paired([0.5, 2.0, 1.0, 1.25])
    low, high = got["ci95"]
    assert low < got["geomean"] < high
    # symmetric around the geometric mean on the log scale: a ratio and its inverse
    # are the same distance from 1
    assert math.isclose(math.log(got["geomean"]) - math.log(low),
                        math.log(high) - math.log(got["geomean"]), rel_tol=0.01)  # fmt: skip
    assert paired([2.0, 0.5])["geomean"] == 1.0
    # the same spread over more rounds: a narrower interval
    wide, narrow = paired([0.8, 1.25])["ci95"], paired([0.8, 1.25] * 6)["ci95"]
    assert narrow[0] > wide[0] and narrow[1] < wide[1]


def test_a_server_s_cpu_counts_its_live_and_its_reaped_processes() -> None:
    # this process stands for the postmaster: its child burns CPU, is counted while it
    # lives (its own times) and once reaped (this process's cutime)
    start = server_cpu(os.getpid())
    child = subprocess.Popen(
        [sys.executable, "-c", BURN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdin is not None
    assert child.stdout.readline().strip() == "burnt"
    alive = server_cpu(os.getpid()) - start
    child.stdin.write("\n")
    child.stdin.flush()
    child.wait()
    reaped = server_cpu(os.getpid()) - start
    assert alive >= 0.25 and reaped >= 0.25
