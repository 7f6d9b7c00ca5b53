"""Tidy proposals into the approval queue: :func:`stage`, with the queue kept clean.

Each proposal becomes one pending memory write (a batch), whatever the approval policy
says for the session's own writes: a proposal is by definition for a person to decide
(a policy of ``block`` for the session's actor still refuses). The record holds the
proposal's reasons and the diff of the files now; its payload names every entry by
handle, so approving it after the entry changed is refused (see
:class:`~mnemic.ops.tidy.model.TidyProposal`), and approving goes through
:meth:`Memory.apply` like every pending write (``mnemic pending``, the console).

Before staging, and in this order, a proposal is skipped when:

* it is advice only (a long entry with no shorter wording found offline);
* a person rejected the same proposal before (same kind, target and entry texts: its
  fingerprint), as the audit journal tells: a rejected merge is not proposed again;
* a pending write still waiting (not expired) touches one of its entries: the queue
  never holds two proposals for one entry, so the reviewer sees each once;
* it cannot be applied now (the dry run the gate would run refuses it).

Two runs staging at once can each add the same proposal; after adding, a run that finds
an older pending write touching the same entries removes its own, so one stays.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...curated.entries import TARGETS, entry_handle
from ...curated.memory import Memory
from ...curated.proposal import describe, ops_from_payload, payload_of
from ...curated.provenance import entry_key
from ...curated.view import MemoryView
from ...errors import MnemicError, StorageError, ToolError, WriteBlocked
from ...governance.governor import Governor
from ...governance.pending import PendingRecord
from ...home import Home
from .model import TidyProposal

__all__ = ["Staged", "declined", "stage", "waiting", "waiting_in"]

log = logging.getLogger(__name__)

_SUMMARY_WIDTH = 120


@dataclass(frozen=True, slots=True)
class Staged:
    """What staging did with one proposal: its pending id, or why it was skipped."""

    proposal: TidyProposal
    pending_id: str | None = None
    skipped: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "id": self.proposal.fingerprint,
            "summary": self.proposal.summary,
            "pending_id": self.pending_id,
            "skipped": self.skipped,
        }


def declined(governor: Governor) -> set[str]:
    """Fingerprints of tidy proposals a person rejected (from the audit journal: a
    staged record carries its fingerprint, the rejection its pending id)."""
    staged: dict[str, str] = {}
    rejected: set[str] = set()
    try:
        for rec in governor.journal.records():
            pid = rec.get("pending_id")
            if not isinstance(pid, str):
                continue
            fingerprint = rec.get("tidy_fingerprint")
            if isinstance(fingerprint, str) and rec.get("result") == "staged":
                staged[pid] = fingerprint
            elif rec.get("action") == "reject":
                rejected.add(pid)
    except StorageError as exc:  # the journal speaks for itself in `mnemic audit verify`
        log.warning("tidy: could not read the audit journal: %s", exc.to_llm())
    return {staged[pid] for pid in rejected if pid in staged}


def _touched(record: PendingRecord, live: dict[str, list[str]]) -> set[tuple[str, str]]:
    """(target, entry key) of the live entries a pending memory write names."""
    tidy = record.payload.get("tidy")
    if isinstance(tidy, dict) and isinstance(tidy.get("entries"), list):
        target = record.payload.get("target")
        return {(str(target), str(k)) for k in tidy["entries"]}
    try:
        target, ops, _, _ = ops_from_payload(record.payload)
    except MnemicError:
        return set()
    out: set[tuple[str, str]] = set()
    for op in ops:
        where = op.target or target
        if op.old_text is None or where not in live:
            continue
        for entry in live[where]:
            if op.old_text in (entry, entry_handle(entry)) or op.old_text in entry:
                out.add((where, entry_key(entry)))
    return out


def _keys(proposal: TidyProposal) -> set[tuple[str, str]]:
    return {(proposal.target, entry_key(e)) for e in proposal.entries}


def _clash(
    records: Iterable[PendingRecord],
    proposal: TidyProposal,
    live: dict[str, list[str]],
    now: float,
    *,
    before: PendingRecord | None = None,
) -> PendingRecord | None:
    """A live pending write that touches an entry of ``proposal`` (with ``before``: one
    staged before that record)."""
    mine = _keys(proposal)
    for record in records:
        if record.expired(now):
            continue
        if before is not None and (
            record.id == before.id
            or (record.created_at, record.id) > (before.created_at, before.id)
        ):
            continue
        if _touched(record, live) & mine:
            return record
    return None


def _live(memory: Memory | MemoryView) -> dict[str, list[str]]:
    """Each target's live entries; a target that cannot be read (no proposal names it:
    tidy skips it with a notice) has none, so the other one is still looked at."""
    live: dict[str, list[str]] = {}
    for target in TARGETS:
        try:
            live[target] = memory.entries(target)
        except StorageError:
            live[target] = []
    return live


def waiting(memory: Memory, proposals: Sequence[TidyProposal]) -> dict[str, str]:
    """By fingerprint, the proposals :func:`stage` would skip now, and why (a pending
    write already touches their entries, or a person rejected them before)."""
    gov = memory.governor
    if gov is None:
        raise ValueError("the pending queue needs a governed Memory (use Memory.open)")
    return _waiting(gov, _live(memory), proposals)


def waiting_in(store: Home, proposals: Sequence[TidyProposal]) -> dict[str, str]:
    """:func:`waiting` for a store read without opening it to write (`mnemic memory
    tidy` without --stage marks what --stage would skip, as the console does)."""
    if not proposals:
        return {}
    return _waiting(Governor.for_home(store), _live(MemoryView.open(store)), proposals)


def _waiting(
    gov: Governor, live: dict[str, list[str]], proposals: Sequence[TidyProposal]
) -> dict[str, str]:
    records = gov.pending("memory").listing().records
    rejected = declined(gov)
    out: dict[str, str] = {}
    for proposal in proposals:
        clash = _clash(records, proposal, live, gov.clock())
        if clash is not None:
            out[proposal.fingerprint] = f"already pending: {clash.id}"
        elif proposal.fingerprint in rejected:
            out[proposal.fingerprint] = "a person rejected this proposal before"
    return out


def _detail(proposal: TidyProposal, diff: str) -> str:
    lines = [f"Tidy proposal ({proposal.kind}, id {proposal.fingerprint}): {proposal.summary}"]
    lines += ["Why:", *(f"  - {r}" for r in proposal.reasons)]
    lines.append("Entries:")
    first = {"merge": "keep", "supersede": "keep", "stale": "drop"}.get(proposal.kind, "shorten")
    for i, entry in enumerate(proposal.entries):
        lines.append(f"  - {first if i == 0 else 'drop'}: {entry}")
    if proposal.result is not None and proposal.result != proposal.entries[0]:
        lines.append(f"New wording ({proposal.wording}): {proposal.result}")
    return "\n".join(lines) + "\n\n" + diff


def stage(memory: Memory, proposals: Sequence[TidyProposal]) -> list[Staged]:
    """Stage each proposal as one pending write of ``memory``'s session (see the module
    docstring); returns what happened to each, in order. Raises :class:`WriteBlocked`
    when the session's actor may not write memory at all."""
    gov = memory.governor
    if gov is None:
        raise ValueError("staging tidy proposals needs a governed Memory (use Memory.open)")
    decision = gov.gate.policy("memory", destructive=True)
    if decision.policy == "block":
        raise WriteBlocked("memory", gov.context.actor, decision.setting)
    queue = gov.pending("memory")
    rejected = declined(gov)
    ctx = gov.context
    out: list[Staged] = []
    full: str | None = None
    for proposal in proposals:
        why = _precheck(proposal, rejected, full)
        if why is not None:
            out.append(Staged(proposal, skipped=why))
            continue
        now = gov.clock()
        live = _live(memory)
        clash = _clash(queue.listing().records, proposal, live, now)
        if clash is not None:
            out.append(Staged(proposal, skipped=f"already pending: {clash.id} ({clash.summary})"))
            continue
        allow_empty = proposal.kind == "stale"
        try:
            commits = memory.store.apply_all(
                proposal.target, proposal.ops, batch=True, allow_empty=allow_empty, dry_run=True
            )
        except ToolError as exc:
            out.append(Staged(proposal, skipped=f"it cannot be applied now: {exc.to_human()}"))
            continue
        payload = payload_of(proposal.target, proposal.ops, batch=True, allow_empty=allow_empty)
        payload["tidy"] = {
            "kind": proposal.kind,
            "fingerprint": proposal.fingerprint,
            "entries": sorted(entry_key(e) for e in proposal.entries),
            "reasons": list(proposal.reasons),
        }
        _, diff = describe(proposal.target, proposal.ops, commits, payload)
        try:
            record = queue.add(
                actor=ctx.actor,
                origin=ctx.origin,
                session_id=ctx.session_id,
                summary=f"tidy: {proposal.summary}"[:_SUMMARY_WIDTH],
                detail=_detail(proposal, diff),
                payload=payload,
                base={c.target: c.before_hash for c in commits},
            )
        except StorageError as exc:  # full or unwritable: the rest would fail the same way
            full = f"the pending queue refused it: {exc.to_llm()}"
            out.append(Staged(proposal, skipped=full))
            continue
        with queue.lock():
            older = _clash(queue.listing().records, proposal, live, now, before=record)
            if older is not None:
                queue.remove(record.id)
                out.append(
                    Staged(proposal, skipped=f"already pending: {older.id} (staged at once)")
                )
                continue
        base = dict(record.base)
        attempt = gov.attempt("memory", "tidy", [proposal.target], hashes=base.copy)
        attempt.note("stage")
        with gov.extra_fields(tidy=proposal.kind, tidy_fingerprint=proposal.fingerprint):
            attempt.staged(record)
        out.append(Staged(proposal, pending_id=record.id))
    return out


def _precheck(proposal: TidyProposal, rejected: set[str], full: str | None) -> str | None:
    if not proposal.stageable:
        return "advice only: nothing to stage (rewrite the entry, or run tidy with --llm)"
    if proposal.fingerprint in rejected:
        return "a person rejected this proposal before"
    return full
