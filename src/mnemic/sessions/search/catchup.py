"""Nothing stays unembedded: each import embeds a bounded share of what has no vector.

Messages that reach the store by an import (the Claude Code hook's transcript import at
compaction and session end) would wait for a manual ``mnemic sessions embed`` before
semantic search finds them; a recording session embeds its own in the background
(:class:`~.embed.BackgroundIndexer`). :func:`catch_up` closes the gap: after an import
it embeds messages without a vector, oldest first, at most :data:`MESSAGES` of them and
for about :data:`SECONDS` (no batch starts that would end past it, judged by the slowest
so far), and leaves the rest for the next call. It runs only when ``[sessions]
semantic`` allows it and the ``semantic`` extra is installed (looked up without
importing it), and it never raises: an import that succeeded stays a success, whatever
the embedder does. ``mnemic sessions embed --status`` shows what is left.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...config import Settings
from ...errors import MnemicError
from ..sql import SessionStore
from .semantic import semantic_enabled

if TYPE_CHECKING:
    from ...embedding.model import Embedder

__all__ = ["BATCH", "MESSAGES", "SECONDS", "CatchUp", "catch_up"]

log = logging.getLogger(__name__)

MESSAGES = 256
"""Messages embedded at most per call."""
SECONDS = 5.0
"""Seconds a call may spend embedding (the model's loading included)."""
BATCH = 16
"""Messages embedded and committed together."""


@dataclass(frozen=True, slots=True)
class CatchUp:
    """What one :func:`catch_up` did."""

    embedded: int = 0
    """Messages given a vector."""
    left: int | None = None
    """Messages still without one (None: not counted, the call did not run)."""
    skipped: str | None = None
    """Why it did not run or stopped early: ``off`` (``[sessions] semantic = "off"``),
    ``not installed``, ``unsupported`` (the store keeps no vectors), or the failure."""

    def summary(self) -> str:
        """One clause for a report line ("" when there is nothing to say)."""
        if self.skipped in ("off", "not installed", "unsupported"):
            return ""
        if self.skipped:
            return f"embedding skipped ({self.skipped}); `mnemic sessions embed` catches up"
        if not self.embedded and not self.left:
            return ""
        text = f"embedded {self.embedded:,} message(s) for semantic search"
        if self.left:
            text += f" ({self.left:,} left for the next import or `mnemic sessions embed`)"
        return text


def catch_up(
    store: SessionStore,
    *,
    settings: Settings | None = None,
    max_messages: int = MESSAGES,
    max_seconds: float = SECONDS,
    load: Callable[[], Embedder] | None = None,
) -> CatchUp:
    """Embed up to ``max_messages`` messages of ``store`` without a vector, oldest first,
    within about ``max_seconds`` (see the module docstring). ``load`` returns the
    embedder (default: the shipped one, only when the ``semantic`` extra is installed).
    Never raises."""
    if max_messages < 1:
        return CatchUp()
    if not semantic_enabled(settings):
        return CatchUp(skipped="off")
    vectors = store.vectors
    if vectors is None:
        return CatchUp(skipped="unsupported")
    if load is None:
        from ...extras import require_extra  # loaded only when semantic search is on

        try:
            require_extra("semantic", "Semantic session search")
        except MnemicError:
            return CatchUp(skipped="not installed")
    start = time.monotonic()
    done = 0
    try:
        # here, not at the top: with semantic search off an import loads no part of it
        from ...embedding.model import load_embedder, shipped_model_id

        # Most imports leave nothing to embed (a hook call that found no new message):
        # asked first, the store answers without the model being loaded (~100 ms).
        known = shipped_model_id() if load is None else None
        if known is not None and not vectors.pending(known, limit=1):
            return CatchUp(0, 0)
        from .embed import embed_pending

        embedder = (load or load_embedder)()
        slowest = 0.0
        after = 0
        while done < max_messages:
            batch_start = time.monotonic()
            if batch_start - start + slowest > max_seconds:
                break
            want = min(BATCH, max_messages - done)
            pending = vectors.pending(embedder.model_id, after=after, limit=want)
            if not pending:
                break
            embed_pending(vectors, embedder, pending)
            done += len(pending)
            after = pending[-1].message_id
            slowest = max(slowest, time.monotonic() - batch_start)
        return CatchUp(done, vectors.status(embedder.model_id).missing)
    except Exception as exc:  # an import that succeeded must stay a success
        log.warning("embedding after the import failed: %s: %s", type(exc).__name__, exc)
        return CatchUp(done, None, f"{type(exc).__name__}: {exc}")
