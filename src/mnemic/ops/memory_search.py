"""Search the curated memory (MEMORY.md and USER.md entries) by words and by meaning.

The entries are ranked by :func:`mnemic.ops.text_search.rank_texts`, the ranker skills
by meaning use too: words weighted by rarity (CJK by bigrams) and, with the ``semantic``
extra, the entries embedded on the fly (cached per process by text), blended like session
search. Entries the threat scanner blocks are never searched or shown.

Modes and notices follow ``session_search``: ``lexical``, ``semantic``, ``hybrid`` (the
default when the embedder loads); a mode that cannot run falls back to lexical with a
``notice`` saying why, never an error. Below the floor of short texts (semantic and
hybrid, :func:`~mnemic.ops.text_search.rank_texts`) the answer says "no good match" and
keeps only the nearest entry, marked weak.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..curated.entries import TARGETS
from ..curated.snapshot import sanitize
from ..curated.view import MemoryView
from ..errors import StorageError
from ..sessions.search.floor import Strength
from ..tooling import ranked_search
from .text_search import EmbedderLoader, rank_texts

__all__ = ["EmbedderLoader", "EntryHit", "MemorySearch", "search_memory"]


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
    """The ranked hits, the mode that ran, why another mode could not (or None), the
    floor's verdict (None: no floor applies) and whether nothing cleared it."""

    hits: list[EntryHit] = field(default_factory=list)
    retrieval: str = "lexical"
    notice: str | None = None
    strength: Strength | None = None
    no_good_match: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return ranked_search(self, [h.to_dict() for h in self.hits], "memory")


def search_memory(
    memory: MemoryView,
    query: str,
    *,
    mode: str | None = None,
    targets: Sequence[str] = TARGETS,
    limit: int = 5,
    embedder_loader: EmbedderLoader | None = None,
    floor: bool = True,
) -> MemorySearch:
    """The entries of ``targets`` that best match ``query`` (see the module docstring).

    ``mode`` is ``lexical``, ``semantic``, ``hybrid`` or None (hybrid when the embedder
    loads, else lexical, quietly). A lexical hit shares at least one word with the query;
    in the semantic and hybrid modes the ``limit`` entries nearest in meaning count too.
    Below the floor only the nearest entry is kept (``floor=False``: all of them).
    Raises ``InvalidArgument`` for an unknown mode or a ``limit`` below 1.
    """
    entries: list[tuple[str, int, str]] = []
    left_out: list[StorageError] = []
    # in TARGETS order, so equal scores rank MEMORY.md's entries first, then by position
    for target in sorted(targets, key=lambda t: TARGETS.index(t) if t in TARGETS else 9):
        try:
            live = memory.entries(target)
        except StorageError as exc:  # the other file is still searched, and this said
            left_out.append(exc)
            continue
        shown = sanitize(target, live, memory.level)
        blocked = {i for i, _, _ in shown.blocked}
        entries += [
            (target, i + 1, text) for i, text in enumerate(shown.display) if i not in blocked
        ]
    ranked = rank_texts(
        query,
        [text for _, _, text in entries],
        mode=mode,
        limit=limit,
        embedder_loader=embedder_loader,
        floor=floor,
        vector_scope=f"memory {memory.settings.scope} {','.join(sorted(targets))}",
    )
    hits = [
        EntryHit(entries[h.index][0], entries[h.index][1], entries[h.index][2], h.score, h.matched)
        for h in ranked.hits
    ]
    if left_out and len(left_out) == len(targets):
        raise left_out[0]
    notice = " ".join(
        [*(f"Not searched: {exc.to_human()}" for exc in left_out), *filter(None, [ranked.notice])]
    )
    return MemorySearch(
        hits, ranked.retrieval, notice or None, ranked.strength, ranked.no_good_match
    )
