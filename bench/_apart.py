"""Each named speaker apart: a ranking variant of ``bench/_misses.py`` (recall 23).

**Protocol, written before any figure of it was read** (the misses table of
``bench/_multihop23.py`` read first; docs/recall.md, *Recall 23*). A question that names
two or more of a conversation's speakers ("What do both Joanna and Nate like?", "What book
did Melanie read from Caroline's suggestion?", "Did Jon and Gina both participate in dance
competitions?") asks about each of them: its evidence is each one's own words, often in
different sessions. The shipped speaker step (``speaker.prefer_named``) weighs only a
question that names exactly one speaker; one that names two is left as the blend ranked
it, and its top ten can be one speaker's matches.

The rule (:func:`apart`), applied last in ``retrieval.candidates`` (after the fresh-facts
step), in every mode: when the question (its text as parsed, ``Query.text``) names two or
more of the speakers among the best :data:`~mnemic.sessions.search.speaker.CANDIDATES`
positions, those positions are split into one list per named speaker (the messages that
speaker said, in the ranking's order) and one of the rest (said by no named speaker, when
any), and the places are taken from those lists in turn, in the order the question names
the speakers (the rest last), each list's best position not yet placed (a round-robin
interleave: each entity's own search, interleaved by rank); a list that runs out is
skipped. A placed message takes the score of its place (the ``i``-th place gets the
``i``-th best score of the head, so every later step sees a list sorted by score).
Positions beyond the head keep their places. Every other question is untouched. A
second form fixed before the run, ``apart2``: the first :data:`KEEP` places stay as
ranked and the turns start at the third.

Ship rule (docs/recall.md, *Recall 23*): pooled LoCoMo dev turn@10 paired 95 % interval
above zero, or multi-hop up with no other category's interval below zero; hybrid ≥
lexical at every k on every dev set; session@5 not down. Nothing is fitted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from mnemic.sessions.search.hybrid import FusedMessage
from mnemic.sessions.search.speaker import CANDIDATES

KEEP = 2
"""Places ``apart2`` keeps as ranked before the turns start."""


def _named_in_order(text: str, names: set[str]) -> list[str]:
    """The ``names`` that ``text`` names as a word, in the order it first names them."""
    found = []
    for n in names:
        m = re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", text)
        if m is not None:
            found.append((m.start(), n))
    return [n for _, n in sorted(found)]


def interleave(
    fused: Sequence[FusedMessage], said: Sequence[str | None], named: Sequence[str], keep: int = 0
) -> list[FusedMessage]:
    """``fused`` (best first; ``said``: the speaker of each of its first positions) with
    its places after the first ``keep`` taken in turn from each of ``named``'s lists and
    the rest's (see the module docstring)."""
    head = list(fused[: len(said)])
    lists = [[i for i, s in enumerate(said) if s == name] for name in named]
    lists.append([i for i, s in enumerate(said) if s not in named])
    order: list[int] = list(range(min(keep, len(head))))
    placed = set(order)
    cursors = [0] * len(lists)
    while len(order) < len(head):
        for n, ranked in enumerate(lists):
            while cursors[n] < len(ranked) and ranked[cursors[n]] in placed:
                cursors[n] += 1
            if cursors[n] < len(ranked):
                i = ranked[cursors[n]]
                order.append(i)
                placed.add(i)
    scores = sorted((f.score for f in head), reverse=True)
    out = [head[i]._replace(score=s) for i, s in zip(order, scores, strict=True)]
    return out + list(fused[len(head) :])


def apart(step: Any, keep: int = 0) -> Any:
    """``step`` (the last step of ``retrieval.candidates``, ``freshen``: called as
    ``step(store, fused, query, frame, read)``) followed by the rule."""

    def wrapped(store: Any, fused: Any, query: Any, *args: Any, **kw: Any) -> list[FusedMessage]:
        out: list[FusedMessage] = step(store, fused, query, *args, **kw)
        if not out:
            return out
        head = out[:CANDIDATES]
        said = [
            s[1] if s is not None and s[0] in ("user", "assistant") else None
            for s in store.speakers_at([(f.session_id, f.seq) for f in head])
        ]
        names = {n for n in said if n}
        named = _named_in_order(query.text, names) if len(names) > 1 else []
        if len(named) < 2:
            return out
        return interleave(out, said, named, keep)

    return wrapped
