"""The hash chain of the audit journal: record hashing and verification.

Each record holds ``prev``, the hash of the record before it (64 zeros for the first),
``seq``, its number (1, 2, ...), and ``hash``, the SHA-256 of its own canonical JSON
without ``hash``. :func:`verify_chain` checks every record of a journal, whatever the
storage (a file or a database table), and reports *every* problem, first line first:

- a line that is not a complete record (damaged);
- a record that does not match its own hash (edited), that does not follow the record
  before it in number (removed, inserted or reordered) or in hash (the chain is broken);
- the head (count and last hash, kept apart from the journal) disagreeing with the end of
  the journal (records cut from the end, or the last record replaced);
- a crash repair that cut a record the head had already counted.

A torn tail (the bytes of an append cut short by a crash: a final fragment with no
newline) is reported apart, as crash damage, not tampering: the next append cuts it and
records a ``repair`` record with the length and hash of what it cut. After any problem
the walk goes on from the record that follows, so tampering after damage stays visible.

:class:`Journal` is that policy over a raw :class:`JournalStore` (a JSON Lines file with
its head, a database table): the store appends lines under its lock and reads them back;
numbering, chaining, the repair record and verification happen here, once.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import MnemicError

__all__ = [
    "GENESIS",
    "AuditProblem",
    "Explain",
    "FirstSeen",
    "Journal",
    "JournalSnapshot",
    "JournalStore",
    "JournalTail",
    "Origin",
    "VerifyReport",
    "commit_origins",
    "hashed_text",
    "make_record",
    "record_body",
    "record_hash",
    "record_texts",
    "recorded_states",
    "text_key",
    "verify_chain",
]

GENESIS = "0" * 64
REPAIR_ACTION = "repair"
"""``action`` of the record an append writes after cutting a torn tail."""
RECOVERED_ACTION = "recovered"
"""``action`` of the record that accounts, after the fact, for a change of a target that
has no record of its own (a write whose record a crash lost, or a hand edit)."""


@dataclass(frozen=True, slots=True)
class Origin:
    """The content hash a commit found its target in (``None``: no file), which it kept
    as the newest history version (none when there was no file)."""

    state: str | None


FirstSeen = Callable[[str], list[dict[str, str]]]
"""``first_seen(target)``: the entries ``target`` holds now, ``{"key", "text"}`` each (a
record that is the first to name it lists them)."""

TextMatch = Callable[[dict[str, Any], str, str, dict[str, Any]], bool]
"""``match(record, target, list name, item)``: whether to drop the text of ``item`` (see
:meth:`Journal.forget_texts`)."""

Explain = Callable[[str, str | None, str | None, Origin | None], dict[str, Any]]
"""``explain(target, recorded, found, came_from)``: extra fields of a ``recovered`` record
(its ``cause``), given the state the last record left, the state found under the lock,
and where the commit of that record started from (:func:`commit_origins`; ``None``
when that is not known)."""


@functools.lru_cache(maxsize=4096)
def text_key(text: str) -> str:
    """The key of a text a record may hold: its SHA-256 (hex, 32 digits). A record's
    hash covers the key, never the text (see :func:`record_hash`)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def record_hash(record: dict[str, Any]) -> str:
    """SHA-256 of a record's canonical JSON, without its ``hash`` field and without the
    texts it holds (each ``text`` of an item listed in ``changes.<target>``: its
    ``key`` is hashed instead), so that a text can be dropped from a record (forgotten)
    and the chain still verifies; :func:`verify_chain` checks each text against its key.
    """
    return hashlib.sha256(hashed_text(record).encode("utf-8")).hexdigest()


def hashed_text(record: dict[str, Any]) -> str:
    """The canonical JSON :func:`record_hash` hashes: the record without ``hash`` and
    without its entries' texts (sorted keys, no spaces, not ASCII-escaped)."""
    body = {k: v for k, v in record.items() if k != "hash"}
    changes = body.get("changes")
    if isinstance(changes, dict):
        body["changes"] = {t: _textless(c) for t, c in changes.items()}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _textless(change: object) -> object:
    if not isinstance(change, dict):
        return change
    out = dict(change)
    for name, items in change.items():
        if isinstance(items, list):
            out[name] = [
                {k: v for k, v in item.items() if k != "text"} if isinstance(item, dict) else item
                for item in items
            ]
    return out


def record_texts(record: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """``(target, list name, item)`` of each entry a record's ``changes`` name by key
    (``added``, ``removed``, ``seen``, ``found``), with or without its text."""
    changes = record.get("changes")
    if not isinstance(changes, dict):
        return
    for target, change in changes.items():
        if not isinstance(change, dict):
            continue
        for name, items in change.items():
            if isinstance(items, list):
                for item in items:
                    if isinstance(item, dict):
                        yield str(target), str(name), item


def _bad_texts(record: dict[str, Any]) -> list[str]:
    """What is wrong with the texts a record holds: each must match its key."""
    out = []
    for target, name, item in record_texts(record):
        text, key = item.get("text"), item.get("key")
        if text is None:
            continue
        if not isinstance(text, str) or not isinstance(key, str) or text_key(text) != key:
            out.append(f"holds an entry of {target} ({name}) whose text does not match its key")
    return out


def record_body(seq: int, prev: str, now: float, fields: dict[str, Any]) -> dict[str, Any]:
    """Record number ``seq`` chained to ``prev``, without its ``hash`` (what
    :func:`make_record` hashes; a server write's template fills the rest in the server)."""
    return {
        "seq": seq,
        "id": os.urandom(8).hex(),
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
        "ts": round(now, 6),
        **{k: v for k, v in fields.items() if v is not None},
        "prev": prev,
    }


def make_record(
    seq: int, prev: str, now: float, fields: dict[str, Any]
) -> tuple[dict[str, Any], str]:
    """Record number ``seq`` chained to ``prev``, and its canonical JSON line."""
    record = record_body(seq, prev, now, fields)
    record["hash"] = record_hash(record)
    line = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return record, line


@dataclass(frozen=True, slots=True)
class AuditProblem:
    """One thing :func:`verify_chain` found wrong."""

    line: int | None
    """1-based line (record position) it was found at; ``None`` for the head file."""
    kind: str
    """``tampered`` (a complete record edited, removed, inserted, reordered, replaced, or
    records cut from the end), ``damaged`` (a line that is not a record, an unreadable
    head or journal) or ``torn_tail`` (crash damage: the fragment of a cut append)."""
    message: str

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The outcome of a journal's ``verify()``."""

    ok: bool
    """No tampering and no damage (a torn tail alone leaves the journal ok)."""
    records: int
    """Records that verified (all of them when ``ok``)."""
    first_bad_line: int | None = None
    problem: str | None = None
    """The first problem that makes the journal not ok."""
    head_count: int | None = None
    last_hash: str | None = None
    """Hash of the last record (anchor it elsewhere to detect a rewrite)."""
    notes: tuple[str, ...] = field(default_factory=tuple)
    problems: tuple[AuditProblem, ...] = field(default_factory=tuple)
    """Every problem found, in journal order (a torn tail is one, of kind torn_tail)."""
    torn_tail: dict[str, Any] | None = None
    """``{"offset", "bytes", "sha256"}`` of a final fragment left by a crash."""
    outside_changes: tuple[str, ...] = field(default_factory=tuple)
    """Where a target's content changed between two of its records with no record of the
    change (not tampering with the journal: hand edits do it; so does a crash that lost a
    record)."""
    last_states: dict[str, str | None] = field(default_factory=dict)
    """The content hash each target had at its last record (``None``: no file then)."""
    recovered: tuple[str, ...] = field(default_factory=tuple)
    """Changes recorded after the fact by a ``recovered`` record (accounted for, so not
    in ``outside_changes``), each with its cause: ``lost_record`` (a mnemic write whose
    record a crash lost), ``outside_edit`` (a hand edit or an unaudited writer) or
    ``unknown``."""

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return dataclasses.asdict(self)


def unreadable(reason: str) -> VerifyReport:
    """The report of a journal that could not be read at all."""
    message = f"cannot read the journal: {reason}"
    return VerifyReport(False, 0, None, message, problems=(AuditProblem(None, "damaged", message),))


def torn_tail_info(fragment: bytes, offset: int) -> dict[str, Any]:
    """What :attr:`VerifyReport.torn_tail` and a repair record say about a fragment."""
    return {
        "offset": offset,
        "bytes": len(fragment),
        "sha256": hashlib.sha256(fragment).hexdigest(),
    }


def verify_chain(
    lines: list[bytes],
    head: tuple[int, str] | None,
    *,
    torn: bytes | None = None,
    torn_offset: int = 0,
) -> VerifyReport:
    """Check journal ``lines`` (one record each, oldest first) against ``head``.

    ``head`` is (count, hash of the last record) as the journal keeps it apart, ``None``
    when absent, or a negative count when unreadable. ``torn`` is a final fragment
    without a newline (file journals only), found at byte ``torn_offset``. Shared by
    every journal storage.
    """
    problems: list[AuditProblem] = []
    prev_hash = GENESIS
    prev_seq = 0
    good = 0
    states: dict[str, tuple[int, object]] = {}
    outside: list[str] = []
    recovered: list[str] = []
    for number, line in enumerate(lines, 1):
        rec = _parse(line)
        if isinstance(rec, str):
            problems.append(AuditProblem(number, "damaged", f"line {number} {rec}"))
            continue
        issues = _issues(rec, prev_seq, prev_hash)
        if issues:
            problems.append(AuditProblem(number, "tampered", f"line {number} " + "; ".join(issues)))
        else:
            good += 1
            _follow_states(rec, number, states, outside)
            if rec.get("action") == RECOVERED_ACTION and rec.get("cause") == "not_committed":
                recovered.append(
                    f"line {number}: the last record of {rec.get('target')} before it never "
                    "committed (its writer died before the rename); recorded after the fact "
                    "(cause: not_committed)"
                )
            elif rec.get("action") == RECOVERED_ACTION:
                recovered.append(
                    f"line {number}: {rec.get('target')} had changed with no record of its "
                    f"own; recorded after the fact (cause: {rec.get('cause', 'unknown')})"
                )
        seq = rec["seq"]
        prev_seq, prev_hash = seq, rec["hash"]
    notes: list[str] = []
    problems.extend(_head_problems(head, prev_seq, prev_hash, len(lines), notes))
    torn_info = None
    if torn:
        torn_info = torn_tail_info(torn, torn_offset)
        message = (
            f"the journal ends with an incomplete record of {len(torn)} byte(s): an append "
            "cut short by a crash, not tampering by itself. The next audited write cuts it "
            "and records the repair (`mnemic memory doctor --fix` does it now)"
        )
        problems.append(AuditProblem(len(lines) + 1, "torn_tail", message))
        notes.append(message)
    serious = [p for p in problems if p.kind != "torn_tail"]
    first = serious[0] if serious else None
    return VerifyReport(
        ok=first is None,
        records=good,
        first_bad_line=first.line if first else None,
        problem=first.message if first else None,
        head_count=head[0] if head and head[0] >= 0 else None,
        last_hash=prev_hash,
        notes=tuple(notes),
        problems=tuple(problems),
        torn_tail=torn_info,
        outside_changes=tuple(outside),
        recovered=tuple(recovered),
        last_states={t: h for t, (_, h) in states.items() if isinstance(h, str) or h is None},
    )


def _follow_states(
    rec: dict[str, Any], number: int, states: dict[str, tuple[int, object]], outside: list[str]
) -> None:
    """Follow each target's content hash from record to record. A record whose ``before``
    (the state its writer found under the lock) differs from the state the previous record
    of that target left means the target changed with no record in between: a hand edit,
    a write by something that does not audit, or a write whose record a crash lost."""
    if rec.get("result") != "ok":
        return  # only a commit's hashes were taken under the target's lock
    before, after = rec.get("before"), rec.get("after")
    if isinstance(before, dict):
        for target, found in before.items():
            seen = states.get(target)
            if seen is not None and found != seen[1]:
                outside.append(
                    f"line {number}: {target} had changed since line {seen[0]} with no record "
                    "in between (a hand edit, or a write whose record a crash lost)"
                )
            states[target] = (number, found)
    if isinstance(after, dict):
        for target, left in after.items():
            states[target] = (number, left)


def commit_origins(rec: dict[str, Any]) -> dict[str, Origin]:
    """Where the commit of ``rec`` started from, for each target it changed (named in
    ``before`` and, with another state, in ``after``). A ``recovered`` record changed
    no file: none."""
    if rec.get("result") != "ok" or rec.get("action") == RECOVERED_ACTION:
        return {}
    before, after = rec.get("before"), rec.get("after")
    if not isinstance(before, dict) or not isinstance(after, dict):
        return {}
    # A record of a group commit (``batch``) chains through states no file held: its
    # commit started from the state the batch's one rename replaced.
    batch = rec.get("batch")
    start = batch.get("from") if isinstance(batch, dict) else None
    start = start if isinstance(start, dict) else {}
    return {
        t: Origin(start.get(t, h))
        for t, h in before.items()
        if t in after and (h is None or isinstance(h, str)) and h != after[t]
    }


def recorded_states(rec: dict[str, Any]) -> dict[str, str | None]:
    """The content hash each target has after ``rec``, as far as ``rec`` says: a commit
    record (result ``ok``) leaves its ``after`` states, and its ``before`` ones for
    targets it names only there. Other records say nothing about content."""
    if rec.get("result") != "ok":
        return {}
    out: dict[str, str | None] = {}
    for side in (rec.get("before"), rec.get("after")):
        if isinstance(side, dict):
            for target, state in side.items():
                if isinstance(target, str) and (state is None or isinstance(state, str)):
                    out[target] = state
    return out


def _parse(line: bytes) -> dict[str, Any] | str:
    """The record on ``line``, or what is wrong with it."""
    if not line.strip():
        return "is empty (damaged)"
    try:
        rec = json.loads(line)
    except ValueError:
        return "is not valid JSON (damaged or cut)"
    if (
        not isinstance(rec, dict)
        or not isinstance(rec.get("hash"), str)
        or not isinstance(rec.get("seq"), int)
        or isinstance(rec.get("seq"), bool)
    ):
        return "is not an audit record"
    return rec


def _issues(rec: dict[str, Any], prev_seq: int, prev_hash: str) -> list[str]:
    issues = []
    if record_hash(rec) != rec["hash"]:
        issues.append("does not match its own hash: the record was edited")
    issues += _bad_texts(rec)
    if rec["seq"] != prev_seq + 1:
        issues.append(
            f"holds record number {rec['seq']} after record {prev_seq}: records were "
            "removed, inserted or reordered"
        )
    elif rec.get("prev") != prev_hash:
        issues.append("does not chain to the record before it (prev hash differs)")
    counted = rec.get("head_count")
    if rec.get("action") == REPAIR_ACTION and isinstance(counted, int) and counted > rec["seq"] - 1:
        issues.append(
            f"is a crash repair that cut the end of the journal although the head had "
            f"counted {counted} record(s) and only {rec['seq'] - 1} remained: complete "
            "records were removed (or lost in a power cut with audit.fsync = false)"
        )
    return issues


def _head_problems(
    head: tuple[int, str] | None, last_seq: int, last_hash: str, n_lines: int, notes: list[str]
) -> list[AuditProblem]:
    if head is None:
        if last_seq:
            return [
                AuditProblem(
                    None,
                    "tampered",
                    "the head file is missing although the journal has records: it was "
                    "deleted, so truncation cannot be ruled out",
                )
            ]
        return []
    count, kept_hash = head
    if count < 0:
        return [AuditProblem(None, "damaged", "the head file is damaged")]
    if count > last_seq:
        return [
            AuditProblem(
                n_lines + 1,
                "tampered",
                f"the journal ends after record {last_seq} but the head says {count}: "
                "records were removed from the end (truncated)",
            )
        ]
    if count == last_seq and kept_hash != last_hash:
        return [
            AuditProblem(
                n_lines,
                "tampered",
                "the last record does not match the hash kept in the head: it was replaced",
            )
        ]
    if count < last_seq:
        notes.append(
            f"the head is {last_seq - count} record(s) behind the journal (an append "
            "interrupted by a crash; the next append repairs it)"
        )
    return []


# -- the journal: the policy above, over a raw store ------------------------------------

Entry = tuple[dict[str, Any], str]
"""A record and its canonical JSON line (what a store appends)."""


@dataclass(frozen=True, slots=True)
class JournalTail:
    """The end of a journal as its store sees it under the append lock: number and hash
    of the last complete record (0 and :data:`GENESIS` when empty) and a fragment left by
    a crash, which the store cuts before appending, with the head's count then."""

    seq: int
    hash: str
    torn: bytes | None = None
    head_count: int | None = None
    recorded: Callable[[str], tuple[bool, str | None, Origin | None]] | None = None
    """``recorded(target)``: (whether any commit record names it, the content hash the
    last one left, where its commit started from: :func:`commit_origins`, ``None`` when
    not known) under the append lock; ``None`` where the store does not follow states
    (then no ``recovered`` record is written)."""


@dataclass(frozen=True, slots=True)
class JournalSnapshot:
    """A journal read at one moment: one line per record, oldest first; the head kept
    apart, as :func:`verify_chain` takes it; a torn tail and its offset (file stores)."""

    lines: list[bytes]
    head: tuple[int, str] | None
    torn: bytes | None = None
    torn_offset: int = 0


class JournalStore(Protocol):
    """Where a journal's lines live: the raw part a storage backend provides.

    ``append(build)``, under the store's append lock: read the tail, call ``build`` with
    it, cut a torn tail if there is one, append the lines ``build`` returned, move the
    head to the last of them, and return them (StorageError if it cannot). ``snapshot``
    reads every line, the head and a torn tail (a final fragment a crash left: never,
    where an append is one transaction) consistently. ``location`` says where the lines
    are, for messages.
    """

    @property
    def location(self) -> str: ...
    def append(self, build: Callable[[JournalTail], list[Entry]]) -> list[Entry]: ...
    def snapshot(self) -> JournalSnapshot: ...

    def lines_after(self, ident: str | None, position: int) -> tuple[str, int, list[bytes]]:
        """``(ident, end, lines)``: the complete records after ``position`` of the
        journal ``ident`` (from the start when the journal is not that one any more),
        the identity of the journal read and the position after its last line."""
        ...

    def read_cache(self) -> str | None:
        """The cached fold of the journal (``None``: none, or unreadable)."""
        ...

    def write_cache(self, ident: str, text: str) -> None:
        """Cache a fold of the journal ``ident`` (not durable; never raises)."""
        ...

    def rewrite(self, edit: Callable[[dict[str, Any]], bool]) -> int:
        """Apply ``edit`` to every record under the append lock, storing those it
        changed (it may only drop texts), and drop the cached fold; return how many
        changed. The journal's identity changes, so no fold of the old lines is used."""
        ...


class Journal:
    """The append-only, hash-chained audit journal over a raw :class:`JournalStore`."""

    def __init__(self, store: JournalStore, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.location = store.location
        """Where the journal lives (a path or a database table), for messages."""

    def append(
        self,
        *,
        reconcile: Explain | None = None,
        first_seen: FirstSeen | None = None,
        **fields: Any,
    ) -> dict[str, Any]:
        """Append one record (fields: session, actor, origin, subsystem, target, action,
        before, after, decision, result, error, ...); return it with id, seq and hashes.

        A torn tail left by a crash is cut first, and its repair recorded. With
        ``reconcile`` (a commit's record, appended under its targets' locks), each target
        whose ``before`` state differs from the state its last record left first gets a
        ``recovered`` record, with the fields ``reconcile`` gives (see
        :meth:`reconcile`). Raises :class:`~mnemic.errors.StorageError` when the journal
        cannot be written (:class:`~mnemic.errors.ReadOnlyHome` on a read-only home).

        ``first_seen(target)`` gives the entries a target held before this record's
        change; a record whose ``changes`` name a target no earlier record
        named lists them (``seen``), once, so that a fold knows them from then on.
        """
        build = functools.partial(self._entries, fields=fields, reconcile=reconcile)
        return self.store.append(lambda tail: build(tail, first_seen=first_seen))[-1][0]

    def append_all(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Append several records in one append, chained in order (a group commit's
        records of the requests its holder applied: :mod:`mnemic.curated.groupcommit`);
        return them with id, seq and hashes. Raises like :meth:`append`."""

        def build(tail: JournalTail) -> list[Entry]:
            out = self._entries(tail, None) if tail.torn is not None else []
            seq, prev = (out[-1][0]["seq"], out[-1][0]["hash"]) if out else (tail.seq, tail.hash)
            now = self.clock()
            for fields in records:
                out.append(make_record(seq + 1, prev, now, fields))
                seq, prev = seq + 1, out[-1][0]["hash"]
            return out

        return [rec for rec, _ in self.store.append(build) if rec.get("action") != REPAIR_ACTION]

    def reconcile(
        self,
        found: dict[str, str | None],
        explain: Explain,
        *,
        first_seen: FirstSeen | None = None,
        **context: Any,
    ) -> list[dict[str, Any]]:
        """Record, after the fact, each change of a target that has no record of its own.

        ``found`` is each target's content hash, taken under the target's lock (held by
        the caller until this returns). A target whose last commit record left another
        state gets a ``recovered`` record (actor ``mnemic``) from that state to the one
        found, with ``explain``'s fields (its ``cause``) and ``context`` (who noticed).
        Returns the records appended (none when the journal already accounts for every
        change, or when its store does not follow states). With ``first_seen``, a target
        no record names yet gets one too (cause ``first_seen``), listing the entries it
        holds (``seen``), when it holds any.
        """
        fields = {**context, "before": found, "result": "ok"}
        written = self.store.append(lambda tail: self._recovered(tail, fields, explain, first_seen))
        return [rec for rec, _ in written]

    def _recovered(
        self,
        tail: JournalTail,
        fields: dict[str, Any],
        explain: Explain,
        first_seen: FirstSeen | None,
    ) -> list[Entry]:
        out: list[Entry] = []
        seq, prev = tail.seq, tail.hash
        if tail.torn is not None:
            out.append(make_record(seq + 1, prev, self.clock(), _repair_fields(tail)))
            seq, prev = seq + 1, out[-1][0]["hash"]
        out += self._recoveries(tail, fields, explain, seq, prev)
        if first_seen is None or tail.recorded is None:
            return out
        if out:
            seq, prev = out[-1][0]["seq"], out[-1][0]["hash"]
        for target, state in sorted(fields["before"].items()):
            if tail.recorded(target)[0]:
                continue
            seen = first_seen(target)
            if not seen:
                continue
            rec_fields = {
                **{k: fields.get(k) for k in ("subsystem", "session")},
                "target": target,
                "action": RECOVERED_ACTION,
                "actor": "mnemic",
                "origin": "recovery",
                "noticed_by": fields.get("origin"),
                "result": "ok",
                "cause": "first_seen",
                "before": {target: state},
                "after": {target: state},
                "changes": {target: {"added": [], "removed": [], "seen": seen}},
                "reason": "entries no record names yet, seen for the first time",
            }
            out.append(make_record(seq + 1, prev, self.clock(), rec_fields))
            seq, prev = seq + 1, out[-1][0]["hash"]
        return out

    def _recoveries(
        self, tail: JournalTail, fields: dict[str, Any], explain: Explain, seq: int, prev: str
    ) -> list[Entry]:
        found = fields.get("before")
        if tail.recorded is None or fields.get("result") not in ("ok", "noop"):
            return []
        if not isinstance(found, dict):
            return []
        out: list[Entry] = []
        now = self.clock()
        for target in sorted(found):
            known, recorded, came_from = tail.recorded(target)
            if not known or recorded == found[target]:
                continue
            rec_fields = {
                "subsystem": fields.get("subsystem"),
                "target": target,
                "action": RECOVERED_ACTION,
                "actor": "mnemic",
                "origin": "recovery",
                "session": fields.get("session"),
                "noticed_by": fields.get("origin"),
                "result": "ok",
                "before": {target: recorded},
                "after": {target: found[target]},
                "reason": (
                    "the target changed after its last record with no record of its own; "
                    "the change is recorded now, by the next writer under the target's lock"
                ),
                **explain(target, recorded, found[target], came_from),
            }
            out.append(make_record(seq + 1, prev, now, rec_fields))
            seq, prev = seq + 1, out[-1][0]["hash"]
        return out

    def forget_texts(self, match: TextMatch) -> int:
        """Drop from every record the texts ``match(record, target, list, item)`` selects
        (``item``: an entry a record's ``changes`` list, with its ``key`` and ``text``),
        byte for byte; the chain still verifies (its hashes leave texts out). Returns
        how many texts went."""
        dropped = [0]

        def edit(rec: dict[str, Any]) -> bool:
            changed = False
            for target, name, item in record_texts(rec):
                if isinstance(item.get("text"), str) and match(rec, target, name, item):
                    del item["text"]
                    dropped[0] += 1
                    changed = True
            return changed

        self.store.rewrite(edit)
        return dropped[0]

    def repair(self) -> dict[str, Any] | None:
        """Cut a torn tail now, as the next append would, and record the repair.

        Returns the ``repair`` record, or ``None`` when the journal ends cleanly.
        """
        if self.torn_tail() is None:
            return None
        written = self.store.append(lambda tail: self._entries(tail, None))
        return written[-1][0] if written else None

    def torn_tail(self) -> dict[str, Any] | None:
        """``{"offset", "bytes", "sha256"}`` of a final fragment left by a crash, or None."""
        snap = self.store.snapshot()
        return None if not snap.torn else torn_tail_info(snap.torn, snap.torn_offset)

    def _entries(
        self,
        tail: JournalTail,
        fields: dict[str, Any] | None,
        reconcile: Explain | None = None,
        first_seen: FirstSeen | None = None,
    ) -> list[Entry]:
        now = self.clock()
        out: list[Entry] = []
        seq, prev = tail.seq, tail.hash
        if tail.torn is not None:
            out.append(make_record(seq + 1, prev, now, _repair_fields(tail)))
            seq, prev = seq + 1, out[-1][0]["hash"]
        if fields is not None and reconcile is not None:
            out += self._recoveries(tail, fields, reconcile, seq, prev)
            if out:
                seq, prev = out[-1][0]["seq"], out[-1][0]["hash"]
        if fields is not None:
            if first_seen is not None:
                fields = _with_first_seen(tail, fields, first_seen)
            out.append(make_record(seq + 1, prev, now, fields))
        return out

    def records(self) -> Iterator[dict[str, Any]]:
        """Every parsable record, oldest first (damaged lines are skipped: see verify)."""
        for line in self.store.snapshot().lines:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict):
                yield rec

    def verify(self) -> VerifyReport:
        """Walk the chain; report every record that does not fit, truncation, and a torn
        tail left by a crash (apart: it does not make the journal fail)."""
        try:
            snap = self.store.snapshot()
        except MnemicError as exc:
            return unreadable(exc.to_llm())
        return verify_chain(snap.lines, snap.head, torn=snap.torn, torn_offset=snap.torn_offset)


def _with_first_seen(
    tail: JournalTail, fields: dict[str, Any], first_seen: FirstSeen
) -> dict[str, Any]:
    """``fields`` with ``seen`` added to the change of each target no record names yet."""
    changes = fields.get("changes")
    if tail.recorded is None or not isinstance(changes, dict):
        return fields
    out = dict(changes)
    for target, change in changes.items():
        if isinstance(change, dict) and not tail.recorded(target)[0]:
            seen = first_seen(target)
            if seen:
                out[target] = {**change, "seen": seen}
    return {**fields, "changes": out}


def _repair_fields(tail: JournalTail) -> dict[str, Any]:
    """The record that says a torn tail was cut: its length and hash, never its bytes."""
    fragment = tail.torn or b""
    return {
        "action": REPAIR_ACTION,
        "subsystem": "audit",
        "actor": "mnemic",
        "result": "ok",
        "reason": "torn tail: an append cut short by a crash",
        "cut_bytes": len(fragment),
        "cut_sha256": hashlib.sha256(fragment).hexdigest(),
        "head_count": tail.head_count,
    }
