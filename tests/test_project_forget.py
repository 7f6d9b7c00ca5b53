"""``mnemic project forget ID``: a project store removed whole, its memory kept first.

A store whose directory is gone was listed "(directory gone; --project ID)" and could be
read and emptied entry by entry, but never removed (a database store kept its rows). It
is now written to a bundle of its own, then removed all at once under its writers'
locks, on the files store and PostgreSQL alike; ``mnemic import --bundle FILE`` brings
it back into the same home.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from _backends import Kit, PostgresKit
from mnemic.cli import main
from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, project_id, stored_projects
from mnemic.curated.store import Op
from mnemic.curated.view import MemoryView
from mnemic.errors import ProjectScopeError
from mnemic.home import Home
from mnemic.ops import project_stores

TOX, RUFF, OLD = "API tests run with tox.", "API lint: ruff.", "API port was 8080."


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _store(backend: Kit, tmp_path: Path, *, gone: bool = True) -> tuple[Path, str]:
    backend.write_config()
    proj = tmp_path / "work" / "api"
    proj.mkdir(parents=True)
    for args in (("add", TOX), ("add", RUFF), ("add", OLD), ("remove", "port was")):
        out = _cli("memory", args[0], "--project", str(proj), args[1])
        assert out.exit_code == 0, out.output
    pid = project_id(proj)
    if gone:
        proj.rmdir()
    return proj, pid


def _rows(backend: Kit, pid: str) -> int:
    """Rows of the project in every project-keyed table (PostgreSQL), or the files kept
    under its directory (files)."""
    if isinstance(backend, PostgresKit):
        tables = [*project_stores_tables(), "projects"]
        total = 0
        for t in tables:
            column = "id" if t == "projects" else "project"
            total += backend.sql(f"SELECT count(*) FROM {{s}}.{t} WHERE {column} = %s", (pid,))[0][
                0
            ]
        return total
    root = backend.home / "projects" / pid
    return sum(len(files) for _, _, files in os.walk(root)) if root.exists() else 0


def project_stores_tables() -> tuple[str, ...]:
    from mnemic.backends.postgres.curated import PROJECT_TABLES

    return PROJECT_TABLES


def test_an_orphaned_store_is_removed_whole_and_comes_back_from_its_bundle(
    backend: Kit, tmp_path: Path
) -> None:
    proj, pid = _store(backend, tmp_path)
    assert _rows(backend, pid) > 0
    assert f"`mnemic project forget {pid}` removes the store" in _cli("memory", "status").output
    out = _cli("project", "forget", pid, "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["removed"] is True and data["directory_exists"] is False
    assert (data["entries"], data["archived"], data["audit_records"]) == (2, 1, 4)
    bundle = Path(data["bundle"])
    assert bundle.is_file() and bundle.parent == backend.home / "removed-projects"
    assert stored_projects(Home.open(backend.home)) == []
    assert _rows(backend, pid) == 0  # every table, all at once
    assert "Project stores" not in _cli("memory", "status").output
    # the bundle brings it back into this home: entries, archive and journal
    back = _cli("import", "--bundle", str(bundle))
    assert back.exit_code == 0, back.output
    (store,) = stored_projects(Home.open(backend.home))
    assert store.project.id == pid and store.project.path == str(proj)
    view = MemoryView.open(store)
    assert view.entries("memory") == [TOX, RUFF]
    assert [a.text for a in archive.listing(view)] == [OLD]
    assert _cli("audit", "verify").exit_code == 0
    # a second import is refused: the home has that store now
    again = _cli("import", "--bundle", str(bundle))
    assert again.exit_code != 0 and "already has the project store" in again.output


def test_a_store_whose_directory_exists_is_refused_unless_force(
    backend: Kit, tmp_path: Path
) -> None:
    proj, pid = _store(backend, tmp_path, gone=False)
    out = _cli("project", "forget", str(proj))
    assert out.exit_code != 0 and "still exists" in out.output and "--force" in out.output
    assert [s.project.id for s in stored_projects(Home.open(backend.home))] == [pid]
    assert not (backend.home / "removed-projects").exists()  # nothing kept: nothing went
    dry = _cli("project", "forget", pid, "--force", "--dry-run")
    assert dry.exit_code == 0 and "Would remove project store" in dry.output
    assert "2 entries, 1 archived entry, 4 audit records" in dry.output
    assert len(stored_projects(Home.open(backend.home))) == 1
    forced = _cli("project", "forget", pid, "--force")
    assert forced.exit_code == 0, forced.output
    assert "mnemic import --bundle" in forced.output
    assert stored_projects(Home.open(backend.home)) == []


def test_an_unknown_store_is_refused_naming_the_listing(backend: Kit, tmp_path: Path) -> None:
    _store(backend, tmp_path)
    out = _cli("project", "forget", "nope-000000000000")
    assert out.exit_code != 0 and "mnemic memory status" in out.output


def test_a_writer_of_the_removed_store_is_refused_and_leaves_nothing(
    backend: Kit, tmp_path: Path
) -> None:
    """A session that opened the store before the removal writes after it: refused
    (``removed``), recorded nowhere, and no part of a store made again."""
    proj, pid = _store(backend, tmp_path, gone=False)
    writer = Memory.open(open_project(Home.open(backend.home), proj), origin="cli")
    assert writer.entries("memory") == [TOX, RUFF]
    assert _cli("project", "forget", pid, "--force").exit_code == 0
    for ops in ([Op("add", "API deploys on tag.")], [Op("remove", "", "tox")]):
        with pytest.raises(ProjectScopeError) as refused:
            writer.apply("memory", ops)
        assert refused.value.reason == "removed" and "Nothing was saved" in refused.value.message
    assert stored_projects(Home.open(backend.home)) == []
    assert _rows(backend, pid) == 0


def test_a_write_after_the_bundle_was_read_leaves_the_store_whole(
    backend: Kit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The removal checks, under the locks, that the journal ends where the bundle's
    does: a write that came in between leaves the store as it is."""
    proj, pid = _store(backend, tmp_path, gone=False)
    home = Home.open(backend.home)
    real = project_stores.export_bundle

    def export_then_write(*args: Any, **kw: Any) -> Any:
        done = real(*args, **kw)
        other = Memory.open(open_project(Home.open(backend.home), proj), origin="cli")
        assert other.apply("memory", [Op("add", "API deploys on tag.")]).written
        return done

    monkeypatch.setattr(project_stores, "export_bundle", export_then_write)
    store = project_stores.find_store(home, pid)
    with pytest.raises(ProjectScopeError) as refused:
        project_stores.remove_store(home, store, force=True)
    assert refused.value.reason == "changed" and "Run the removal again" in refused.value.message
    (kept,) = stored_projects(Home.open(backend.home))
    assert MemoryView.open(kept).entries("memory") == [TOX, RUFF, "API deploys on tag."]
    assert _cli("audit", "verify").exit_code == 0


def test_a_removal_killed_after_its_rename_leaves_no_store_and_is_cleared(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files: the rename out of ``projects/`` is the one step that removes the store; a
    process that dies before deleting the renamed directory leaves debris no listing
    reads as a store, deleted by ``mnemic gc`` or the next removal."""
    from _backends import FilesKit

    _, pid = _store(FilesKit(home_path), tmp_path)
    home = Home.open(home_path)

    def killed(directory: Path) -> None:
        raise SystemExit("killed")

    real = project_stores._discard
    monkeypatch.setattr(project_stores, "_discard", killed)
    with pytest.raises(SystemExit):
        project_stores.remove_store(home, project_stores.find_store(home, pid))
    monkeypatch.setattr(project_stores, "_discard", real)
    debris = [n for n in os.listdir(home_path / "projects") if n.startswith(".removed-")]
    assert len(debris) == 1
    assert stored_projects(Home.open(home_path)) == []
    assert "Project stores" not in _cli("memory", "status").output
    dry = json.loads(_cli("gc", "--dry-run", "--json").output)
    assert [r["kind"] for r in dry["removed"]].count("removed_store") == 1
    assert _cli("gc").exit_code == 0  # and the next removal would (clear_debris)
    assert os.listdir(home_path / "projects") == [".tombstones"]  # its writers read when
    assert project_stores.clear_debris(Home.open(home_path)) == 0
