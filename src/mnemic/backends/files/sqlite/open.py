"""Opening ``sessions.db``, writable or read-only.

A home that mnemic may not write (a read-only mount, a directory or file this user
cannot write) still has a readable session history. When the file or its directory is
not writable, the database is opened read-only (``mode=ro``). SQLite in WAL mode needs
to create the ``-wal`` and ``-shm`` files even to read; when they do not exist and
cannot be created, the database was closed cleanly, every committed page is in the
main file, and it is opened ``immutable`` (SQLite then takes no lock at all: nobody can
be writing a database in a directory where no ``-wal`` file can be created). When the
file does not exist and cannot be created, the history is empty: an in-memory database
with the schema stands in for it. Either way the store refuses writes with
:class:`~mnemic.errors.ReadOnlyHome`.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path
from typing import NamedTuple

from ....errors import SessionStoreError

__all__ = ["Opened", "open_database"]

_READ_ONLY_ERRNOS = (errno.EROFS, errno.EACCES, errno.EPERM)


class Opened(NamedTuple):
    """A connection and how it may be used."""

    conn: sqlite3.Connection
    read_only: str | None
    """Why the database cannot be written (None: it can)."""
    memory: bool
    """The file does not exist and cannot be created: an empty stand-in."""


def _fail(path: Path, exc: BaseException, what: str) -> SessionStoreError:
    return SessionStoreError(str(path), f"{what}: {exc}")


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _connect(target: str, uri: bool, path: Path) -> sqlite3.Connection:
    try:
        return sqlite3.connect(
            target, isolation_level=None, timeout=0.05, check_same_thread=False, uri=uri
        )
    except sqlite3.Error as exc:
        raise _fail(path, exc, "cannot open") from exc


def _read_only(path: Path) -> sqlite3.Connection:
    """``path`` opened read-only (see the module docstring)."""
    uri = path.resolve().as_uri()
    conn = _connect(f"{uri}?mode=ro", True, path)
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as exc:
        conn.close()
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise _fail(
                path,
                exc,
                "cannot read it without write access (its write-ahead log holds "
                "changes that need the -shm file, which cannot be created)",
            ) from exc
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise _fail(path, exc, "not a usable SQLite database") from exc
    conn = _connect(f"{uri}?mode=ro&immutable=1", True, path)
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise _fail(path, exc, "not a usable SQLite database") from exc
    return conn


def open_database(path: Path, *, create: bool = True) -> Opened:
    """Open (creating when allowed and missing) ``path``; nothing is configured yet."""
    if not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
            os.close(fd)
        except OSError as exc:
            if exc.errno not in _READ_ONLY_ERRNOS:
                raise _fail(path, exc, "cannot create the file") from exc
            reason = f"cannot create it: {exc.strerror or exc}"
            return Opened(_connect(":memory:", False, path), reason, True)
    if _writable(path):
        return Opened(_connect(str(path), False, path), None, False)
    which = "file" if not os.access(path, os.W_OK) else "directory"
    return Opened(_read_only(path), f"the {which} is not writable", False)


def memory_database(path: Path) -> sqlite3.Connection:
    """An empty in-memory stand-in for ``path``."""
    return _connect(":memory:", False, path)
