"""The curated-memory facade for one agent session: frozen snapshot plus live writes.

A :class:`Memory` is opened once per session. Opening reads both targets (the session
starts there: what it sees then is what its snapshot shows and what drift is measured
from); the load-time scan and the render of their blocks wait until something needs the
snapshot (the prompt, :meth:`Memory.read`), so a command that only writes or lists never
pays them. The system prompt shows the blocks unchanged for the whole session (so the
prompt prefix stays byte-identical and provider prompt caches keep hitting). Writes go to
disk at once and are visible to the next session (or after :meth:`Memory.new_session`).
Tool responses report the live state, including changes other writers made since this
session last looked.

A ``Memory`` belongs to one session and is not meant to be shared between threads; any
number of sessions and processes may share one home.

A ``Memory`` opened with :meth:`Memory.open` is governed: its writes pass the approval
gate of its actor (``foreground``, ``background``, ``mcp``) and every attempt is recorded
in the home's audit journal (see :mod:`mnemic.governance`). It is a writer: opening it
first removes what crashed writers left behind. To read memory without a session (a
page, a report), open a :class:`~mnemic.curated.view.MemoryView`, which a ``Memory`` is
too.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import Settings
from ..errors import EntryChanged, MnemicError, ProjectScopeError, StorageError
from ..governance.approval import Approver, Proposal, Verdict
from ..governance.governor import Attempt, Governor
from ..home import Home
from ..registry import stores_in_home
from .backend import CuratedBackend
from .changes import Reason
from .entries import TARGETS, came_and_went, char_count, parse
from .guard import LoopGuard
from .operations import NO_EXPIRY
from .pressure import due, evictor
from .proposal import describe, payload_of
from .provenance import Stamp
from .recovery import explainer, found_entries, listed
from .results import Changes, MemoryCommitted, ReadResult, Snapshot, WriteResult
from .scope import PROJECT_FILE, ProjectHome, gone_store
from .snapshot import Block, display_entry, entries_block, sanitize
from .store import (
    Commit,
    Evict,
    Op,
    OpResult,
    Precommit,
    check_on_empty,
    check_target,
    file_hash,
)
from .usage import Usage
from .verdicts import VerdictCache
from .view import MemoryView, open_backend

if TYPE_CHECKING:
    from .groupcommit import GroupCommit

__all__ = [
    "Changes",
    "Memory",
    "MemoryCommitted",
    "ReadResult",
    "Snapshot",
    "WriteResult",
    "open_backend",
]

log = logging.getLogger(__name__)


class Memory(MemoryView):
    """Curated memory for one session. Open with :meth:`Memory.open`.

    >>> mem = Memory.open()                      # doctest: +SKIP
    >>> mem.add("user", "Prefers answers in metric units")
    >>> mem.snapshot.text                        # unchanged until new_session()
    """

    def __init__(
        self,
        backend: CuratedBackend,
        settings: Settings | None = None,
        *,
        governor: Governor | None = None,
        project: str | None = None,
    ) -> None:
        super().__init__(
            backend,
            settings,
            journal=governor.journal if governor else None,
            root=governor.root if governor else None,
            project=project,
        )
        self.guard = LoopGuard(self.settings.memory.max_failures_per_turn)
        self.governor = governor
        """Approval gate, audit journal and metrics (``None``: an ungoverned store)."""
        self._known: dict[str, tuple[str, ...]] = {}
        self._observers: list[Callable[[MemoryCommitted], None]] = []
        self._others_wrote: set[str] = set()
        self._unmade: ProjectHome | None = None
        """A project store no write made yet (see :meth:`_first_write`)."""
        self._project: ProjectHome | None = None
        """The project store this memory writes to (``None``: the global store), checked
        under the write's locks (:meth:`_check_store`)."""
        self._marker: str | None = None
        """The files store's project store: the path of its ``project.json``, looked for
        by :meth:`_check_store` (``None``: not a project store of the files store)."""
        self._start()

    @classmethod
    def open(
        cls,
        home: Home | str | Path | None = None,
        *,
        profile: str | None = None,
        actor: str | None = None,
        origin: str | None = None,
        session_id: str | None = None,
        approver: Approver | None = None,
        clock: Callable[[], float] | None = None,
    ) -> Memory:
        """Open the curated memory of a home (default: ``MNEMIC_HOME`` / platform dir).

        ``actor`` (``foreground``, ``background`` or ``mcp``; default from ``origin``,
        else foreground) selects the approval policy; ``origin`` (``cli``, ``flush``,
        ``review``, ``mcp:<client>``...) and ``session_id`` go into every audit record.
        ``approver`` is asked inline when the policy is ``ask`` (an interactive CLI);
        without one such writes are staged. ``clock`` is for tests (pending expiry).
        """
        if not isinstance(home, Home):
            home = Home.open(home, profile)
        governor = Governor.for_home(
            home,
            actor=actor,
            origin=origin,
            session_id=session_id,
            approver=approver,
            clock=clock,
        )
        project = home.selector if isinstance(home, ProjectHome) else None
        memory = cls(open_backend(home), home.settings, governor=governor, project=project)
        if isinstance(home, ProjectHome):
            memory._project = home
            if stores_in_home(home.settings):
                memory._marker = os.fspath(home.project.root / PROJECT_FILE)
            if home.unmade:  # made by its first kept write
                governor.make_store = home.make
                memory._unmade = home
        return memory

    @property
    def unmade(self) -> bool:
        """Whether this session's store is a project store no write made yet."""
        return self.governor is not None and self.governor.make_store is not None

    # -- snapshot -------------------------------------------------------------
    def _start(self) -> None:
        """The session starts: read both targets now (drift is measured from here); the
        load-time scan and render of the snapshot wait for :attr:`snapshot`."""
        self._snapshot: Snapshot | None = None
        self._loaded: dict[str, tuple[str, ...]] = {}
        self._errors: dict[str, str] = {}
        self._started = time.time()
        for target in TARGETS:
            try:
                raw = self.backend.read(target)
            except StorageError as exc:
                log.warning("%s", exc.to_human())
                self._errors[target] = exc.to_llm()
                continue
            loaded = tuple(parse(raw)) if raw else ()
            self._loaded[target] = self._known[target] = loaded
            limit = self.store.limit(target)
            if char_count(loaded) > limit:  # said at open, as before (a command filters it)
                log.warning(
                    "%s is over its budget (%s); the snapshot is capped",
                    self.backend.location(target),
                    Usage.of(target, loaded, limit).line(),
                )

    @property
    def snapshot(self) -> Snapshot:
        """The frozen blocks of this session: the entries read when it started, scanned
        and rendered the first time something needs them, then unchanged until
        :meth:`new_session`."""
        if self._snapshot is None:
            self._snapshot = self._take_snapshot()
        return self._snapshot

    def expire(self) -> list[tuple[str, str]]:
        """Move the entries whose ``expires`` time has passed to the archive, reason
        ``expired``: one recorded write per target (not gated: the write that set the
        time was). Best-effort (a failure is logged: the entries stay until a write can
        record them). Returns ``(target, entry)`` of what left. An agent session runs it
        before its snapshot, so an expired entry leaves at the next session start; the
        snapshot itself never reads the journal (a running session's prompt, and
        :func:`~.snapshot.render_snapshot`, are not touched)."""
        if self.governor is None:
            return []
        out: list[tuple[str, str]] = []
        for target, entries in due(self, self.now()).items():
            ops = [Op("remove", None, e) for e in entries]
            why = dict.fromkeys(entries, "expired")
            try:
                self.apply(target, ops, batch=True, allow_empty=True, gate=False, reasons=why)
            except (MnemicError, OSError) as exc:  # a read-only home: they stay for now
                log.warning("expired %s entries not archived yet: %s", target, exc)
                continue
            out += [(target, e) for e in entries]
        return out

    def _take_snapshot(self) -> Snapshot:
        """Scan and render the entries read at session start (:meth:`_start`)."""
        blocks: dict[str, Block] = {}
        verdicts = self.verdict_cache()
        for target, loaded in self._loaded.items():
            block = entries_block(
                target,
                loaded,
                self.settings.memory,
                self.level,
                project=self.project is not None,
                verdicts=verdicts,
            )
            blocks[target] = block
        enabled = {
            "memory": self.settings.memory.memory_enabled,
            "user": self.settings.memory.user_profile_enabled,
        }
        if verdicts is not None:
            verdicts.save()
        return Snapshot(blocks, dict(self._loaded), enabled, dict(self._errors), self._started)

    def new_session(self) -> Snapshot:
        """Reload both targets and freeze a new snapshot (new session or after compression)."""
        self.guard = LoopGuard(self.settings.memory.max_failures_per_turn)
        self._known.clear()
        self._start()
        return self.snapshot

    def begin_turn(self) -> None:
        """Start of a user turn: re-arm the per-turn circuit breaker."""
        self.guard.begin_turn()

    # -- live state -------------------------------------------------------------
    def read(self, target: str) -> ReadResult:
        """Live entries (blocked ones replaced by a placeholder), usage and provenance."""
        target = check_target(target)
        raw = self.backend.read(target)
        live = tuple(parse(raw)) if raw is not None else ()
        changes = self._observe(target, live)
        shown = sanitize(target, live, self.level)
        return ReadResult(
            target,
            shown.display,
            Usage.of(target, live, self.store.limit(target)),
            tuple(handle for _, handle, _ in shown.blocked),
            live != self._loaded.get(target, ()),
            changes,
            tuple(self.annotate(target, raw, live)),
        )

    def poll_external_changes(self) -> list[Changes]:
        """Changes made by others since this session last saw each target (then forgets them)."""
        out = []
        for target in TARGETS:
            try:
                live = tuple(self.store.load(target))
            except StorageError:
                continue
            changes = self._observe(target, live)
            if changes is not None:
                out.append(changes)
        return out

    def _observe(self, target: str, fresh: Sequence[str]) -> Changes | None:
        fresh = tuple(fresh)
        known = self._known.get(target)
        self._known[target] = fresh
        # others write here too: this session shares the verdicts of what it writes
        # with them (share_clean) until it finds that no one else wrote either target
        same = known is fresh or known == fresh  # this session's own last write: the same tuple
        if known is not None and not same:
            self._others_wrote.add(target)
        else:
            self._others_wrote.discard(target)
        self.store.share_verdicts = bool(self._others_wrote)
        if known is None or same:
            return None
        came, went = came_and_went(known, fresh)
        # their writers remember the text they wrote when it scanned clean (share_clean)
        verdicts = None if self.root is None else VerdictCache.recent(self.root)
        changes = Changes(
            target,
            tuple(display_entry(target, e, self.level, (), verdicts)[0] for e in came),
            tuple(display_entry(target, e, self.level, (), verdicts)[0] for e in went),
        )
        if verdicts is not None:
            verdicts.save()
        return changes

    # -- writes -----------------------------------------------------------------
    def add(self, target: str, content: str) -> WriteResult:
        """Add one entry (an exact duplicate succeeds without writing)."""
        return self.apply(target, [Op("add", content)])

    def replace(self, target: str, old_text: str, content: str) -> WriteResult:
        """Replace the whole entry that ``old_text`` designates with ``content``."""
        return self.apply(target, [Op("replace", content, old_text)])

    def remove(self, target: str, old_text: str) -> WriteResult:
        """Remove the entry that ``old_text`` designates."""
        return self.apply(target, [Op("remove", None, old_text)])

    def batch(
        self, target: str, operations: Sequence[Op], *, allow_empty: bool = False
    ) -> WriteResult:
        """Apply several operations all-or-nothing; the budget is checked on the result."""
        return self.apply(target, operations, batch=True, allow_empty=allow_empty)

    def apply(
        self,
        target: str,
        operations: Sequence[Op],
        *,
        batch: bool = False,
        allow_empty: bool = False,
        guarded: bool = False,
        gate: bool = True,
        pending_id: str | None = None,
        author: Stamp | None = None,
        restored: Mapping[str, str] | None = None,
        reasons: Mapping[str, Reason] | None = None,
    ) -> WriteResult:
        """Apply operations (each may name its own target; default ``target``).

        ``guarded`` adds the loop guards (tool calls). A governed memory first asks its
        approval gate (``gate=False`` skips it); the result may then be staged
        (``WriteResult.staged``) instead of written. ``pending_id`` marks the replay of
        an approved pending write (the gate is skipped; the audit says ``approve``).
        ``author`` is who provenance credits the entries it adds to (default: this
        session, :meth:`author`; an approved write names the session that proposed it).
        ``restored`` maps an added text to the archive id it is brought back from
        (:func:`mnemic.curated.archive.restore`); ``reasons`` why an entry the operations
        remove leaves, by its text or handle (``expired``: :meth:`expire`; ``(merged,
        kept text)``: an approved tidy merge, :func:`~.proposal.archive_reasons`).

        The audit record of a write is the one durable record of it: it is appended
        before the commit point, and a write whose record cannot be appended is
        refused. An ungoverned memory (no governor) keeps no record, so neither
        provenance nor the archive knows its writes.
        """
        target = check_target(target)
        ops = list(operations)
        targets = sorted({op.target or target for op in ops} & set(TARGETS)) or [target]
        action = "batch" if batch else (ops[0].action if ops else "?")
        gov = self.governor
        attempt: Attempt | None = None
        if gov is not None:
            attempt = gov.attempt(
                "memory",
                "approve" if pending_id else action,
                targets,
                hashes=lambda: self._hashes(targets),
            )
            if pending_id:
                attempt.pending_id = pending_id
                attempt.note("approved")
            elif not gate:
                attempt.note("ungated")
        precommit: Precommit | None = self._precommit if guarded else None
        if self._marker is not None:
            precommit = self._store_check(precommit)  # under the locks: not removed
        # never without a journal: an evicted entry must reach the archive
        evict = evictor(self) if gov is not None else None
        # A person's own write (ungated) or an approved one may hold what the scanner is
        # unsure about; otherwise a held write goes to the approval gate as a question.
        held_ok = not gate or pending_id is not None
        try:
            if guarded:
                self.guard.check_breaker()
            self._back()
            self._check_store()  # files: before the lock, whose file would be made again
            if self.unmade:
                self._first_write(target, ops, batch, allow_empty, precommit)
            if gov is not None and attempt is not None and gate and pending_id is None:
                held = self.store.holds(ops)

                def propose() -> Proposal:
                    return self._propose(target, ops, batch, allow_empty, precommit, held, evict)

                verdict = gov.gate.check(
                    "memory",
                    destructive=any(op.action != "add" for op in ops),
                    propose=propose,
                    note=attempt.note,
                    hold=held,
                )
                if not verdict.apply:
                    assert verdict.record is not None
                    attempt.staged(verdict.record, again=verdict.again)
                    return self._staged(target, ops, action, verdict, held)
                held_ok = verdict.decision == "ask:approved"
            if gov is not None:
                gov.store_made()  # the write goes ahead: a project store no write made is made
            group = None
            if not (batch or pending_id or author or restored or reasons):
                group = self._group(target, ops, attempt, guarded)
            commits = None
            plain = not (batch or pending_id or author or restored or reasons)
            if group is None and plain and hasattr(self.backend, "server_write"):
                # one add, remove or replace the backend decides itself, in one round
                # trip, with what a guarded call's guards read under the lock (here, not
                # at the top: only a backend that can needs the module)
                from .server_write import Guards, apply_in_server

                guards = None
                if guarded:
                    guards = Guards(self._known.get(target), self.guard.frozen(target))
                commits = apply_in_server(self, target, ops, attempt, held_ok, guards)
            if commits is not None:
                on_commit = self._on_commit(attempt)
                if on_commit is not None:
                    on_commit(commits)
            # The audit record is appended under the targets' locks, in commit order (the
            # files backend flushes it to disk after this call, in its flusher thread).
            commits = commits or self.store.apply_all(
                target,
                ops,
                batch=batch,
                allow_empty=allow_empty,
                precommit=precommit,
                on_commit=self._on_commit(attempt),
                author=author or self.author(),
                record=self._recorder(attempt),
                restored=restored,
                evict=evict,
                reasons=reasons,
                held_ok=held_ok,
                group=group,
            )
        except Exception as exc:
            gone = self._removed(exc)
            if attempt is not None:
                attempt.refused(gone or exc)
            if gone is not None and gone is not exc:
                raise gone from exc
            raise
        result = self._result(target, ops, action, commits, batch)
        if result.written:
            self._publish(result)
        return result

    def _check_store(self) -> None:
        """Refuse a write to a project store of the files store removed or moved since it
        was opened (``mnemic project forget`` / ``move``; run before the write's locks
        and under them, which the removal takes too), recorded nowhere: its tombstone
        says when, and a move's new id (:func:`~.scope.gone_store`); a store gone with no
        tombstone was deleted outside mnemic (``missing``). A database store reads its
        tombstone in the transaction that takes the locks instead
        (:func:`mnemic.backends.postgres.curated_begin.begin`)."""
        home, marker = self._project, self._marker
        # three looks a write (before its locks, at its precommit and its record): one
        # stat each, no catalog asked (ProjectHome.exists' files case)
        if home is None or marker is None or self.unmade or os.path.isfile(marker):
            return
        self._gone()
        raise gone_store(home)

    def _gone(self) -> None:
        if self.governor is not None:
            self.governor.store_gone = True

    def _back(self) -> None:
        """A store this session found gone (:meth:`_gone`: a refused write records
        nothing, so as not to make a gone store's journal again) that is there again
        (``mnemic gc`` had its directory aside for a moment; ``mnemic import --bundle``
        brought it back): its writes are recorded again. Asked only after such a
        refusal."""
        gov, home = self.governor, self._project
        if gov is not None and gov.store_gone and home is not None and home.exists:
            gov.store_gone = False

    def _store_check(self, precommit: Precommit | None) -> Precommit:
        def check(t: str, before: Any, after: Any, results: Any) -> None:
            self._check_store()
            if precommit is not None:
                precommit(t, before, after, results)

        return check

    def _removed(self, exc: BaseException) -> ProjectScopeError | None:
        """The ``removed`` refusal when ``exc`` came from a project store removed or
        moved under the write (its files gone before the check could run; or a remove
        that found nothing to match in a database store's deleted rows), ``missing``
        when a database store's rows are gone with no removal recorded
        (:func:`~.scope.gone_store`); else ``None``. Asked only when a write failed."""
        if isinstance(exc, ProjectScopeError) and exc.reason in ("removed", "missing"):
            self._gone()
            return exc
        home = self._project
        if home is None or self.unmade:
            return None
        try:
            if home.exists:
                return None
            gone = gone_store(home, exc)
        except Exception:  # the store cannot be asked: the write's own error stands
            return None
        self._gone()  # either way: a record would make part of the store again
        return gone

    def _first_write(
        self,
        target: str,
        ops: list[Op],
        batch: bool,
        allow_empty: bool,
        precommit: Precommit | None,
    ) -> None:
        """A write to a project store that does not exist yet: refuse it (raise) as the
        empty store would, before anything of the store is created (its directory, its
        locks, ``project.json``, a journal); a write that would go ahead returns, and
        the store is made just before it (or before it is staged). A store another
        writer made meanwhile is taken as made."""
        gov = self.governor
        assert gov is not None
        if self._unmade is not None and self._unmade.exists:
            gov.store_made()  # made by another writer: recording it again changes nothing
            return
        check_on_empty(
            self.store, target, ops, batch=batch, allow_empty=allow_empty, precommit=precommit
        )

    # -- provenance -----------------------------------------------------------------
    def now(self) -> float:
        """The time of this memory's clock (the governor's; tests may set it)."""
        return self.governor.clock() if self.governor is not None else time.time()

    def author(self, origin: str | None = None) -> Stamp:
        """Who this session's writes are recorded as in the provenance ledger: the
        actor its origin implies, the origin (or ``origin``, naming a person's command
        such as ``edit``) and the session id."""
        ctx = self.governor.context if self.governor is not None else None
        if ctx is None:
            return Stamp.of(origin or "api")
        stamp = Stamp.of(ctx.origin, ctx.session_id)
        return stamp if origin is None else Stamp(stamp.actor, origin, stamp.session_id)

    def _context(self) -> dict[str, str | None]:
        ctx = self.governor.context if self.governor is not None else None
        if ctx is None:
            return super()._context()
        return {"session": ctx.session_id, "origin": ctx.origin}

    def observe(self, callback: Callable[[MemoryCommitted], None]) -> None:
        """Call ``callback`` after every write of this session that changed memory (not
        staged writes, not no-ops). Observers run in the writer's thread after the commit;
        one that raises is logged and never fails the write."""
        self._observers.append(callback)

    def _publish(self, result: WriteResult) -> None:
        ctx = self.governor.context if self.governor is not None else None
        event = MemoryCommitted(
            result,
            origin=ctx.origin if ctx is not None else "",
            session_id=ctx.session_id if ctx is not None else None,
        )
        for callback in list(self._observers):
            try:
                callback(event)
            except Exception:
                log.exception("a memory observer failed (the write is committed)")

    def _group(
        self, target: str, ops: list[Op], attempt: Attempt | None, guarded: bool
    ) -> GroupCommit | None:
        """This write's part in group commit (``[memory] group_commit = "queue"``), or
        ``None`` when it runs alone (see :mod:`.groupcommit`)."""
        queue = getattr(self.backend, "requests", None)  # None: no queue, or it is off
        gov = self.governor
        if queue is None or gov is None or attempt is None or gov.extra or len(ops) != 1:
            return None
        if self._project is not None and not stores_in_home(self.settings):
            # a database backend with a queue of this kind (a plugin's): its holder need
            # not check a project store's removal, so alone, checked by its own
            # transaction (PostgreSQL queues in the server instead, server_write, where
            # curated_write reads the store's tombstone under the lock: migration 15).
            # On files the holder's check under the lock (_store_check) is every
            # request's: same store, same lock, so a project store's writes queue as the
            # global store's do
            return None
        if ops[0].expires == NO_EXPIRY:  # a request carries a time, not "never": alone
            return None
        if ops[0].target not in (None, target):
            return None
        # here, not at the top: only a home with the queue on needs the module
        from .groupcommit import GroupCommit, Request

        ctx = gov.context
        stamp = self.author()
        request = Request(
            target,
            ops[0],
            (stamp.actor, stamp.origin, stamp.session_id),
            {
                "session": ctx.session_id,
                "actor": ctx.actor,
                "origin": ctx.origin,
                "action": attempt.action,
                "decision": attempt.decision,
            },
            self._known.get(target) if guarded else None,
            self.guard.frozen(target) if guarded else (),
        )

        def settle(t: str, found: str | None) -> None:
            gov.journal.reconcile(
                {t: found},
                explainer(self.backend, ()),
                first_seen=lambda name: found_entries(self.backend, name),
                subsystem="memory",
                session=ctx.session_id,
                origin=ctx.origin,
            )

        return GroupCommit(queue, request, gov.journal, attempt.recorded_elsewhere, settle)

    def _recorder(self, attempt: Attempt | None) -> Callable[[list[Commit]], None] | None:
        """The audit record of a write, appended before its commit point."""
        if attempt is None:
            return None

        def record(commits: list[Commit]) -> None:
            self._check_store()
            attempt.explain = explainer(self.backend, {c.target for c in commits if c.written})
            befores = {c.target: c.before for c in commits}
            batch = next((dict(c.batch) for c in commits if c.batch is not None), None)
            attempt.committing(
                {c.target: c.before_hash for c in commits},
                {c.target: c.after_hash for c in commits},
                {c.target: c.change.as_json() for c in commits if c.change is not None},
                lock_wait_ms=max((c.lock_wait_ms for c in commits), default=0.0),
                first_seen=lambda t: listed(befores.get(t, ())),
                **({"batch": batch} if batch is not None else {}),
            )

        return record

    def _on_commit(self, attempt: Attempt | None) -> Callable[[list[Commit]], None] | None:
        """What follows a commit under the locks: usage metrics (and the audit record of
        a write that changed nothing)."""
        if attempt is None:
            return None

        def committed(commits: list[Commit]) -> None:
            attempt.explain = explainer(self.backend, {c.target for c in commits if c.written})
            # a write that changed nothing may still confirm entries (the fold reads them)
            touched = {c.target: c.change.as_json() for c in commits if c.change is not None}
            written = any(c.written for c in commits)
            more: dict[str, Any] = {"touched": touched} if touched and not written else {}
            attempt.applied(
                {c.target: c.before_hash for c in commits},
                {c.target: c.after_hash for c in commits},
                written=written,
                lock_wait_ms=max((c.lock_wait_ms for c in commits), default=0.0),
                write_ms=max((c.write_ms for c in commits), default=0.0),
                usage={c.target: char_count(c.after) / self.store.limit(c.target) for c in commits},
                **more,
            )

        return committed

    def _precommit(
        self, target: str, before: Sequence[str], after: Sequence[str], results: list[OpResult]
    ) -> None:
        self._check_seen(target, before, results)
        self.guard.check_oscillation(target, before, after)

    def _hashes(self, targets: Sequence[str]) -> dict[str, str | None]:
        out: dict[str, str | None] = {}
        for t in targets:
            try:
                out[t] = file_hash(self.backend.read(t))
            except StorageError:
                out[t] = None
        return out

    def _propose(
        self,
        target: str,
        ops: list[Op],
        batch: bool,
        allow_empty: bool,
        precommit: Precommit | None,
        held: str = "",
        evict: Evict | None = None,
    ) -> Proposal:
        """Dry run (validates against the current state) and describe, for the gate;
        ``held``: why the threat scanner holds it (shown to the person first)."""
        commits = self.store.apply_all(
            target,
            ops,
            batch=batch,
            allow_empty=allow_empty,
            precommit=precommit,
            dry_run=True,
            evict=evict,
            held_ok=True,
        )
        summary, detail = describe(target, ops, commits)
        if held:
            summary = f"[held by the threat scanner] {summary}"
            detail = f"Held by the threat scanner: {held}\n\n{detail}"
        return Proposal(
            summary,
            detail,
            payload_of(target, ops, batch=batch, allow_empty=allow_empty),
            {c.target: c.before_hash for c in commits},
            # an expiry given is a change to approve, also on an entry kept as it is: a
            # confirm setting (or clearing) when it leaves the prompt
            changes=any(c.written for c in commits) or any(op.expires is not None for op in ops),
            preview=commits,
        )

    def _staged(
        self, target: str, ops: list[Op], action: str, verdict: Verdict, held: str = ""
    ) -> WriteResult:
        assert verdict.record is not None and verdict.proposal is not None
        commits: list[Commit] = verdict.proposal.preview
        result = self._result(target, ops, action, commits, False, dry_run=True)
        pid = verdict.record.id
        if verdict.again:
            message = (
                f"Already waiting for approval (pending id {pid}): the same write was "
                "proposed before; no second copy was queued and nothing is saved yet."
            )
        elif held:
            message = (
                f"Held for approval (pending id {pid}): the threat scanner is unsure about "
                f"this entry ({held}); nothing is saved until a person approves it."
            )
        else:
            message = f"Staged for approval (pending id {pid}): nothing is saved yet."
        return WriteResult(
            result.target,
            action,
            message,
            result.usage,
            result.results,
            False,
            result.external_changes,
            staged=True,
            pending_id=pid,
            others=result.others,
            held=held,
            again=verdict.again,
        )

    def _result(
        self,
        target: str,
        ops: list[Op],
        action: str,
        commits: list[Commit],
        batch: bool,
        *,
        dry_run: bool = False,
    ) -> WriteResult:
        iters = {c.target: iter(c.results) for c in commits}
        results = tuple(next(iters[op.target or target]) for op in ops)
        out: list[WriteResult] = []
        for c in commits:
            changes = self._observe(c.target, c.before)
            if not dry_run:
                self._known[c.target] = c.after
                if c.written:
                    self.guard.note_write(c.target, c.before, c.after)
            usage = Usage.of(c.target, c.before if dry_run else c.after, self.store.limit(c.target))
            out.append(
                WriteResult(
                    c.target,
                    action,
                    _message(c.results, batch),
                    usage,
                    c.results,
                    c.written and not dry_run,
                    changes,
                )
            )
        primary = next((r for r in out if r.target == target), out[0])
        others = tuple(r for r in out if r is not primary)
        return WriteResult(
            primary.target,
            action,
            _message(results, batch),
            primary.usage,
            results,
            any(r.written for r in out),
            primary.external_changes,
            others=others,
            evicted=tuple((c.target, e, why) for c in commits for e, why in c.evicted),
        )

    @contextlib.contextmanager
    def audited(self, action: str, targets: Sequence[str]) -> Iterator[Attempt | None]:
        """Follow a write a person makes directly (restore, adopt, edit) in the audit."""
        if self.governor is None:
            yield None
            return
        attempt = self.governor.attempt(
            "memory", action, targets, hashes=lambda: self._hashes(targets)
        )
        attempt.note("manual")
        attempt.explain = explainer(self.backend, targets)  # each of them writes
        try:
            yield attempt
        except Exception as exc:
            attempt.refused(exc)
            raise

    def _check_seen(self, target: str, before: Sequence[str], results: list[OpResult]) -> None:
        """Optimistic concurrency per entry: refuse to overwrite or delete an entry the
        model has not seen in its current form (edited or added by someone else).

        What this session wrote counts as seen: its earlier commits (recorded in
        ``_known``) and the entries that earlier operations of this same call wrote.
        """
        known = self._known.get(target)
        if known is None or all(r.previous is None for r in results):
            return  # adds only: nothing is overwritten (and no set of the whole target)
        seen = set(known)
        for r in results:
            if r.previous is not None and r.previous not in seen:
                self._known[target] = tuple(before)  # now it has been shown
                raise EntryChanged(target, display_entry(target, r.previous, self.level)[0])
            if r.entry is not None:
                seen.add(r.entry)


def _message(results: Sequence[OpResult], batch: bool) -> str:
    if batch:
        n = len(results)
        dup = sum(1 for r in results if r.status == "duplicate")
        extra = f" ({dup} add(s) were already present)" if dup else ""
        return f"Applied {n} operation(s){extra}."
    r = results[0]
    return {
        "added": "Entry added.",
        "duplicate": "Entry already exists; nothing to add.",
        "replaced": "Entry replaced.",
        "removed": "Entry removed.",
    }[r.status]
