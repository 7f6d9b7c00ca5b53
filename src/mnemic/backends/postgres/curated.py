"""MEMORY.md and USER.md as rows of a PostgreSQL database, shared by many hosts.

Same semantics as :class:`~mnemic.backends.files.curated.FileBackend`; only the mechanics
differ:

* **Serialisation.** A mutation is one transaction that first takes
  ``pg_advisory_xact_lock`` on each of its targets (sorted, so two writers of both
  targets cannot deadlock), with ``lock_timeout`` = ``memory.lock_timeout``. The lock is
  released by COMMIT, ROLLBACK or the connection's end, so a writer that dies never
  leaves it held.
* **Re-read, validate, write.** The targets' rows and ledgers are read with the locks,
  in the same round trip, which also locks the store's audit head
  (:func:`.curated_begin.begin`); the store validates the result (budget, drift,
  matching); the writes are kept, one statement per target: the previous text goes to
  ``curated_versions`` (bounded by ``history_limit``, oldest dropped), the new text to
  ``curated``. The audit record of the mutation joins the same transaction
  (:mod:`.governance`) and goes after the writes, with the COMMIT, in one batch. So a
  mutation is applied with its version and its audit record, or not at all (two round
  trips, the locks held for the second; see :mod:`.curated_txn`). The transaction
  commits with ``synchronous_commit = off`` and a flushed one follows it in the same
  query (:data:`.curated_begin.FLUSH`): the locks are released before the WAL flush,
  the caller is answered after it.
* **Both targets.** :meth:`~.curated_txn.PgTxn.write` writes both rows in the same transaction:
  PostgreSQL's atomic commit replaces the file backend's redo log, and there is never
  anything to recover.
* **Drift.** A row can only differ from what mnemic wrote if someone edits it with SQL.
  Drift is what it is for files: content mnemic would not have written (empty entries,
  an over-long blob without delimiters, stray whitespace), detected the same way
  (:func:`~mnemic.curated.entries.detect_drift`). A drifted text is saved in
  ``curated_backups`` (its own transaction, so the copy survives the refusal; the same
  text is kept once) and the write is refused; ``mnemic memory adopt`` works unchanged.
  A single ``add`` appends to the text as it is, as with a file. Clean text edited with
  SQL is simply the new current text, as with a hand-edited file.
* **Reads** need no lock: a row is always a whole committed version.
* **Scopes.** One backend serves one store: the global one (``project = ''``) or one
  project's (its id): every statement names its ``project``, and a project's advisory
  locks are its own (:meth:`PostgresBackend.lock_key`), so the global store and each
  project store have their own texts, history, backups and locks in the same tables.
"""

from __future__ import annotations

import contextlib
import math
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ...curated.backend import Backup, Problem, Removal, RetentionPolicy, Version
from ...curated.entries import FILENAMES
from ...errors import InvalidArgument, MnemicError
from .curated_begin import REMOVED, begin, flushes, is_db_error, rollback
from .curated_server import server_write
from .curated_txn import PgTxn
from .db import Database, failure, mapped_errors

__all__ = [
    "PostgresBackend",
    "check_project",
    "current_transaction",
    "drop_tombstones",
    "project_rows",
    "record_project",
    "move_project",
    "remove_project",
    "store_place",
    "tombstone",
]

_PROJECT_ID = re.compile(r"[A-Za-z0-9._-]{0,80}")
"""What a project id is made of (:func:`mnemic.curated.scope.project_id`); ``''``: global."""

_ACTIVE: dict[int, PgTxn] = {}
"""The curated transaction open on each thread (the audit journal joins it)."""


def check_project(project: str) -> str:
    """``project`` when it is a project id (or ``''``, the global store); else refused."""
    if not _PROJECT_ID.fullmatch(project):
        raise InvalidArgument(
            "project", f"{project!r} is not a project id (see mnemic.curated.scope)"
        )
    return project


def project_rows(db: Database) -> dict[str, str]:
    """The catalog of project stores of ``db``'s schema: id -> directory."""
    with mapped_errors(f"{db.location}: projects", writing=False), db.connection() as conn:
        rows = conn.execute(db.sql("SELECT id, path FROM {s}.projects")).fetchall()
    return {str(pid): str(path) for pid, path in rows}


def record_project(db: Database, project_id: str, path: str) -> None:
    """Record a project's store in the catalog (kept as first recorded when it exists)."""
    pid = check_project(project_id)
    with mapped_errors(f"{db.location}: projects", writing=True), db.connection() as conn:
        conn.execute(
            db.sql(
                "INSERT INTO {s}.projects (id, path, created_at) VALUES (%s, %s, %s) "
                "ON CONFLICT (id) DO NOTHING"
            ),
            (pid, path, time.time()),
        )
        # made again (a new store, or one imported back): its tombstone goes
        conn.execute(db.sql("DELETE FROM {s}.meta WHERE key = %s"), (REMOVED + pid,))


PROJECT_TABLES = (
    "curated",
    "curated_versions",
    "curated_backups",
    "curated_provenance",
    "curated_requests",
    "pending",
    "audit",
    "audit_head",
    "audit_targets",
    "journal_fold",
)
"""Every table whose rows a project store keeps, keyed by its ``project`` column (the
catalog, ``projects``, by ``id``)."""


def remove_project(db: Database, project_id: str, head: str | None, timeout: float) -> bool:
    """Delete the store of project ``project_id`` (every row of :data:`PROJECT_TABLES`
    with its id, and its catalog row) in one transaction, under its targets' advisory
    locks and its audit head (what every writer of it takes first), so a writer waits
    for it or it for the writer, never half each. ``head``: the hash of the journal's
    last record as the caller read it (``None``: no record); a store whose head moved
    since (a write came in) is left whole and ``False`` returned. A lock not granted
    within ``timeout`` seconds raises the lock timeout (mapped: the store is busy)."""
    pid = check_project(project_id)
    if not pid:
        raise InvalidArgument("project", "the global store is not a project store")
    with _store_locked(db, (pid,), pid, timeout) as (conn, row):
        found = str(row[1]) if row is not None and row[0] else None
        if found != head:
            return False
        _rekey(conn, db, pid, None)
        conn.execute(db.sql("DELETE FROM {s}.projects WHERE id = %s"), (pid,))
    return True


@contextlib.contextmanager
def _store_locked(
    db: Database, ids: Sequence[str], head_of: str, timeout: float
) -> Iterator[tuple[Any, Any]]:
    """One transaction holding the advisory locks of every target of the stores ``ids``
    and the audit head of ``head_of``: yields the connection and that head's row (None:
    no head). The locks go by store id, then by target name, the order a writer takes
    its store's (so neither waits for the other in a cycle, nor two moves)."""
    from .curated_begin import audit_head

    keys = [db.key(f"projects/{p}/{t}") for p in sorted(set(ids)) for t in sorted(FILENAMES)]
    where = f"{db.location}: project {head_of}"
    with mapped_errors(where, writing=True), db.connection() as conn, conn.transaction():
        conn.execute(f"SET LOCAL lock_timeout = {max(1, int(timeout * 1000))}")
        for key in keys:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (key,), prepare=False)
        yield conn, conn.execute(audit_head(db, head_of), prepare=False).fetchone()


def _rekey(conn: Any, db: Database, src: str, dst: str | None) -> None:
    """Every row of store ``src`` in :data:`PROJECT_TABLES` re-keyed to ``dst`` (None:
    deleted), then its tombstone left. The requests its waiting writers left in the
    server's queue (``curated_requests``) are deleted either way, never re-keyed: such
    a writer's session opened ``src``, so the next holder of its lock runs its write
    itself, which finds the tombstone and is refused (``removed``), and no holder of
    ``dst`` ever applies it."""
    from ...curated.scope import tombstone_text

    for table in PROJECT_TABLES:
        there = conn.execute(db.sql(f"SELECT to_regclass('{{s}}.{table}')")).fetchone()
        if there is None or there[0] is None:  # curated_requests: v13
            continue
        if dst is None or table == "curated_requests":
            conn.execute(db.sql(f"DELETE FROM {{s}}.{table} WHERE project = %s"), (src,))
        else:
            statement = f"UPDATE {{s}}.{table} SET project = %s WHERE project = %s"
            conn.execute(db.sql(statement), (dst, src))
    conn.execute(
        db.sql(
            "INSERT INTO {s}.meta (key, value) VALUES (%s, %s) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
        ),
        (REMOVED + src, tombstone_text(time.time(), dst or "")),
    )


def move_project(db: Database, old: str, new: str, path: str, timeout: float) -> bool:
    """Re-key the store of project ``old`` to ``new`` (directory ``path``): every row of
    :data:`PROJECT_TABLES` and its catalog row, in one transaction under both stores'
    advisory locks (taken in key order) and ``old``'s audit head. ``False`` (nothing
    changed) when ``new`` already has a store. ``old == new``: the directory alone."""
    src, dst = check_project(old), check_project(new)
    if not src or not dst:
        raise InvalidArgument("project", "the global store is not a project store")
    with _store_locked(db, (src, dst), src, timeout) as (conn, _):
        if src != dst:
            taken = conn.execute(db.sql("SELECT 1 FROM {s}.projects WHERE id = %s"), (dst,))
            if taken.fetchone() is not None:
                return False
            _rekey(conn, db, src, dst)
            conn.execute(db.sql("DELETE FROM {s}.meta WHERE key = %s"), (REMOVED + dst,))
        conn.execute(
            db.sql("UPDATE {s}.projects SET id = %s, path = %s WHERE id = %s"), (dst, path, src)
        )
    return True


def drop_tombstones(db: Database, older_than: float, *, dry_run: bool = False) -> list[str]:
    """The ids of the project stores whose tombstones (:data:`~.curated_begin.REMOVED`)
    were left before ``older_than`` (a time), deleted unless ``dry_run`` (``mnemic gc``,
    ``[retention] max_age_days``). A tombstone whose time cannot be read is kept. A
    writer that opened such a store before it went and writes only now is no longer
    refused by it: it makes the store again, as after rows deleted by hand."""
    where = f"{db.location}: tombstones"
    with mapped_errors(where, writing=not dry_run), db.connection() as conn, conn.transaction():
        rows = conn.execute(
            db.sql("SELECT key, value FROM {s}.meta WHERE left(key, %s) = %s FOR UPDATE"),
            (len(REMOVED), REMOVED),
        ).fetchall()
        old = [str(k) for k, v in rows if _stamp(str(v)) < older_than]
        if old and not dry_run:
            conn.execute(db.sql("DELETE FROM {s}.meta WHERE key = ANY(%s)"), (old,))
    return sorted(k[len(REMOVED) :] for k in old)


def tombstone(db: Database, project_id: str) -> str | None:
    """The tombstone of project ``project_id`` (:data:`~.curated_begin.REMOVED`; None:
    none): its value, when it went and a move's new id."""
    pid = check_project(project_id)
    with mapped_errors(f"{db.location}: project {pid}", writing=False), db.connection() as conn:
        row = conn.execute(db.sql("SELECT value FROM {s}.meta WHERE key = %s"), (REMOVED + pid,))
        found = row.fetchone()
    return None if found is None else str(found[0])


def _stamp(mark: str) -> float:
    """When a tombstone was left (infinity: not readable, so never old enough)."""
    try:
        return float(mark.partition(" ")[0])
    except ValueError:
        return math.inf


def store_place(db: Database, project: str) -> str:
    """Where one store of ``db`` is, for messages: the database, and the project if any."""
    return f"{db.location}: project {project}" if project else db.location


def current_transaction(db: Database, project: str = "") -> PgTxn | None:
    """The curated transaction this thread has open on the store ``project`` of ``db``
    (its audit journal joins it through :meth:`PgTxn.append_audit`)."""
    txn = _ACTIVE.get(threading.get_ident())
    if txn is None or txn.backend.db is not db or txn.backend.project != project or txn.closed:
        return None
    return txn


class PostgresBackend:
    """The curated targets of one store (the global one, or ``project``'s) of one
    database schema (see the module docstring)."""

    def __init__(
        self,
        db: Database,
        *,
        history_limit: int = 50,
        project: str = "",
        group_commit: str = "off",
    ) -> None:
        self.db = db
        self.history_limit = history_limit
        self.project = check_project(project)
        self.queue = group_commit == "queue"
        """Whether a write the server decides goes through its request queue
        (:mod:`.curated_queue`: the lock's holder applies the waiting writers' requests)."""
        self.place = store_place(db, project)
        """Where the store is, for messages: the database, and the project if any."""

    def __repr__(self) -> str:
        return f"PostgresBackend({self.db.location!r}, project={self.project!r})"

    def lock_key(self, target: str) -> int:
        """The advisory lock key of ``target`` in this store (the global store keeps the
        keys it always had, so hosts of either version exclude each other)."""
        return self.db.key(f"projects/{self.project}/{target}" if self.project else target)

    # -- names -----------------------------------------------------------------------
    def _name(self, target: str) -> str:
        try:
            return FILENAMES[target]
        except KeyError:
            raise InvalidArgument(
                "target", f"Unknown target {target!r}. Use 'memory' or 'user'."
            ) from None

    def location(self, target: str) -> str:
        return f"{self.place}: {self._name(target)}"

    def signature(self, target: str) -> None:
        """None: nothing is cheaper than reading the row (one primary-key lookup)."""
        self._name(target)
        return None

    # -- reads -----------------------------------------------------------------------
    def read(self, target: str) -> str | None:
        statement = "SELECT body FROM {s}.curated WHERE target = %s AND project = %s"
        return self._read_text(statement, target)

    def read_provenance(self, target: str) -> str | None:
        statement = "SELECT ledger FROM {s}.curated_provenance WHERE target = %s AND project = %s"
        return self._read_text(statement, target)

    def _read_text(self, statement: str, target: str) -> str | None:
        """The text ``statement`` selects for ``target`` (``None``: no row); a database
        failure is the typed error of a read."""
        self._name(target)
        try:
            with self.db.connection() as conn:
                row = conn.execute(self.db.sql(statement), (target, self.project)).fetchone()
        except MnemicError:
            raise
        except Exception as exc:
            raise failure(exc, self.location(target), writing=False) from exc
        return None if row is None else str(row[0])

    # -- transactions ------------------------------------------------------------------
    @contextlib.contextmanager
    def transaction(self, targets: Sequence[str], timeout: float) -> Iterator[PgTxn]:
        ordered = sorted(set(targets))
        for t in ordered:
            self._name(t)
        names = "+".join(FILENAMES[t] for t in ordered)
        where = f"{self.place}: {names}" if ordered else self.place
        stage = "connect"
        lost = False
        txn: PgTxn | None = None
        started = time.perf_counter()
        try:
            with self.db.connection() as conn:
                stage = "lock"
                try:
                    early = flushes(self.db, conn)
                    began = begin(self, conn, ordered, timeout, early=early)
                    waited = (time.perf_counter() - started) * 1000.0
                    stage = "work"
                    rows, head, gone = began
                    prefetched = None if rows is None else (rows, head)
                    txn = PgTxn(self, conn, ordered, waited, prefetched, early=early, gone=gone)
                    ident = threading.get_ident()
                    outer = _ACTIVE.get(ident)
                    _ACTIVE[ident] = txn
                    try:
                        yield txn
                    finally:
                        txn.closed = True
                        if outer is None:
                            _ACTIVE.pop(ident, None)
                        else:
                            _ACTIVE[ident] = outer
                    stage = "commit"
                    txn.finish()
                except BaseException:
                    lost = conn.broken or conn.closed
                    rollback(conn)
                    raise
        except MnemicError:
            raise
        except Exception as exc:
            if stage == "connect" or not is_db_error(exc):
                raise
            # Only a connection lost in the COMMIT's round trip, or an error at or after
            # an early COMMIT (PgTxn.unknown), leaves the outcome unknown; on a live
            # connection, any other error there (a statement before the COMMIT refused)
            # means the server rolled back.
            unknown = txn is not None and txn.unknown
            raise failure(
                exc,
                where,
                writing=True,
                committing=stage == "commit" and (lost or unknown),
                waited_s=time.perf_counter() - started,
                lost=not unknown or lost,
            ) from exc

    # -- one write decided by the server -------------------------------------------------
    @property
    def server_writes(self) -> bool | None:
        """Whether :meth:`server_write` can run here (None: not tried yet)."""
        return self.db.server_writes

    server_write = server_write
    """One ``add``, ``remove`` or ``replace`` of a target decided, written and recorded by
    the server in one round trip (:func:`.curated_server.server_write`, this backend its
    owner; None: not available here)."""

    # -- history -----------------------------------------------------------------------
    def kept(self, kind: str, target: str, *, bodies: bool = False) -> list[tuple[Any, ...]]:
        """``(seq, saved_at, size in bytes)`` of a target's kept versions (``kind``
        ``"versions"``) or ``(id, saved_at, size)`` of its drift backups (``"backups"``),
        oldest first; with ``bodies``, each text instead of its size (``mnemic db copy``)."""
        key = {"versions": "seq", "backups": "id"}[kind]
        value = "body" if bodies else "octet_length(body)"
        with self.db.connection() as conn:
            rows: list[tuple[Any, ...]] = conn.execute(
                self.db.sql(
                    f"SELECT {key}, saved_at, {value} FROM {{s}}.curated_{kind} "
                    f"WHERE target = %s AND project = %s ORDER BY {key}"
                ),
                (target, self.project),
            ).fetchall()
        return rows

    def history(self, target: str) -> list[Version]:
        self._name(target)
        return [
            Version(target, int(seq), float(at), int(size), f"{self.location(target)}@{seq}")
            for seq, at, size in self.kept("versions", target)
        ]

    def read_version(self, target: str, version_id: int) -> str | None:
        self._name(target)
        with self.db.connection() as conn:
            row = conn.execute(
                self.db.sql(
                    "SELECT body FROM {s}.curated_versions "
                    "WHERE target = %s AND project = %s AND seq = %s"
                ),
                (target, self.project, int(version_id)),
            ).fetchone()
        return None if row is None else str(row[0])

    def retention(self, policy: RetentionPolicy, *, dry_run: bool = False) -> list[Removal]:
        out: list[Removal] = []
        for target in sorted(FILENAMES):
            with self.transaction([target], policy.lock_timeout) as txn:
                plan = policy.past(self.history(target), self.backups(target))
                out += [removal for _, removal in plan]
                if not dry_run:
                    versions = [i.id for i, r in plan if r.kind == "history"]
                    backups = [i.id for i, r in plan if r.kind == "backup"]
                    txn.conn.execute(
                        self.db.sql(
                            "DELETE FROM {s}.curated_versions "
                            "WHERE target = %s AND project = %s AND seq = ANY(%s)"
                        ),
                        (target, self.project, versions),
                    )
                    txn.conn.execute(
                        self.db.sql(
                            "DELETE FROM {s}.curated_backups WHERE project = %s AND id = ANY(%s)"
                        ),
                        (self.project, backups),
                    )
        return out

    # -- drift backups and debris ------------------------------------------------------------
    def save_backup(self, target: str, raw: str) -> str:
        # Its own transaction on another connection: the refusal that follows rolls back
        # the mutation's transaction, and the copy must survive it. The same text is kept
        # once: a backup with the same body gets its time refreshed instead of a second
        # row (callers hold the target's advisory lock, so two savers do not race).
        try:
            with self.db.connection() as conn:
                row = conn.execute(
                    self.db.sql(
                        "WITH found AS (UPDATE {s}.curated_backups SET saved_at = %(now)s "
                        "WHERE id = (SELECT max(id) FROM {s}.curated_backups WHERE target = "
                        "%(t)s AND project = %(p)s AND md5(body) = md5(%(body)s) AND body = "
                        "%(body)s) RETURNING id), made AS (INSERT INTO {s}.curated_backups "
                        "(project, target, saved_at, body) SELECT %(p)s, %(t)s, %(now)s, "
                        "%(body)s WHERE NOT EXISTS (SELECT 1 FROM found) RETURNING id) "
                        "SELECT id FROM found UNION ALL SELECT id FROM made"
                    ),
                    {"t": target, "p": self.project, "now": time.time(), "body": raw},
                ).fetchone()
        except Exception as exc:  # report, never pretend the copy exists
            return f"{self.location(target)} (BACKUP FAILED: {exc}; the text itself is unchanged)"
        backup_id = int(row[0]) if row else 0
        return (
            f"{self.location(target)} backup #{backup_id} (table {self.db.schema}.curated_backups)"
        )

    def backups(self, target: str) -> list[Backup]:
        """Drift backups of a target, oldest first."""
        self._name(target)
        where = self.location(target)
        return [
            Backup(target, int(i), float(at), int(size), f"{where} backup #{int(i)}")
            for i, at, size in self.kept("backups", target)
        ]

    def purge(self, target: str, *, lock_timeout: float, dry_run: bool = False) -> list[str]:
        with self.transaction([target], lock_timeout) as txn:
            sql = self.db.sql
            conn = txn.conn
            gone: list[str] = []
            if conn.execute(
                sql("SELECT 1 FROM {s}.curated WHERE target = %s AND project = %s"),
                (target, self.project),
            ).fetchone():
                gone.append(self.location(target))
            gone += [v.location for v in self.history(target)]
            gone += [b.location for b in self.backups(target)]
            if not dry_run:
                tables = ("curated", "curated_versions", "curated_backups", "curated_provenance")
                for table in tables:
                    conn.execute(
                        sql(f"DELETE FROM {{s}}.{table} WHERE target = %s AND project = %s"),
                        (target, self.project),
                    )
            return gone

    def forget_copies(
        self,
        target: str,
        holds: Callable[[str], bool],
        *,
        lock_timeout: float,
        dry_run: bool = False,
    ) -> list[str]:
        self._name(target)
        where = self.location(target)
        with self.transaction([target], lock_timeout) as txn:
            sql = self.db.sql
            conn = txn.conn
            versions = [
                int(seq)
                for seq, body in conn.execute(
                    sql(
                        "SELECT seq, body FROM {s}.curated_versions "
                        "WHERE target = %s AND project = %s ORDER BY seq"
                    ),
                    (target, self.project),
                ).fetchall()
                if holds(str(body))
            ]
            backups = [
                int(i)
                for i, body in conn.execute(
                    sql(
                        "SELECT id, body FROM {s}.curated_backups "
                        "WHERE target = %s AND project = %s ORDER BY id"
                    ),
                    (target, self.project),
                ).fetchall()
                if holds(str(body))
            ]
            if not dry_run:
                conn.execute(
                    sql(
                        "DELETE FROM {s}.curated_versions "
                        "WHERE target = %s AND project = %s AND seq = ANY(%s)"
                    ),
                    (target, self.project, versions),
                )
                conn.execute(
                    sql("DELETE FROM {s}.curated_backups WHERE project = %s AND id = ANY(%s)"),
                    (self.project, backups),
                )
        return [f"{where}@{seq}" for seq in versions] + [f"{where} backup #{i}" for i in backups]

    def doctor(self, *, fix: bool = False) -> list[Problem]:
        """Nothing to check beyond reading: rows have no permissions or debris."""
        return []
