"""``mnemic pending`` works the approval queue of every store.

Each store (the global memory, each project's) keeps its own queue, and approving a
write applies it to the store whose queue holds it. Without ``--global`` or ``--project
DIR``, ``pending list`` shows every queue's writes, each told with its store (as ``audit
list`` tells a record's), and an id given to ``show``, ``diff``, ``approve`` or
``reject`` is found in whichever queue holds it; two queues holding one id is a clear
refusal asking for the store. Each test runs on the files store and on PostgreSQL (the
``backend`` fixture).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _backends import Kit
from _cli import cli as _cli, cli_json as _json
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, project_id
from mnemic.home import Home
from mnemic.ops import PendingQueue

GLOBAL = {"scope": "global", "project": None, "project_id": None}
STAGE = '[approval]\nmemory_foreground = "stage"\n'


def _project(directory: Path) -> dict[str, Any]:
    return {"scope": "project", "project": str(directory), "project_id": project_id(directory)}


def _staged(backend: Kit, tmp_path: Path) -> tuple[Path, Path, Path]:
    """A home whose global queue and two projects' queues each hold one staged add."""
    home_path = backend.write_config(STAGE)
    app, lib = tmp_path / "work" / "app", tmp_path / "work" / "lib"
    for directory in (app, lib):
        directory.mkdir(parents=True)
    assert _cli("memory", "add", "--project", str(app), "The app builds with cargo.").exit_code == 0
    assert _cli("memory", "add", "The user's laptop runs Debian.").exit_code == 0
    assert _cli("memory", "add", "--project", str(lib), "Lib uses tox.").exit_code == 0
    return home_path, app.resolve(), lib.resolve()


def test_pending_list_names_the_store_of_every_write(backend: Kit, tmp_path: Path) -> None:
    _, app, lib = _staged(backend, tmp_path)
    listed = _json("pending", "list")
    assert [r["store"] for r in listed["pending"]] == [_project(app), GLOBAL, _project(lib)]
    assert all(r["detail"] is None for r in listed["pending"]) and listed["problems"] == []
    only_lib = _json("pending", "list", "--project", str(lib))["pending"]
    assert [r["store"] for r in only_lib] == [_project(lib)]
    assert [r["store"] for r in _json("pending", "list", "--global")["pending"]] == [GLOBAL]
    text = _cli("pending", "list").output.splitlines()
    assert text[0] == "Pending writes (3):"
    assert text[1].split() == ["ID", "STAGED", "STORE", "FROM", "WHAT"]
    assert project_id(app) in text[2] and "global" in text[3] and project_id(lib) in text[4]
    both = _cli("pending", "list", "--global", "--project", str(lib))
    assert both.exit_code == 2 and "--global and --project name different stores" in both.output


def test_an_id_is_approved_or_rejected_in_whichever_store_holds_it(
    backend: Kit, tmp_path: Path
) -> None:
    home_path, app, lib = _staged(backend, tmp_path)
    home = Home.open(home_path)
    ids = [r["id"] for r in _json("pending", "list")["pending"]]
    app_id, global_id, lib_id = ids
    shown = _json("pending", "show", app_id)
    assert shown["store"] == _project(app) and shown["id"] == app_id
    assert "\n+The app builds with cargo.\n" in _cli("pending", "diff", app_id).output
    approved = _cli("pending", "approve", app_id)
    assert approved.exit_code == 0, approved.output
    assert approved.output.startswith(f"approved {app_id} ({project_id(app)}): ")
    app_memory = Memory.open(open_project(home, app, create=False))
    assert app_memory.entries("memory") == ["The app builds with cargo."]
    assert Memory.open(home).entries("memory") == []  # nothing reached the global store
    [rejected] = _json("pending", "reject", lib_id)
    assert rejected["id"] == lib_id and rejected["store"] == _project(lib)
    assert Memory.open(open_project(home, lib, create=False)).entries("memory") == []
    assert [r["id"] for r in _json("pending", "list")["pending"]] == [global_id]
    missing = _cli("pending", "approve", "--global", app_id)
    assert missing.exit_code != 0 and f"No pending write {app_id!r}" in missing.output
    [done] = _json("pending", "approve", "all")
    assert done["id"] == global_id and done["ok"] and done["store"] == GLOBAL
    assert Memory.open(home).entries("memory") == ["The user's laptop runs Debian."]


def test_approve_all_and_reject_all_work_every_store_unless_told_one(
    backend: Kit, tmp_path: Path
) -> None:
    home_path, app, lib = _staged(backend, tmp_path)
    home = Home.open(home_path)
    [only] = _json("pending", "reject", "all", "--project", str(lib))
    assert only["store"] == _project(lib)
    done = _json("pending", "approve", "all")
    assert [(o["store"], o["ok"]) for o in done] == [(GLOBAL, True), (_project(app), True)]
    assert Memory.open(open_project(home, app, create=False)).entries("memory") == [
        "The app builds with cargo."
    ]
    assert _json("pending", "list")["pending"] == []


def test_an_id_held_by_two_stores_is_refused_until_the_store_is_named(
    backend: Kit, tmp_path: Path
) -> None:
    home_path, app, _ = _staged(backend, tmp_path)
    home = Home.open(home_path)
    [record] = PendingQueue.open(open_project(home, app, create=False)).records()
    assert PendingQueue.open(home).store("memory").insert(record)  # the same id, globally
    for verb in ("approve", "reject", "show", "diff"):
        refused = _cli("pending", verb, record.id)
        assert refused.exit_code != 0
        assert f"Pending write {record.id!r} is in more than one store (global, {app})" in (
            refused.output
        )
        assert "--global or --project DIR" in refused.output
    assert len([r for r in _json("pending", "list")["pending"] if r["id"] == record.id]) == 2
    assert _cli("pending", "reject", "--global", record.id).exit_code == 0
    approved = _cli("pending", "approve", record.id)
    assert approved.exit_code == 0, approved.output
    assert Memory.open(home).entries("memory") == []
    assert Memory.open(open_project(home, app, create=False)).entries("memory") == [
        "The app builds with cargo."
    ]
