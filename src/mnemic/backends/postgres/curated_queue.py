"""Group commit in the server: one writer holding a target's lock applies the waiting
writers' requests with its own, in one transaction (``[memory] group_commit = "queue"``
on a PostgreSQL store; migration 13).

A write :data:`~.curated_server.FUNCTION` can decide is sent as ``CALL
{schema}.curated_queue(...)`` (:data:`PROCEDURE`), its own query: a procedure that
commits in between, so not inside ``BEGIN``. The writer tries the target's advisory lock
without waiting; free, it is the holder and leaves no request. Busy, it inserts its
request (every argument ``curated_write`` takes, and its server process's ``pid``) into
``curated_requests`` and commits it, then waits for the lock in shared mode, granted to
every such waiter at once when the holder commits: answered, it reads its answer and
ends; not answered (it came after the holder listed the queue), it waits for the lock in
exclusive mode, for what is left of its ``lock_timeout``, and reads its answer or becomes
the holder.

The holder locks the audit head, lists the pending requests of its store and target,
oldest first (``FOR UPDATE``), drops those whose writer's server process is gone, and
runs ``curated_write`` for each, each in a subtransaction (an error is that request's
``fallback:error``), storing each answer in its row, then its own; everything commits in
one ``COMMIT`` (``synchronous_commit = off`` when the role may flush), and every writer
ends with the flushed WAL message (:data:`~.curated_begin.FLUSH`), so an answer is
durable when it is heard. The table is ``UNLOGGED``: a request exists only while its
writer's server process waits for it, and a server crash empties it. The crash argument
is in ``docs/postgres.md``, "Group commit in the server: a request queue".

A call that fails on a live connection takes its request back (:data:`TAKE_BACK`, on the
same connection): still pending, it is deleted (nothing was written: the error is a
known outcome); answered meanwhile by a holder, the answer is its result.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable
from typing import Any

from ...errors import StorageError
from .curated_begin import Owner, flushes, is_db_error, rollback
from .db import failure, is_lock_timeout

__all__ = [
    "BATCHES",
    "INDEX",
    "LZ4_SESSION",
    "MS",
    "PRESET",
    "PROCEDURE",
    "PROCEDURE_15",
    "TABLE",
    "TAKE_BACK",
    "Answer",
    "queue_write",
]

log = logging.getLogger("mnemic.backends.postgres.curated")

Answer = tuple[str, "str | None", "str | None"]
"""What ``curated_write`` answered for one write: outcome, the text found, the record."""

TABLE = """CREATE UNLOGGED TABLE {s}.curated_requests (
    id bigserial PRIMARY KEY,
    project text NOT NULL,
    target text NOT NULL,
    pid integer NOT NULL,
    action text NOT NULL,
    selector text NOT NULL,
    content text,
    known text[],
    frozen text[] NOT NULL,
    budget integer NOT NULL,
    history integer NOT NULL,
    saved_at double precision NOT NULL,
    arrived timestamptz NOT NULL,
    body text[] NOT NULL,
    body_slots text[] NOT NULL,
    line text[] NOT NULL,
    line_slots text[] NOT NULL,
    outcome text,
    found text,
    answer text
)"""
"""The requests waiting for a holder, and their answers until their writers read them
(``outcome`` NULL: pending)."""

INDEX = (
    "CREATE INDEX curated_requests_pending ON {s}.curated_requests (project, target, id) "
    "WHERE outcome IS NULL"
)
"""What a holder lists."""

BATCHES = "CREATE SEQUENCE {s}.curated_requests_batch"
"""The latest batch a holder announced: its writers wait for that batch's lock."""

PRESET = r"""CREATE FUNCTION {s}.curated_preset(frags text[], slots text[], name text,
    val text, OUT o_frags text[], OUT o_slots text[])
LANGUAGE plpgsql IMMUTABLE AS $preset$
BEGIN
    o_frags := ARRAY[frags[1]];
    o_slots := '{}';
    FOR i IN 1 .. coalesce(array_length(slots, 1), 0) LOOP
        IF slots[i] = name THEN
            o_frags[cardinality(o_frags)] := o_frags[cardinality(o_frags)] || val || frags[i + 1];
        ELSE
            o_slots := o_slots || slots[i];
            o_frags := o_frags || frags[i + 1];
        END IF;
    END LOOP;
END
$preset$"""
"""A record's pieces (:data:`~.curated_server.FILL`'s) with the placeholder ``name``
filled with ``val`` and taken out of the placeholders."""

MS = r"""CREATE FUNCTION {s}.curated_ms(since timestamptz) RETURNS text
LANGUAGE sql VOLATILE AS $ms$
SELECT regexp_replace(regexp_replace(round((extract(epoch FROM clock_timestamp() - since)
    * 1000)::numeric, 3)::text, '0+$', ''), '\.$', '.0')
$ms$"""
"""The milliseconds since ``since`` as a record writes them (Python's ``repr`` of the
float rounded to 3 places, as ``curated_write`` writes its ``lock_wait_ms``)."""

PROCEDURE = r"""CREATE PROCEDURE {s}.curated_queue(
    p_project text, p_target text, p_lock bigint, p_action text, p_text text,
    p_content text, p_known text[], p_frozen text[],
    p_limit integer, p_history integer, p_now double precision,
    p_body text[], p_body_slots text[], p_line text[], p_line_slots text[],
    p_timeout integer, p_early boolean,
    INOUT o_outcome text DEFAULT NULL, INOUT o_found text DEFAULT NULL,
    INOUT o_line text DEFAULT NULL)
LANGUAGE plpgsql AS $q$
DECLARE
    t0 timestamptz := clock_timestamp();
    left_ms integer;
    batch bigint := NULL;
    seen bigint := -1;
    mine bigint := NULL;
    live integer[] := NULL;
    r record;
    r_outcome text;
    r_found text;
    r_line text;
    waited text;
    rb record;
    rl record;
BEGIN
    IF NOT pg_try_advisory_xact_lock(p_lock) THEN
        -- busy: leave the request where the holder can see it
        INSERT INTO {s}.curated_requests AS q (project, target, pid, action, selector,
            content, known, frozen, budget, history, saved_at, arrived, body, body_slots,
            line, line_slots)
        VALUES (p_project, p_target, pg_backend_pid(), p_action, p_text, p_content,
            p_known, p_frozen, p_limit, p_history, p_now, t0, p_body, p_body_slots, p_line,
            p_line_slots)
        RETURNING q.id INTO mine;
        COMMIT;
        LOOP
            left_ms := p_timeout - (extract(epoch FROM clock_timestamp() - t0) * 1000)::integer;
            IF left_ms < 1 THEN
                RAISE EXCEPTION 'canceling statement due to lock timeout'
                    USING ERRCODE = 'lock_not_available';
            END IF;
            PERFORM set_config('lock_timeout', left_ms::text, true);
            SELECT e.last_value INTO batch FROM {s}.curated_requests_batch e;
            IF batch IS NOT DISTINCT FROM seen THEN
                -- the holder has not announced its batch yet: wait for the lock itself
                PERFORM pg_advisory_xact_lock(p_lock);
            ELSE
                -- wait for the holder of the latest batch to end (a lock only batches
                -- take: the next holder never waits for this writer to read its answer)
                PERFORM pg_advisory_xact_lock_shared(p_lock # (1 + batch % 8));
            END IF;
            SELECT q.outcome, q.found, q.answer INTO o_outcome, o_found, o_line
                FROM {s}.curated_requests q WHERE q.id = mine;
            IF o_outcome IS NOT NULL THEN
                DELETE FROM {s}.curated_requests q WHERE q.id = mine;
                COMMIT;
                IF p_early THEN  -- answered once the holder's COMMIT is flushed
                    PERFORM pg_logical_emit_message(true, 'mnemic', '');
                END IF;
                RETURN;
            END IF;
            EXIT WHEN batch IS NOT DISTINCT FROM seen;  -- it holds the lock
            COMMIT;
            EXIT WHEN pg_try_advisory_xact_lock(p_lock);  -- free: this writer holds it
            seen := batch;
        END LOOP;
    END IF;
    -- the holder: announce its batch, then every pending request of this target, in
    -- arrival order, then its own
    batch := nextval('{s}.curated_requests_batch');
    IF p_early THEN
        PERFORM set_config('synchronous_commit', 'off', true);
    END IF;
    PERFORM set_config('lock_timeout', greatest(1, p_timeout
        - (extract(epoch FROM clock_timestamp() - t0) * 1000)::integer)::text, true);
    PERFORM pg_advisory_xact_lock(p_lock # (1 + batch % 8));
    PERFORM 1 FROM {s}.audit_head h WHERE h.project = p_project FOR UPDATE;
    FOR r IN SELECT q.* FROM {s}.curated_requests q
             WHERE q.project = p_project AND q.target = p_target AND q.outcome IS NULL
             ORDER BY q.id FOR UPDATE
    LOOP
        IF r.id IS DISTINCT FROM mine THEN
            IF live IS NULL THEN
                live := ARRAY(SELECT pg_stat_get_backend_pid(b)
                              FROM pg_stat_get_backend_idset() b);
            END IF;
            IF NOT (r.pid = ANY (live)) THEN  -- its writer is gone: nobody waits for it
                DELETE FROM {s}.curated_requests q WHERE q.id = r.id;
                CONTINUE;
            END IF;
        END IF;
        -- its record's lock_wait_ms: from its call to now, when it is applied
        waited := {s}.curated_ms(r.arrived);
        SELECT * INTO rb FROM {s}.curated_preset(r.body, r.body_slots, 'lock_wait_ms', waited);
        SELECT * INTO rl FROM {s}.curated_preset(r.line, r.line_slots, 'lock_wait_ms', waited);
        BEGIN
            SELECT w.o_outcome, w.o_found, w.o_line INTO r_outcome, r_found, r_line
                FROM {s}.curated_write(r.project, r.target, p_lock, r.action, r.selector,
                    r.content, r.known, r.frozen, r.budget, r.history, r.saved_at,
                    rb.o_frags, rb.o_slots, rl.o_frags, rl.o_slots) w;
        EXCEPTION WHEN OTHERS THEN  -- undone alone; its writer meets the error itself
            r_outcome := 'fallback:error';
            r_found := NULL;
            r_line := NULL;
        END;
        UPDATE {s}.curated_requests q
            SET outcome = r_outcome, found = r_found, answer = r_line WHERE q.id = r.id;
    END LOOP;
    IF mine IS NULL THEN
        waited := {s}.curated_ms(t0);
        SELECT * INTO rb FROM {s}.curated_preset(p_body, p_body_slots, 'lock_wait_ms', waited);
        SELECT * INTO rl FROM {s}.curated_preset(p_line, p_line_slots, 'lock_wait_ms', waited);
        SELECT w.o_outcome, w.o_found, w.o_line INTO o_outcome, o_found, o_line
            FROM {s}.curated_write(p_project, p_target, p_lock, p_action, p_text, p_content,
                p_known, p_frozen, p_limit, p_history, p_now, rb.o_frags, rb.o_slots,
                rl.o_frags, rl.o_slots) w;
    ELSE
        DELETE FROM {s}.curated_requests q WHERE q.id = mine
            RETURNING q.outcome, q.found, q.answer INTO o_outcome, o_found, o_line;
    END IF;
    IF live IS NOT NULL THEN  -- answers nobody will read: their writers are gone
        DELETE FROM {s}.curated_requests q WHERE q.project = p_project
            AND q.target = p_target AND q.outcome IS NOT NULL AND NOT (q.pid = ANY (live));
    END IF;
    COMMIT;
    IF p_early THEN
        PERFORM pg_logical_emit_message(true, 'mnemic', '');
    END IF;
END
$q$"""
"""The server's half of a queued write (see the module docstring) as migration 13
installed it; kept as it was, migration 15 replaces it with :data:`PROCEDURE_15`."""

_OWN = "    IF mine IS NULL THEN\n        waited := {s}.curated_ms(t0);\n"
_TAKEN = r"""    IF mine IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM {s}.curated_requests q WHERE q.id = mine) THEN
        -- its request was taken out by mnemic project forget / move of its store (which
        -- held this lock): it runs its write itself, and curated_write's tombstone check
        -- refuses it (an answer, where this holder used to return none)
        mine := NULL;
    END IF;
"""


def _own_write_when_taken(text: str) -> str:
    """:data:`PROCEDURE` with :data:`_TAKEN` before the holder's own write, made ``CREATE
    OR REPLACE``."""
    created = "CREATE PROCEDURE {s}.curated_queue("
    for part in (_OWN, created):
        assert text.count(part) == 1, part
    text = text.replace(_OWN, _TAKEN + _OWN)
    return text.replace(created, "CREATE OR REPLACE PROCEDURE {s}.curated_queue(")


PROCEDURE_15 = _own_write_when_taken(PROCEDURE)
"""The procedure since migration 15: a writer whose request a removal or move of its
store took out, once it holds the lock, writes itself (and is refused by
:data:`~.curated_server.FUNCTION_15`'s tombstone check) instead of answering nothing."""

TAKE_BACK = (
    "DELETE FROM {s}.curated_requests WHERE pid = pg_backend_pid() RETURNING outcome, found, answer"
)
"""What a call that failed on a live connection runs next: its request, if it left one,
taken back (pending: nothing was written) or its answer read (applied by a holder)."""


def queue_write(
    owner: Owner,
    where: str,
    args: Any,
    timeout: float,
    lz4: Callable[[Any, Any], bool] | None = None,
) -> Answer | None:
    """One write through :data:`PROCEDURE` (``args``: ``curated_write``'s, composed),
    in one round trip: the function's answer, whoever applied it. ``lz4``: whether the
    server can compress with lz4, asked of the database and a connection
    (:func:`~.curated_server.lz4`; then the connection's session sets
    :data:`LZ4_SESSION` once). None when the
    procedure cannot run here (missing, or the role may not: asked once per process,
    ``Database.server_queue``); the caller then sends the function alone.

    A failure on a live connection takes the request back (:data:`TAKE_BACK`): a
    request still pending is deleted and the failure is a known outcome (a lock timeout
    is ``LockTimeout``, as today); a request a holder answered meanwhile is this
    write's answer. A lost connection, or a failure with no request left (the holder's
    own write, whose ``COMMIT`` may have come before the error), is an unknown
    outcome."""
    from psycopg import sql

    db = owner.db
    started = time.perf_counter()
    with db.connection() as conn:
        early = flushes(db, conn)
        if lz4 is not None:
            _compress_with_lz4(db, conn, lz4)
        call = sql.SQL(db.sql("CALL {s}.curated_queue({args}, {timeout}, {early})")).format(
            args=args, timeout=sql.Literal(max(1, int(timeout * 1000))), early=sql.Literal(early)
        )
        try:
            row = conn.execute(call.as_string(conn), prepare=False).fetchone()
        except Exception as exc:
            if not is_db_error(exc):
                raise
            if conn.broken or conn.closed:
                raise failure(exc, where, writing=True, committing=True, lost=True) from exc
            rollback(conn)
            if db.server_queue is None and _missing(exc):
                log.info("group commit in the server is off (%s): curated_write alone", exc)
                db.server_queue = False
                return None
            try:
                left = conn.execute(db.sql(TAKE_BACK), prepare=False).fetchall()
            except Exception as again:
                if not is_db_error(again):
                    raise
                lost = conn.broken or conn.closed
                raise failure(exc, where, writing=True, committing=True, lost=lost) from exc
            answered = [r for r in left if r[0] is not None]
            if answered:  # a holder applied it while this call failed: its answer
                outcome, found, line = answered[0]
                return str(outcome), found, line
            waited = time.perf_counter() - started
            if left or is_lock_timeout(exc):
                # taken back before any holder applied it (a lock timeout comes only
                # before the holder's COMMIT): nothing was written
                raise failure(exc, where, writing=True, waited_s=waited) from exc
            raise failure(exc, where, writing=True, committing=True, lost=False) from exc
    db.server_queue = True
    if row is None or row[0] is None:  # never, by the procedure: say so, do not guess
        raise StorageError(
            f"The request queue of {where} gave no answer, so whether the change was "
            "applied is not known. It was applied completely or not at all, never in part; "
            "read the current state before retrying."
        )
    return str(row[0]), row[1], row[2]


LZ4_SESSION = "SET default_toast_compression = lz4"
"""What a connection runs once, before its first queued write, when the server can
compress with lz4 (:func:`~.curated_server.lz4`). ``curated_write``'s own query sets it
for its transaction (:data:`~.curated_server.LZ4`); the procedure commits in between, so
its ``CALL`` is its own query, outside any transaction block, where ``SET LOCAL`` would
last for no statement and a ``SET`` in the same query string would make it a block the
procedure may not commit in. So the connection's session keeps it: every text it
stores from then on (the texts the holder's writes store and keep as versions, and
anything else the pooled connection writes later) is compressed with lz4 instead of
pglz. A stored value keeps its method; reading is the same."""

_LZ4_SET: weakref.WeakSet[Any] = weakref.WeakSet()
"""The connections that have run :data:`LZ4_SESSION` (a new connection, after a lost
one, is not among them)."""


def _compress_with_lz4(db: Any, conn: Any, lz4: Callable[[Any, Any], bool]) -> None:
    """Run :data:`LZ4_SESSION` on ``conn`` once, when the server has lz4 (``lz4``: asked
    once per process); a failure is left to the write's own statement to meet."""
    if conn in _LZ4_SET or not lz4(db, conn):
        return
    try:
        conn.execute(LZ4_SESSION)
    except Exception as exc:
        if conn.broken or conn.closed or not is_db_error(exc):
            raise
        return
    _LZ4_SET.add(conn)


def _missing(exc: BaseException) -> bool:
    """Whether ``exc`` says the procedure is not there or may not be run by this role."""
    state = getattr(getattr(exc, "diag", None), "sqlstate", None)
    return state in ("42883", "42501", "3F000", "42P01")
