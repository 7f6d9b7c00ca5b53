"""Maintenance of the curated store: version history, restore, adopt, edit, doctor.

These are the operations a person runs (through ``mnemic memory ...``), not the model.
Each writes through the backend's transaction (lock, re-read, history), so they are as
safe as tool writes.
"""

from __future__ import annotations

import difflib
import hashlib
import logging
import re
from dataclasses import dataclass
from typing import Any

from ..errors import (
    ContentRejected,
    InvalidArgument,
    StorageError,
    ToolError,
    UnreadableFile,
    UnsafePath,
)
from ..governance.chain import VerifyReport
from ..governance.governor import Attempt
from ..scan import scan_text
from .backend import CuratedTxn, Problem, Version, version_text
from .changes import diff
from .entries import (
    DELIMITER,
    FILENAMES,
    TARGETS,
    detect_drift,
    normalize_newlines,
    parse,
    serialize,
    validate_content,
)
from .memory import Memory
from .provenance import Stamp
from .recovery import listed, reconcile
from .store import check_target, file_hash
from .usage import Usage
from .view import MemoryView

log = logging.getLogger(__name__)

__all__ = [
    "AdoptPlan",
    "Problem",
    "adopt",
    "adopt_plan",
    "diff_versions",
    "doctor",
    "plan_adopt",
    "restore",
    "split_to_fit",
    "text_hash",
    "write_edited",
]


def text_hash(text: str | None) -> str:
    """Short content hash used for compare-and-swap by adopt and edit."""
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()[:16]


def _version_text(memory: MemoryView, target: str, version: int | str) -> str:
    if version in ("current", "live"):
        return memory.backend.read(target) or ""
    try:
        vid = int(version)
    except (TypeError, ValueError):
        raise InvalidArgument(
            "version",
            f"Version {version!r} is not a version number or 'current'. Nothing was "
            "compared. `mnemic memory history` lists the numbers.",
        ) from None
    return version_text(memory.backend, target, vid, project=memory.project)


def diff_versions(
    memory: MemoryView, target: str, old: int | str, new: int | str = "current"
) -> str:
    """Unified diff between two versions of a target (ids, or ``current``)."""
    target = check_target(target)
    a = _version_text(memory, target, old)
    b = _version_text(memory, target, new)
    name = FILENAMES[target]
    lines = difflib.unified_diff(
        a.splitlines(keepends=True),
        b.splitlines(keepends=True),
        fromfile=f"{name}@{old}",
        tofile=f"{name}@{new}",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def restore(memory: Memory, target: str, version: int) -> Version | None:
    """Bring back a previous version exactly; the current one is kept in history.

    Returns the newest history version afterwards (the text that was replaced).
    """
    target = check_target(target)
    with memory.audited("restore", [target]) as attempt:
        text = version_text(memory.backend, target, int(version), project=memory.project)
        with memory.backend.transaction([target], memory.settings.memory.lock_timeout) as txn:
            before = txn.read(target)
            by = memory.author("restore")
            _write_whole(txn, attempt, target, before, text, by, "restored", version=int(version))
    hist = memory.backend.history(target)
    return hist[-1] if hist else None


@dataclass(frozen=True, slots=True)
class AdoptPlan:
    """What ``adopt`` would write: the drifted file re-read as clean entries."""

    target: str
    raw_hash: str
    drift: str | None
    entries: tuple[str, ...]
    usage: Usage
    split_blobs: int
    """How many oversized pieces were split at blank lines."""


def plan_adopt(memory: MemoryView, target: str) -> AdoptPlan:
    """Read a (possibly drifted) target and show the entries it would become (see
    :func:`adopt_plan`)."""
    target = check_target(target)
    return adopt_plan(target, memory.backend.read(target), memory.limit(target))


def adopt_plan(target: str, raw: str | None, limit: int) -> AdoptPlan:
    """The entries the text ``raw`` of ``target`` (budget ``limit``) would become.

    Pieces between delimiters become entries; a piece longer than the whole budget (text
    appended without delimiters) is split into parts that fit: at blank lines, then at
    line ends, then after sentences, then between words (a word longer than the budget
    is cut). Nothing is lost: only whitespace at the cut points changes.
    """
    raw = raw or ""
    drift = detect_drift(raw, limit)
    entries: list[str] = []
    splits = 0
    for piece in raw.replace("\r\n", "\n").replace("\r", "\n").split(DELIMITER):
        piece = piece.strip()
        if not piece:
            continue
        if len(piece) > limit:
            splits += 1
            entries.extend(split_to_fit(piece, limit))
        else:
            entries.append(piece)
    clean = parse(serialize(entries))
    return AdoptPlan(
        target,
        text_hash(raw),
        drift.reason if drift else None,
        tuple(clean),
        Usage.of(target, clean, limit),
        splits,
    )


_SEPARATORS = (r"\n\s*\n", r"\n", r"(?<=[.!?。！？])\s+", r"\s+")


def split_to_fit(text: str, limit: int, level: int = 0) -> list[str]:
    """Split ``text`` into stripped parts of at most ``limit`` chars at natural breaks."""
    text = text.strip()
    if len(text) <= limit:
        return [text] if text else []
    if level >= len(_SEPARATORS):
        return [text[i : i + limit].strip() for i in range(0, len(text), limit)]
    parts = [p for p in re.split(_SEPARATORS[level], text) if p.strip()]
    joiner = "\n\n" if level == 0 else ("\n" if level == 1 else " ")
    out: list[str] = []
    current = ""
    for part in parts:
        part = part.strip()
        if len(part) > limit:
            if current:
                out.append(current)
                current = ""
            out.extend(split_to_fit(part, limit, level + 1))
        elif level >= 2 and current and len(current) + len(joiner) + len(part) <= limit:
            current += joiner + part  # merge sentences/words back up to the budget
        else:
            if current:
                out.append(current)
            current = part
    if current:
        out.append(current)
    return out


def adopt(memory: Memory, plan: AdoptPlan) -> str:
    """Rewrite the target as ``plan.entries`` if the file is still what was planned.

    A copy of the drifted file is saved first (returned); the old version also stays in
    history. Refuses if the file changed since the plan was made.
    """
    target = plan.target
    if plan.drift is None:
        raise ToolError(f"{FILENAMES[target]} is clean; there is nothing to adopt.")
    with (
        memory.audited("adopt", [target]) as attempt,
        memory.backend.transaction([target], memory.settings.memory.lock_timeout) as txn,
    ):
        found = txn.read(target)
        raw = found or ""
        if text_hash(raw) != plan.raw_hash:
            raise ToolError(
                f"{FILENAMES[target]} changed since the adopt plan was shown; nothing was "
                "written. Run adopt again to see the current content."
            )
        backup = memory.backend.save_backup(target, raw)
        text = serialize(plan.entries)
        # what adopt writes came from the hand edit it adopts
        session = memory.author().session_id
        _write_whole(txn, attempt, target, found, text, Stamp("hand", "adopt", session), "adopted")
    return backup


def write_edited(memory: Memory, target: str, base_hash: str, edited: str) -> Usage:
    """Commit text edited by a person (``mnemic memory edit``) after validating it.

    Every entry must be storable and pass the threat scan, the budget must hold, and
    the file must not have changed since the editor opened (``base_hash``).
    """
    target = check_target(target)
    entries = parse(edited)
    for i, entry in enumerate(entries, 1):
        validate_content(entry, field=f"entry {i}")
        found = scan_text(entry, "strict", memory.level).findings
        if found:
            ids = ", ".join(f"{f.id} ({f.category})" for f in found)
            start = " ".join(entry.split())
            start = start if len(start) <= 60 else start[:57] + "..."
            raise ContentRejected(
                "threat",
                f"Entry {i} of the edited text ({start!r}) matches threat pattern(s) {ids}; "
                "it would be hidden from the model at every load. Nothing was saved. Reword "
                "it as a plain fact or drop it (`echo TEXT | mnemic scan -` shows what "
                "matches).",
            )
    limit = memory.store.limit(target)
    usage = Usage.of(target, entries, limit)
    if usage.over_budget:
        raise ContentRejected(
            "budget",
            f"The edited {FILENAMES[target]} is {usage.chars:,}/{limit:,} chars, "
            f"{usage.chars - limit:,} over the budget. Nothing was saved. Shorten or remove "
            "entries.",
        )
    with (
        memory.audited("edit", [target]) as attempt,
        memory.backend.transaction([target], memory.settings.memory.lock_timeout) as txn,
    ):
        current = txn.read(target)
        if text_hash(current) != base_hash:
            raise ToolError(
                f"{FILENAMES[target]} was changed by someone else while you were editing; "
                "nothing was written."
            )
        text = serialize(entries)
        _write_whole(txn, attempt, target, current, text, memory.author("edit"), "edited")
    return usage


def _write_whole(
    txn: CuratedTxn,
    attempt: Attempt | None,
    target: str,
    before: str | None,
    after: str,
    by: Stamp,
    reason: str,
    **fields: Any,
) -> None:
    """Commit a whole-text write (restore, adopt, edit) with its audit record: unchanged
    entries keep their provenance, new ones are credited to ``by``, and the entries it
    drops go to the archive for ``reason``."""
    old = parse(before) if before is not None else []
    change = diff(old, parse(after), reason=reason, author=(by.actor, by.origin, by.session_id))

    def record() -> None:
        if attempt is not None:
            attempt.committing(
                {target: file_hash(before)},
                {target: file_hash(after)},
                {target: change.as_json()},
                lock_wait_ms=txn.lock_wait_ms,
                first_seen=lambda _: listed(old),
                **fields,
            )

    txn.write({target: after}, record=record)
    if attempt is not None:
        attempt.applied(
            {target: file_hash(before)},
            {target: file_hash(after)},
            written=True,
            lock_wait_ms=txn.lock_wait_ms,
        )


def _near_separators(target: str, raw: str) -> list[Problem]:
    """Lines a person typed as an entry separator that are not one (' § ', '§§'): the
    text on both sides is read as one entry, which nothing else would tell them."""
    out = []
    for number, line in enumerate(normalize_newlines(raw).split("\n"), 1):
        if line == "§" or "§" not in line or line.replace("§", "").strip():
            continue
        out.append(
            Problem(
                "warning",
                target,
                f"{FILENAMES[target]} line {number} ({line!r}) looks like an entry separator "
                "but is not one (a separator is a line holding only '§', nothing before or "
                "after it), so the text around it is read as one entry.",
                f"mnemic memory edit --target {target}: make that line a lone '§', or remove it",
            )
        )
    return out


def doctor(memory: Memory, *, fix: bool = False) -> list[Problem]:
    """Look for unreadable or drifted files, threats, bloat, debris and loose permissions.

    With ``fix=True``, safe repairs are made (permissions tightened, stale temp files of
    crashed writers removed); content is never changed.
    """
    problems: list[Problem] = []
    backend = memory.backend
    for target in TARGETS:
        name = FILENAMES[target]
        try:
            raw = backend.read(target)
        except StorageError as exc:
            remedy = (  # a file mnemic cannot read, or a store it cannot reach (PostgreSQL)
                "repair or move the file by hand"
                if isinstance(exc, UnreadableFile | UnsafePath)
                else "fix what it names, then run mnemic memory doctor again"
            )
            problems.append(Problem("error", target, exc.to_human(), remedy))
            continue
        if raw is None:
            continue
        limit = memory.store.limit(target)
        drift = detect_drift(raw, limit)
        if drift:
            problems.append(
                Problem(
                    "error",
                    target,
                    f"{name} was edited outside mnemic: {drift.reason}.",
                    f"mnemic memory adopt --target {target}",
                )
            )
        entries = parse(raw)
        problems += _near_separators(target, raw)
        usage = Usage.of(target, entries, limit)
        if usage.over_budget:
            problems.append(
                Problem(
                    "warning",
                    target,
                    f"{name} is over its budget ({usage.line()}).",
                    "remove or merge entries (mnemic memory edit)",
                )
            )
        for entry in entries:
            found = scan_text(entry, "strict", memory.level).findings if len(entry) <= 65536 else ()
            if found:
                ids = ", ".join(f.id for f in found)
                problems.append(
                    Problem(
                        "warning",
                        target,
                        f"an entry of {name} is hidden from the model (threat: {ids}).",
                        "review it with `mnemic memory show --raw`, then remove it",
                    )
                )
    problems.extend(backend.doctor(fix=fix))
    journal = memory.governor.journal if memory.governor is not None else None
    if journal is not None:
        problems.extend(_unrecorded_changes(memory, journal.verify(), fix=fix))
    if journal is not None:  # a torn tail left by a crash mid-append (files only)
        try:
            torn = journal.torn_tail()
        except StorageError as exc:
            problems.append(Problem("error", None, exc.to_llm(), "mnemic audit verify"))
            torn = None
        if torn is not None:
            fixed = False
            if fix:
                try:  # a failed repair (read-only home...) stays reported as not fixed
                    fixed = journal.repair() is not None
                except StorageError:
                    fixed = False
            problems.append(
                Problem(
                    "warning",
                    None,
                    f"the audit journal {journal.location} ends with an incomplete record of "
                    f"{torn['bytes']} byte(s), left by a crash during an append (not "
                    "tampering); until it is cut, `mnemic audit verify` notes it.",
                    "mnemic memory doctor --fix (the next audited write also repairs it)",
                    fixed,
                )
            )
    return problems


def _unrecorded_changes(memory: Memory, report: VerifyReport, *, fix: bool) -> list[Problem]:
    """Targets whose content differs from what the last audit record of them says: changed
    since with no record (a hand edit, or a write whose record a crash lost). ``fix``
    records each such change now (a ``recovered`` record, see :mod:`.recovery`)."""
    out: list[Problem] = []
    for target in TARGETS:
        if target not in report.last_states:
            continue
        try:
            now = file_hash(memory.backend.read(target))
        except StorageError:
            continue  # an unreadable file is reported above
        if now != report.last_states[target]:
            fixed = False
            if fix:
                try:
                    fixed = bool(
                        reconcile(
                            memory.backend,
                            memory.governor,
                            [target],
                            lock_timeout=memory.settings.memory.lock_timeout,
                        )
                    )
                except StorageError as exc:
                    log.warning("could not record the change of %s: %s", target, exc.to_llm())
            out.append(
                Problem(
                    "info",
                    target,
                    f"{FILENAMES[target]} changed after the last audit record of it, with no "
                    "record of the change (a hand edit, or a write whose record a crash "
                    "lost); "
                    + (
                        "recorded now as `recovered` (`mnemic audit list` shows it)."
                        if fixed
                        else "the next write through mnemic records it as `recovered`."
                    ),
                    "mnemic memory doctor --fix records it now",
                    fixed,
                )
            )
    if report.outside_changes:
        out.append(
            Problem(
                "info",
                None,
                f"the audit journal shows {len(report.outside_changes)} change(s) made between "
                "records with no record of their own (hand edits, or records a crash lost).",
                "mnemic audit verify lists them",
            )
        )
    return out
