"""How a curated transaction on PostgreSQL begins: the locks, the rows and the audit head
in one round trip (:func:`begin`), and how it ends without applying (:func:`rollback`).

:class:`~.curated_txn.PgTxn` carries on from what :func:`begin` read.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Protocol

from .db import Database, is_lock_timeout

if TYPE_CHECKING:
    import psycopg

__all__ = [
    "AUDIT_HEAD",
    "REMOVED",
    "FLUSH",
    "Owner",
    "Prefetched",
    "audit_head",
    "begin",
    "flushes",
    "is_db_error",
    "rollback",
]


class Owner(Protocol):
    """What a transaction needs of its backend."""

    db: Database
    history_limit: int
    project: str
    """The store: ``''`` (global) or a project's id; every row it touches has it."""

    def location(self, target: str) -> str: ...

    def lock_key(self, target: str) -> int: ...


REMOVED = "removed_project:"
"""The ``meta`` key prefix of a project store's tombstone (``removed_project:<id>``):
left by ``mnemic project forget`` and ``move`` (its old id), its value when (and for a
move the new id: :func:`mnemic.curated.scope.tombstone_text`). It goes when a store of
that id is recorded again (:func:`~.curated.record_project`: a new store, or one
imported back, supersedes it) or when ``mnemic gc`` finds it older than
``[retention] max_age_days`` (:func:`~.curated.drop_tombstones`)."""


def is_db_error(exc: BaseException) -> bool:
    import psycopg

    return isinstance(exc, psycopg.Error)


Prefetched = dict[str, tuple[str | None, str | None]]
"""target -> (text, provenance ledger) read under the lock when the transaction began."""

AUDIT_HEAD = (
    "SELECT h.count, h.hash, (SELECT json_object_agg(target, "
    "json_build_array(state, origin, origin_known)) FROM {s}.audit_targets "
    "WHERE project = {p}) FROM {s}.audit_head h WHERE h.project = {p} FOR UPDATE OF h"
)
"""The head of one store's journal, locked, with each target's state at its last
commit record (``{p}``: the store's project, quoted)."""


FLUSH = "SELECT pg_logical_emit_message(true, 'mnemic', '')"
"""Sent after a curated write's ``COMMIT``, in the same simple query, when the write
committed with ``synchronous_commit = off`` (its locks released at once): a transaction
of its own that writes one WAL record and commits with the session's own
``synchronous_commit``, so the server answers once the WAL up to it, the write's commit
record included, is flushed (and, with synchronous standbys, replicated) as the write's
own COMMIT would have been. See ``docs/postgres.md``, "Locks released before the
flush"."""


def flushes(db: Database, conn: psycopg.Connection[Any]) -> bool:
    """Whether ``db``'s role may run :data:`FLUSH` (asked once per process, on ``conn``,
    outside any transaction: a non-transactional message, nothing to commit). A server
    that refuses it keeps the locks until the flushed COMMIT, as before."""
    if db.flushes is None:
        try:
            conn.execute("SELECT pg_logical_emit_message(false, 'mnemic', 'probe')")
        except Exception as exc:
            if conn.broken or conn.closed or not is_db_error(exc):
                raise
            db.flushes = False
        else:
            db.flushes = True
    return db.flushes


def audit_head(db: Database, project: str) -> str:
    """:data:`AUDIT_HEAD` for the store ``project`` of ``db``."""
    from psycopg import sql

    return db.sql(AUDIT_HEAD).replace("{p}", sql.Literal(project).as_string())


def begin(
    owner: Owner,
    conn: psycopg.Connection[Any],
    ordered: list[str],
    timeout: float,
    *,
    early: bool = False,
) -> tuple[Prefetched | None, Any, str | None]:
    """Open the transaction, take the targets' locks (sorted), read their rows and
    ledgers in ``owner``'s store and lock its audit head (:data:`AUDIT_HEAD`): one round
    trip (one simple query; the target names are fixed identifiers, the project is
    quoted by psycopg). Returns the rows, the head row (None: the store has no head
    row yet) and, when the store is a project store removed or moved (``mnemic project
    forget`` / ``move``) while the locks were waited for or since its writer opened it,
    its :data:`REMOVED` tombstone's value (else None): a write or record then refuses
    (:meth:`~.curated_txn.PgTxn.write`).

    The head is locked here, behind the targets' locks, rather than when the record is
    appended: the record is then built from it and sent with the writes and the COMMIT,
    so the locks are held for one more round trip, not two (a journal append outside a
    curated transaction takes only the head, so the order stays: targets, then head).

    Returns no rows (None in their place) when the reads failed (a ledger table renamed
    or unreadable): the transaction is then opened again without them, the tombstone
    read alone, and the reads go one by one, each ledger statement in a savepoint
    (:class:`PgTxn` "careful" mode). A lock timeout and a lost connection are raised.

    ``early``: the transaction commits with ``synchronous_commit = off``, releasing its
    locks without waiting for the WAL flush; its COMMIT must then be followed by
    :data:`FLUSH` (:meth:`~.curated_txn.PgTxn.finish` does).
    """
    from psycopg import sql

    db = owner.db
    steps = ["BEGIN", f"SET LOCAL lock_timeout = {max(1, int(timeout * 1000))}"]
    if early:
        steps.append("SET LOCAL synchronous_commit = off")
    steps += [f"SELECT pg_advisory_xact_lock({owner.lock_key(t)})" for t in ordered]
    if not ordered:
        conn.execute("; ".join(steps), prepare=False)
        return {}, None, None
    names = ", ".join(f"'{t}'" for t in ordered)  # validated names (FILENAMES keys)
    quoted = sql.Literal(owner.project).as_string(conn)
    scope = f"project = {quoted}"
    # a project store's tombstone, read under its locks: a store removed or moved (mnemic
    # project forget / move) while this writer waited, or since it opened it, has one
    # (a store whose rows someone deleted by hand has none: its writer makes it again)
    mark = sql.Literal(REMOVED + owner.project).as_string(conn)
    removed = [db.sql(f"SELECT value FROM {{s}}.meta WHERE key = {mark}")]
    reads = [
        *(removed if owner.project else []),
        db.sql(f"SELECT target, body FROM {{s}}.curated WHERE target IN ({names}) AND {scope}"),
        db.sql(
            f"SELECT target, ledger FROM {{s}}.curated_provenance "
            f"WHERE target IN ({names}) AND {scope}"
        ),
        audit_head(db, owner.project),
    ]
    try:
        cur = conn.execute("; ".join(steps + reads), prepare=False)
    except Exception as exc:
        if conn.broken or conn.closed or is_lock_timeout(exc) or not is_db_error(exc):
            raise
        rollback(conn)
        conn.execute("; ".join(steps), prepare=False)
        if not owner.project:
            return None, None, None
        # the tombstone still, or a removed store's writer would make its rows again
        found = conn.execute(removed[0], prepare=False).fetchone()
        return None, None, None if found is None else str(found[0])
    sets: list[list[Any]] = []
    while True:
        sets.append(cur.fetchall() if cur.description else [])
        if not cur.nextset():
            break
    gone = str(sets[-4][0][0]) if owner.project and sets[-4] else None
    bodies = {str(r[0]): str(r[1]) for r in sets[-3]}
    ledgers = {str(r[0]): str(r[1]) for r in sets[-2]}
    head = sets[-1][0] if sets[-1] else None
    return {t: (bodies.get(t), ledgers.get(t)) for t in ordered}, head, gone


def rollback(conn: psycopg.Connection[Any]) -> None:
    """End an open transaction of ``conn`` without applying it (best effort: a dead
    connection has nothing to end, the server already rolled it back)."""
    from psycopg.pq import TransactionStatus

    if conn.closed or conn.broken or conn.info.transaction_status == TransactionStatus.IDLE:
        return
    with contextlib.suppress(Exception):
        conn.execute("ROLLBACK")
