"""The kill storm of ``bench/kill_storm.py`` (issues 26, 32), small: the full storm
(3,000 SIGKILLs and more) is ``./x bench kill_storm``; this keeps its harness and
checks working in the slow suite with a few dozen kills."""

from __future__ import annotations

from pathlib import Path

import pytest

import kill_storm


@pytest.mark.slow
def test_a_short_kill_storm_leaves_every_store_in_a_known_state(tmp_path: Path) -> None:
    result = kill_storm.storm(tmp_path / "storm", kills=60, seed=20261206, rotate=40)
    assert result["kills"] == 60
    done = {op: sum(v.values()) for op, v in result["per_op"].items()}
    assert all(done[op] for op in ("add", "replace", "remove", "batch", "move")), done


@pytest.mark.slow
def test_a_kill_storm_making_its_stores_again_at_the_same_path(tmp_path: Path) -> None:
    """Short rotations at one path: a new journal there may get the old one's inode
    number back, and the fold this process keeps of the old one must not be taken for
    it (the early storm's seed entry credited to no session)."""
    result = kill_storm.storm(tmp_path / "storm", kills=60, seed=7, rotate=5, same_path=True)
    assert result["kills"] == 60 and result["same_path"]
