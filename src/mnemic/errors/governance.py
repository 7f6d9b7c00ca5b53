"""Errors of the write-approval gate and the pending queue, under :class:`GovernanceError`.

A write the policy blocks or a person denies is also a :class:`~mnemic.errors.ToolError`
(the model continues without it); an approval queue that fails is also a
:class:`~mnemic.errors.StorageError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._base import MnemicError, ToolError
from .storage import StorageError


class GovernanceError(MnemicError):
    """The approval policy or the pending queue stopped a write, or cannot find or approve
    a staged one."""

    code = "governance_error"


class WriteBlocked(GovernanceError, ToolError):
    """The approval policy blocks this kind of write for this actor."""

    code = "write_blocked"

    def __init__(self, subsystem: str, actor: str, setting: str, **extra: Any) -> None:
        self.subsystem = subsystem
        self.actor = actor
        self.setting = setting
        super().__init__(
            f"{subsystem.capitalize()} writes from this {actor} session are blocked by policy "
            f"({setting} = block). Nothing was saved. Continue without saving; do not retry.",
            done=True,
            **extra,
        )

    def to_human(self) -> str:
        return (
            f"{self.subsystem.capitalize()} writes from {self.actor} sessions are blocked by "
            f"policy ({self.setting} = block in config.toml). Nothing was saved. Change that "
            "setting to allow them."
        )


class WriteDenied(GovernanceError, ToolError):
    """The person asked to approve a write said no."""

    code = "write_denied"

    def __init__(self, subsystem: str, **extra: Any) -> None:
        self.subsystem = subsystem
        super().__init__(
            f"The user denied this {subsystem} write. The change was not saved. Do not "
            "retry it; continue with the task.",
            done=True,
            **extra,
        )

    def to_human(self) -> str:
        return f"Not approved: this {self.subsystem} write was not saved."


class ApprovalUnavailable(GovernanceError, StorageError):
    """A write needed approval but the approval machinery failed, and policy fails closed."""

    code = "approval_unavailable"

    def __init__(self, subsystem: str, actor: str, reason: str) -> None:
        self.subsystem = subsystem
        self.actor = actor
        self.reason = reason
        super().__init__(
            f"This {subsystem} write needs approval, but the approval queue is not available "
            f"({reason}). Nothing was saved: writes from {actor} sessions fail closed "
            f"(approval.fail_open_{actor} = false). Continue without saving; a person should "
            "run `mnemic pending list` to see what is wrong."
        )


class PendingNotFound(GovernanceError):
    """No pending write has this id (approved, rejected, expired or never staged)."""

    code = "pending_not_found"

    def __init__(self, pending_id: str, known: Sequence[str] = ()) -> None:
        self.pending_id = pending_id
        ids = ", ".join(known[:10]) or "none"
        super().__init__(
            f"No pending write {pending_id!r} (pending ids: {ids}). See `mnemic pending list`."
        )

    def to_page(self) -> str:
        return (
            f"No pending write {self.pending_id!r}: it was approved, rejected or expired, "
            "or never staged. The Pending page lists what waits."
        )


class PendingAmbiguous(GovernanceError):
    """A pending id was asked for without naming a store, and more than one store's queue
    holds it (the global store's and a project's, or two projects')."""

    code = "pending_ambiguous"

    def __init__(self, pending_id: str, stores: Sequence[str]) -> None:
        self.pending_id = pending_id
        self.stores = tuple(stores)
        super().__init__(
            f"Pending write {pending_id!r} is in more than one store ({', '.join(stores)}). "
            "Say which: pass --global or --project DIR."
        )


class PendingExpired(GovernanceError):
    """A pending write is past its expiry time and can no longer be approved."""

    code = "pending_expired"

    def __init__(self, pending_id: str, expired_at: float) -> None:
        self.pending_id = pending_id
        self.expired_at = expired_at
        super().__init__(
            f"Pending write {pending_id} expired (approval.pending_ttl_hours); it can no "
            "longer be approved. Reject it, or ask for the change again."
        )
