"""Search the curated memory (MEMORY.md and USER.md entries) by words and by meaning.

The targets hold a few dozen entries at most, so nothing is indexed: the words of each
entry are compared with the query's (the session index's segmentation, so CJK text is
matched by bigrams), and with the ``semantic`` extra the entries are embedded on the fly
(cached per process by text) and compared with the query's embedding. ``hybrid`` blends
the two with the weight session search uses. Entries the threat scanner blocks are never
searched or shown.

Modes and notices follow ``session_search``: ``lexical``, ``semantic``, ``hybrid`` (the
default when the embedder loads); a mode that cannot run falls back to lexical with a
``notice`` saying why, never an error.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..curated.entries import TARGETS
from ..curated.memory import Memory
from ..curated.snapshot import sanitize
from ..errors import InvalidArgument, MnemicError
from ..sessions.hybrid import BLEND_ALPHA
from ..sessions.retrieval import ENABLE_HINT, QueryEmbedder, check_mode
from ..sessions.segment import segment

__all__ = ["EntryHit", "MemorySearch", "search_memory"]

EmbedderLoader = Callable[[], QueryEmbedder]


@dataclass(frozen=True)
class EntryHit:
    """One entry that matched: where it is (1-based index), its text, how well, and why."""

    target: str
    index: int
    text: str
    score: float
    matched: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "target": self.target,
            "index": self.index,
            "text": self.text,
            "score": round(self.score, 4),
            "matched": list(self.matched),
        }


@dataclass(frozen=True)
class MemorySearch:
    """The ranked hits, the mode that ran, and why another mode could not (or None)."""

    hits: list[EntryHit] = field(default_factory=list)
    retrieval: str = "lexical"
    notice: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        out: dict[str, Any] = {
            "retrieval": self.retrieval,
            "count": len(self.hits),
            "results": [h.to_dict() for h in self.hits],
        }
        if self.notice:
            out["notice"] = self.notice
        return out


def _words(text: str) -> set[str]:
    return set(segment(text).body.casefold().split())


_vectors: dict[tuple[str, str], Any] = {}
_vectors_lock = threading.Lock()


def _passage_vectors(embedder: QueryEmbedder, texts: Sequence[str]) -> list[Any]:
    """Vectors of ``texts``, embedded once per process and text."""
    model = embedder.model_id
    with _vectors_lock:
        missing = [t for t in dict.fromkeys(texts) if (model, t) not in _vectors]
    if missing:
        made = embedder.embed_passages(missing)  # type: ignore[attr-defined]
        with _vectors_lock:
            for text, vec in zip(missing, made, strict=True):
                _vectors[(model, text)] = vec
    with _vectors_lock:
        return [_vectors[(model, t)] for t in texts]


def _load(
    loader: EmbedderLoader | None, mode: str | None
) -> tuple[QueryEmbedder | None, str | None]:
    if loader is None:
        why = 'Semantic search is switched off ([sessions] semantic = "off"); results are lexical.'
        return None, why if mode else None
    try:
        return loader(), None
    except ImportError:
        return None, (
            f"Semantic search needs the optional 'semantic' extra. {ENABLE_HINT}" if mode else None
        )
    except MnemicError as exc:
        quiet = getattr(exc, "code", "") == "semantic_extra_missing" and not mode
        return None, None if quiet else f"{exc} Showing lexical results."


def search_memory(
    memory: Memory,
    query: str,
    *,
    mode: str | None = None,
    targets: Sequence[str] = TARGETS,
    limit: int = 5,
    embedder_loader: EmbedderLoader | None = None,
) -> MemorySearch:
    """The entries of ``targets`` that best match ``query`` (see the module docstring).

    ``mode`` is ``lexical``, ``semantic``, ``hybrid`` or None (hybrid when the embedder
    loads, else lexical, quietly). A lexical hit shares at least one word with the query;
    in the semantic and hybrid modes the ``limit`` entries nearest in meaning count too.
    Raises ``InvalidArgument`` for an unknown mode or a ``limit`` below 1.
    """
    want = check_mode(mode)
    if not isinstance(limit, int) or limit < 1:
        raise InvalidArgument(
            "limit", f"limit must be a whole number of at least 1, not {limit!r}."
        )
    entries: list[tuple[str, int, str]] = []
    for target in targets:
        shown = sanitize(target, memory.entries(target))
        blocked = {i for i, _, _ in shown.blocked}
        entries += [
            (target, i + 1, text) for i, text in enumerate(shown.display) if i not in blocked
        ]
    query_words = _words(query)
    # lexical: the share of the query's words an entry holds, rarer words weighing more
    df = {w: sum(1 for _, _, t in entries if w in _words(t)) for w in query_words}
    weight = {w: math.log(1 + (len(entries) + 1) / (n + 0.5)) for w, n in df.items()}
    total = sum(weight.values()) or 1.0
    lexical = [sum(weight[w] for w in query_words & _words(t)) / total for _, _, t in entries]

    notice = None
    embedder = None
    ran = "lexical"
    if want != "lexical" and entries and query.strip():
        embedder, notice = _load(embedder_loader, want)
    semantic = [0.0] * len(entries)
    near: set[int] = set()
    if embedder is not None:
        try:
            qvec = embedder.embed_queries([query[:500]])[0]
            vecs = _passage_vectors(embedder, [t for _, _, t in entries])
            semantic = [float(v @ qvec) for v in vecs]
            near = set(sorted(range(len(entries)), key=lambda i: -semantic[i])[:limit])
            ran = want or "hybrid"
        except Exception as exc:  # a failing model degrades to lexical, never to an error
            notice = (
                f"Semantic search failed ({type(exc).__name__}: {exc}); showing lexical results."
            )
    hits: list[EntryHit] = []
    for i, (target, index, text) in enumerate(entries):
        matched = tuple(
            m
            for m, on in (
                ("lexical", lexical[i] > 0 and ran != "semantic"),
                ("semantic", i in near),
            )
            if on
        )
        if not matched:
            continue
        if ran == "lexical":
            score = lexical[i]
        elif ran == "semantic":
            score = semantic[i]
        else:
            score = BLEND_ALPHA * semantic[i] + (1 - BLEND_ALPHA) * lexical[i]
        hits.append(EntryHit(target, index, text, score, matched))
    hits.sort(key=lambda h: (-h.score, TARGETS.index(h.target), h.index))
    return MemorySearch(hits[:limit], ran, notice)
