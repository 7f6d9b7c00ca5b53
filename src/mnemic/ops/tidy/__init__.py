"""Tidy: proposals to merge near-duplicates, supersede contradicted entries, drop stale
ones and shorten long ones. Never a silent change: each proposal is one batch in the
approval queue, applied (through :meth:`~mnemic.curated.memory.Memory.apply`) only when
a person approves it.

- :func:`propose` (:mod:`.proposals`): the proposals for a home's memory as it is now
  (offline; the embedder when the ``semantic`` extra loads; a model for the wording
  when given one);
- :func:`stage` (:mod:`.queue`): into the pending queue, never twice, never one a person
  rejected;
- :func:`tidy_stores` (:mod:`.stores`): both over several stores (the global one and
  each project store: :func:`mnemic.curated.scope.every_store`), each store's
  proposals in its own queue;
- :func:`plan` (:mod:`.plan`): the offline planning of one target's entries, which
  ``bench/tidy.py`` measures; :mod:`.detect` and :mod:`.signals`: how pairs are judged.

``mnemic memory tidy``, the console's Tidy page and the background review are thin
shells over these. See ``docs/lifecycle.md``.
"""

from __future__ import annotations

from .model import KINDS, TidyProposal, TidyReport
from .plan import plan
from .proposals import propose
from .queue import Staged, declined, stage, waiting, waiting_in
from .stores import StoreTidy, tidy_stores
from .thresholds import THRESHOLDS, Thresholds

__all__ = [
    "KINDS",
    "THRESHOLDS",
    "Staged",
    "StoreTidy",
    "Thresholds",
    "TidyProposal",
    "TidyReport",
    "declined",
    "plan",
    "propose",
    "stage",
    "tidy_stores",
    "waiting",
    "waiting_in",
]
