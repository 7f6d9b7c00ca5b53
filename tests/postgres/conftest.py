"""PostgreSQL fixtures: one throwaway server per test session, one schema per test.

The server is started on loopback by :func:`mnemic.testing.postgres.scratch_server`
(as ``postgres`` through ``runuser`` when the tests run as root), or ``TEST_PG_DSN``
names an existing one. Without server binaries or psycopg the tests are skipped with the
reason. Every test gets its own schema, so tests never see each other's rows.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def pg_dsn() -> Iterator[str]:
    """A PostgreSQL server URL for this test session."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError as exc:  # pragma: no cover - the venv has the postgres extra
        pytest.skip(f"psycopg is not installed ({exc}); install mnemic[postgres]")
    dsn = os.environ.get("TEST_PG_DSN")
    if dsn:
        yield dsn
        return
    from mnemic.testing.postgres import find_bindir, scratch_server

    if find_bindir() is None:
        pytest.skip(
            "PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install "
            "postgresql, or set TEST_PG_DSN to a server to use"
        )
    with scratch_server() as server:
        yield server.dsn


@pytest.fixture
def pg_schema(pg_dsn: str) -> Iterator[str]:
    """A fresh, migrated schema for this test (dropped afterwards)."""
    import psycopg

    from mnemic.backends.postgres.db import Database
    from mnemic.backends.postgres.migrations import migrate

    name = "t_" + uuid.uuid4().hex[:12]
    migrate(Database(pg_dsn, schema=name))
    yield name
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


@pytest.fixture
def pg_db(pg_dsn: str, pg_schema: str) -> Any:
    """A :class:`~mnemic.backends.postgres.db.Database` on this test's schema."""
    from mnemic.backends.postgres.db import Database

    return Database(pg_dsn, schema=pg_schema)


def pg_config(dsn: str, schema: str, **memory_settings: object) -> str:
    """config.toml text selecting the database (plus ``[memory]`` settings)."""
    lines = [f'store = "{dsn}"', "", "[postgres]", f'schema = "{schema}"']
    if memory_settings:
        lines += ["", "[memory]"]
        for key, value in memory_settings.items():
            rendered = str(value).lower() if isinstance(value, bool) else repr(value)
            lines.append(f"{key} = {rendered}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def pg_home(home_path: Path, pg_dsn: str, pg_schema: str) -> Callable[..., Path]:
    """Write the test home's config.toml for the database; return the home."""

    def make(**memory_settings: object) -> Path:
        home_path.mkdir(parents=True, exist_ok=True)
        text = pg_config(pg_dsn, pg_schema, **memory_settings)
        (home_path / "config.toml").write_text(text, encoding="utf-8")
        return home_path

    return make


# -- one behaviour suite, two backends ---------------------------------------------------


class Kit:
    """A test home on one backend, with what a test needs to poke at it from outside."""

    name = ""

    def __init__(self, home: Path) -> None:
        self.home = home

    def config(self, **memory_settings: object) -> str:
        raise NotImplementedError

    def make(self, **memory_settings: object) -> Any:
        """Open a Memory on the home with ``[memory]`` settings (like ``make_memory``)."""
        from mnemic.curated import Memory

        self.home.mkdir(parents=True, exist_ok=True)
        (self.home / "config.toml").write_text(self.config(**memory_settings), encoding="utf-8")
        return Memory.open(self.home)

    def raw(self, target: str) -> str | None:
        """The stored text of a target, read from outside mnemic."""
        raise NotImplementedError

    def edit(self, target: str, text: str) -> None:
        """Replace a target's text from outside mnemic (an editor, or SQL)."""
        raise NotImplementedError

    def append(self, target: str, text: str) -> None:
        """Append to a target's text in place from outside mnemic."""
        self.edit(target, (self.raw(target) or "") + text)

    def stamp(self, target: str) -> Any:
        """Something that changes whenever the stored target is rewritten."""
        raise NotImplementedError

    def backup_text(self, where: str) -> str:
        """The text of the drift backup a DriftDetected error names."""
        raise NotImplementedError


class FilesKit(Kit):
    name = "files"

    def config(self, **memory_settings: object) -> str:
        lines = ["[memory]"] if memory_settings else []
        for key, value in memory_settings.items():
            rendered = str(value).lower() if isinstance(value, bool) else repr(value)
            lines.append(f"{key} = {rendered}")
        return "\n".join(lines) + "\n"

    def path(self, target: str) -> Path:
        from mnemic.curated.entries import FILENAMES

        return self.home / "memories" / FILENAMES[target]

    def raw(self, target: str) -> str | None:
        p = self.path(target)
        return p.read_bytes().decode("utf-8") if p.exists() else None  # CRLF kept as is

    def edit(self, target: str, text: str) -> None:
        self.path(target).parent.mkdir(parents=True, exist_ok=True)
        self.path(target).write_text(text, encoding="utf-8")

    def append(self, target: str, text: str) -> None:
        with open(self.path(target), "a", encoding="utf-8") as fh:  # same inode
            fh.write(text)

    def stamp(self, target: str) -> Any:
        st = os.stat(self.path(target))
        return (st.st_ino, st.st_mtime_ns)

    def backup_text(self, where: str) -> str:
        return Path(where).read_text(encoding="utf-8")


class PostgresKit(Kit):
    name = "postgres"

    def __init__(self, home: Path, dsn: str, schema: str) -> None:
        super().__init__(home)
        self.dsn = dsn
        self.schema = schema

    def config(self, **memory_settings: object) -> str:
        return pg_config(self.dsn, self.schema, **memory_settings)

    def sql(self, text: str, params: tuple[Any, ...] = ()) -> list[Any]:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            cur = conn.execute(text.replace("{s}", f'"{self.schema}"'), params)
            return cur.fetchall() if cur.description else []

    def raw(self, target: str) -> str | None:
        rows = self.sql("SELECT body FROM {s}.curated WHERE target = %s", (target,))
        return rows[0][0] if rows else None

    def edit(self, target: str, text: str) -> None:
        # what a person with psql would do: no version bump, no history, no audit
        self.sql(
            "INSERT INTO {s}.curated (target, body) VALUES (%s, %s) "
            "ON CONFLICT (target) DO UPDATE SET body = excluded.body",
            (target, text),
        )

    def append(self, target: str, text: str) -> None:
        self.sql("UPDATE {s}.curated SET body = body || %s WHERE target = %s", (text, target))

    def stamp(self, target: str) -> Any:
        rows = self.sql("SELECT version, updated_at FROM {s}.curated WHERE target = %s", (target,))
        return tuple(rows[0]) if rows else None

    def backup_text(self, where: str) -> str:
        number = int(where.rsplit("#", 1)[1].split()[0])
        rows = self.sql("SELECT body FROM {s}.curated_backups WHERE id = %s", (number,))
        return str(rows[0][0])


@pytest.fixture(params=["files", "postgres"])
def kit(request: pytest.FixtureRequest, home_path: Path) -> Kit:
    """The test home on each backend in turn."""
    if request.param == "files":
        return FilesKit(home_path)
    dsn = request.getfixturevalue("pg_dsn")
    schema = request.getfixturevalue("pg_schema")
    return PostgresKit(home_path, dsn, schema)


@pytest.fixture
def make_memory(kit: Kit) -> Callable[..., Any]:
    """``make_memory`` of the main suite, on the backend of ``kit``."""
    return kit.make
