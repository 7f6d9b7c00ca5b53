"""The SQLite session store's bulk writes: import batches and forgetting.

Each function runs inside one ``BEGIN IMMEDIATE`` transaction of
:class:`~mnemic.sessions.sqlite.SQLiteSessionStore` (its ``_write``), so a batch or a
forgetting commits whole or not at all.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from .base import Batch, Imported
from .forgetting import MESSAGE_TEXT_COLUMNS, SESSION_SCRUB_COLUMNS, plan_rewrites
from .rows import (
    LEGACY_COLUMNS,
    dedupe,
    message_values,
    plan_merge,
    session_values,
    stored_call_count,
)
from .sqlite_schema import FOLD, MERGE_PAGES, MERGE_STEP
from .store import ImportResult, NewMessage

__all__ = [
    "BUMP_SESSION",
    "INSERT_MESSAGE",
    "INSERT_SESSION",
    "contains_sql",
    "fold",
    "forget_rows",
    "insert_batch",
    "message_rows",
    "next_seq",
]


INSERT_SESSION = (
    "INSERT INTO sessions(id, source, title, started_at, parent_id, model, last_active, "
    "metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_MESSAGE = (
    "INSERT INTO messages(sid, seq, role, content, name, tool_name, tool_calls, tool_call_id, "
    "ts, tokens, source_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
BUMP_SESSION = (
    "UPDATE sessions SET message_count = message_count + ?, "
    "tool_call_count = tool_call_count + ?, token_count = token_count + ?, "
    "last_active = MAX(last_active, ?) WHERE sid = ?"
)
INSERT_MESSAGE_WITH_ID = (
    "INSERT INTO messages(id, sid, seq, role, content, name, tool_name, tool_calls, "
    "tool_call_id, ts, tokens, source_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def fold(conn: sqlite3.Connection) -> None:
    """Move the queued messages into the full-text index, then merge a few pages."""
    conn.execute(FOLD)
    conn.execute("DELETE FROM fts_pending")
    conn.execute(MERGE_STEP, (MERGE_PAGES,))


def message_rows(
    sid: int, first_seq: int, first_id: int | None, messages: Sequence[NewMessage], now: float
) -> tuple[list[tuple[Any, ...]], int, int, float]:
    """Message rows ``(id, sid, seq, *fields)`` and the session counters they add."""
    values, tokens, calls, last = message_values(messages, now)
    rows = [
        (None if first_id is None else first_id + i, sid, first_seq + i, *v)
        for i, v in enumerate(values)
    ]
    return rows, tokens, calls, last


def next_seq(conn: sqlite3.Connection, sid: int) -> int:
    """The ``seq`` after the session's last message (not its count: forgetting can leave
    gaps)."""
    row = conn.execute("SELECT MAX(seq) FROM messages WHERE sid = ?", (sid,)).fetchone()
    return 0 if row[0] is None else int(row[0]) + 1


def insert_batch(
    conn: sqlite3.Connection, *, items: Batch, existing: str, replaced: frozenset[str]
) -> Imported:
    """Write one import batch (see :meth:`BaseSessionStore._import_batch`) and index it."""
    out: Imported = []
    next_id = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()[0]) + 1
    now = time.time()
    staged: list[tuple[Any, ...]] = []
    for spec, messages in items:
        row = session_values(spec)
        session_id = str(row[0])
        found = conn.execute("SELECT sid FROM sessions WHERE id = ?", (session_id,)).fetchone()
        status = "created"
        if found is not None:
            sid = int(found[0])
            if existing == "skip":
                out.append(ImportResult(session_id, None, "skipped"))
                continue
            if existing == "merge" or session_id in replaced:
                ids = merge(conn, sid, row, messages, next_id, staged, now)
                next_id += len(ids)
                out.append(ImportResult(session_id, ids, "extended" if ids else "unchanged"))
                continue
            # replace: the old copy goes in this transaction, the new one is written below
            conn.execute("DELETE FROM messages WHERE sid = ?", (sid,))
            conn.execute("DELETE FROM sessions WHERE sid = ?", (sid,))
            status = "replaced"
        fresh = dedupe(messages)
        cur = conn.execute(INSERT_SESSION, row)
        sid = int(cur.lastrowid or 0)
        rows, tokens, calls, last = message_rows(sid, 0, next_id, fresh, row[3] if fresh else now)
        staged.extend(rows)
        conn.execute(
            "UPDATE sessions SET message_count = ?, tool_call_count = ?, token_count = ?, "
            "last_active = MAX(last_active, ?) WHERE sid = ?",
            (len(rows), calls, tokens, last if rows else row[3], sid),
        )
        out.append(ImportResult(session_id, list(range(next_id, next_id + len(rows))), status))
        next_id += len(rows)
    if staged:
        conn.executemany(INSERT_MESSAGE_WITH_ID, staged)
    if conn.execute("SELECT 1 FROM fts_pending LIMIT 1").fetchone():
        # one statement indexes the whole batch: FTS5 writes it as one segment
        conn.execute(FOLD)
        conn.execute("DELETE FROM fts_pending")
    return out


def merge(
    conn: sqlite3.Connection,
    sid: int,
    row: tuple[Any, ...],
    messages: Sequence[NewMessage],
    next_id: int,
    staged: list[tuple[Any, ...]],
    now: float,
) -> list[int]:
    """Stage the messages session ``sid`` lacks (after its last one); return their ids."""
    keys = {
        str(r[0])
        for r in conn.execute(
            "SELECT source_id FROM messages WHERE sid = ? AND source_id IS NOT NULL", (sid,)
        )
    }
    legacy = conn.execute(
        f"SELECT {LEGACY_COLUMNS} FROM messages WHERE sid = ? AND source_id IS NULL", (sid,)
    ).fetchall()
    new, backfill = plan_merge(messages, keys, legacy)
    if backfill:
        conn.executemany("UPDATE messages SET source_id = ? WHERE id = ?", backfill)
    # a title or model that turned up since (a transcript's summary line) fills a gap
    conn.execute(
        "UPDATE sessions SET title = COALESCE(title, ?), model = COALESCE(model, ?) WHERE sid = ?",
        (row[2], row[5], sid),
    )
    if not new:
        return []
    rows, tokens, calls, last = message_rows(sid, next_seq(conn, sid), next_id, new, now)
    staged.extend(rows)
    conn.execute(BUMP_SESSION, (len(rows), calls, tokens, last, sid))
    return [r[0] for r in rows]


def contains_sql(columns: Sequence[str], forms: Sequence[str]) -> tuple[str, list[str]]:
    """A condition: one of ``columns`` holds one of ``forms`` (``lower`` folds ASCII only,
    as :func:`.forgetting.contains` does)."""
    parts = [f"instr(lower({c}), lower(?)) > 0" for c in columns for _ in forms]
    return " OR ".join(parts), [f for _ in columns for f in forms]


def forget_rows(
    conn: sqlite3.Connection, *, forms: list[str], dry_run: bool
) -> tuple[int, int, int]:
    """In one transaction: delete the messages and rewrite the sessions holding one of
    ``forms``, then rewrite the full-text index; return (messages, sessions, renamed)."""
    mwhere, mparams = contains_sql(MESSAGE_TEXT_COLUMNS, forms)
    swhere, sparams = contains_sql(SESSION_SCRUB_COLUMNS, forms)
    columns = ", ".join(SESSION_SCRUB_COLUMNS)

    rows = conn.execute(
        f"SELECT id, sid, tool_calls, tokens FROM messages WHERE {mwhere}", mparams
    ).fetchall()
    candidates = conn.execute(
        f"SELECT sid, {columns}, started_at FROM sessions WHERE {swhere}", sparams
    ).fetchall()

    def taken(new_id: str) -> bool:
        found = conn.execute("SELECT 1 FROM sessions WHERE id = ?", (new_id,))
        return found.fetchone() is not None

    rewrites, renames = plan_rewrites(candidates, forms, taken)
    touched = {int(r[1]) for r in rows} | {r.sid for r in rewrites}
    if dry_run:
        return len(rows), len(touched), len(renames)
    for mid, sid, calls, tokens in rows:
        conn.execute("DELETE FROM messages WHERE id = ?", (mid,))
        conn.execute(
            "UPDATE sessions SET message_count = MAX(0, message_count - 1), "
            "tool_call_count = MAX(0, tool_call_count - ?), "
            "token_count = MAX(0, token_count - ?) WHERE sid = ?",
            (stored_call_count(calls), int(tokens or 0), sid),
        )
    for rewrite in rewrites:
        sets = ", ".join(f"{c} = ?" for c in rewrite.changes)
        conn.execute(
            f"UPDATE sessions SET {sets} WHERE sid = ?",
            (*rewrite.changes.values(), rewrite.sid),
        )
    conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('optimize')")
    return len(rows), len(touched), len(renames)
