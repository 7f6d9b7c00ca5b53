"""Tidy proposals for a home's memory as it is now: :func:`propose`.

It reads each target once (entries and provenance: :meth:`MemoryView.listing`), embeds
the entries when the ``semantic`` extra loads (cached per process and in the home's
vector cache, as memory search does; without it the judgement is lexical and says so
only when asked for meaning),
plans offline (:func:`.plan.plan`) and, given a model client, asks it for better
wording of merges and long entries (:func:`.wording.reword`). Nothing is written: staging
is :func:`.queue.stage`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from ...curated.entries import TARGETS
from ...curated.snapshot import sanitize
from ...curated.view import MemoryView
from ...embedding.vector_cache import VectorCache
from ...errors import MnemicError, StorageError
from ...llm.client import ChatClient
from ..text_search import EmbedderLoader, loader_cache, passage_vectors
from .model import TidyProposal, TidyReport
from .pairmodel import PairModel, PairModelError, pair_model
from .plan import plan
from .thresholds import THRESHOLDS, Thresholds
from .wording import reword

__all__ = ["propose"]

log = logging.getLogger(__name__)


def _embedder(loader: EmbedderLoader | None, notices: list[str]) -> Any:
    """The embedder, or None (quietly when the optional extra is simply not installed)."""
    if loader is None:
        return None
    try:
        return loader()
    except ImportError:
        return None
    except MnemicError as exc:
        if getattr(exc, "code", "") != "semantic_extra_missing":
            notices.append(f"{exc.to_llm()} Entries were compared by their words only.")
        return None


def _cosines(
    embedder: Any,
    entries: Sequence[str],
    cache: VectorCache | None = None,
    scope: str | None = None,
) -> list[list[float]]:
    vectors = passage_vectors(embedder, entries, cache=cache, scope=scope)
    return [[float(a @ b) for b in vectors] for a in vectors]


def propose(
    memory: MemoryView,
    *,
    targets: Sequence[str] = TARGETS,
    embedder_loader: EmbedderLoader | None = None,
    client: ChatClient | None = None,
    timeout: float | None = None,
    now: float | None = None,
    thresholds: Thresholds = THRESHOLDS,
) -> TidyReport:
    """What tidy proposes for ``targets`` of ``memory`` now (see the module docstring).

    ``embedder_loader`` (e.g. :func:`mnemic.sessions.embedder_loader_for`) lets meaning
    count beside words; ``client`` words merges and long entries (``timeout`` per call).
    ``now`` is the time staleness is measured at (default: the memory's clock). A
    target that cannot be read is left out with a notice. Never writes.
    """
    notices: list[str] = []
    embedder = _embedder(embedder_loader, notices)
    learned: PairModel | bool
    try:
        learned = pair_model()
    except PairModelError as exc:  # a changed or missing file: the rules alone, said so
        notices.append(f"{exc}. Tidy used its rules alone.")
        learned = False
    when = memory.now() if now is None else now
    settings = memory.settings.memory
    out: list[TidyProposal] = []
    for target in targets:
        try:
            listing = memory.listing(target)
        except StorageError as exc:
            notices.append(f"{target}: not tidied, it cannot be read: {exc.to_human()}")
            continue
        entries = list(listing.entries)
        blocked = frozenset(i for i, _, _ in sanitize(target, entries, memory.level).blocked)
        cosines = None
        if embedder is not None and len(entries) > 1:
            try:
                scope = f"tidy {memory.settings.scope} {target}"
                cosines = _cosines(embedder, entries, loader_cache(embedder_loader), scope)
            except Exception as exc:  # a failing model degrades to words, never to an error
                log.warning("tidy: embedding failed: %s", exc)
                notices.append(
                    f"The embedder failed ({type(exc).__name__}: {exc}); entries were "
                    "compared by their words only."
                )
                embedder = None
        out += plan(
            target,
            entries,
            [p.last_touched for p in listing.provenance],
            now=when,
            stale_after_days=settings.stale_after_days,
            verbose_chars=settings.verbose_chars,
            cosines=cosines,
            learned=learned,
            skip=blocked,
            thresholds=thresholds,
        )
    if client is not None and out:
        out, more = reword(out, client, timeout=timeout)
        notices += more
    return TidyReport(out, "semantic" if embedder is not None else "lexical", notices)
