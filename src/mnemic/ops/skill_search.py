"""Find skills by words and meaning: what ``mnemic skills search`` calls.

The skills are ranked by :func:`mnemic.ops.text_search.rank_texts` (the ranker of memory
search) through :func:`mnemic.skills.search.rank_skills`, the same path as the
``skills_list`` tool's ``query``: only usable skills are searched (a skill the safety
scan flags is never shown), and a mode that cannot run answers lexically with a notice.
"""

from __future__ import annotations

from ..skills.search import SkillSearch, rank_skills
from ..skills.store import SkillStore
from .text_search import EmbedderLoader, text_ranker

__all__ = ["search_skills"]


def search_skills(
    store: SkillStore,
    query: str,
    *,
    mode: str | None = None,
    limit: int = 5,
    category: str | None = None,
    embedder_loader: EmbedderLoader | None = None,
    floor: bool = True,
) -> SkillSearch:
    """The usable skills of ``store`` (of ``category``, if given) that best match ``query``.

    ``mode`` is ``lexical``, ``semantic``, ``hybrid`` or None (hybrid when the embedder
    loads, else lexical). Below the floor of short texts only the nearest skill is kept,
    marked weak (``floor=False``: all of them). Raises ``InvalidArgument`` for an empty
    query, an unknown mode or a ``limit`` below 1.
    """
    infos = store.skills()
    if category is not None:
        infos = [i for i in infos if (i.category or "") == category]
    ranker = text_ranker(embedder_loader, floor=floor)
    return rank_skills(infos, query, ranker, mode=mode, limit=limit)
