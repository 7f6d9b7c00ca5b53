"""Changes of MEMORY.md / USER.md that have no audit record of their own, recorded after the fact.

A commit's audit record is written under the target's lock right after the rename that
commits the data, and flushed to disk in the background (:mod:`mnemic.backends.files.flusher`).
So a crash can leave a committed change without its record: a process killed between
the rename and the append, or a power cut before the flush. A hand edit leaves one too.

Whoever next holds the target's lock repairs that: the next write (its commit record is
preceded, in the same append, by a ``recovered`` record), or :func:`reconcile` (``mnemic
memory doctor --fix``). The ``recovered`` record goes from the state the last record left
to the state found, and says its ``cause``, inferred from the history, which a mnemic
commit always feeds before it renames (the previous text becomes the newest version; a
write that dies before its rename leaves no version: see
:meth:`mnemic.backends.files.curated.FileBackend._committed`).
The kept versions are read newest first (the current write's own left out):

- ``lost_record``: one is the state the last record left, and every newer one is the
  start of a later mnemic commit: the changes are commits whose records crashes lost
  (one, or several in a row);
- ``outside_edit``: the version the last record's own commit kept (the state it started
  from) comes first, or, when that is not known, the newest is another state: the file
  was changed by something that keeps no history (a hand edit, another tool);
- ``unknown``: no history to tell by (``history_limit = 0``, the file did not exist at
  the last record, the versions that would tell were dropped, or one cannot be read).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from ..errors import MnemicError
from ..governance.chain import Explain, Origin
from ..governance.governor import Governor
from .backend import CuratedBackend, version_text
from .changes import entry_key
from .entries import TARGETS, parse
from .store import file_hash

__all__ = ["NOT_COMMITTED", "REPLAYED", "explainer", "found_entries", "listed", "reconcile"]


def explainer(backend: CuratedBackend, wrote: Collection[str]) -> Explain:
    """The ``explain`` of a commit that wrote the targets in ``wrote`` (each of which
    then has its own previous text as the newest history version)."""

    def explain(
        target: str, recorded: str | None, found: str | None, came_from: Origin | None
    ) -> dict[str, Any]:
        if came_from is not None and recorded != came_from.state and found == came_from.state:
            # back at the state the last record started from: that record's write never
            # renamed its text into place (killed between its record and its rename)
            return {"cause": NOT_COMMITTED}
        cause = _cause(backend, target, recorded, came_from)
        return {"cause": cause, "changes": {target: {"found": found_entries(backend, target)}}}

    return explain


NOT_COMMITTED = "not_committed"
"""The cause of a ``recovered`` record saying that the last record of its target was
never committed (see ``docs/ARCHITECTURE.md``, "The one durable record")."""


REPLAYED = "replayed"
"""The cause of a ``recovered`` record saying that a power cut lost the text of writes
made durable by their records alone (``[memory] durability = "journal"``), and that
the text was rebuilt from them as the last record left it (found: the text the cut left)."""


def found_entries(backend: CuratedBackend, target: str) -> list[dict[str, str]]:
    """Every entry of ``target`` now, with its key, as a ``recovered`` record lists them
    (``found``): a fold tells what the change added and removed from what it knew."""
    try:
        raw = backend.read(target)
    except MnemicError:
        return []
    return listed(parse(raw) if raw is not None else [])


def listed(entries: Iterable[str]) -> list[dict[str, str]]:
    """``entries`` as a record lists them: ``{"key", "text"}`` each."""
    return [{"key": entry_key(e), "text": e} for e in entries]


def _cause(
    backend: CuratedBackend,
    target: str,
    recorded: str | None,
    came_from: Origin | None,
) -> str:
    if recorded is None:
        return "unknown"
    try:
        # A commit's record goes before its rename: the version the commit itself just
        # linked is still the current file, which history() does not list.
        versions = backend.history(target)
        for version in reversed(versions):
            kept = file_hash(version_text(backend, target, version.id))
            if kept == recorded:
                return "lost_record"  # and any newer version: later commits, also lost
            if came_from is None or kept == came_from.state:
                return "outside_edit"  # back at the last record, or nothing to go back by
    except MnemicError:
        return "unknown"
    return "unknown"


def reconcile(
    backend: CuratedBackend,
    gov: Governor | None,
    targets: Collection[str] = TARGETS,
    *,
    lock_timeout: float,
) -> list[dict[str, Any]]:
    """Record, under each target's lock (waited for up to ``lock_timeout``), a change of
    ``backend``'s targets that has no audit record of its own in ``gov``'s journal.

    Returns the ``recovered`` records appended (none when the journal accounts for every
    change, or when the memory is not governed: ``gov`` is None).
    """
    if gov is None:
        return []
    out: list[dict[str, Any]] = []
    for target in sorted(targets):
        with backend.transaction([target], lock_timeout) as txn:
            found = {target: file_hash(txn.read(target))}
            ctx = gov.context
            out += gov.journal.reconcile(
                found,
                explainer(backend, ()),
                first_seen=lambda t: found_entries(backend, t),
                subsystem="memory",
                session=ctx.session_id,
                origin=ctx.origin,
            )
    return out
