"""Semantic search over the session history, degrading to a notice (never an error).

:func:`semantic_search` embeds a query and asks the store's vectors for the nearest
messages (:attr:`~mnemic.sessions.sql.store.SqlSessionStore.vectors`); whatever stops it
(``[sessions] semantic = "off"``, the extra not installed, a damaged model, a store
without vectors) comes back as a :class:`SemanticNotice` with no hits, and a partial
index comes back with its hits and a ``stale`` notice, so callers fall back to lexical
results and tell the user why. The vectors themselves are made by :mod:`.embed`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...config import Settings
from ...embedding.model import Embedder, load_embedder
from ...errors import EmbeddingModelDamaged, SemanticExtraMissing, SemanticUnavailable
from ..sql import SessionStore
from ..store import SearchFilters
from .retrieval import QUERY_CHARS, semantic_state

__all__ = [
    "SemanticNotice",
    "SemanticResult",
    "notice_of",
    "semantic_enabled",
    "semantic_search",
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


def notice_of(exc: SemanticUnavailable) -> SemanticNotice:
    """The notice of an embedder that cannot be loaded."""
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
    :func:`~.retrieval.semantic_state` (what ``session_search`` uses)."""
    state = semantic_state(store, _loader(embedder, settings))
    notice = SemanticNotice(state.code or "failed", state.notice) if state.notice else None
    if state.embedder is None:
        return SemanticResult(notice=notice)
    vectors = store.vectors
    assert vectors is not None  # semantic_state checked that the store keeps vectors
    query = state.embedder.embed_queries([text[:QUERY_CHARS]])[0]
    hits = vectors.search(query, state.embedder.model_id, filters, limit)
    return SemanticResult(hits, notice)
