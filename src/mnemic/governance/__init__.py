"""Governance: write approval, the pending queue, the audit journal, retention, privacy, metrics.

The controls a team needs before it lets an agent write memory that every later session
reads as instructions:

- :mod:`.actors`: who writes (:class:`WriteContext`: actor, origin, session).
- :mod:`.approval`: the policy per subsystem and actor (allow, ask, stage, block) and the
  :class:`Gate` that enforces it before the store.
- :mod:`.pending`: staged writes, one JSON file each, with expiry.
- :mod:`.review`: :class:`PendingQueue`: list, show, diff, approve, reject.
- :mod:`.audit`: the append-only, hash-chained :class:`AuditJournal`.
- :mod:`.governor`: :class:`Governor`, what travels with a session (gate, journal, metrics).
- :mod:`.retention`: :func:`collect_garbage` (``mnemic gc``).
- :mod:`.forget`: :func:`forget_user` and :func:`forget_sessions` (``mnemic forget``).
- :mod:`.skill_writes`: :class:`GovernedSkills`, the skill tools behind the gate.
- :mod:`.metrics`: the metrics facade, Prometheus behind a switch, :func:`collect_stats`.

See ``docs/governance.md``. Names load lazily.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .actors import ACTORS, SUBSYSTEMS, WriteContext
    from .approval import POLICIES, ApprovalRequest, Approver, Decision, Gate, resolve_policy
    from .audit import AuditJournal, VerifyReport
    from .forget import ForgetReport, forget_sessions, forget_user
    from .governor import Attempt, Governor
    from .metrics import Metrics, Stats, collect_stats, enable_metrics, get_metrics, metrics_text
    from .pending import PendingRecord, PendingStore
    from .retention import GcReport, collect_garbage
    from .review import ApprovalOutcome, PendingQueue
    from .skill_writes import GovernedSkills

_EXPORTS = {
    "ACTORS": "actors",
    "ApprovalOutcome": "review",
    "ApprovalRequest": "approval",
    "Approver": "approval",
    "Attempt": "governor",
    "AuditJournal": "audit",
    "Decision": "approval",
    "ForgetReport": "forget",
    "Gate": "approval",
    "GcReport": "retention",
    "GovernedSkills": "skill_writes",
    "Governor": "governor",
    "Metrics": "metrics",
    "POLICIES": "approval",
    "PendingQueue": "review",
    "PendingRecord": "pending",
    "PendingStore": "pending",
    "SUBSYSTEMS": "actors",
    "Stats": "metrics",
    "VerifyReport": "audit",
    "WriteContext": "actors",
    "collect_garbage": "retention",
    "collect_stats": "metrics",
    "enable_metrics": "metrics",
    "forget_sessions": "forget",
    "forget_user": "forget",
    "get_metrics": "metrics",
    "metrics_text": "metrics",
    "resolve_policy": "approval",
}

__all__ = [
    "ACTORS",
    "POLICIES",
    "SUBSYSTEMS",
    "ApprovalOutcome",
    "ApprovalRequest",
    "Approver",
    "Attempt",
    "AuditJournal",
    "Decision",
    "ForgetReport",
    "Gate",
    "GcReport",
    "GovernedSkills",
    "Governor",
    "Metrics",
    "PendingQueue",
    "PendingRecord",
    "PendingStore",
    "Stats",
    "VerifyReport",
    "WriteContext",
    "collect_garbage",
    "collect_stats",
    "enable_metrics",
    "forget_sessions",
    "forget_user",
    "get_metrics",
    "metrics_text",
    "resolve_policy",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mnemic.governance' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
