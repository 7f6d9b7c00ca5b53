"""Skills ranked for a query by words and meaning (``skills_list`` with a ``query``).

The ranking itself is not done here: the ranker is given (a :class:`TextRanker`, in
practice :func:`mnemic.ops.text_search.text_ranker`, the ranker memory search uses), so
this layer needs neither the session index's segmentation nor the embedder. What is
decided here is what a skill is searched by and which skills can be found at all:

* a skill is searched by its name (hyphens read as spaces), description, category and
  tags (:func:`skill_text`);
* only *usable* skills are ranked: a skill that cannot be read, has invalid front matter
  or whose name or description the threat scan flags is never searched or shown, the rule
  of the index and of the plain listing; such skills are counted as ``withheld``.

Below the ranker's floor (semantic and hybrid: nothing near the query in words or
meaning) the ranking keeps the nearest skill only and the answer says "no good match",
marking it weak.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import InvalidArgument
from ..tooling import ranked_search
from .store import SkillInfo

__all__ = [
    "RankedText",
    "Ranking",
    "SkillHit",
    "SkillSearch",
    "TextRanker",
    "Verdict",
    "rank_skills",
]


class RankedText(Protocol):
    """One ranked text: its position among the texts given, score and what matched."""

    @property
    def index(self) -> int: ...  # pragma: no cover

    @property
    def score(self) -> float: ...  # pragma: no cover

    @property
    def matched(self) -> tuple[str, ...]: ...  # pragma: no cover


class Verdict(Protocol):
    """The floor's verdict on a ranking (:class:`mnemic.sessions.search.floor.Strength`)."""

    @property
    def good(self) -> bool: ...  # pragma: no cover

    def to_dict(self) -> dict[str, Any]: ...  # pragma: no cover


class Ranking(Protocol):
    """What a ranker returns (:class:`mnemic.ops.text_search.TextRanking` fits)."""

    @property
    def strength(self) -> Verdict | None: ...  # pragma: no cover

    @property
    def no_good_match(self) -> bool: ...  # pragma: no cover

    @property
    def hits(self) -> Sequence[RankedText]: ...  # pragma: no cover

    @property
    def retrieval(self) -> str: ...  # pragma: no cover

    @property
    def notice(self) -> str | None: ...  # pragma: no cover


class TextRanker(Protocol):
    """Ranks ``texts`` for ``query``; raises ``InvalidArgument`` for a bad mode or limit."""

    def __call__(
        self, query: str, texts: Sequence[str], *, mode: str | None = ..., limit: int = ...
    ) -> Ranking: ...  # pragma: no cover


@dataclass(frozen=True)
class SkillHit:
    """A skill that matched the query, its score and what matched (lexical, semantic)."""

    info: SkillInfo
    score: float
    matched: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: name, category (if any), description, score, matched."""
        out: dict[str, Any] = {"name": self.info.name}
        if self.info.category:
            out["category"] = self.info.category
        out["description"] = self.info.description
        out["score"] = round(self.score, 4)
        out["matched"] = list(self.matched)
        return out


@dataclass(frozen=True)
class SkillSearch:
    """The ranked skills, the mode that ran, why another could not, the skills withheld."""

    hits: list[SkillHit] = field(default_factory=list)
    retrieval: str = "lexical"
    notice: str | None = None
    withheld: int = 0
    """Unusable skills (unreadable, invalid, flagged by the safety scan) not searched."""
    strength: Verdict | None = None
    """The floor's verdict and its signals (None: no floor applies)."""
    no_good_match: bool = False
    """Nothing cleared the floor: the one hit is the nearest skill, weak."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        out = ranked_search(self, [h.to_dict() for h in self.hits], "the skills")
        if self.withheld:
            out["withheld"] = self.withheld
        return out


def skill_text(info: SkillInfo) -> str:
    """What a skill is searched by: name (hyphens as spaces), description, category, tags."""
    parts = [f"{info.name.replace('-', ' ')}: {info.description}"]
    if info.category:
        parts.append(f"Category: {info.category}.")
    tags = info.front.tags if info.front else ()
    if tags:
        parts.append(f"Tags: {', '.join(tags)}.")
    return " ".join(parts)


def rank_skills(
    infos: Sequence[SkillInfo],
    query: str,
    ranker: TextRanker,
    *,
    mode: str | None = None,
    limit: int = 5,
) -> SkillSearch:
    """The usable skills of ``infos`` that best match ``query`` (see the module docstring).

    Raises ``InvalidArgument`` for an empty query (and, from the ranker, for an unknown
    mode or a ``limit`` below 1). A mode that cannot run answers lexically with a notice.
    """
    if not isinstance(query, str) or not query.strip():
        raise InvalidArgument(
            "query",
            "The query is empty: give words or a short description of the task, e.g. "
            '"make my charts look nicer".',
        )
    usable = [i for i in infos if i.usable]
    ranking = ranker(query, [skill_text(i) for i in usable], mode=mode, limit=limit)
    hits = [SkillHit(usable[h.index], h.score, tuple(h.matched)) for h in ranking.hits]
    return SkillSearch(
        hits,
        ranking.retrieval,
        ranking.notice,
        len(infos) - len(usable),
        ranking.strength,
        ranking.no_good_match,
    )
