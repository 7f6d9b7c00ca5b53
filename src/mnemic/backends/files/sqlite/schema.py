"""Schema, index triggers and migrations of the SQLite session store.

Tables
    ``sessions``: one row per session; text ``id`` (unique) plus an integer ``sid`` that
    messages reference (4-8 bytes a message instead of a 20-40 byte text key).
    ``messages``: ``(sid, seq)`` unique, ``seq`` = order inside the session;
    ``source_id`` (version 2) the message's key in the file it was imported from;
    ``is_error`` (version 5) a tool result's failure flag as its source gave it (1, 0, or
    NULL when the source gave none; the partial index ``messages_failed`` holds the
    flagged ones).
    ``message_attachments`` (version 6): the files a message holds, one row each (hash,
    name, media type, size, caption; the bytes in ``<home>/attachments``), deleted with
    their message.
    ``fts_pending``: ids of messages not yet in the full-text index.
    ``messages_fts``: a *contentless* FTS5 table (``body``, ``aux``; see
    :mod:`mnemic.sessions.index.fields`): it holds no copy of the text, which keeps the database
    about 2.5x the text instead of 4x or more.
    ``meta``: the segmenter and tokenizer the index was built with (and, version 3, the
    ``vector_deletions`` counter).
    ``message_vectors`` (version 3): one embedding per message and the model that made
    it; triggers unlink it with its text (:mod:`mnemic.sessions.sql.vectors`).
    ``forgotten`` (version 4): the tombstones forgetting leaves, so an import does not
    bring back what was forgotten; ``import_marks`` (version 4): how far a file that
    only grows was imported (both: :mod:`mnemic.sessions.sql.marks`).
    ``chat_words``, ``message_words`` (version 7): the chat's words, their vectors and
    which message holds which (:mod:`mnemic.sessions.sql.words`).
    ``_migrations``: applied schema versions.

Index maintenance
    Triggers on ``messages`` queue inserted and changed rows in ``fts_pending`` and remove
    deleted ones from the index (or the queue). The store folds the queue into the index
    in one statement when it reaches :data:`PENDING_MAX` rows and before every search, so
    a search always sees every committed message; a bulk batch writes its own messages'
    index rows (computed ahead) in its transaction and takes them off the queue.
    Writing FTS5 row by row costs a new index segment per transaction (about 1 ms at 100k
    messages); folding 32 at a time cuts a durable append to about a third of that.
    FTS5's automerge is off: it works in bursts (every 64 leaf pages written it merges 64
    x levels pages at once, a 30-150 ms stall); each fold merges :data:`MERGE_PAGES`
    pages instead, which bounds the work any single write does.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Protocol

__all__ = [
    "MERGE_PAGES",
    "MIGRATIONS",
    "PENDING_MAX",
    "SCHEMA_VERSION",
    "fts_table_sql",
    "set_meta",
]

PENDING_MAX = 32
"""Queued messages that trigger folding the queue into the index."""
MERGE_PAGES = 64
"""Index pages merged after each fold."""

BODY_SQL = "mnemic_fts_body(m.content)"
AUX_SQL = "mnemic_fts_aux(m.content, m.name, m.tool_name, m.tool_calls)"

FTS_CONFIG = (
    "INSERT INTO messages_fts(messages_fts, rank) VALUES ('hashsize', 16777216)",
    "INSERT INTO messages_fts(messages_fts, rank) VALUES ('automerge', 0)",
)
MERGE_STEP = "INSERT INTO messages_fts(messages_fts, rank) VALUES ('merge', ?)"
FOLD = (
    "INSERT INTO messages_fts(rowid, body, aux) "
    f"SELECT m.id, {BODY_SQL}, {AUX_SQL} FROM fts_pending p JOIN messages m ON m.id = p.id "
    "ORDER BY p.id"
)


def fts_table_sql(tokenizer: str) -> str:
    """``CREATE VIRTUAL TABLE messages_fts`` with ``tokenizer``."""
    tok = tokenizer.replace('"', "")
    return (
        f"CREATE VIRTUAL TABLE messages_fts USING fts5(body, aux, content='', tokenize=\"{tok}\")"
    )


def _old(sql: str) -> str:
    return sql.replace("m.", "old.")


_UNINDEX_OLD = (
    "INSERT INTO messages_fts(messages_fts, rowid, body, aux) "
    f"SELECT 'delete', old.id, {_old(BODY_SQL)}, {_old(AUX_SQL)} "
    "WHERE NOT EXISTS (SELECT 1 FROM fts_pending WHERE id = old.id);"
)

TRIGGERS = (
    """CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
      INSERT INTO fts_pending(id) VALUES (new.id);
    END""",
    f"""CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
      {_UNINDEX_OLD}
      DELETE FROM fts_pending WHERE id = old.id;
    END""",
    f"""CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, name, tool_name, tool_calls
    ON messages BEGIN
      {_UNINDEX_OLD}
      INSERT OR IGNORE INTO fts_pending(id) VALUES (new.id);
    END""",
)

_TABLES = (
    """CREATE TABLE sessions (
        sid INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL,
        title TEXT,
        started_at REAL NOT NULL,
        ended_at REAL,
        end_reason TEXT,
        parent_id TEXT,
        model TEXT,
        message_count INTEGER NOT NULL DEFAULT 0,
        tool_call_count INTEGER NOT NULL DEFAULT 0,
        token_count INTEGER NOT NULL DEFAULT 0,
        last_active REAL NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{}'
    )""",
    "CREATE INDEX sessions_parent ON sessions(parent_id) WHERE parent_id IS NOT NULL",
    "CREATE INDEX sessions_last_active ON sessions(last_active)",
    "CREATE INDEX sessions_title ON sessions(title COLLATE NOCASE) WHERE title IS NOT NULL",
    """CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        sid INTEGER NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL,
        content TEXT,
        name TEXT,
        tool_name TEXT,
        tool_calls TEXT,
        tool_call_id TEXT,
        ts REAL NOT NULL,
        tokens INTEGER NOT NULL DEFAULT 0
    )""",
    "CREATE UNIQUE INDEX messages_order ON messages(sid, seq)",
    "CREATE TABLE fts_pending (id INTEGER PRIMARY KEY)",
)


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    """Set one ``meta`` value."""
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


class _IndexSpec(Protocol):
    tokenizer: str
    segmenter_key: str


def _migration_1(conn: sqlite3.Connection, spec: _IndexSpec) -> None:
    for stmt in (*_TABLES, fts_table_sql(spec.tokenizer), *FTS_CONFIG, *TRIGGERS):
        conn.execute(stmt)
    set_meta(conn, "segmenter", spec.segmenter_key)
    set_meta(conn, "tokenizer", spec.tokenizer)


def _migration_2(conn: sqlite3.Connection, spec: _IndexSpec) -> None:
    # No index: a re-import reads the keys of one session through messages_order.
    conn.execute("ALTER TABLE messages ADD COLUMN source_id TEXT")


VECTOR_TABLES = (
    """CREATE TABLE message_vectors (
        message_id INTEGER PRIMARY KEY,
        model TEXT NOT NULL,
        vec BLOB NOT NULL,
        added INTEGER NOT NULL
    )""",
    "CREATE INDEX message_vectors_added ON message_vectors(added)",
    "INSERT OR IGNORE INTO meta(key, value) VALUES ('vector_deletions', '0')",
    # a vector encodes its message's text and the previous message's: both unlink it
    """CREATE TRIGGER message_vectors_unlink AFTER DELETE ON messages BEGIN
      DELETE FROM message_vectors WHERE message_id = old.id;
      DELETE FROM message_vectors WHERE message_id =
        (SELECT id FROM messages WHERE sid = old.sid AND seq = old.seq + 1);
    END""",
    """CREATE TRIGGER message_vectors_relink AFTER UPDATE OF content, role, sid, seq
    ON messages BEGIN
      DELETE FROM message_vectors WHERE message_id = old.id;
      DELETE FROM message_vectors WHERE message_id =
        (SELECT id FROM messages WHERE sid = old.sid AND seq = old.seq + 1);
      DELETE FROM message_vectors WHERE message_id =
        (SELECT id FROM messages WHERE sid = new.sid AND seq = new.seq + 1);
    END""",
    """CREATE TRIGGER message_vectors_count AFTER DELETE ON message_vectors BEGIN
      UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vector_deletions';
    END""",
)
"""Version 3: message vectors (see :mod:`mnemic.sessions.sql.vectors`)."""


def _migration_3(conn: sqlite3.Connection, spec: _IndexSpec) -> None:
    for stmt in VECTOR_TABLES:
        conn.execute(stmt)


MARK_TABLES = (
    """CREATE TABLE forgotten (
        scope TEXT NOT NULL,
        digest TEXT NOT NULL,
        PRIMARY KEY (scope, digest)
    ) WITHOUT ROWID""",
    "CREATE TABLE import_marks (key TEXT PRIMARY KEY, scope TEXT NOT NULL, mark TEXT NOT NULL)",
    "CREATE INDEX import_marks_scope ON import_marks(scope)",
)
"""Version 4: tombstones and import marks (see :mod:`mnemic.sessions.sql.marks`)."""


def _migration_4(conn: sqlite3.Connection, spec: _IndexSpec) -> None:
    for stmt in MARK_TABLES:
        conn.execute(stmt)


def _migration_5(conn: sqlite3.Connection, spec: _IndexSpec) -> None:
    # NULL for every message written before: their sources' flags were not kept
    conn.execute("ALTER TABLE messages ADD COLUMN is_error INTEGER")
    # the flagged failures alone, newest first (what a search for failed calls reads)
    conn.execute("CREATE INDEX messages_failed ON messages(id) WHERE is_error")


ATTACHMENT_TABLES = (
    """CREATE TABLE message_attachments (
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        pos INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        name TEXT NOT NULL,
        media_type TEXT NOT NULL,
        size INTEGER NOT NULL,
        caption TEXT,
        PRIMARY KEY (message_id, pos)
    ) WITHOUT ROWID""",
    # which links still use a file (forgetting, gc)
    "CREATE INDEX message_attachments_sha ON message_attachments(sha256)",
)
"""Version 6: which message holds which attachment (:mod:`mnemic.sessions.attachments`)."""


def _migration_6(conn: sqlite3.Connection, spec: _IndexSpec) -> None:
    for stmt in ATTACHMENT_TABLES:
        conn.execute(stmt)


_WORDS_OF_OLD = (
    "(SELECT value FROM json_each((SELECT ids FROM message_words WHERE message_id = old.id)))"
)
WORD_TABLES = (
    """CREATE TABLE chat_words (
        id INTEGER PRIMARY KEY,
        word TEXT NOT NULL UNIQUE,
        refs INTEGER NOT NULL,
        model TEXT NOT NULL,
        vec BLOB NOT NULL
    )""",
    "CREATE TABLE message_words (message_id INTEGER PRIMARY KEY, ids TEXT NOT NULL)",
    "INSERT OR IGNORE INTO meta(key, value) VALUES ('word_changes', '0')",
    # a message's words go with its text (and its name): the last message holding a
    # word takes it with it
    f"""CREATE TRIGGER message_words_unlink AFTER DELETE ON messages BEGIN
      UPDATE chat_words SET refs = refs - 1 WHERE id IN {_WORDS_OF_OLD};
      DELETE FROM chat_words WHERE id IN {_WORDS_OF_OLD} AND refs <= 0;
      DELETE FROM message_words WHERE message_id = old.id;
    END""",
    f"""CREATE TRIGGER message_words_relink AFTER UPDATE OF content, name ON messages BEGIN
      UPDATE chat_words SET refs = refs - 1 WHERE id IN {_WORDS_OF_OLD};
      DELETE FROM chat_words WHERE id IN {_WORDS_OF_OLD} AND refs <= 0;
      DELETE FROM message_words WHERE message_id = old.id;
    END""",
    *(
        f"""CREATE TRIGGER chat_words_{what} AFTER {what.upper()} ON chat_words BEGIN
      UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'word_changes';
    END"""
        for what in ("insert", "update", "delete")
    ),
)
"""Version 7: the chat's words and their vectors (see :mod:`mnemic.sessions.sql.words`)."""


def _migration_7(conn: sqlite3.Connection, spec: _IndexSpec) -> None:
    for stmt in WORD_TABLES:
        conn.execute(stmt)


MIGRATIONS: list[tuple[int, str, Callable[[sqlite3.Connection, _IndexSpec], None]]] = [
    (1, "sessions, messages, contentless FTS5 index fed by triggers", _migration_1),
    (2, "messages.source_id: the message's key in the source it was imported from",
     _migration_2),
    (3, "message_vectors: embeddings beside the text, unlinked with their text", _migration_3),
    (4, "forgotten (tombstones of forgotten messages) and import_marks", _migration_4),
    (5, "messages.is_error: a tool result's failure flag as its source gave it", _migration_5),
    (6, "message_attachments: which message holds which attachment", _migration_6),
    (7, "chat_words, message_words: the chat's words and their vectors", _migration_7),
]  # fmt: skip
"""Ordered ``(version, name, function)``; each runs once, in its own transaction."""

SCHEMA_VERSION = MIGRATIONS[-1][0]
