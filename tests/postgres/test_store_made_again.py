"""A store dropped and made again under the same name while a process keeps running.

The PostgreSQL twin of the files store's home made again at the same path (crash6: a
journal recognised by its inode alone). A long-lived process (an MCP server, the
console) keeps a :class:`~mnemic.curated.memory.Memory` open on a store, and with it
what this process learnt of the store: the fold of its journal (provenance, archive),
and whether the journal's head row was made. Meanwhile someone drops the store (a
project's rows, or the whole schema) and another process makes it again under the same
name and writes. Here the long-lived process is this test's; the others are real
``mnemic`` processes, and the drop is SQL run as a person with ``psql`` would.

Each test checks what the long-lived process does next: its record chains onto the new
journal's head (``audit verify``), it reads the new store's fold and archive (never the
old one's), and nothing it writes is lost from the catalog of projects.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from _backends import PostgresKit
from mnemic.curated import archive as arch
from mnemic.curated.memory import Memory
from mnemic.curated.scope import ProjectHome, open_project, stored_projects
from mnemic.curated.view import MemoryView
from mnemic.errors import StorageError
from mnemic.governance.storage import open_journal
from mnemic.home import Home

pytestmark = pytest.mark.postgres

_SCOPED = (
    "curated",
    "curated_versions",
    "curated_backups",
    "curated_provenance",
    "pending",
    "audit",
    "audit_head",
    "audit_targets",
    "journal_fold",
)
"""Every table whose rows belong to one store (``project`` column)."""


@pytest.fixture
def kit(home_path: Path, pg_dsn: str, pg_schema: str) -> PostgresKit:
    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    kit.write_config()
    return kit


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    path = tmp_path / "work" / "p"
    path.mkdir(parents=True)
    return path


def mnemic(home: Path, *args: str) -> str:
    """Run ``mnemic ARGS`` in a process of its own on ``home``; its stdout."""
    env = {**os.environ, "MNEMIC_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-m", "mnemic", *args], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def drop_project(kit: PostgresKit, project_id: str) -> None:
    """Delete every row of a project's store and its catalog entry (by hand, SQL)."""
    for table in _SCOPED:
        kit.sql(f"DELETE FROM {{s}}.{table} WHERE project = %s", (project_id,))
    kit.sql("DELETE FROM {s}.projects WHERE id = %s", (project_id,))


def archived(where: Home) -> list[str]:
    return [a.text for a in arch.listing(MemoryView.open(where))]


def authors(where: Home) -> list[tuple[str, str | None]]:
    """Each live memory entry with the session that wrote it (None: not known)."""
    return [(e, p.session_id) for e, p in MemoryView.open(where).provenance("memory")]


def verified(where: Home) -> int:
    """The number of records of ``where``'s journal, which must verify."""
    report = open_journal(where.root, where.settings).verify()
    assert report.ok, report
    return report.records


def old_store(kept: Memory, where: Home) -> None:
    """Three records in the store, one entry archived; the fold read (so this process
    keeps it)."""
    kept.add("memory", "Old build uses make.")
    kept.add("memory", "Old host is stage-7.")
    kept.remove("memory", "stage-7")
    assert archived(where) == ["Old host is stage-7."]
    assert verified(where) == 3


def test_a_long_lived_writer_of_a_dropped_project_makes_its_journal_again(
    kit: PostgresKit, project_dir: Path
) -> None:
    """The long-lived process writes first after the drop. It used to remember that it
    had made the project's journal head row (once per process): every write then failed
    with "the journal head row is missing" until another process wrote to the project,
    and its writes, once they went through, were in no catalog (``forget --sessions``
    and ``gc`` visit the stores the catalog names)."""
    home = Home.open(kit.home)
    where = open_project(home, project_dir, create=True)
    kept = Memory.open(where)
    old_store(kept, where)
    pid = where.project.id

    drop_project(kit, pid)
    assert kept.add("memory", "Kept writes first.").written
    assert verified(where) == 1  # a new chain, from the first record
    assert archived(where) == []  # nothing of the old store's archive
    assert [h.project.id for h in stored_projects(home)] == [pid]
    assert kit.sql("SELECT path FROM {s}.projects WHERE id = %s", (pid,)) == [
        (str(project_dir.resolve()),)
    ]

    mnemic(kit.home, "memory", "add", "--project", str(project_dir), "Other writes next.")
    assert kept.add("memory", "Kept writes again.").written
    assert verified(where) == 3
    assert [e for e, _ in authors(where)] == [
        "Kept writes first.",
        "Other writes next.",
        "Kept writes again.",
    ]
    assert all(session is not None for _, session in authors(where))


def test_a_long_lived_process_reads_the_new_projects_fold_never_the_old_one(
    kit: PostgresKit, project_dir: Path
) -> None:
    """Another process makes the project again and writes as many records as the old
    store had (the same sequence numbers: the PostgreSQL form of crash6's same inode and
    length). The long-lived process's fold of the old journal must not be taken for the
    new one's: it is kept with the head row's generation, a random id the row gets when
    it is made (and a rewrite changes), so a head made again is another journal."""
    home = Home.open(kit.home)
    where = open_project(home, project_dir, create=True)
    kept = Memory.open(where)
    old_store(kept, where)
    old_sessions = {s for _, s in authors(where)}

    drop_project(kit, where.project.id)
    proj = str(project_dir)
    mnemic(kit.home, "memory", "add", "--project", proj, "New build uses cargo.")
    mnemic(kit.home, "memory", "add", "--project", proj, "New host is prod-3.")
    mnemic(kit.home, "memory", "remove", "--project", proj, "prod-3")

    assert archived(where) == ["New host is prod-3."]
    assert [e for e, _ in authors(where)] == ["New build uses cargo."]
    assert not {s for _, s in authors(where)} & old_sessions  # credited to the new writer
    assert kept.add("memory", "Kept writes after.").written
    assert verified(where) == 4  # chained onto the new journal's head
    assert [e for e, _ in authors(where)] == ["New build uses cargo.", "Kept writes after."]
    assert archived(where) == ["New host is prod-3."]


def test_a_long_lived_process_carries_on_in_a_schema_dropped_and_migrated_again(
    kit: PostgresKit, project_dir: Path
) -> None:
    """The whole schema dropped (``DROP SCHEMA ... CASCADE``) and made again by
    ``mnemic db migrate`` in another process: the long-lived process's next writes, in
    the global store and in a project's, start each store's journal again; their pooled
    connections and the statements prepared on them work on the new tables."""
    home = Home.open(kit.home)
    where = open_project(home, project_dir, create=True)
    kept_global, kept_project = Memory.open(home), Memory.open(where)
    old_store(kept_global, home)
    old_store(kept_project, where)
    for _ in range(6):  # often enough that psycopg prepares the statements it repeats
        assert authors(home) and authors(where) and verified(where) == 3
    kit.sql("DROP SCHEMA {s} CASCADE")
    mnemic(kit.home, "db", "migrate")

    assert kept_global.add("memory", "Global after the drop.").written
    assert kept_project.add("memory", "Project after the drop.").written
    assert verified(home) == verified(where) == 1
    assert archived(home) == archived(where) == []
    assert [h.project.id for h in stored_projects(home)] == [where.project.id]
    mnemic(kit.home, "memory", "add", "Other global.")
    mnemic(kit.home, "memory", "add", "--project", str(project_dir), "Other project.")
    assert kept_global.add("memory", "Global again.").written
    assert kept_project.add("memory", "Project again.").written
    assert verified(home) == verified(where) == 3
    assert isinstance(where, ProjectHome)


@pytest.mark.parametrize("migrate_on_start", [False, True])
def test_a_long_lived_process_whose_schema_was_dropped_is_told_to_migrate_it(
    home_path: Path, pg_dsn: str, pg_schema: str, migrate_on_start: bool
) -> None:
    """The schema dropped and not made again yet. The process checked the schema once,
    at its start; its reads and writes then failed with a database error about one
    table ("relation ... does not exist") that read like a damaged file ("Fix or move
    the file, see `mnemic memory doctor`"), and a process with ``migrate_on_start``
    never migrated again. Now a missing table has the schema checked again: the
    refusal says to run `mnemic db migrate`, or the schema is migrated."""
    kit = PostgresKit(home_path, pg_dsn, pg_schema)
    config = kit.config().replace(
        "[postgres]\n", f"[postgres]\nmigrate_on_start = {str(migrate_on_start).lower()}\n"
    )
    kit.home.mkdir(parents=True, exist_ok=True)
    (kit.home / "config.toml").write_text(config, encoding="utf-8")
    home = Home.open(kit.home)
    kept = Memory.open(home)
    assert kept.add("memory", "Before the drop.").written
    kit.sql("DROP SCHEMA {s} CASCADE")

    if not migrate_on_start:
        for call in (
            lambda: kept.add("memory", "While it is gone."),
            lambda: MemoryView.open(home).entries("memory"),
        ):
            with pytest.raises(StorageError) as refused:
                call()
            assert "mnemic db migrate" in str(refused.value), refused.value
            assert "memory doctor" not in str(refused.value)
        mnemic(kit.home, "db", "migrate")
    else:
        with pytest.raises(StorageError):  # this call's statements met the missing tables
            kept.add("memory", "While it is gone.")
    assert kept.add("memory", "After the migration.").written
    assert MemoryView.open(home).entries("memory") == ["After the migration."]
    records = list(open_journal(home.root, home.settings).records())
    # with migrate_on_start, the failed call's account reached the migrated journal
    failed = [("add", "failed")] if migrate_on_start else []
    assert [(r["action"], r["result"]) for r in records] == [*failed, ("add", "ok")]
    assert verified(home) == len(records)


def test_a_long_lived_session_search_reads_the_vectors_of_a_schema_made_again(
    kit: PostgresKit,
) -> None:
    """A process's matrix of message vectors (semantic session search) is refreshed by
    the rows ``added`` since it last read, reloaded whole when vectors were deleted.
    After the schema was dropped and migrated again, the new tables' message ids and
    ``added`` numbers start again: the long-lived store scored the new messages by the
    old messages' vectors of the same ids (a question about the Alps found "Lunch is at
    noon") and never read the new vectors (every score 0)."""
    pytest.importorskip("numpy")
    from mnemic.embedding.standin import StandinEmbedder
    from mnemic.sessions import open_store
    from mnemic.sessions.search.embed import backfill
    from mnemic.sessions.store import NewMessage, SearchFilters

    home = Home.open(kit.home)
    embedder = StandinEmbedder()
    old = ["I adopted a cat named Miso", "We went hiking in the Alps", "The Alps in August"]
    new = ["The build uses make and gcc", "The database is PostgreSQL 16", "Lunch is at noon"]

    def search(store: Any, query: str) -> list[tuple[int, float]]:
        vec = embedder.embed_queries([query])[0]
        hits = store.vectors.search(vec, embedder.model_id, SearchFilters(), 3)
        return [(i, round(score, 4)) for i, score in hits]

    queries = ["hiking in the Alps", "database PostgreSQL", "a cat named Miso"]
    with open_store(home) as kept:
        sid = kept.start_session(source="cli")
        kept.append_messages(sid, [NewMessage("user", t) for t in old])
        backfill(kept, embedder)
        before = [search(kept, q) for q in queries]

        kit.sql("DROP SCHEMA {s} CASCADE")
        mnemic(kit.home, "db", "migrate")
        with open_store(home) as other:  # a store of its own: a matrix of its own
            sid = other.start_session(source="cli")
            other.append_messages(sid, [NewMessage("user", t) for t in new])
            backfill(other, embedder)
            fresh = [search(other, q) for q in queries]
        assert fresh != before  # the same ids (1, 2, 3), other texts
        assert [search(kept, q) for q in queries] == fresh
