"""Many processes writing one home at once: no lost update, history consistent."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from _writers import run_curated_writers
from mnemic.curated.entries import parse
from mnemic.curated.memory import Memory


@pytest.mark.slow
def test_eight_processes_two_hundred_ops_each(home_path: Path) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text("[memory]\nhistory_limit = 100000\n")
    reports = run_curated_writers(home_path, 8, 200, 1000)

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
