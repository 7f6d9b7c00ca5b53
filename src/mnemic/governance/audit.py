"""The audit journal: an append-only, hash-chained record of every write attempt.

Files under ``<home>/audit/``::

    journal.jsonl    one JSON object per line, appended under the lock, fdatasync'd
    head             the number of records and the hash of the last one (fixed size,
                     rewritten in place after each append)
    journal.lock     the sidecar lock appends are serialised by

Each record holds ``prev``, the hash of the record before it (64 zeros for the first),
and ``hash``, the SHA-256 of its own canonical JSON without ``hash``. :meth:`verify`
walks the chain and reports the first line that does not fit: an edited record fails
its own hash, a removed, inserted or moved record breaks the sequence numbers and the
chain, and records cut from the end show as a journal shorter than the head says.

Records never hold content (entry text, summaries, payloads): only ids, names, hashes
of files, decisions and error codes. So forgetting the user profile does not have to
rewrite the journal, and the journal can be shared for review without leaking memory.

The chain detects damage and edits made without recomputing it. Someone who can
rewrite the whole home can rewrite the whole chain too; keep a copy of the head hash
(``mnemic audit verify --json`` prints it) somewhere else to anchor it.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import StorageError, UnreadableFile, WriteFailed
from ..fsio import FILE_MODE, SidecarLock, ensure_private_dir

__all__ = ["GENESIS", "AuditJournal", "VerifyReport", "make_record", "record_hash", "verify_chain"]

GENESIS = "0" * 64
HEAD_SIZE = 160
_TAIL_WINDOW = 16384


def record_hash(record: dict[str, Any]) -> str:
    """SHA-256 of a record's canonical JSON, without its ``hash`` field."""
    body = {k: v for k, v in record.items() if k != "hash"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def make_record(
    seq: int, prev: str, now: float, fields: dict[str, Any]
) -> tuple[dict[str, Any], str]:
    """Record number ``seq`` chained to ``prev``, and its canonical JSON line."""
    record: dict[str, Any] = {
        "seq": seq,
        "id": os.urandom(8).hex(),
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
        "ts": round(now, 6),
        **{k: v for k, v in fields.items() if v is not None},
        "prev": prev,
    }
    record["hash"] = record_hash(record)
    line = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return record, line


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The outcome of :meth:`AuditJournal.verify`."""

    ok: bool
    records: int
    """Records that verified (all of them when ``ok``)."""
    first_bad_line: int | None = None
    problem: str | None = None
    head_count: int | None = None
    last_hash: str | None = None
    """Hash of the last verified record (anchor it elsewhere to detect a rewrite)."""
    notes: tuple[str, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "ok": self.ok,
            "records": self.records,
            "first_bad_line": self.first_bad_line,
            "problem": self.problem,
            "head_count": self.head_count,
            "last_hash": self.last_hash,
            "notes": list(self.notes),
        }


class AuditJournal:
    """The audit journal of one home."""

    def __init__(
        self,
        directory: Path,
        *,
        clock: Callable[[], float] = time.time,
        lock_timeout: float = 10.0,
        fsync: bool = True,
    ) -> None:
        self.directory = directory
        self.fsync = fsync
        self.path = directory / "journal.jsonl"
        self.head_path = directory / "head"
        self.lock_path = directory / "journal.lock"
        self.clock = clock
        self.lock_timeout = lock_timeout
        self._tail_cache: tuple[int, int, int, str] | None = None
        """(inode, size, seq, hash) after this instance's last append."""

    # -- appending -----------------------------------------------------------------
    def append(self, **fields: Any) -> dict[str, Any]:
        """Append one record (fields: session, actor, origin, subsystem, target, action,
        before, after, decision, result, error, ...); return it with id, seq and hashes.

        Raises :class:`StorageError` when the journal cannot be written.
        """
        try:
            ensure_private_dir(self.directory)
        except Exception as exc:
            raise WriteFailed(str(self.directory), str(exc)) from exc
        with SidecarLock(self.lock_path, self.lock_timeout):
            fd = self._open(os.O_RDWR | os.O_CREAT | os.O_APPEND)
            try:
                st = os.fstat(fd)
                cached = self._tail_cache
                if cached is not None and cached[:2] == (st.st_ino, st.st_size):
                    # Append-only under the lock: an unchanged size means nobody appended.
                    seq, prev, torn = cached[2], cached[3], False
                else:
                    seq, prev, torn = self._tail(fd)
                record, line = make_record(seq + 1, prev, self.clock(), fields)
                data = (b"\n" if torn else b"") + line.encode("utf-8") + b"\n"
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                if self.fsync:
                    os.fdatasync(fd)
                self._tail_cache = (st.st_ino, os.fstat(fd).st_size, record["seq"], record["hash"])
            except OSError as exc:
                raise WriteFailed(str(self.path), exc.strerror or str(exc)) from exc
            finally:
                os.close(fd)
            self._write_head(record["seq"], record["hash"])
            return record

    def _open(self, flags: int) -> int:
        try:
            return os.open(self.path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
        except OSError as exc:
            raise UnreadableFile(str(self.path), exc.strerror or str(exc)) from exc

    def _tail(self, fd: int) -> tuple[int, str, bool]:
        """(seq, hash) of the last complete record, and whether the file ends mid-line."""
        size = os.fstat(fd).st_size
        if size == 0:
            return 0, GENESIS, False
        window = _TAIL_WINDOW
        while True:
            start = max(0, size - window)
            chunk = os.pread(fd, size - start, start)
            torn = not chunk.endswith(b"\n")
            lines = chunk.split(b"\n")
            if torn:
                lines = lines[:-1]  # a line cut by a crash during an append
            complete = [ln for ln in (lines if start == 0 else lines[1:]) if ln.strip()]
            for ln in reversed(complete):
                try:
                    rec = json.loads(ln)
                    return int(rec["seq"]), str(rec["hash"]), torn
                except (ValueError, KeyError, TypeError):
                    continue  # damaged line: chain from the last good one (verify reports it)
            if start == 0:
                return 0, GENESIS, torn
            window *= 4

    def _write_head(self, count: int, last: str) -> None:
        """Rewrite the fixed-size head record in place (one small write, no rename)."""
        text = json.dumps({"count": count, "hash": last}, separators=(",", ":"))
        data = text.encode("ascii").ljust(HEAD_SIZE - 1) + b"\n"
        try:
            fd = os.open(self.head_path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW, FILE_MODE)
            try:
                os.pwrite(fd, data, 0)
            finally:
                os.close(fd)
        except OSError as exc:
            raise WriteFailed(str(self.head_path), exc.strerror or str(exc)) from exc

    def read_head(self) -> tuple[int, str] | None:
        """(count, last hash) from the head file; ``None`` if absent or unreadable."""
        try:
            with open(self.head_path, "rb") as fh:
                data = json.loads(fh.read(HEAD_SIZE * 2))
            return int(data["count"]), str(data["hash"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError):
            return (-1, "")

    # -- reading -------------------------------------------------------------------
    def _snapshot(self) -> tuple[bytes, tuple[int, str] | None]:
        """The journal bytes and the head, read consistently (the lock is held briefly)."""
        if not self.path.exists():
            return b"", self.read_head()
        with SidecarLock(self.lock_path, self.lock_timeout):
            head = self.read_head()
            fd = self._open(os.O_RDONLY)
            try:
                size = os.fstat(fd).st_size
            finally:
                os.close(fd)
        fd = self._open(os.O_RDONLY)
        try:
            chunks = []
            offset = 0
            while offset < size:
                chunk = os.pread(fd, min(1 << 20, size - offset), offset)
                if not chunk:
                    break
                chunks.append(chunk)
                offset += len(chunk)
        finally:
            os.close(fd)
        return b"".join(chunks), head

    def records(self) -> Iterator[dict[str, Any]]:
        """Every parsable record, oldest first (damaged lines are skipped: see verify)."""
        data, _ = self._snapshot()
        for line in data.split(b"\n"):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict):
                yield rec

    def verify(self) -> VerifyReport:
        """Walk the chain; report the first line that does not fit, and truncation."""
        try:
            data, head = self._snapshot()
        except StorageError as exc:
            return VerifyReport(False, 0, None, f"cannot read the journal: {exc.to_llm()}")
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        elif lines and lines[-1]:
            pass  # a last line without newline: checked like the others (it will fail)
        return verify_chain(lines, head)


def verify_chain(lines: list[bytes], head: tuple[int, str] | None) -> VerifyReport:
    """Check journal ``lines`` (one record each, oldest first) against ``head``.

    ``head`` is (count, hash of the last record) as the journal keeps it apart, ``None``
    when absent, or a negative count when unreadable. Shared by every journal storage.
    """
    prev = GENESIS
    count = 0
    head_count = head[0] if head else None
    for number, line in enumerate(lines, 1):
        problem = _check_line(line, number, prev)
        if problem is not None:
            return VerifyReport(False, count, number, problem, head_count, prev)
        rec = json.loads(line)
        prev = rec["hash"]
        count += 1
    notes: list[str] = []
    if head is None:
        if count:
            return VerifyReport(
                False,
                count,
                None,
                "the head file is missing although the journal has records: it was "
                "deleted, so truncation cannot be ruled out",
                None,
                prev,
            )
    elif head[0] < 0:
        return VerifyReport(False, count, None, "the head file is damaged", None, prev)
    elif head[0] > count:
        return VerifyReport(
            False,
            count,
            count + 1,
            f"the journal ends after {count} record(s) but the head says {head[0]}: "
            "records were removed from the end (truncated)",
            head[0],
            prev,
        )
    elif head[0] == count and head[1] != prev:
        return VerifyReport(
            False,
            count,
            count,
            "the last record does not match the hash kept in the head: it was replaced",
            head[0],
            prev,
        )
    elif head[0] < count:
        notes.append(
            f"the head is {count - head[0]} record(s) behind the journal (an append "
            "interrupted by a crash; the next append repairs it)"
        )
    return VerifyReport(True, count, None, None, head_count, prev, tuple(notes))


def _check_line(line: bytes, number: int, prev: str) -> str | None:
    try:
        rec = json.loads(line)
    except ValueError:
        return f"line {number} is not valid JSON (damaged or cut)"
    if not isinstance(rec, dict) or not isinstance(rec.get("hash"), str):
        return f"line {number} is not an audit record"
    if rec.get("seq") != number:
        return (
            f"line {number} holds record number {rec.get('seq')!r}: records were removed, "
            "inserted or reordered"
        )
    if rec.get("prev") != prev:
        return f"line {number} does not chain to the record before it (prev hash differs)"
    if record_hash(rec) != rec["hash"]:
        return f"line {number} does not match its own hash: the record was edited"
    return None
