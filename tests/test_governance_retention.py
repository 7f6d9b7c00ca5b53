"""Retention: mnemic gc bounds history, backups, pending records and debris (on each
storage backend, ``backend``; temp-file debris is the file backend's)."""

from __future__ import annotations

import os
from pathlib import Path

from _backends import FilesKit, Kit
from mnemic.backends.files.journal import AuditJournal
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool
from mnemic.ops import PendingQueue, collect_garbage

DAY = 86400.0


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def configure(backend: Kit, text: str) -> None:
    backend.write_config(text)


def test_gc_prunes_history_by_count_and_age(backend: Kit) -> None:
    home = backend.home
    configure(backend, "[memory]\nhistory_limit = 50\n[retention]\nmax_age_days = 30\n")
    mem = Memory.open(home)
    for i in range(6):
        mem.add("memory", f"fact {i}")
    versions = mem.backend.history("memory")
    assert len(versions) == 5
    now = versions[-1].saved_at
    assert collect_garbage(home, clock=Clock(now + DAY)).counts() == {}
    # Age: everything is 31 days old a month later.
    report = collect_garbage(home, dry_run=True, clock=Clock(now + 31 * DAY))
    assert report.counts() == {"history": 5}
    assert len(mem.backend.history("memory")) == 5  # dry run removed nothing
    report = collect_garbage(home, clock=Clock(now + 31 * DAY))
    assert report.counts() == {"history": 5} and mem.backend.history("memory") == []
    assert mem.entries("memory") == [f"fact {i}" for i in range(6)]  # current file untouched


def test_gc_applies_a_lowered_history_limit(backend: Kit) -> None:
    home = backend.home
    mem = Memory.open(home)
    for i in range(8):
        mem.add("user", f"pref {i}")
    configure(backend, "[memory]\nhistory_limit = 3\n")
    report = collect_garbage(home)
    assert report.counts() == {"history": 4}
    assert [v.id for v in Memory.open(home).backend.history("user")] == [5, 6, 7]


def test_gc_bounds_drift_backups(backend: Kit) -> None:
    home = backend.home
    configure(backend, "[retention]\nbackup_limit = 2\nmax_age_days = 0\n")
    mem = Memory.open(home)
    mem.add("memory", "one")
    for i in range(4):
        backend.edit("memory", f"one\n\n§\n\ndrifted {i}")
        resp = run_memory_tool(mem, {"action": "remove", "target": "memory", "old_text": "one"})
        assert resp["error_code"] == "drift_detected"
    backups = mem.backend.backups("memory")
    assert len(backups) == 4
    report = collect_garbage(home)
    assert report.counts() == {"backup": 2}
    kept = [b.location for b in mem.backend.backups("memory")]
    assert kept == [b.location for b in backups[2:]]  # the newest kept


def test_gc_expires_pending_and_audits_it(backend: Kit) -> None:
    home = backend.home
    configure(backend, '[approval]\nmemory_foreground = "stage"\npending_ttl_hours = 1\n')
    clock = Clock(1_800_000_000.0)
    keep = Memory.open(home, clock=clock)
    old_id = keep.add("memory", "old proposal").pending_id
    clock.now += 1800
    new_id = keep.add("memory", "new proposal").pending_id
    clock.now += 1801  # the first is 1 h 0 m 1 s old, the second 30 min
    report = collect_garbage(home, clock=clock)
    assert [r.what for r in report.removed if r.kind == "pending"] == [old_id]
    assert [r.id for r in PendingQueue.open(home).records()] == [new_id]
    actions = [r["action"] for r in backend.journal().records()]
    assert actions[-2:] == ["expire", "gc"]


def test_gc_removes_debris_and_edit_leftovers(home_path: Path) -> None:
    configure(FilesKit(home_path), "[retention]\nmax_age_days = 1\n")
    mem = Memory.open(home_path)
    mem.add("memory", "fact")
    d = home_path / "memories"
    (d / ".MEMORY.md.deadbeef.tmp").write_text("half a write")
    (home_path / "pending" / "memory").mkdir(parents=True)
    (home_path / "pending" / "memory" / ".abcd1234.json.0a0b.tmp").write_text("{")
    left = home_path / "USER.md.edit.1700000000"
    left.write_text("an edit that failed validation")
    old = 1_700_000_000
    os.utime(left, (old, old))
    report = collect_garbage(home_path, dry_run=True)
    assert sorted(report.counts().items()) == [("edit_leftover", 1), ("temp", 2)]
    assert left.exists()
    report = collect_garbage(home_path)
    assert sorted(report.counts().items()) == [("edit_leftover", 1), ("temp", 2)]
    assert not left.exists() and not (d / ".MEMORY.md.deadbeef.tmp").exists()
    rec = list(AuditJournal(home_path / "audit").records())[-1]
    assert rec["action"] == "gc" and rec["removed"] == {"edit_leftover": 1, "temp": 2}


def test_gc_report_is_json_able(backend: Kit) -> None:
    home = backend.home
    import json

    Memory.open(home).add("memory", "x y")
    data = collect_garbage(home, dry_run=True).as_dict()
    assert json.loads(json.dumps(data))["dry_run"] is True
