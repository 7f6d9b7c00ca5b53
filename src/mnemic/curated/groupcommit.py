"""Group commit as a request queue (``[memory] group_commit = "queue"``, files store).

A writer that finds its target's lock busy leaves its request (its operation, already
validated and threat-scanned, who it writes as, what its session has seen) in the
home's queue, then waits for the lock as before. The holder, after its own operation,
claims the waiting requests and applies each, in arrival order, to the text its own
left: one temp file, one fsync, one rename and one directory fsync for all of them,
and one audit record per request, each naming it (``request``) and the batch
(``batch``: its id and the state the rename replaced), appended before the rename. Once
the rename is durable, it leaves each writer its answer. A writer that then gets the
lock reads its answer instead of writing.

The holder commits a request only when, applied alone to the text before it, it would
write and succeed: any request it would refuse (no match, budget, a duplicate, an entry
its session has not seen, the oscillation guard) or that needs more than this module
knows (eviction, drift) is handed back unapplied, and its writer runs it itself under
the lock, exactly as without the queue. Requests still waiting are concurrent with the
holder's, so any order is one they could have run in; each is decided on the state it
is applied to.

A holder that dies leaves its claimed requests without answers. Their writers ask the
journal (after recording, as any writer would, that a batch which never renamed is
void): no record naming the request, or a record the next one voids (``recovered``,
cause ``not_committed``), means it did not commit and the writer runs it; otherwise it
committed, and the answer is rebuilt from the record. See ``docs/performance.md``,
"Group commit: a request queue", and ``docs/ARCHITECTURE.md`` for the crash argument.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol, cast

from ..config import MemorySettings
from ..errors import LockTimeout, MnemicError, ToolError
from ..governance.chain import Journal
from .backend import CuratedBackend, CuratedTxn
from .changes import diff
from .entries import append_entries, char_count, parse, serialize
from .operations import ACTIONS, Op, OpResult
from .store import Commit, _apply_one, _dedupe, _refused, file_hash

__all__ = ["Applied", "GroupCommit", "Request", "RequestQueue", "queue_of"]

log = logging.getLogger(__name__)


class RequestQueue(Protocol):
    """Where requests wait and answers are left (:mod:`mnemic.backends.files.requests`)."""

    def submit(self, target: str, payload: dict[str, Any]) -> str: ...
    def withdraw(self, target: str, rid: str) -> bool: ...
    def claim(self, target: str) -> list[tuple[str, dict[str, Any] | None]]: ...
    def answer(self, target: str, rid: str, result: dict[str, Any]) -> None: ...
    def result(self, target: str, rid: str) -> dict[str, Any] | None: ...
    def forget(self, target: str, rid: str) -> None: ...


class _Queueing(Protocol):
    requests: RequestQueue | None

    def transaction(
        self, targets: Sequence[str], timeout: float, *, on_busy: Callable[[], None] | None
    ) -> AbstractContextManager[CuratedTxn]: ...


def queue_of(backend: CuratedBackend) -> RequestQueue | None:
    """The request queue of ``backend`` (``None``: it has none, or it is off)."""
    queue: RequestQueue | None = getattr(backend, "requests", None)
    return queue


@dataclass(frozen=True, slots=True)
class Request:
    """One writer's single operation, as the holder applies it."""

    target: str
    op: Op
    """Validated and threat-scanned by its writer (:meth:`CuratedStore.prepare`)."""
    author: tuple[str, str | None, str | None]
    """Who provenance credits what it adds to: ``(actor, origin, session)``."""
    fields: dict[str, Any]
    """Its audit record's own fields: ``session``, ``actor``, ``origin``, ``action``,
    ``decision``."""
    known: tuple[str, ...] | None = None
    """A tool call's: the entries its session has seen (it may only replace or remove
    one of them); ``None`` when not checked."""
    frozen: tuple[str, ...] = ()
    """A tool call's: entries its session's oscillation guard refuses to flip again."""

    def payload(self) -> dict[str, Any]:
        """JSON-able form."""
        op = self.op
        return {
            "target": self.target,
            "op": [op.action, op.content, op.old_text, op.expires],
            "author": list(self.author),
            "fields": self.fields,
            "known": None if self.known is None else list(self.known),
            "frozen": list(self.frozen),
        }

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Request:
        """A request from :meth:`payload` (``ValueError``, ``TypeError``, ``KeyError``
        when it is not one)."""
        action, content, old, expires = data["op"]
        if action not in ACTIONS or not _opt(content, str) or not _opt(old, str):
            raise ValueError("not an operation")
        if not _opt(expires, int | float):
            raise ValueError("bad expiry")
        actor, origin, session = data["author"]
        fields = data["fields"]
        known, frozen = data["known"], data["frozen"]
        if not isinstance(actor, str) or not _opt(origin, str) or not _opt(session, str):
            raise ValueError("bad author")
        if not isinstance(fields, dict) or not isinstance(frozen, list):
            raise ValueError("bad fields")
        if known is not None and not all(isinstance(e, str) for e in known):
            raise ValueError("bad known entries")
        target = data["target"]
        op = Op(action, content, old, target, None if expires is None else float(expires))
        return cls(
            str(target),
            op,
            (actor, origin, session),
            {k: fields.get(k) for k in ("session", "actor", "origin", "action", "decision")},
            None if known is None else tuple(known),
            tuple(str(e) for e in frozen),
        )


@dataclass(frozen=True, slots=True)
class Applied:
    """A request the holder applied: its commit, as its writer gets it back."""

    rid: str
    request: Request
    commit: Commit


@dataclass
class GroupCommit:
    """A governed writer's part in group commit: the request it leaves when the lock is
    busy, and the journal through which it records requests it applies for others."""

    queue: RequestQueue
    request: Request
    journal: Journal
    answered: Callable[[dict[str, Any]], None]
    """Called with the record the holder appended for this writer's request."""
    settle: Callable[[str, str | None], None]
    """``settle(target, found_hash)``: record a change no record covers (a batch that
    never renamed is void) before the journal is asked about a lost answer."""
    rid: str | None = None
    """The id of the request left (``None``: the lock was free)."""

    def submit(self) -> None:
        """The lock is busy: leave the request (if it cannot be left, the writer just
        waits for the lock and writes alone)."""
        try:
            self.rid = self.queue.submit(self.request.target, self.request.payload())
        except (OSError, MnemicError) as exc:
            log.warning("group commit: the request was not queued (%s); writing alone", exc)

    # What the store calls (its GroupCommit protocol: it does not import this module).
    def prepared(self, op: Op) -> None:
        """The operation, validated and scanned, that the request carries."""
        self.request = dataclasses.replace(self.request, op=op)

    @contextlib.contextmanager
    def transaction(
        self, backend: CuratedBackend, targets: Sequence[str], settings: MemorySettings
    ) -> Iterator[CuratedTxn]:
        """The backend's transaction, leaving the request when the lock is busy.

        A writer whose wait times out takes its request back and fails as before; if a
        holder claimed it meanwhile, that holder is applying it now, so the writer waits
        for the lock once more (the holder answers before it releases) instead of saying
        its write failed when it may have committed.
        """
        queued = cast(_Queueing, backend)
        entered = False
        try:
            with queued.transaction(targets, settings.lock_timeout, on_busy=self.submit) as txn:
                entered = True
                yield txn
            return
        except LockTimeout:
            if entered or self.rid is None:
                raise
            if self.queue.withdraw(self.request.target, self.rid):
                self.rid = None
                raise
        with queued.transaction(targets, settings.lock_timeout, on_busy=None) as txn:
            yield txn

    def drain(
        self,
        target: str,
        text: str,
        working: Sequence[str],
        limit: int,
        level: str | None,
    ) -> tuple[str, list[Applied]]:
        """Claim the requests waiting for ``target`` and apply those that succeed, in order,
        to ``text`` (the holder's own result, whose entries are ``working``); hand the
        others back at once. Returns the final text and the requests applied."""
        applied: list[Applied] = []
        current = list(working)
        digest = file_hash(text)
        for rid, payload in self.queue.claim(target):
            try:
                req = Request.of(payload or {})
            except (ValueError, TypeError, KeyError):
                req = None
            step = _step(req, target, text, current, limit, level) if req else None
            if req is None or step is None:
                self.queue.answer(target, rid, {"status": "run"})
                continue
            new_text, after, result = step
            after_hash = file_hash(new_text)
            until = {req.op.content: req.op.expires} if req.op.content and req.op.expires else {}
            change = diff(current, after, [result], author=req.author, reasons={}, expires=until)
            waited = max(0.0, (time.time_ns() - int(rid.split("-")[0])) / 1e6)
            commit = Commit(
                target,
                tuple(current),
                tuple(after),
                (result,),
                True,
                waited,
                0.0,
                digest,
                after_hash,
                change,
            )
            applied.append(Applied(rid, req, commit))
            text, current, digest = new_text, after, after_hash
        return text, applied

    def record(self, batch: dict[str, Any], applied: list[Applied]) -> list[dict[str, Any]]:
        """Append the audit record of each request applied (before the rename), in order."""
        out = []
        for a in applied:
            c = a.commit
            out.append(
                {
                    **a.request.fields,
                    "subsystem": "memory",
                    "target": c.target,
                    "result": "ok",
                    "before": {c.target: c.before_hash},
                    "after": {c.target: c.after_hash},
                    "lock_wait_ms": round(c.lock_wait_ms, 3),
                    "changes": {c.target: c.change.as_json()} if c.change is not None else {},
                    "request": a.rid,
                    "batch": batch,
                }
            )
        return self.journal.append_all(out)

    def answer(self, applied: list[Applied], recorded: list[dict[str, Any]]) -> None:
        """Leave each writer its answer (the commit is durable; under the lock)."""
        for a, rec in zip(applied, recorded, strict=True):
            c = a.commit
            try:
                self.queue.answer(
                    c.target,
                    a.rid,
                    {
                        "status": "applied",
                        "before": list(c.before),
                        "after": list(c.after),
                        "results": [_result_json(r) for r in c.results],
                        "hashes": [c.before_hash, c.after_hash],
                        "lock_wait_ms": c.lock_wait_ms,
                        "record": {k: rec.get(k) for k in ("id", "seq", "hash")},
                    },
                )
            except OSError as exc:  # its writer finds its record in the journal instead
                log.warning("group commit: the answer to %s was not left: %s", a.rid, exc)

    def hand_back(self, applied: list[Applied]) -> None:
        """The batch did not commit: every writer runs its request itself."""
        for a in applied:
            try:
                self.queue.answer(a.commit.target, a.rid, {"status": "run"})
            except OSError as exc:
                log.warning("group commit: %s not handed back: %s", a.rid, exc)

    def batch(self, target: str, found: str | None) -> dict[str, Any]:
        """The ``batch`` field of a group commit's records: its id, the state it replaced."""
        return {"id": os.urandom(8).hex(), "from": {target: found}}

    def collect(self, target: str, read: Callable[[], str | None]) -> Commit | None:
        """Under the lock, for a writer that left a request: its commit, when a holder
        committed it (``None``: the writer runs it itself now). ``read()`` gives the
        target's text now (read only when the holder died: the journal is asked)."""
        assert self.rid is not None
        rid, self.rid = self.rid, None
        res = self.queue.result(target, rid)
        if res is None:
            if self.queue.withdraw(target, rid):
                return None  # nobody claimed it
            res = self._lost(target, rid, read())
            self.queue.forget(target, rid)
            if res is None:
                return None
        if res.get("status") != "applied":
            return None
        before, after = res["before"], res["after"]
        bh, ah = res["hashes"]
        results = tuple(_result_of(r, target) for r in res["results"])
        self.answered(res["record"])
        return Commit(
            target,
            tuple(before),
            tuple(after),
            results,
            True,
            float(res.get("lock_wait_ms") or 0.0),
            0.0,
            bh,
            ah,
        )

    def _lost(self, target: str, rid: str, raw: str | None) -> dict[str, Any] | None:
        """The answer to a request whose holder died after claiming it, from the journal
        (``None``: it did not commit)."""
        self.settle(target, file_hash(raw))
        rec: dict[str, Any] | None = None
        batch: object = None
        void = False
        for r in self.journal.records():
            if rec is None:
                if r.get("request") == rid:
                    rec = r
                    b = r.get("batch")
                    batch = b.get("id") if isinstance(b, dict) else None
                continue
            b = r.get("batch")
            if isinstance(b, dict) and b.get("id") == batch:
                continue
            if r.get("result") == "ok" and target in (r.get("after") or {}):
                void = r.get("action") == "recovered" and r.get("cause") == "not_committed"
                break
        if rec is None or void:
            return None
        change = (rec.get("changes") or {}).get(target) or {}
        added = [i.get("text") for i in change.get("added") or () if isinstance(i, dict)]
        gone = [i.get("text") for i in change.get("removed") or () if isinstance(i, dict)]
        action = str(rec.get("action"))
        status = {"add": "added", "replace": "replaced", "remove": "removed"}.get(action, action)
        entries = parse(raw) if raw is not None else []
        log.warning("group commit: request %s committed by a holder that died; answer rebuilt", rid)
        return {
            "status": "applied",
            "before": entries,
            "after": entries,
            "results": [[action, status, added[0] if added else None, gone[0] if gone else None]],
            "hashes": [(rec.get("before") or {}).get(target), (rec.get("after") or {}).get(target)],
            "record": {k: rec.get(k) for k in ("id", "seq", "hash")},
        }


def _step(
    req: Request, target: str, text: str, working: list[str], limit: int, level: str | None
) -> tuple[str, list[str], OpResult] | None:
    """``req`` applied alone to ``text``: the new text, entries and result, or ``None``
    when it would not write, or be refused (its writer then runs it itself)."""
    if req.target != target or req.op.target not in (None, target):
        return None
    after = list(working)
    try:
        result = _apply_one(after, req.op, target, level)
    except ToolError:
        return None
    if result.status == "duplicate":
        return None
    if req.op.action == "replace":
        after = _dedupe(after)
    if _refused(char_count(working), char_count(after), limit):
        return None  # eviction, or the budget's own refusal: its writer decides
    if req.known is not None and result.previous is not None and result.previous not in req.known:
        return None  # an entry its session has not seen (EntryChanged)
    if set(req.frozen) & set(working).symmetric_difference(after):
        return None  # its oscillation guard refuses it
    new_text = None
    if req.op.action == "add" and result.entry is not None:
        new_text = append_entries(text, [result.entry], after, limit, None, read_back=True)
    if new_text is None:
        new_text = serialize(after)
        if parse(new_text) != after:  # pragma: no cover - the store guards it too
            return None
    return new_text, after, result


def _result_json(r: OpResult) -> list[str | None]:
    return [r.action, r.status, r.entry, r.previous]


def _result_of(v: Sequence[Any], target: str) -> OpResult:
    action, status, entry, previous = v
    return OpResult(str(action), str(status), entry, previous, target)


def _opt(value: object, kind: Any) -> bool:
    return value is None or (isinstance(value, kind) and not isinstance(value, bool))
