"""Tidy over several stores of a home: :func:`tidy_stores`.

``mnemic memory tidy`` looks at every store a user has (the global one and each project
store, :func:`mnemic.curated.scope.every_store`) unless told to look at one. Each
store is proposed for on its own (its entries are never compared with another store's)
and, when staging, its proposals go into its own approval queue, where approving them
applies them to that store (``mnemic pending list`` shows every store's queue, each
write naming its store).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...curated.memory import Memory
from ...curated.scope import ProjectHome
from ...curated.view import MemoryView
from ...home import Home
from ...llm.client import ChatClient
from ..text_search import EmbedderLoader
from .model import TidyReport
from .proposals import propose
from .queue import Staged, stage

__all__ = ["StoreTidy", "tidy_stores"]


@dataclass(frozen=True)
class StoreTidy:
    """One store's tidy run: which store, its proposals and what staging did."""

    store: Home
    """The global home, or a project's store (:class:`~mnemic.curated.scope.ProjectHome`)."""
    targets: tuple[str, ...]
    report: TidyReport
    staged: list[Staged] | None = None
    """What staging did with each proposal (``None``: the run did not stage)."""

    @property
    def project(self) -> str | None:
        """The project directory (``None``: the global store)."""
        if isinstance(self.store, ProjectHome):
            return self.store.project.path or self.store.project.id
        return None

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form: the store (``scope``, ``project`` directory and ``project_id``;
        both ``None`` for the global store), then the report, then what was staged."""
        pid = self.store.project.id if isinstance(self.store, ProjectHome) else None
        out: dict[str, Any] = {
            "scope": "global" if pid is None else "project",
            "project": self.project,
            "project_id": pid,
            **self.report.as_dict(),
        }
        if self.staged is not None:
            out["staged"] = [s.as_dict() for s in self.staged]
        return out


def tidy_stores(
    stores: Sequence[Home],
    *,
    targets: Sequence[str],
    embedder_loader: EmbedderLoader | None = None,
    client: ChatClient | None = None,
    timeout: float | None = None,
    do_stage: bool = False,
    origin: str = "cli",
) -> list[StoreTidy]:
    """Propose (:func:`.propose`) for ``targets`` of each store, and with ``do_stage``
    stage each store's proposals in that store's own queue (:func:`.stage`, as
    ``origin``). A project store has MEMORY.md only: ``user`` is left out for it, and a
    project store left with no target is passed over. Raises what :func:`.stage` raises
    (:class:`~mnemic.errors.WriteBlocked`)."""
    out: list[StoreTidy] = []
    for store in stores:
        mine = tuple(t for t in targets if t == "memory" or not isinstance(store, ProjectHome))
        if not mine:
            continue
        report = propose(
            MemoryView.open(store),
            targets=mine,
            embedder_loader=embedder_loader,
            client=client,
            timeout=timeout,
        )
        staged = None
        if do_stage:
            staged = stage(Memory.open(store, origin=origin), report.proposals)
        out.append(StoreTidy(store, mine, report, staged))
    return out
