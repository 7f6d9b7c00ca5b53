"""Bulk writes of the SQL session store, the same in every database: imports, forgetting.

Import
    :func:`import_stream` reads the items lazily in batches of about ``batch`` messages
    (whole items; items of one id inside a batch joined) and, when the input spans
    several batches, computes the index columns of the next batch in a worker process
    while one is written.
    Each batch is one transaction (:func:`write_batch`): it finds and locks the batch's
    sessions that exist, deletes the ones it replaces, reads the message keys of the ones
    it merges into (:func:`~.rows.plan_merge`) and adds what they lack, creates the new
    sessions and inserts every new message at once. A new session whose id another
    transaction committed in the meantime, or a deadlock the backend calls transient,
    rolls the batch back and runs it again, where that session is found and locked.
    Message ids follow the order of the items, whichever database holds them.
Forgetting
    :func:`forget_rows` finds the rows that may hold the text in SQL, keeps those that do
    (:func:`..forgetting.contains`) and applies the decisions of :mod:`..forgetting`, in
    one transaction that also leaves the tombstones every later import batch reads
    (:mod:`.marks`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from ...errors import SessionStoreError
from ..forgetting import MESSAGE_TEXT_COLUMNS, SESSION_SCRUB_COLUMNS, contains, plan_rewrites
from ..index.fields import SegmentWorker
from ..store import ImportResult, NewMessage, NewSession
from .attachments import held_hashes, insert_links, linked_holding
from .marks import forgotten_batch, record_forgotten
from .rows import LEGACY_COLUMNS, dedupe, plan_merge, session_values, stored_call_count
from .tables import (
    Batch,
    C,
    Counters,
    Engine,
    IndexCache,
    bump,
    create_session,
    drop,
    lock_messages,
    lock_session_messages,
    message_rows,
    next_seq,
)

__all__ = ["forget_rows", "import_stream", "stored_keys", "write_batch"]

Imported = list[ImportResult]
"""What one batch did, per session."""
_RETRIES = 5
_PAGE = 1000
"""Candidate messages forgetting reads at a time (memory stays bounded)."""


class _Conflict(Exception):
    """A session id was committed by another transaction after this one looked."""


def import_stream(
    store: Engine[C],
    items: Iterable[tuple[NewSession, Sequence[NewMessage]]],
    *,
    batch: int,
    workers: int | None,
    existing: str,
) -> Iterator[ImportResult]:
    """Write ``items`` batch by batch (see the module docstring); yield each session's
    result once its batch committed, then let the backend settle its index."""
    chunks = _chunks(items, max(1, batch))
    current = next(chunks, None)
    if current is None:
        return
    upcoming = next(chunks, None)
    worker = None
    if upcoming is not None and (workers is None or workers > 0):
        worker = SegmentWorker.start(store.segmenter)
    fields = store._fields
    imported = 0
    written = 0
    replaced: set[str] = set()
    try:
        while current is not None:
            pending = None
            if worker is not None and upcoming is not None:
                pending = worker.submit(
                    (m.content, m.name, m.tool_name, m.tool_calls_json())
                    for _, msgs in upcoming
                    for m in msgs
                )
            try:
                done = import_batch(store, current, existing, frozenset(replaced))
            except SessionStoreError as exc:
                if not written:
                    raise
                raise SessionStoreError(
                    exc.path, exc.reason, written=_stopped(written, imported)
                ) from exc
            fields.clear()
            written += sum(1 for result in done if result.message_ids)
            for result in done:
                imported += len(result.message_ids or ())
                if result.status == "replaced":
                    replaced.add(result.session_id)
            yield from done
            if pending is not None:
                result_set = pending()
                if result_set is None:  # the worker died: segment in-process from now on
                    worker = None
                else:
                    fields.preload(result_set)
            current, upcoming = upcoming, next(chunks, None)
    finally:
        fields.clear()
        if worker is not None:
            worker.close()
    if imported:
        store._settle_import(imported)


def _stopped(sessions: int, messages: int) -> str:
    """What an import that failed after some batches committed wrote: not "nothing" (a
    connection lost in its seventh batch of a hundred thousand messages said "Nothing
    was written." after 594 sessions had been)."""
    return (
        f"The import stopped there: the batches before it were written and stay "
        f"({sessions:,} session(s), {messages:,} new message(s)); the batch in progress "
        "was not. Run the same import again: what is there already is not imported twice."
    )


def _chunks(items: Iterable[tuple[NewSession, Sequence[NewMessage]]], size: int) -> Iterator[Batch]:
    """Batches of about ``size`` messages (whole items), items of one id joined."""
    chunk: dict[Any, tuple[NewSession, list[NewMessage]]] = {}
    count = 0
    for spec, messages in items:
        key: Any = spec.id or object()  # no id: a generated one, never joined
        found = chunk.get(key)
        if found is None:
            chunk[key] = (spec, list(messages))
        else:
            found[1].extend(messages)
        count += len(messages) + 1
        if count >= size:
            yield list(chunk.values())
            chunk, count = {}, 0
    if chunk:
        yield list(chunk.values())


def import_batch(
    store: Engine[C], items: Batch, existing: str, replaced: frozenset[str]
) -> Imported:
    """Write one batch in one transaction, again when another writer got in the way."""
    cache = store._prepare_batch(items, existing)
    values = [session_values(spec) for spec, _ in items]
    write = functools.partial(
        write_batch,
        store,
        items=items,
        values=values,
        existing=existing,
        replaced=replaced,
        cache=cache,
    )
    for attempt in range(_RETRIES):
        try:
            return store._write(write)
        except _Conflict:
            continue
        except SessionStoreError as exc:
            if attempt + 1 < _RETRIES and store._transient(exc):
                continue
            raise
    raise SessionStoreError(store.location, "the import kept conflicting with another writer")


def stored_keys(
    store: Engine[C], conn: C, sids: Sequence[int]
) -> tuple[dict[int, set[str]], dict[int, list[Any]]]:
    """Per session: its stored message keys, and its messages stored without one
    (:data:`~.rows.LEGACY_COLUMNS` rows)."""
    keys: dict[int, set[str]] = {s: set() for s in sids}
    legacy: dict[int, list[Any]] = {s: [] for s in sids}
    for clause, params in store.dialect.chunks("sid", sids):
        sql = f"SELECT sid, source_id FROM {{s}}.messages WHERE {clause} AND source_id IS NOT NULL"
        for sid, key in store._run(conn, sql, params).fetchall():
            keys[int(sid)].add(str(key))
        sql = (
            f"SELECT sid, {LEGACY_COLUMNS} FROM {{s}}.messages WHERE {clause} AND source_id IS NULL"
        )
        for row in store._run(conn, sql, params).fetchall():
            legacy[int(row[0])].append(row[1:])
    return keys, legacy


def write_batch(
    store: Engine[C],
    conn: C,
    *,
    items: Batch,
    values: list[tuple[Any, ...]],
    existing: str,
    replaced: frozenset[str],
    cache: IndexCache | None,
) -> Imported:
    """One import batch inside a transaction (one item per session id): a new session
    whole; one that exists left alone (``skip``), given the messages it lacks (``merge``,
    and ``replace`` for ids in ``replaced``: replaced earlier in this import), or deleted
    and written anew (``replace``). What was forgotten stays out, whatever the mode."""
    items, values, forgotten = forgotten_batch(store, conn, items, values)
    ids = [str(v[0]) for v in values]
    found: dict[str, int] = {}
    for clause, params in store.dialect.chunks("id", ids):
        sql = f"SELECT id, sid FROM {{s}}.sessions WHERE {clause} ORDER BY id FOR UPDATE"
        found.update((str(i), int(s)) for i, s in store._run(conn, sql, params).fetchall())
    results: dict[int, ImportResult] = {}
    merges: list[int] = []
    creates: list[int] = []
    doomed: list[int] = []
    for i, sess_id in enumerate(ids):
        sid = found.get(sess_id)
        if i in forgotten.sessions:
            results[i] = ImportResult(sess_id, None, "forgotten")
        elif sid is None:
            creates.append(i)
        elif existing == "skip":
            results[i] = ImportResult(sess_id, None, "skipped")
        elif existing == "merge" or sess_id in replaced:
            merges.append(i)
        else:
            doomed.append(sid)
            creates.append(i)
    # replace: the old copies go in the transaction that writes the new ones, their
    # messages locked in id order first (as every writer of their words and vectors takes
    # them; a DELETE takes them in the order its plan reads them)
    lock_session_messages(store, conn, doomed)
    for clause, params in store.dialect.chunks("sid", doomed):
        store._run(conn, f"DELETE FROM {{s}}.messages WHERE {clause}", params)
        store._run(conn, f"DELETE FROM {{s}}.sessions WHERE {clause}", params)
    keys, legacy = stored_keys(store, conn, [found[ids[i]] for i in merges])
    now = time.time()
    writes: dict[int, tuple[int, int, list[tuple[Any, ...]]]] = {}  # item: sid, first seq, rows
    sent: dict[int, list[NewMessage]] = {}  # item: the messages of its rows
    backfill: list[tuple[str, int]] = []
    for i in merges:
        sid = found[ids[i]]
        new, matched = plan_merge(items[i][1], keys[sid], legacy[sid])
        backfill.extend(matched)
        # a title or model that turned up since (a transcript's summary line) fills a gap
        store._run(
            conn,
            "UPDATE {s}.sessions SET title = COALESCE(title, ?), model = COALESCE(model, ?) "
            "WHERE sid = ?",
            (values[i][2], values[i][5], sid),
        )
        if not new:
            results[i] = ImportResult(ids[i], [], "unchanged")
            continue
        rows, counts, last = message_rows(store, new, now, cache)
        writes[i] = (sid, next_seq(store, conn, sid), rows)
        sent[i] = new
        bump(store, conn, sid, counts, last)
    if store.dialect.ordered_locks:
        creates.sort(key=ids.__getitem__)
    for i in creates:
        row = values[i]
        fresh = dedupe(items[i][1])
        rows, counts, last = message_rows(store, fresh, row[3] if fresh else now, cache)
        sid = create_session(store, conn, row, counts, last if rows else row[3])
        if sid is None:
            raise _Conflict(ids[i])
        writes[i] = (sid, 0, rows)
        sent[i] = fresh
    order, merged = sorted(writes), set(merges)
    staged = [
        (sid, first + k, *r)
        for i in order
        for sid, first, rows in [writes[i]]
        for k, r in enumerate(rows)
    ]
    message_ids = store._insert_messages(conn, staged) if staged else []
    pos = 0
    for i in order:
        mine = message_ids[pos : pos + len(writes[i][2])]
        pos += len(mine)
        insert_links(store, conn, mine, sent[i])
        status = "extended" if i in merged else "replaced" if ids[i] in found else "created"
        results[i] = ImportResult(ids[i], mine, status)
    if backfill:
        store._many(
            conn, store.dialect.sql("UPDATE {s}.messages SET source_id = ? WHERE id = ?"), backfill
        )
    store._index_imported(conn, message_ids, staged)
    dropped = forgotten.messages
    return [results[i]._replace(forgotten=dropped.get(i, 0)) for i in range(len(items))]


def forget_rows(
    store: Engine[C], conn: C, *, forms: list[str], dry_run: bool
) -> tuple[int, int, int, tuple[str, ...]]:
    """In one transaction: delete the messages and rewrite the sessions holding one of
    ``forms``, then let the index forget them; return (messages, sessions, renamed, the
    hashes of the attachments the messages held: their links go with them)."""
    rows = _messages_holding(store, conn, forms)
    if not dry_run:  # all of them locked before the first goes (see lock_messages)
        alive = lock_messages(store, conn, [r.id for r in rows])
        rows = [r for r in rows if r.id in alive]
    held = held_hashes(store, conn, [r.id for r in rows])
    swhere, sparams = store.dialect.holds(SESSION_SCRUB_COLUMNS, forms)
    columns = ", ".join(SESSION_SCRUB_COLUMNS)
    candidates = store._run(
        conn,
        f"SELECT sid, {columns}, started_at FROM {{s}}.sessions WHERE {swhere} FOR UPDATE",
        sparams,
    ).fetchall()

    def taken(new_id: str) -> bool:
        sql = "SELECT 1 FROM {s}.sessions WHERE id = ?"
        return store._run(conn, sql, (new_id,)).fetchone() is not None

    rewrites, renames = plan_rewrites(candidates, forms, taken)
    touched = {int(r.sid) for r in rows} | {r.sid for r in rewrites}
    if dry_run:
        return len(rows), len(touched), len(renames), held
    for r in rows:
        store._run(conn, "DELETE FROM {s}.messages WHERE id = ?", (r.id,))
        calls = stored_call_count(r.tool_calls)
        drop(store, conn, r.sid, Counters(1, calls, int(r.tokens or 0), int(r.ntok or 0)))
    for rewrite in rewrites:
        sets = ", ".join(f"{c} = ?" for c in rewrite.changes)
        sql = f"UPDATE {{s}}.sessions SET {sets} WHERE sid = ?"
        store._run(conn, sql, (*rewrite.changes.values(), rewrite.sid))
    old_ids = {int(r[0]): str(r[1]) for r in candidates}
    record_forgotten(
        store,
        conn,
        ((str(r.session_id), r.source_id, r.fields) for r in rows),
        (
            (old_ids[rw.sid], column)
            for rw in rewrites
            for column in rw.changes
            if column in ("id", "title", "model")
        ),
    )
    store._index_forgotten(conn)
    return len(rows), len(touched), len(renames), held


class _Held(NamedTuple):
    """A message that holds the text being forgotten: what deleting it needs."""

    id: int
    sid: int
    tokens: int | None
    ntok: int | None
    session_id: str
    role: str
    content: str | None
    name: str | None
    tool_name: str | None
    tool_calls: str | None
    tool_call_id: str | None
    source_id: str | None

    @property
    def fields(self) -> tuple[Any, ...]:
        """What :func:`~..keys.fingerprint` hashes."""
        return self[5:11]


def _messages_holding(store: Engine[C], conn: C, forms: list[str]) -> list[_Held]:
    """Every message holding one of ``forms`` (in its text, or in the name or caption of
    a file it holds): the candidates SQL finds, a page at a time, checked in Python."""
    where, params = store.dialect.holds([f"m.{c}" for c in MESSAGE_TEXT_COLUMNS], forms)
    indexed = f"m.{store._INDEXED[1]}" if store._INDEXED else "0"
    text = ", ".join(f"m.{c}" for c in MESSAGE_TEXT_COLUMNS)
    sql = (
        f"SELECT m.id, m.sid, m.tokens, {indexed}, s.id, m.role, {text} "
        "FROM {s}.messages m JOIN {s}.sessions s ON s.sid = m.sid "
        f"WHERE ({where}) AND m.id > ? ORDER BY m.id LIMIT {_PAGE}"
    )
    found: list[_Held] = []
    last = 0
    while True:
        page = store._run(conn, sql, (*params, last)).fetchall()
        found += [_Held._make(r) for r in page if any(contains(v, forms) for v in r[6:])]
        if len(page) < _PAGE:
            break
        last = int(page[-1][0])
    # and those holding a file whose name or caption holds it
    extra = sorted(linked_holding(store, conn, forms) - {r.id for r in found})
    for clause, ids in store.dialect.chunks("m.id", extra):
        sql = (
            f"SELECT m.id, m.sid, m.tokens, {indexed}, s.id, m.role, {text} "
            f"FROM {{s}}.messages m JOIN {{s}}.sessions s ON s.sid = m.sid WHERE {clause}"
        )
        found += [_Held._make(r) for r in store._run(conn, sql, ids).fetchall()]
    return sorted(found, key=lambda r: int(r.id))
