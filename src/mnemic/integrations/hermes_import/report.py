"""What an import of a Hermes home did (or, in a dry run, would do), part by part."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PREVIEW", "Note", "PartReport", "preview"]

PREVIEW = 80
"""Characters of an entry's text a report shows."""


def preview(text: str) -> str:
    """The first line of ``text``, cut to :data:`PREVIEW` characters."""
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= PREVIEW and "\n" not in text.strip() else line[:PREVIEW] + "..."


@dataclass(frozen=True, slots=True)
class Note:
    """One item worth naming in the report: blocked, rejected, over budget, staged..."""

    outcome: str
    where: str
    """``memory``/``user``, a skill, a file and line."""
    what: str
    """A preview of the text, or a file name."""
    why: str = ""

    def as_dict(self) -> dict[str, str]:
        """JSON-able form."""
        return {"outcome": self.outcome, "where": self.where, "what": self.what, "why": self.why}


@dataclass
class PartReport:
    """One part of the Hermes home: how many items had each outcome, and the notable ones.

    Outcomes (the same words in a dry run, where they say what would happen):
    ``added``, ``staged`` (in the approval queue), ``archived``, ``over_budget`` (into
    the archive: they did not fit), ``present`` (imported before, or already there),
    ``blocked`` (the threat scan refused it), ``rejected`` (no entry or skill may hold
    it), ``refused`` (the approval policy or the store refused it), ``conflict`` (a
    different skill or file of that name is there), ``skipped`` (left out, with why)."""

    path: str | None
    """The file or folder read (``None``: the part is missing from the home)."""
    counts: Counter[str] = field(default_factory=Counter)
    notes: list[Note] = field(default_factory=list)

    NOTED = ("blocked", "rejected", "refused", "over_budget", "staged", "conflict", "skipped")

    def count(self, outcome: str, where: str = "", what: str = "", why: str = "") -> None:
        """Count one item; the notable outcomes are named."""
        self.counts[outcome] += 1
        if outcome in self.NOTED:
            self.notes.append(Note(outcome, where, what, why))

    @property
    def missing(self) -> bool:
        """Whether the home has no such part."""
        return self.path is None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "path": self.path,
            "missing": self.missing,
            "counts": dict(sorted(self.counts.items())),
            "notes": [n.as_dict() for n in self.notes],
        }
