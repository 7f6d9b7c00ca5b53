"""A project store's writes on the files store join group commit again
(``[memory] group_commit = "queue"``), and stay safe against ``mnemic project forget``.

mend17 took every project store's write out of the queue so that each would be checked
under its own locks. On files that is not needed: a holder checks its store under the
target's lock before it applies anything, and a queued request is always of the holder's
own store (one queue per memory directory), so the holder's check is the request's. A
writer queued behind the removal, which holds that lock, finds no answer when it gets
the lock, runs its request itself, and is refused by its own check (``removed``).
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from mnemic.backends.files.requests import FileRequests
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, stored_projects
from mnemic.errors import ProjectScopeError
from mnemic.home import Home
from mnemic.ops import project_stores


def _queued(memories: Path) -> list[str]:
    folder = FileRequests.of(memories).root / "MEMORY.md"
    try:
        return [n for n in os.listdir(folder) if n.endswith(".req")]
    except FileNotFoundError:
        return []


def test_a_writer_queued_behind_a_removal_is_refused_and_its_request_never_applied(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home_path.mkdir(parents=True)
    (home_path / "config.toml").write_text(
        '[memory]\ngroup_commit = "queue"\nlock_timeout = 30\n', encoding="utf-8"
    )
    proj = tmp_path / "work" / "api"
    proj.mkdir(parents=True)
    home = Home.open(home_path)
    store = open_project(home, proj, create=True)
    writer = Memory.open(store, origin="cli")
    assert writer.add("memory", "API tests run with tox.").written
    memories = store.project.root / "memories"
    holding, queued = threading.Event(), threading.Event()
    head = project_stores._head
    calls: list[int] = []

    def under_the_locks(s: Any) -> str | None:
        calls.append(1)
        if len(calls) == 2:  # the removal's look under its locks: hold them there
            holding.set()
            assert queued.wait(60)
        return head(s)

    monkeypatch.setattr(project_stores, "_head", under_the_locks)
    outcome: dict[str, Any] = {}

    def remove() -> None:
        outcome["removal"] = project_stores.remove_store(home, store, force=True)

    def write() -> None:
        try:
            outcome["written"] = writer.add("memory", "API deploys on tag.")
        except ProjectScopeError as exc:
            outcome["refused"] = exc

    remover = threading.Thread(target=remove)
    remover.start()
    assert holding.wait(60)
    late = threading.Thread(target=write)
    late.start()
    deadline = time.monotonic() + 60
    while not _queued(memories):  # the writer found the lock busy and left its request
        assert time.monotonic() < deadline, "the project store's write never queued"
        time.sleep(0.005)
    queued.set()
    remover.join(60)
    late.join(60)
    assert outcome["removal"].removed
    assert "written" not in outcome
    refused = outcome["refused"]
    assert refused.reason == "removed" and "Nothing was saved" in refused.message
    # its tombstone, read under the lock the removal held: when, and where the bundle is
    assert refused.extra["removed_at"].endswith(" UTC") and "removed-projects" in refused.message
    assert stored_projects(Home.open(home_path)) == []
    assert not store.project.root.exists()  # no part of the store made again
    assert not _queued(memories)  # the request taken back
