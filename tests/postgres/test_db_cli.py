"""``mnemic db migrate | status | copy``: a home into PostgreSQL and back, counts verified."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mnemic.backends.postgres.migrations import MIGRATIONS
from mnemic.cli import main
from mnemic.curated.memory import Memory
from mnemic.home import Home
from mnemic.sessions import NewMessage, SearchFilters, open_store, parse_query

pytestmark = pytest.mark.postgres


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _files_home(root: Path) -> None:
    root.mkdir(parents=True)
    (root / "config.toml").write_text('[approval]\nmemory_background = "stage"\n')
    mem = Memory.open(root)
    mem.add("memory", "deploys go through staging first")
    mem.add("memory", "the build uses make")
    mem.add("user", "Name: Ada")
    staged = Memory.open(root, actor="background", origin="review").remove("memory", "make")
    assert staged.staged
    with open_store(Home.open(root)) as store:
        for i in range(3):
            sid = store.start_session(id=f"s{i}", title=f"session {i}", started_at=1000.0 + i)
            answer = NewMessage("assistant", "ok")
            if i == 2:  # a tool result its source flagged as failed
                answer = NewMessage("tool", "No such file.", tool_call_id="t2", is_error=True)
            store.append_messages(sid, [NewMessage("user", f"记忆文件 question {i}"), answer])
        store.end_session("s1", "user_exit", ended_at=2000.0)


def test_migrate_and_status(home_path: Path, pg_dsn: str) -> None:
    home_path.mkdir(parents=True)
    url = ["--url", pg_dsn, "--schema", "cli_status"]
    try:
        first = run("--home", str(home_path), "db", "migrate", *url, "--json")
        every = [version for version, _, _ in MIGRATIONS]
        assert first.exit_code == 0 and json.loads(first.output)["applied"] == every
        again = run("--home", str(home_path), "db", "migrate", *url)
        assert "up to date" in again.output
        status = run("--home", str(home_path), "db", "status", *url, "--json")
        info = json.loads(status.output)
        assert info["schema_version"] == info["code_version"] == every[-1]
        assert info["pending_migrations"] == [] and info["counts"]["messages"] == 0
    finally:
        import psycopg

        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            conn.execute("DROP SCHEMA IF EXISTS cli_status CASCADE")


def test_files_home_needs_a_url(home_path: Path) -> None:
    home_path.mkdir(parents=True)
    result = run("--home", str(home_path), "db", "status")
    assert result.exit_code == 2 and "--url" in result.output


def test_copy_into_the_database_and_back(tmp_path: Path, pg_dsn: str, pg_schema: str) -> None:
    source, back = tmp_path / "source", tmp_path / "back"
    _files_home(source)
    to_db = run("--home", str(source), "db", "copy", "--from", str(source), "--to", pg_dsn,
                "--schema", pg_schema, "--json")  # fmt: skip
    assert to_db.exit_code == 0, to_db.output
    report = json.loads(to_db.output)
    assert report["verified"] is True
    kinds = report["kinds"]
    assert kinds["messages"]["copied"] == 6 and kinds["sessions"]["copied"] == 3
    assert kinds["MEMORY.md versions"]["copied"] == 1 and kinds["pending writes"]["copied"] == 1
    assert kinds["audit records"]["copied"] == kinds["audit records"]["source"] > 0

    # the database now serves a home on another host
    host = tmp_path / "host"
    host.mkdir()
    (host / "config.toml").write_text(
        f'store = "{pg_dsn}"\n[postgres]\nschema = "{pg_schema}"\n', encoding="utf-8"
    )
    mem = Memory.open(host)
    assert mem.entries("memory") == Memory.open(source).entries("memory")
    # provenance travels with the text: who wrote each entry, and when
    assert mem.provenance("user") == Memory.open(source).provenance("user")
    assert [p.actor for _, p in mem.provenance("memory")] == ["api", "api"]
    with open_store(Home.open(host)) as store:
        hits = store.search(parse_query("记忆"), SearchFilters())
        assert sorted(h.session_id for h in hits) == ["s0", "s1", "s2"]
        assert store.get_session("s1").end_reason == "user_exit"
        assert [m.is_error for m in store.messages("s2")] == [None, True]
    assert run("--home", str(host), "audit", "verify").exit_code == 0
    listed = json.loads(run("--home", str(host), "pending", "list", "--json").output)
    assert len(listed["pending"]) == 1

    # and back into a fresh home
    out = run("--home", str(source), "db", "copy", "--from", pg_dsn, "--schema", pg_schema,
              "--to", str(back))  # fmt: skip
    assert out.exit_code == 0 and "Verified." in out.output, out.output
    assert Memory.open(back).entries("memory") == Memory.open(source).entries("memory")
    assert Memory.open(back).provenance("memory") == Memory.open(source).provenance("memory")
    assert Memory.open(back).backend.read_version("memory", 1) == Memory.open(
        source
    ).backend.read_version("memory", 1)
    assert run("--home", str(back), "audit", "verify").exit_code == 0
    with open_store(Home.open(back)) as store:
        assert store.stats().messages == 6
        assert [m.is_error for m in store.messages("s2")] == [None, True]


def test_a_journal_torn_by_a_crash_copies_its_records_and_leaves_the_fragment(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    source = tmp_path / "source"
    _files_home(source)
    with open(source / "audit" / "journal.jsonl", "ab") as fh:
        fh.write(b'{"seq": 99, "action": "ad')  # a writer killed mid-append
    records = json.loads(run("--home", str(source), "audit", "verify", "--json").output)
    assert records["ok"] is True  # a torn tail alone leaves the journal ok
    out = run("--home", str(source), "db", "copy", "--from", str(source), "--to", pg_dsn,
              "--schema", pg_schema, "--json")  # fmt: skip
    assert out.exit_code == 0 and json.loads(out.output)["verified"] is True, out.output
    host = tmp_path / "host"
    host.mkdir()
    (host / "config.toml").write_text(
        f'store = "{pg_dsn}"\n[postgres]\nschema = "{pg_schema}"\n', encoding="utf-8"
    )
    copied = json.loads(run("--home", str(host), "audit", "verify", "--json").output)
    assert copied["ok"] is True and copied["records"] == records["records"]


def test_drift_backups_travel_into_the_database_and_back_with_their_text(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    source, back = tmp_path / "source", tmp_path / "back"
    _files_home(source)
    texts = ["hand-edited §§ notes\n", "a second drifted copy\n"]
    for text in texts:
        Memory.open(source).backend.save_backup("memory", text)
    where = ["--schema", pg_schema, "--json"]
    to_db = json.loads(run("db", "copy", "--from", str(source), "--to", pg_dsn, *where).output)
    assert to_db["verified"] and to_db["kinds"]["MEMORY.md backups"]["copied"] == 2
    out = json.loads(run("db", "copy", "--from", pg_dsn, "--to", str(back), *where).output)
    assert out["verified"] and out["kinds"]["MEMORY.md backups"]["copied"] == 2
    kept = Memory.open(back).backend.backups("memory")
    assert [Path(b.location).read_text(encoding="utf-8") for b in kept] == texts


def test_copy_refuses_to_clobber_a_different_memory(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    source = tmp_path / "source"
    _files_home(source)
    host = tmp_path / "host"
    host.mkdir()
    (host / "config.toml").write_text(
        f'store = "{pg_dsn}"\n[postgres]\nschema = "{pg_schema}"\n', encoding="utf-8"
    )
    Memory.open(host).add("memory", "already here")
    args = ["--home", str(source), "db", "copy", "--from", str(source), "--to", pg_dsn,
            "--schema", pg_schema]  # fmt: skip
    refused = run(*args)
    assert refused.exit_code == 1 and "--overwrite" in refused.output
    assert Memory.open(host).entries("memory") == ["already here"]  # nothing was written
    forced = run(*args, "--overwrite")
    assert forced.exit_code == 0, forced.output
    assert "already here" not in Memory.open(host).entries("memory")
    assert "audit journal was not copied" in forced.output  # the destination had its own


def test_project_stores_travel_into_the_database_and_back(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    from mnemic.curated import archive as arch
    from mnemic.curated.scope import open_project, stored_projects
    from mnemic.curated.view import MemoryView
    from mnemic.governance.storage import open_journal

    source, back, repo = tmp_path / "source", tmp_path / "back", tmp_path / "repo"
    _files_home(source)
    repo.mkdir()
    store = open_project(Home.open(source), repo, create=True)
    mem = Memory.open(store)
    mem.add("memory", "Builds with make.")
    mem.add("memory", "Staging host is stage-7.")
    mem.remove("memory", "stage-7")
    mem.add("memory", "Lints with ruff.")
    staged = Memory.open(store, actor="background", origin="review").remove("memory", "ruff")
    assert staged.staged
    args = ["--schema", pg_schema, "--json"]
    to_db = json.loads(run("db", "copy", "--from", str(source), "--to", pg_dsn, *args).output)
    assert to_db["verified"] is True, to_db
    label = f"project {repo}: "
    kinds = to_db["kinds"]
    assert kinds[label + "MEMORY.md"]["copied"] == 1
    assert kinds[label + "MEMORY.md versions"]["copied"] == 3  # the texts each write replaced
    assert kinds[label + "pending writes"]["copied"] == 1
    audit = kinds[label + "audit records"]
    records = list(open_journal(store.root, store.settings).records())
    assert audit["copied"] == audit["source"] == len(records) > 0

    host = tmp_path / "host"
    host.mkdir()
    (host / "config.toml").write_text(
        f'store = "{pg_dsn}"\n[postgres]\nschema = "{pg_schema}"\n', encoding="utf-8"
    )
    there = open_project(Home.open(host), repo, create=False)
    assert there.exists and [p.project.path for p in stored_projects(Home.open(host))] == [
        str(repo)
    ]
    view = MemoryView.open(there)
    assert view.entries("memory") == ["Builds with make.", "Lints with ruff."]
    assert [a.text for a in arch.listing(view)] == ["Staging host is stage-7."]
    assert run("--home", str(host), "audit", "verify", "--project", str(repo)).exit_code == 0
    listed = run("--home", str(host), "pending", "list", "--project", str(repo), "--json")
    assert len(json.loads(listed.output)["pending"]) == 1
    assert Memory.open(host).entries("memory") == Memory.open(source).entries("memory")

    out = json.loads(run("db", "copy", "--from", pg_dsn, "--to", str(back), *args).output)
    assert out["verified"] is True, out
    home = open_project(Home.open(back), repo, create=False)
    assert home.exists and MemoryView.open(home).entries("memory") == view.entries("memory")
    assert [a.text for a in arch.listing(MemoryView.open(home))] == ["Staging host is stage-7."]
    assert run("--home", str(back), "audit", "verify", "--project", str(repo)).exit_code == 0


def test_copy_prints_each_project_stores_counts_under_its_directory(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    from mnemic.curated.scope import open_project

    source, repo = tmp_path / "source", tmp_path / "repo"
    _files_home(source)
    repo.mkdir()
    Memory.open(open_project(Home.open(source), repo, create=True)).add("memory", "Builds.")
    out = run("db", "copy", "--from", str(source), "--to", pg_dsn, "--schema", pg_schema)
    assert out.exit_code == 0 and "Verified." in out.output, out.output
    lines = out.output.splitlines()
    at = lines.index(f"project {repo}:")
    assert lines[at + 1].split() == ["MEMORY.md", "1", "1", "0", "ok"]
    assert lines[at - 1].split()[0] == "audit"  # the global store's rows come first
