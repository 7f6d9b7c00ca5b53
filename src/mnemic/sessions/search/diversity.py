"""Room in the head of a ranking for a second session (pure function).

A question whose answer lies in several sessions ("What instruments does Melanie
play?": the clarinet in one session, the violin in another) loses its second session
when the best session's matches and their neighbours fill the first places. Where a
session already holds :data:`CAP` of the first :data:`HEAD` places, its next message
gives its place to the best message further down from a session that holds fewer, but
only when that message scores at least :data:`CLOSE` of it: diversity where the scores
are close, so a question answered in one session keeps that session's neighbours.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .hybrid import FusedMessage

__all__ = ["CAP", "CLOSE", "HEAD", "make_room"]

HEAD = 10
"""The first places the rule looks at (the rest keep their order)."""
CAP = 3
"""Places of the head one session holds before another session's close match goes first."""
CLOSE = 0.85
"""The least share of the crowded message's score the other session's message needs."""


def make_room(
    fused: Sequence[FusedMessage],
    *,
    head: int | None = None,
    cap: int | None = None,
    close: float | None = None,
) -> list[FusedMessage]:
    """``fused`` (best first) with another session's close match moved ahead of a
    session's message past its ``cap`` in the first ``head`` places (module docstring).
    The moved message keeps its score; everything else keeps its relative order. The
    defaults are the module's constants, read at the call."""
    head = HEAD if head is None else head
    cap = CAP if cap is None else cap
    close = CLOSE if close is None else close
    out = list(fused)
    held: Counter[str] = Counter()
    for i in range(min(head, len(out))):
        here = out[i]
        if held[here.session_id] >= cap and here.score > 0:
            floor = close * here.score
            for j in range(i + 1, len(out)):
                other = out[j]
                if (
                    other.score >= floor
                    and held[other.session_id] < cap
                    and other.session_id != here.session_id
                ):
                    out.insert(i, out.pop(j))
                    break
        held[out[i].session_id] += 1
    return out
