"""What an SQL session store remembers about its inputs, written once for every database.

Tombstones (table ``forgotten``)
    Forgetting deletes messages, but the file they came from (a Claude Code transcript
    imported again at the next hook) still holds them. For each message it deletes, the
    forgetting transaction leaves a tombstone: a hash of the message's identity, never its
    text: its session id with its import key, and with its :func:`~..keys.fingerprint`
    (so a message stored without a key is recognised too); for each session column it
    rewrites, one for the column (a renamed id, a cleared title or model). Every import
    batch (:func:`~.writes.write_batch`) reads the tombstones of its sessions in its
    transaction and leaves out what they name: a message whose key or stored fields were
    forgotten, a title or model that was cleared, every message of a session whose id
    was. Nothing removes a tombstone. Each row is ``(scope, digest)``: ``scope`` hashes the
    session id (so a batch reads its sessions' tombstones in one statement), ``digest``
    what was forgotten in it; both are BLAKE2b with a personalisation of their own, over
    length-prefixed parts.
Import marks (table ``import_marks``)
    How far a file that only grows was imported for one session
    (:mod:`..importing.resume`): the offset, a check of the bytes before it, the lines
    read and the message positions reached; written only after the messages up to the
    offset were committed. Keyed by a
    hash of the session id and the file's path, with the session's ``scope``: deleting
    the session deletes its marks, so its transcript is imported whole again, as before
    marks existed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from ..keys import fingerprint, message_fingerprint, opaque_hash
from ..store import ImportMark, NewMessage
from .tables import Batch, C, Engine

__all__ = [
    "Forgotten",
    "forgotten_batch",
    "import_mark",
    "keep_tombstones",
    "record_forgotten",
    "save_import_mark",
    "scope_of",
    "tombstones",
]

_SESSION = "session"
"""The digest of a session whose id was forgotten (it got a new one)."""


def scope_of(session_id: str) -> str:
    """What tombstones and import marks name a session by (a hash of its id)."""
    return opaque_hash("scope", session_id)


def _forgotten(session_id: str, *what: str) -> str:
    return opaque_hash("forgotten", session_id, *what)


def record_forgotten(
    store: Engine[C],
    conn: C,
    messages: Iterable[tuple[str, str | None, Sequence[Any]]],
    columns: Iterable[tuple[str, str]],
) -> None:
    """Leave the tombstones of a forgetting, in its transaction: ``messages`` as
    ``(session id, import key or None, stored fields)`` (the :func:`~..keys.fingerprint`
    fields), ``columns`` as ``(session id, column)`` rewritten (``id`` for a rename)."""
    rows: list[tuple[str, str]] = []
    for session_id, key, fields in messages:
        scope = scope_of(session_id)
        rows.append((scope, _forgotten(session_id, "fields", fingerprint(*fields))))
        if key is not None:
            rows.append((scope, _forgotten(session_id, "key", key)))
    for session_id, column in columns:
        what = _SESSION if column == "id" else column
        rows.append((scope_of(session_id), _forgotten(session_id, what)))
    if rows:
        sql = "INSERT INTO {s}.forgotten (scope, digest) VALUES (?, ?) ON CONFLICT DO NOTHING"
        store._many(conn, store.dialect.sql(sql), sorted(set(rows)))


class Forgotten(NamedTuple):
    """What the tombstones took out of an import batch, by item index."""

    messages: dict[int, int]
    """Messages left out of each item."""
    sessions: frozenset[int]
    """Items whose session id was forgotten: left out whole."""


def forgotten_batch(
    store: Engine[C], conn: C, items: Batch, values: list[tuple[Any, ...]]
) -> tuple[Batch, list[tuple[Any, ...]], Forgotten]:
    """An import batch (its items and :func:`~.rows.session_values`) without what its
    sessions' tombstones name, read in the batch's transaction: messages named by key or
    by stored fields are dropped, a title or model that was cleared is not filled in
    again, and a session whose id was forgotten is left out whole."""
    scopes = {scope_of(str(v[0])): i for i, v in enumerate(values)}
    found: dict[int, set[str]] = {}
    for clause, params in store.dialect.chunks("scope", list(scopes)):
        sql = f"SELECT scope, digest FROM {{s}}.forgotten WHERE {clause}"
        for scope, dig in store._run(conn, sql, params).fetchall():
            found.setdefault(scopes[str(scope)], set()).add(str(dig))
    if not found:
        return items, values, Forgotten({}, frozenset())
    items, values = list(items), list(values)
    dropped: dict[int, int] = {}
    gone: set[int] = set()
    for i, marks in found.items():
        spec, msgs = items[i]
        sid = str(values[i][0])
        if _forgotten(sid, _SESSION) in marks:
            gone.add(i)
            dropped[i] = len(msgs)
            continue
        kept = [m for m in msgs if not _names(marks, sid, m)]
        row = list(values[i])
        for column, at in (("title", 2), ("model", 5)):
            if _forgotten(sid, column) in marks:
                row[at] = None
        items[i], values[i] = (spec, kept), tuple(row)
        if len(kept) < len(msgs):
            dropped[i] = len(msgs) - len(kept)
    return items, values, Forgotten(dropped, frozenset(gone))


def _names(marks: set[str], session_id: str, msg: NewMessage) -> bool:
    """Whether a tombstone of ``marks`` names ``msg`` (by its key or its stored fields)."""
    if msg.source_id is not None and _forgotten(session_id, "key", msg.source_id) in marks:
        return True
    return _forgotten(session_id, "fields", message_fingerprint(msg)) in marks


def tombstones(store: Engine[Any]) -> list[tuple[str, str]]:
    """Every tombstone as ``(scope, digest)`` (hashes only), for a copy of the history."""
    rows = store._read("SELECT scope, digest FROM {s}.forgotten ORDER BY scope, digest")
    return [(str(a), str(b)) for a, b in rows]


def keep_tombstones(store: Engine[Any], rows: Iterable[tuple[str, str]]) -> None:
    """Add tombstones another store left (:func:`tombstones`); known ones stay once."""
    batch = sorted(set(rows))
    if not batch:
        return
    sql = "INSERT INTO {s}.forgotten (scope, digest) VALUES (?, ?) ON CONFLICT DO NOTHING"
    store._write(lambda conn: store._many(conn, store.dialect.sql(sql), batch))


def import_mark(store: Engine[Any], session_id: str, source: str) -> ImportMark | None:
    """The mark of ``source`` (a file's path) for ``session_id`` (None: none, or one this
    version cannot read)."""
    key = opaque_hash("import", session_id, source)
    rows = store._read("SELECT mark FROM {s}.import_marks WHERE key = ?", (key,))
    return _mark(rows[0][0]) if rows else None


def save_import_mark(store: Engine[Any], session_id: str, source: str, mark: ImportMark) -> None:
    """Save the mark of ``source`` for ``session_id`` (replacing the one before)."""
    key = opaque_hash("import", session_id, source)
    text = json.dumps(
        {
            "offset": mark.offset,
            "check": mark.check,
            "lines": mark.lines,
            "positions": dict(mark.positions),
        },
        separators=(",", ":"),
    )

    def save(conn: Any) -> None:
        store._run(
            conn,
            "INSERT INTO {s}.import_marks (key, scope, mark) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET mark = excluded.mark",
            (key, scope_of(session_id), text),
        )

    store._write(save)


def _mark(text: Any) -> ImportMark | None:
    try:
        data = json.loads(str(text))
        positions: Mapping[str, Any] = data["positions"]
        return ImportMark(
            int(data["offset"]),
            str(data["check"]),
            int(data["lines"]),
            {str(k): int(v) for k, v in positions.items()},
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
