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

from typing import TYPE_CHECKING, Any

from .._moved import first_use

if TYPE_CHECKING:
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

_LAZY = {
    "ApprovalOutcome": ("review", "ApprovalOutcome"),
    "ForgetReport": ("forget", "ForgetReport"),
    "GcReport": ("retention", "GcReport"),
    "PendingQueue": ("review", "PendingQueue"),
    "collect_garbage": ("retention", "collect_garbage"),
    "collect_stats": ("stats", "collect_stats"),
    "forget_sessions": ("forget", "forget_sessions"),
    "forget_user": ("forget", "forget_user"),
    "metrics_text": ("stats", "metrics_text"),
}
"""Where each name of :data:`__all__` lives (module of this package, name there). They
are imported when first asked for, not with the package: the Claude Code hook imports
:mod:`.entry_usage` after every transcript import and must not pay ~40 ms for
forgetting, review and statistics."""


def __getattr__(name: str) -> Any:
    return first_use(__name__, _LAZY, name, globals())
