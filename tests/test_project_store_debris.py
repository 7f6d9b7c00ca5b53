"""What a process that had a project store open writes under ``<home>/projects/<id>/``
after ``mnemic project forget`` (its scan cache, a lock file) is collected by ``mnemic gc``
once idle for an hour, and listed by ``--dry-run``; a directory holding anything of a
store, or changed lately, is left alone (issue 26, mend20 item 4).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from mnemic.curated.memory import Memory
from mnemic.curated.scope import DEBRIS_AGE, PROJECT_FILE, open_project, stored_projects
from mnemic.errors import ProjectScopeError
from mnemic.home import Home
from mnemic.ops.project_stores import remove_store
from mnemic.ops.retention import collect_garbage


def _age(root: Path, seconds: float) -> None:
    """Set every time under ``root`` back by ``seconds`` (what an idle hour leaves)."""
    when = time.time() - seconds
    for folder, dirs, files in os.walk(root, topdown=False):
        for name in [*dirs, *files]:
            os.utime(Path(folder) / name, (when, when), follow_symlinks=False)
        os.utime(folder, (when, when))


def _debris(home_path: Path, tmp_path: Path) -> tuple[Home, Path]:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text("", encoding="utf-8")
    proj = tmp_path / "work" / "api"
    proj.mkdir(parents=True)
    home = Home.open(home_path)
    store = open_project(home, proj, create=True)
    stale = Memory.open(store, origin="mcp")
    assert stale.add("memory", "API tests run with tox.").written
    assert remove_store(home, store, force=True).removed
    root = store.project.root
    assert not root.exists()
    # what the stale session's next write may leave before it is refused: the scan's
    # verdict of its text, remembered before any lock while other sessions write
    # (curated.verdicts.RecentVerdicts), and a target's lock file
    recent = root / "cache" / "scan-verdicts-recent"
    recent.mkdir(parents=True)
    (recent / "049").write_text("{}", encoding="utf-8")
    (root / "memories").mkdir()
    (root / "memories" / "MEMORY.md.lock").write_text("", encoding="utf-8")
    with pytest.raises(ProjectScopeError):
        stale.add("memory", "API deploys on tag.")
    assert root.is_dir() and not (root / PROJECT_FILE).exists()
    return home, root


def test_gc_collects_what_a_stale_session_wrote_after_the_removal(
    home_path: Path, tmp_path: Path
) -> None:
    home, debris = _debris(home_path, tmp_path)
    assert collect_garbage(home).counts().get("store_debris") is None  # just written: kept
    assert debris.is_dir()
    _age(debris, DEBRIS_AGE + 60)
    dry = collect_garbage(home, dry_run=True)
    assert [r.what for r in dry.removed if r.kind == "store_debris"] == [str(debris)]
    assert debris.is_dir()
    done = collect_garbage(home)
    assert [r.what for r in done.removed if r.kind == "store_debris"] == [str(debris)]
    assert not debris.exists()
    left = [n for n in os.listdir(debris.parent) if n.startswith(".")]
    assert left == [".tombstones"]  # no aside left; the removal's tombstone stays


def test_gc_leaves_a_directory_holding_anything_of_a_store(home_path: Path, tmp_path: Path) -> None:
    home, debris = _debris(home_path, tmp_path)
    (debris / "memories" / "MEMORY.md").write_text("kept by hand\n", encoding="utf-8")
    _age(debris, DEBRIS_AGE + 60)
    assert collect_garbage(home).counts().get("store_debris") is None
    assert (debris / "memories" / "MEMORY.md").read_text(encoding="utf-8") == "kept by hand\n"


def test_gc_never_takes_a_live_store(home_path: Path, tmp_path: Path) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text("", encoding="utf-8")
    proj = tmp_path / "work" / "web"
    proj.mkdir(parents=True)
    home = Home.open(home_path)
    store = open_project(home, proj, create=True)
    assert Memory.open(store, origin="cli").add("memory", "web uses vite.").written
    _age(store.project.root, DEBRIS_AGE + 60)
    assert collect_garbage(home).counts().get("store_debris") is None
    assert Memory.open(open_project(home, proj), origin="cli").entries("memory") == [
        "web uses vite."
    ]


@pytest.mark.parametrize("standing", ["MEMORY.md.lock", "MEMORY.md"])
def test_a_store_made_while_gc_set_its_directory_aside_is_put_back_not_deleted(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, standing: str
) -> None:
    """gc's window (review8): between gc's look and its rename a session makes its store
    in the directory (``project.json``), and after the rename the session's next step
    makes the directory again (its lock file), so the put-back rename fails. The store
    was left in ``projects/.removed-<id>-gc``, which the next gc deleted as a removal's
    debris: the store made was lost. Now what stands in its way, when it holds only a
    lock, is moved out and the store put back; when it holds more (a MEMORY.md), both
    are kept and gc says where the store is."""
    home, debris = _debris(home_path, tmp_path)
    _age(debris, DEBRIS_AGE + 60)
    proj = tmp_path / "work" / "api"
    real = os.rename
    raced: list[Path] = []

    def racing(src: os.PathLike[str] | str, dst: os.PathLike[str] | str) -> None:
        if Path(src) == debris and Path(dst).name.endswith("-gc") and not raced:
            raced.append(Path(dst))
            open_project(Home.open(home_path), proj, create=True)  # between the looks
            real(src, dst)
            (debris / "memories").mkdir(parents=True)  # the session's next step: its lock
            (debris / "memories" / standing).write_text("", encoding="utf-8")
            return
        real(src, dst)

    monkeypatch.setattr(os, "rename", racing)
    first = collect_garbage(home)
    monkeypatch.setattr(os, "rename", real)
    assert raced and first.counts().get("store_debris") is None
    second = collect_garbage(home)  # the next gc: a removal's debris goes, never a store
    if standing.endswith(".lock"):
        assert (debris / PROJECT_FILE).is_file(), sorted(os.listdir(debris.parent))
        (made,) = stored_projects(Home.open(home_path))
        assert made.project.root == debris
        assert Memory.open(open_project(home, proj), origin="cli").add("memory", "API v2.").written
        return
    (aside,) = raced
    assert (aside / PROJECT_FILE).is_file()  # kept, both times, and said
    for report in (first, second):
        (note,) = [n for n in report.notes if str(aside) in n]
        assert f"move {aside.name} back to {debris.name}" in note
    assert (debris / "memories" / standing).is_file()
