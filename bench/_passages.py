"""Passage vectors: the variants measured against the shipped recipe.

    ./x bench recall --sets locomo,longchat --split dev                      # shipped
    ./x bench recall --sets locomo,longchat --split dev --passages off       # one vector
    ./x bench recall --sets locomo,longchat --split dev --passages pieces=3,from=300

The product embeds a message whose text is longer than ``PIECE_CHARS`` (200) as its
whole passage followed by its pieces (``mnemic.embedding.passage.passage_texts``: whole
sentences packed into pieces of about 200 characters, at most ``MAX_PIECES``, longer
pieces for a longer text), all in the message's one ``message_vectors`` row, and its
search scores the pieces of the ``RESCORED`` best messages by their whole vector
(``mnemic.sessions.sql.vector_cache``). ``--passages`` changes those knobs in the
product's own modules for one run:

* ``off``: one vector a message (the recipe before passages);
* ``size=N``: piece size in characters; ``pieces=N``: at most N pieces a message;
  ``from=N``: only messages longer than N characters get pieces (default: ``size``);
* ``rescored=N``: the messages whose pieces a search scores (``all``: every one, the
  max-sim over every vector the earlier experiment measured);
* ``mean=1``: a message with pieces gets as its first vector the mean of its pieces'
  vectors (normalised) instead of a vector of its whole passage: one model call fewer
  over the same text.
"""

from __future__ import annotations

from typing import Any

import mnemic.embedding.passage as passage_module
import mnemic.sessions.search.embed as embed_module
import mnemic.sessions.sql.vector_cache as cache_module
from mnemic.sessions.sql.vectors import PendingText

KEYS = ("size", "pieces", "from", "rescored", "mean")


def parse(spec: str) -> dict[str, int] | None:
    """``--passages`` as knobs (None: ``off``); raises ValueError on a bad spec."""
    if spec == "off":
        return None
    knobs: dict[str, int] = {}
    for part in filter(None, spec.split(",")):
        key, _, value = part.partition("=")
        if key not in KEYS:
            raise ValueError(f"unknown knob {key!r} (known: off, {', '.join(KEYS)})")
        if key == "rescored" and value == "all":
            value = str(10**9)
        if not value.isdigit() or int(value) < 1:
            raise ValueError(f"{key} takes a positive number, not {value!r}")
        knobs[key] = int(value)
    return knobs


class Counter:
    """How many messages and passages the backfill embedded."""

    messages = 0
    passages = 0


def texts_of(pending: PendingText, knobs: dict[str, int] | None) -> list[str]:
    """The passages embedded for ``pending`` under ``knobs`` (see the module docstring)."""
    whole = embed_module.passage_of(pending)
    if knobs is None:
        return [whole]
    size = knobs.get("size", passage_module.PIECE_CHARS)
    start = knobs.get("from", size)
    if len(" ".join(pending.content.split())) <= start:
        return [whole]
    limit = knobs.get("pieces", passage_module.MAX_PIECES)
    parts = passage_module.pieces(pending.content, size, limit=limit)
    if len(parts) == 1:
        return [whole]
    return [whole] + [
        passage_module.passage_text(
            part,
            role=pending.role,
            previous=pending.previous if n == 0 else None,
            name=pending.name,
            previous_name=pending.previous_name if n == 0 else None,
        )
        for n, part in enumerate(parts)
    ]


def install(spec: str) -> Counter:
    """Put ``spec``'s knobs into the product's modules (an empty spec: the product as
    shipped) and count what its backfill embeds."""
    knobs = parse(spec) if spec else {}
    counts = Counter()

    def passages_of(pending: PendingText) -> list[str]:
        texts = texts_of(pending, knobs)
        counts.messages += 1
        counts.passages += len(texts)
        return texts

    embed_module.passages_of = passages_of  # type: ignore[assignment]
    if knobs and knobs.get("mean"):
        embed_module.embed_pending = _mean_first(counts)  # type: ignore[assignment]
    if knobs and "rescored" in knobs:
        cache_module.RESCORED = knobs["rescored"]
    return counts


def embedded_texts(texts: list[str], knobs: dict[str, int] | None) -> list[str]:
    """The texts the model embeds of a message's ``texts`` (``mean=1``: not the whole
    passage of a message with pieces)."""
    return texts[1:] if knobs and knobs.get("mean") and len(texts) > 1 else texts


def _mean_first(counts: Counter) -> Any:
    """``embed_pending`` with ``mean=1``: the pieces embedded, their mean first."""
    import numpy as np

    from mnemic.sessions.sql.vector_cache import encode
    from mnemic.sessions.sql.words import message_words

    def embed_pending(vectors: Any, embedder: Any, pending: Any, words: Any = None) -> int:
        if not pending:
            return 0
        texts = [embed_module.passages_of(p) for p in pending]
        model = [embedded_texts(ts, {"mean": 1}) for ts in texts]
        vecs = embedder.embed_passages([t for ts in model for t in ts])
        rows, at = [], 0
        for p, ts in zip(pending, model, strict=True):
            got = np.asarray(vecs[at : at + len(ts)], np.float32)
            at += len(ts)
            if len(ts) > 1:
                mean = got.mean(axis=0)
                got = np.vstack([mean / np.linalg.norm(mean), got])
            rows.append((p, b"".join(encode(v) for v in got)))
        written = int(vectors.put(embedder.model_id, rows))
        if words is not None:  # the chat's words as shipped (recall 25)
            held = [(p.message_id, message_words(p.content, p.name)) for p in pending]
            words.put(embedder.model_id, held, embedder.embed_queries)
        return written

    return embed_pending


def strip_pieces(cache: Any) -> None:
    """Make ``cache`` (a refreshed ``VectorCache``) search the first vectors only: the
    search as shipped before passages, over the same matrix."""
    cache.pieces = cache.pieces[:0]
    cache.piece_count = cache.piece_count * 0


__all__ = ["Counter", "embedded_texts", "install", "parse", "strip_pieces", "texts_of"]
