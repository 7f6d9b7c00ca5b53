"""Project stores on PostgreSQL: rows beside the global store's, and the upgrade to them.

Version 8 of the schema puts a ``project`` column in front of the key of every curated
and governance table (``''``: the global store) and a ``projects`` catalog beside them.
These tests look at the rows themselves, hold the advisory locks by hand as another
host would, and upgrade a schema that version 7 wrote.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from _backends import PostgresKit
from mnemic.curated import archive as arch
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, stored_projects
from mnemic.curated.tool import run_memory_tool
from mnemic.curated.view import MemoryView
from mnemic.errors import LockTimeout
from mnemic.governance.storage import open_journal, open_pending
from mnemic.home import Home

pytestmark = pytest.mark.postgres


@pytest.fixture
def kit(home_path: Path, pg_dsn: str, pg_schema: str) -> PostgresKit:
    return PostgresKit(home_path, pg_dsn, pg_schema)


def _dirs(tmp_path: Path, *names: str) -> list[Path]:
    out = []
    for name in names:
        (tmp_path / "work" / name).mkdir(parents=True)
        out.append(tmp_path / "work" / name)
    return out


def test_global_and_project_stores_share_the_tables_each_with_its_own_rows(
    kit: PostgresKit, tmp_path: Path
) -> None:
    p, q = _dirs(tmp_path, "p", "q")
    home = Home.open(kit.write_config("[project]\nmemory_char_limit = 200\n"))
    glob = Memory.open(home)
    glob.add("memory", "Global fact.")
    glob.add("user", "Name is Ada.")
    wp, wq = open_project(home, p, create=True), open_project(home, q, create=True)
    mp, mq = Memory.open(wp), Memory.open(wq)
    mp.add("memory", "P builds with make.")
    mp.add("memory", "P staging host is stage-7.")
    mp.remove("memory", "stage-7")
    mq.add("memory", "Q builds with cargo.")
    pid, qid = (open_project(home, d, create=False).project.id for d in (p, q))

    rows = kit.sql("SELECT project, target, body FROM {s}.curated ORDER BY 1, 2")
    assert rows == sorted(
        [
            ("", "memory", "Global fact."),
            ("", "user", "Name is Ada."),
            (pid, "memory", "P builds with make."),
            (qid, "memory", "Q builds with cargo."),
        ]
    )
    assert dict(kit.sql("SELECT id, path FROM {s}.projects")) == {pid: str(p), qid: str(q)}
    heads = dict(kit.sql("SELECT project, count FROM {s}.audit_head"))
    assert heads == {"": 2, pid: 3, qid: 1}  # a hash chain per store
    assert not (kit.home / "projects").exists()  # nothing of a store is kept in files

    # each store's journal, archive and budget are its own
    for where, actions in ((home, ["add", "add"]), (wp, ["add", "add", "remove"])):
        journal = open_journal(where.root, where.settings)
        assert [r["action"] for r in journal.records()] == actions
        assert journal.verify().ok
    assert [a.text for a in arch.listing(MemoryView.open(wp))] == ["P staging host is stage-7."]
    assert arch.listing(MemoryView.open(home)) == arch.listing(MemoryView.open(wq)) == []
    assert mp.limit("memory") == 200 and glob.limit("memory") == 2200
    full = run_memory_tool(mp, {"action": "add", "content": "x" * 190})
    assert full["error_code"] == "budget_exceeded"
    assert glob.add("memory", "y" * 190).written  # the global store has room of its own
    assert [h.project.id for h in stored_projects(home)] == sorted([pid, qid])


def test_a_reader_of_an_unknown_project_records_nothing(kit: PostgresKit, tmp_path: Path) -> None:
    (p,) = _dirs(tmp_path, "p")
    home = Home.open(kit.write_config())
    where = open_project(home, p, create=False)
    assert MemoryView.open(where).entries("memory") == [] and not where.exists
    assert kit.sql("SELECT count(*) FROM {s}.projects") == [(0,)]
    assert stored_projects(home) == []


def test_a_project_write_does_not_wait_for_the_global_stores_lock_nor_the_reverse(
    kit: PostgresKit, tmp_path: Path
) -> None:
    """Another host holding one store's advisory lock (taken here by hand, on a
    connection of its own) blocks that store's writers only."""
    import psycopg

    from mnemic.backends.postgres.curated import PostgresBackend
    from mnemic.backends.postgres.db import Database

    (p,) = _dirs(tmp_path, "p")
    home = Home.open(kit.write_config(lock_timeout=0.2))
    glob = Memory.open(home)
    mp = Memory.open(open_project(home, p, create=True))
    db = Database(kit.dsn, schema=kit.schema)
    global_key = PostgresBackend(db).lock_key("memory")
    project_key = PostgresBackend(db, project=mp.settings.scope).lock_key("memory")
    assert global_key != project_key
    for held, free, blocked in ((global_key, mp, glob), (project_key, glob, mp)):
        with psycopg.connect(kit.dsn, autocommit=True) as other:
            other.execute("SELECT pg_advisory_lock(%s)", (held,))
            assert free.add("memory", f"Written while {held} is held.").written
            with pytest.raises(LockTimeout):
                blocked.add("memory", "Never written.")
    assert glob.entries("memory") == [f"Written while {project_key} is held."]
    assert mp.entries("memory") == [f"Written while {global_key} is held."]


def test_a_staged_project_write_waits_in_the_projects_own_queue(
    kit: PostgresKit, tmp_path: Path
) -> None:
    (p,) = _dirs(tmp_path, "p")
    home = Home.open(kit.write_config('[approval]\nmemory_foreground = "stage"\n'))
    wp = open_project(home, p, create=True)
    mp = Memory.open(wp)
    staged = run_memory_tool(mp, {"action": "add", "content": "P."})
    assert staged["staged"] is True
    assert open_pending(home.root, home.settings, "memory").ids() == []
    assert open_pending(wp.root, mp.settings, "memory").ids() == [staged["pending_id"]]
    rows = kit.sql("SELECT project, id FROM {s}.pending")
    assert rows == [(mp.settings.scope, staged["pending_id"])]


# -- the upgrade from version 7 ------------------------------------------------------------

_V7_COLUMNS = {
    # table: its columns at version 7 (the rows a version-7 mnemic wrote)
    "curated": "target, body, version, updated_at",
    "curated_versions": "target, seq, saved_at, body",
    "curated_backups": "id, target, saved_at, body",
    "pending": "subsystem, id, created_at, record",
    "audit": "seq, line",
    "audit_targets": "target, state, origin, origin_known",
    "journal_fold": "singleton, ident, body",
}


@pytest.fixture
def v7_schema(pg_dsn: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A schema migrated to version 7 only."""
    import psycopg

    from mnemic.backends.postgres import migrations
    from mnemic.backends.postgres.db import Database

    name = "v7_" + uuid.uuid4().hex[:10]
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:7])
        m.setattr(migrations, "SCHEMA_VERSION", 7)
        assert migrations.migrate(Database(pg_dsn, schema=name)) == [1, 2, 3, 4, 5, 6, 7]
    yield name
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def _state(home: Home) -> dict[str, Any]:
    """Everything a user can see of the global store."""
    view = MemoryView.open(home)
    journal = open_journal(home.root, home.settings)
    return {
        "entries": {t: view.entries(t) for t in ("memory", "user")},
        "history": [(v.id, v.size) for v in view.backend.history("memory")],
        "archive": [(a.id, a.text, a.reason) for a in arch.listing(view)],
        "records": list(journal.records()),
        "pending": open_pending(home.root, home.settings, "memory").ids(),
    }


def test_a_version_7_schema_upgrades_keeping_every_row_as_the_global_store(
    kit: PostgresKit, v7_schema: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemic.backends.postgres.db import Database
    from mnemic.backends.postgres.migrations import SCHEMA_VERSION, current_version, migrate

    # what a version-7 mnemic wrote: made by this one, copied into the old tables
    home = Home.open(kit.write_config())
    glob = Memory.open(home)
    for n in range(3):
        glob.add("memory", f"Fact {n}.")
    glob.replace("memory", "Fact 1.", "Fact one.")
    glob.remove("memory", "Fact 2.")
    glob.add("user", "Name is Ada.")
    kit.append("memory", "\n§\n")  # drift: the next write saves a backup and is refused
    assert not run_memory_tool(glob, {"action": "add", "content": "Refused."})["success"]
    kit.edit("memory", "Fact 0.\n§\nFact one.")
    staged = Memory.open(Home.open(kit.write_config('[approval]\nmemory_foreground = "stage"\n')))
    assert run_memory_tool(staged, {"action": "add", "content": "Staged."})["staged"]
    before = _state(Home.open(kit.home))
    assert before["archive"] and before["pending"] and len(before["records"]) >= 6
    old = PostgresKit(kit.home, kit.dsn, v7_schema)
    for table, columns in _V7_COLUMNS.items():
        old.sql(
            f'INSERT INTO {{s}}.{table} ({columns}) SELECT {columns} FROM "{kit.schema}".{table}'
        )
    old.sql(
        f"UPDATE {{s}}.audit_head SET (count, hash, generation) = (SELECT count, hash, "
        f'generation FROM "{kit.schema}".audit_head)'
    )
    assert old.sql("SELECT count(*) FROM {s}.curated_backups") == [(1,)]

    db = Database(kit.dsn, schema=v7_schema)
    assert current_version(db) == 7 and migrate(db) == list(range(8, SCHEMA_VERSION + 1))
    upgraded = Home.open(old.write_config('[approval]\nmemory_foreground = "stage"\n'))
    assert _state(upgraded) == before
    assert old.sql("SELECT DISTINCT project FROM {s}.curated_versions") == [("",)]
    assert old.sql("SELECT project, count FROM {s}.audit_head") == [("", len(before["records"]))]
    backups = MemoryView.open(upgraded).backend.backups("memory")
    assert len(backups) == 1 and old.backup_text(backups[0].location).endswith("\n§\n")

    # the upgraded schema takes project stores beside its rows, and the chain goes on
    (p,) = _dirs(tmp_path, "p")
    upgraded = Home.open(old.write_config())
    Memory.open(open_project(upgraded, p, create=True)).add("memory", "Project fact.")
    Memory.open(upgraded).add("memory", "Fact three.")
    after = _state(upgraded)
    assert after["entries"]["memory"] == ["Fact 0.", "Fact one.", "Fact three."]
    assert after["records"][: len(before["records"])] == before["records"]
    assert open_journal(upgraded.root, upgraded.settings).verify().ok
    assert MemoryView.open(open_project(upgraded, p, create=False)).entries("memory") == [
        "Project fact."
    ]


def test_the_upgrade_runs_once_and_a_second_migrate_finds_nothing(
    v7_schema: str, pg_dsn: str
) -> None:
    from mnemic.backends.postgres.db import Database
    from mnemic.backends.postgres.migrations import SCHEMA_VERSION, migrate

    db = Database(pg_dsn, schema=v7_schema)
    assert migrate(db) == list(range(8, SCHEMA_VERSION + 1))
    assert migrate(db) == []


def test_the_cli_lists_verifies_and_keeps_drift_of_a_project_store_in_the_database(
    kit: PostgresKit, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from mnemic.cli import main

    (p,) = _dirs(tmp_path, "p")
    home_path = kit.write_config()

    def cli(*args: str) -> Any:
        return CliRunner().invoke(main, ["--home", str(home_path), *args])

    assert cli("memory", "add", "--project", str(p), "Builds with make.").exit_code == 0
    assert cli("memory", "add", "Global fact.").exit_code == 0
    status = cli("memory", "status")
    assert "Project stores (1;" in status.output and str(p) in status.output
    verified = cli("audit", "verify", "--project", str(p))
    assert verified.exit_code == 0, verified.output
    pid = open_project(Home.open(home_path), p, create=False).project.id
    # hand-edited drift in the project's row (with SQL): a write is refused, its text kept
    kit.sql(
        "UPDATE {s}.curated SET body = body || %s WHERE project = %s AND target = 'memory'",
        ("\n§\n", pid),
    )
    refused = cli("memory", "add", "--project", str(p), "Lints with ruff.")
    assert refused.exit_code == 1, refused.output
    backups = kit.sql("SELECT project, body FROM {s}.curated_backups")
    assert backups == [(pid, "Builds with make.\n§\n")]
    assert kit.raw("memory") == "Global fact."  # kit.raw reads the global row
    provenance = MemoryView.open(open_project(Home.open(home_path), p, create=False))
    assert [prov.origin for _, prov in provenance.provenance("memory")] == ["cli"]
