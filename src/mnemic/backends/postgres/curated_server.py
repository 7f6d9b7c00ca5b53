"""A curated ``add``, ``remove`` or ``replace`` decided and written by the server, in one
wake-up, for plain writes and for the memory tool's guarded calls alike.

Today's path (:mod:`.curated_txn`) takes the locks and reads in one round trip, then
validates in the client and sends the writes, the audit record and the ``COMMIT`` in
a second: under contention each write is three process wake-ups in a row under the
lock (the waiter's server process at the grant, its client, the server again). The
function :data:`FUNCTION` (``{schema}.curated_write``, installed by migration 12; 11's
took no replace and no guards) does the common case in the server: it takes the target's
lock and the audit head, reads the text, checks that it is one the store's rules can
decide without the client, applies the rule (an add's duplicate check and budget; a
remove's or replace's matching: exact entry, handle, then a unique substring; a
replace's budget), keeps the previous text as a version, writes the new one,
fills the audit record the client prepared and appends it to the chain, and the
``COMMIT`` follows in the same simple query. The lock's holder is then one server
process that wakes and does it all, as a files writer is one process.

What the function cannot decide it does not do: it writes nothing and answers
``fallback`` with the reason, and the client runs today's path, so every response,
refusal and record stays exactly today's. It falls back on: a target with no row or
none recorded in the journal, a text whose state differs from the one its last record
left (the next writer records a ``recovered`` change first), a provenance ledger of an
upgraded home, any text that is not strictly clean (carriage returns, blank or duplicate
pieces, whitespace at a piece's edge, a piece longer than the budget, a text ending in
``"\\n§"``), an add of a text already there (a duplicate is a confirmation, recorded
differently), an add over the budget (refused, or evicted by ``on_full``), a remove with
no match or an ambiguous one (the refusal lists candidates), a replace by the same text
(a confirmation) or by another entry's (merged), and a server whose encoding is not
UTF-8. A guarded call (the memory tool's) also sends what its two guards under the lock
read: the entries its session has seen, and those its oscillation guard will not flip
again; a write removing or replacing an entry not among the first (``EntryChanged``), or
flipping one of the second, falls back too, and today's path refuses it. A text the
function wrote is clean by construction: ``curated.clean`` keeps its hash, and the
whole-text check runs only when another writer left that stale.

**The record.** The client builds the record exactly as the Python path does
(:func:`mnemic.curated.server_write.template`), with placeholders for what only the lock's
holder knows: ``seq``, ``prev``, the texts' hashes, ``lock_wait_ms``, ``time``, ``ts``,
and for a remove the key and text of the entry removed. It sends the record's canonical
JSON (sorted keys, no spaces, not ASCII-escaped) cut at the placeholders, twice: the
body the chain hashes (no ``hash``, no entry texts, :func:`~mnemic.governance.chain.record_hash`)
and the line stored (with both). The server joins the pieces with its values (strings as
``to_json`` encodes them, which escapes as Python's ``json`` does; numbers as Python's
``repr`` of the rounded float), hashes the body with ``sha256`` and stores the line: the
same bytes the Python path would store for the same values, so ``audit verify`` and the
journal's fold cannot tell the paths apart. ``lock_wait_ms`` is the server's wait for the
target's lock and the head's; ``time`` and ``ts`` the server's clock once they are held.
"""

from __future__ import annotations

import logging
import math
import time
from typing import TYPE_CHECKING, Any

from ...errors import WriteFailed
from .curated_begin import FLUSH, Owner, flushes, is_db_error, rollback
from .curated_queue import queue_write
from .curated_server_11 import CHECKED, KEPT
from .db import Database, failure, is_lock_timeout

if TYPE_CHECKING:
    import psycopg

__all__ = ["FUNCTION", "FUNCTION_15", "FILL", "TOMBSTONE", "ServerWrite", "server_write"]

log = logging.getLogger("mnemic.backends.postgres.curated")

FILL = r"""CREATE FUNCTION {s}.curated_fill(frags text[], slots text[], names text[], vals text[])
RETURNS text LANGUAGE plpgsql IMMUTABLE AS $fill$
DECLARE
    out text := frags[1];
BEGIN
    FOR i IN 1 .. coalesce(array_length(slots, 1), 0) LOOP
        out := out || vals[array_position(names, slots[i])] || frags[i + 1];
    END LOOP;
    RETURN out;
END
$fill$"""
"""The record's text from its pieces: ``frags[1]``, the value of ``slots[1]``, ``frags[2]``..."""

FUNCTION = (
    r"""CREATE FUNCTION {s}.curated_write(
    p_project text, p_target text, p_lock bigint, p_action text, p_text text,
    p_content text, p_known text[], p_frozen text[],
    p_limit integer, p_history integer, p_now double precision,
    p_body text[], p_body_slots text[], p_line text[], p_line_slots text[])
"""
    + CHECKED
    + r"""    n := cardinality(pieces);
    IF p_action = 'add' THEN
        IF p_text = ANY (pieces) THEN
            RETURN QUERY SELECT 'fallback:duplicate', NULL::text, NULL::text; RETURN;
        END IF;
        IF p_text = ANY (p_frozen) THEN  -- the oscillation guard refuses the flip
            RETURN QUERY SELECT 'fallback:frozen', NULL::text, NULL::text; RETURN;
        END IF;
        new_text := CASE WHEN raw = '' THEN p_text ELSE raw || E'\n§\n' || p_text END;
        IF length(new_text) > p_limit THEN
            RETURN QUERY SELECT 'fallback:budget', NULL::text, NULL::text; RETURN;
        END IF;
    ELSIF p_action IN ('remove', 'replace') THEN
        idx := array_position(pieces, p_text);
        IF idx IS NULL AND left(p_text, 6) = 'entry:' THEN
            SELECT min(o) INTO idx FROM unnest(pieces) WITH ORDINALITY AS u(p, o)
                WHERE 'entry:' || left(encode(sha256(convert_to(p, 'UTF8')), 'hex'), 8) = p_text;
        END IF;
        IF idx IS NULL THEN
            SELECT array_agg(DISTINCT p), min(o) INTO hits, idx
                FROM unnest(pieces) WITH ORDINALITY AS u(p, o) WHERE strpos(p, p_text) > 0;
            IF idx IS NULL THEN
                RETURN QUERY SELECT 'fallback:no_match', NULL::text, NULL::text; RETURN;
            END IF;
            IF cardinality(hits) > 1 THEN
                RETURN QUERY SELECT 'fallback:ambiguous', NULL::text, NULL::text; RETURN;
            END IF;
        END IF;
        gone := pieces[idx];
        -- a guarded call's guards: an entry its session has not seen (EntryChanged), or
        -- one the oscillation guard will not flip again
        IF p_known IS NOT NULL AND NOT (gone = ANY (p_known)) THEN
            RETURN QUERY SELECT 'fallback:unseen', NULL::text, NULL::text; RETURN;
        END IF;
        IF gone = ANY (p_frozen) OR (p_action = 'replace' AND p_content = ANY (p_frozen)) THEN
            RETURN QUERY SELECT 'fallback:frozen', NULL::text, NULL::text; RETURN;
        END IF;
        IF p_action = 'remove' THEN
            new_text := array_to_string(pieces[1:idx - 1] || pieces[idx + 1:n], E'\n§\n');
        ELSE
            -- the same text (a confirmation) or another entry's (merged): recorded otherwise
            IF p_content = gone THEN
                RETURN QUERY SELECT 'fallback:same', NULL::text, NULL::text; RETURN;
            END IF;
            IF p_content = ANY (pieces) THEN
                RETURN QUERY SELECT 'fallback:duplicate', NULL::text, NULL::text; RETURN;
            END IF;
            pieces[idx] := p_content;
            new_text := array_to_string(pieces, E'\n§\n');
            IF length(new_text) > p_limit THEN
                RETURN QUERY SELECT 'fallback:budget', NULL::text, NULL::text; RETURN;
            END IF;
        END IF;
    ELSE
        RETURN QUERY SELECT 'fallback:action', NULL::text, NULL::text; RETURN;
    END IF;
"""
    + KEPT
)
"""The server's half of a write (see the module docstring) as migration 12 installed it
(migration 11's, without ``replace`` and the guards: :mod:`.curated_server_11`); kept as
it was, migration 15 replaces it with :data:`FUNCTION_15`."""

TOMBSTONE = r"""    PERFORM pg_advisory_xact_lock(p_lock);
    -- a project store removed or moved (mnemic project forget / move) while this writer
    -- waited for the lock, or since its session opened the store: its tombstone, read
    -- under the lock the removal held, answers (what happened and when), nothing written
    IF p_project <> '' THEN
        SELECT m.value INTO mark FROM {s}.meta m WHERE m.key = 'removed_project:' || p_project;
        IF FOUND THEN
            RETURN QUERY SELECT 'removed', mark, NULL::text; RETURN;
        END IF;
    END IF;
"""
"""What migration 15's function does once it holds the target's lock, before anything
else: a removed or moved project store's writer gets the answer ``removed`` with the
tombstone's value (:data:`~.curated_begin.REMOVED`), which :func:`server_write` raises as
the refusal (:func:`mnemic.curated.scope.removed_store`)."""


def _with_tombstone(text: str) -> str:
    """``text`` (a ``curated_write`` of migration 12) with :data:`TOMBSTONE` after its
    lock, its ``mark`` declared, and made ``CREATE OR REPLACE``."""
    lock = "    PERFORM pg_advisory_xact_lock(p_lock);\n"
    declared = "    kept bigint;\nBEGIN\n"
    created = "CREATE FUNCTION {s}.curated_write("
    for part in (lock, declared, created):
        assert text.count(part) == 1, part
    text = text.replace(lock, TOMBSTONE).replace(
        declared, "    kept bigint;\n    mark text;\nBEGIN\n"
    )
    return text.replace(created, "CREATE OR REPLACE FUNCTION {s}.curated_write(")


FUNCTION_15 = _with_tombstone(FUNCTION)
"""The function since migration 15: :data:`FUNCTION` reading the store's tombstone
under the lock (:data:`TOMBSTONE`)."""


class ServerWrite:
    """What the function answered: ``outcome`` ``ok`` (``found``: the text it found,
    ``line``: the record it appended) or ``fallback:<reason>`` (nothing written); its
    ``removed`` is raised (:func:`_answered`)."""

    __slots__ = ("found", "line", "outcome")

    def __init__(self, outcome: str, found: str | None, line: str | None) -> None:
        self.outcome = outcome
        self.found = found
        self.line = line


def server_write(
    owner: Owner,
    target: str,
    action: str,
    text: str,
    limit: int,
    timeout: float,
    now: float,
    body: tuple[list[str], list[str]],
    line: tuple[list[str], list[str]],
    content: str | None = None,
    known: tuple[str, ...] | None = None,
    frozen: tuple[str, ...] = (),
) -> ServerWrite | None:
    """Run one write through :data:`FUNCTION` in one simple query: BEGIN, the lock
    timeout, the function, COMMIT (and :data:`~.curated_begin.FLUSH` after a COMMIT with
    ``synchronous_commit = off``, as today's path). ``body`` and ``line``: the record's
    pieces and the placeholders between them; ``text``: an add's entry, a remove's or
    replace's selector; ``content``: a replace's new entry. A guarded call's guards:
    ``known``, the entries its session has seen (None: no check), and ``frozen``, those
    its oscillation guard will not flip again (:meth:`~mnemic.curated.guard.LoopGuard.frozen`).

    Returns None when the function cannot run here (missing, or the role may not run
    it: asked once per process, ``Database.server_writes``); the caller then takes
    today's path. A lock timeout, and a failure with the outcome unknown (the
    connection lost in this round trip, or an error at or after the COMMIT), are raised
    as today's path raises them."""
    from psycopg import sql
    from psycopg.pq import TransactionStatus

    db = owner.db
    where = owner.location(target)  # an unknown target is refused here
    if db.server_writes is False:
        return None
    values = (
        owner.project,
        target,
        owner.lock_key(target),
        action,
        text,
        content,
        None if known is None else list(known),
        list(frozen),
        limit,
        owner.history_limit,
        now,
        body[0],
        body[1],
        line[0],
        line[1],
    )
    args = _arguments(values)
    if getattr(owner, "queue", False) and db.server_queue is not False:
        answer = queue_write(owner, where, sql.SQL(args), timeout, lz4)
        if answer is not None:
            db.server_writes = True
            return _answered(owner, *answer)
    call = db.sql("SELECT o_outcome, o_found, o_line FROM {s}.curated_write(") + args + ")"
    started = time.perf_counter()
    with db.connection() as conn:
        early = flushes(db, conn)
        steps = ["BEGIN", f"SET LOCAL lock_timeout = {max(1, int(timeout * 1000))}"]
        if conn.info.server_version >= GENERIC_PLANS:
            steps.append(GENERIC)
        if lz4(db, conn):
            steps.append(LZ4)
        if early:
            steps.append("SET LOCAL synchronous_commit = off")
        ending = ["COMMIT", FLUSH] if early else ["COMMIT"]
        query = "; ".join([*steps, call, *ending])
        try:
            cur = conn.execute(query, prepare=False)
            results: list[Any] = []
            statuses: list[str | None] = []
            while True:
                statuses.append(cur.statusmessage)
                results.append(cur.fetchall() if cur.description else None)
                if not cur.nextset():
                    break
        except Exception as exc:
            if not is_db_error(exc):
                raise
            lost = conn.broken or conn.closed
            status = None if lost else conn.info.transaction_status
            rollback(conn)
            if is_lock_timeout(exc):
                waited = time.perf_counter() - started
                raise failure(exc, where, writing=True, waited_s=waited) from exc
            if lost or status == TransactionStatus.IDLE:
                # the connection went in the round trip that ends with the COMMIT, or
                # the error came at or after the COMMIT: committed or not, unknown
                raise failure(exc, where, writing=True, committing=True, lost=lost) from exc
            if db.server_writes is None and _missing(exc):
                log.info("curated writes in the server are off (%s): today's path", exc)
                db.server_writes = False
                return None
            if _gone(exc):
                # the schema (or a table of it) was dropped under this process: the
                # check's own refusal says to migrate, or the schema is migrated
                db.recheck(exc)
            raise failure(exc, where, writing=True) from exc
        db.server_writes = True
        rows = results[len(steps)]
        if not rows or statuses[len(steps) + 1] != "COMMIT":
            raise WriteFailed(where, "the transaction was rolled back, nothing was changed")
        outcome, found, rec = rows[0]
        return _answered(owner, str(outcome), found, rec)


def _answered(owner: Owner, outcome: str, found: str | None, line: str | None) -> ServerWrite:
    """What the function answered; ``removed`` (migration 15: the project store was
    removed or moved, ``found`` its tombstone) raised as the refusal, nothing written."""
    if outcome == "removed":
        from ...curated.scope import removed_store

        raise removed_store(owner.project, found)
    return ServerWrite(outcome, found, line)


GENERIC = "SET LOCAL plan_cache_mode = force_generic_plan"
"""Sent before the function in the write's query (PostgreSQL 12 and later,
:data:`GENERIC_PLANS`): its statements are planned once per server process, as a generic
plan, where by default each was planned again for each of its first five calls there
(a writer's server process does a few dozen writes in a benchmark run, and one in a CLI
command's); each is a primary-key lookup or a write, the same plan either way."""
GENERIC_PLANS = 120000
"""The first server version (``server_version_num``) that knows ``plan_cache_mode``."""

LZ4 = "SET LOCAL default_toast_compression = lz4"
"""Sent before the function in the write's query when the server can (:func:`lz4`): the
texts a write stores, the target's new text and the previous one kept as a version, are
compressed with lz4 instead of pglz once they are large enough to be compressed (about
2 KB). The function reads the whole text, writes it whole and keeps the old one, so a
write's compression grows with the store: one writer's server CPU a write, over the
first and the last 300 of 1,200 entries, 2.0 and 4.6 ms with pglz, 2.1 and 3.2 with the
columns in lz4; at 16 writers and 1,600 entries 0.85 of pglz's (``docs/performance.md``,
"perf18"). A value keeps the method it was stored with, so texts stored before, or by
today's path, read as ever; nothing else changes. (Group commit's ``CALL`` cannot set it
for its transaction: its connection's session sets it once,
:data:`.curated_queue.LZ4_SESSION`.)"""
LZ4_FROM = 140000
"""The first server version (``server_version_num``) with ``default_toast_compression``."""
LZ4_PROBE = (
    "SELECT 'lz4' = ANY (enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
)
"""Whether the server was built with lz4: the setting lists only the methods it has."""


def lz4(db: Database, conn: psycopg.Connection[Any]) -> bool:
    """Whether a write's query sets :data:`LZ4` (asked once per process, on ``conn``,
    outside any transaction, as :func:`~.curated_begin.flushes` asks): PostgreSQL 14 or
    later, built with lz4."""
    if db.lz4 is None:
        found = False
        if conn.info.server_version >= LZ4_FROM:
            try:
                row = conn.execute(LZ4_PROBE).fetchone()
            except Exception as exc:
                if conn.broken or conn.closed or not is_db_error(exc):
                    raise
            else:
                found = bool(row and row[0])
        db.lz4 = found
    return db.lz4


#: The SQL types of :data:`FUNCTION`'s arguments as :func:`server_write` sends them, in
#: order (``text[]``: an array literal; ``text``, ``bigint``, ``int``, ``float``: a
#: literal; a ``None`` of a ``text`` or ``text[]``: a typed NULL).
ARGUMENT_TYPES = (
    "text", "text", "bigint", "text", "text", "text", "text[]", "text[]", "int", "int",
    "float", "text[]", "text[]", "text[]", "text[]",
)  # fmt: skip


def _arguments(values: tuple[Any, ...]) -> str:
    """The function's arguments as SQL text, each value quoted as psycopg's
    ``sql.Literal(value).as_string(conn)`` quotes it (the same bytes: a test compares
    them), without composing one psycopg object per value: a string in single quotes
    with ``'`` doubled, and with ``E`` and its backslashes doubled when it holds one; an
    integer or a float as its ``repr``, a space before a minus sign; ``NULL::text`` or
    ``NULL::text[]`` for ``None``. A string holding NUL (which PostgreSQL text cannot
    hold) or a float that is not finite is left to psycopg, which refuses or writes it."""
    out = []
    for value, kind in zip(values, ARGUMENT_TYPES, strict=True):
        if value is None:
            out.append(f"NULL::{kind}")
        elif kind == "text[]":
            out.append(_array(value))
        else:
            out.append(_literal(value))
    return ", ".join(out)


def _literal(value: str | int | float) -> str:
    """``value`` quoted as ``sql.Literal(value).as_string(conn)`` quotes it."""
    if isinstance(value, str) and "\x00" not in value:
        quoted = value.replace("'", "''")
        if "\\" in value:
            return " E'" + quoted.replace("\\", "\\\\") + "'"
        return "'" + quoted + "'"
    if type(value) is int or (type(value) is float and math.isfinite(value)):
        shown = repr(value)
        return " " + shown if shown.startswith("-") else shown
    from psycopg import sql

    return sql.Literal(value).as_string(None)


def _array(items: list[str]) -> str:
    """``items`` as one quoted ``text[]`` literal: the array's own quoting (each element
    in double quotes, ``\\`` and ``"`` escaped), then the whole as one string literal."""
    inner = ",".join('"' + i.replace("\\", "\\\\").replace('"', '\\"') + '"' for i in items)
    return _literal("{" + inner + "}") + "::text[]"


def _gone(exc: BaseException) -> bool:
    """Whether ``exc`` says the schema or one of its tables is not there."""
    from psycopg import errors

    return isinstance(exc, (errors.UndefinedTable, errors.InvalidSchemaName))


def _missing(exc: BaseException) -> bool:
    """Whether ``exc`` says the function is not there or may not be run by this role."""
    state = getattr(getattr(exc, "diag", None), "sqlstate", None)
    return state in ("42883", "42501", "3F000")  # undefined_function, privilege, schema
