"""Versioned schema migrations of the PostgreSQL backend.

Each migration is a numbered list of statements applied in one transaction and recorded
in ``{schema}.mnemic_migrations`` (version, name, time). :func:`migrate` holds an
advisory lock for its whole run (and each migration's transaction takes it too), so any
number of hosts may run it at once: the first applies them all, the others find nothing
left to do. Run it explicitly
(``mnemic db migrate``) or let every process do it at start (``[postgres]
migrate_on_start = true``); a process never runs against a schema version it does not
know (:func:`check_schema`, run once per database before its first connection).

Tables (version 1)
    ``curated``            the current text of each target (MEMORY.md, USER.md), with a
                           commit counter ``version``
    ``curated_versions``   previous texts, ``(target, seq)``, bounded by history_limit
    ``curated_backups``    texts saved when drift was detected
    ``sessions``, ``messages``  as in SQLite, plus ``messages.tsv`` (the stored
                           full-text vector, GIN-indexed) and ``ntok`` (its token count)
    ``pending``            staged writes, one JSON record each
    ``audit``, ``audit_head``  the hash-chained journal and its head (count, last hash)
    ``meta``               segmenter and tokenizer the full-text vectors were built with

Version 2
    ``messages.source_id``  the message's key in the source it was imported from (a
                           re-import adds only the messages whose key is new)

Version 3
    ``curated_provenance``  the provenance ledger of each target (who wrote each entry,
                           and when; see :mod:`mnemic.curated.provenance`), one row per
                           target, written in the transaction of the text it describes

Version 4
    ``message_vectors``    one embedding per message and the model that made it, unlinked
                           by triggers with its text (:mod:`.vectors`)
Version 5
    drops ``messages_recent``, the BRIN index on ``messages.id``: combined with the GIN
    index its lossy bitmap made a search window re-test every row in it; the windows use
    the primary key's exact bitmap (see :mod:`.fulltext`). ``DROP INDEX IF EXISTS``:
    safe to run again, quick (no table rewrite).
Version 6
    ``forgotten``          the tombstones forgetting leaves (a hash of each forgotten
                           message's identity, never its text), so an import does not
                           bring it back; ``import_marks``: how far a file that only grows
                           was imported (both: :mod:`mnemic.sessions.sql.marks`)
Version 7
    ``audit_targets``      each target's state at its last commit record, and the one
                           that commit started from (kept by every append: what the next
                           writer compares the text it finds with); ``journal_fold``: the
                           cached fold of the journal (provenance and the archive,
                           :mod:`mnemic.curated.fold_cache`); ``audit_head.generation``,
                           changed when the journal's texts are rewritten (``forget``)
                           so that a fold of the old lines is not used again.
                           ``curated_provenance`` is no longer written (read for homes
                           upgraded from it).
Version 8
    ``projects``           the catalog of project stores (id, directory, when made): a
                           project's store exists once its row does
                           (:mod:`mnemic.curated.scope`)
    a ``project`` column (``''``: the global store; else the project's id) on every
    table of curated memory and its governance (``curated``, ``curated_versions``,
    ``curated_backups``, ``curated_provenance``, ``pending``, ``audit``, ``audit_head``,
    ``audit_targets``, ``journal_fold``), in front of each primary key: each project
    has its own texts, history, queue and hash chain beside the global ones. Existing
    rows become the global store's (the column's default); nothing is rewritten
    (a constant default), each primary key's index is rebuilt.
Version 9
    ``messages.is_error``  a tool result's failure flag as its source gave it (Claude
                           Code's ``is_error``; NULL when the source gave none, as for
                           every message written before): nullable, no table rewrite;
                           ``messages_failed``, a partial index of the flagged ones
Version 10
    ``message_attachments``  the files a message holds, one row each (hash, name, media
                             type, size, caption; the bytes in ``<home>/attachments``),
                             deleted with their message; a new table, nothing rewritten
Version 11
    ``curated_write`` (with ``curated_fill``)  a curated add or remove decided and
                           written by the server in one wake-up, its audit record
                           filled and chained there (:mod:`.curated_server`); a write
                           it cannot decide takes the client's path. ``curated.clean``:
                           the hash of the text it last wrote, known clean (any other
                           writer leaves it stale: the text is checked whole then)
Version 12
    ``curated_write`` replaced: it also takes a ``replace``, and a guarded call's loop
                           guards (the entries its session has seen, those its
                           oscillation guard will not flip again). A role that may not
                           replace the function (not its owner, say) keeps migration
                           11's: the migration is recorded, the function left as it was,
                           and its processes take the client's path (asked once each)
Version 13
    ``curated_requests`` (unlogged) and ``curated_queue``  group commit in the server
                           (``[memory] group_commit = "queue"``): a writer that finds
                           the target's lock busy leaves its request, and the lock's
                           holder applies the waiting requests with its own in one
                           transaction (:mod:`.curated_queue`); new objects, nothing
                           rewritten
Version 14
    ``chat_words``, ``message_words``  the chat's words and their vectors (``bytea``, as
                           ``message_vectors``), what the cross-language bridge reads
                           (:mod:`mnemic.sessions.sql.words`); a message's links go with
                           its text or name (triggers), a word with its last message;
                           ``meta.word_changes`` counts changes to the words. New tables,
                           nothing rewritten: a store embedded before them fills them
                           with ``mnemic sessions embed``
Version 15
    ``curated_write`` and ``curated_queue`` replaced in place: a project store's write
                           reads the store's tombstone (``meta`` ``removed_project:<id>``,
                           left by ``mnemic project forget`` / ``move``) under the
                           target's lock and is answered ``removed`` (when, and a move's
                           new id), nothing written; a queued writer whose request the
                           removal took out writes itself and gets that answer (before,
                           none). A role that may not replace them keeps the old ones
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator, Sequence
from typing import Any

from ...errors import StorageError
from .curated_queue import (
    BATCHES as QUEUE_BATCHES,
    INDEX as QUEUE_INDEX,
    MS as QUEUE_MS,
    PRESET as QUEUE_PRESET,
    PROCEDURE as QUEUE,
    PROCEDURE_15 as QUEUE_15,
    TABLE as REQUESTS,
)
from .curated_server import FILL, FUNCTION, FUNCTION_15
from .curated_server_11 import FUNCTION_11, SIGNATURE_11
from .db import Database, atomic, failure

log = logging.getLogger("mnemic.backends.postgres.migrations")

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "applied",
    "check_schema",
    "current_version",
    "migrate",
]

_V1 = [
    "CREATE TABLE {s}.meta (key text PRIMARY KEY, value text NOT NULL)",
    """CREATE TABLE {s}.curated (
        target text PRIMARY KEY,
        body text NOT NULL,
        version bigint NOT NULL DEFAULT 1,
        updated_at double precision NOT NULL DEFAULT extract(epoch FROM now())
    )""",
    """CREATE TABLE {s}.curated_versions (
        target text NOT NULL,
        seq bigint NOT NULL,
        saved_at double precision NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (target, seq)
    )""",
    """CREATE TABLE {s}.curated_backups (
        id bigserial PRIMARY KEY,
        target text NOT NULL,
        saved_at double precision NOT NULL,
        body text NOT NULL
    )""",
    """CREATE TABLE {s}.sessions (
        sid bigserial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        source text NOT NULL,
        title text,
        started_at double precision NOT NULL,
        ended_at double precision,
        end_reason text,
        parent_id text,
        model text,
        message_count integer NOT NULL DEFAULT 0,
        tool_call_count integer NOT NULL DEFAULT 0,
        token_count bigint NOT NULL DEFAULT 0,
        last_active double precision NOT NULL,
        metadata text NOT NULL DEFAULT '{}',
        index_tokens bigint NOT NULL DEFAULT 0
    )""",
    "CREATE INDEX sessions_parent ON {s}.sessions (parent_id) WHERE parent_id IS NOT NULL",
    "CREATE INDEX sessions_last_active ON {s}.sessions (last_active)",
    "CREATE INDEX sessions_title ON {s}.sessions ({s}.fold_ascii(title)) WHERE title IS NOT NULL",
    """CREATE TABLE {s}.messages (
        id bigserial PRIMARY KEY,
        sid bigint NOT NULL REFERENCES {s}.sessions (sid) ON DELETE CASCADE,
        seq integer NOT NULL,
        ts double precision NOT NULL,
        tokens integer NOT NULL DEFAULT 0,
        ntok integer NOT NULL DEFAULT 0,
        naux integer NOT NULL DEFAULT 0,
        role text NOT NULL,
        content text,
        name text,
        tool_name text,
        tool_calls text,
        tool_call_id text,
        tsv tsvector NOT NULL DEFAULT ''::tsvector
    )""",
    "CREATE UNIQUE INDEX messages_order ON {s}.messages (sid, seq)",
    "CREATE INDEX messages_tsv ON {s}.messages USING gin (tsv) WITH (fastupdate = off)",
    "CREATE INDEX messages_recent ON {s}.messages USING brin (id) WITH (pages_per_range = 16)",
    """CREATE TABLE {s}.pending (
        subsystem text NOT NULL,
        id text NOT NULL,
        created_at double precision NOT NULL,
        record text NOT NULL,
        PRIMARY KEY (subsystem, id)
    )""",
    "CREATE TABLE {s}.audit (seq bigint PRIMARY KEY, line text NOT NULL)",
    """CREATE TABLE {s}.audit_head (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        count bigint NOT NULL,
        hash text NOT NULL
    )""",
    "INSERT INTO {s}.audit_head (singleton, count, hash) VALUES (true, 0, repeat('0', 64))",
]

_FOLD_ASCII = (
    "CREATE FUNCTION {s}.fold_ascii(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT "
    "PARALLEL SAFE AS $$ SELECT translate($1, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', "
    "'abcdefghijklmnopqrstuvwxyz') $$"
)
"""ASCII-only case folding: what SQLite's ``COLLATE NOCASE`` does for titles."""

_V2 = [
    # nullable, no default: PostgreSQL adds it without rewriting the table; no index (a
    # re-import reads one session's keys through messages_order)
    "ALTER TABLE {s}.messages ADD COLUMN source_id text",
]

_V3 = [
    """CREATE TABLE {s}.curated_provenance (
        target text PRIMARY KEY,
        ledger text NOT NULL,
        updated_at double precision NOT NULL
    )""",
]

# the table of :mod:`.vectors` (here, so that checking the schema loads nothing of the
# session search)
_V4 = [
    """CREATE TABLE {s}.message_vectors (
        message_id bigint PRIMARY KEY,
        model text NOT NULL,
        vec bytea NOT NULL,
        added bigint NOT NULL
    )""",
    "CREATE INDEX message_vectors_added ON {s}.message_vectors (added)",
    "INSERT INTO {s}.meta (key, value) VALUES ('vector_deletions', '0') "
    "ON CONFLICT (key) DO NOTHING",
    """CREATE FUNCTION {s}.mnemic_unlink_vectors() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM {s}.message_vectors WHERE message_id = OLD.id;
      DELETE FROM {s}.message_vectors WHERE message_id =
        (SELECT id FROM {s}.messages WHERE sid = OLD.sid AND seq = OLD.seq + 1);
      IF TG_OP = 'UPDATE' THEN
        DELETE FROM {s}.message_vectors WHERE message_id =
          (SELECT id FROM {s}.messages WHERE sid = NEW.sid AND seq = NEW.seq + 1);
      END IF;
      RETURN NULL;
    END $$""",
    "CREATE TRIGGER message_vectors_unlink AFTER DELETE ON {s}.messages "
    "FOR EACH ROW EXECUTE FUNCTION {s}.mnemic_unlink_vectors()",
    "CREATE TRIGGER message_vectors_relink AFTER UPDATE OF content, role, sid, seq "
    "ON {s}.messages FOR EACH ROW EXECUTE FUNCTION {s}.mnemic_unlink_vectors()",
    """CREATE FUNCTION {s}.mnemic_count_vector_deletions() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE {s}.meta SET value = (value::bigint + 1)::text WHERE key = 'vector_deletions';
      RETURN NULL;
    END $$""",
    "CREATE TRIGGER message_vectors_count AFTER DELETE ON {s}.message_vectors "
    "FOR EACH ROW EXECUTE FUNCTION {s}.mnemic_count_vector_deletions()",
]

_V5 = [
    # GIN AND a lossy BRIN bitmap kept whole pages: every row of an id window was
    # re-tested instead of the term's matches alone; the primary key's bitmap is exact
    "DROP INDEX IF EXISTS {s}.messages_recent",
]

_V6 = [
    """CREATE TABLE {s}.forgotten (
        scope text NOT NULL,
        digest text NOT NULL,
        PRIMARY KEY (scope, digest)
    )""",
    "CREATE TABLE {s}.import_marks (key text PRIMARY KEY, scope text NOT NULL, mark text NOT NULL)",
    "CREATE INDEX import_marks_scope ON {s}.import_marks (scope)",
]

_V7 = [
    # the journal is the one record of memory: what a reader folds, what an append needs
    "ALTER TABLE {s}.audit_head ADD COLUMN generation text NOT NULL DEFAULT md5(random()::text)",
    """CREATE TABLE {s}.audit_targets (
        target text PRIMARY KEY,
        state text,
        origin text,
        origin_known boolean NOT NULL DEFAULT false
    )""",
    """CREATE TABLE {s}.journal_fold (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        ident text NOT NULL,
        body text NOT NULL
    )""",
]

_SCOPED = {
    # table: its primary key after version 8 (None: the key is unchanged)
    "curated": "project, target",
    "curated_versions": "project, target, seq",
    "curated_backups": None,
    "curated_provenance": "project, target",
    "pending": "project, subsystem, id",
    "audit": "project, seq",
    "audit_head": "project",
    "audit_targets": "project, target",
    "journal_fold": "project",
}

_V8 = [
    """CREATE TABLE {s}.projects (
        id text PRIMARY KEY,
        path text NOT NULL,
        created_at double precision NOT NULL
    )""",
    *(f"ALTER TABLE {{s}}.{t} ADD COLUMN project text NOT NULL DEFAULT ''" for t in _SCOPED),
    *(
        f"ALTER TABLE {{s}}.{t} DROP CONSTRAINT {t}_pkey, ADD PRIMARY KEY ({key})"
        for t, key in _SCOPED.items()
        if key is not None
    ),
    "CREATE INDEX curated_backups_project ON {s}.curated_backups (project, target)",
]

_V9 = [
    # nullable, no default (no table rewrite): NULL for the messages written before
    "ALTER TABLE {s}.messages ADD COLUMN is_error boolean",
    # the flagged failures alone, newest first (what a search for failed calls reads)
    "CREATE INDEX messages_failed ON {s}.messages (id) WHERE is_error",
]

_V10 = [
    """CREATE TABLE {s}.message_attachments (
        message_id bigint NOT NULL REFERENCES {s}.messages (id) ON DELETE CASCADE,
        pos integer NOT NULL,
        sha256 text NOT NULL,
        name text NOT NULL,
        media_type text NOT NULL,
        size bigint NOT NULL,
        caption text,
        PRIMARY KEY (message_id, pos)
    )""",
    # which links still use a file (forgetting, gc)
    "CREATE INDEX message_attachments_sha ON {s}.message_attachments (sha256)",
]

_V11 = [
    # the hash of the text curated_write last wrote (clean by construction); nullable,
    # no default: no table rewrite
    "ALTER TABLE {s}.curated ADD COLUMN clean text",
    FILL,
    FUNCTION_11,
]
# the server's half of a curated add or remove (:mod:`.curated_server`): two functions,
# nothing rewritten; a role that may not run them keeps today's path

_V12: list[str | tuple[str, ...]] = [
    # together or not at all: a role that may not drop or create it keeps migration 11's
    (f"DROP FUNCTION {SIGNATURE_11}", FUNCTION),
]
# the server's half of a curated add, remove or replace, with a guarded call's guards

_V13 = [REQUESTS, QUEUE_INDEX, QUEUE_BATCHES, QUEUE_PRESET, QUEUE_MS, QUEUE]
# group commit in the server (:mod:`.curated_queue`): new objects, nothing rewritten

_WORDS_OF_OLD = (
    "SELECT value::bigint FROM {s}.message_words w, json_array_elements_text(w.ids::json) "
    "WHERE w.message_id = OLD.id"
)
_V14 = [
    """CREATE TABLE {s}.chat_words (
        id bigserial PRIMARY KEY,
        word text NOT NULL UNIQUE,
        refs integer NOT NULL,
        model text NOT NULL,
        vec bytea NOT NULL
    )""",
    "CREATE TABLE {s}.message_words (message_id bigint PRIMARY KEY, ids text NOT NULL)",
    "INSERT INTO {s}.meta (key, value) VALUES ('word_changes', '0') ON CONFLICT (key) DO NOTHING",
    # a message's words go with its text (and its name): the last message holding a
    # word takes it with it
    f"""CREATE FUNCTION {{s}}.mnemic_unlink_words() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM {{s}}.message_words WHERE message_id = OLD.id) THEN
        -- the words' counter before the words: the order a writer of words takes them in
        PERFORM 1 FROM {{s}}.meta WHERE key = 'word_changes' FOR UPDATE;
        UPDATE {{s}}.chat_words SET refs = refs - 1 WHERE id IN ({_WORDS_OF_OLD});
        DELETE FROM {{s}}.chat_words WHERE id IN ({_WORDS_OF_OLD}) AND refs <= 0;
        DELETE FROM {{s}}.message_words WHERE message_id = OLD.id;
      END IF;
      RETURN NULL;
    END $$""",
    "CREATE TRIGGER message_words_unlink AFTER DELETE ON {s}.messages "
    "FOR EACH ROW EXECUTE FUNCTION {s}.mnemic_unlink_words()",
    "CREATE TRIGGER message_words_relink AFTER UPDATE OF content, name ON {s}.messages "
    "FOR EACH ROW EXECUTE FUNCTION {s}.mnemic_unlink_words()",
    """CREATE FUNCTION {s}.mnemic_count_word_changes() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE {s}.meta SET value = (value::bigint + 1)::text WHERE key = 'word_changes';
      RETURN NULL;
    END $$""",
    "CREATE TRIGGER chat_words_count AFTER INSERT OR UPDATE OR DELETE ON {s}.chat_words "
    "FOR EACH ROW EXECUTE FUNCTION {s}.mnemic_count_word_changes()",
]
# the chat's words (:mod:`mnemic.sessions.sql.words`): new objects, nothing rewritten
_REPLACEABLE = """DO $guard$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'curated_write'
                   AND pronamespace = '{s}'::regnamespace AND pronargs = 15) THEN
        RAISE EXCEPTION 'must be owner of function curated_write (migration 11''s kept)'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
END $guard$"""
_V15: list[str | tuple[str, ...]] = [(_REPLACEABLE, FUNCTION_15), (QUEUE_15,)]
# the tombstone read in the server (:data:`.curated_server.TOMBSTONE`): both replaced in
# place (same signatures); a role that may not replace one keeps the old (its writers
# then fall back, as before, and the client's path reads the tombstone). Where migration
# 12 left 11's function (a role that may not replace it), none is made beside it

MIGRATIONS: list[tuple[int, str, Sequence[str | tuple[str, ...]]]] = [
    (1, "curated targets and versions, sessions with tsvector index, pending, audit",
     [_FOLD_ASCII, *_V1]),
    (2, "messages.source_id: the message's key in the source it was imported from", _V2),
    (3, "curated_provenance: who wrote each curated entry, and when", _V3),
    (4, "message_vectors: embeddings beside the text, unlinked with their text", _V4),
    (5, "messages: drop the BRIN index on id (search windows use the primary key)", _V5),
    (6, "forgotten (tombstones of forgotten messages) and import_marks", _V6),
    (7, "audit_targets, journal_fold, audit_head.generation: the journal folded", _V7),
    (8, "projects, and a project column on curated and governance tables", _V8),
    (9, "messages.is_error: a tool result's failure flag as its source gave it", _V9),
    (10, "message_attachments: which message holds which attachment", _V10),
    (11, "curated_write: a curated add or remove decided in the server", _V11),
    (12, "curated_write: replace, and a guarded call's loop guards, in the server", _V12),
    (13, "curated_requests, curated_queue: group commit in the server", _V13),
    (14, "chat_words, message_words: the chat's words and their vectors", _V14),
    (15, "curated_write, curated_queue: a removed project store's writer refused", _V15),
]  # fmt: skip
"""Ordered ``(version, name, statements)``; each runs once, in its own transaction. A
tuple of statements runs under a savepoint: a role without the privilege they need
(``insufficient_privilege``) skips them (logged), the rest of the migration applies."""

SCHEMA_VERSION = MIGRATIONS[-1][0]

_LEDGER = (
    "CREATE TABLE IF NOT EXISTS {s}.mnemic_migrations ("
    "version integer PRIMARY KEY, name text NOT NULL, applied_at double precision NOT NULL)"
)


def current_version(db: Database) -> int:
    """The schema version recorded in the database (0: no mnemic schema yet)."""
    try:
        with db.raw_connection() as conn:
            row = conn.execute(
                "SELECT to_regclass(%s) IS NOT NULL", (f"{db.schema}.mnemic_migrations",)
            ).fetchone()
            if not row or not row[0]:
                return 0
            found = conn.execute(db.sql("SELECT max(version) FROM {s}.mnemic_migrations"))
            value = found.fetchone()
    except StorageError:
        raise
    except Exception as exc:
        raise failure(exc, db.location, writing=False) from exc
    return int(value[0] or 0) if value else 0


def applied(db: Database) -> list[dict[str, Any]]:
    """The migrations recorded in the database, oldest first."""
    if current_version(db) == 0:
        return []
    with db.raw_connection() as conn:
        rows = conn.execute(
            db.sql("SELECT version, name, applied_at FROM {s}.mnemic_migrations ORDER BY 1")
        ).fetchall()
    return [{"version": int(v), "name": n, "applied_at": float(t)} for v, n, t in rows]


def migrate(db: Database) -> list[int]:
    """Apply the migrations the database lacks; return the versions applied now."""
    done: list[int] = []
    try:
        with db.raw_connection() as conn, _migrating(conn, db):
            for version, name, statements in MIGRATIONS:
                with atomic(conn):
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (db.key("migrate"),))
                    found = conn.execute(
                        "SELECT to_regclass(%s) IS NOT NULL", (f"{db.schema}.mnemic_migrations",)
                    ).fetchone()
                    if not (found and found[0]):  # (CREATE ... IF NOT EXISTS needs the right)
                        conn.execute(db.sql("CREATE SCHEMA IF NOT EXISTS {s}"))
                        conn.execute(db.sql(_LEDGER))
                    row = conn.execute(
                        db.sql("SELECT COALESCE(max(version), 0) FROM {s}.mnemic_migrations")
                    ).fetchone()
                    have = int(row[0]) if row else 0
                    if have > SCHEMA_VERSION:
                        raise StorageError(
                            f"The mnemic schema at {db.location} is at version {have}, newer "
                            f"than this mnemic ({SCHEMA_VERSION}). Upgrade mnemic."
                        )
                    if have >= version:
                        continue
                    for statement in statements:
                        if isinstance(statement, tuple):
                            _if_allowed(conn, db, version, statement)
                        else:
                            conn.execute(db.sql(statement))
                    if version == 1:
                        from .lexer import index_meta  # the session search's tables

                        for key, value in index_meta().items():
                            conn.execute(
                                db.sql("INSERT INTO {s}.meta (key, value) VALUES (%s, %s)"),
                                (key, value),
                            )
                    conn.execute(
                        db.sql(
                            "INSERT INTO {s}.mnemic_migrations (version, name, applied_at) "
                            "VALUES (%s, %s, %s)"
                        ),
                        (version, name, time.time()),
                    )
                done.append(version)
    except StorageError:
        raise
    except Exception as exc:
        raise failure(exc, db.location, writing=True) from exc
    return done


@contextlib.contextmanager
def _migrating(conn: Any, db: Database) -> Iterator[None]:
    """Hold the schema's migration lock for the whole run, not only for each migration's
    transaction: two hosts migrating at once took turns migration by migration, and each
    reported a share of them ("Applied migration(s) 4, 6, 7, 10, 11"); now the first
    applies them all and the others find nothing to do. Each migration's transaction
    still takes the lock (granted at once to this session), as before."""
    key = db.key("migrate")
    conn.execute("SELECT pg_advisory_lock(%s)", (key,))
    try:
        yield
    finally:
        if not (conn.broken or conn.closed):  # a lost connection took the lock with it
            with contextlib.suppress(Exception):
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))


def _if_allowed(conn: Any, db: Database, version: int, statements: tuple[str, ...]) -> None:
    """Run ``statements`` under a savepoint; a role without the privilege they need
    leaves them undone (and logged) instead of failing the whole migration."""
    from psycopg import errors

    try:
        with conn.transaction():
            for statement in statements:
                conn.execute(db.sql(statement))
    except errors.InsufficientPrivilege as exc:
        log.warning(
            "migration %d: %s; left as it was (this role may not change it)",
            version,
            str(exc).strip().splitlines()[0],
        )


def status(db: Database) -> dict[str, Any]:
    """What ``mnemic db status`` shows: where, versions, and how much is stored."""
    out: dict[str, Any] = {
        "location": db.location,
        "schema": db.schema,
        "code_version": SCHEMA_VERSION,
    }
    version = current_version(db)
    out["schema_version"] = version
    out["pending_migrations"] = [{"version": v, "name": n} for v, n, _ in MIGRATIONS if v > version]
    out["applied"] = applied(db)
    with db.raw_connection() as conn:
        row = conn.execute("SHOW server_version").fetchone()
        out["server_version"] = str(row[0]) if row else "?"
        if version >= 1:
            counts = {}
            for name, sql in (
                ("targets", "SELECT count(*) FROM {s}.curated"),
                ("versions", "SELECT count(*) FROM {s}.curated_versions"),
                ("backups", "SELECT count(*) FROM {s}.curated_backups"),
                ("sessions", "SELECT count(*) FROM {s}.sessions"),
                ("messages", "SELECT count(*) FROM {s}.messages"),
                ("pending", "SELECT count(*) FROM {s}.pending"),
                ("audit_records", "SELECT sum(count) FROM {s}.audit_head"),
                ("projects", "SELECT count(*) FROM {s}.projects" if version >= 8 else ""),
            ):
                found = conn.execute(db.sql(sql)).fetchone() if sql else None
                counts[name] = int(found[0] or 0) if found else 0
            out["counts"] = counts
    return out


def check_schema(db: Database) -> None:
    """Refuse a schema this mnemic cannot use (missing, older, newer), migrating first
    when ``postgres.migrate_on_start`` is set: the check every store of a home runs once
    before its first connection (:meth:`Database.ensure_ready`)."""
    version = current_version(db)
    if version != SCHEMA_VERSION and db.migrate_on_start and version < SCHEMA_VERSION:
        migrate(db)
        version = current_version(db)
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"The mnemic schema at {db.location} is at version {version}, newer "
            f"than this mnemic understands ({SCHEMA_VERSION}). Upgrade mnemic on "
            "this host."
        )
    if version < SCHEMA_VERSION:
        state = "does not exist yet" if version == 0 else f"is at version {version}"
        raise StorageError(
            f"The mnemic schema at {db.location} {state}; this mnemic needs "
            f"version {SCHEMA_VERSION}. Run `mnemic db migrate` (or set "
            "postgres.migrate_on_start = true)."
        )
