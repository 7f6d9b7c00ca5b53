"""Many processes writing one home at once: no lost update, history consistent."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from _writers import run_curated_writers
from mnemic.curated.entries import parse
from mnemic.curated.memory import Memory
from mnemic.curated.store import file_hash

pytestmark = pytest.mark.usefixtures("either_commit")


@pytest.mark.slow
def test_eight_processes_two_hundred_ops_each(home_path: Path, either_commit: str) -> None:
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
    # one commit record per write, each chained to the one before and changing one entry
    assert mem.journal is not None and mem.journal.verify().ok
    records = [r for r in mem.journal.records() if r.get("result") == "ok"]
    assert len(records) == writes
    for a, b in itertools.pairwise(records):
        assert a["after"] == b["before"]
    for r in records:
        change = r["changes"]["memory"]
        assert (len(change["added"]), len(change["removed"])) in ((1, 0), (0, 1), (1, 1)), r
    versions = mem.backend.history("memory")
    if either_commit == "off":
        assert len(versions) == writes - 1
    else:  # a version per rename: a batch of writes is one (the states between, none)
        assert 0 < len(versions) <= writes - 1
    recorded = {r["after"]["memory"] for r in records}
    states = [parse(mem.backend.read_version("memory", v.id)) for v in versions] + [final]
    for v in versions:
        assert file_hash(mem.backend.read_version("memory", v.id)) in recorded
    for before, after in itertools.pairwise(states):
        added = set(after) - set(before)
        removed = set(before) - set(after)
        assert added or removed, (before, after)
        if either_commit == "off":
            assert (len(added), len(removed)) in ((1, 0), (0, 1), (1, 1)), (before, after)
