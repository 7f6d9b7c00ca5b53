"""A single add, remove or replace handed whole to a backend that applies the store's
rules itself (PostgreSQL: :mod:`mnemic.backends.postgres.curated_server`), in one round
trip.

:func:`apply_in_server` is tried by :meth:`~.memory.Memory.apply` before today's path,
for the writes it can describe completely: one ``add``, ``remove`` or ``replace`` on the
call's target, governed, no batch, approval replay, author, restore, reasons or expiry,
no extra record fields, the governor's and the journal's clocks the real one. A tool
call's guarded write sends what its two guards under the lock read (:class:`Guards`:
the entries its session has seen, those the oscillation guard will not flip again); the
backend declines a write they would refuse, and today's path refuses it. The operation is
validated and scanned here exactly as today (:meth:`~.store.CuratedStore.prepare`,
before any lock); the backend then decides under its lock, or declines and writes
nothing, and today's path runs (so refusals, duplicates, drift and every response stay
today's).

The audit record is built here as today's path builds it (:func:`template`), with
placeholders for what only the lock's holder knows, and sent as its canonical JSON cut
at them; the backend fills them, chains the record and hands its line back, so the
record is byte for byte what today's path would have appended with the same values.
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ..governance.chain import hashed_text, record_body
from .changes import TargetChange, diff
from .entries import DELIMITER, counted, extended, normalize_newlines, serialize
from .store import Commit, Op, OpResult

if TYPE_CHECKING:
    from ..governance.governor import Attempt, Governor
    from .backend import CuratedBackend
    from .provenance import Stamp
    from .store import CuratedStore


class _Writer(Protocol):
    """What a write in the server reads of :class:`~mnemic.curated.memory.Memory` (a
    protocol, so that this module, which ``Memory.apply`` imports, imports it not even
    for its annotations)."""

    backend: CuratedBackend
    governor: Governor | None
    store: CuratedStore

    def author(self, origin: str | None = None) -> Stamp: ...


__all__ = ["ACTIONS", "SLOTS", "Guards", "apply_in_server", "template"]

ACTIONS = ("add", "remove", "replace")
"""The operations a backend may decide itself."""


class Guards(NamedTuple):
    """What a guarded call's checks under the lock read (:meth:`~.memory.Memory._precommit`):
    ``known``, the entries of the target its session has seen (``None``: none yet, no
    check), for :meth:`~.memory.Memory._check_seen`; ``frozen``, the entries
    :meth:`~.guard.LoopGuard.check_oscillation` refuses to flip."""

    known: tuple[str, ...] | None
    frozen: tuple[str, ...]


SLOTS = ("seq", "prev", "before", "after", "lock_wait_ms", "time", "ts", "key", "text", "hash")
"""What the backend fills in a record (``key``, ``text``: the entry a remove took)."""


def _slot(nonce: str, name: str) -> str:
    # a control character no record field can hold as such (json escapes it)
    return f"\x01{nonce}:{name}\x01"


_MARK = re.compile(r'"\\u0001([0-9a-f]{12}):(\w+)\\u0001"')
"""A placeholder as JSON writes it (:func:`_slot`: the control character escaped)."""


def _cut(text: str, nonce: str) -> tuple[list[str], list[str]] | None:
    """``text`` cut at each placeholder's JSON string: the pieces and the names between
    (None: a string of the record looks like a placeholder of another nonce)."""
    pieces: list[str] = []
    names: list[str] = []
    pos = 0
    for m in _MARK.finditer(text):
        if m.group(1) != nonce:
            return None
        pieces.append(text[pos : m.start()])
        names.append(m.group(2))
        pos = m.end()
    pieces.append(text[pos:])
    return pieces, names


def _applied(
    action: str,
    content: str | None,
    gone: str | None,
    target: str,
    author: tuple[str, str | None, str | None] | None = None,
) -> tuple[OpResult, TargetChange]:
    """The result of one ``add``, ``remove`` or ``replace`` and its change, as today's
    path reports them (``gone``: the entry a remove or replace took)."""
    if action == "add":
        assert content is not None
        result = OpResult("add", "added", content, target=target)
        return result, diff((), (content,), [result], author=author)
    assert gone is not None
    if action == "replace":
        assert content is not None
        result = OpResult("replace", "replaced", content, gone, target)
        return result, diff((gone,), (content,), [result], author=author)
    result = OpResult("remove", "removed", None, gone, target)
    return result, diff((gone,), (), [result], author=author)


def template(
    attempt: Attempt, memory: _Writer, target: str, op: Op
) -> tuple[tuple[list[str], list[str]], tuple[list[str], list[str]]] | None:
    """The record of ``op`` as today's path would append it
    (:meth:`~mnemic.governance.governor.Attempt.committing` through
    :meth:`~mnemic.governance.governor.Governor.record` and
    :func:`~mnemic.governance.chain.make_record`, whose
    :func:`~mnemic.governance.chain.record_body` it takes), cut at its placeholders: the
    text the chain hashes and the line stored, each as (pieces, placeholder names). None
    when a placeholder is not where it belongs (today's path then runs)."""
    gov = memory.governor
    assert gov is not None
    nonce = os.urandom(6).hex()
    stamp = memory.author()
    by = (stamp.actor, stamp.origin, stamp.session_id)
    gone = None if op.action == "add" else _slot(nonce, "text")
    change = _applied(op.action, op.content, gone, target, by)[1].as_json()
    if gone is not None:
        removed = change.get("removed")
        if not isinstance(removed, list) or len(removed) != 1:
            return None
        removed[0]["key"] = _slot(nonce, "key")
    # the fields Attempt.committing gives Governor.record, with slots for the values
    # only the lock holder knows
    fields = gov.record_fields(
        **attempt.own_fields("ok"),
        before={target: _slot(nonce, "before")},
        after={target: _slot(nonce, "after")},
        lock_wait_ms=_slot(nonce, "lock_wait_ms"),
        changes={target: change},
    )
    # the record as make_record builds it; its hash and line are the server's to make
    record = record_body(0, _slot(nonce, "prev"), 0.0, fields)
    record.update(
        seq=_slot(nonce, "seq"),
        time=_slot(nonce, "time"),
        ts=_slot(nonce, "ts"),
        hash=_slot(nonce, "hash"),
    )
    body = _cut(hashed_text(record), nonce)
    line = _cut(
        json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False), nonce
    )
    if body is None or line is None:
        return None
    want = {"seq", "prev", "before", "after", "lock_wait_ms", "time", "ts"}
    if op.action != "add":
        want.add("key")
    if sorted(body[1]) != sorted(want) or sorted(line[1]) != sorted(
        want | {"hash"} | ({"text"} if op.action != "add" else set())
    ):
        return None
    return body, line


def apply_in_server(
    memory: _Writer,
    target: str,
    ops: list[Op],
    attempt: Attempt | None,
    held_ok: bool,
    guards: Guards | None = None,
) -> list[Commit] | None:
    """The commits of ``ops`` applied by the backend in one round trip, with their audit
    record; None when this write is not one it can take (see the module docstring) or
    the backend declined it: nothing was written, today's path runs. ``guards``: a
    guarded call's (None: not a guarded call)."""
    backend_write = getattr(memory.backend, "server_write", None)
    gov = memory.governor
    if backend_write is None or gov is None or attempt is None or gov.extra or len(ops) != 1:
        return None
    if getattr(memory.backend, "server_writes", None) is False:
        return None  # the backend found it cannot (asked once per process)
    op = ops[0]
    if op.action not in ACTIONS or op.target not in (None, target) or op.expires:
        return None
    if gov.clock is not time.time or gov.journal.clock is not time.time:
        return None
    store = memory.store
    prepared = store.prepare(ops, batch=False, target=target, held_ok=held_ok)[0]
    if op.action == "add":
        assert prepared.content is not None
        text = prepared.content
    else:
        text = normalize_newlines(prepared.old_text or "").strip()
        if not text:
            return None
    cut = template(attempt, memory, target, prepared)
    if cut is None:
        return None
    # an add overwrites nothing: the seen-entries check does not apply (Memory._check_seen)
    known = None if guards is None or op.action == "add" else guards.known
    started = time.perf_counter()
    done = backend_write(
        target,
        op.action,
        text,
        store.limit(target),
        store.settings.lock_timeout,
        time.time(),
        *cut,
        prepared.content if op.action == "replace" else None,
        known,
        () if guards is None else guards.frozen,
    )
    if done is None or done.outcome != "ok" or done.found is None or done.line is None:
        return None
    write_ms = (time.perf_counter() - started) * 1000.0
    record: dict[str, Any] = json.loads(done.line)
    found: str = done.found
    # the entries found, from the text this store's last write found or left when the
    # text found is it, or it with entries appended (ServerTexts: only those are parsed)
    texts = store.server_texts
    before = texts.entries(target, found)
    new = prepared.content
    assert new is not None or op.action == "remove"
    if op.action == "add":
        assert new is not None
        gone = None
        # the function appended the entry (it is not among them: else a duplicate)
        after = extended(before, (*before, new))
        text = f"{found}{DELIMITER}{new}" if found else new  # as the function joins them
    else:
        gone = str(record["changes"][target]["removed"][0]["text"])
        rest = () if new is None else (new,)
        try:  # the one entry the function took (the pieces it accepts are distinct)
            at = before.index(gone)
        except ValueError:  # pragma: no cover - the function took one of them
            after = tuple(x for e in before for x in (rest if e == gone else (e,)))
        else:
            after = (*before[:at], *rest, *before[at + 1 :])
        text = serialize(after)
    texts.wrote(target, text, after, before if gone is None else None)
    result, change = _applied(op.action, new, gone, target)
    store.committed_elsewhere(target)
    commit = Commit(
        target,
        before,
        counted(after, len(text)),
        (result,),
        True,
        float(record["lock_wait_ms"]),
        write_ms,
        record["before"][target],
        record["after"][target],
        change,
    )
    attempt.recorded_elsewhere(record)
    return [commit]
