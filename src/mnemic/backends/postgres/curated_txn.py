"""The transaction of one curated mutation on PostgreSQL, in two round trips.

:class:`PgTxn` is what :meth:`.curated.PostgresBackend.transaction` yields: the rows of
the locked targets and the store's audit head, read with the locks
(:func:`.curated_begin.begin`),
writes kept and sent with the audit record and the COMMIT, and a "careful"
one-statement-at-a-time form when the combined read fails. See the class docstring
and ``docs/postgres.md``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ...errors import MnemicError, WriteFailed
from .curated_begin import FLUSH, Owner, Prefetched, audit_head, is_db_error
from .db import ConnectionLost, failure

if TYPE_CHECKING:
    import psycopg

__all__ = ["PgTxn"]

log = logging.getLogger("mnemic.backends.postgres.curated")

T = TypeVar("T")


_SAVE = (
    "INSERT INTO {s}.curated (project, target, body, version, updated_at) "
    "VALUES ({p}, {t}, {text}, 1, {now}) ON CONFLICT (project, target) DO UPDATE SET body = "
    "excluded.body, version = {s}.curated.version + 1, updated_at = excluded.updated_at"
)
_KEEP_PREVIOUS = (
    # keep the previous text as the next version, drop versions past the limit (all
    # CTEs see the rows before the statement)
    "prev AS (SELECT target, body FROM {s}.curated WHERE target = {t} AND project = {p}), "
    "kept AS (INSERT INTO {s}.curated_versions (project, target, seq, saved_at, body) "
    "SELECT {p}, target, COALESCE((SELECT max(seq) FROM {s}.curated_versions "
    "WHERE target = {t} AND project = {p}), 0) + 1, {now}, body FROM prev RETURNING seq), "
    "dropped AS (DELETE FROM {s}.curated_versions WHERE target = {t} AND project = {p} "
    "AND seq <= (SELECT seq FROM kept) - {limit})"
)
_LEDGER = (
    "INSERT INTO {s}.curated_provenance (project, target, ledger, updated_at) "
    "VALUES ({p}, {t}, {ledger}, {now}) ON CONFLICT (project, target) DO UPDATE SET "
    "ledger = excluded.ledger, updated_at = excluded.updated_at"
)


class PgTxn:
    """The locked targets of one curated transaction.

    Fast mode (the targets' rows were read with the locks,
    :func:`~.curated_begin.begin`): reads are answered from that read; writes are kept
    and sent together, one statement per target (ledger, previous version, new text),
    with the next statement the transaction sends anyway: the COMMIT (:meth:`finish`),
    or the audit head read (:meth:`append_audit`) when ``begin`` found no head row to
    lock. A mutation with its audit record is thus BEGIN+locks+reads+audit head, then
    writes+audit record+COMMIT (+ :data:`~.curated_begin.FLUSH` when ``early``: the
    locks go at the COMMIT, the answer comes after the flush): two round trips, the
    locks held for one of them.

    Careful mode (the combined read failed, e.g. the ledger table is gone): each
    statement is sent on its own, the ledger's in a savepoint, as an advisory ledger
    must never fail the write.
    """

    def __init__(
        self,
        backend: Owner,
        conn: psycopg.Connection[Any],
        targets: list[str],
        waited_ms: float,
        prefetched: tuple[Prefetched, Any] | None = None,
        *,
        early: bool = False,
        gone: str | None = None,
    ) -> None:
        self.backend = backend
        self.gone = gone
        """A project store's tombstone found under the locks (:func:`~.curated_begin.
        begin`; None: none): a write or a record refuses (removed or moved meanwhile)."""
        self.conn = conn
        self._targets = targets
        self.lock_wait_ms = waited_ms
        self.closed = False
        self.early = early
        """Committed with ``synchronous_commit = off`` (:func:`~.curated_begin.begin`):
        the COMMIT is followed by :data:`~.curated_begin.FLUSH`."""
        self.unknown = False
        """The batch with the COMMIT failed after the transaction ended (at the COMMIT or
        in the flush after it): whether it committed is not known."""
        self._rows: Prefetched | None = None if prefetched is None else prefetched[0]
        self._head: Any = None if prefetched is None else prefetched[1]
        """The targets' rows and the audit head's row locked by
        :func:`~.curated_begin.begin` (the head is used once, by the first
        :meth:`append_audit`)."""
        self._texts: dict[str, str] = {}
        self._ledgers: dict[str, str] = {}
        self._final: list[str] = []
        self._committed = False
        self._statuses: list[str | None] = []
        """The status of each result of the last batch sent."""
        self._failed: BaseException | None = None
        """The failure of a COMMIT sent by :meth:`append_audit`, raised by :meth:`finish`."""

    @property
    def fast(self) -> bool:
        """Whether the rows were read with the locks (writes are then sent batched)."""
        return self._rows is not None

    def _check(self, target: str, *, writing: bool = False) -> None:
        if target not in self._targets:
            raise RuntimeError(f"target {target!r} is not locked by this transaction")
        if writing and self._committed:
            raise RuntimeError("the transaction was committed with its audit record")

    def read(self, target: str) -> str | None:
        self._check(target)
        if self._rows is not None:
            if target in self._texts:
                return self._texts[target]
            return self._rows[target][0]
        row = self.conn.execute(
            self.backend.db.sql("SELECT body FROM {s}.curated WHERE target = %s AND project = %s"),
            (target, self.backend.project),
        ).fetchone()
        return None if row is None else str(row[0])

    def _refuse_gone(self) -> None:
        if self.gone is not None:
            from ...curated.scope import removed_store

            raise removed_store(self.backend.project, self.gone)

    def write(self, writes: Mapping[str, str], *, record: Callable[[], None] | None = None) -> None:
        self._refuse_gone()
        for target in writes:
            self._check(target, writing=True)
        for target in sorted(writes):
            self._store(target, writes[target])
        if record is not None:
            # after the texts, as with files (their record follows the durable temp
            # files): the texts go first in the record's batch, so a text the server
            # refuses fails the record's append (:meth:`_commit`). The record joins
            # this transaction: it commits with the texts, or neither does.
            record()

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
                        "SELECT ledger FROM {s}.curated_provenance "
                        "WHERE target = %s AND project = %s"
                    ),
                    (target, self.backend.project),
                ).fetchone()
        except Exception as exc:
            if not is_db_error(exc):
                raise
            raise failure(exc, self.backend.location(target), writing=False) from exc
        return None if row is None else str(row[0])

    def write_provenance(self, target: str, ledger: str) -> None:
        self._check(target, writing=True)
        if self._rows is not None:
            # The ledger table was read in this transaction, which keeps it from being
            # dropped or renamed meanwhile: its upsert travels with the text's.
            self._ledgers[target] = ledger
            return
        try:
            with self.conn.transaction():  # a savepoint: a failure leaves the write usable
                self.conn.execute(self._statement(target, None, ledger))
        except Exception as exc:
            if not is_db_error(exc):
                raise
            raise failure(exc, self.backend.location(target), writing=True) from exc

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
                p=sql.Literal(self.backend.project),
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
            if not writes or self.conn.broken or self.conn.closed or not is_db_error(exc):
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
        self._statuses = [cur.statusmessage]
        while cur.nextset():
            self._statuses.append(cur.statusmessage)
        return cur

    def _one_by_one(self, kept: list[tuple[str, str | None, str | None]]) -> None:
        for target, text, ledger in kept:
            if ledger is not None:
                try:
                    with self.conn.transaction():  # a savepoint
                        self.conn.execute(self._statement(target, None, ledger))
                except Exception as exc:
                    if not is_db_error(exc) or self.conn.broken or self.conn.closed:
                        raise
                    log.warning("provenance of %s not recorded: %s", target, exc)
            if text is not None:
                try:
                    self.conn.execute(self._statement(target, text, None))
                except Exception as exc:
                    if not is_db_error(exc) or self.conn.broken or self.conn.closed:
                        raise
                    # named here: the text, not the statement it travelled with, failed
                    raise failure(exc, self.backend.location(target), writing=True) from exc

    def append_audit(
        self,
        head_sql: str,
        records: Callable[[Any], tuple[T, list[str]]],
        *,
        making: Sequence[str] = (),
    ) -> T:
        """Append audit records in this transaction: lock the journal head (``head_sql``,
        ``SELECT ... FOR UPDATE``), and have ``records(head_row)`` return its result and
        the statements that append them (literals only). ``making``: statements that
        make the head row when there is none (they change nothing when it is there), run
        before it is locked unless :func:`~.curated_begin.begin` found it.

        The record is the write's own account of itself: a failure here (the head row
        locked past the timeout, the connection lost) fails the transaction, and the
        write with it. In fast mode the append statements follow the kept writes with
        the COMMIT, so a text or a record the server refuses fails the COMMIT's batch:
        nothing commits. When :func:`~.curated_begin.begin` locked and read the head,
        that batch is sent here, the record being the last thing a write sends
        (:meth:`_commit`); else the kept writes travel in front of the head's lock here
        and the batch is sent by :meth:`finish`.
        """
        if self._committed:
            raise RuntimeError("the transaction was committed with its audit record")
        self._refuse_gone()  # a record would make the store's journal again
        head, self._head = self._head, None
        if head is not None and head_sql == audit_head(self.backend.db, self.backend.project):
            result, statements = records(head)
            self._final += statements
            self._commit()
            return result
        if self._rows is None:
            for statement in making:
                self.conn.execute(statement)
            row = self.conn.execute(head_sql).fetchone()
            result, statements = records(row)
            for statement in statements:
                self.conn.execute(statement)
            return result
        cur = self._send([*making, head_sql])
        result, statements = records(cur.fetchone())
        self._final += statements
        return result

    def finish(self) -> None:
        """COMMIT, with whatever was kept for it: one round trip (none when
        :meth:`append_audit` committed; the failure of that COMMIT is raised here)."""
        if not self._committed:
            self._commit()
        if self._failed is not None:
            raise self._failed

    def _commit(self) -> None:
        """Send the COMMIT with whatever was kept for it (one round trip) and mark the
        transaction committed.

        A text the server refuses is raised at once (nothing was committed, and no
        record was made: the audit record's append fails, as when the texts went ahead
        of the head's lock). Any other failure (a record refused, the connection lost
        in the COMMIT's round trip) is kept for :meth:`finish`, so the record counts as
        appended, as it did when the COMMIT followed it at the end of the transaction."""
        from psycopg.pq import TransactionStatus

        self._committed = True
        try:
            self._send_commit()
        except MnemicError:
            raise
        except Exception as exc:
            if not is_db_error(exc):
                raise
            conn = self.conn
            if (
                self.early
                and not (conn.broken or conn.closed)
                and conn.info.transaction_status == TransactionStatus.IDLE
            ):
                # the transaction ended: the COMMIT failed, or it committed and the
                # flush after it failed; which one the error does not say
                self.unknown = True
            self._failed = exc

    def _send_commit(self) -> None:
        from psycopg.pq import TransactionStatus

        conn = self.conn
        if conn.broken or conn.closed:
            self._failed = ConnectionLost("the connection was lost before COMMIT")
            return
        if conn.info.transaction_status != TransactionStatus.INTRANS:
            self._failed = WriteFailed(
                self.backend.db.location,
                "a statement of the transaction failed; it was rolled back, nothing was changed",
            )
            return
        ending = ["COMMIT", FLUSH] if self.early else ["COMMIT"]
        if self._rows is None:
            cur = conn.execute("; ".join(ending), prepare=False)
            self._statuses = [cur.statusmessage]
            while cur.nextset():
                self._statuses.append(cur.statusmessage)
        else:
            self._send([*self._final, *ending])
        if self._statuses[-len(ending)] != "COMMIT":  # the server rolled back instead
            self._failed = WriteFailed(
                self.backend.db.location, "the transaction was rolled back, nothing was changed"
            )
