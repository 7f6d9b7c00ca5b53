"""Portable bundles: ``mnemic export --bundle`` / ``mnemic import --bundle``.

A filled home (global and project memory, archived entries, sessions with tool calls,
skills, a pending write, audit records) goes through a bundle into a fresh home on
files and on PostgreSQL, and reads back the same through the CLI; a damaged, foreign,
escaping or truncated bundle, and a home that is not empty, are refused with nothing
written.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import tarfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from _backends import Kit, pg_config
from mnemic.cli import main
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project, stored_projects
from mnemic.home import Home
from mnemic.ops.entry_usage import count_usage
from mnemic.sessions import NewMessage, open_store


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> Any:
    result = run(home, *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output) if "--json" in args else result.output


SKILL = "---\nname: deploy\ndescription: Ship the service.\n---\n# Steps\n1. Run `make ship`.\n"


def fill(root: Path, project: Path | None = None, config: str = "") -> None:
    """Every kind of thing a home holds."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "config.toml").write_text(config + '\n[approval]\nmemory_background = "stage"\n')
    mem = Memory.open(root)
    mem.add("memory", "deploys go through staging first")
    mem.add("memory", "the build uses make")
    mem.add("memory", "the old CI runs on Jenkins")
    mem.add("user", "Name: Ada")
    mem.remove("memory", "Jenkins")  # archived
    mem.replace("memory", "uses make", "the build uses make -j8")  # archived, replaced
    staged = Memory.open(root, actor="background", origin="review").remove("memory", "staging")
    assert staged.staged
    if project is not None:
        project.mkdir(exist_ok=True)
        pmem = Memory.open(open_project(Home.open(root), project, create=True))
        pmem.add("memory", "this project builds with cargo")
        pmem.add("memory", "tests need a database")
        pmem.remove("memory", "database")
    created = ok(root, "tool", "skill_manage", json.dumps(
        {"action": "create", "name": "deploy", "content": SKILL}))  # fmt: skip
    assert '"success": true' in created
    notes = root / "skills" / "deploy" / "references" / "release notes.md"
    notes.parent.mkdir(parents=True)
    notes.write_text("Tag, then ship.\n")  # a supporting file added by hand
    script = root / "skills" / "deploy" / "scripts" / "ship.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\nmake ship\n")
    script.chmod(0o700)
    with open_store(Home.open(root)) as store:
        for i in range(3):
            sid = store.start_session(id=f"s{i}", title=f"session {i}", started_at=1000.0 + i)
            call = {"id": f"c{i}", "type": "function",
                    "function": {"name": "memory", "arguments": "{}"}}  # fmt: skip
            store.append_messages(
                sid,
                [
                    NewMessage("user", f"记忆文件 question {i}", timestamp=1000.5 + i),
                    NewMessage("assistant", None, tool_calls=[call], timestamp=1000.6 + i),
                    NewMessage(
                        "tool",
                        "saved",
                        tool_name="memory",
                        tool_call_id=f"c{i}",
                        timestamp=1000.7 + i,
                        is_error=(None, True, False)[i],  # the failure flag travels too
                    ),
                    NewMessage("assistant", "done", timestamp=1000.8 + i),
                    NewMessage("user", "yes", timestamp=1000.9 + i),  # the same words twice
                    NewMessage("user", "yes", timestamp=1000.9 + i),
                ],
            )
        store.end_session("s1", "user_exit", ended_at=2000.0)
        sid = store.start_session(id="s3", title="release", started_at=3000.0)
        asked = NewMessage("user", "the build uses make -j8 today?")
        store.append_messages(sid, [asked, NewMessage("assistant", "yes: the build uses make -j8")])
        assert count_usage(Home.open(root), store).uses == 1  # the entry mattered in s3
        if project is not None:  # and the project's entry in s4, counted in its own cache
            sid = store.start_session(id="s4", title="cargo", started_at=4000.0)
            said = NewMessage("user", "this project builds with cargo, right?")
            store.append_messages(sid, [said, NewMessage("assistant", "it builds with cargo")])
            where = open_project(Home.open(root), project, create=False)
            assert count_usage(where, store, session_ids=["s4"]).uses == 1


def views(home: Path, project: Path | None = None, other: Path | None = None) -> dict[str, Any]:
    """What a person reads of the home through the CLI."""
    out: dict[str, Any] = {
        "memory": ok(home, "memory", "show", "--json"),
        "long": ok(home, "memory", "show", "--long", "--json"),
        "archive": ok(home, "memory", "archive", "list", "--json"),
        "pending": ok(home, "pending", "list", "--json"),
        "audit": ok(home, "audit", "verify", "--json"),
        "skills": ok(home, "skills", "list", "--json"),
        "sessions": ok(home, "sessions", "list", "--json", "-n", "100"),
    }
    out["exports"] = [ok(home, "sessions", "export", s["id"]) for s in out["sessions"]]
    for name, directory in (("project", project), ("other", other)):
        if directory is None:
            continue
        for kind, args in (("memory", ("memory", "show", "--long")),
                           ("archive", ("memory", "archive", "list")),
                           ("audit", ("audit", "verify"))):  # fmt: skip
            out[f"{name} {kind}"] = ok(home, *args, "--project", str(directory), "--json")
    return _without_locations(out)


def _without_locations(data: Any) -> Any:
    """``data`` without the ``file`` fields (where a target lives differs by home)."""
    if isinstance(data, dict):
        return {k: _without_locations(v) for k, v in data.items() if k != "file"}
    if isinstance(data, list):
        return [_without_locations(v) for v in data]
    return data


def test_a_filled_home_round_trips_through_a_bundle_into_a_fresh_home(
    tmp_path: Path, backend: Kit
) -> None:
    source, bundle = tmp_path / "source", tmp_path / "home.mnemic"
    fill(source)
    report = ok(source, "export", "--bundle", str(bundle), "--json")
    assert report["counts"]["sessions"] == 4 and report["counts"]["messages"] == 20
    assert report["counts"]["pending"] == 1 and report["counts"]["audit_records"] > 5
    assert os.stat(bundle).st_mode & 0o777 == 0o600  # it holds everything the home holds
    dest = backend.write_config()
    dry = ok(dest, "import", "--bundle", str(bundle), "--dry-run", "--json")
    assert dry["dry_run"] is True and dry["counts"] == report["counts"]
    assert ok(dest, "memory", "show", "--json")["memory"]["entries"] == []
    ok(dest, "import", "--bundle", str(bundle))
    before, after = views(source), views(dest)
    assert after["audit"]["ok"] is True
    assert after == before
    assert [e["text"] for e in after["archive"]["entries"]] != []
    assert (dest / "skills" / "deploy" / "references" / "release notes.md").is_file()
    assert os.stat(dest / "skills" / "deploy" / "scripts" / "ship.sh").st_mode & 0o777 == 0o700
    pending = after["pending"]["pending"][0]["id"]
    ok(dest, "pending", "approve", pending)  # the staged write still applies
    assert ok(dest, "memory", "show", "--json")["memory"]["entries"] == ["the build uses make -j8"]
    assert ok(dest, "audit", "verify", "--json")["ok"] is True


def test_project_stores_round_trip_into_a_files_home(tmp_path: Path) -> None:
    source, dest, bundle = tmp_path / "source", tmp_path / "dest", tmp_path / "b.mnemic"
    project = tmp_path / "repo"
    fill(source, project)
    ok(source, "export", "--bundle", str(bundle))
    ok(dest, "import", "--bundle", str(bundle))
    before, after = views(source, project), views(dest, project)
    assert after["project audit"]["ok"] is True
    opened = [p for p in dest.rglob("*") if (p.stat().st_mode & 0o077)]
    assert opened == []  # a home is private: directories 0700, files 0600
    assert after["project memory"]["memory"]["entries"] == ["this project builds with cargo"]
    assert after["project archive"]["entries"] != []
    assert after == before


@pytest.mark.postgres
def test_project_stores_round_trip_into_a_postgresql_home(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    source, dest, bundle = tmp_path / "source", tmp_path / "dest", tmp_path / "b.mnemic"
    repo, other = tmp_path / "repo", tmp_path / "other"
    fill(source, repo)
    other.mkdir()
    omem = Memory.open(open_project(Home.open(source), other, create=True))
    omem.add("memory", "the other project ships on Fridays")
    omem.replace("memory", "Fridays", "the other project ships on Mondays")  # archived
    ok(source, "export", "--bundle", str(bundle))
    dest.mkdir()
    (dest / "config.toml").write_text(pg_config(pg_dsn, pg_schema))
    ok(dest, "import", "--bundle", str(bundle))
    before, after = views(source, repo, other), views(dest, repo, other)
    assert after["project audit"]["ok"] is True and after["other audit"]["ok"] is True
    assert after["project memory"]["memory"]["entries"] == ["this project builds with cargo"]
    assert [u["uses"] for u in after["project memory"]["memory"]["use"]] == [1]  # its cache
    assert after["other memory"]["memory"]["entries"] == ["the other project ships on Mondays"]
    assert after["other archive"]["entries"] != []
    assert after == before
    stores = {(p.project.id, p.project.path) for p in stored_projects(Home.open(dest))}
    assert stores == {(p.project.id, p.project.path) for p in stored_projects(Home.open(source))}
    assert len(stores) == 2


@pytest.mark.postgres
def test_a_postgresql_home_exports_a_bundle_a_files_home_imports(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    source, dest, bundle = tmp_path / "source", tmp_path / "dest", tmp_path / "b.mnemic"
    fill(source, config=pg_config(pg_dsn, pg_schema))
    ok(source, "export", "--bundle", str(bundle))
    ok(dest, "import", "--bundle", str(bundle))
    assert views(dest) == views(source)


@pytest.mark.postgres
def test_a_postgresql_homes_project_stores_travel_into_a_files_home(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    """A project store of a database home is rows beside the global store's: the bundle
    carries them as it carries a files home's project directory."""
    source, dest, bundle = tmp_path / "source", tmp_path / "dest", tmp_path / "b.mnemic"
    repo = tmp_path / "repo"
    fill(source, repo, config=pg_config(pg_dsn, pg_schema))
    ok(source, "export", "--bundle", str(bundle))
    ok(dest, "import", "--bundle", str(bundle))
    before, after = views(source, repo), views(dest, repo)
    assert after["project memory"]["memory"]["entries"] != []
    assert after["project archive"]["entries"] != []
    assert after == before


def test_a_home_that_is_not_empty_is_refused(tmp_path: Path) -> None:
    source, dest, bundle = tmp_path / "source", tmp_path / "dest", tmp_path / "b.mnemic"
    fill(source)
    ok(source, "export", "--bundle", str(bundle))
    dest.mkdir()
    Memory.open(dest).add("memory", "already here")
    result = run(dest, "import", "--bundle", str(bundle))
    assert result.exit_code == 1
    assert "is not empty (it holds MEMORY.md, audit records)" in result.output
    assert "Nothing was imported" in result.output
    assert ok(dest, "memory", "show", "--json")["memory"]["entries"] == ["already here"]
    assert not any(p.name.startswith(".bundle-import-") for p in dest.iterdir())


# -- damaged and foreign bundles -------------------------------------------------------


def _members(bundle: Path) -> list[tuple[tarfile.TarInfo, bytes]]:
    with tarfile.open(bundle, "r:gz") as tar:
        return [(i, tar.extractfile(i).read() if i.isfile() else b"") for i in tar]  # type: ignore[union-attr]


def _write(bundle: Path, members: list[tuple[tarfile.TarInfo, bytes]]) -> None:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if info.isfile() else None)
    bundle.write_bytes(gzip.compress(buf.getvalue()))


@pytest.fixture
def made(tmp_path: Path) -> Path:
    """A bundle of a filled home."""
    source, bundle = tmp_path / "source", tmp_path / "b.mnemic"
    fill(source)
    ok(source, "export", "--bundle", str(bundle))
    return bundle


def _refused(tmp_path: Path, bundle: Path, *expected: str) -> None:
    dest = tmp_path / "dest"
    result = run(dest, "import", "--bundle", str(bundle))
    assert result.exit_code == 1, result.output
    for text in (*expected, "Nothing was imported"):
        assert text in result.output
    left = sorted(p.name for p in dest.iterdir()) if dest.exists() else []
    assert left == []  # nothing written, no staging left behind


def test_a_bundle_of_another_version_is_refused_naming_the_version_read(
    tmp_path: Path, made: Path
) -> None:
    members = _members(made)
    manifest = json.loads(members[0][1])
    manifest["version"] = 2
    members[0] = (members[0][0], json.dumps(manifest).encode())
    _write(made, members)
    _refused(tmp_path, made, "of version 2", "reads version 1 only")


def test_a_member_that_differs_from_its_checksum_is_refused(tmp_path: Path, made: Path) -> None:
    members = _members(made)
    at = next(i for i, (info, _) in enumerate(members) if info.name == "global/MEMORY.md")
    info, data = members[at]
    members[at] = (info, data.replace(b"staging", b"STAGING"))
    _write(made, members)
    _refused(tmp_path, made, "'global/MEMORY.md' differs from the manifest's checksum")


@pytest.mark.parametrize("name", ["../escaped.txt", "/etc/escaped", "skills/../../x"])
def test_a_member_whose_path_escapes_is_refused(tmp_path: Path, made: Path, name: str) -> None:
    members = _members(made)
    info = tarfile.TarInfo(name)
    members.append((info, b"planted"))
    _write(made, members)
    _refused(tmp_path, made, "is a path outside the bundle")
    assert not (tmp_path / "escaped.txt").exists() and not (tmp_path / "x").exists()


def test_a_link_in_the_bundle_is_refused(tmp_path: Path, made: Path) -> None:
    members = _members(made)
    link = tarfile.TarInfo("skills/deploy/evil")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    members.append((link, b""))
    _write(made, members)
    _refused(tmp_path, made, "'skills/deploy/evil' is a link")


def test_a_truncated_bundle_is_refused(tmp_path: Path, made: Path) -> None:
    data = made.read_bytes()
    made.write_bytes(data[: len(data) // 2])
    _refused(tmp_path, made, "truncated or damaged")


def test_a_file_that_is_no_bundle_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "notes.tar.gz"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("notes.txt")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"hi"))
    other.write_bytes(gzip.compress(buf.getvalue()))
    _refused(tmp_path, other, "does not start with manifest.json")


# -- vectors -----------------------------------------------------------------------------


def _vectors(root: Path) -> list[tuple[str, int, str, bytes]]:
    with open_store(Home.open(root)) as store:
        assert store.vectors is not None
        return sorted(store.vectors.dump())  # message ids are each store's own


def test_vectors_travel_only_when_asked(tmp_path: Path, backend: Kit) -> None:
    pytest.importorskip("numpy")
    from mnemic.embedding.standin import StandinEmbedder
    from mnemic.sessions.search.embed import backfill

    source = tmp_path / "source"
    fill(source)
    with open_store(Home.open(source)) as store:
        assert backfill(store, StandinEmbedder()).done == 14  # user and assistant texts
    made = _vectors(source)
    plain, full = tmp_path / "plain.mnemic", tmp_path / "full.mnemic"
    assert "vectors" not in ok(source, "export", "--bundle", str(plain), "--json")["counts"]
    report = ok(source, "export", "--bundle", str(full), "--with-vectors", "--json")
    assert report["counts"]["vectors"] == 14
    dest = backend.write_config()
    ok(dest, "import", "--bundle", str(full))
    assert _vectors(dest) == made
    other = tmp_path / "other"
    ok(other, "import", "--bundle", str(plain))
    assert _vectors(other) == []


# -- all or nothing ----------------------------------------------------------------------


def test_a_files_import_that_fails_while_moving_in_puts_the_home_back(
    tmp_path: Path, made: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The failing rename is simulated (a mock): as root on one file system no real
    rename of a directory into an empty home can be made to fail half-way."""
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "config.toml").write_text("")
    ok(dest, "sessions", "list", "--json")  # an empty sessions.db is there
    before = sorted(p.name for p in dest.iterdir())
    real_rename = os.rename

    def rename(src: Any, dst: Any) -> None:
        if Path(dst) == dest / "skills":
            raise OSError(5, "Input/output error")
        real_rename(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    result = run(dest, "import", "--bundle", str(made))
    monkeypatch.setattr(os, "rename", real_rename)
    assert result.exit_code == 1
    assert "what was moved was put back. Nothing was imported." in result.output
    assert sorted(p.name for p in dest.iterdir()) == before
    assert ok(dest, "memory", "show", "--json")["memory"]["entries"] == []
    assert ok(dest, "audit", "verify", "--json")["records"] == 0
    assert ok(dest, "sessions", "list", "--json") == []
    ok(dest, "import", "--bundle", str(made))  # and the import can be run again
    assert len(ok(dest, "sessions", "list", "--json")) == 4


@pytest.mark.postgres
def test_a_postgresql_import_that_fails_part_way_leaves_the_schema_empty(
    tmp_path: Path, made: Path, pg_dsn: str, pg_schema: str
) -> None:
    from _backends import PostgresKit

    kit = PostgresKit(tmp_path / "dest", pg_dsn, pg_schema)
    dest = kit.write_config()
    # the server refuses the third session: memory, pending and audit are written by then
    kit.sql(
        "CREATE FUNCTION {s}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "IF NEW.id = 's2' THEN RAISE EXCEPTION 'refused by a test'; END IF; RETURN NEW; "
        "END $$"
    )
    kit.sql("CREATE TRIGGER refuse BEFORE INSERT ON {s}.sessions FOR EACH ROW "
            "EXECUTE FUNCTION {s}.refuse()")  # fmt: skip
    result = run(dest, "import", "--bundle", str(made))
    assert result.exit_code == 1
    for table in ("curated", "curated_versions", "pending", "audit", "sessions", "messages"):
        assert kit.sql(f"SELECT count(*) FROM {{s}}.{table}") == [(0,)], table
    assert kit.sql("SELECT count FROM {s}.audit_head") == [(0,)]
    assert not (dest / "skills").exists()
    kit.sql("DROP TRIGGER refuse ON {s}.sessions")
    ok(dest, "import", "--bundle", str(made))  # and the import can be run again
    assert ok(dest, "audit", "verify", "--json")["ok"] is True
    assert len(ok(dest, "sessions", "list", "--json")) == 4


@pytest.mark.postgres
def test_a_postgresql_import_that_fails_after_the_project_stores_takes_them_back(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    from _backends import PostgresKit

    source, bundle, repo = tmp_path / "source", tmp_path / "b.mnemic", tmp_path / "repo"
    fill(source, repo)
    ok(source, "export", "--bundle", str(bundle))
    kit = PostgresKit(tmp_path / "dest", pg_dsn, pg_schema)
    dest = kit.write_config()
    # the sessions go in after every store's memory, queue and journal
    kit.sql(
        "CREATE FUNCTION {s}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "RAISE EXCEPTION 'refused by a test'; END $$"
    )
    kit.sql("CREATE TRIGGER refuse BEFORE INSERT ON {s}.sessions FOR EACH ROW "
            "EXECUTE FUNCTION {s}.refuse()")  # fmt: skip
    assert run(dest, "import", "--bundle", str(bundle)).exit_code == 1
    for table in ("projects", "curated", "curated_versions", "pending", "audit"):
        assert kit.sql(f"SELECT count(*) FROM {{s}}.{table}") == [(0,)], table
    assert {count for (count,) in kit.sql("SELECT count FROM {s}.audit_head")} == {0}
    assert not (dest / "projects").exists() or not any((dest / "projects").rglob("*.json"))
    kit.sql("DROP TRIGGER refuse ON {s}.sessions")
    ok(dest, "import", "--bundle", str(bundle))  # and the import can be run again
    assert views(dest, repo) == views(source, repo)


def test_a_dry_run_checks_and_counts_and_writes_nothing(tmp_path: Path, made: Path) -> None:
    dest = tmp_path / "dest"
    dest.mkdir()
    report = ok(dest, "import", "--bundle", str(made), "--dry-run", "--json")
    assert report["dry_run"] is True and report["counts"]["sessions"] == 4
    assert list(dest.iterdir()) == []


def test_a_member_longer_than_the_manifest_says_is_refused_unread(
    tmp_path: Path, made: Path
) -> None:
    members = _members(made)
    at = next(i for i, (info, _) in enumerate(members) if info.name == "sessions.jsonl")
    info, data = members[at]
    members[at] = (info, data + b"x" * 100_000)
    _write(made, members)
    _refused(tmp_path, made, "'sessions.jsonl' is ", "bytes where the manifest says")


def test_a_dry_run_before_a_source_is_refused_rather_than_ignored(tmp_path: Path) -> None:
    hermes = tmp_path / "hermes"
    (hermes / "memories").mkdir(parents=True)
    (hermes / "memories" / "MEMORY.md").write_text("the build uses make")
    result = run(tmp_path / "dest", "import", "--dry-run", "hermes", str(hermes))
    assert result.exit_code == 2 and "put them after it" in result.output
    assert not (tmp_path / "dest" / "memories" / "MEMORY.md").exists()
    listing = run(tmp_path / "dest", "import")
    assert listing.exit_code == 0 and "--bundle" in listing.output and "hermes" in listing.output


def test_a_journal_torn_by_a_crash_still_travels_and_verifies(tmp_path: Path) -> None:
    source, dest, bundle = tmp_path / "source", tmp_path / "dest", tmp_path / "b.mnemic"
    fill(source)
    with open(source / "audit" / "journal.jsonl", "ab") as fh:
        fh.write(b'{"seq": 99, "action": "ad')  # a writer killed mid-append
    before = ok(source, "audit", "verify", "--json")
    assert before["ok"] is True  # a torn tail alone leaves the journal ok
    ok(source, "export", "--bundle", str(bundle))
    ok(dest, "import", "--bundle", str(bundle))
    after = ok(dest, "audit", "verify", "--json")
    assert after["ok"] is True and after["records"] == before["records"]


def _forge(bundle: Path, name: str, data: bytes) -> None:
    """Replace a member and its manifest entry, as someone editing the bundle would."""
    members = _members(bundle)
    manifest = json.loads(members[0][1])
    for entry in manifest["members"]:
        if entry["path"] == name:
            entry["size"], entry["sha256"] = len(data), hashlib.sha256(data).hexdigest()
    members[0] = (members[0][0], json.dumps(manifest).encode())
    members = [(i, data if i.name == name else d) for i, d in members]
    _write(bundle, members)


def test_a_pending_write_naming_a_queue_outside_the_home_is_refused(
    tmp_path: Path, made: Path
) -> None:
    members = dict((i.name, d) for i, d in _members(made))
    record = json.loads(members["global/pending.jsonl"])
    record["subsystem"] = "../../../escaped"
    _forge(made, "global/pending.jsonl", json.dumps(record).encode() + b"\n")
    _refused(tmp_path, made, "is not a pending write", "unknown subsystem")
    assert not (tmp_path / "escaped").exists()


def test_a_forged_journal_is_refused_before_anything_is_written(tmp_path: Path, made: Path) -> None:
    members = dict((i.name, d) for i, d in _members(made))
    lines = members["global/audit.jsonl"].split(b"\n")
    _forge(made, "global/audit.jsonl", b"\n".join(lines[:1] + lines[2:]))  # a record removed
    _refused(tmp_path, made, "the audit journal of global does not verify")


@pytest.mark.postgres
def test_a_postgresql_import_killed_half_way_is_named_by_the_next_import(
    tmp_path: Path, made: Path, pg_dsn: str, pg_schema: str
) -> None:
    import subprocess
    import sys
    import time

    import psycopg

    from _backends import PostgresKit

    kit = PostgresKit(tmp_path / "dest", pg_dsn, pg_schema)
    dest = kit.write_config()
    # the first session's insert waits for a lock this test holds: the import is then
    # half-way (memory, pending and audit written) when it is killed
    kit.sql(
        "CREATE FUNCTION {s}.wait() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "PERFORM pg_advisory_lock(424242); RETURN NEW; END $$"
    )
    kit.sql("CREATE TRIGGER wait BEFORE INSERT ON {s}.sessions FOR EACH ROW "
            "EXECUTE FUNCTION {s}.wait()")  # fmt: skip
    with psycopg.connect(pg_dsn, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(424242)")
        importer = subprocess.Popen(
            [sys.executable, "-m", "mnemic", "--home", str(dest), "import", "--bundle", str(made)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 120
            waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            while holder.execute(waiting).fetchone() != (1,):  # type: ignore[union-attr]
                assert importer.poll() is None, "the import ended before it reached sessions"
                assert time.monotonic() < deadline, "the import never reached sessions"
                time.sleep(0.05)  # between looks at the lock table, not a wait for an event
        finally:
            importer.kill()
            importer.wait()
    assert kit.sql("SELECT count(*) FROM {s}.audit") != [(0,)]  # it was half-way
    kit.sql("DROP TRIGGER wait ON {s}.sessions")
    again = run(dest, "import", "--bundle", str(made))
    assert again.exit_code == 1
    assert "was interrupted" in again.output and "DROP SCHEMA" in again.output


def test_the_session_import_reports_its_progress_to_the_end(tmp_path: Path, made: Path) -> None:
    from mnemic.ops.bundle.restore import import_bundle

    seen: list[Any] = []
    report = import_bundle(Home.open(tmp_path / "dest"), made, progress=seen.append)
    last = seen[-1]
    assert last.finished and last.fraction == 1.0 and last.eta == 0.0
    assert (last.messages, last.sessions) == (report.counts["messages"], 4)


def _with_attachments(root: Path) -> tuple[bytes, str]:
    from mnemic.sessions.attachments import AttachmentStore
    from test_sessions_attachments import tiny_png

    home = Home.open(root)
    link = AttachmentStore.of_home(home).put(tiny_png(), name="dot.png", caption="a dot")
    with open_store(home) as store:
        sid = store.start_session(source="cli")
        held = (link,)
        store.append_messages(
            sid, [NewMessage("user", f"see\n{link.placeholder()}", attachments=held)]
        )
    return tiny_png(), sid


def test_attachments_travel_in_a_bundle(tmp_path: Path, backend: Kit) -> None:
    from mnemic.sessions.attachments import AttachmentStore

    source, bundle = tmp_path / "source", tmp_path / "b.mnemic"
    data, sid = _with_attachments(source)
    report = ok(source, "export", "--bundle", str(bundle), "--json")
    assert report["counts"]["attachments"] == 1
    dest = backend.write_config()
    ok(dest, "import", "--bundle", str(bundle))
    home = Home.open(dest)
    with open_store(home) as store:
        [found] = store.find_attachments(session_id=sid)
    assert (found.attachment.name, found.attachment.caption) == ("dot.png", "a dot")
    assert AttachmentStore.of_home(home).read(found.attachment.sha256) == data


def test_a_bundle_whose_attachment_bytes_were_changed_is_refused(tmp_path: Path) -> None:
    source, bundle = tmp_path / "source", tmp_path / "b.mnemic"
    _with_attachments(source)
    ok(source, "export", "--bundle", str(bundle))
    members = {}
    with tarfile.open(bundle, "r:gz") as tar:
        for member in tar.getmembers():
            fh = tar.extractfile(member)
            assert fh is not None
            members[member.name] = fh.read()
    text = members["sessions.jsonl"].decode()
    rec = json.loads(text.splitlines()[0])
    forged = base64.b64encode(b"other bytes").decode()
    members["sessions.jsonl"] = text.replace(rec["attachments"][0]["data"], forged).encode()
    manifest = json.loads(members["manifest.json"])
    body = members["sessions.jsonl"]
    for entry in manifest["members"]:
        if entry["path"] == "sessions.jsonl":  # the checksum made to match: only the bytes lie
            entry.update(size=len(body), sha256=hashlib.sha256(body).hexdigest())
    members["manifest.json"] = json.dumps(manifest).encode()
    with tarfile.open(bundle, "w:gz") as tar:
        for name in ["manifest.json", *(n for n in members if n != "manifest.json")]:
            info = tarfile.TarInfo(name)
            info.size = len(members[name])
            tar.addfile(info, io.BytesIO(members[name]))
    dest = tmp_path / "dest"
    result = run(dest, "import", "--bundle", str(bundle))
    assert result.exit_code != 0 and "do not match" in result.output
    assert not (dest / "attachments").exists() and not (dest / "sessions.db").exists()
