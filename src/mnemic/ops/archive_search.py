"""Search the archive: the entries that left MEMORY.md and USER.md, by words and meaning.

Ranked by :func:`mnemic.ops.text_search.rank_texts`, as memory search ranks the live
entries. An archived entry the threat scanner blocks is never searched or shown, and a
forgotten one has no text to search. Below the floor of short texts (semantic and
hybrid) the answer says "no good match" and keeps only the nearest entry, marked weak.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..curated import archive
from ..curated.entries import TARGETS
from ..curated.fold import Archived
from ..curated.snapshot import display_entry
from ..curated.view import MemoryView
from ..sessions.search.floor import Strength
from ..tooling import ranked_listing
from .text_search import EmbedderLoader, rank_texts

__all__ = [
    "ArchiveHit",
    "ArchiveSearch",
    "archive_json",
    "item_dict",
    "removed_by_text",
    "search_archive",
]


def item_dict(item: Archived, level: str | None = None, *, full: bool = True) -> dict[str, Any]:
    """The JSON form of an archived entry as people and models read it: times in UTC, a
    blocked text as its placeholder only (``full``: its provenance too)."""
    out = item.as_dict()
    if item.text is not None:
        out["text"] = display_entry(item.target, item.text, level)[0]
    out["archived"] = _when(item.archived_at)
    out["created_at"] = _when(item.provenance.created)
    if not full:
        return {
            k: out[k]
            for k in ("id", "target", "text", "reason", "archived", "created_at", "removed_by")
        }
    return out


def removed_by_text(by: dict[str, Any]) -> str:
    """Who removed an archived entry, as people read it: ``model / agent, session S``
    (the ``removed_by`` of :func:`item_dict`; parts that are unknown are left out)."""
    who = " / ".join(str(by[k]) for k in ("actor", "origin") if by.get(k))
    if by.get("session"):
        who += f", session {by['session']}"
    return who or "unknown"


def archive_json(
    view: MemoryView,
    target: str | None = None,
    *,
    limit: int | None = None,
    for_model: bool = False,
) -> dict[str, Any]:
    """The archive (of ``target``, or both) as people and clients read it, newest first:
    ``count`` (all of them) and ``entries`` (the newest ``limit``; every one when
    ``None``), each as :func:`item_dict` gives it (``mnemic memory archive list --json``,
    the MCP resources ``mnemic://archive``, ``mnemic://memory/archive``...). A memory
    file that could not be read is named in ``not_read`` (its file and why, worded for a
    model with ``for_model``), and the rest is listed."""
    found = archive.archive_listing(view, target)
    items = found.items
    shown = items if limit is None else items[:limit]
    out: dict[str, Any] = {
        "count": len(items),
        "entries": [item_dict(a, view.level) for a in shown],
    }
    if found.unread:
        out["not_read"] = [
            {
                "file": getattr(exc, "path", None),
                "error": archive.unread_note(exc.to_llm() if for_model else exc.to_human()),
            }
            for exc in found.unread
        ]
    if len(shown) < len(items):
        out["note"] = (
            f"The newest {len(shown)} of {len(items)}; find older ones with the memory "
            'tool\'s action="archive_search" or `mnemic memory archive list`.'
        )
    return out


def _when(t: float | None) -> str | None:
    return None if t is None else time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(t))


@dataclass(frozen=True)
class ArchiveHit:
    """One archived entry that matched, how well, and why."""

    item: Archived
    text: str
    score: float
    matched: tuple[str, ...]

    def to_dict(self, level: str | None = None) -> dict[str, Any]:
        """JSON-able form."""
        return {
            **item_dict(self.item, level, full=False),
            "score": round(self.score, 4),
            "matched": list(self.matched),
        }


@dataclass(frozen=True)
class ArchiveSearch:
    """The ranked hits, the mode that ran, why another mode could not (or None), the
    floor's verdict (None: no floor applies) and whether nothing cleared it."""

    hits: list[ArchiveHit] = field(default_factory=list)
    retrieval: str = "lexical"
    notice: str | None = None
    level: str | None = None
    strength: Strength | None = None
    no_good_match: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        hits = [h.to_dict(self.level) for h in self.hits]
        return ranked_listing(
            self.retrieval,
            hits,
            self.notice,
            match=self.strength.to_dict() if self.strength else None,
            weak_in="the archive" if self.no_good_match else None,
        )


def search_archive(
    view: MemoryView,
    query: str,
    *,
    mode: str | None = None,
    targets: Sequence[str] = TARGETS,
    limit: int = 5,
    embedder_loader: EmbedderLoader | None = None,
    floor: bool = True,
    for_model: bool = False,
) -> ArchiveSearch:
    """The archived entries of ``targets`` that best match ``query`` (modes and floor as
    :func:`~mnemic.ops.memory_search.search_memory`). A memory file that could not be
    read is named in the notice (worded for a model with ``for_model``) and the archive
    is searched without it."""
    items: list[tuple[Archived, str]] = []
    found = archive.archive_listing(view)
    for item in found.items:
        if item.target not in targets or item.text is None:
            continue
        shown, blocked = display_entry(item.target, item.text, view.level)
        if not blocked:
            items.append((item, shown))
    ranked = rank_texts(
        query,
        [t for _, t in items],
        mode=mode,
        limit=limit,
        embedder_loader=embedder_loader,
        floor=floor,
    )
    hits = [
        ArchiveHit(items[h.index][0], items[h.index][1], h.score, h.matched) for h in ranked.hits
    ]
    unread = [
        archive.unread_note(exc.to_llm() if for_model else exc.to_human()) for exc in found.unread
    ]
    notice = " ".join([*unread, *filter(None, [ranked.notice])])
    return ArchiveSearch(
        hits, ranked.retrieval, notice or None, view.level, ranked.strength, ranked.no_good_match
    )
