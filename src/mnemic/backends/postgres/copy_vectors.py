"""``mnemic db copy`` (:mod:`.copy`): the session vectors and the chat's words, carried
as they were made, so the destination searches as the source did without embedding
anything again.

The import of the sessions gives the destination's ids of each copied session's
messages in order; paired with the source's ids, each stored vector goes on its
message there as the source holds it (its model id, its float16 bytes, the pieces of a
long message), written by the destination's own writer (:meth:`~mnemic.sessions.sql.
vectors.SqlVectors.put`: the message and the one before it must still be there). The
words linked to each message (:mod:`mnemic.sessions.sql.words`) follow the same way:
the destination's word writer links them, taking the vectors of the words it lacks from
the source instead of an embedder. Sessions the destination already had (left alone by
the copy) keep their own; a session some of whose messages were left out (forgotten at
the destination) gets none, and ``mnemic sessions embed`` makes them there.

A vector keeps its model id: a destination configured with another embedder does not
search them (a search compares only vectors of its own model), and its backfill replaces
them one by one; the copy's note names the models carried. A message whose words were
embedded by several models (a backfill with a new model under way) is not linked at the
destination; the next ``mnemic sessions embed`` there links it.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib.util import find_spec

from ...sessions.sql import SessionStore
from ...sessions.sql.vectors import PendingText

__all__ = ["KindCount", "Pairs", "carry"]


@dataclass
class KindCount:
    """One kind of thing that moved."""

    source: int = 0
    copied: int = 0
    skipped: int = 0
    destination: int = 0
    """Found at the destination afterwards (of those that were to be there)."""
    expected: int = 0
    """How many had to be at the destination afterwards."""

    @property
    def ok(self) -> bool:
        return self.destination == self.expected


Pairs = list[tuple["array[int]", Sequence[int]]]
"""Of each copied session: the source's message ids and the destination's, in order."""

_CHUNK = 500
"""Messages carried per transaction."""


def _chunks(pairs: Pairs) -> Iterator[list[tuple[int, int, int | None]]]:
    """``(source id, destination id, the destination's previous message)`` of every
    paired message, a few hundred at a time."""
    out: list[tuple[int, int, int | None]] = []
    for mine, theirs in pairs:
        before: int | None = None
        for src_id, dst_id in zip(mine, theirs, strict=True):
            out.append((src_id, dst_id, before))
            before = dst_id
            if len(out) >= _CHUNK:
                yield out
                out = []
    if out:
        yield out


def carry(
    src: SessionStore,
    dst: SessionStore,
    pairs: Pairs,
    vectors: KindCount,
    words: KindCount,
    notes: list[str],
) -> None:
    """Carry the vectors and the words of the ``pairs``' messages from ``src`` to ``dst``,
    counting them in ``vectors`` and ``words`` (the source's, those to move, those
    moved, those found at the destination afterwards); what the reader must know goes
    to ``notes``."""
    models: set[str] = set()
    sv, dv = src.vectors, dst.vectors
    if sv is None or dv is None:
        return
    sw, dw = src.words, dst.words
    vectors.source = sv.count()
    words.source = sw.linked() if sw is not None else 0
    if words.source and find_spec("numpy") is None:  # the word writer stores through numpy
        sw = None
        notes.append(
            "the chat's words were not carried (the semantic extra is not installed here): "
            "`mnemic sessions embed` at the destination links them again"
        )
    for chunk in _chunks(pairs):
        here = {s: (d, p) for s, d, p in chunk}
        by_model: dict[str, list[tuple[PendingText, bytes]]] = {}
        for mid, model, blob in sv.of_messages(list(here)):
            d, p = here[mid]
            by_model.setdefault(model, []).append((PendingText(d, "", "", p, None), blob))
            vectors.expected += 1
        for model, rows in by_model.items():
            vectors.copied += dv.put(model, rows)
            models.add(model)
        if sw is None or dw is None:
            continue
        # words of several models are left out: the destination's backfill links them
        linked = dw.put_known((here[mid][0], held) for mid, held in sw.of_messages(list(here)))
        words.expected += linked
        words.copied += linked
    # counted again at the destination
    for chunk in _chunks(pairs):
        ids = [d for _, d, _ in chunk]
        vectors.destination += dv.count(ids)
        if dw is not None:
            words.destination += dw.linked(ids)
    vectors.destination = min(vectors.destination, vectors.expected)
    words.destination = min(words.destination, words.expected)
    vectors.skipped = vectors.source - vectors.expected
    words.skipped = words.source - words.expected
    if models:
        notes.append(
            f"vectors carried as they were made, by {', '.join(sorted(models))}: a "
            "destination whose embedder is another model does not search them (`mnemic "
            "sessions embed` there makes its own)"
        )
