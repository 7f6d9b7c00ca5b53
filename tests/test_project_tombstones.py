"""The files store's project store tombstones (issue 26, mend21): a writer that still
holds a store ``mnemic project forget`` or ``move`` took away is refused saying when,
and where its memory went, as on PostgreSQL (the same message code); a store deleted
outside mnemic is told apart (``missing``); a store made again at the id supersedes the
tombstone, and ``mnemic gc`` drops it past ``[retention] max_age_days``.

The stale writer is a process of its own, opened before the removal, as an agent
session or an MCP server is; the removal runs in this one.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mnemic.backends.files.journal import AuditJournal
from mnemic.curated.memory import Memory
from mnemic.curated.scope import PROJECT_FILE, open_project, project_id
from mnemic.errors import ProjectScopeError
from mnemic.home import Home
from mnemic.ops.bundle.restore import import_bundle
from mnemic.ops.project_stores import find_store, move_store, remove_store
from mnemic.ops.retention import collect_garbage

TOX = "API tests run with tox."

WRITER = r"""
import json, sys
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.errors import ProjectScopeError
from mnemic.home import Home

mem = Memory.open(open_project(Home.open(sys.argv[1]), sys.argv[2]), origin="agent")
assert mem.entries("memory"), "the writer opened an empty store"
print("ready", flush=True)
sys.stdin.readline()
try:
    mem.add("memory", "API deploys on tag.")
except ProjectScopeError as exc:
    print(json.dumps({"reason": exc.reason, "message": exc.message, **exc.to_response()}))
else:
    print(json.dumps({"reason": None}))
"""


def _seed(home_path: Path, repo: Path) -> str:
    """A project store with one entry whose directory is gone (so a removal or move
    needs no --force); its id."""
    repo.mkdir(parents=True)
    mem = Memory.open(open_project(Home.open(home_path), repo, create=True), origin="cli")
    assert mem.add("memory", TOX).written
    repo.rmdir()
    return project_id(repo)


class StaleWriter:
    """A process that opened the store ``pid`` and writes to it when told."""

    def __init__(self, home_path: Path, pid: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(home_path), pid],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline() == "ready\n", self.proc.wait()

    def write(self) -> dict[str, Any]:
        out, _ = self.proc.communicate("go\n", timeout=120)
        assert self.proc.returncode == 0, out
        answer: dict[str, Any] = json.loads(out)
        return answer


def test_a_stale_writer_of_a_removed_store_is_told_when_and_where_its_bundle_went(
    home_path: Path, tmp_path: Path
) -> None:
    pid = _seed(home_path, tmp_path / "work" / "api")
    writer = StaleWriter(home_path, pid)
    home = Home.open(home_path)
    removal = remove_store(home, find_store(home, pid))
    assert removal.removed and removal.bundle
    answer = writer.write()
    assert answer["reason"] == "removed", answer
    assert answer["removed_at"].endswith(" UTC")
    text = answer["message"]
    assert f"Project store {pid} was removed at {answer['removed_at']}" in text
    assert "(mnemic project forget)" in text and "Nothing was saved" in text
    assert "mnemic import --bundle FILE" in text
    assert f"{home.root}/removed-projects/{pid}-<time>.mnemic" in text  # this home's
    assert "moved_to" not in answer
    root = home_path / "projects" / pid
    assert not (root / PROJECT_FILE).exists()  # no part of the store made again
    assert not (root / "audit").exists()


def test_a_stale_writer_of_a_moved_store_is_told_its_new_id(
    home_path: Path, tmp_path: Path
) -> None:
    old, new = tmp_path / "work" / "api", tmp_path / "work" / "api-v2"
    pid = _seed(home_path, old)
    new.mkdir()
    writer = StaleWriter(home_path, pid)
    home = Home.open(home_path)
    moved = move_store(home, find_store(home, pid), new)
    assert moved.moved and moved.new_id == project_id(new)
    answer = writer.write()
    assert answer["reason"] == "removed", answer
    assert answer["moved_to"] == moved.new_id
    assert answer["removed_at"].endswith(" UTC")
    text = answer["message"]
    assert f"was moved at {answer['removed_at']} (mnemic project move)" in text
    assert f"now project store {moved.new_id}" in text and "--project NEWDIR" in text
    view = Memory.open(open_project(Home.open(home_path), new), origin="cli")
    assert view.entries("memory") == [TOX]  # the write reached neither store
    assert not (home_path / "projects" / pid).exists()


def test_a_store_deleted_outside_mnemic_is_missing_not_removed(
    home_path: Path, tmp_path: Path
) -> None:
    pid = _seed(home_path, tmp_path / "work" / "api")
    writer = StaleWriter(home_path, pid)
    shutil.rmtree(home_path / "projects" / pid)  # by hand: no tombstone
    answer = writer.write()
    assert answer["reason"] == "missing", answer
    assert "deleted outside mnemic" in answer["message"]
    where = Home.open(home_path).root / "projects" / pid / PROJECT_FILE
    assert f"({where} is missing)" in answer["message"]
    assert "Nothing was saved" in answer["message"]
    assert "removed_at" not in answer


def test_a_store_made_again_or_brought_back_supersedes_its_tombstone(
    home_path: Path, tmp_path: Path
) -> None:
    repo = tmp_path / "work" / "api"
    pid = _seed(home_path, repo)
    home = Home.open(home_path)
    removal = remove_store(home, find_store(home, pid))
    mark = home_path / "projects" / ".tombstones" / pid  # scope.tombstone_file
    assert mark.read_text(encoding="utf-8").replace(".", "").isdigit()  # when, no move
    assert removal.bundle is not None
    import_bundle(Home.open(home_path), Path(removal.bundle))
    assert not mark.exists()  # back from its bundle: no longer removed
    remove_store(home, find_store(home, pid))
    assert mark.exists()
    repo.mkdir()
    open_project(Home.open(home_path), repo, create=True)  # a new store at the same id
    assert not mark.exists()


def test_gc_drops_a_tombstone_past_max_age_and_lists_it_dry(
    home_path: Path, tmp_path: Path
) -> None:
    pid = _seed(home_path, tmp_path / "work" / "api")
    home = Home.open(home_path)
    remove_store(home, find_store(home, pid))
    mark = home_path / "projects" / ".tombstones" / pid  # scope.tombstone_file
    assert collect_garbage(home).counts().get("tombstone") is None  # just written: kept
    assert mark.exists()
    later = time.time() + home.settings.retention.max_age_days * 86400 + 3600

    def clock() -> float:
        return later

    dry = collect_garbage(home, dry_run=True, clock=clock)
    assert [(r.kind, r.what) for r in dry.removed if r.kind == "tombstone"] == [
        ("tombstone", f"project {pid}")
    ]
    assert mark.exists()
    assert collect_garbage(home, clock=clock).counts().get("tombstone") == 1
    assert not mark.exists()


def _records(root: Path) -> list[dict[str, Any]]:
    return list(AuditJournal(root / "audit").records())


@pytest.mark.parametrize("away", ["gc", "removed"])
def test_a_session_refused_while_its_store_was_away_is_audited_once_it_is_back(
    home_path: Path, tmp_path: Path, away: str
) -> None:
    """A session refused because its store was gone (``mnemic gc`` had its directory
    aside for a moment, or it was removed and brought back by ``mnemic import
    --bundle``) writes again once the store is back: the write commits, and before
    (mend22) it had no audit record: the session had stopped recording when it was
    refused (so as not to make a gone store's journal again) and never started again;
    the next write found MEMORY.md changed outside mnemic. Now it records again."""
    repo = tmp_path / "work" / "api"
    repo.mkdir(parents=True)
    store = open_project(Home.open(home_path), repo, create=True)
    session = Memory.open(store, origin="agent")
    assert session.add("memory", TOX).written
    root = store.project.root
    aside = root.parent / f".removed-{root.name}-gc"
    if away == "gc":
        root.rename(aside)  # gc's set-aside, a moment
    else:
        removal = remove_store(Home.open(home_path), store, force=True)
    try:
        session.add("memory", "API deploys on tag.")
    except ProjectScopeError as exc:
        assert exc.reason == ("missing" if away == "gc" else "removed")
        if away == "gc":  # told apart from a store deleted outside mnemic
            assert "is set aside by mnemic gc" in exc.message, exc.message
            assert exc.to_response()["set_aside"] == str(aside)
    else:
        raise AssertionError("a write to a store away was not refused")
    if away == "gc":
        aside.rename(root)  # put back
    else:
        assert removal.bundle is not None
        import_bundle(Home.open(home_path), Path(removal.bundle))
    assert session.add("memory", "API lint: ruff.").written
    adds = [r for r in _records(root) if r.get("action") == "add" and r.get("result") == "ok"]
    assert len(adds) == 2, adds
    again = Memory.open(open_project(Home.open(home_path), repo), origin="cli")
    assert again.add("memory", "API port is 9000.").written
    report = AuditJournal(root / "audit").verify()
    assert report.ok and report.outside_changes == (), report
