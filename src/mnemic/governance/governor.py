"""What travels with a session: who writes, the approval gate, the audit journal, metrics.

:class:`Governor` bundles them for one home and one :class:`WriteContext`;
``Memory.open(home, actor=..., origin=..., session_id=..., approver=...)`` builds one.
:class:`Attempt` follows one write attempt from the gate's decision to its result and
appends exactly one audit record for it (and updates the metrics).

A commit's audit record is appended under its targets' locks before its commit point
(:meth:`Attempt.committing`): it is the write's one durable record, and a write whose
record cannot be appended is refused. Any other record (a refusal, a staged write, a
no-op) is appended once the outcome is known; if the journal cannot be written then,
the failure is logged and counted (:attr:`Governor.audit_failures`), and ``mnemic audit
verify`` shows no gap in the chain, only a missing attempt.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import Settings
from ..errors import BatchFailed, MnemicError, ThreatBlocked, ToolError
from .actors import WriteContext
from .approval import Approver, Gate
from .chain import Explain, FirstSeen
from .metrics import Metrics, enable_metrics, get_metrics
from .pending import PendingRecord
from .storage import Journal, PendingQueueStore, open_journal, open_pending

if TYPE_CHECKING:
    from ..home import Home

__all__ = ["Attempt", "Governor"]

log = logging.getLogger(__name__)


class Governor:
    """Approval gate, pending queues, audit journal and metrics of one session."""

    def __init__(
        self,
        root: Path,
        settings: Settings,
        context: WriteContext | None = None,
        *,
        approver: Approver | None = None,
        clock: Callable[[], float] = time.time,
        metrics: Metrics | None = None,
    ) -> None:
        self.root = Path(root)
        self.settings = settings
        self.context = context or WriteContext.make()
        self.clock = clock
        self.journal: Journal = open_journal(self.root, settings, clock=clock)
        self.metrics = metrics or _metrics_for(settings)
        self.gate = Gate(settings.approval, self.context, self._staging, approver)
        self.audit_failures = 0
        self._pending: dict[str, PendingQueueStore] = {}
        self._extra: dict[str, Any] = {}
        self.make_store: Callable[[], None] | None = None
        """Makes the store this governor records into, which no write made yet (a
        project store: :meth:`~mnemic.curated.scope.ProjectHome.make`); ``None`` once
        it exists. Until then a refused attempt is recorded nowhere (no store holds
        it); the first other record, and the first write staged, make it first."""
        self.store_gone = False
        """Whether the store this governor records into was removed or moved (``mnemic
        project forget`` / ``move``) since it was opened: nothing is recorded any more
        (a record would make part of a store again that no listing reads)."""

    @classmethod
    def for_home(
        cls,
        home: Home,
        *,
        actor: str | None = None,
        origin: str | None = None,
        session_id: str | None = None,
        approver: Approver | None = None,
        clock: Callable[[], float] | None = None,
    ) -> Governor:
        """The governor of ``home`` for a session of ``actor`` from ``origin``."""
        return cls(
            home.root,
            home.settings,
            WriteContext.make(actor, origin, session_id),
            approver=approver,
            clock=clock or time.time,
        )

    def pending(self, subsystem: str) -> PendingQueueStore:
        """The pending queue of a subsystem."""
        store = self._pending.get(subsystem)
        if store is None:
            store = open_pending(self.root, self.settings, subsystem, clock=self.clock)
            self._pending[subsystem] = store
        return store

    def _staging(self, subsystem: str) -> PendingQueueStore:
        """The queue the gate stages a write in: the store is made first (a staged
        write is kept, so its store exists from then on)."""
        self.store_made()
        return self.pending(subsystem)

    def store_made(self) -> None:
        """Make the store (:attr:`make_store`) if no write made it yet."""
        if self.make_store is not None:
            self.make_store()
            self.make_store = None

    @property
    def extra(self) -> dict[str, Any]:
        """The fields :meth:`extra_fields` adds to records now (empty outside it)."""
        return self._extra

    @contextlib.contextmanager
    def extra_fields(self, **fields: Any) -> Iterator[None]:
        """Add ``fields`` to every audit record appended inside the block."""
        saved = self._extra
        self._extra = {**saved, **fields}
        try:
            yield
        finally:
            self._extra = saved

    @contextlib.contextmanager
    def writing_as(self, origin: str) -> Iterator[None]:
        """Record the writes inside the block with ``origin`` (same actor and session):
        their audit records, the provenance of what they add, and what the approval gate
        stages, so an approved write keeps it too. An importer names there the file and
        line each entry comes from. ``origin`` is checked like any (printable, short)."""
        saved = self.context
        self.context = self.gate.context = WriteContext.make(saved.actor, origin, saved.session_id)
        try:
            yield
        finally:
            self.context = self.gate.context = saved

    def record(
        self,
        *,
        reconcile: Explain | None = None,
        first_seen: FirstSeen | None = None,
        strict: bool = False,
        failing: str | None = None,
        **fields: Any,
    ) -> dict[str, Any] | None:
        """Append one audit record with this session's context; never raises, unless
        ``strict`` (a commit's record, which the commit cannot go without).

        ``reconcile`` and ``first_seen`` (for a commit's record, under its targets'
        locks): see :meth:`~mnemic.governance.chain.Journal.append`. While the store is
        not made (:attr:`make_store`), a refusal is not recorded (``None``) and any
        other record makes it first. ``failing``: the refusal of the attempt this record
        is about; an append that fails with that very refusal (the database it could not
        reach either) is not reported a second time."""
        if self.store_gone:
            return None
        try:
            if self.make_store is not None:
                if fields.get("result") in ("refused", "failed"):
                    return None
                self.store_made()
            return self.journal.append(
                reconcile=reconcile, first_seen=first_seen, **self.record_fields(**fields)
            )
        except Exception as exc:
            if strict:
                raise
            self.audit_failures += 1
            if failing is not None and str(exc) == failing:
                log.debug("the failed attempt's record was not appended either: %s", exc)
            else:
                log.error("could not append to the audit journal: %s", exc)
            return None

    def record_fields(self, **fields: Any) -> dict[str, Any]:
        """The fields :meth:`record` appends: this session's context, the fields of
        :meth:`extra_fields` in force, then ``fields`` (a record a backend writes for
        mnemic, :mod:`mnemic.curated.server_write`, is built from them too)."""
        ctx = self.context
        return {
            "session": ctx.session_id,
            "actor": ctx.actor,
            "origin": ctx.origin,
            **self._extra,
            **fields,
        }

    def attempt(
        self,
        subsystem: str,
        action: str,
        targets: Iterable[str],
        *,
        hashes: Callable[[], dict[str, str | None]] = dict,
    ) -> Attempt:
        """Start following one write attempt (``hashes()`` gives the files' hashes now)."""
        return Attempt(self, subsystem, action, tuple(sorted(set(targets))), hashes)


class Attempt:
    """One write attempt: collects the decision, then records the outcome once."""

    def __init__(
        self,
        governor: Governor,
        subsystem: str,
        action: str,
        targets: tuple[str, ...],
        hashes: Callable[[], dict[str, str | None]],
    ) -> None:
        self.governor = governor
        self.subsystem = subsystem
        self.action = action
        self.targets = targets
        self.decision = "n/a"
        self.pending_id: str | None = None
        self.recorded: dict[str, Any] | None = None
        self.done = False
        self._hashes = hashes
        self.explain: Explain | None = None
        """Set by a writer that commits under its targets' locks: its commit record is
        then preceded by a ``recovered`` record for each target that changed with no
        record since the last one (``explain`` gives the cause)."""

    def note(self, decision: str) -> None:
        """The gate took a decision."""
        self.decision = decision

    def _finish(
        self,
        result: str,
        *,
        strict: bool = False,
        first_seen: FirstSeen | None = None,
        failing: str | None = None,
        **fields: Any,
    ) -> None:
        if self.done:
            return
        committed = result in ("ok", "noop")
        self.recorded = self.governor.record(
            strict=strict,
            first_seen=first_seen,
            failing=failing,
            reconcile=self.explain if committed else None,
            **self.own_fields(result),
            **fields,
        )
        self.done = True
        if self.subsystem == "memory":
            self.governor.metrics.mutation(self.action, result)
            if self.action == "approve":
                ok = result in ("ok", "noop")
                self.governor.metrics.pending("approved" if ok else "approve_failed")

    def own_fields(self, result: str) -> dict[str, Any]:
        """What the attempt itself puts in its record (beside the session's context)."""
        return {
            "subsystem": self.subsystem,
            "target": "+".join(self.targets),
            "action": self.action,
            "decision": self.decision,
            "result": result,
            "pending_id": self.pending_id,
        }

    def committing(
        self,
        before: dict[str, str | None],
        after: dict[str, str | None],
        changes: dict[str, Any],
        *,
        lock_wait_ms: float = 0.0,
        first_seen: FirstSeen | None = None,
        **fields: Any,
    ) -> None:
        """The attempt is about to commit: append its record now, under its targets'
        locks and before the commit point (the record is the write's durable account
        of itself: ``changes`` says, per target, what it added and removed).

        Raises when the record cannot be appended: the write must then not commit.
        :meth:`applied` after the commit only counts it in the metrics."""
        self._finish(
            "ok",
            strict=True,
            first_seen=first_seen,
            before=before,
            after=after,
            lock_wait_ms=round(lock_wait_ms, 3),
            changes=changes,
            **fields,
        )

    def recorded_elsewhere(self, record: dict[str, Any]) -> None:
        """Another process committed this attempt and appended its record (group
        commit: :mod:`mnemic.curated.groupcommit`); ``record`` names it (id, seq, hash).
        Nothing more is appended for it; the metrics count it."""
        if self.done:
            return
        self.recorded = record
        self.done = True
        if self.subsystem == "memory":
            self.governor.metrics.mutation(self.action, "ok")

    def applied(
        self,
        before: dict[str, str | None],
        after: dict[str, str | None],
        *,
        written: bool,
        lock_wait_ms: float = 0.0,
        write_ms: float = 0.0,
        usage: dict[str, float] | None = None,
        **fields: Any,
    ) -> None:
        """The attempt changed the files from ``before`` to ``after`` (hashes per file);
        ``usage`` gives each written target's fill ratio (chars / budget) for the metrics.

        Called under the targets' locks right after the commit: it never raises (the write
        is committed; a failure here is logged)."""
        try:
            self._applied(before, after, written, lock_wait_ms, write_ms, usage or {}, fields)
        except Exception:
            log.exception("recording a committed write failed")

    def _applied(
        self,
        before: dict[str, str | None],
        after: dict[str, str | None],
        written: bool,
        lock_wait_ms: float,
        write_ms: float,
        usage: dict[str, float],
        fields: dict[str, Any],
    ) -> None:
        m = self.governor.metrics
        for target, ratio in usage.items():
            m.usage(target, ratio)
        m.lock_wait(lock_wait_ms)
        if written:
            m.write_latency(write_ms)
        self._finish(
            "ok" if written else "noop",
            before=before,
            after=after,
            lock_wait_ms=round(lock_wait_ms, 3),
            write_ms=round(write_ms, 3) if written else None,
            **fields,
        )

    def staged(self, record: PendingRecord, *, again: bool = False) -> None:
        """The write was staged as ``record`` (``again``: it already waited as ``record``;
        nothing new was queued, so the staged count does not grow)."""
        self.pending_id = record.id
        if not again:
            self.governor.metrics.pending("staged")
        self._finish("staged", before=dict(record.base), after=dict(record.base))

    def failed_with(self, code: str, result: str = "refused") -> None:
        """The attempt was refused with error ``code`` (known only from a tool response)."""
        self._finish(result, error=code)

    def refused(self, exc: BaseException) -> None:
        """The attempt ended with ``exc`` (a refusal or a failure)."""
        if self.done:
            return
        m = self.governor.metrics
        fields: dict[str, Any] = {}
        if isinstance(exc, MnemicError):
            fields["error"] = exc.code
        else:
            fields["error"] = "internal_error"
        cause = exc.cause if isinstance(exc, BatchFailed) else exc
        if cause is not exc and isinstance(cause, MnemicError):
            fields["cause"] = cause.code
        if isinstance(cause, ThreatBlocked):
            fields["patterns"] = [pid for pid, _ in cause.findings]
            for pid, _ in cause.findings:
                m.threat_block(pid)
        if isinstance(exc, ToolError):
            if exc.counts_as_failure:
                fields["counted"] = True
                m.consolidation_failure()
            if exc.code == "loop_stopped":
                m.terminal_skip()
        if fields["error"] == "drift_detected" or fields.get("cause") == "drift_detected":
            m.drift_detected()
        try:
            before = self._hashes()
        except Exception:
            before = {}
        result = "refused" if isinstance(exc, ToolError) else "failed"
        self._finish(
            result, before=before or None, after=before or None, failing=str(exc), **fields
        )


def _metrics_for(settings: Settings) -> Metrics:
    if not settings.metrics.enabled:
        return get_metrics()
    try:
        return enable_metrics()
    except ImportError as exc:  # MissingDependency: the message names the extra
        log.warning("[metrics] enabled is set, but live metrics are off: %s", _why(exc))
        return get_metrics()


def _why(exc: ImportError) -> str:
    to_llm = getattr(exc, "to_llm", None)
    return str(to_llm()) if callable(to_llm) else str(exc)
