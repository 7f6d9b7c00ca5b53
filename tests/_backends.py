"""A test home on one storage backend, and the means to poke at it from outside.

The ``backend`` fixture (``conftest.py``) hands a test one :class:`Kit` per backend:
:class:`FilesKit` (files and SQLite under the home) and :class:`PostgresKit` (a fresh
schema of the throwaway server). A behaviour suite written against the kit runs on
both; what a person would do by hand (edit a file, or run SQL with ``psql``) goes
through the kit, everything else through the library.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mnemic.curated.entries import FILENAMES
from mnemic.curated.memory import Memory
from mnemic.governance.storage import Journal, open_journal
from mnemic.home import Home


def memory_section(**memory_settings: object) -> list[str]:
    """``[memory]`` lines of config.toml for these settings (none when there are none)."""
    lines = ["[memory]"] if memory_settings else []
    for key, value in memory_settings.items():
        rendered = str(value).lower() if isinstance(value, bool) else repr(value)
        lines.append(f"{key} = {rendered}")
    return lines


def pg_config(dsn: str, schema: str, **memory_settings: object) -> str:
    """config.toml text selecting the database (plus ``[memory]`` settings)."""
    lines = [f'store = "{dsn}"', "", "[postgres]", f'schema = "{schema}"']
    if memory_settings:
        lines += ["", *memory_section(**memory_settings)]
    return "\n".join(lines) + "\n"


class Kit:
    """A test home on one backend (see the module docstring)."""

    name = ""

    def __init__(self, home: Path) -> None:
        self.home = home

    # -- configuration -------------------------------------------------------------
    def config(self, **memory_settings: object) -> str:
        """config.toml text selecting this backend, with ``[memory]`` settings."""
        raise NotImplementedError

    def write_config(self, text: str = "", **memory_settings: object) -> Path:
        """Write config.toml: this backend, ``[memory]`` settings, then ``text`` (more
        sections); return the home."""
        self.home.mkdir(parents=True, exist_ok=True)
        body = self.config(**memory_settings) + text
        (self.home / "config.toml").write_text(body, encoding="utf-8")
        return self.home

    def make(self, **memory_settings: object) -> Memory:
        """Open a Memory on the home with ``[memory]`` settings (like ``make_memory``)."""
        return Memory.open(self.write_config(**memory_settings))

    def journal(self) -> Journal:
        """The home's audit journal, wherever it lives."""
        home = Home.open(self.home)
        return open_journal(home.root, home.settings)

    # -- curated memory from outside -------------------------------------------------
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

    # -- governance storage from outside ---------------------------------------------
    def break_queue(self) -> None:
        """Make the memory pending queue unusable (every use of it fails)."""
        raise NotImplementedError

    def plant_unreadable_record(self) -> tuple[str, str]:
        """Put a record that cannot be read into the memory queue (id ``deadbeef``);
        return how the place a listing reports ends and what its reason says."""
        raise NotImplementedError

    def journal_lines(self) -> list[bytes]:
        """The stored lines of the audit journal, one per record, oldest first."""
        raise NotImplementedError

    def write_journal_lines(self, lines: list[bytes]) -> None:
        """Replace the journal's lines by hand (the head is left as it is)."""
        raise NotImplementedError

    def delete_head(self) -> None:
        """Remove the journal's head (its count and last hash)."""
        raise NotImplementedError


class FilesKit(Kit):
    """The embedded default: files under the home."""

    name = "files"

    def config(self, **memory_settings: object) -> str:
        return "\n".join(memory_section(**memory_settings)) + "\n"

    def path(self, target: str) -> Path:
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
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def backup_text(self, where: str) -> str:
        return Path(where).read_text(encoding="utf-8")

    def break_queue(self) -> None:  # a file where the queue's directory should be
        (self.home / "pending").mkdir(parents=True, exist_ok=True)
        (self.home / "pending" / "memory").write_text("not a directory")

    def plant_unreadable_record(self) -> tuple[str, str]:
        (self.home / "pending" / "memory" / "deadbeef.json").write_bytes(b"\xff\xfe not json")
        return "pending/memory/deadbeef.json", "UTF-8"

    @property
    def journal_path(self) -> Path:
        return self.home / "audit" / "journal.jsonl"

    def journal_lines(self) -> list[bytes]:
        return self.journal_path.read_bytes().split(b"\n")[:-1]

    def write_journal_lines(self, lines: list[bytes]) -> None:
        self.journal_path.write_bytes(b"".join(line + b"\n" for line in lines))

    def delete_head(self) -> None:
        (self.home / "audit" / "head").unlink()


class PostgresKit(Kit):
    """A schema of the throwaway PostgreSQL server (what it pokes at is the global
    store's rows: ``project = ''``)."""

    name = "postgres"

    def __init__(self, home: Path, dsn: str, schema: str) -> None:
        super().__init__(home)
        self.dsn = dsn
        self.schema = schema

    def config(self, **memory_settings: object) -> str:
        return pg_config(self.dsn, self.schema, **memory_settings)

    def sql(self, text: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Run one statement as a person with ``psql`` would (``{s}``: the schema)."""
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            cur = conn.execute(text.replace("{s}", f'"{self.schema}"'), params)
            return cur.fetchall() if cur.description else []

    def raw(self, target: str) -> str | None:
        rows = self.sql(
            "SELECT body FROM {s}.curated WHERE target = %s AND project = ''", (target,)
        )
        return rows[0][0] if rows else None

    def edit(self, target: str, text: str) -> None:
        # what a person with psql would do: no version bump, no history, no audit
        self.sql(
            "INSERT INTO {s}.curated (target, body) VALUES (%s, %s) "
            "ON CONFLICT (project, target) DO UPDATE SET body = excluded.body",
            (target, text),
        )

    def append(self, target: str, text: str) -> None:
        self.sql(
            "UPDATE {s}.curated SET body = body || %s WHERE target = %s AND project = ''",
            (text, target),
        )

    def stamp(self, target: str) -> Any:
        rows = self.sql(
            "SELECT version, updated_at FROM {s}.curated WHERE target = %s AND project = ''",
            (target,),
        )
        return tuple(rows[0]) if rows else None

    def backup_text(self, where: str) -> str:
        number = int(where.rsplit("#", 1)[1].split()[0])
        rows = self.sql("SELECT body FROM {s}.curated_backups WHERE id = %s", (number,))
        return str(rows[0][0])

    def break_queue(self) -> None:  # the queue's table is gone
        self.sql("ALTER TABLE {s}.pending RENAME TO pending_broken")

    def plant_unreadable_record(self) -> tuple[str, str]:
        self.sql(
            "INSERT INTO {s}.pending (subsystem, id, created_at, record) "
            "VALUES ('memory', 'deadbeef', 0, '{not json')"
        )
        return "pending/memory/deadbeef", "not a pending record"

    def journal_lines(self) -> list[bytes]:
        rows = self.sql("SELECT line FROM {s}.audit WHERE project = '' ORDER BY seq")
        return [str(r[0]).encode("utf-8") for r in rows]

    def write_journal_lines(self, lines: list[bytes]) -> None:
        self.sql("DELETE FROM {s}.audit WHERE project = ''")
        for seq, line in enumerate(lines, 1):
            self.sql("INSERT INTO {s}.audit (seq, line) VALUES (%s, %s)", (seq, line.decode()))

    def delete_head(self) -> None:
        self.sql("DELETE FROM {s}.audit_head WHERE project = ''")
