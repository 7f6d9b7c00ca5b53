"""The pending queue as a person works it: list, show, diff, approve, reject, expire.

:class:`PendingQueue` is the Python API behind ``mnemic pending``. It runs as a
foreground session (origin ``cli`` or whatever the caller says), so its own actions are
audited under the approver's name, with the staging session kept in ``requested_by``.

Approving replays the staged payload through the normal write path (lock, re-read,
drift, budget, threat scan) without passing the gate again: the approval is the
decision. A write that no longer applies (the entry it replaces is gone, the file is
full, the file drifted) fails cleanly, memory is unchanged, and the record stays in the
queue to be rejected or retried. Approval is at-least-once: if the process dies between
the commit and the removal of the record, approving it again is harmless (an add finds
its entry present; a replace or remove finds nothing to match and is refused).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..curated.memory import Memory
from ..curated.proposal import archive_reasons, describe, ops_from_payload, tidy_words
from ..curated.provenance import Stamp
from ..errors import MnemicError, PendingExpired, PendingNotFound, StorageError, ToolError
from ..governance.held import held_sentence, rules_note
from ..governance.pending import PendingRecord
from ..governance.storage import PendingQueueStore
from ..home import Home
from ..skills.governed import apply_staged_skill, staged_skill_diff

__all__ = ["ApprovalOutcome", "PendingQueue"]

SUBSYSTEMS = ("memory", "skills")


@dataclass(frozen=True, slots=True)
class ApprovalOutcome:
    """What approving one pending write did."""

    id: str
    subsystem: str
    summary: str
    ok: bool
    message: str
    error_code: str | None = None
    changed_since_staged: bool = False
    """The files it touches changed after it was staged (it was checked again now)."""

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return dataclasses.asdict(self)


class PendingQueue:
    """The pending writes of one home, worked by one (foreground) session."""

    def __init__(self, memory: Memory) -> None:
        if memory.governor is None:
            raise ValueError("the pending queue needs a governed Memory (use Memory.open)")
        self.memory = memory
        self.governor = memory.governor

    @classmethod
    def open(
        cls,
        home: Home | str | Path | None = None,
        *,
        profile: str | None = None,
        origin: str = "cli",
        session_id: str | None = None,
        clock: Callable[[], float] | None = None,
    ) -> PendingQueue:
        """The pending queue of a home, for a person at the keyboard."""

        mem = Memory.open(
            home,
            profile=profile,
            actor="foreground",
            origin=origin,
            session_id=session_id,
            clock=clock,
        )
        return cls(mem)

    def _now(self) -> float:
        return self.governor.clock()

    def store(self, subsystem: str) -> PendingQueueStore:
        """The pending store of one subsystem."""
        return self.governor.pending(subsystem)

    # -- reading -----------------------------------------------------------------
    def records(self, subsystem: str | None = None) -> list[PendingRecord]:
        """Pending writes (expired ones included; see ``PendingRecord.expired``), oldest first."""
        out: list[PendingRecord] = []
        for sub in (subsystem,) if subsystem else SUBSYSTEMS:
            out.extend(self.store(sub).listing().records)
        out.sort(key=lambda r: (r.created_at, r.id))
        return out

    def problems(self) -> list[tuple[str, str]]:
        """(path, reason) of record files that cannot be read."""
        out: list[tuple[str, str]] = []
        for sub in SUBSYSTEMS:
            try:
                out.extend(self.store(sub).listing().problems)
            except StorageError as exc:
                out.append((self.store(sub).location, exc.to_llm()))
        return out

    def get(self, pending_id: str) -> PendingRecord:
        """One pending write, from whichever subsystem holds it."""
        known: list[str] = []
        for sub in SUBSYSTEMS:
            store = self.store(sub)
            if store.has(pending_id):
                return store.read(pending_id)
            known.extend(store.ids())
        raise PendingNotFound(pending_id, known)

    def changed_since_staged(self, record: PendingRecord) -> bool:
        """Whether a file the write touches differs from when it was staged."""
        if record.subsystem == "skills":
            try:
                return staged_skill_diff(self.governor, record)[1]
            except MnemicError:
                return True
        return self.memory._hashes(list(record.base)) != record.base

    def diff(self, pending_id: str) -> str:
        """What approving would change now (checked against the current files)."""
        record = self.get(pending_id)
        if record.subsystem == "skills":
            text, changed = staged_skill_diff(self.governor, record)
            head = "Note: the skill changed since this write was staged.\n" if changed else ""
            return head + text
        target, ops, batch, allow_empty = ops_from_payload(record.payload)
        head = ""
        if self.changed_since_staged(record):
            head = "Note: the file changed since this write was staged; this is the diff now.\n"
        try:
            commits = self.memory.store.apply_all(  # as approving would: a held write
                target, ops, batch=batch, allow_empty=allow_empty, dry_run=True, held_ok=True
            )
        except ToolError as exc:
            return f"{head}It cannot be applied now: {exc.to_llm()}\n\nAs staged:\n{record.detail}"
        _, detail = describe(target, ops, commits, record.payload)
        if not any(c.written for c in commits):
            detail += "\n(nothing would change: the files already hold this)"
        if record.held:  # why a person is asked, first; the scanner's rule ids apart
            detail = f"{held_sentence(record.held)}\n{rules_note(record.held)}\n\n{detail}"
        return head + detail

    # -- deciding ----------------------------------------------------------------
    def _ids(self, which: str) -> list[tuple[str, str]]:
        """(subsystem, id) for ``which`` (an id or ``all``)."""
        if which == "all":
            return [(r.subsystem, r.id) for r in self.records()]
        return [(self.get(which).subsystem, which)]

    def approve(self, which: str) -> list[ApprovalOutcome]:
        """Approve one pending write (by id) or ``all`` of them, oldest first.

        Each is applied through the normal path; failures are reported, not raised, and
        leave their record in the queue. An unknown id raises :class:`PendingNotFound`.
        """
        return [self._approve_one(sub, pid) for sub, pid in self._ids(which)]

    def _approve_one(self, subsystem: str, pending_id: str) -> ApprovalOutcome:
        store = self.store(subsystem)
        with store.lock():
            try:
                record = store.read(pending_id)
            except PendingNotFound:
                return ApprovalOutcome(
                    pending_id, subsystem, "", False, "already decided", "pending_not_found"
                )
            if record.expired(self._now()):
                exc = PendingExpired(record.id, record.expires_at)
                self._record_decision("approve", record, "refused", exc.code)
                return ApprovalOutcome(
                    record.id, subsystem, record.summary, False, exc.to_llm(), exc.code
                )
            changed = self.changed_since_staged(record)
            try:
                message = self._apply(record)
            except MnemicError as exc:
                return ApprovalOutcome(
                    record.id, subsystem, record.summary, False, exc.to_llm(), exc.code, changed
                )
            store.remove(record.id)
            return ApprovalOutcome(
                record.id, subsystem, record.summary, True, message, None, changed
            )

    def _apply(self, record: PendingRecord) -> str:
        if record.subsystem == "memory":
            target, ops, batch, allow_empty = ops_from_payload(record.payload)
            with self.governor.extra_fields(requested_by=_requested(record)):
                result = self.memory.apply(
                    target,
                    ops,
                    batch=batch,
                    allow_empty=allow_empty,
                    pending_id=record.id,
                    author=Stamp.of(record.origin, record.session_id),
                    reasons=archive_reasons(record.payload, ops) or None,
                )
            # a tidy proposal in the tidy's words; any other write in the tool's
            return tidy_words(record.payload, result.results, done=True) or result.message
        if record.subsystem == "skills":
            with self.governor.extra_fields(requested_by=_requested(record)):
                return apply_staged_skill(self.governor, record).message
        raise ToolError(
            f"Pending {record.subsystem} writes cannot be applied by this version of mnemic."
        )

    def reject(self, which: str) -> list[PendingRecord]:
        """Discard one pending write (by id) or ``all``; returns what was discarded."""
        out = []
        for subsystem, pending_id in self._ids(which):
            store = self.store(subsystem)
            with store.lock():
                try:
                    record = store.read(pending_id)
                except PendingNotFound:
                    continue
                store.remove(pending_id)
                self._record_decision("reject", record, "ok")
                out.append(record)
        return out

    def expire(self, *, dry_run: bool = False) -> list[PendingRecord]:
        """Remove pending writes past their expiry time; returns them."""
        now = self._now()
        out = []
        for subsystem in SUBSYSTEMS:
            store = self.store(subsystem)
            listing = store.listing()  # a queue never created lists nothing, and stays so
            if not listing.records:
                continue
            if dry_run:  # only looks: a reader takes no lock (a read-only home works)
                out += [r for r in listing.records if r.expired(now)]
                continue
            with store.lock():
                for record in store.listing().records:
                    if not record.expired(now):
                        continue
                    out.append(record)
                    store.remove(record.id)
                    self._record_decision("expire", record, "ok")
        return out

    def _record_decision(
        self, action: str, record: PendingRecord, result: str, error: str | None = None
    ) -> None:
        gov = self.governor
        gov.record(
            subsystem=record.subsystem,
            target="+".join(record.targets),
            action=action,
            decision="manual" if action != "expire" else "retention",
            result=result,
            error=error,
            pending_id=record.id,
            requested_by=_requested(record),
        )
        if record.subsystem == "memory":
            gov.metrics.mutation(action, result)
            if action == "reject":
                gov.metrics.pending("rejected")
            elif action == "expire":
                gov.metrics.pending("expired")
            elif result != "ok":
                gov.metrics.pending("approve_failed")


def _requested(record: PendingRecord) -> dict[str, str]:
    return {"actor": record.actor, "origin": record.origin, "session": record.session_id}
