"""A team's developer setting up one PostgreSQL for three hosts, from the README and
docs/postgres.md (docs/first-week.md rows 64+, session 54, ux18): what a refused login,
a role without rights, two hosts migrating at once, a copied home, a newer schema and
the console said, and what they say now."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from starlette.testclient import TestClient

from _cli import cli
from mnemic.backends.postgres.db import Database
from mnemic.backends.postgres.migrations import SCHEMA_VERSION, migrate
from mnemic.curated.memory import Memory
from mnemic.errors import StorageError
from mnemic.home import Home
from mnemic.sessions import NewMessage, open_store
from mnemic.ui.app import build_app
from mnemic.ui.security import Access

pytestmark = pytest.mark.postgres


def _url(dsn: str, *, user: str | None = None, database: str | None = None) -> str:
    found = re.match(r"postgresql://([^@]+)@([^/]+)/(.+)", dsn)
    assert found, dsn
    return f"postgresql://{user or found[1]}@{found[2]}/{database or found[3]}"


def _home(root: Path, url: str, schema: str, **postgres: Any) -> dict[str, str]:
    root.mkdir(parents=True, exist_ok=True)
    extra = "".join(f"{k} = {json.dumps(v)}\n" for k, v in postgres.items())
    (root / "config.toml").write_text(
        f'store = "{url}"\n[postgres]\nschema = "{schema}"\n{extra}', encoding="utf-8"
    )
    return {"MNEMIC_HOME": str(root)}


@pytest.fixture
def role(pg_dsn: str) -> Iterator[str]:
    """A login role of its own (the test server trusts every login): no rights but
    CONNECT, as a team's second host's role starts."""
    name = f"host_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {name} LOGIN")
    yield name
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f"DROP OWNED BY {name}")
        conn.execute(f"DROP ROLE {name}")


def test_a_login_the_server_refused_is_not_called_unreachable(pg_dsn: str) -> None:
    """ "Cannot reach PostgreSQL ... check that the server is up and reachable", after
    waiting the whole connect_timeout, for a server that answered at once that the
    database (or the role, or the password) was wrong."""
    for url, said in (
        (_url(pg_dsn, database="no_such_db"), 'database "no_such_db" does not exist'),
        (_url(pg_dsn, user="no_such_role"), 'role "no_such_role" does not exist'),
    ):
        db = Database(url, connect_timeout=5.0)
        try:
            with pytest.raises(StorageError) as refused, db.connection():
                pass
        finally:
            db.pool.close(timeout=1.0)
        message = str(refused.value)
        assert "answered and refused the login" in message and said in message, message
        assert "Cannot reach" not in message and "check that the server is up" not in message
        assert "createdb, CREATE ROLE" in message


def test_a_role_without_rights_is_told_which_grants(
    home_path: Path, pg_dsn: str, pg_schema: str, role: str
) -> None:
    """A second host's role without rights on the schema: "postgresql://... could not be
    read (database error: permission denied for schema ...). ... Fix or move the file
    (see `mnemic memory doctor`)", a file's advice, and `db migrate` by a role that may
    not create schemas: "Could not write ... The previous version is intact"."""
    env = _home(home_path, _url(pg_dsn, user=role), pg_schema)
    shown = cli("memory", "add", "The VPN gateway is vpn-2.", env=env)
    assert shown.exit_code == 1
    assert f"The role {role} lacks a right it needs" in shown.output, shown.output
    assert "move the file" not in shown.output
    grants = re.findall(r"GRANT [^;]+;", shown.output)
    assert grants and all(f"SCHEMA {pg_schema} TO {role}" in g for g in grants), grants

    fresh = f"s_{uuid.uuid4().hex[:10]}"
    made = cli("db", "migrate", "--schema", fresh, env=env)
    assert made.exit_code == 1
    assert f"The role {role} may not create the schema {fresh}" in made.output, made.output
    assert f"GRANT CREATE ON DATABASE postgres TO {role};" in made.output
    assert "previous version is intact" not in made.output

    # the grants the refusal named are all the role needs to use the store
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        for grant in grants:
            conn.execute(grant)
    added = cli("memory", "add", "The VPN gateway is vpn-2.", env=env)
    assert added.exit_code == 0, added.output
    # and `db migrate` of the schema someone else made is "up to date", not a refusal
    again = cli("db", "migrate", env=env)
    assert again.exit_code == 0 and "is up to date" in again.output, again.output

    # its forget deletes the rows; it cannot vacuum the owner's tables, and says so (it
    # said "the rows are deleted and the tables vacuumed": PostgreSQL skips a table the
    # role does not own with a warning only)
    with open_store(Home.open(home_path)) as store:
        sid = store.start_session(source="host-b")
        store.append_message(sid, NewMessage("user", "the vpn-2 route is 10.4.0.0/16"))
    forgot = cli("forget", "--text", "vpn-2 route", "--yes", env=env)
    assert forgot.exit_code == 0, forgot.output
    assert "Removed 1 session message(s)" in forgot.output
    assert "the tables were not vacuumed (this database role does not own them)" in (forgot.output)


def test_migrate_holds_its_lock_between_migrations(
    pg_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two hosts ran `mnemic db migrate` on a new schema at once: the lock was taken per
    migration's transaction, so they took turns and each printed a share ("Applied
    migration(s) 4, 6, 7, 10, 11" and "1, 2, 3, 8, 14"), though docs/postgres.md said the
    first applies them all and the others find nothing to do. Here, after each migration
    commits, another session tries the lock: it must find it taken until the run ends."""
    import mnemic.backends.postgres.migrations as migrations

    schema = f"race_{uuid.uuid4().hex[:10]}"
    db = Database(pg_dsn, schema=schema)
    taken: list[bool] = []
    real_atomic = migrations.atomic

    @contextlib.contextmanager
    def atomic(conn: Any) -> Iterator[None]:
        with real_atomic(conn):
            yield
        with psycopg.connect(pg_dsn, autocommit=True) as other:  # another host, now
            got = other.execute("SELECT pg_try_advisory_lock(%s)", (db.key("migrate"),))
            row = got.fetchone()
            free = bool(row and row[0])
            if free:
                other.execute("SELECT pg_advisory_unlock(%s)", (db.key("migrate"),))
        taken.append(not free)

    monkeypatch.setattr(migrations, "atomic", atomic)
    try:
        assert migrate(db) == list(range(1, SCHEMA_VERSION + 1))
        assert len(taken) == SCHEMA_VERSION and all(taken), taken
        monkeypatch.setattr(migrations, "atomic", real_atomic)
        with psycopg.connect(pg_dsn, autocommit=True) as other:  # and released at the end
            row = other.execute("SELECT pg_try_advisory_lock(%s)", (db.key("migrate"),))
            assert row.fetchone() == (True,)
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def test_db_copy_into_a_database_says_how_to_use_the_copy(tmp_path: Path, pg_dsn: str) -> None:
    """`db copy --from HOME --to postgresql://...` ended "Verified.": the home went on
    using its files, and nothing said what to put in config.toml to use the copy."""
    source = tmp_path / "host-c"
    source.mkdir()
    Memory.open(source).add("memory", "Host C runs the nightly report at 02:00 UTC.")
    schema = f"copy_{uuid.uuid4().hex[:10]}"
    try:
        r = cli("db", "copy", "--from", str(source), "--to", pg_dsn, "--schema", schema)
        assert r.exit_code == 0, r.output
        tail = r.output.split("Verified.\n", 1)[1]
        assert tail.startswith(f"Next: {source} still uses its own files"), tail
        assert f'store = "{pg_dsn}"' in tail and f'schema = "{schema}"' in tail
        assert str(source / "config.toml") in tail
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def test_status_and_init_say_what_a_newer_or_missing_schema_needs(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    """`db status` of a schema newer than this mnemic listed "version 15 (this mnemic:
    14)" and nothing to do; `mnemic init` on a home naming a schema not migrated yet
    said "Next: mnemic memory add ...", which then failed."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(
            f"INSERT INTO {pg_schema}.mnemic_migrations VALUES (%s, 'from a later mnemic', 0)",
            (SCHEMA_VERSION + 1,),
        )
    env = _home(tmp_path / "newer", pg_dsn, pg_schema)
    status = cli("db", "status", env=env)
    assert f"newer      this mnemic knows versions up to {SCHEMA_VERSION}" in status.output
    init = cli("init", env=env)
    assert "newer than this mnemic" in init.output
    assert "Next: pip install -U 'mnemic[postgres]'" in init.output

    missing = f"none_{uuid.uuid4().hex[:10]}"
    init = cli("init", env=_home(tmp_path / "missing", pg_dsn, missing))
    assert init.exit_code == 0
    assert f"PostgreSQL at {pg_dsn} (schema {missing})" in init.output
    assert "The schema does not exist yet" in init.output
    assert "Next: mnemic db migrate" in init.output


def test_memory_status_and_the_console_name_the_database(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    """`memory status` printed the two bars and nothing of where they live (its --json
    gives each target's "file", the database); the console's header showed the home
    directory only, which holds none of the memory."""
    home = tmp_path / "host-b"
    env = _home(home, pg_dsn, pg_schema)
    Memory.open(home).add("memory", "Deploys to prod need a second reviewer.")
    status = cli("memory", "status", env=env)
    where = f"PostgreSQL at {pg_dsn} (schema {pg_schema})"
    assert f"(stored in {where}, shared" in status.output, status.output

    token = "ux18-console-token-0123456789abcdef0123"
    app = build_app(Home.open(home), Access("127.0.0.1", 8770, token))
    client = TestClient(app, base_url="http://127.0.0.1:8770", follow_redirects=False)
    assert client.get(f"/?token={token}").status_code == 303
    page = client.get("/memory").text
    header = page.split('<span class="home"', 1)[1].split("</span>", 1)[0]
    assert str(home) in header and where in header, header


def test_an_import_cut_off_midway_says_what_it_wrote(
    tmp_path: Path, pg_dsn: str, pg_schema: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A 100,000-message `sessions import` whose connection the server ended in its
    seventh batch said "Session history ... is not available (write failed: 'terminating
    connection due to administrator command'). Nothing was written.": 594 sessions of the
    batches before were, and stay; above it stood psycopg_pool's "discarding closed
    connection: <psycopg.Connection [BAD] at 0x...>". Here the server refuses the fourth
    batch (a trigger), and the connection of another call is ended under it."""
    from mnemic.errors import SessionStoreError
    from mnemic.sessions.importing.importers import import_path

    home = tmp_path / "host-b"
    _home(home, pg_dsn, pg_schema)
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(
            f"CREATE FUNCTION {pg_schema}.poison() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN IF NEW.content LIKE '%%poison%%' THEN "
            "RAISE EXCEPTION 'the server went away'; END IF; RETURN NEW; END $$"
        )
        conn.execute(
            f"CREATE TRIGGER poison BEFORE INSERT ON {pg_schema}.messages "
            f"FOR EACH ROW EXECUTE FUNCTION {pg_schema}.poison()"
        )
    lines = [
        json.dumps({"session_id": f"s{i}", "role": role, "content": text})
        for i in range(4)
        for role, text in (("user", f"question {i}"), ("assistant", "poison" if i == 3 else "ok"))
    ]
    source = tmp_path / "history.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with open_store(Home.open(home)) as store:
        with pytest.raises(SessionStoreError) as failed:
            import_path(store, source, batch=3)  # a session a batch
        said = str(failed.value)
        assert "Nothing was written" not in said, said
        assert "the batches before it were written and stay (3 session(s), 6 new" in said
        assert "Run the same import again" in said
        assert [s.id for s in store.list_sessions(limit=10)] == ["s2", "s1", "s0"]

        # a connection the server ended, given back to the pool: no warning of the pool's
        with caplog.at_level(logging.WARNING, logger="psycopg.pool"):
            db = Database.for_settings(Home.open(home).settings)
            with pytest.raises(psycopg.OperationalError), db.connection() as conn:
                pid = conn.info.backend_pid
                with psycopg.connect(pg_dsn, autocommit=True) as other:
                    other.execute("SELECT pg_terminate_backend(%s)", (pid,))
                conn.execute("SELECT 1")
        assert not [r for r in caplog.records if "discarding" in r.getMessage()], caplog.text


def test_a_call_after_the_database_came_back_is_not_refused_from_memory(
    pg_dsn: str, role: str
) -> None:
    """After a refused wait, a process refuses further calls at once for connect_timeout
    (a command reading several stores waited once per store). An MCP server whose
    database came back answered "Cannot reach PostgreSQL" for those seconds without
    trying, though its pool had already reconnected in the background. Here the role may
    not log in, then may: once the pool holds a connection, the next call goes through."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f"ALTER ROLE {role} NOLOGIN")
    db = Database(_url(pg_dsn, user=role), connect_timeout=60.0)
    try:
        with pytest.raises(StorageError) as refused, db.connection():
            pass
        assert "not permitted to log in" in str(refused.value)
        assert "answered and refused the login" in str(refused.value)
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            conn.execute(f"ALTER ROLE {role} LOGIN")
        deadline = time.monotonic() + 60  # the pool's own retries, with their backoff
        while db.pool.get_stats().get("pool_available", 0) == 0:
            assert time.monotonic() < deadline, "the pool never reconnected"
            time.sleep(0.05)
        with db.raw_connection() as conn:  # within connect_timeout of the refusal
            assert conn.execute("SELECT current_user").fetchone() == (role,)
    finally:
        db.pool.close(timeout=1.0)
