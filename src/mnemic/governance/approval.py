"""Write approval: which policy applies to a write, and the gate that enforces it.

A policy is chosen per subsystem (``memory``, ``skills``) and actor (``foreground``,
``background``, ``mcp``) from ``[approval]`` in config.toml:

- ``allow``: apply at once.
- ``ask``: a person approves inline (the CLI prompts); with nobody to ask, stage.
- ``stage``: keep it in the pending queue until a person approves it.
- ``block``: refuse it.

One rule sits on top: unattended writers may add, but a write that replaces or removes
anything is staged even when their policy is ``allow`` (an unattended review must not
delete standing rules with no human in the loop).

The gate runs before the store, so nothing staged touches MEMORY.md or USER.md. A
write that is asked about or staged is first validated against the current state (a
dry run: everything but the write), so a write that could never apply is refused at
once, not at approval time. A write identical to one that already waits (same
payload: target, actions, texts; the queue is the store's) is not queued again: the
answer names the waiting record (a model in a later session cannot know it waits, and a
person would reject two). When the approval machinery itself fails (the pending
queue cannot be read or written, or is full), ``approval.fail_open_<actor>`` decides:
apply anyway, or refuse (the default for unattended writers and MCP clients).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..config import ApprovalSettings
from ..errors import ApprovalUnavailable, WriteBlocked, WriteDenied
from .actors import WriteContext
from .pending import AlreadyPending, PendingRecord
from .storage import PendingQueueStore

__all__ = [
    "POLICIES",
    "ApprovalRequest",
    "Approver",
    "Decision",
    "Gate",
    "Proposal",
    "Verdict",
    "fails_open",
    "resolve_policy",
]

log = logging.getLogger(__name__)

POLICIES = ("allow", "ask", "stage", "block")


@dataclass(frozen=True, slots=True)
class Decision:
    """The policy that applies to one write, and why."""

    policy: str
    setting: str
    """The config key it comes from, e.g. ``approval.memory_background``."""
    reason: str = ""


def resolve_policy(
    settings: ApprovalSettings, subsystem: str, actor: str, *, destructive: bool
) -> Decision:
    """The policy for a write by ``actor`` to ``subsystem``.

    ``destructive``: the write replaces or removes something (an unattended writer's
    ``allow`` then becomes ``stage``).
    """
    key = f"{subsystem}_{actor}"
    policy = getattr(settings, key, None)
    if policy not in POLICIES:
        raise ValueError(f"no approval policy for subsystem {subsystem!r} and actor {actor!r}")
    setting = f"approval.{key}"
    if actor == "background" and destructive and policy == "allow":
        return Decision(
            "stage",
            setting,
            "unattended writers may only add; a replace or remove waits for approval",
        )
    return Decision(str(policy), setting)


def fails_open(settings: ApprovalSettings, actor: str) -> bool:
    """Whether a write by ``actor`` is applied when the approval machinery fails."""
    return bool(getattr(settings, f"fail_open_{actor}", False))


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """What a person is asked to approve."""

    subsystem: str
    actor: str
    origin: str
    session_id: str
    summary: str
    detail: str
    """Every operation in full, or a diff of the files."""
    targets: tuple[str, ...]


Approver = Callable[[ApprovalRequest], "bool | str"]
"""Asks a person: returns ``True``/``"allow"``, ``False``/``"deny"``, or ``"stage"``."""


@dataclass(frozen=True, slots=True)
class Proposal:
    """A write validated by a dry run, described for a person, ready to stage."""

    summary: str
    detail: str
    payload: dict[str, Any]
    base: dict[str, str | None]
    """SHA-256 of each file the write touches, now."""
    changes: bool = True
    """False when the dry run found nothing to change (nothing to approve)."""
    preview: Any = None
    """Whatever the caller wants back (for memory: the dry-run commits)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What to do with a write: apply it now, or it was staged as ``record``."""

    apply: bool
    decision: str
    """For the audit: ``allow``, ``ask:approved``, ``stage``, ``ask:staged``, ``fail_open``..."""
    record: PendingRecord | None = None
    proposal: Proposal | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    again: bool = False
    """The same write already waited as ``record`` (staged before, by this session or
    another): nothing new was queued."""


class Gate:
    """The write-approval gate of one session (one actor, origin and session id)."""

    def __init__(
        self,
        settings: ApprovalSettings,
        context: WriteContext,
        pending: Callable[[str], PendingQueueStore],
        approver: Approver | None = None,
    ) -> None:
        self.settings = settings
        self.context = context
        self._pending = pending
        self.approver = approver

    def policy(self, subsystem: str, *, destructive: bool) -> Decision:
        """The policy for a write of this session."""
        return resolve_policy(self.settings, subsystem, self.context.actor, destructive=destructive)

    def check(
        self,
        subsystem: str,
        *,
        destructive: bool,
        propose: Callable[[], Proposal],
        note: Callable[[str], None] = lambda decision: None,
        hold: str = "",
    ) -> Verdict:
        """Decide about one write; stage it if the policy says so.

        ``hold``: why the threat scanner is unsure about the write (empty: it is not). A
        held write that the policy would allow is asked about instead (staged when nobody
        can be asked), so a suspicious entry becomes a question for a person.

        ``propose()`` runs the dry run (only for ask and stage) and may raise the
        refusal a write that could never apply gets. ``note(decision)`` is told each
        decision as it is taken, so a refusal can be audited with it. Raises
        :class:`WriteBlocked`, :class:`WriteDenied` or :class:`ApprovalUnavailable`.
        """
        decision = self.policy(subsystem, destructive=destructive)
        if hold and decision.policy == "allow":
            decision = Decision("ask", decision.setting, f"held by the threat scanner: {hold}")
        note(decision.policy)
        if decision.policy == "allow":
            return Verdict(True, "allow")
        if decision.policy == "block":
            raise WriteBlocked(subsystem, self.context.actor, decision.setting)
        proposal = propose()
        if not proposal.changes:
            note("noop")
            return Verdict(True, "noop", proposal=proposal)
        label = "stage"
        if decision.policy == "ask":
            answer = self._ask(subsystem, proposal)
            if answer == "allow":
                note("ask:approved")
                return Verdict(True, "ask:approved", proposal=proposal)
            if answer == "deny":
                note("ask:denied")
                raise WriteDenied(subsystem)
            label = "ask:staged"
        note(label)
        return self._stage(subsystem, proposal, label, note)

    def _ask(self, subsystem: str, proposal: Proposal) -> str:
        if self.approver is None or not self.context.attended:
            return "stage"
        request = ApprovalRequest(
            subsystem,
            self.context.actor,
            self.context.origin,
            self.context.session_id,
            proposal.summary,
            proposal.detail,
            tuple(sorted(proposal.base)),
        )
        try:
            answer = self.approver(request)
        except Exception:  # the prompt failed: keep the write for later, never lose it
            log.warning("the approval prompt failed; staging the write instead", exc_info=True)
            return "stage"
        if answer is True or answer in ("allow", "once", "yes", "approve"):
            return "allow"
        if answer is False or answer in ("deny", "no", "reject"):
            return "deny"
        return "stage"

    def _stage(
        self, subsystem: str, proposal: Proposal, label: str, note: Callable[[str], None]
    ) -> Verdict:
        ctx = self.context
        try:
            record = self._pending(subsystem).add(
                actor=ctx.actor,
                origin=ctx.origin,
                session_id=ctx.session_id,
                summary=proposal.summary,
                detail=proposal.detail,
                payload=proposal.payload,
                base=proposal.base,
                once=True,
            )
        except AlreadyPending as same:  # proposed before (maybe in another session)
            note("again")
            return Verdict(False, "again", same.record, proposal, again=True)
        except Exception as exc:  # any failure of the queue is a failure of the machinery
            reason = exc.to_llm() if hasattr(exc, "to_llm") else f"{type(exc).__name__}: {exc}"
            if fails_open(self.settings, ctx.actor):
                log.warning("pending queue failed (%s); applying the write (fail open)", reason)
                note("fail_open")
                return Verdict(True, "fail_open", proposal=proposal, extra={"reason": reason})
            note("fail_closed")
            raise ApprovalUnavailable(subsystem, ctx.actor, reason) from exc
        return Verdict(False, label, record, proposal)
