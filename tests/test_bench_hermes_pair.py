"""bench/hermes_pair.py: how it refuses to run without Hermes, and its shared harness
(the mnemic side, run for real in subprocesses; Hermes itself is not installed here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mnemic.curated.memory import Memory

BENCH = Path(__file__).resolve().parent.parent / "bench"

pytestmark = pytest.mark.slow


def _pair(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "MNEMIC_HERMES_PYTHON"}
    return subprocess.run(
        [sys.executable, str(BENCH / "hermes_pair.py"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_without_a_hermes_venv_the_bench_says_how_to_install_one() -> None:
    done = _pair()
    assert done.returncode != 0
    assert "pip install hermes-agent==0.19.0" in done.stderr
    assert "--hermes-python" in done.stderr and "MNEMIC_HERMES_PYTHON" in done.stderr


def test_a_python_without_hermes_is_named_and_refused() -> None:
    done = _pair("--hermes-python", sys.executable)
    assert done.returncode != 0
    assert "cannot import Hermes's memory store" in done.stderr
    assert "pip install hermes-agent==0.19.0" in done.stderr


def _side(command: str, home: Path, spec: dict[str, object]) -> str:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "_pair_side.py"),
            "mnemic",
            command,
            str(home),
            json.dumps(spec),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_harness_runs_every_writers_calls_on_one_store(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    spec: dict[str, object] = {
        "limits": [10_000, 10_000],
        "fill": [],
        "workload": "churn",
        "procs": 2,
        "ops": 3,
    }
    _side("prepare", home, spec)
    report = json.loads(_side("contend", home, spec).splitlines()[-1])
    assert report["calls"] == 2 * 3 * 2  # each writer adds and removes 3 entries
    assert len(report["latencies_s"]) == report["calls"] and report["wall_s"] > 0
    assert report["cpu_s"] > 0  # the writers' CPU over their timed calls, every thread
    assert Memory.open(home).entries("memory") == []  # every add was removed again
    _side("contend", home, {**spec, "workload": "grow"})
    assert sorted(Memory.open(home).entries("memory")) == sorted(
        f"Writer {w} note {i}: the nightly export of shard {i} finishes by 04:00 UTC."
        for w in range(2)
        for i in range(3)
    )
