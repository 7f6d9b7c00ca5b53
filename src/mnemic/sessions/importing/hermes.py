"""Hermes Agent's session database (``state.db``) as import items.

Hermes keeps every session of a home in one SQLite file: a ``sessions`` table (id,
source platform, title, parent session, model, times, end reason, working directory...)
and a ``messages`` table (role, content, tool calls as JSON text, the tool call a result
answers, the tool's name, a timestamp, and whether the message is still visible). See
``docs/interop.md``.

The file is opened read-only through SQLite's URI (``mode=ro``; ``immutable=1`` as well
when there is no ``-wal`` file, so no ``-wal`` or ``-shm`` is created beside it): nothing
Hermes owns is written. What a running Hermes committed to its WAL is read. A file that
is not a SQLite database, or one without the tables and columns read here, raises
:class:`~mnemic.errors.ImportFailed` naming the file and what to do. A newer schema
with more columns is read as well (only the columns named here are read).

Each session becomes one item: its Hermes id, source ``hermes:<platform>``, title,
model, parent session, start time, and a few fields in ``metadata["hermes"]``; its
messages keep their tool calls, tool-call ids and tool names, keyed by their Hermes
message id, so importing the same database again adds nothing and a session that grew
gains only its new messages. A message Hermes hid because it was rewound or undone
(``active = 0`` and not compacted) is left out and counted; one compacted away (hidden
from the prompt, still searchable in Hermes) is imported.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ...errors import ImportFailed, UnreadableFile
from ...fsread import open_to_read
from ..store import Attachment, NewSession
from .formats import Item, Reading, role_of, timestamp, tool_calls_of
from .parts import parts_with_images

__all__ = ["SQLITE_MAGIC", "HermesDb", "hermes_items", "open_hermes_db"]

SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""

_SESSION_NEED = ("id", "source", "parent_session_id", "started_at")
_SESSION_MAY = (
    "title",
    "model",
    "ended_at",
    "end_reason",
    "cwd",
    "git_branch",
    "git_repo_root",
    "display_name",
    "chat_type",
)
_MESSAGE_NEED = ("id", "session_id", "role", "content", "timestamp")
_MESSAGE_MAY = ("tool_call_id", "tool_calls", "tool_name", "active", "compacted")
_METADATA = ("cwd", "git_branch", "git_repo_root", "display_name", "chat_type")

_FIX = "copy a good state.db from Hermes (or a backup), or move it away to skip sessions"


class HermesDb:
    """A Hermes ``state.db`` opened read-only, its columns checked (see the module)."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self.conn = conn
        self.session_columns = self._columns("sessions", _SESSION_NEED)
        self.message_columns = self._columns("messages", _MESSAGE_NEED)
        self.version = self._version()

    def _columns(self, table: str, need: tuple[str, ...]) -> set[str]:
        try:
            rows = self.conn.execute(f"PRAGMA table_info({table})").fetchall()
        except sqlite3.DatabaseError as exc:
            raise self.failed(f"it is not a readable SQLite database ({exc})") from exc
        have = {str(r[1]) for r in rows}
        if not have:
            raise self.failed(f"it has no {table} table: it is not a Hermes session database")
        missing = [c for c in need if c not in have]
        if missing:
            raise self.failed(
                f"its {table} table lacks {', '.join(missing)}: a schema this importer "
                "does not know"
            )
        return have

    def _version(self) -> int | None:
        try:
            row = self.conn.execute("SELECT max(version) FROM schema_version").fetchone()
        except sqlite3.DatabaseError:
            return None
        return row[0] if row and isinstance(row[0], int) else None

    def failed(self, reason: str) -> ImportFailed:
        """The error for a database that cannot be imported, saying what to do."""
        return ImportFailed(str(self.path), f"{reason}; {_FIX}")

    def counts(self) -> tuple[int, int]:
        """(sessions, messages) in the database."""
        try:
            sessions = self.conn.execute("SELECT count(*) FROM sessions").fetchone()[0]
            messages = self.conn.execute("SELECT count(*) FROM messages").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise self.failed(f"it cannot be read ({exc})") from exc
        return int(sessions), int(messages)

    def _select(self, table: str, have: set[str], names: tuple[str, ...]) -> str:
        cols = ", ".join(c if c in have else f"NULL AS {c}" for c in names)
        return f"SELECT {cols} FROM {table}"

    def sessions(self) -> Iterator[dict[str, Any]]:
        """Every session row, oldest first (parents before their children)."""
        names = _SESSION_NEED + _SESSION_MAY
        sql = self._select("sessions", self.session_columns, names)
        yield from self._rows(f"{sql} ORDER BY started_at, id", names, ())

    def messages(self, session_id: str) -> Iterator[dict[str, Any]]:
        """The message rows of one session, in order."""
        names = _MESSAGE_NEED + _MESSAGE_MAY
        sql = self._select("messages", self.message_columns, names)
        yield from self._rows(
            f"{sql} WHERE session_id = ? ORDER BY timestamp, id", names, (session_id,)
        )

    def _rows(
        self, sql: str, names: tuple[str, ...], args: tuple[Any, ...]
    ) -> Iterator[dict[str, Any]]:
        try:
            cursor = self.conn.execute(sql, args)
            while True:
                batch = cursor.fetchmany(500)
                if not batch:
                    return
                for row in batch:
                    yield dict(zip(names, row, strict=True))
        except sqlite3.DatabaseError as exc:
            raise self.failed(f"it cannot be read ({exc})") from exc


@contextlib.contextmanager
def open_hermes_db(path: Path) -> Iterator[HermesDb]:
    """Open a Hermes ``state.db`` read-only (``mode=ro``) and check its tables."""
    try:  # a regular file only: a FIFO in its place hung the import
        with open(open_to_read(path), "rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except UnreadableFile as exc:
        raise ImportFailed(str(path), f"it cannot be read ({exc.reason})") from None
    except OSError as exc:
        raise ImportFailed(str(path), f"it cannot be read ({exc.strerror or exc})") from exc
    if head != SQLITE_MAGIC:
        raise ImportFailed(str(path), f"it is not a SQLite database (damaged?); {_FIX}")
    # No -wal file: no Hermes process has the database open (the last one to close it
    # checkpoints and removes it), so it is read as immutable and SQLite creates no -wal
    # or -shm beside it. With one, a running Hermes may be writing: a plain read-only
    # open sees what it committed to the WAL.
    wal = Path(f"{path}-wal")
    flags = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    uri = f"file:{quote(str(path.resolve()))}?{flags}"
    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise ImportFailed(str(path), f"it cannot be opened ({exc}); {_FIX}") from exc
    try:
        conn.text_factory = lambda b: b.decode("utf-8", "replace")
        yield HermesDb(path, conn)
    finally:
        conn.close()


_ENCODED = "\x00json:"
"""How Hermes (``SessionDB._encode_content``) stores content that is a list of parts."""


def _content(value: Any, reading: Reading, where: str) -> tuple[str | None, tuple[Attachment, ...]]:
    """A message's content and the images it keeps: text as is; a list of parts
    (multimodal: Hermes stores it as ``"\x00json:"`` + its JSON; older rows as a bare
    JSON list) as its text, a ``data:`` image kept in the attachment store."""
    if value is None:
        return None, ()
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    text = str(value)
    encoded = text.startswith(_ENCODED)
    body = text[len(_ENCODED) :] if encoded else text
    if encoded or (body.startswith("[") and body.endswith("]")):
        with contextlib.suppress(ValueError, RecursionError):
            parts = json.loads(body)
            if isinstance(parts, str):
                return parts, ()
            if isinstance(parts, dict):
                parts = [parts]
            if isinstance(parts, list) and all(isinstance(p, dict | str) for p in parts):
                return parts_with_images(parts, reading, where)
    return text, ()


def _session(row: dict[str, Any]) -> NewSession:
    extra = {k: row[k] for k in _METADATA if row.get(k) not in (None, "")}
    platform = str(row.get("source") or "unknown")
    return NewSession(
        id=str(row["id"]),
        source=f"hermes:{platform}",
        title=row["title"] if isinstance(row.get("title"), str) and row["title"] else None,
        model=row["model"] if isinstance(row.get("model"), str) and row["model"] else None,
        parent_id=str(row["parent_session_id"]) if row.get("parent_session_id") else None,
        started_at=timestamp(row.get("started_at")),
        metadata={"hermes": extra} if extra else {},
    )


def hermes_items(db: HermesDb, reading: Reading, size: int = 0) -> Iterator[Item]:
    """Every session of ``db`` with its messages (see the module docstring).

    Progress: ``reading.bytes_done`` advances over ``size`` (the file's size) in
    proportion to the messages read."""
    _, total = db.counts()
    base = reading.bytes_done
    done = 0
    name = db.path.name
    for row in db.sessions():
        spec = _session(row)
        msgs = []
        for m in db.messages(spec.id):
            done += 1
            where = f"{name}: message {m['id']} of session {spec.id}"
            if m.get("active") == 0 and not m.get("compacted"):
                reading.skip("rewound or undone in Hermes (hidden there)", where)
                continue
            role = role_of(m.get("role"))
            if role is None:
                reading.bad(f"unknown role {str(m.get('role'))[:40]!r}", where)
                continue
            calls = None
            if m.get("tool_calls"):
                try:
                    calls = tool_calls_of(json.loads(str(m["tool_calls"])))
                except (ValueError, RecursionError):
                    reading.skip("tool calls that are not valid JSON (the message is kept)", where)
            text, links = _content(m.get("content"), reading, where)
            msgs.append(
                reading.message(
                    spec.id,
                    m["id"],
                    role,
                    text,
                    tool_calls=calls,
                    tool_call_id=str(m["tool_call_id"]) if m.get("tool_call_id") else None,
                    tool_name=str(m["tool_name"]) if m.get("tool_name") else None,
                    timestamp=timestamp(m.get("timestamp")),
                    attachments=links,
                )
            )
        if row.get("ended_at") is not None:
            reading.endings[spec.id] = (row["ended_at"], row.get("end_reason"))
        reading.bytes_done = base + (size * done // total if total else size)
        yield spec, msgs
