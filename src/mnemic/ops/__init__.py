"""Operations that span domains: what a person runs on a whole home.

- :mod:`.review`: :class:`PendingQueue`, the approval queue worked by a person (approving
  replays a staged memory or skill write through its normal path);
- :mod:`.retention`: :func:`collect_garbage` (``mnemic gc``);
- :mod:`.forget`: :func:`forget_user` and :func:`forget_sessions` (``mnemic forget``);
- :mod:`.stats`: :func:`collect_stats` and :func:`metrics_text` (``mnemic stats``,
  ``/metrics``).

They sit above the domains (curated memory, sessions, skills) and the governance kernel,
and reach storage only through the protocols the store backend provides
(:mod:`mnemic.registry`).
"""

from __future__ import annotations

from .forget import ForgetReport, forget_sessions, forget_user
from .retention import GcReport, collect_garbage
from .review import ApprovalOutcome, PendingQueue
from .stats import collect_stats, metrics_text

__all__ = [
    "ApprovalOutcome",
    "ForgetReport",
    "GcReport",
    "PendingQueue",
    "collect_garbage",
    "collect_stats",
    "forget_sessions",
    "forget_user",
    "metrics_text",
]
