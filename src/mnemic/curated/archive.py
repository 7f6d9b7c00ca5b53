"""The archive: every entry that left MEMORY.md or USER.md, kept out of the prompt.

Live entries and the archive together hold everything ever written (but what
``mnemic forget`` and ``[retention] archive_days`` dropped): a remove, the old text of
a replace, what a batch, an edit, a restore or an adopt dropped, and what a hand edit
dropped once mnemic saw it. The archive is folded from the audit journal (:mod:`.fold`),
whose record of a write is appended before the write commits, so an entry is archived
exactly when its removal commits. It never enters the system prompt: nothing here is
read by the snapshot.

:func:`listing` and :func:`show` read; :func:`restore` brings an entry back with an
``add`` through :meth:`~mnemic.curated.memory.Memory.apply` (the budget, the threat scan
and the approval gate apply; a refusal says what to drop). Search ranks the texts
(:mod:`mnemic.ops.archive_search`).
"""

from __future__ import annotations

from ..errors import InvalidArgument
from .entries import TARGETS, parse
from .fold import Archived
from .memory import Memory, WriteResult
from .operations import Op
from .store import check_target
from .view import MemoryView

__all__ = ["Archived", "listing", "restore", "show"]


def listing(view: MemoryView, target: str | None = None) -> list[Archived]:
    """The archived entries (of ``target``, or both), newest first.

    Read against the files as they are now: a change no record covers yet (a hand edit)
    already shows what it dropped (ids ``pending.<target>.<key>``), and the entries of a
    record that never committed are not listed (they are live)."""
    targets = TARGETS if target is None else (check_target(target),)
    fold = view.fold()
    if fold is None:
        return []
    hidden: set[str] = set()
    extra: list[Archived] = []
    for t in targets:
        raw = view.backend.read(t)
        seen = fold.view(t, raw, tuple(parse(raw)) if raw is not None else ())
        hidden.update(seen.voided)
        extra += seen.pending
    items = [a for a in fold.archive.values() if a.target in targets and a.id not in hidden]
    items += extra
    items.sort(key=lambda a: (a.archived_at is None, a.archived_at or 0.0, _order(a.id)))
    items.reverse()
    return items


def _order(aid: str) -> tuple[int, int]:
    seq, _, n = aid.partition(".")
    return (int(seq), int(n)) if seq.isdigit() and n.isdigit() else (0, 0)


def show(view: MemoryView, item_id: str) -> Archived:
    """One archived entry by id; :class:`InvalidArgument` naming recent ids when there
    is no such entry."""
    items = listing(view)
    for item in items:
        if item.id == item_id:
            return item
    recent = ", ".join(a.id for a in items[:5]) or "none"
    raise InvalidArgument(
        "id",
        f"No archived entry {item_id!r} (the newest: {recent}). See `mnemic memory archive list`.",
    )


def restore(memory: Memory, item_id: str) -> WriteResult:
    """Bring an archived entry back into its target: an ``add`` of its text through
    :meth:`Memory.apply`, so the budget (the refusal lists the current entries to drop),
    the threat scan and the approval gate apply. A committed restore takes the entry
    out of the archive; an entry already live stays archived (nothing to add)."""
    item = show(memory, item_id)
    if item.text is None:
        raise InvalidArgument(
            "id", f"Archived entry {item_id} was forgotten: its text is gone for good."
        )
    return memory.apply(item.target, [Op("add", item.text)], restored={item.text: item.id})
