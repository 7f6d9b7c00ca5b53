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
(:mod:`mnemic.ops.archive_search`). :func:`archive_texts` puts texts that were never live
here into the archive (an importer's: the archive of the agent it moves from, entries
over the budget), with a commit that changes no entry and records them as removed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InvalidArgument, MnemicError, StorageError, ThreatBlocked
from ..scan import rephrase_hint, scan_text
from .changes import REASONS, Removed, TargetChange, entry_key
from .entries import TARGETS, parse, validate_content
from .fold import Archived
from .memory import Memory, WriteResult
from .operations import Op
from .recovery import listed
from .store import check_target, file_hash
from .view import MemoryView

__all__ = [
    "ArchiveListing",
    "Archived",
    "archive_listing",
    "archive_texts",
    "age_key",
    "archived_keys",
    "archived_now",
    "check_text",
    "listing",
    "restore",
    "show",
    "typed_id",
    "unread_note",
]


@dataclass(frozen=True)
class ArchiveListing:
    """The archived entries, newest first, and the files that could not be read to list
    them (``unread``: their errors), which the listing went on without."""

    items: list[Archived]
    unread: tuple[StorageError, ...] = ()
    live: frozenset[tuple[str, str]] = frozenset()
    """``(target, entry)`` of the live entries of the files read (to tell an archived
    entry that was added back: :meth:`in_memory`)."""

    def in_memory(self, item: Archived) -> bool:
        """Whether ``item``'s text is a live entry of its file again: it was added back
        (the memory tool tells a model to bring an entry back by adding its text). The
        archive keeps it all the same: the archive is what left, folded from the journal,
        and an add is no restore (docs/lifecycle.md)."""
        return item.text is not None and (item.target, item.text) in self.live


def listing(view: MemoryView, target: str | None = None) -> list[Archived]:
    """The archived entries (of ``target``, or both), newest first (see
    :func:`archive_listing`, which also says which files could not be read)."""
    return archive_listing(view, target).items


def archive_listing(view: MemoryView, target: str | None = None) -> ArchiveListing:
    """The archived entries (of ``target``, or both), newest first.

    Read against the files as they are now: a change no record covers yet (a hand edit)
    already shows what it dropped (ids ``pending.<target>.<key>``), and the entries of a
    record that never committed are not listed (they are live) while those it took out
    (an archive restore killed before its rename) are. The archive is folded from the
    journal, so a file that cannot be read (not UTF-8, a NUL byte, a directory in its
    place) does not stop the listing: its archived entries are listed as the journal has
    them, without what a hand edit of it dropped, and its error is in ``unread``."""
    targets = TARGETS if target is None else (check_target(target),)
    fold = view.fold()
    if fold is None:
        return ArchiveListing([])
    hidden: set[str] = set()
    extra: list[Archived] = []
    unread: list[StorageError] = []
    live: set[tuple[str, str]] = set()
    for t in targets:
        try:
            raw = view.backend.read(t)
        except StorageError as exc:
            unread.append(exc)
            continue
        entries = tuple(parse(raw)) if raw is not None else ()
        live.update((t, e) for e in entries)
        seen = fold.view(t, raw, entries)
        hidden.update(seen.voided)
        extra += seen.pending
        extra += seen.unvoided
    items = [a for a in fold.archive.values() if a.target in targets and a.id not in hidden]
    items += extra
    items.sort(key=age_key)
    items.reverse()
    return ArchiveListing(items, tuple(unread), frozenset(live))


def age_key(item: Archived) -> tuple[bool, float, tuple[int, int]]:
    """The order of archived entries, oldest first (a listing sorts by it reversed):
    when each was archived (an entry with no time first), then its id's sequence."""
    return (item.archived_at is None, item.archived_at or 0.0, _order(item.id))


def unread_note(said: str) -> str:
    """What a listing of the archive says of a file it could not read: ``said``, the
    file's error as its reader reads it (``to_human``, ``to_llm`` or ``to_page``), and
    what the listing lacks without it."""
    return (
        f"{said} The archive is listed from the journal without that file: what a hand "
        "edit of it dropped is not shown."
    )


def _order(aid: str) -> tuple[int, int]:
    seq, _, n = aid.partition(".")
    return (int(seq), int(n)) if seq.isdigit() and n.isdigit() else (0, 0)


def typed_id(aid: str) -> str:
    """An archived entry's id as a person types it: ``27`` for the first entry a write
    took out (stored ``27.0``, which reads as a decimal number), ``27.1`` for its second;
    :func:`show` takes either form."""
    seq, dot, n = aid.partition(".")
    return seq if dot and n == "0" and seq.isdigit() else aid


def show(view: MemoryView, item_id: str) -> Archived:
    """One archived entry by id (the stored ``27.0`` or the typed ``27``, see
    :func:`typed_id`); :class:`InvalidArgument` naming recent ids when there is none."""
    items = listing(view)
    wanted = item_id.strip()
    for item in items:
        if wanted in (item.id, typed_id(item.id)):
            return item
    recent = ", ".join(typed_id(a.id) for a in items[:5]) or "none"
    raise InvalidArgument(
        "id",
        f"No archived entry {item_id!r} (the newest: {recent}; a restored entry leaves the "
        "archive). See `mnemic memory archive list`.",
    )


def archived_now(view: MemoryView, left: Sequence[tuple[str, str]]) -> list[str | None]:
    """The archive ids (as a person types them, :func:`typed_id`) of entries a write
    that committed just took out, each ``(target, text)``: the newest archived entry of
    that text in that file, which :func:`show` and :func:`restore` take. The id is the
    journal record's, so it is known only once the write committed; read back from the
    archive then (None: not found there, or the archive could not be read; a staged write
    took nothing out)."""
    if not left:
        return []
    try:
        items = listing(view)
    except MnemicError:
        return [None] * len(left)
    newest: dict[tuple[str, str], str] = {}
    for item in items:  # newest first
        newest.setdefault((item.target, item.key), typed_id(item.id))
    return [newest.get((t, entry_key(text))) for t, text in left]


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


def check_text(text: str, level: str | None = None) -> str:
    """``text`` stripped, if it may be kept as an entry: what the write path refuses
    raises the same error here (:class:`~mnemic.errors.ContentRejected` for text no
    entry may hold, :class:`~mnemic.errors.ThreatBlocked` for a threat at ``level``),
    whatever its length. The archive reaches the model (``archive_search``), so what
    enters it is scanned like a write."""
    content = validate_content(text)
    found = scan_text(content, "strict", level).findings
    if found:
        raise ThreatBlocked([(f.id, f.category) for f in found], hint=rephrase_hint(found))
    return content


def archived_keys(view: MemoryView, target: str) -> set[str]:
    """The keys (:func:`~mnemic.curated.changes.entry_key`) of the texts archived from
    ``target``, forgotten ones included (an importer does not bring them back)."""
    return {a.key for a in listing(view, check_target(target))}


def archive_texts(
    memory: Memory, target: str, texts: Sequence[str], reason: str, *, origin: str = "import"
) -> list[str]:
    """Put ``texts`` into the archive of ``target`` without making them live: one commit
    under the target's lock that leaves its text as it is and records the texts as
    removed for ``reason`` (one of :data:`~mnemic.curated.changes.REASONS`), so the
    archive folds them like any other entry that left memory (provenance unknown, when
    they were archived: now, who: this memory's session, as ``origin``).

    Every text is checked first (:func:`check_text`: a refusal raises and nothing is
    archived); texts live in ``target`` now, or given twice, are archived once or not at
    all. Returns the texts archived. Needs a governed memory (:meth:`Memory.open`): the
    archive is folded from its audit journal."""
    target = check_target(target)
    if reason not in REASONS:
        raise InvalidArgument("reason", f"Unknown archive reason {reason!r}; use one of {REASONS}.")
    if memory.governor is None:
        raise InvalidArgument(
            "memory", "Archiving needs a memory with an audit journal: open it with Memory.open."
        )
    wanted = list(dict.fromkeys(check_text(t, memory.level) for t in texts))
    if not wanted:
        return []
    with (
        memory.audited("archive", [target]) as attempt,
        memory.backend.transaction([target], memory.settings.memory.lock_timeout) as txn,
    ):
        assert attempt is not None
        before = txn.read(target)
        live = parse(before) if before is not None else []
        present = set(live)
        items = [t for t in wanted if t not in present]
        if not items:
            attempt.applied({target: file_hash(before)}, {target: file_hash(before)}, written=False)
            return []
        by = memory.author(origin)
        change = TargetChange(
            removed=tuple(Removed(entry_key(t), t, reason) for t in items),
            author=(by.actor, by.origin, by.session_id),
        )
        text = before if before is not None else ""

        def record() -> None:
            attempt.committing(
                {target: file_hash(before)},
                {target: file_hash(text)},
                {target: change.as_json()},
                lock_wait_ms=txn.lock_wait_ms,
                first_seen=lambda _: listed(live),
            )

        txn.write({target: text}, record=record)
        attempt.applied(
            {target: file_hash(before)},
            {target: file_hash(text)},
            written=True,
            lock_wait_ms=txn.lock_wait_ms,
        )
    return items
