"""The frozen snapshot is taken lazily: opening a session reads both files (the session
starts there), and the load-time scan and render wait until something needs the blocks.
A command that only writes never scans the entries it does not touch; what the snapshot
shows, and what drift is measured from, is still the state at open."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from _cli import cli
from mnemic.curated import snapshot
from mnemic.curated.memory import Memory
from mnemic.curated.store import Op

MakeMemory = Callable[..., Memory]
N = 20


def count_scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, the text of every entry the load-time scan judges for display."""
    seen: list[str] = []
    real = snapshot.display_entry

    def counted(target: str, entry: str, *args: object, **kwargs: object) -> tuple[str, bool]:
        seen.append(entry)
        return real(target, entry, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(snapshot, "display_entry", counted)
    return seen


def filled(make_memory: MakeMemory) -> Path:
    mem = make_memory()
    mem.batch("memory", [Op("add", f"Build step {i} uses tool {i}") for i in range(N)])
    return Path(mem.backend.location("memory")).parent.parent


def test_opening_and_writing_scans_no_entry(
    make_memory: MakeMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = filled(make_memory)
    scanned = count_scans(monkeypatch)
    mem = Memory.open(home)
    assert mem.add("memory", "Deploys go through CI").written
    assert mem.remove("memory", "Build step 3 uses").written
    assert scanned == []


def test_a_cli_write_scans_no_entry(
    make_memory: MakeMemory, home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    filled(make_memory)
    scanned = count_scans(monkeypatch)
    result = cli("memory", "add", "Deploys go through CI")
    assert result.exit_code == 0, result.output
    assert scanned == []


def test_the_snapshot_is_scanned_once_on_first_use(
    make_memory: MakeMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = filled(make_memory)
    scanned = count_scans(monkeypatch)
    mem = Memory.open(home)
    first = mem.snapshot
    assert len(scanned) == N
    assert mem.snapshot is first
    assert "Build step 7 uses tool 7" in first.text
    assert len(scanned) == N


def test_a_snapshot_first_used_late_shows_the_session_start(make_memory: MakeMemory) -> None:
    home = filled(make_memory)
    mem = Memory.open(home)
    at_open = Memory.open(home).snapshot.text  # used at once: the eager snapshot
    Memory.open(home).add("memory", "Written by another session after the open")
    assert mem.snapshot.text == at_open
    assert "another session" not in " ".join(mem.snapshot.entries["memory"])
    # the read reports the change since the session started, as before
    read = mem.read("memory")
    assert read.differs_from_snapshot
    assert read.external_changes is not None
    assert any("another session" in e for e in read.external_changes.added)


def test_new_session_takes_a_fresh_snapshot(make_memory: MakeMemory) -> None:
    home = filled(make_memory)
    mem = Memory.open(home)
    old = mem.snapshot
    Memory.open(home).add("memory", "Written by another session after the open")
    fresh = mem.new_session()
    assert mem.snapshot is fresh
    assert "another session" in fresh.text
    assert "another session" not in old.text


def test_a_target_over_its_budget_is_still_reported_at_open(
    make_memory: MakeMemory, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = filled(make_memory)
    (home / "config.toml").write_text("[memory]\nmemory_char_limit = 100\n", encoding="utf-8")
    scanned = count_scans(monkeypatch)
    with caplog.at_level("WARNING", logger="mnemic.curated.memory"):
        Memory.open(home)
    assert "over its budget" in caplog.text
    assert scanned == []
