"""Room for a second session in the first ten: a ranking variant of ``bench/_misses.py``
(measured on dev and dropped, ``docs/recall.md``, *Room for a second session (recall 14)*).

A multi-hop question's evidence lies in two sessions or more; the rule: where one
session already holds :data:`CAP` of the first :data:`HEAD` places, its next message
gives its place to the best message further down from a session that holds fewer, when
that message scores at least ``close`` of it (diversity only where the scores are
close). With ``context_only``, only a message that matched nothing itself (a neighbour
ranked through context) gives its place, and only to a direct match.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from mnemic.sessions.search.hybrid import FusedMessage

HEAD = 10
CAP = 3


def make_room(
    fused: Sequence[FusedMessage], close: float, *, context_only: bool = False
) -> list[FusedMessage]:
    """``fused`` (best first) with the rule of the module docstring applied."""
    out = list(fused)
    held: Counter[str] = Counter()
    for i in range(min(HEAD, len(out))):
        here = out[i]
        crowded = held[here.session_id] >= CAP and here.score > 0
        if crowded and not (context_only and here.direct):
            floor = close * here.score
            for j in range(i + 1, len(out)):
                other = out[j]
                if (
                    other.score >= floor
                    and held[other.session_id] < CAP
                    and other.session_id != here.session_id
                    and (other.direct or not context_only)
                ):
                    out.insert(i, out.pop(j))
                    break
        held[out[i].session_id] += 1
    return out


def after(step: Any, close: float, *, context_only: bool = False) -> Any:
    """``step`` (the last step of ``retrieval.candidates``, ``freshen``) followed by
    :func:`make_room`."""

    def wrapped(*args: Any, **kw: Any) -> list[FusedMessage]:
        return make_room(step(*args, **kw), close, context_only=context_only)

    return wrapped
