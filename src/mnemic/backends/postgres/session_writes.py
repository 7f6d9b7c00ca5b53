"""The PostgreSQL session store's bulk writes: import batches and forgetting.

An import batch is one transaction. It first locks the rows of the batch's sessions that
exist (``SELECT ... ORDER BY id FOR UPDATE``: two imports of the same file queue behind
each other instead of both adding the same messages), then deletes the sessions it
replaces, reads the keys of the sessions it merges into, inserts the new sessions and
``COPY``s every new message. A new session whose id another transaction committed in
the meantime (``ON CONFLICT``), a deadlock or a serialization failure rolls the batch
back and runs it again, where that session is found and locked. Full-text vectors are
computed before the transaction, for the messages that a read of the stored keys says
are new (any other one found new inside the transaction is indexed there).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...errors import SessionStoreError
from ...sessions.forgetting import (
    MESSAGE_TEXT_COLUMNS,
    SESSION_SCRUB_COLUMNS,
    ForgetResult,
    plan_rewrites,
)
from ...sessions.rows import (
    LEGACY_COLUMNS,
    dedupe,
    message_values,
    plan_merge,
    session_values,
    stored_call_count,
)
from ...sessions.store import ImportResult, NewMessage

if TYPE_CHECKING:
    import psycopg

    from ...sessions.base import Batch, Imported
    from .sessions import PostgresSessionStore

__all__ = ["forget", "import_batch"]

_MESSAGE_FIELDS = (
    "id, sid, seq, role, content, name, tool_name, tool_calls, tool_call_id, ts, tokens, "
    "source_id, ntok, naux, tsv"
)
_RETRIES = 5


class _Conflict(Exception):
    """A session id was committed by another transaction after this one looked."""


class _Vectors:
    """Full-text vectors of messages, computed once each (keyed by the message object)."""

    def __init__(self, store: PostgresSessionStore) -> None:
        self.store = store
        self.done: dict[int, tuple[str, int, int]] = {}

    def prepare(self, messages: Sequence[NewMessage]) -> None:
        todo = [m for m in messages if id(m) not in self.done]
        fields = self.store._fields
        self.store._lexer.learn(fields.body(m.content) for m in todo)
        for m in todo:
            self.done[id(m)] = self.store._index(
                m.content, m.name, m.tool_name, m.tool_calls_json()
            )

    def rows(
        self, messages: Sequence[NewMessage], now: float
    ) -> tuple[list[list[Any]], int, int, float, int]:
        """Rows ``(role ... source_id, ntok, naux, tsv)`` and the counters they add."""
        self.prepare(messages)
        values, tokens, calls, last = message_values(messages, now)
        rows: list[list[Any]] = []
        ntoks = 0
        for msg, v in zip(messages, values, strict=True):
            tsv, ntok, naux = self.done[id(msg)]
            ntoks += ntok
            rows.append([*v, ntok, naux, tsv])
        return rows, tokens, calls, last, ntoks


def _stored_keys(
    conn: psycopg.Connection[Any], store: PostgresSessionStore, sids: list[int]
) -> tuple[dict[int, set[str]], dict[int, list[Any]]]:
    """Per session: its stored message keys, and its messages stored without one."""
    sql = store.db.sql
    keys: dict[int, set[str]] = {s: set() for s in sids}
    legacy: dict[int, list[Any]] = {s: [] for s in sids}
    if not sids:
        return keys, legacy
    for sid, key in conn.execute(
        sql(
            "SELECT sid, source_id FROM {s}.messages WHERE sid = ANY(%s) AND source_id IS NOT NULL"
        ),
        (sids,),
    ):
        keys[int(sid)].add(str(key))
    for row in conn.execute(
        sql(
            f"SELECT sid, {LEGACY_COLUMNS} FROM {{s}}.messages "
            "WHERE sid = ANY(%s) AND source_id IS NULL"
        ),
        (sids,),
    ):
        legacy[int(row[0])].append(row[1:])
    return keys, legacy


def _likely_new(store: PostgresSessionStore, items: Batch, existing: str) -> list[NewMessage]:
    """The messages a read outside the transaction says will be written."""
    if existing == "replace":
        return [m for _, msgs in items for m in msgs]
    ids = [s.id for s, _ in items if s.id]
    found: dict[str, int] = {}
    if ids:
        found = {str(r[1]): int(r[0]) for r in store._read(
            "SELECT sid, id FROM {s}.sessions WHERE id = ANY(%s)", (ids,)
        )}  # fmt: skip
    out = [m for spec, msgs in items if spec.id not in found for m in msgs]
    if existing == "merge" and found:
        with store._connection("read failed") as conn:
            keys, legacy = _stored_keys(conn, store, list(found.values()))
        for spec, msgs in items:
            sid = found.get(spec.id)
            if sid is not None:
                out.extend(plan_merge(msgs, keys[sid], legacy[sid])[0])
    return out


def import_batch(
    store: PostgresSessionStore, items: Batch, existing: str, replaced: frozenset[str]
) -> Imported:
    """Write one import batch (see the module docstring)."""
    vectors = _Vectors(store)
    vectors.prepare(_likely_new(store, items, existing))
    values = [session_values(spec) for spec, _ in items]
    for attempt in range(_RETRIES):
        try:
            return store._write(
                lambda conn: _write_batch(conn, store, items, values, existing, replaced, vectors)
            )
        except _Conflict:
            continue
        except SessionStoreError as exc:
            if attempt + 1 < _RETRIES and _retryable(exc):
                continue
            raise
    raise SessionStoreError(store.location, "the import kept conflicting with another writer")


def _retryable(exc: BaseException) -> bool:
    import psycopg.errors

    cause = exc.__cause__
    return isinstance(cause, psycopg.errors.DeadlockDetected | psycopg.errors.SerializationFailure)


def _write_batch(
    conn: psycopg.Connection[Any],
    store: PostgresSessionStore,
    items: Batch,
    values: list[tuple[Any, ...]],
    existing: str,
    replaced: frozenset[str],
    vectors: _Vectors,
) -> Imported:
    sql = store.db.sql
    ids = [str(v[0]) for v in values]
    found = {
        str(r[0]): int(r[1])
        for r in conn.execute(
            sql("SELECT id, sid FROM {s}.sessions WHERE id = ANY(%s) ORDER BY id FOR UPDATE"),
            (ids,),
        )
    }
    results: dict[int, ImportResult] = {}
    merges: list[int] = []
    creates: list[int] = []
    doomed: list[int] = []
    for i, sess_id in enumerate(ids):
        sid = found.get(sess_id)
        if sid is None:
            creates.append(i)
        elif existing == "skip":
            results[i] = ImportResult(sess_id, None, "skipped")
        elif existing == "merge" or sess_id in replaced:
            merges.append(i)
        else:
            doomed.append(sid)
            creates.append(i)
    if doomed:  # replace: the old copies go in the transaction that writes the new ones
        conn.execute(sql("DELETE FROM {s}.messages WHERE sid = ANY(%s)"), (doomed,))
        conn.execute(sql("DELETE FROM {s}.sessions WHERE sid = ANY(%s)"), (doomed,))
    keys, legacy = _stored_keys(conn, store, [found[ids[i]] for i in merges])
    now = time.time()
    # (item, sid, first seq, message rows)
    writes: list[tuple[int, int, int, list[list[Any]]]] = []
    backfill: list[tuple[str, int]] = []
    for i in merges:
        sid = found[ids[i]]
        new, matched = plan_merge(items[i][1], keys[sid], legacy[sid])
        backfill.extend(matched)
        row = values[i]
        conn.execute(
            sql(
                "UPDATE {s}.sessions SET title = COALESCE(title, %s), "
                "model = COALESCE(model, %s) WHERE sid = %s"
            ),
            (row[2], row[5], sid),
        )
        if not new:
            results[i] = ImportResult(ids[i], [], "unchanged")
            continue
        rows, tokens, calls, last, ntoks = vectors.rows(new, now)
        top = conn.execute(
            sql("SELECT max(seq) FROM {s}.messages WHERE sid = %s"), (sid,)
        ).fetchone()
        first = 0 if top is None or top[0] is None else int(top[0]) + 1
        conn.execute(
            sql(
                "UPDATE {s}.sessions SET message_count = message_count + %s, "
                "tool_call_count = tool_call_count + %s, token_count = token_count + %s, "
                "last_active = GREATEST(last_active, %s), "
                "index_tokens = index_tokens + %s WHERE sid = %s"
            ),
            (len(rows), calls, tokens, last, ntoks, sid),
        )
        writes.append((i, sid, first, rows))
    for i in sorted(creates, key=lambda i: ids[i]):  # one lock order for every importer
        row = values[i]
        fresh = dedupe(items[i][1])
        rows, tokens, calls, last, ntoks = vectors.rows(fresh, row[3] if fresh else now)
        got = conn.execute(
            sql(
                "INSERT INTO {s}.sessions (id, source, title, started_at, parent_id, "
                "model, last_active, metadata, message_count, tool_call_count, "
                "token_count, index_tokens) VALUES (%s, %s, %s, %s, %s, %s, "
                "GREATEST(%s, %s), %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING "
                "RETURNING sid"
            ),
            (*row[:7], last if rows else row[3], row[7], len(rows), calls, tokens, ntoks),
        ).fetchone()
        if got is None:
            raise _Conflict(ids[i])
        writes.append((i, int(got[0]), 0, rows))
    total = sum(len(w[3]) for w in writes)
    pool: list[int] = []
    if total:
        pool = [
            int(r[0])
            for r in conn.execute(
                sql(
                    "SELECT nextval(pg_get_serial_sequence('{s}.messages', 'id')) "
                    "FROM generate_series(1, %s)"
                ),
                (total,),
            )
        ]
    staged: list[tuple[Any, ...]] = []
    pos = 0
    for i, sid, first, rows in writes:
        mine = pool[pos : pos + len(rows)]
        pos += len(rows)
        staged.extend(
            (mid, sid, first + k, *r) for k, (mid, r) in enumerate(zip(mine, rows, strict=True))
        )
        if i not in results:
            status = "created" if found.get(ids[i]) is None else "replaced"
            if i in merges:
                status = "extended"
            results[i] = ImportResult(ids[i], mine, status)
    if staged:
        with (
            conn.cursor() as cur,
            cur.copy(sql(f"COPY {{s}}.messages ({_MESSAGE_FIELDS}) FROM STDIN")) as copy,
        ):
            for staged_row in staged:
                copy.write_row(staged_row)
    if backfill:
        with conn.cursor() as cur:
            cur.executemany(sql("UPDATE {s}.messages SET source_id = %s WHERE id = %s"), backfill)
    return [results[i] for i in range(len(items))]


def forget(store: PostgresSessionStore, forms: list[str], dry_run: bool) -> ForgetResult:
    """Delete the messages and rewrite the sessions holding one of ``forms``; then
    ``VACUUM (ANALYZE)`` both tables (the planner's statistics sample column values)."""
    sql = store.db.sql

    def holds(columns: Sequence[str]) -> tuple[str, list[str]]:
        cond = " OR ".join(
            f"strpos({{s}}.fold_ascii({c}), {{s}}.fold_ascii(%s)) > 0"
            for c in columns
            for _ in forms
        )
        return cond, [f for _ in columns for f in forms]

    mwhere, mparams = holds(MESSAGE_TEXT_COLUMNS)
    swhere, sparams = holds(SESSION_SCRUB_COLUMNS)
    columns = ", ".join(SESSION_SCRUB_COLUMNS)

    def run(conn: psycopg.Connection[Any]) -> tuple[int, int, int]:
        rows = conn.execute(
            sql(f"SELECT id, sid, tool_calls, tokens, ntok FROM {{s}}.messages WHERE {mwhere}"),
            mparams,
        ).fetchall()
        candidates = conn.execute(
            sql(f"SELECT sid, {columns}, started_at FROM {{s}}.sessions WHERE {swhere} FOR UPDATE"),
            sparams,
        ).fetchall()

        def taken(new_id: str) -> bool:
            return bool(
                conn.execute(sql("SELECT 1 FROM {s}.sessions WHERE id = %s"), (new_id,)).fetchone()
            )

        rewrites, renames = plan_rewrites(candidates, forms, taken)
        touched = {int(r[1]) for r in rows} | {r.sid for r in rewrites}
        if dry_run:
            return len(rows), len(touched), len(renames)
        for mid, sid, calls, tokens, ntok in rows:
            conn.execute(sql("DELETE FROM {s}.messages WHERE id = %s"), (mid,))
            conn.execute(
                sql(
                    "UPDATE {s}.sessions SET message_count = GREATEST(0, message_count - 1), "
                    "tool_call_count = GREATEST(0, tool_call_count - %s), "
                    "token_count = GREATEST(0, token_count - %s), "
                    "index_tokens = GREATEST(0, index_tokens - %s) WHERE sid = %s"
                ),
                (stored_call_count(calls), int(tokens or 0), int(ntok or 0), sid),
            )
        for rewrite in rewrites:
            sets = ", ".join(f"{c} = %s" for c in rewrite.changes)
            conn.execute(
                sql(f"UPDATE {{s}}.sessions SET {sets} WHERE sid = %s"),
                (*rewrite.changes.values(), rewrite.sid),
            )
        return len(rows), len(touched), len(renames)

    messages, sessions, renamed = store._write(run)
    if not dry_run and sessions:
        with store._connection("vacuum failed") as conn:
            conn.execute(sql("VACUUM (ANALYZE) {s}.messages"))
            conn.execute(sql("VACUUM (ANALYZE) {s}.sessions"))
    notes = (
        "the rows are deleted and the tables vacuumed; PostgreSQL's write-ahead log, "
        "replicas and backups keep older pages until they are recycled",
    )
    return ForgetResult(messages, sessions, renamed, notes)
