"""The governance kernel: who writes, the approval gate, the pending queue, the audit journal.

The controls a team needs before it lets an agent write memory that every later session
reads as instructions. The domains (curated memory, skills) sit above this package and
call into it; it imports nothing of theirs.

- :mod:`.actors`: who writes (:class:`WriteContext`: actor, origin, session).
- :mod:`.approval`: the policy per subsystem and actor (allow, ask, stage, block) and the
  :class:`Gate` that enforces it before the store.
- :mod:`.pending`: staged writes and the queue policy (limit, expiry) over a record store.
- :mod:`.chain`: the append-only, hash-chained audit :class:`~.chain.Journal` (records,
  chain, crash repair, verification) over a raw store.
- :mod:`.storage`: the journal and queue protocols and where a home keeps them (its store
  backend: files under the home, :mod:`mnemic.backends.files`, or PostgreSQL).
- :mod:`.governor`: :class:`Governor`, what travels with a session (gate, journal,
  metrics), and :class:`Attempt`, one write followed from decision to audit record.
- :mod:`.metrics`: the live metrics facade, Prometheus behind a switch.

What spans domains (reviewing the queue, retention, forgetting, derived statistics)
lives in :mod:`mnemic.ops`. See ``docs/governance.md``.
"""

from __future__ import annotations

from .actors import ACTORS, SUBSYSTEMS, WriteContext
from .approval import POLICIES, ApprovalRequest, Approver, Decision, Gate, resolve_policy
from .chain import Journal, VerifyReport
from .governor import Attempt, Governor
from .metrics import Metrics, Stats, enable_metrics, get_metrics
from .pending import PendingQueueStore, PendingRecord

__all__ = [
    "ACTORS",
    "POLICIES",
    "SUBSYSTEMS",
    "ApprovalRequest",
    "Approver",
    "Attempt",
    "Decision",
    "Gate",
    "Governor",
    "Journal",
    "Metrics",
    "PendingQueueStore",
    "PendingRecord",
    "Stats",
    "VerifyReport",
    "WriteContext",
    "enable_metrics",
    "get_metrics",
    "resolve_policy",
]
