"""The curated store: validated, locked, all-or-nothing mutations of one or both targets.

Order of every mutation: validate and threat-scan the new content (no lock held), take
the targets' locks, re-read the files under them, check drift (for replace, remove and
batches), apply the operations to a working copy, check the budget on the final state,
then write once (the backend keeps the previous version). Any failure leaves the targets
exactly as they were. A batch whose operations name both targets commits both files or
neither (:meth:`CuratedTxn.write`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from ..config import MemorySettings
from ..errors import (
    BatchFailed,
    BudgetExceeded,
    ContentRejected,
    DriftDetected,
    InvalidArgument,
    StorageError,
    ThreatBlocked,
    ThreatHeld,
    ToolError,
    WouldEmptyTarget,
)
from ..scan import (
    Finding,
    Neighbours,
    ScanResult,
    TermIndex,
    defines_for_others,
    explain,
    names_destinations,
    refers_to_others,
    rephrase_hint,
    scan_in_context,
    scan_text,
)
from .backend import CuratedBackend, CuratedTxn
from .changes import Reason, TargetChange, confirmed, diff
from .entries import (
    DELIMITER,
    TARGETS,
    Drift,
    append_entries,
    char_count,
    counted,
    extended,
    find_entry,
    parse,
    read_entries,
    serialize,
    validate_content,
)
from .operations import ACTIONS, Op, OpResult
from .provenance import API, Stamp
from .read_memo import ReadMemo, ServerTexts
from .snapshot import display_entry, share_clean
from .usage import label
from .verdicts import VerdictCache

__all__ = [
    "ACTIONS",
    "Commit",
    "check_on_empty",
    "CuratedStore",
    "Evict",
    "GroupCommit",
    "Op",
    "OpResult",
    "Precommit",
    "Record",
    "file_hash",
    "file_hashes",
]


@dataclass(frozen=True, slots=True)
class Commit:
    """The outcome of a successful mutation."""

    target: str
    before: tuple[str, ...]
    """Entries found on disk under the lock, before this mutation."""
    after: tuple[str, ...]
    """Entries after it (equal to ``before`` when nothing had to change)."""
    results: tuple[OpResult, ...]
    written: bool
    lock_wait_ms: float
    write_ms: float
    before_hash: str | None = None
    """SHA-256 of the file text found under the lock (``None``: there was no file)."""
    after_hash: str | None = None
    """SHA-256 of the file text after this mutation (equal to ``before_hash`` if unchanged)."""
    change: TargetChange | None = None
    """What it added, removed and confirmed, as its audit record keeps it (``None``: no
    write, and nothing confirmed)."""
    evicted: tuple[tuple[str, str], ...] = ()
    """``(entry, reason)`` of the entries the ``on_full`` policy moved out to make room."""
    batch: Mapping[str, Any] | None = None
    """The group commit this write's rename also committed (its record's ``batch``:
    :mod:`.groupcommit`); ``None``: a commit of its own."""


def file_hash(text: str | None) -> str | None:
    """SHA-256 (hex) of a target's file text; ``None`` for a file that does not exist."""
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_hashes(
    raw: str | None, text: str | None, digest: Any = None
) -> tuple[str | None, str | None]:
    """:func:`file_hash` of the text read and of the text written (``None``: not written,
    the same as read). A text that starts with the one read (an add appends) extends the
    first hash instead of hashing the whole text again: a large store's text is encoded
    and hashed once per write, not twice. ``digest``: ``hashlib.sha256`` of ``raw``
    already made (it is updated)."""
    before, after, _ = _digests(raw, text, digest)
    return before, after


def _digests(raw: str | None, text: str | None, digest: Any) -> tuple[str | None, str | None, Any]:
    """:func:`file_hashes` and the digest of the text written (``None``: not written)."""
    if raw is None:
        if text is None:
            return None, None, None
        after = hashlib.sha256(text.encode("utf-8"))
        return None, after.hexdigest(), after
    if digest is None:
        digest = hashlib.sha256(raw.encode("utf-8"))
    before = digest.hexdigest()
    if text is None:
        return before, before, None
    if not text.startswith(raw):
        after = hashlib.sha256(text.encode("utf-8"))
        return before, after.hexdigest(), after
    digest.update(text[len(raw) :].encode("utf-8"))
    return before, digest.hexdigest(), digest


Precommit = Callable[[str, Sequence[str], Sequence[str], list[OpResult]], None]
"""``precommit(target, before, after, results)``: may raise to refuse a write."""

Evict = Callable[[str, Sequence[str], frozenset[str], int], Mapping[str, str]]
"""``evict(target, entries, protected, limit)``: the entries to move out of ``entries``
(never one of ``protected``) so that it fits ``limit``, each with why (``evicted``,
``expired``), in order; empty when it cannot fit (the write is then refused). The
``on_full`` policy (:mod:`.pressure`)."""

Record = Callable[[list["Commit"]], None]
"""``record(commits)``: append the audit record of the commits about to be made, under
the locks and before the commit point; raising refuses the write (nothing commits)."""


class GroupCommit(Protocol):
    """A writer's part in group commit, as the store uses it (the implementation,
    :class:`mnemic.curated.groupcommit.GroupCommit`, builds on this module)."""

    rid: str | None
    """The id of the request it left when the lock was busy (``None``: it left none)."""

    def prepared(self, op: Op) -> None:
        """The operation, validated and scanned, that a request would carry."""
        ...

    def transaction(
        self, backend: CuratedBackend, targets: Sequence[str], settings: MemorySettings
    ) -> AbstractContextManager[CuratedTxn]:
        """The backend's transaction, leaving the request when the lock is busy."""
        ...

    def collect(self, target: str, read: Callable[[], str | None]) -> Commit | None:
        """Under the lock: the commit a holder made of the request (``None``: write);
        ``read()`` gives the target's text (read only when the journal must be asked)."""
        ...

    def drain(
        self, target: str, text: str, working: Sequence[str], limit: int, level: str | None
    ) -> tuple[str, list[Any]]:
        """Apply the waiting requests after ``text``: the final text, what was applied."""
        ...

    def batch(self, target: str, found: str | None) -> dict[str, Any]:
        """The ``batch`` field of a group commit replacing the state ``found``."""
        ...

    def record(self, batch: dict[str, Any], applied: list[Any]) -> list[dict[str, Any]]:
        """Append the records of the requests applied (before the rename)."""
        ...

    def answer(self, applied: list[Any], recorded: list[dict[str, Any]]) -> None:
        """Answer the requests applied (the commit is durable)."""
        ...

    def hand_back(self, applied: list[Any]) -> None:
        """The commit failed: their writers run the requests applied themselves."""
        ...


def held(result: ScanResult) -> str:
    """The reasons of a held scan result, for a person and for the model: each finding's
    id and its evidence, or, when it has none, what the finding means in words."""
    return "; ".join(f"{f.id}: {_reason(f)}" for f in result.holds)


def _reason(f: Finding) -> str:
    """One held finding's reason: its evidence, or its meaning when it has none; a learned
    score (not the pair reading, which says what it read) in words first."""
    if f.layer == "classifier" and f.detail.startswith("score "):
        return (
            f"its wording reads like an instruction aimed at the model ({f.detail}); "
            "approve it if it is a plain note"
        )
    return f.detail or explain(f.id)


def _meant_target(target: object) -> str | None:
    """The target a wrong name stands for, when it is one in other letters or its file's
    name ('Memory', 'USER.md'); else None (nothing is guessed further)."""
    if not isinstance(target, str):
        return None
    name = target.strip().lower().removesuffix(".md")
    return name if name in TARGETS else None


def check_target(target: object) -> str:
    """Validate a target name."""
    if target not in TARGETS:
        from ..tooling import json_shown  # a refusal only: as the model wrote it

        shown = f"'{target}'" if isinstance(target, str) else json_shown(target)
        meant = _meant_target(target)
        hint = f" (did you mean '{meant}'? The names are lower case)" if meant else ""
        raise InvalidArgument(
            "target",
            f"Invalid target {shown}{hint}. Use 'memory' (your notes) or 'user' (the user "
            "profile).",
        )
    return str(target)


class CuratedStore:
    """Mutations of MEMORY.md / USER.md through a :class:`CuratedBackend`; new content is
    threat-scanned at ``level`` (the home's ``[scan] level``; default: the scanner's)."""

    def __init__(
        self,
        backend: CuratedBackend,
        settings: MemorySettings,
        *,
        level: str | None = None,
        verdicts: Path | None = None,
    ) -> None:
        self.backend = backend
        self.settings = settings
        self.level = level
        self.verdicts = verdicts
        """The home (or project store) whose recent writes' verdict cache learns the new
        text found clean (:func:`~.snapshot.share_clean`); ``None``: no cache."""
        self.share_verdicts = False
        """Whether to share those verdicts: set by the session when other sessions wrote
        since its previous call (a lone writer, whose verdicts nobody would read, does
        not pay for replacing the file at each write)."""
        self._read = ReadMemo()
        self.server_texts = ServerTexts()
        """The text each write in the backend's server (:mod:`.server_write`) last found
        or left, with its entries."""
        self._in_context: tuple[tuple[str, str | None, tuple[str | None, ...]], ScanResult] | None
        self._in_context = None
        self._context_needed: tuple[str | None, bool] = (None, False)
        """The last scan of a new text with the stored entries as its context, keyed by
        the text, the level and the stored texts it was read with (:meth:`scan`)."""

    def limit(self, target: str) -> int:
        """Character budget of a target."""
        if target == "user":
            return self.settings.user_char_limit
        return self.settings.memory_char_limit

    def committed_elsewhere(self, target: str) -> None:
        """``target`` was written by someone else than this store's locked path (the
        backend's server, :mod:`.server_write`): what was read of it is forgotten."""
        self._read.forget(target)

    def load(self, target: str) -> list[str]:
        """Live entries of a target (raises if the file cannot be read or decoded)."""
        raw = self.backend.read(check_target(target))
        return parse(raw) if raw is not None else []

    # -- validation (before any lock) -----------------------------------------
    def prepare(
        self, ops: Sequence[Op], *, batch: bool, target: str = "memory", held_ok: bool = False
    ) -> list[Op]:
        """Validate and threat-scan operations; return them with normalised text.

        ``target`` is the target of operations that do not name their own. Content longer
        than its target's whole budget is refused as a size error before anything else
        looks at it (the threat scan included). Content is scanned with the stored entries
        as its context; content the scanner holds (unsure) is refused with
        :class:`ThreatHeld` unless ``held_ok`` (a person approves this write).
        """
        if not ops:
            raise InvalidArgument("operations", "The operations list is empty. Nothing to do.")
        out: list[Op] = []
        for i, op in enumerate(ops, 1):
            try:
                out.append(self._prepare_one(op, target, held_ok))
            except ToolError as exc:
                if batch:
                    raise BatchFailed(i, op.action, exc, len(ops)) from exc
                raise
        if self.verdicts is not None and self.share_verdicts:
            new = [op.content for op in out if op.content is not None]
            if new:
                share_clean(VerdictCache.recent(self.verdicts), new, self.level)
        return out

    def _prepare_one(self, op: Op, default_target: str, held_ok: bool = False) -> Op:
        target = check_target(op.target) if op.target is not None else default_target
        if op.action not in ACTIONS:
            raise InvalidArgument(
                "action", f"Unknown action {op.action!r}. Use add, replace or remove."
            )
        content = None
        old = None
        if op.action in ("replace", "remove"):
            if not op.old_text or not op.old_text.strip():
                raise InvalidArgument(
                    "old_text",
                    f"'{op.action}' needs old_text: a short unique substring of the entry to "
                    f"{op.action} (see current_entries).",
                    human=f"OLD is empty: give a short piece of the entry to {op.action}, as "
                    "`mnemic memory show` prints it. Nothing was changed.",
                )
            old = op.old_text
        if op.action in ("add", "replace"):
            if op.content is None or not op.content.strip():
                hint = " Use action='remove' to delete an entry." if op.action == "replace" else ""
                raise InvalidArgument(
                    "content",
                    f"'{op.action}' needs content: the full text of the entry.{hint}",
                    human="The entry text is empty. Nothing was saved"
                    + (" (`mnemic memory remove OLD` deletes an entry)." if hint else "."),
                )
            size = len(op.content.strip())
            if size > self.limit(target):
                raise self._too_long(target, size, op.action)
            content = validate_content(op.content)
            result = self.scan(content)
            if result.findings:
                found = result.findings
                raise ThreatBlocked([(f.id, f.category) for f in found], hint=rephrase_hint(found))
            if result.holds and not held_ok:
                raise ThreatHeld([(f.id, f.category) for f in result.holds], reasons=held(result))
        return Op(op.action, content, old, op.target, op.expires)

    def scan(self, content: str) -> ScanResult:
        """The threat scan of new content, read together with the stored entries of both
        targets (a split instruction is caught when its second half arrives, whichever
        half that is)."""
        result = scan_text(content, "strict", self.level)
        if result.blocked or not self._needs_context(content):
            return result
        texts: list[str | None] = []
        indexes: list[TermIndex] = []
        for t in TARGETS:
            raw = None
            with contextlib.suppress(StorageError):  # the write will say what is wrong
                raw = self.backend.read(t)
                if raw is not None:
                    indexes.append(
                        self._read.index(t, self._read.parse(t, raw, self.limit(t)).known)
                    )
            texts.append(raw)
        # A call scans its new text twice (the approval gate's look, then the write's):
        # the second is the first's answer when the stored texts are the same, character
        # for character (nothing else is trusted: a hand edit of the same size is read).
        key = (content, self.level, tuple(texts))
        known = self._in_context
        if known is not None and known[0] == key:
            return known[1]
        result = scan_in_context(content, Neighbours(indexes), "strict", self.level)
        self._in_context = (key, result)
        return result

    def _needs_context(self, content: str) -> bool:
        """Whether ``content`` is read with the stored entries (it refers to another
        entry, defines a name, or names a destination): a question of the text alone,
        asked twice per call (:meth:`scan`), answered once for the last text asked."""
        known = self._context_needed
        if known[0] == content:
            return known[1]
        needed = (
            refers_to_others(content) or defines_for_others(content) or names_destinations(content)
        )
        self._context_needed = (content, needed)
        return needed

    def holds(self, ops: Sequence[Op]) -> str:
        """Why the scanner holds the new content of ``ops`` for a person's approval (""
        when it holds none). Content that is invalid or blocked is left to :meth:`prepare`."""
        reasons = []
        for op in ops:
            if op.action in ("add", "replace") and op.content and op.content.strip():
                try:
                    result = self.scan(validate_content(op.content))
                except ToolError:
                    continue
                if result.held:
                    reasons.append(held(result))
        return "; ".join(reasons)

    def _too_long(self, target: str, size: int, action: str) -> BudgetExceeded:
        """The refusal of one entry longer than the whole budget of its target."""
        limit = self.limit(target)
        try:
            current = char_count(self.load(target))
        except StorageError:  # the size is the answer here; the file speaks for itself later
            current = 0
        return BudgetExceeded(
            target,
            limit,
            current,
            current + size,
            message=(
                f"This entry is {size:,} chars, longer than the whole {label(target)} budget "
                f"of {limit:,} chars, so it can never fit, whatever is removed. Nothing was "
                "saved, and splitting it would not help: its parts would still add up to "
                f"{size:,} chars. Keep only the durable fact, well under {limit:,} chars (it "
                "shares the budget with every other entry)."
            ),
            entry_chars=size,
        )

    # -- the locked part ------------------------------------------------------
    def apply(
        self,
        target: str,
        ops: Sequence[Op],
        *,
        batch: bool = False,
        allow_empty: bool = False,
        precommit: Precommit | None = None,
        dry_run: bool = False,
        on_commit: Callable[[list[Commit]], None] | None = None,
        author: Stamp | None = None,
        now: float | None = None,
        held_ok: bool = False,
        record: Record | None = None,
        restored: Mapping[str, str] | None = None,
        evict: Evict | None = None,
        reasons: Mapping[str, Reason] | None = None,
    ) -> Commit:
        """Apply ``ops`` to ``target`` all-or-nothing; see the module docstring.

        Returns the commit of ``target`` (of the first target the operations touch when
        none of them is ``target``); :meth:`apply_all` returns every target's commit.
        """
        commits = self.apply_all(
            target,
            ops,
            batch=batch,
            allow_empty=allow_empty,
            precommit=precommit,
            dry_run=dry_run,
            on_commit=on_commit,
            author=author,
            now=now,
            held_ok=held_ok,
            record=record,
            restored=restored,
            evict=evict,
            reasons=reasons,
        )
        return next((c for c in commits if c.target == target), commits[0])

    def apply_all(
        self,
        target: str,
        ops: Sequence[Op],
        *,
        batch: bool = False,
        allow_empty: bool = False,
        precommit: Precommit | None = None,
        dry_run: bool = False,
        on_commit: Callable[[list[Commit]], None] | None = None,
        author: Stamp | None = None,
        now: float | None = None,
        held_ok: bool = False,
        record: Record | None = None,
        restored: Mapping[str, str] | None = None,
        evict: Evict | None = None,
        reasons: Mapping[str, Reason] | None = None,
        group: GroupCommit | None = None,
    ) -> list[Commit]:
        """Apply ``ops`` all-or-nothing to the targets they name (default ``target``).

        ``precommit(target, before, after, results)`` runs under the locks for each target
        that would change, once the final state is known, and may raise to refuse the
        write. ``dry_run`` does everything except the write (the result says what would
        be committed; ``Commit.written`` then says whether it would write).
        ``on_commit(commits)`` runs under the locks after the write (also when nothing
        needed to change) and must not raise.

        ``record(commits)`` appends the audit record of a write under the locks, once
        the new texts are written (the files store fsyncs them meanwhile) and before
        the commit point (see
        :meth:`CuratedTxn.write`); each commit carries its ``change`` (what it added
        and removed, credited to ``author``, default the library, ``api``). If it
        raises, nothing is committed. ``restored`` maps an added text to the archive
        id it is brought back from (:mod:`.archive`). ``evict`` (the ``on_full``
        policy) may move entries out of a target that would overflow, in the same write;
        ``reasons`` says why an entry the operations remove leaves, by its text
        (``expired``).

        ``group`` (group commit, :mod:`.groupcommit`): a single operation on ``target``
        may be left for the lock's holder when the lock is busy, and a writer that
        commits alone applies the requests left for it with its own.
        """
        target = check_target(target)
        prepared = self.prepare(ops, batch=batch, target=target, held_ok=held_ok)
        groups: dict[str, list[tuple[int, Op]]] = {}
        for i, op in enumerate(prepared, 1):
            groups.setdefault(op.target or target, []).append((i, op))
        ordered = sorted(groups)
        gc = group
        if gc is not None and (dry_run or batch or ordered != [target] or len(prepared) != 1):
            gc = None
        if gc is not None:
            gc.prepared(prepared[0])
            locked = gc.transaction(self.backend, ordered, self.settings)
        else:
            locked = self.backend.transaction(ordered, self.settings.lock_timeout)
        with locked as txn:
            if gc is not None and gc.rid is not None:
                done = gc.collect(target, lambda: txn.read(target))
                if done is not None:
                    if on_commit is not None:
                        on_commit([done])
                    return [done]
            staged: list[tuple[str, str | None, list[str], list[str], list[OpResult], str]] = []
            evicted: dict[str, dict[str, str]] = {}
            drifted: set[str] = set()
            digests: dict[str, Any] = {}  # the hash of each text read
            clean: set[str] = set()  # targets whose new text is known to read back clean
            chars: dict[str, int] = {}  # the char_count of each target's new entries
            # each target's entries before and after as tuples, made once: the commit's,
            # and what the memos of a tuple's identity know (counted, extended)
            frozen: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
            for t in ordered:
                limit = self.limit(t)
                these = groups[t]
                raw = txn.read(t)
                before, drift = [], None
                before_t: tuple[str, ...] = ()
                if raw is not None:
                    parsed = self._read.parse(t, raw, limit)
                    before, drift, digests[t] = parsed.entries, parsed.drift, parsed.digest
                    before_t = parsed.known
                # A single add appends to the file as it is (see append_entries), so it may go
                # ahead on a drifted file; anything that rewrites entries may not.
                appending = not batch and all(op.action == "add" for _, op in these)
                if drift is not None and not appending:
                    raise self._drifted(t, raw, drift)
                if drift is not None:
                    drifted.add(t)
                working = list(before)
                results: list[OpResult] = []
                for i, op in these:
                    try:
                        results.append(_apply_one(working, op, t, self.level))
                    except ToolError as exc:
                        if batch:
                            raise BatchFailed(i, op.action, exc, len(prepared)) from exc
                        raise
                if any(op.action == "replace" for _, op in these):
                    # an add never makes a duplicate (it is reported instead), a
                    # replace may: its new text can equal another entry
                    working = _dedupe(working)
                working = _in_place(before, working, results)
                current = char_count(before_t)
                if before and all(op.action == "add" for _, op in these):
                    # only adds: ``before`` with the entries added after it, each one
                    # delimiter and its own length more (no join of the whole target)
                    new = current + sum(len(DELIMITER) + len(e) for e in working[len(before) :])
                else:
                    new = char_count(working)
                if evict is not None and drift is None and _refused(current, new, limit):
                    mine = frozenset(r.entry for r in results if r.entry is not None)
                    chosen = evict(t, working, mine, limit).items()
                    out = {e: why for e, why in chosen if e in working and e not in mine}
                    if out:
                        evicted[t] = out
                        working = [e for e in working if e not in out]
                        new = char_count(working)
                chars[t] = new
                after_t = tuple(working)
                if t not in evicted and all(op.action == "add" for _, op in these):
                    # each add appended an entry not in working yet (_apply_one), and
                    # nothing else moved: the new entries follow the ones found, each new
                    after_t = extended(before_t, after_t)
                frozen[t] = (before_t, after_t)
                if batch and before and not working and not allow_empty:
                    raise WouldEmptyTarget(t, len(before))
                try:
                    self._check_budget(
                        t,
                        current,
                        new,
                        [op for _, op in these],
                        batch=batch,
                        total=len(prepared),
                    )
                except BudgetExceeded:
                    if drift is None:
                        raise
                    # Making room needs replace or remove, which drift refuses: the way
                    # out is a person adopting the file, so say that instead.
                    raise self._drifted(t, raw, drift) from None
                text: str | None = None
                if appending and raw is not None and working != before and t not in evicted:
                    text = append_entries(raw, working[len(before) :], working, limit, drift)
                    if text is None and drift is not None:
                        raise self._drifted(t, raw, drift)
                    if text is not None and drift is None:
                        clean.add(t)  # append_entries's answer: no drift, read back as working
                if text is None:  # the text is read back once, whichever is written
                    text = serialize(working)
                    back, back_drift = read_entries(text, limit)
                    if back != working:  # pragma: no cover - guarded above
                        raise ContentRejected(
                            "round_trip", "The result would not read back as the same entries."
                        )
                    if back_drift is None:
                        clean.add(t)  # read back whole: the next write need not parse it
                staged.append((t, raw, before, working, results, text))
            if precommit is not None:
                for t, _, before, working, results, _ in staged:
                    if working != before:
                        precommit(t, *frozen[t], results)
            writes = {t: text for t, _, before, working, _, text in staged if working != before}
            stamp = author or API
            by = (stamp.actor, stamp.origin, stamp.session_id)
            commits = []
            after_digests: dict[str, Any] = {}
            for t, raw, _, _, results, _ in staged:
                written = t in writes
                before_hash, after_hash, after_digests[t] = _digests(
                    raw, writes[t] if written else None, digests.get(t)
                )
                why: dict[str, Reason] = {**(reasons or {}), **evicted.get(t, {})}
                until = {
                    op.content: op.expires
                    for _, op in groups[t]
                    if op.content is not None and op.expires is not None
                }
                changed = written or bool(confirmed(results))
                before_t, after_t = frozen[t]
                commits.append(
                    Commit(
                        t,
                        before_t,
                        counted(after_t, chars[t]),
                        tuple(results),
                        written,
                        txn.lock_wait_ms,
                        0.0,
                        before_hash,
                        after_hash,
                        diff(
                            before_t,
                            after_t,
                            results,
                            author=by,
                            restored=restored,
                            reasons=why,
                            expires=until,
                        )
                        if changed and not dry_run
                        else None,
                        tuple(evicted.get(t, {}).items()),
                    )
                )
            start = time.perf_counter()
            drained: list[Any] = []
            if gc is not None and list(writes) == [target] and target not in drifted:
                writes, drained, commits = self._drain(gc, target, writes, staged, commits)
            if not dry_run and writes:
                raws = {t: raw for t, raw, *_ in staged}
                self._write(txn, writes, commits, record, gc, drained, raws)
                for t, _, _, _, _, text in staged:
                    if t in writes and t in clean and writes[t] is text:
                        self._read.wrote(t, text, self.limit(t), frozen[t][1], after_digests[t])
                    elif t in writes:
                        self._read.forget(t)
            write_ms = (time.perf_counter() - start) * 1000.0
            commits = [
                dataclasses.replace(c, write_ms=write_ms) if c.written else c for c in commits
            ]
            if on_commit is not None and not dry_run:
                on_commit(commits)
            return commits

    def _drain(
        self,
        group: GroupCommit,
        target: str,
        writes: dict[str, str],
        staged: Sequence[tuple[str, str | None, list[str], list[str], list[OpResult], str]],
        commits: list[Commit],
    ) -> tuple[dict[str, str], list[Any], list[Commit]]:
        """Apply the requests waiting for ``target`` after this write (group commit)."""
        working = next(w for t, _, _, w, _, _ in staged if t == target)
        final, drained = group.drain(
            target, writes[target], working, self.limit(target), self.level
        )
        if not drained:
            return writes, drained, commits
        own = next(c for c in commits if c.target == target)
        batch = group.batch(target, own.before_hash)
        commits = [dataclasses.replace(c, batch=batch) if c is own else c for c in commits]
        return {target: final}, drained, commits

    def _write(
        self,
        txn: Any,
        writes: dict[str, str],
        commits: list[Commit],
        record: Record | None,
        group: GroupCommit | None,
        drained: list[Any],
        raws: Mapping[str, str | None],
    ) -> None:
        """Write the new texts; with requests applied for others (``drained``), append
        their records after this write's own, and answer them once it is durable (or
        hand them back when it fails). With journal durability
        (``[memory] durability = "journal"``), a write of one target whose record can
        carry what rebuilds its text (``replay``) is made durable by that record alone."""
        if group is None or not drained:
            replay_for = getattr(self.backend, "replay_for", None)
            if record is not None and len(writes) == 1 and replay_for is not None:
                ((t, text),) = writes.items()
                item = replay_for(t, raws.get(t), text)
                if item is not None:
                    carried = [_with_replay(c, item) if c.target == t else c for c in commits]
                    append = record
                    txn.write(writes, record=lambda: append(carried), lazy=True)
                    return
            txn.write(writes, record=(lambda: record(commits)) if record else None)
            return
        batch = next(c.batch for c in commits if c.batch is not None)
        recorded: list[dict[str, Any]] = []

        def record_all() -> None:
            if record is not None:
                record(commits)
            recorded.extend(group.record(dict(batch), drained))

        try:
            txn.write(writes, record=record_all)
        except BaseException:
            group.hand_back(drained)
            raise
        txn.after_durable.append(lambda: group.answer(drained, recorded))

    def _drifted(self, target: str, raw: str | None, drift: Drift) -> DriftDetected:
        """Keep a copy of drifted text (once per distinct text) and build the refusal."""
        backup = self.backend.save_backup(target, raw or "")
        return DriftDetected(target, self.backend.location(target), drift.reason, backup)

    def _check_budget(
        self,
        target: str,
        current: int,
        new: int,
        ops: Sequence[Op],
        *,
        batch: bool,
        total: int,
    ) -> None:
        """Refuse a write from ``current`` to ``new`` chars if the budget does."""
        limit = self.limit(target)
        # A target already over its budget (edited by hand) may still shrink.
        if not _refused(current, new, limit):
            return
        if not current:  # nothing there to consolidate: the new text alone is too long
            none = "NONE of the operations was applied" if batch else "Nothing was saved"
            message = (
                f"The new entries total {new:,} chars; {label(target)} holds at most "
                f"{limit:,}. {none}. Shorten them or save fewer."
            )
        elif batch:
            message = (
                f"After all {total} operations, {label(target)} would be at {new:,}/"
                f"{limit:,} chars, over the limit. NONE of the operations was applied. Remove "
                "or shorten more entries in the same operations list (see current_entries), "
                "then retry."
            )
        elif ops[0].action == "add":
            adding = len(ops[0].content or "")
            message = (
                f"{label(target)} is at {current:,}/{limit:,} chars; adding this entry "
                f"({adding:,} chars) would make it {new:,}/{limit:,}. Nothing was saved. "
                "Consolidate in ONE call: an operations list that removes or merges stale "
                "entries (see current_entries) and then adds the new fact; the limit is "
                "checked only on the final result."
            )
        else:
            message = (
                f"This replacement would put {label(target)} at {new:,}/{limit:,} chars. "
                "Nothing was saved. Shorten the new content, or use an operations list that "
                "also removes stale entries (see current_entries)."
            )
        raise BudgetExceeded(target, limit, current, new, message=message)


def _apply_one(working: list[str], op: Op, target: str, level: str | None) -> OpResult:
    if op.action == "add":
        assert op.content is not None
        if op.content in working:
            return OpResult("add", "duplicate", op.content, target=target)
        working.append(op.content)
        return OpResult("add", "added", op.content, target=target)
    assert op.old_text is not None
    index = find_entry(
        working, op.old_text, target, show=lambda e: display_entry(target, e, level)[0]
    )
    previous = working[index]
    if op.action == "replace":
        assert op.content is not None
        working[index] = op.content
        return OpResult("replace", "replaced", op.content, previous, target)
    del working[index]
    return OpResult("remove", "removed", None, previous, target)


def _refused(current: int, new: int, limit: int) -> bool:
    """Whether the budget refuses ``new`` chars where ``current`` were found (see
    :meth:`CuratedStore._check_budget`)."""
    return new > limit and not (current > limit and new < current)


def _in_place(before: list[str], working: list[str], results: list[OpResult]) -> list[str]:
    """``working`` with each entry a batch took out and added back where it was before.

    "Remove X, add X back" in one batch is no change: the journal records nothing for X
    and the archive keeps nothing, so the file must not move X to the end either (a
    reorder that no record names, and a prompt that changes bytes for no change). Every
    entry is sorted by the place it came from: an entry of ``before`` by its own, a
    replacement by the place of the entry it replaced, a new entry after them all in
    the order it was added (a stable sort: nothing else moves).

    Operations that only add take nothing out, and an add of an entry already there is
    reported, not added: no added entry can then be one of ``before``, and no set of
    the whole target is built (a pass per entry per add to a large target)."""
    added = [r.entry for r in results if r.action == "add" and r.status == "added"]
    if not added or all(r.action == "add" for r in results):
        return working
    was = set(before)
    if not any(e in was for e in added):
        return working
    origin = {e: float(i) for i, e in enumerate(before)}
    for r in results:
        if r.action == "replace" and r.entry is not None and r.previous is not None:
            # equal texts (a replace into an entry that is there) keep the earlier place
            origin[r.entry] = min(origin.get(r.entry, math.inf), origin.get(r.previous, math.inf))
    return sorted(working, key=lambda e: origin.get(e, math.inf))


def _dedupe(entries: list[str]) -> list[str]:
    return list(dict.fromkeys(entries))  # the first of equal entries, in order


def _with_replay(commit: Commit, item: Mapping[str, object]) -> Commit:
    """``commit`` whose change carries ``replay`` (journal durability; the record's
    texts, like ``added``'s, are left out of its hash and dropped by ``forget``)."""
    change = commit.change or TargetChange()
    change = dataclasses.replace(change, extra={**change.extra, "replay": [dict(item)]})
    return dataclasses.replace(commit, change=change)


class _NoStore:
    """A store that does not exist, for a dry run (:func:`check_on_empty`), and its own
    locked view: both targets absent; it takes no lock and creates nothing."""

    lock_wait_ms = 0.0

    def read(self, target: str) -> str | None:
        return None

    def read_provenance(self, target: str) -> str | None:
        return None

    @contextlib.contextmanager
    def transaction(self, targets: Sequence[str], timeout: float) -> Iterator[_NoStore]:
        yield self

    def write(self, writes: Mapping[str, str], *, record: Callable[[], None] | None = None) -> None:
        raise AssertionError("a dry run writes nothing")  # pragma: no cover

    def write_provenance(self, target: str, ledger: str) -> None:
        raise AssertionError("a dry run writes nothing")  # pragma: no cover


def check_on_empty(
    store: CuratedStore,
    target: str,
    ops: Sequence[Op],
    *,
    batch: bool,
    allow_empty: bool,
    precommit: Precommit | None,
) -> None:
    """Refuse ``ops`` (raise) as ``store``'s checks would on an empty store, creating
    and locking nothing: a write to a project store no write made yet
    (:meth:`~mnemic.curated.memory.Memory.apply`) is refused before its store exists.
    What the threat scanner holds is not refused here (the approval gate decides)."""
    empty = CuratedStore(cast("CuratedBackend", _NoStore()), store.settings, level=store.level)
    empty.apply_all(
        target,
        ops,
        batch=batch,
        allow_empty=allow_empty,
        precommit=precommit,
        dry_run=True,
        held_ok=True,
    )
