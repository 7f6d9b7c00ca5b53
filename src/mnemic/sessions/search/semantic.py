"""Semantic search over the session history, degrading to a notice (never an error).

:func:`semantic_search` embeds a query and asks the store for the nearest messages
(:class:`~.vectors.VectorStore`); whatever stops it (``[sessions] semantic = "off"``,
the extra not installed, a damaged model, a store without vectors) comes back as a
:class:`SemanticNotice` with no hits, and a partial index comes back with its hits and a
``stale`` notice, so callers fall back to lexical results and tell the user why.

:func:`backfill` embeds every message still without a vector of the embedder's model,
a batch per transaction, so it resumes where a killed run stopped and replaces vectors
of another model.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...embedding.passage import passage_text
from ...errors import EmbeddingModelDamaged, SemanticExtraMissing, SemanticUnavailable
from ..sql.vectors import PendingText, VectorStatus, VectorStore
from ..store import SearchFilters, SessionStore
from .retrieval import QUERY_CHARS, semantic_state

if TYPE_CHECKING:
    from ...config import Settings
    from ...embedding.model import Embedder

__all__ = [
    "BackfillProgress",
    "SemanticNotice",
    "SemanticResult",
    "backfill",
    "embed_history",
    "embed_pending",
    "passage_of",
    "semantic_enabled",
    "semantic_search",
    "vector_status",
]


@dataclass(frozen=True, slots=True)
class SemanticNotice:
    """Why semantic results are missing or partial; ``code`` is one of ``off``,
    ``extra_missing``, ``model_damaged``, ``unsupported`` (the store keeps no vectors),
    ``stale`` (some messages have no vector yet), ``failed``."""

    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """JSON-able form."""
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class SemanticResult:
    """Nearest messages ``(message_id, cosine)``, best first, and a notice (or None)."""

    hits: list[tuple[int, float]] = field(default_factory=list)
    notice: SemanticNotice | None = None


def semantic_enabled(settings: Settings | None) -> bool:
    """Whether ``[sessions] semantic`` allows embedding and semantic search."""
    return settings is None or settings.sessions.semantic != "off"


def _notice(exc: SemanticUnavailable) -> SemanticNotice:
    if isinstance(exc, SemanticExtraMissing):
        return SemanticNotice("extra_missing", exc.to_llm())
    if isinstance(exc, EmbeddingModelDamaged):
        return SemanticNotice("model_damaged", exc.to_llm())
    return SemanticNotice("failed", exc.to_llm())


def _loader(
    embedder: Embedder | Callable[[], Embedder] | None, settings: Settings | None
) -> Callable[[], Embedder] | None:
    if not semantic_enabled(settings):
        return None
    if embedder is None:
        from ...embedding.model import load_embedder

        return load_embedder
    if callable(embedder) and not hasattr(embedder, "embed_queries"):
        return embedder
    return lambda: embedder  # type: ignore[return-value]


def semantic_search(
    store: SessionStore,
    text: str,
    filters: SearchFilters,
    limit: int,
    *,
    embedder: Embedder | Callable[[], Embedder] | None = None,
    settings: Settings | None = None,
) -> SemanticResult:
    """The messages nearest to ``text`` by meaning; see the module docstring.
    ``embedder`` is an embedder or what loads one (default: the shipped one). Whether
    it can run, and the notice when not, come from
    :func:`~mnemic.sessions.retrieval.semantic_state` (what ``session_search`` uses)."""
    state = semantic_state(store, _loader(embedder, settings))
    notice = SemanticNotice(state.code or "failed", state.notice) if state.notice else None
    if state.embedder is None:
        return SemanticResult(notice=notice)
    query = state.embedder.embed_queries([text[:QUERY_CHARS]])[0]
    assert isinstance(store, VectorStore)  # semantic_state checked the capability
    hits = store.vector_search(query, state.embedder.model_id, filters, limit)
    return SemanticResult(hits, notice)


@dataclass(slots=True)
class BackfillProgress:
    """Where a backfill is: messages embedded by this run, how many were left at its
    start, and the rate."""

    done: int
    total: int
    started: float
    model: str

    @property
    def rate(self) -> float:
        """Messages per second so far."""
        elapsed = time.monotonic() - self.started
        return self.done / elapsed if elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds left at the current rate (None before any progress)."""
        rate = self.rate
        return (self.total - self.done) / rate if rate > 0 else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"done": self.done, "total": self.total, "model": self.model,
                "rate": round(self.rate, 2)}  # fmt: skip


def passage_of(pending: PendingText) -> str:
    """The passage embedded for a message still without a vector (``passage_text`` of
    it, its speaker's name and the message before it)."""
    return passage_text(
        pending.content,
        role=pending.role,
        previous=pending.previous,
        name=pending.name,
        previous_name=pending.previous_name,
    )


def embed_pending(store: VectorStore, embedder: Embedder, pending: Sequence[PendingText]) -> int:
    """Embed ``pending`` messages in one batch and store their vectors (one transaction);
    returns how many were written (see :meth:`VectorStore.put_vectors`)."""
    from ..sql.vector_cache import encode

    if not pending:
        return 0
    vecs = embedder.embed_passages([passage_of(p) for p in pending])
    rows = [(p, encode(v)) for p, v in zip(pending, vecs, strict=True)]
    return store.put_vectors(embedder.model_id, rows)


def backfill(
    store: VectorStore,
    embedder: Embedder,
    *,
    batch: int = 32,
    limit: int | None = None,
    shard: tuple[int, int] | None = None,
    progress: Callable[[BackfillProgress], None] | None = None,
) -> BackfillProgress:
    """Embed up to ``limit`` messages without a vector of ``embedder``'s model, ``batch``
    per transaction (resumable: killed, it loses at most the batch in flight). With
    ``shard=(k, n)`` only message ids equal to k modulo n: n processes, one shard each,
    share a backfill without doing the same work twice."""

    if batch < 1:
        raise ValueError("batch must be at least 1")
    if shard is not None and not 0 <= shard[0] < shard[1]:
        raise ValueError("shard must be (k, n) with 0 <= k < n")
    model = embedder.model_id
    left = store.vector_status(model).missing
    if shard is not None:
        left = -(-left // shard[1])  # about a share
    state = BackfillProgress(0, left if limit is None else min(left, limit), time.monotonic(),
                             model)  # fmt: skip
    after = 0
    while limit is None or state.done < limit:
        want = batch if limit is None else min(batch, limit - state.done)
        pending = store.vectors_pending(model, after=after, limit=want, shard=shard)
        if not pending:
            break
        embed_pending(store, embedder, pending)
        after = pending[-1].message_id
        state.done += len(pending)
        if progress is not None:
            progress(state)
    return state


def embed_history(
    store: SessionStore,
    *,
    batch: int = 32,
    limit: int | None = None,
    embedder: Embedder | None = None,
    settings: Settings | None = None,
    shard: tuple[int, int] | None = None,
    progress: Callable[[BackfillProgress], None] | None = None,
) -> BackfillProgress:
    """``mnemic sessions embed``: backfill ``store`` with the shipped embedder (its model
    file fully verified first). Raises :class:`~mnemic.errors.SemanticUnavailable` when
    semantic search is off, the extra is missing, the model is damaged or the store keeps
    no vectors."""
    if not semantic_enabled(settings):
        raise SemanticUnavailable(
            'it is switched off ([sessions] semantic = "off" in config.toml); set it to '
            '"auto" to embed the history'
        )
    if not isinstance(store, VectorStore):
        raise SemanticUnavailable("this session store keeps no vectors")
    if embedder is None:
        from ...embedding.model import load_embedder

        embedder = load_embedder(verify=True)
    return backfill(store, embedder, batch=batch, limit=limit, shard=shard, progress=progress)


def vector_status(
    store: SessionStore, *, embedder: Embedder | None = None
) -> VectorStatus | SemanticNotice:
    """``mnemic sessions embed --status``: counts for the shipped embedder's model, or
    the notice saying why there are none."""
    if not isinstance(store, VectorStore):
        return SemanticNotice("unsupported", "This session store keeps no vectors.")
    try:
        if embedder is None:
            from ...embedding.model import load_embedder

            embedder = load_embedder()
    except SemanticUnavailable as exc:
        return _notice(exc)
    return store.vector_status(embedder.model_id)
