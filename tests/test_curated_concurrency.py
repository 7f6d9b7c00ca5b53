"""Many processes writing one home at once: no lost update, history consistent."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mnemic.curated import Memory
from mnemic.curated.entries import parse

WORKER = Path(__file__).parent / "workers" / "curated_writer.py"


@pytest.mark.slow
def test_eight_processes_two_hundred_ops_each(home_path: Path) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text("[memory]\nhistory_limit = 100000\n")
    procs = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(home_path), str(i), "200", str(1000 + i)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(8)
    ]
    for p in procs:  # start gun: every worker is up before any writes
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=240)
        assert p.returncode == 0, err
        reports.append(json.loads(out.strip().splitlines()[-1]))

    for r in reports:
        assert r["problems"] == [], r["problems"][:3]
    mem = Memory.open(home_path)
    final = mem.entries("memory")
    expected = {e for r in reports for e in r["mine"]}
    assert set(final) == expected and len(final) == len(expected)

    writes = sum(r["writes"] for r in reports)
    assert writes == 8 * 200
    versions = mem.backend.history("memory")
    assert len(versions) == writes - 1
    states = [parse(mem.backend.read_version("memory", v.id)) for v in versions] + [final]
    for before, after in itertools.pairwise(states):
        added = set(after) - set(before)
        removed = set(before) - set(after)
        assert (len(added), len(removed)) in ((1, 0), (0, 1), (1, 1)), (before, after)
