"""Move one MEMORY.md entry between the global store and a project's (``mnemic memory move``).

A fact learned in one repository often turns out to hold everywhere ("the user signs
commits with SSH keys"), and a global fact sometimes belongs to one project only. A move
is two recorded writes through :meth:`~mnemic.curated.memory.Memory.apply`, one per
store, each under its own lock and journal (docs/lifecycle.md, Scopes):

1. the entry is **added** to the destination: its budget, the threat scan and the
   approval gate apply as to any write, and its ``expires`` time travels with it. A
   refusal (it does not fit, a scan verdict) or a staged write stops the move there:
   the source keeps the entry and nothing was removed;
2. then it is **removed** from the source, into the source's archive with reason
   ``moved`` (so the source's archive says where it went, and ``archive restore``
   brings it back there).

The two stores have no common commit, so the order is chosen for the crash between
the steps: the entry is then in both stores (a duplicate, never a loss); running the
move again finishes it (the add is a no-op, the remove happens). USER.md is global
only, so only MEMORY.md entries move.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..curated.entries import find_entry
from ..curated.memory import Memory, WriteResult
from ..curated.operations import Op
from ..curated.scope import SCOPES, open_project
from ..errors import InvalidArgument, MnemicError, NoMatch, ProjectScopeError
from ..home import Home

__all__ = ["MoveResult", "move_entry"]

TARGET = "memory"


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What a move did: the entry, where it went, and each store's write."""

    entry: str
    source: str
    """``global`` or ``project DIR``."""
    destination: str
    added: WriteResult
    removed: WriteResult | None
    """``None`` when the move stopped after the add (it was staged for approval)."""

    @property
    def done(self) -> bool:
        """The entry is in the destination and no longer in the source."""
        return self.removed is not None

    def message(self) -> str:
        """One paragraph for a person: what moved, or why the source still has it."""
        if not self.done:
            return (
                f"The add to the {self.destination} memory waits for approval "
                f"({self.added.pending_id}); the entry stays in the {self.source} memory "
                "until it is approved. Run the move again after approving it."
            )
        return (
            f"Moved to the {self.destination} memory; the {self.source} memory keeps it in "
            f"its archive (reason moved). {_first_upper(self.destination)}: "
            f"{self.added.usage.line()}. {_first_upper(self.source)}: "
            f"{self.removed.usage.line() if self.removed else ''}."
        )


def _first_upper(name: str) -> str:
    """``name`` with its first letter capitalised and the rest as it is (a project's
    directory keeps its case: ``str.capitalize`` would lower it)."""
    return name[:1].upper() + name[1:]


def move_entry(
    home: Home,
    project: str | os.PathLike[str],
    selector: str,
    *,
    to: str,
    origin: str = "cli",
) -> MoveResult:
    """Move the MEMORY.md entry ``selector`` designates (whole text, ``entry:<hex>``
    handle, or a unique substring, as ``memory remove`` takes) from one scope to the
    other: ``to="global"`` from ``project``'s store, ``to="project"`` into it (created
    on first use). Raises the refusals of the add (nothing changed) or of the lookup
    (:class:`~mnemic.errors.NoMatch`, :class:`~mnemic.errors.AmbiguousMatch`)."""
    if to not in SCOPES:
        raise InvalidArgument("to", f"Unknown scope {to!r}; move to one of {SCOPES}.")
    glob = Memory.open(home, origin=origin)
    where = open_project(home, project)  # the directory checked, nothing made
    src = glob if to == "project" else Memory.open(where, origin=origin)
    pairs = src.provenance(TARGET)
    entries = [e for e, _ in pairs]
    try:
        index = find_entry(entries, selector, TARGET)
    except NoMatch:
        if src is glob:
            _refuse_a_user_entry(glob, selector)
        raise
    dst = glob if to == "global" else Memory.open(where, origin=origin)  # made by its add
    proj = src if to == "global" else dst
    names = {id(glob): "global", id(proj): f"project {proj.project}"}
    entry, prov = pairs[index]
    add = Op("add", entry, None, expires=prov.expires)
    added = dst.apply(TARGET, [add])
    if added.staged:
        return MoveResult(entry, names[id(src)], names[id(dst)], added, None)
    removed = src.apply(TARGET, [Op("remove", None, entry)], reasons={entry: "moved"})
    return MoveResult(entry, names[id(src)], names[id(dst)], added, removed)


def _refuse_a_user_entry(glob: Memory, selector: str) -> None:
    """Refuse a move whose ``selector`` names a USER.md entry (it matched no MEMORY.md
    one): the profile is global only. The lookup's own refusal said the entry was
    mistyped or gone, while it is live in the other file."""
    try:
        find_entry(glob.entries("user"), selector, "user")
    except MnemicError:  # none (or several): the MEMORY.md refusal stands
        return
    raise ProjectScopeError(
        "user_is_global",
        f"{selector.strip()[:60]!r} names a USER.md entry: the user profile is global only "
        "(the user is the same person in every project), so it does not move. Nothing was "
        "changed. A move takes a MEMORY.md entry.",
    )
