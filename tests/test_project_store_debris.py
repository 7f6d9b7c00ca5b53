"""What a process that had a project store open writes under ``<home>/projects/<id>/``
after ``mnemic project forget`` (its scan cache, a lock file) is collected by ``mnemic gc``
once idle for an hour, and listed by ``--dry-run``; a directory holding anything of a
store, or changed lately, is left alone (issue 26, mend20 item 4).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mnemic.curated.memory import Memory
from mnemic.curated.scope import DEBRIS_AGE, PROJECT_FILE, open_project, stored_projects
from mnemic.errors import ProjectScopeError
from mnemic.home import Home
from mnemic.ops import retention
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


WRITER = Path(__file__).parent / "workers" / "paused_writer.py"


class _Writer:
    """A ``tests/workers/paused_writer.py`` process: each stop is a line it prints and
    waits at until it is told to go on."""

    def __init__(self, home: Path, project: Path, text: str) -> None:
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        cmd = [sys.executable, str(WRITER), str(home), str(project), text]
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        self.seen: list[str] = []

    def expect(self, line: str) -> None:
        """Wait until the writer says ``line`` (a guard, not a pacing: a minute before
        the test fails rather than hangs)."""
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], 60.0)
        assert ready, f"no {line!r} from the writer; it said {self.seen}"
        got = self.proc.stdout.readline().strip()
        self.seen.append(got)
        assert got == line, self.seen

    def go(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()

    def finish(self) -> dict[str, object]:
        out, _ = self.proc.communicate(timeout=60)
        assert self.proc.returncode == 0, (self.seen, out)
        return dict(json.loads(out.strip().splitlines()[-1]))


A_TEXT, B_TEXT = "A: the API is served by gunicorn.", "B: the API listens on port 9000."


@pytest.mark.parametrize("moment", ["look", "rename"])
def test_two_writers_of_a_store_made_in_a_directory_gc_looks_at_never_write_at_once(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    """The window mend21 left (issue 26): gc finds an idle leftover directory, a session
    makes its store in it and takes its target's lock (writer A), a second session
    checks the store and goes for the lock (writer B); gc renames the directory aside
    under A's held lock, B makes the directory again and takes a new lock file there,
    gc puts the store back moving B's directory out: two writers, two locks, one store,
    and the second to commit overwrote the first (a lost write; both said written).

    Real processes, ordered by their stops (pipes): A stops holding the lock after its
    read, B before its lock; gc runs here. ``look``: the sessions start after gc's
    look (the leftover holds the lock file A takes): gc now leaves the directory (its
    lock is held), B waits for A and both entries are kept. ``rename``: they start
    once gc holds the directory's locks, just before its rename (the leftover holds
    no lock file; A makes one): gc now puts the directory back when it finds A's lock
    held once aside, and a writer that took a lock meanwhile in a directory made again
    is refused (no store there), never writing beside A; the next gc settles it.
    Either way, every write said written is in the store."""
    home, debris = _debris(home_path, tmp_path)
    if moment == "rename":
        (debris / "memories" / "MEMORY.md.lock").unlink()
        (debris / "memories").rmdir()
    _age(debris, DEBRIS_AGE + 60)
    proj = tmp_path / "work" / "api"
    real_listing, real_rename = retention.left_behind, os.rename
    b: list[_Writer] = []
    early: list[bool] = []
    a = _Writer(home_path, proj, A_TEXT)

    def start() -> None:
        a.expect("at-lock")
        a.go()
        a.expect("read")  # A made the store in the directory and holds its lock
        b.append(_Writer(home_path, proj, B_TEXT))
        b[0].expect("at-lock")  # B checked the store, not yet its lock

    def listing(home: Home, now: float) -> list[Path]:
        found = real_listing(home, now)
        if moment == "look" and found == [debris] and not b:
            start()
        return found

    def renaming(src: os.PathLike[str] | str, dst: os.PathLike[str] | str) -> None:
        aside = Path(src) == debris and Path(dst).name.endswith("-gc")
        if aside and moment == "rename" and not b:
            start()
        real_rename(src, dst)
        if aside and b and not early:
            b[0].go()  # B's lock, once the directory is aside
            b[0].expect("read")
            early.append(True)

    monkeypatch.setattr(retention, "left_behind", listing)
    monkeypatch.setattr(os, "rename", renaming)
    # the store's own retention would wait for A's lock: not this test's step
    monkeypatch.setattr(retention, "stored_projects", lambda home: [])
    collect_garbage(home)
    monkeypatch.setattr(os, "rename", real_rename)
    assert b, "gc did not find the leftover directory"
    (writer,) = b
    if not early:
        writer.go()  # B goes for the lock A holds
    a.go()
    said = {A_TEXT: a.finish()}
    if not early:
        writer.expect("read")  # B has the lock only now
    writer.go()
    said[B_TEXT] = writer.finish()
    collect_garbage(home)  # the next gc settles what this one left
    store = open_project(Home.open(home_path), proj)
    assert store.project.root == debris and (debris / PROJECT_FILE).is_file()
    entries = Memory.open(store, origin="cli").entries("memory")
    written = [text for text, out in said.items() if out == {"written": True}]
    assert [e for e in written if e not in entries] == [], (said, entries)
    if moment == "look":
        assert not early, "B held a lock of the store while A held another"
        assert entries == [A_TEXT, B_TEXT]
    else:  # both refused: the store was aside at their checks; nothing of theirs there
        assert said == {t: {"error": "ProjectScopeError", "reason": "missing"} for t in said}
        assert entries == []


def test_a_store_made_after_gcs_look_keeps_its_directory(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store made in the leftover directory after gc's look, its writer not yet at
    its lock: gc looks again once it holds the directory's locks, and leaves it. Before,
    gc set it aside and put it back only after the writer had made the directory again
    with a lock of its own: the writer found no store there and was refused
    (``missing``), its store aside until the next gc."""
    home, debris = _debris(home_path, tmp_path)
    _age(debris, DEBRIS_AGE + 60)
    proj = tmp_path / "work" / "api"
    real_listing, real_rename = retention.left_behind, os.rename
    b: list[_Writer] = []
    early: list[bool] = []

    def listing(home: Home, now: float) -> list[Path]:
        found = real_listing(home, now)
        if found == [debris] and not b:  # gc looked: a session makes its store now
            open_project(Home.open(home_path), proj, create=True)
            b.append(_Writer(home_path, proj, B_TEXT))
            b[0].expect("at-lock")
        return found

    def renaming(src: os.PathLike[str] | str, dst: os.PathLike[str] | str) -> None:
        real_rename(src, dst)
        if Path(src) == debris and Path(dst).name.endswith("-gc") and b and not early:
            b[0].go()
            b[0].expect("read")
            early.append(True)

    monkeypatch.setattr(retention, "left_behind", listing)
    monkeypatch.setattr(os, "rename", renaming)
    assert collect_garbage(home).counts().get("store_debris") is None
    monkeypatch.setattr(os, "rename", real_rename)
    (writer,) = b
    if not early:
        writer.go()
        writer.expect("read")
    writer.go()
    assert writer.finish() == {"written": True}
    assert not early, "gc set the directory of a store aside"
    store = open_project(Home.open(home_path), proj)
    assert Memory.open(store, origin="cli").entries("memory") == [B_TEXT]
