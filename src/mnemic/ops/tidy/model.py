"""What tidy proposes: :class:`TidyProposal` (one batch a person approves or not) and
:class:`TidyReport` (the proposals of one run, and what the run could not do)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from ...curated.entries import preview
from ...curated.provenance import entry_key
from ...curated.store import Op

__all__ = ["KINDS", "TidyProposal", "TidyReport"]

KINDS = ("merge", "supersede", "stale", "verbose")
"""``merge``: near-duplicates become one entry; ``supersede``: a newer entry replaces
the ones it contradicts; ``stale``: an entry untouched for ``[memory] stale_after_days``
goes; ``verbose``: a long entry gets a shorter wording."""


@dataclass(frozen=True, slots=True)
class TidyProposal:
    """One proposed change to one target: the entries it concerns, the batch of
    operations that carries it out, and why.

    The operations name every entry by its ``entry:<hash>`` handle, so approving the
    batch later applies only to these exact texts: an entry edited in the meantime no
    longer matches and the approval is refused, memory unchanged. The entry that stays
    is named too (replaced by itself, or by the merged wording), so a batch whose kept
    entry has gone is refused rather than dropping the others."""

    kind: str
    target: str
    entries: tuple[str, ...]
    """The entries it concerns, the one kept first (merge, supersede)."""
    ops: tuple[Op, ...]
    """The batch (empty: advice only, nothing to stage: a long entry with no shorter
    wording found offline)."""
    reasons: tuple[str, ...]
    result: str | None = None
    """The text that stays: kept, merged or shortened (None: the entry just goes)."""
    wording: str = "offline"
    """Who wrote ``result``: ``offline`` (an entry kept as it is, or a mechanical
    shortening) or ``llm`` (the configured model, checked to keep every value)."""

    @property
    def fingerprint(self) -> str:
        """Names the proposal by what it is about (kind, target, the entries' texts),
        not its wording: the same tidy found twice has the same fingerprint."""
        keys = sorted(entry_key(e) for e in self.entries)
        text = json.dumps([self.kind, self.target, keys])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]

    @property
    def stageable(self) -> bool:
        """Whether there is a batch to stage (advice only otherwise)."""
        return bool(self.ops)

    @property
    def summary(self) -> str:
        """One line for a person."""
        first = preview(self.entries[0], 60)
        if self.kind == "merge":
            into = preview(self.result or first, 60)
            return f"merge {len(self.entries)} near-duplicate entries into: {into}"
        if self.kind == "supersede":
            olds = len(self.entries) - 1
            return f"keep the newer entry '{first}', drop {olds} it contradicts"
        if self.kind == "stale":
            return f"drop the stale entry '{first}'"
        after = f" ({len(self.entries[0])} -> {len(self.result)} chars)" if self.result else ""
        return f"shorten '{first}'{after}"

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        ops = []
        for op in self.ops:
            item = {"action": op.action, "old_text": op.old_text}
            if op.content is not None:
                item["content"] = op.content
            ops.append(item)
        return {
            "id": self.fingerprint,
            "kind": self.kind,
            "target": self.target,
            "summary": self.summary,
            "entries": list(self.entries),
            "result": self.result,
            "reasons": list(self.reasons),
            "wording": self.wording,
            "stageable": self.stageable,
            "operations": ops,
        }


@dataclass(frozen=True)
class TidyReport:
    """The proposals of one tidy run, in file order per target, and its notices."""

    proposals: list[TidyProposal] = field(default_factory=list)
    retrieval: str = "lexical"
    """``semantic`` when the embedder judged meaning too, else ``lexical``."""
    notices: list[str] = field(default_factory=list)
    """What the run could not do (the embedder missing, the model failing...)."""

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "retrieval": self.retrieval,
            "notices": list(self.notices),
            "proposals": [p.as_dict() for p in self.proposals],
        }
