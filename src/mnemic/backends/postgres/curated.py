"""MEMORY.md and USER.md as rows of a PostgreSQL database, shared by many hosts.

Same semantics as :class:`~mnemic.curated.backend.FileBackend`; only the mechanics differ:

* **Serialisation.** A mutation is one transaction that first takes
  ``pg_advisory_xact_lock`` on each of its targets (sorted, so two writers of both
  targets cannot deadlock), with ``lock_timeout`` = ``memory.lock_timeout``. The lock is
  released by COMMIT, ROLLBACK or the connection's end, so a writer that dies never
  leaves it held.
* **Re-read, validate, write.** Inside the lock the store re-reads the targets
  (:meth:`_PgTxn.read`), validates the result (budget, drift, matching) and writes it:
  the previous text goes to ``curated_versions`` (bounded by ``history_limit``, oldest
  dropped), the new text to ``curated``. The audit record of the mutation joins the same
  transaction (:mod:`.governance`). So a mutation is applied with its version and its
  audit record, or not at all.
* **Both targets.** :meth:`_PgTxn.write_all` writes both rows in the same transaction:
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
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ...curated.backend import Backup, Problem, Removal, RetentionPolicy, Version
from ...curated.entries import FILENAMES
from ...errors import InvalidArgument, MnemicError, WriteFailed
from .db import Database, failure, is_lock_timeout

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresBackend", "current_transaction"]

log = logging.getLogger(__name__)

T = TypeVar("T")

_ACTIVE: dict[int, _PgTxn] = {}
"""The curated transaction open on each thread (the audit journal joins it)."""


def current_transaction(db: Database) -> _PgTxn | None:
    """The curated transaction this thread has open on ``db`` (the audit journal joins
    it through :meth:`_PgTxn.append_audit`)."""
    import threading

    txn = _ACTIVE.get(threading.get_ident())
    if txn is None or txn.backend.db is not db or txn.closed:
        return None
    return txn


class PostgresBackend:
    """The curated targets of one database schema (see the module docstring)."""

    def __init__(self, db: Database, *, history_limit: int = 50) -> None:
        self.db = db
        self.history_limit = history_limit

    def __repr__(self) -> str:
        return f"PostgresBackend({self.db.location!r})"

    # -- names -----------------------------------------------------------------------
    def _name(self, target: str) -> str:
        try:
            return FILENAMES[target]
        except KeyError:
            raise InvalidArgument(
                "target", f"Unknown target {target!r}. Use 'memory' or 'user'."
            ) from None

    def location(self, target: str) -> str:
        return f"{self.db.location}: {self._name(target)}"

    # -- reads -----------------------------------------------------------------------
    def read(self, target: str) -> str | None:
        self._name(target)
        try:
            with self.db.connection() as conn:
                row = conn.execute(
                    self.db.sql("SELECT body FROM {s}.curated WHERE target = %s"), (target,)
                ).fetchone()
        except MnemicError:
            raise
        except Exception as exc:
            raise failure(exc, self.location(target), writing=False) from exc
        return None if row is None else str(row[0])

    def read_provenance(self, target: str) -> str | None:
        self._name(target)
        try:
            with self.db.connection() as conn:
                row = conn.execute(
                    self.db.sql("SELECT ledger FROM {s}.curated_provenance WHERE target = %s"),
                    (target,),
                ).fetchone()
        except MnemicError:
            raise
        except Exception as exc:
            raise failure(exc, self.location(target), writing=False) from exc
        return None if row is None else str(row[0])

    # -- transactions ------------------------------------------------------------------
    @contextlib.contextmanager
    def transaction(self, targets: Sequence[str], timeout: float) -> Iterator[_PgTxn]:
        import threading

        ordered = sorted(set(targets))
        for t in ordered:
            self._name(t)
        names = "+".join(FILENAMES[t] for t in ordered)
        where = f"{self.db.location}: {names}" if ordered else self.db.location
        stage = "connect"
        started = time.perf_counter()
        try:
            with self.db.connection() as conn:
                stage = "lock"
                try:
                    prefetched = _begin(self.db, conn, ordered, timeout)
                    waited = (time.perf_counter() - started) * 1000.0
                    stage = "work"
                    txn = _PgTxn(self, conn, ordered, waited, prefetched)
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
                    _rollback(conn)
                    raise
        except MnemicError:
            raise
        except Exception as exc:
            if stage == "connect" or not _is_db_error(exc):
                raise
            raise failure(
                exc,
                where,
                writing=True,
                committing=stage == "commit",
                waited_s=time.perf_counter() - started,
            ) from exc

    # -- history -----------------------------------------------------------------------
    def history(self, target: str) -> list[Version]:
        self._name(target)
        with self.db.connection() as conn:
            rows = conn.execute(
                self.db.sql(
                    "SELECT seq, saved_at, octet_length(body) FROM {s}.curated_versions "
                    "WHERE target = %s ORDER BY seq"
                ),
                (target,),
            ).fetchall()
        return [
            Version(target, int(seq), float(at), int(size), f"{self.location(target)}@{seq}")
            for seq, at, size in rows
        ]

    def read_version(self, target: str, version_id: int) -> str:
        name = self._name(target)
        with self.db.connection() as conn:
            row = conn.execute(
                self.db.sql("SELECT body FROM {s}.curated_versions WHERE target = %s AND seq = %s"),
                (target, int(version_id)),
            ).fetchone()
        if row is not None:
            return str(row[0])
        known = ", ".join(str(v.id) for v in self.history(target)) or "none"
        raise InvalidArgument(
            "version",
            f"No version {version_id} of {name} (known versions: {known}). "
            "See `mnemic memory history`.",
        )

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
                            "DELETE FROM {s}.curated_versions WHERE target = %s AND seq = ANY(%s)"
                        ),
                        (target, versions),
                    )
                    txn.conn.execute(
                        self.db.sql("DELETE FROM {s}.curated_backups WHERE id = ANY(%s)"),
                        (backups,),
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
                        "%(t)s AND md5(body) = md5(%(body)s) AND body = %(body)s) RETURNING id), "
                        "made AS (INSERT INTO {s}.curated_backups (target, saved_at, body) "
                        "SELECT %(t)s, %(now)s, %(body)s WHERE NOT EXISTS (SELECT 1 FROM found) "
                        "RETURNING id) SELECT id FROM found UNION ALL SELECT id FROM made"
                    ),
                    {"t": target, "now": time.time(), "body": raw},
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
        with self.db.connection() as conn:
            rows = conn.execute(
                self.db.sql(
                    "SELECT id, saved_at, octet_length(body) FROM {s}.curated_backups "
                    "WHERE target = %s ORDER BY id"
                ),
                (target,),
            ).fetchall()
        where = self.location(target)
        return [
            Backup(target, int(i), float(at), int(size), f"{where} backup #{int(i)}")
            for i, at, size in rows
        ]

    def purge(self, target: str, *, lock_timeout: float, dry_run: bool = False) -> list[str]:
        with self.transaction([target], lock_timeout) as txn:
            sql = self.db.sql
            conn = txn.conn
            gone: list[str] = []
            if conn.execute(
                sql("SELECT 1 FROM {s}.curated WHERE target = %s"), (target,)
            ).fetchone():
                gone.append(self.location(target))
            gone += [v.location for v in self.history(target)]
            gone += [b.location for b in self.backups(target)]
            if not dry_run:
                tables = ("curated", "curated_versions", "curated_backups", "curated_provenance")
                for table in tables:
                    conn.execute(sql(f"DELETE FROM {{s}}.{table} WHERE target = %s"), (target,))
            return gone

    def cleanup(self) -> list[str]:
        """Nothing to clean up: a transaction leaves no debris."""
        return []

    def doctor(self, *, fix: bool = False) -> list[Problem]:
        """Nothing to check beyond reading: rows have no permissions or debris."""
        return []


def _is_db_error(exc: BaseException) -> bool:
    import psycopg

    return isinstance(exc, psycopg.Error)


Prefetched = dict[str, tuple[str | None, str | None]]
"""target -> (text, provenance ledger) read under the lock when the transaction began."""


def _begin(
    db: Database, conn: psycopg.Connection[Any], ordered: list[str], timeout: float
) -> Prefetched | None:
    """Open the transaction, take the targets' locks (sorted) and read their rows and
    ledgers: one round trip (one simple query; the target names are fixed identifiers).

    Returns None when the reads failed (a ledger table renamed or unreadable): the
    transaction is then opened again without them and the reads go one by one, each
    ledger statement in a savepoint (:class:`_PgTxn` "careful" mode). A lock timeout and
    a lost connection are raised.
    """
    steps = ["BEGIN", f"SET LOCAL lock_timeout = {max(1, int(timeout * 1000))}"]
    steps += [f"SELECT pg_advisory_xact_lock({db.key(t)})" for t in ordered]
    if not ordered:
        conn.execute("; ".join(steps), prepare=False)
        return {}
    names = ", ".join(f"'{t}'" for t in ordered)  # validated names (FILENAMES keys)
    reads = [
        db.sql(f"SELECT target, body FROM {{s}}.curated WHERE target IN ({names})"),
        db.sql(f"SELECT target, ledger FROM {{s}}.curated_provenance WHERE target IN ({names})"),
    ]
    try:
        cur = conn.execute("; ".join(steps + reads), prepare=False)
    except Exception as exc:
        if conn.broken or conn.closed or is_lock_timeout(exc) or not _is_db_error(exc):
            raise
        _rollback(conn)
        conn.execute("; ".join(steps), prepare=False)
        return None
    sets: list[list[Any]] = []
    while True:
        sets.append(cur.fetchall() if cur.description else [])
        if not cur.nextset():
            break
    bodies = {str(r[0]): str(r[1]) for r in sets[-2]}
    ledgers = {str(r[0]): str(r[1]) for r in sets[-1]}
    return {t: (bodies.get(t), ledgers.get(t)) for t in ordered}


def _rollback(conn: psycopg.Connection[Any]) -> None:
    """End an open transaction of ``conn`` without applying it (best effort: a dead
    connection has nothing to end, the server already rolled it back)."""
    from psycopg.pq import TransactionStatus

    if conn.closed or conn.broken or conn.info.transaction_status == TransactionStatus.IDLE:
        return
    with contextlib.suppress(Exception):
        conn.execute("ROLLBACK")


_SAVE = (
    "INSERT INTO {s}.curated (target, body, version, updated_at) "
    "VALUES ({t}, {text}, 1, {now}) ON CONFLICT (target) DO UPDATE SET body = "
    "excluded.body, version = {s}.curated.version + 1, updated_at = excluded.updated_at"
)
_KEEP_PREVIOUS = (
    # keep the previous text as the next version, drop versions past the limit (all
    # CTEs see the rows before the statement)
    "prev AS (SELECT target, body FROM {s}.curated WHERE target = {t}), "
    "kept AS (INSERT INTO {s}.curated_versions (target, seq, saved_at, body) "
    "SELECT target, COALESCE((SELECT max(seq) FROM {s}.curated_versions "
    "WHERE target = {t}), 0) + 1, {now}, body FROM prev RETURNING seq), "
    "dropped AS (DELETE FROM {s}.curated_versions WHERE target = {t} "
    "AND seq <= (SELECT seq FROM kept) - {limit})"
)
_LEDGER = (
    "INSERT INTO {s}.curated_provenance (target, ledger, updated_at) "
    "VALUES ({t}, {ledger}, {now}) ON CONFLICT (target) DO UPDATE SET "
    "ledger = excluded.ledger, updated_at = excluded.updated_at"
)


class _PgTxn:
    """The locked targets of one curated transaction.

    Fast mode (the targets' rows were read with the locks, :func:`_begin`): reads are
    answered from that read; writes are kept and sent together, one statement per
    target (ledger, previous version, new text), with the next statement the
    transaction sends anyway: the audit head read (:meth:`append_audit`) or the COMMIT
    (:meth:`finish`). A mutation with its audit record is thus BEGIN+locks+reads, then
    writes+audit head, then audit record+COMMIT: three round trips.

    Careful mode (the combined read failed, e.g. the ledger table is gone): each
    statement is sent on its own, the ledger's in a savepoint, as an advisory ledger
    must never fail the write.
    """

    def __init__(
        self,
        backend: PostgresBackend,
        conn: psycopg.Connection[Any],
        targets: list[str],
        waited_ms: float,
        prefetched: Prefetched | None = None,
    ) -> None:
        self.backend = backend
        self.conn = conn
        self._targets = targets
        self.lock_wait_ms = waited_ms
        self.closed = False
        self._rows = prefetched
        self._texts: dict[str, str] = {}
        self._ledgers: dict[str, str] = {}
        self._final: list[str] = []

    @property
    def fast(self) -> bool:
        """Whether the rows were read with the locks (writes are then sent batched)."""
        return self._rows is not None

    def _check(self, target: str) -> None:
        if target not in self._targets:
            raise RuntimeError(f"target {target!r} is not locked by this transaction")

    def read(self, target: str) -> str | None:
        self._check(target)
        if self._rows is not None:
            if target in self._texts:
                return self._texts[target]
            return self._rows[target][0]
        row = self.conn.execute(
            self.backend.db.sql("SELECT body FROM {s}.curated WHERE target = %s"), (target,)
        ).fetchone()
        return None if row is None else str(row[0])

    def write(self, target: str, text: str) -> None:
        self._check(target)
        self._store(target, text)

    def read_provenance(self, target: str) -> str | None:
        self._check(target)
        if self._rows is not None:
            if target in self._ledgers:
                return self._ledgers[target]
            return self._rows[target][1]
        try:
            with self.conn.transaction():  # a savepoint: a failure leaves the write usable
                row = self.conn.execute(
                    self.backend.db.sql(
                        "SELECT ledger FROM {s}.curated_provenance WHERE target = %s"
                    ),
                    (target,),
                ).fetchone()
        except Exception as exc:
            if not _is_db_error(exc):
                raise
            raise failure(exc, self.backend.location(target), writing=False) from exc
        return None if row is None else str(row[0])

    def write_provenance(self, target: str, ledger: str) -> None:
        self._check(target)
        if self._rows is not None:
            # The ledger table was read in this transaction, which keeps it from being
            # dropped or renamed meanwhile: its upsert travels with the text's.
            self._ledgers[target] = ledger
            return
        try:
            with self.conn.transaction():  # a savepoint: a failure leaves the write usable
                self.conn.execute(
                    self.backend.db.sql(
                        "INSERT INTO {s}.curated_provenance (target, ledger, updated_at) "
                        "VALUES (%s, %s, %s) ON CONFLICT (target) DO UPDATE SET "
                        "ledger = excluded.ledger, updated_at = excluded.updated_at"
                    ),
                    (target, ledger, time.time()),
                )
        except Exception as exc:
            if not _is_db_error(exc):
                raise
            raise failure(exc, self.backend.location(target), writing=True) from exc

    def write_all(self, writes: dict[str, str]) -> None:
        for target in writes:
            self._check(target)
        for target in sorted(writes):
            self._store(target, writes[target])

    def _store(self, target: str, text: str) -> None:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            # refused before any statement: the transaction rolls back untouched
            raise WriteFailed(
                self.backend.location(target),
                f"the new text cannot be stored as UTF-8 ({exc.reason} at character {exc.start})",
            ) from exc
        if self._rows is not None:
            self._texts[target] = text
            return
        self.conn.execute(self._statement(target, text, None))

    def _statement(self, target: str, text: str | None, ledger: str | None) -> str:
        """One statement writing ``target``'s ``ledger`` and new ``text`` (either may be
        None), with the values as literals (quoted by psycopg), so that it can share a
        simple query with others."""
        from psycopg import sql

        limit = self.backend.history_limit
        ctes: list[str] = []
        if ledger is not None and text is not None:
            ctes.append("ledger AS (" + _LEDGER + ")")
        if text is not None and limit > 0:
            ctes.append(_KEEP_PREVIOUS)
        main = _SAVE if text is not None else _LEDGER
        template = ("WITH " + ", ".join(ctes) + " " if ctes else "") + main
        return (
            sql.SQL(self.backend.db.sql(template))
            .format(
                t=sql.Literal(target),
                text=sql.Literal(text),
                ledger=sql.Literal(ledger),
                now=sql.Literal(time.time()),
                limit=sql.Literal(limit),
            )
            .as_string(self.conn)
        )

    def _send(self, extra: list[str]) -> Any:
        """Send the kept writes, then ``extra``, in one simple query; return the cursor on
        the last result.

        The writes go in a savepoint. If one fails (a server refusing a ledger, say), the
        batch is undone to it and the writes are sent again one by one, each ledger in a
        savepoint of its own (an advisory ledger never fails the write; a text that fails
        does), then ``extra`` on its own. A failure in ``extra`` is raised.
        """
        kept = [
            (t, self._texts.get(t), self._ledgers.get(t))
            for t in sorted(set(self._texts) | set(self._ledgers))
        ]
        self._texts.clear()
        self._ledgers.clear()
        writes = [self._statement(t, text, ledger) for t, text, ledger in kept]
        batch = extra
        if writes:
            batch = ["SAVEPOINT mnemic_writes", *writes, "RELEASE SAVEPOINT mnemic_writes", *extra]
        try:
            cur = self.conn.execute("; ".join(batch), prepare=False)
        except Exception as exc:
            if not writes or self.conn.broken or self.conn.closed or not _is_db_error(exc):
                raise
            try:  # fails when the savepoint was released: the failure was in ``extra``
                self.conn.execute("ROLLBACK TO SAVEPOINT mnemic_writes")
            except Exception:
                raise exc from None
            self._one_by_one(kept)
            cur = self.conn.execute("; ".join(extra), prepare=False)
        assert self._rows is not None
        for t, text, ledger in kept:
            old_text, old_ledger = self._rows[t]
            self._rows[t] = (
                old_text if text is None else text,
                old_ledger if ledger is None else ledger,
            )
        while cur.nextset():
            pass
        return cur

    def _one_by_one(self, kept: list[tuple[str, str | None, str | None]]) -> None:
        for target, text, ledger in kept:
            if ledger is not None:
                try:
                    with self.conn.transaction():  # a savepoint
                        self.conn.execute(self._statement(target, None, ledger))
                except Exception as exc:
                    if not _is_db_error(exc) or self.conn.broken or self.conn.closed:
                        raise
                    log.warning("provenance of %s not recorded: %s", target, exc)
            if text is not None:
                self.conn.execute(self._statement(target, text, None))

    def append_audit(self, head_sql: str, records: Callable[[Any], tuple[T, list[str]]]) -> T:
        """Append audit records in this transaction: lock the journal head (``head_sql``,
        ``SELECT ... FOR UPDATE``), and have ``records(head_row)`` return its result and
        the statements that append them (literals only).

        The head is read in a savepoint, so that a failure there (the head row locked
        past the timeout) leaves the write to commit without its record, as the
        governance layer wants. In fast mode the kept writes travel in front of it and
        the append statements are sent with the COMMIT.
        """
        if self._rows is None:
            with self.conn.transaction():
                row = self.conn.execute(head_sql).fetchone()
                result, statements = records(row)
                for statement in statements:
                    self.conn.execute(statement)
            return result
        try:
            cur = self._send(["SAVEPOINT mnemic_audit", head_sql])
        except Exception:
            if not (self.conn.broken or self.conn.closed):
                # restores the transaction when the head failed; when a write failed,
                # the savepoint does not exist, this fails too and COMMIT will refuse
                with contextlib.suppress(Exception):
                    self.conn.execute("ROLLBACK TO SAVEPOINT mnemic_audit")
            raise
        row = cur.fetchone()
        result, statements = records(row)
        self._final += [*statements, "RELEASE SAVEPOINT mnemic_audit"]
        return result

    def finish(self) -> None:
        """COMMIT, with whatever was kept for it: one round trip."""
        from psycopg.pq import TransactionStatus

        from .db import ConnectionLost

        conn = self.conn
        if conn.broken or conn.closed:
            raise ConnectionLost("the connection was lost before COMMIT")
        if conn.info.transaction_status != TransactionStatus.INTRANS:
            raise WriteFailed(
                self.backend.db.location,
                "a statement of the transaction failed; it was rolled back, nothing was changed",
            )
        if self._rows is None:
            cur = conn.execute("COMMIT")
        else:
            writes = bool(self._texts or self._ledgers)
            try:
                cur = self._send([*self._final, "COMMIT"])
            except Exception as exc:
                if writes or not self._final or conn.broken or conn.closed:
                    raise
                if not _is_db_error(exc):
                    raise
                # Only the audit record failed (it follows a savepoint): the write
                # commits without it, as a failed append never fails a write
                # (``audit verify`` lists the change as unrecorded).
                log.warning("the audit record of a memory write was not stored: %s", exc)
                cur = conn.execute(
                    "ROLLBACK TO SAVEPOINT mnemic_audit; RELEASE SAVEPOINT mnemic_audit; COMMIT",
                    prepare=False,
                )
        while cur.nextset():
            pass
        if cur.statusmessage != "COMMIT":  # the server rolled back instead
            raise WriteFailed(
                self.backend.db.location, "the transaction was rolled back, nothing was changed"
            )
