"""``mnemic db copy``: move a home's memory into PostgreSQL and back, with verified counts.

Either side is a home directory (its files and ``sessions.db``) or a database URL (a
schema of it). Everything moves:

* the curated targets with their version history (ids, times and texts kept) and drift
  backups;
* the session history (sessions whose id the destination already has are left alone;
  message ids are the destination's own, their order inside each session is kept) and
  its tombstones (what ``mnemic forget --text`` removed stays out of later imports
  into the destination);
* the pending queue (records whose id the destination has are left alone);
* the audit journal, verbatim (so its chain still verifies), when the destination's is
  empty; otherwise it is left out and the report says so.

Project stores (``mnemic.curated.scope``) move with the global one: each project's
curated targets, pending queue and audit journal, under the same rules, counted as
``project DIR: ...`` (a files home's ``projects/<id>/`` directories, a database's rows
of that project and its catalog row). They have no session history of their own.

A target the destination already holds with different text stops the copy before
anything is written, unless ``overwrite`` (then the destination's versions of that
target are replaced by the source's). Afterwards every kind is counted again at the
destination and compared with the source; :attr:`CopyReport.verified` is true only if
everything that was to move is there.

``sessions_only`` (``db copy --sessions-only``) moves the session history alone (with
its tombstones and vectors): a third host whose home holds a memory of its own brings
its history into a team's schema, the team's memory untouched, and no clash stops it.

The source should be quiet while it is copied (no agent writing to it); the copy reads
each kind once, and a write in between is simply not part of the copy.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...curated.entries import FILENAMES, TARGETS
from ...errors import StorageError
from ...sessions.sql import SessionStore
from ...sessions.store import NewMessage, NewSession, SessionInfo
from .copy_sides import Kept, Side, open_side
from .copy_vectors import KindCount, Pairs, carry
from .db import mask_url

__all__ = ["CopyReport", "Kept", "Side", "copy_memory", "open_side"]

SUBSYSTEMS = ("memory", "skills")


@dataclass
class CopyReport:
    """What :func:`copy_memory` moved, and whether the destination verified."""

    source: str
    destination: str
    kinds: dict[str, KindCount] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        """Every kind that was to move is at the destination."""
        return all(k.ok for k in self.kinds.values())

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "source": self.source,
            "destination": self.destination,
            "verified": self.verified,
            "kinds": {
                name: {
                    "source": k.source,
                    "copied": k.copied,
                    "skipped": k.skipped,
                    "expected_at_destination": k.expected,
                    "found_at_destination": k.destination,
                    "ok": k.ok,
                }
                for name, k in self.kinds.items()
            },
            "notes": list(self.notes),
        }


# -- the copy ------------------------------------------------------------------------------


def _all_sessions(store: SessionStore) -> list[SessionInfo]:
    out: list[SessionInfo] = []
    offset = 0
    while True:
        page = store.list_sessions(limit=1000, offset=offset, order="started")
        out.extend(page)
        if len(page) < 1000:
            return out
        offset += len(page)


Store = tuple[str, Side, Side, list[tuple[str, Kept]], list[tuple[str, str]]]
"""(prefix of its kinds, source side, destination side, curated plan, pending ids)."""


def copy_memory(
    source: Side, destination: Side, *, overwrite: bool = False, sessions_only: bool = False
) -> CopyReport:
    """Copy everything from ``source`` to ``destination``; see the module docstring.
    With ``sessions_only``, the session history alone (sessions, tombstones, vectors):
    no curated memory, pending write or journal record of either side is read or
    written, so a host with a memory of its own can bring its history into a shared
    schema without replacing the team's memory."""
    report = CopyReport(mask_url(source.label), mask_url(destination.label))
    stores: list[Store] = []
    if not sessions_only:
        # 1. curated: check every target of every store before writing anything
        projects = sorted(source.projects().items())
        stores.append(("", source, destination, _plan(source, destination, overwrite), []))
        for pid, path in projects:
            mine, theirs = source.project(pid), destination.project(pid)
            plan = _plan(mine, theirs, overwrite)
            stores.append((f"project {path or pid}: ", mine, theirs, plan, []))
        for pid, path in projects:
            destination.add_project(pid, path)
    for prefix, mine, theirs, plan, wanted in stores:
        _copy_store(prefix, mine, theirs, plan, wanted, report)
    # 4. sessions
    sessions, messages = KindCount(), KindCount()
    src = source.sessions(create=False)
    dst = destination.sessions() if src is not None else None
    infos = _all_sessions(src) if src is not None else []
    sessions.source = sessions.expected = len(infos)
    messages.source = messages.expected = sum(i.message_count for i in infos)
    sent: dict[str, array[int]] = {}
    pairs: Pairs = []
    if src is not None and dst is not None and infos:

        def items() -> Iterator[tuple[NewSession, list[NewMessage]]]:
            assert src is not None
            for info in infos:
                spec = NewSession(
                    info.id, info.source, info.title, info.model, info.parent_id,
                    info.started_at, info.metadata,
                )  # fmt: skip
                msgs = src.messages(info.id)
                sent[info.id] = array("q", (m.id for m in msgs))
                held = src.attachments(m.id for m in msgs)  # the files: the home's, shared
                yield spec, [m.to_new(attachments=held.get(m.id, ())) for m in msgs]

        ended = {i.id: i for i in infos if i.ended_at is not None}
        for sid, ids, *_ in dst.import_sessions(items()):
            old_ids = sent.pop(sid, array("q"))
            if ids is None:
                sessions.skipped += 1
                continue
            if len(ids) == len(old_ids):  # else some were left out: no vectors carried
                pairs.append((old_ids, array("q", ids)))
            sessions.copied += 1
            messages.copied += len(ids)
            info = ended.get(sid)
            if info is not None:
                dst.end_session(sid, info.end_reason or "ended", ended_at=info.ended_at)
        messages.skipped = messages.source - messages.copied
    report.kinds["sessions"] = sessions
    report.kinds["messages"] = messages
    if src is not None and dst is not None:
        marks = src.tombstones()
        dst.keep_tombstones(marks)
        dst_marks = set(dst.tombstones())
        n = len(marks)
        report.kinds["tombstones"] = KindCount(n, n, 0, sum(m in dst_marks for m in marks), n)
        # 5. the vectors and the chat's words of the copied sessions' messages
        vectors, words = KindCount(), KindCount()
        carry(src, dst, pairs, vectors, words, report.notes)
        report.kinds["vectors"], report.kinds["message words"] = vectors, words
    for prefix, src_side, dst_side, _, wanted in stores:
        _verify_store(prefix, src_side, dst_side, wanted, report)
    _verify(source, destination, report, infos)
    return report


def _plan(source: Side, destination: Side, overwrite: bool) -> list[tuple[str, Kept]]:
    """What each curated target of ``source`` becomes at ``destination``; a target the
    destination holds with other text refuses the copy (unless ``overwrite``)."""
    plan: list[tuple[str, Kept]] = []
    for target in TARGETS:
        kept = source.kept(target)
        there = destination.current(target)
        clash = there is not None and there != kept.current
        if clash and not overwrite:
            raise StorageError(
                f"{destination.label} already holds a different {FILENAMES[target]}; nothing "
                "was copied. Copy into an empty destination, or pass --overwrite to replace "
                "its curated memory (its current text is then lost from there)."
            )
        plan.append((target, kept))
    return plan


def _copy_store(
    prefix: str,
    source: Side,
    destination: Side,
    plan: list[tuple[str, Kept]],
    wanted: list[tuple[str, str]],
    report: CopyReport,
) -> None:
    """Steps 1-3 for one store (the global one, or a project's): its curated targets as
    ``plan`` says, its pending writes (their ids added to ``wanted``), its journal."""
    for target, kept in plan:
        destination.put_target(target, kept)
        name = prefix + FILENAMES[target]
        for kind, n in ((name, int(kept.current is not None)),
                        (f"{name} versions", len(kept.versions)),
                        (f"{name} backups", len(kept.backups))):  # fmt: skip
            report.kinds[kind] = KindCount(n, n, 0, 0, n)
    # 2. pending writes
    pend = KindCount()
    for subsystem in SUBSYSTEMS:
        for record in source.pending(subsystem):
            pend.source += 1
            wanted.append((subsystem, record.id))
            if destination.put_pending(record):
                pend.copied += 1
            else:
                pend.skipped += 1
    pend.expected = len(wanted)
    report.kinds[f"{prefix}pending writes"] = pend
    # 3. the audit journal
    lines = source.journal_lines()
    audit = KindCount(len(lines))
    existing = destination.journal_lines()
    if not existing:
        if lines:
            destination.put_journal(lines)
        audit.copied = audit.expected = len(lines)
    elif existing[: len(lines)] == lines:
        audit.skipped = audit.expected = len(lines)
        report.notes.append(f"{prefix}the destination's audit journal already holds these records")
    else:
        audit.skipped = len(lines)
        report.notes.append(
            f"{prefix}the audit journal was not copied: the destination's holds "
            f"{len(existing)} other record(s), and a journal cannot be merged without "
            "breaking its chain"
        )
    report.kinds[f"{prefix}audit records"] = audit


def _verify_store(
    prefix: str,
    source: Side,
    destination: Side,
    wanted: list[tuple[str, str]],
    report: CopyReport,
) -> None:
    """Count one store's curated targets, pending writes and journal again at the
    destination."""
    for target in TARGETS:
        name = prefix + FILENAMES[target]
        current = destination.current(target)
        expected = source.current(target)
        report.kinds[name].destination = int(current is not None and current == expected)
        mine = {(seq, text) for seq, _, text in destination.versions(target)}
        theirs = {(seq, text) for seq, _, text in source.versions(target)}
        report.kinds[f"{name} versions"].destination = len(mine & theirs)
        report.kinds[f"{name} backups"].destination = min(
            len(destination.backups(target)), report.kinds[f"{name} backups"].expected
        )
    present = {(s, r.id) for s in SUBSYSTEMS for r in destination.pending(s)}
    report.kinds[f"{prefix}pending writes"].destination = sum(1 for w in wanted if w in present)
    audit = report.kinds[f"{prefix}audit records"]
    lines = destination.journal_lines()
    source_lines = source.journal_lines()
    audit.destination = audit.expected if lines[: len(source_lines)] == source_lines else 0
    if audit.expected and not destination.journal_ok():
        audit.destination = 0
        report.notes.append(f"{prefix}the destination's audit journal does not verify")


def _verify(source: Side, destination: Side, report: CopyReport, infos: list[SessionInfo]) -> None:
    """Count the sessions again at the destination."""
    dst = destination.sessions(create=False)
    if dst is not None and infos:
        found = {i.id: i.message_count for i in _all_sessions(dst)}
        report.kinds["sessions"].destination = sum(1 for i in infos if i.id in found)
        report.kinds["messages"].destination = sum(
            min(found.get(i.id, 0), i.message_count) for i in infos
        )
    for side in (source, destination):
        store = side.sessions(create=False)
        if store is not None:
            store.close()
