"""Which message holds which attachment: the ``message_attachments`` rows, every database.

One row per file a message holds, in the order the message gave them (``pos``): the
:class:`~..store.Attachment` fields. The bytes are not here but in the home's attachment
store (:mod:`..attachments`), named by ``sha256``. A row goes with its message (a
foreign key that cascades: a deleted session, a replaced or forgotten message takes its
links along in the same transaction); the file stays until a collection finds no link
naming it (``mnemic sessions attachments --gc``, and ``mnemic forget`` at once).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..forgetting import contains
from ..store import Attachment, NewMessage
from .tables import C, Engine

__all__ = [
    "AttachmentLink",
    "find_links",
    "held_hashes",
    "insert_links",
    "linked_holding",
    "link_rows",
    "links_of",
    "used_hashes",
]

_COLUMNS = "a.message_id, a.sha256, a.name, a.media_type, a.size, a.caption"
_INSERT = (
    "INSERT INTO {s}.message_attachments(message_id, pos, sha256, name, media_type, size, "
    "caption) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


class AttachmentLink(NamedTuple):
    """An attachment with the message that holds it (what a listing shows)."""

    session_id: str
    message_id: int
    seq: int
    role: str
    timestamp: float
    attachment: Attachment

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "session_id": self.session_id,
            "message_id": self.message_id,
            "seq": self.seq,
            "role": self.role,
            "timestamp": self.timestamp,
            **self.attachment.to_dict(),
        }


def link_rows(ids: Sequence[int], messages: Sequence[NewMessage]) -> list[tuple[Any, ...]]:
    """The link rows of messages just inserted (``ids`` in the order of ``messages``)."""
    return [
        (mid, pos, a.sha256, a.name, a.media_type, a.size, a.caption)
        for mid, msg in zip(ids, messages, strict=True)
        for pos, a in enumerate(msg.attachments)
    ]


def insert_links(
    store: Engine[C], conn: C, ids: Sequence[int], messages: Sequence[NewMessage]
) -> None:
    """Link the attachments of ``messages`` to their new ``ids``, in the transaction that
    inserted them."""
    rows = link_rows(ids, messages)
    if rows:
        store._many(conn, store.dialect.sql(_INSERT), rows)


def _attachment(row: Sequence[Any]) -> Attachment:
    return Attachment(str(row[0]), str(row[1]), str(row[2]), int(row[3]), row[4])


def links_of(store: Engine[C], message_ids: Iterable[int]) -> dict[int, list[Attachment]]:
    """The attachments of each of ``message_ids`` that has any, in their order."""
    ids = sorted({int(i) for i in message_ids})
    found: dict[int, list[Attachment]] = {}
    for clause, params in store.dialect.chunks("a.message_id", ids):
        sql = (
            f"SELECT {_COLUMNS} FROM {{s}}.message_attachments a WHERE {clause} "
            "ORDER BY a.message_id, a.pos"
        )
        for row in store._fetch(store.dialect.sql(sql), params):
            found.setdefault(int(row[0]), []).append(_attachment(row[1:]))
    return found


def find_links(
    store: Engine[C], *, session_id: str | None = None, query: str | None = None, limit: int = 100
) -> list[AttachmentLink]:
    """Attachments, newest message first: of one session, and/or whose name, media type
    or caption holds ``query`` (ASCII case-insensitive)."""
    where: list[str] = []
    params: list[Any] = []
    if session_id is not None:
        where.append("s.id = ?")
        params.append(session_id)
    if query:
        d = store.dialect
        where.append(
            "("
            + " OR ".join(
                f"{d.position}({d.fold}(a.{c}), ?) > 0" for c in ("name", "media_type", "caption")
            )
            + ")"
        )
        params += [query.translate(_ASCII_LOWER)] * 3
    sql = (
        f"SELECT s.id, m.id, m.seq, m.role, m.ts, {_COLUMNS[len('a.message_id, ') :]} "
        "FROM {s}.message_attachments a JOIN {s}.messages m ON m.id = a.message_id "
        "JOIN {s}.sessions s ON s.sid = m.sid"
        + (f" WHERE {' AND '.join(where)}" if where else "")
        + " ORDER BY m.id DESC, a.pos LIMIT ?"
    )
    rows = store._fetch(store.dialect.sql(sql), (*params, max(0, int(limit))))
    return [
        AttachmentLink(str(r[0]), int(r[1]), int(r[2]), str(r[3]), float(r[4]), _attachment(r[5:]))
        for r in rows
    ]


def used_hashes(store: Engine[C]) -> set[str]:
    """Every hash a link names (what a collection keeps)."""
    sql = store.dialect.sql("SELECT DISTINCT sha256 FROM {s}.message_attachments")
    return {str(r[0]) for r in store._fetch(sql, ())}


def held_hashes(store: Engine[C], conn: C, message_ids: Sequence[int]) -> tuple[str, ...]:
    """The hashes the links of ``message_ids`` name, inside a transaction (forgetting
    reads them before the messages go)."""
    found: set[str] = set()
    for clause, params in store.dialect.chunks("message_id", list(message_ids)):
        sql = f"SELECT DISTINCT sha256 FROM {{s}}.message_attachments WHERE {clause}"
        found.update(str(r[0]) for r in store._run(conn, sql, params).fetchall())
    return tuple(sorted(found))


def linked_holding(store: Engine[C], conn: C, forms: list[str]) -> set[int]:
    """The messages one of whose attachments' name or caption holds one of ``forms``
    (forgetting deletes them with the messages whose own text holds it)."""
    where, params = store.dialect.holds(["a.name", "a.caption"], forms)
    sql = f"SELECT a.message_id, a.name, a.caption FROM {{s}}.message_attachments a WHERE {where}"
    rows = store._run(conn, sql, params).fetchall()
    return {int(r[0]) for r in rows if any(contains(v, forms) for v in r[1:])}
