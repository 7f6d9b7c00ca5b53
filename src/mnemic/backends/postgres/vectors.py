"""Message vectors in PostgreSQL: a ``bytea`` table everywhere, pgvector where it exists.

The table, its triggers and its statements are those of the SQLite store
(:mod:`mnemic.sessions.sql.vectors`): ``message_vectors(message_id, model, vec bytea,
added)``, a vector unlinked with its message's text or the previous message's, a
deletion counter in ``meta``, and exact search over a matrix each process keeps in
memory (numpy). Writers of vectors take one advisory transaction lock, so their
``added`` numbers commit in order and a cache that reads "added after N" misses none.

pgvector: when the server offers the ``vector`` extension (``pg_available_extensions``),
:func:`enable_pgvector` creates it, adds a ``vector(384)`` column ``emb`` with an HNSW
index (cosine), and :class:`PgVectors` (the store's vector component) then writes ``emb``
beside ``vec`` and searches with ``ORDER BY emb <=> query`` in the database instead of
the in-memory matrix. That path is written but UNTESTED: the extension cannot be
installed on the machines this was built on; the tests check that the fallback is chosen
and works. Anything failing while enabling it leaves the store on the fallback, with a
warning.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import psycopg

from ...sessions.sql.lexical import filter_condition
from ...sessions.sql.tables import Engine
from ...sessions.sql.vectors import PendingText, SqlVectors
from ...sessions.sql.words import SqlWords
from ...sessions.store import SearchFilters
from .db import Database

__all__ = ["PgVectors", "PgWords", "enable_pgvector", "pgvector_available"]

log = logging.getLogger(__name__)

"""Schema version 4: the fallback table and its triggers (see the module docstring)."""

_DIM = 384


def pgvector_available(db: Database) -> bool:
    """Whether the server offers the pgvector extension (installed or installable)."""
    with db.connection() as conn:
        row = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
    return row is not None


def enable_pgvector(db: Database) -> bool:
    """Create the extension, the ``emb`` column and its HNSW index when the server offers
    pgvector; True when the store can search with it. UNTESTED (see the module
    docstring); any failure leaves the fallback in use."""
    try:
        if not pgvector_available(db):
            return False
        with db.connection() as conn, conn.transaction():
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute(
                db.sql(
                    f"ALTER TABLE {{s}}.message_vectors ADD COLUMN IF NOT EXISTS emb vector({_DIM})"
                )
            )
            conn.execute(
                db.sql(
                    "CREATE INDEX IF NOT EXISTS message_vectors_emb ON {s}.message_vectors "
                    "USING hnsw (emb vector_cosine_ops)"
                )
            )
        return True
    except psycopg.Error as exc:
        log.warning("pgvector is offered but could not be enabled (%s); using exact search", exc)
        return False


def _literal(blob: bytes) -> str:
    """The first float16 vector of a stored row as pgvector's text form ``[a,b,...]``
    (a long message's row holds its whole passage first, then its pieces: pgvector's
    ``vector(384)`` column takes the whole passage)."""
    from ...sessions.sql.vector_cache import decode

    return "[" + ",".join(f"{x:.6g}" for x in decode(blob[: 2 * _DIM]).tolist()) + "]"


class PgVectors(SqlVectors):
    """The vector component of a PostgreSQL session store (see the module docstring)."""

    state_sql = "SELECT value, tableoid::bigint FROM {s}.meta WHERE key = 'vector_deletions'"
    """The count of deleted vectors and the id of the table holding it: a schema dropped
    and migrated again has new tables, whose message ids and ``added`` numbers start
    again, so a process's matrix of the old ones is read again whole (it used to score
    new messages by the old vectors of the same ids, and miss the new vectors)."""

    def __init__(self, tables: Engine[Any], db: Database) -> None:
        super().__init__(tables)
        self.db = db
        self.vector_mode = ""
        """``exact`` (the bytea table, numpy in the client) or ``pgvector``; chosen on
        the first vector write or search (empty until then)."""

    def _lock(self, conn: psycopg.Connection[Any]) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (self.db.key("vectors"),))

    def use_pgvector(self) -> str:
        """Choose pgvector when the server has it, else exact search; return the mode."""
        if not self.vector_mode:
            self.vector_mode = "pgvector" if enable_pgvector(self.db) else "exact"
        return self.vector_mode

    def put(self, model_id: str, rows: Sequence[tuple[PendingText, bytes]]) -> int:
        """As the shared store, plus the ``emb`` column with pgvector (UNTESTED)."""
        written = super().put(model_id, rows)
        tables = self._tables
        if self.use_pgvector() == "pgvector" and written:

            def fill(conn: psycopg.Connection[Any]) -> None:
                tables._many(
                    conn,
                    tables.dialect.sql(
                        "UPDATE {s}.message_vectors SET emb = ?::vector "
                        "WHERE message_id = ? AND vec = ?"
                    ),
                    [(_literal(blob), p.message_id, blob) for p, blob in rows],
                )

            tables._write(fill)
        return written

    def search(
        self, query_vec: Any, model_id: str, filters: SearchFilters, limit: int
    ) -> list[tuple[int, float]]:
        """Exact search in the client, or pgvector's index in the database (UNTESTED)."""
        if self.use_pgvector() != "pgvector" or limit <= 0:
            return super().search(query_vec, model_id, filters, limit)
        from ...sessions.sql.vector_cache import encode

        found = filter_condition(filters, "v.model = ? AND v.emb IS NOT NULL")
        if found is None:
            return []
        where, params = found
        q = _literal(encode(query_vec))
        rows = self._tables._read(
            "SELECT v.message_id, 1 - (v.emb <=> ?::vector) FROM {s}.message_vectors v "
            "JOIN {s}.messages m ON m.id = v.message_id JOIN {s}.sessions s ON s.sid = m.sid "
            f"WHERE {where} ORDER BY v.emb <=> ?::vector LIMIT ?",
            [q, model_id, *params, q, int(limit)],
        )
        return [(int(i), float(c)) for i, c in rows]


class PgWords(SqlWords):
    """The chat's words of a PostgreSQL session store (migration 14): the shared
    statements of :class:`~mnemic.sessions.sql.words.SqlWords`."""

    state_sql = "SELECT value, tableoid::bigint FROM {s}.meta WHERE key = 'word_changes'"
    """The count of changes to the words and the id of the table holding it: a schema
    dropped and migrated again starts counting again (as :attr:`PgVectors.state_sql`)."""
