"""``mnemic audit`` names the store each record belongs to.

Every store keeps its own journal (files: ``<home>/projects/<id>/audit/``; PostgreSQL:
the rows of its project id). ``audit list`` reads the global store's and every project
store's, merged by time, each record told with its store (``--global`` / ``--project
DIR``: one store's); the label is told beside the record, never written into it, so
journals written before still verify and a record's hash still covers exactly its
bytes. Each test runs on the files store and on PostgreSQL (the ``backend`` fixture).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from _backends import Kit, PostgresKit
from _cli import cli as _cli, cli_json as _json
from mnemic.curated.memory import Memory
from mnemic.curated.scope import ProjectHome, open_project, project_id
from mnemic.governance.chain import record_hash
from mnemic.governance.storage import open_journal
from mnemic.home import Home

GLOBAL = {"scope": "global", "project": None, "project_id": None}


def _seed(backend: Kit, tmp_path: Path) -> tuple[Path, Path]:
    """A global write between two projects' writes, so the journals interleave in time."""
    home = Home.open(backend.write_config())
    app, lib = tmp_path / "work" / "app", tmp_path / "work" / "lib"
    for directory in (app, lib):
        directory.mkdir(parents=True)
    app_memory = Memory.open(open_project(home, app, create=True), origin="cli")
    app_memory.add("memory", "The app builds with cargo.")
    Memory.open(home, origin="cli").add("memory", "The user's laptop runs Debian.")
    Memory.open(open_project(home, lib, create=True), origin="cli").add("memory", "Lib uses tox.")
    app_memory.remove("memory", "cargo")
    return app.resolve(), lib.resolve()


def _project(directory: Path) -> dict[str, Any]:
    return {"scope": "project", "project": str(directory), "project_id": project_id(directory)}


def test_audit_list_names_the_store_of_every_record(backend: Kit, tmp_path: Path) -> None:
    app, lib = _seed(backend, tmp_path)
    listed = _json("audit", "list")
    got = [(r["store"], r["action"], r["result"]) for r in listed]
    assert got == [
        (_project(app), "add", "ok"),
        (GLOBAL, "add", "ok"),
        (_project(lib), "add", "ok"),
        (_project(app), "remove", "ok"),
    ]
    times = [r["ts"] for r in listed]
    assert times == sorted(times)
    only_app = _json("audit", "list", "--project", str(app))
    assert [(r["store"], r["action"]) for r in only_app] == [
        (_project(app), "add"),
        (_project(app), "remove"),
    ]
    assert [r["store"] for r in _json("audit", "list", "--global")] == [GLOBAL]
    removes = _json("audit", "list", "--action", "remove")
    assert [r["store"] for r in removes] == [_project(app)]
    newest = _json("audit", "list", "-n", "2")
    assert [r["store"] for r in newest] == [_project(lib), _project(app)]
    header, *text = _cli("audit", "list").output.splitlines()
    assert header.split()[:3] == ["SEQ", "TIME", "STORE"]
    assert len(text) == 4
    assert project_id(app) in text[0] and "global" in text[1] and project_id(lib) in text[2]
    verified = _json("audit", "verify", "--project", str(lib))
    assert verified["ok"] is True and verified["store"] == _project(lib)
    said = _cli("audit", "verify", "--project", str(lib)).output
    assert said.startswith(f"OK (project {lib}): 1 record(s)")


def test_the_store_is_told_beside_the_record_and_old_journals_still_verify(
    backend: Kit, tmp_path: Path
) -> None:
    app, lib = _seed(backend, tmp_path)
    home = Home.open(backend.home)
    stores = [home, *(open_project(home, d, create=False) for d in (app, lib))]
    before = [open_journal(s.root, s.settings).store.snapshot().lines for s in stores]
    listed = _json("audit", "list")
    for item in listed:  # the label is no part of the record: its hash covers the rest
        record = {k: v for k, v in item.items() if k != "store"}
        assert record_hash(record) == record["hash"]
        assert "store" not in json.dumps(record)
    after = [open_journal(s.root, s.settings).store.snapshot().lines for s in stores]
    assert after == before  # reading wrote nothing into any journal
    lines = {ln.decode() if isinstance(ln, bytes) else ln for journal in before for ln in journal}
    canonical = {
        json.dumps(
            {k: v for k, v in item.items() if k != "store"},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        for item in listed
    }
    assert canonical == lines  # each listed record is a journal line, byte for byte
    for args in ((), ("--project", str(app)), ("--project", str(lib))):
        assert _json("audit", "verify", *args)["ok"] is True
    assert _cli("audit", "list", "--global", "--project", str(app)).exit_code == 2


def _tamper(backend: Kit, store: Home) -> None:
    """Edit the first record of ``store``'s journal as a person with the files (or
    ``psql``) could: its result no longer matches its hash."""
    if isinstance(backend, PostgresKit):
        pid = store.project.id if isinstance(store, ProjectHome) else ""
        backend.sql(
            'UPDATE {s}.audit SET line = replace(line, \'"result":"ok"\', '
            '\'"result":"noop"\') WHERE project = %s AND seq = 1',
            (pid,),
        )
        return
    journal = store.root / "audit" / "journal.jsonl"
    text = journal.read_text()
    journal.write_text(text.replace('"result":"ok"', '"result":"noop"', 1))


def test_audit_verify_checks_every_stores_chain_and_names_the_broken_one(
    backend: Kit, tmp_path: Path
) -> None:
    app, lib = _seed(backend, tmp_path)
    verified = _json("audit", "verify")
    assert verified["ok"] is True and verified["store"] == GLOBAL and verified["store_ok"]
    assert [(p["store"], p["ok"], p["records"]) for p in verified["projects"]] == [
        (_project(app), True, 2),
        (_project(lib), True, 1),
    ]
    said = _cli("audit", "verify").output.splitlines()
    assert said[0].startswith("OK: 1 record(s)")
    assert said[1].startswith(f"OK (project {app}): 2 record(s)")
    assert _json("audit", "verify", "--global")["projects"] == []
    _tamper(backend, open_project(Home.open(backend.home), lib, create=False))
    broken = _cli("audit", "verify")
    assert broken.exit_code == 1
    assert f"TAMPERED OR DAMAGED (project {lib}): 1 problem(s)" in broken.output
    assert f"OK (project {app})" in broken.output
    report = json.loads(_cli("audit", "verify", "--json").output)
    # a script reading `ok` sees the tampering; the global chain itself is intact
    assert report["ok"] is False and report["store_ok"] is True
    assert [(p["store"]["project"], p["ok"]) for p in report["projects"]] == [
        (str(app), True),
        (str(lib), False),
    ]
    assert _cli("audit", "verify", "--global").exit_code == 0  # the global chain is intact
    assert _cli("audit", "verify", "--project", str(lib)).exit_code == 1
