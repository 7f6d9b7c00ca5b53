"""The audit journal: an append-only, hash-chained record of every write attempt.

Files under ``<home>/audit/``::

    journal.jsonl    one JSON object per line, appended under the lock; fdatasync'd
                     right after, in this process's flusher thread (:mod:`.flusher`)
    head             the number of records and the hash of the last one (fixed size,
                     rewritten in place once the records it names are flushed)
    journal.lock     the sidecar lock appends are serialised by

Each record holds ``prev``, the hash of the record before it (64 zeros for the first),
and ``hash``, the SHA-256 of its own canonical JSON without ``hash``. The records, the
chain, the repair record and verification are :class:`~.chain.Journal`'s; this module is
the raw store under it (:class:`FileJournalStore`): it appends lines under the lock,
keeps the head, reads the lines back and finds a torn tail. :meth:`verify` reports every
line that does not fit, first line first: an edited record fails its own hash, a
removed, inserted or moved record breaks the sequence numbers and the chain, and records
cut from the end show as a journal shorter than the head says.

Crashes: a process killed in the middle of an append can leave a torn tail, a final
fragment without a newline. The next append (or :meth:`AuditJournal.repair`, run by
``mnemic memory doctor --fix``) cuts it under the journal lock and first appends a
``repair`` record holding the length and SHA-256 of the bytes it cut (never the bytes)
and the head count at that moment; verify reports a torn tail as crash damage, and a
repair that cut a record the head had counted as tampering.

The store also follows each target's last recorded state (:func:`~.chain.recorded_states`)
for :meth:`~.chain.Journal.append`'s ``reconcile``: a record of a change that lost its
own record is appended first (``recovered``, see :mod:`mnemic.curated.recovery`).

A commit's record holds the entry texts it added and removed (``changes``: the journal
is the one durable record of memory, from which provenance and the archive are folded);
no other field holds content (summaries, payloads, refusals). The chain's hashes leave
those texts out, so :meth:`FileJournalStore.rewrite` (``mnemic forget``, ``[retention]
archive_days``) drops them byte for byte, as a new file renamed into place under the
lock, and the chain still verifies. ``fold.json`` beside it caches the fold (0600, no
fsync; removed with a rewrite).

The chain detects damage and edits made without recomputing it. Someone who can
rewrite the whole home can rewrite the whole chain too; keep a copy of the head hash
(``mnemic audit verify --json`` prints it) somewhere else to anchor it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ...errors import ReadOnlyHome, StorageError, UnreadableFile, WriteFailed
from ...fsio import (
    FILE_MODE,
    SidecarLock,
    atomic_write_bytes,
    atomic_write_text,
    ensure_private_dir,
    fsync_dir,
    open_regular,
    read_bytes_strict,
    read_text_strict,
)
from ...governance.chain import (
    GENESIS,
    AuditProblem,
    Entry,
    Journal,
    JournalSnapshot,
    JournalTail,
    Origin,
    VerifyReport,
    commit_origins,
    make_record,
    record_hash,
    recorded_states,
    verify_chain,
)
from . import flusher
from .lost import TAIL_WINDOW, naming_back, needle as _needle, parse_line as _parse_line

log = logging.getLogger(__name__)

__all__ = [
    "GENESIS",
    "AuditJournal",
    "AuditProblem",
    "FileJournalStore",
    "VerifyReport",
    "make_record",
    "record_hash",
    "verify_chain",
]

HEAD_SIZE = 160
MAX_CACHE_BYTES = 256 * 1024 * 1024
_TAIL_WINDOW = TAIL_WINDOW
_FIRST_LINE_CHUNK = 4096
_IDENTITY_SAMPLE = 512
"""Bytes of each end of a journal's first line that go into its identity."""
_READ_ONLY_ERRNOS = (errno.EACCES, errno.EPERM, errno.EROFS)


class AuditJournal(Journal):
    """The audit journal of one home, in ``directory`` (see the module docstring)."""

    def __init__(
        self,
        directory: Path,
        *,
        clock: Callable[[], float] = time.time,
        lock_timeout: float = 10.0,
        fsync: bool = True,
    ) -> None:
        store = FileJournalStore(directory, lock_timeout=lock_timeout, fsync=fsync)
        super().__init__(store, clock=clock)


class FileJournalStore:
    """``journal.jsonl`` and ``head`` in one directory: a :class:`~.chain.JournalStore`."""

    def __init__(self, directory: Path, *, lock_timeout: float = 10.0, fsync: bool = True) -> None:
        self.directory = directory
        self.fsync = fsync
        self.path = directory / "journal.jsonl"
        self.head_path = directory / "head"
        self.lock_path = directory / "journal.lock"
        self.lock_timeout = lock_timeout
        self._unflushed: tuple[int, str, str] | None = None
        """(seq, hash) of the last record this instance appended, for the flush, and the
        identity of the journal file it went to (:func:`_identity`)."""
        self._states: _States | None = None
        """Each target's last recorded state, as far as the journal was read."""
        self._tail_cache: tuple[str, int, int, str] | None = None
        """(identity of the journal file (:func:`_identity`), size, seq, hash) after this
        instance's last append."""

    @property
    def location(self) -> str:
        """Where the journal lives, for messages."""
        return str(self.path)

    # -- appending -----------------------------------------------------------------
    def append(self, build: Callable[[JournalTail], list[Entry]]) -> list[Entry]:
        """Append what ``build`` makes of the tail, under the lock (see the protocol).

        The lines are written before this returns; with ``fsync`` their flush to disk
        (and the head's move to them) is left to this process's flusher thread
        (:mod:`.flusher`), so the caller does not wait for a second disk commit.
        """
        try:
            ensure_private_dir(self.directory)
        except ReadOnlyHome:
            raise
        except Exception as exc:
            raise WriteFailed(str(self.directory), str(exc)) from exc
        with SidecarLock(self.lock_path, self.lock_timeout, keep=True):
            fd = self._open(os.O_RDWR | os.O_CREAT | os.O_APPEND)
            try:
                st = os.fstat(fd)
                size = st.st_size
                ident = _identity(fd, st)  # not the inode alone: a journal made again
                cached = self._tail_cache  # at this path may get the old one's number
                torn_at = None
                if cached is not None and cached[:2] == (ident, size):
                    # Append-only under the lock: an unchanged size means nobody appended.
                    tail = JournalTail(cached[2], cached[3])
                else:
                    seq, prev, torn_at = self._tail(fd, size)
                    torn = None if torn_at is None else os.pread(fd, size - torn_at, torn_at)
                    if torn:  # first, so that the head counts what this process appended
                        flusher.drain()
                    head = self.read_head() if torn else None  # what it counted before a crash
                    count = head[0] if head is not None and head[0] >= 0 else None
                    tail = JournalTail(seq, prev, torn, count)
                end = size if torn_at is None else torn_at
                states = self._states_at(ident, end)
                tail = dataclasses.replace(tail, recorded=lambda t: states.lookup(fd, t))
                entries = build(tail)
                if not entries:
                    return entries
                if torn_at is not None:
                    os.ftruncate(fd, torn_at)
                    size = torn_at
                if size == 0 and self.read_head() is None:
                    # A new journal: its head exists (counting no record) before the
                    # first line does, so a process killed in between leaves a head
                    # that is behind (a crash), never a journal without one (which
                    # verify must take for a deleted head).
                    self._write_head(0, GENESIS)
                data = "".join(line + "\n" for _, line in entries).encode("utf-8")
                self._write_lines(fd, data, size)
                synced = any(_replays(rec) for rec, _ in entries)
                if synced:
                    # journal durability: this record is what makes its write durable,
                    # so the call waits for its flush (the one flush it waits for)
                    try:
                        os.fdatasync(fd)
                    except OSError:
                        with contextlib.suppress(OSError):
                            os.ftruncate(fd, size)
                        raise
                last = entries[-1][0]
                st_after = os.fstat(fd)
                new_size = st_after.st_size
                # an append never changes a complete first line: only a journal that had
                # none (new, or its one line torn) gets its identity's digest now
                written_to = ident if not ident.endswith(":") else _identity(fd, st_after)
                self._tail_cache = (written_to, new_size, last["seq"], last["hash"])
                states.advance(fd, [rec for rec, _ in entries], new_size)
                states.ident = written_to
            except OSError as exc:
                self._tail_cache = None
                self._states = None
                raise WriteFailed(str(self.path), exc.strerror or str(exc)) from exc
            finally:
                os.close(fd)
            if not self.fsync:
                self._write_head(last["seq"], last["hash"])
            elif synced and entries[0][0]["seq"] > 1:
                self._unflushed = (last["seq"], last["hash"], written_to)
                flusher.submit(("audit", str(self.path)), self._move_head)
            elif entries[0][0]["seq"] > 1:
                self._unflushed = (last["seq"], last["hash"], written_to)
                flusher.submit(("audit", str(self.path)), self.flush)
            else:  # a new journal: its head is created once, after its first flush
                self._unflushed = (last["seq"], last["hash"], written_to)
                self.flush(create=True)
            return entries

    def _move_head(self) -> None:
        """:meth:`flush` after an append that flushed itself: the head alone moves (an
        earlier process's records are flushed with it: ``fdatasync`` flushes the file)."""
        self.flush(synced=True)

    def flush(self, *, create: bool = False, synced: bool = False) -> None:
        """fdatasync the journal, then move the head to the last record this process
        appended before the flush (never backwards: another process may be ahead; never
        recreated: a deleted head stays missing, so verify reports it).

        Run by the flusher thread after appends (and at exit); ``create``, by the first
        append of a new journal, creates the head. The head only ever names
        a record already on disk, so a power cut cannot leave it ahead of the journal
        (which verify would take for records cut from the end). A failure is logged:
        the writes these records belong to have committed, and the records are in the
        file; a record a power cut then loses is repaired by the next write. The head
        is left alone when the journal at the path is no longer the file those records
        went to (a home deleted and made again there before the flush ran): it would
        count the old journal's records in the new one's head."""
        last = self._unflushed
        try:
            fd = open_regular(self.path, os.O_RDONLY, nofollow=True)
            if fd is None:
                return
            try:
                if not synced:
                    os.fdatasync(fd)
                if last is not None and _identity(fd, os.fstat(fd)) != last[2]:
                    return
            finally:
                os.close(fd)
            if last is not None:
                head = self.read_head()  # a missing head stays missing: verify says so
                if (head is None and create) or (head is not None and head[0] < last[0]):
                    self._write_head(last[0], last[1], create=create)
        except (OSError, StorageError) as exc:
            log.error("could not flush the audit journal %s: %s", self.path, exc)

    def _states_at(self, ident: str, end: int) -> _States:
        """The per-target state cache of the journal file ``ident`` (:func:`_identity`),
        valid for its first ``end`` bytes."""
        states = self._states
        if states is None or states.ident != ident or states.upto > end:
            states = self._states = _States(ident, end)
        states.end = end
        return states

    def _write_lines(self, fd: int, data: bytes, size: int) -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view) :]
        except OSError:
            with contextlib.suppress(OSError):  # leave no torn tail behind (disk full...)
                os.ftruncate(fd, size)
            raise

    def _open(self, flags: int) -> int:
        """The journal, opened without blocking and checked to be a regular file."""
        try:
            fd = open_regular(self.path, flags, nofollow=True, mode=FILE_MODE)
        except OSError as exc:
            if flags & os.O_CREAT and exc.errno in _READ_ONLY_ERRNOS:
                raise ReadOnlyHome(str(self.path), exc.strerror or str(exc)) from exc
            raise UnreadableFile(str(self.path), exc.strerror or str(exc)) from exc
        if fd is None:
            raise UnreadableFile(str(self.path), "it does not exist")
        return fd

    @staticmethod
    def _line_start(fd: int, size: int) -> int:
        """Offset just after the last newline before ``size`` (0 if none)."""
        window = _TAIL_WINDOW
        while True:
            start = max(0, size - window)
            chunk = os.pread(fd, size - start, start)
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                return start + cut + 1
            if start == 0:
                return 0
            window *= 4

    def _tail(self, fd: int, size: int) -> tuple[int, str, int | None]:
        """(seq, hash) of the last complete record, and the offset of a torn final
        fragment (``None`` when the file ends with a newline)."""
        if size == 0:
            return 0, GENESIS, None
        end = self._line_start(fd, size)
        torn_at = end if end < size else None
        window = _TAIL_WINDOW
        while True:
            start = max(0, end - window)
            chunk = os.pread(fd, end - start, start)
            lines = chunk.split(b"\n")
            complete = [ln for ln in (lines if start == 0 else lines[1:]) if ln.strip()]
            for ln in reversed(complete):
                try:
                    rec = json.loads(ln)
                    return int(rec["seq"]), str(rec["hash"]), torn_at
                except (ValueError, KeyError, TypeError):
                    continue  # damaged line: chain from the last good one (verify reports it)
            if start == 0:
                return 0, GENESIS, torn_at
            window *= 4

    def _write_head(self, count: int, last: str, *, create: bool = True) -> None:
        """Rewrite the fixed-size head record in place (one small write, no rename);
        without ``create``, a head that is not there (deleted) is left missing."""
        text = json.dumps({"count": count, "hash": last}, separators=(",", ":"))
        data = text.encode("ascii").ljust(HEAD_SIZE - 1) + b"\n"
        if create and not os.path.lexists(self.head_path):
            # Created whole (a temp file renamed into place): a process killed while
            # creating it leaves no head or a whole one, never an empty file.
            atomic_write_bytes(self.head_path, data, fsync=self.fsync)
            return
        try:
            flags = os.O_WRONLY | (os.O_CREAT if create else 0)
            fd = open_regular(self.head_path, flags, nofollow=True)
            if fd is None:
                return
            try:
                os.pwrite(fd, data, 0)
            finally:
                os.close(fd)
        except OSError as exc:
            raise WriteFailed(str(self.head_path), exc.strerror or str(exc)) from exc
        except StorageError as exc:
            raise WriteFailed(str(self.head_path), exc.to_llm()) from exc

    def read_head(self) -> tuple[int, str] | None:
        """(count, last hash) from the head file; ``None`` if absent, ``(-1, "")`` if
        unreadable (never blocks, even on a FIFO)."""
        try:
            raw = read_bytes_strict(self.head_path, max_bytes=HEAD_SIZE * 2, nofollow=True)
            if raw is None:
                return None
            data = json.loads(raw)
            return int(data["count"]), str(data["hash"])
        except (StorageError, ValueError, KeyError, TypeError):
            return (-1, "")

    # -- reading -------------------------------------------------------------------
    def lines_after(self, ident: str | None, position: int) -> tuple[str, int, list[bytes]]:
        """The complete lines after byte ``position`` of the journal file ``ident``
        (:func:`_identity`), and where they end; from the start when the file is
        another one (a rewrite renamed a new file into place, or a journal made again
        where one was deleted) or shorter. No lock: the journal only grows, but for a
        rewrite, which replaces the file whole."""
        try:
            fd = self._open(os.O_RDONLY)
        except UnreadableFile:
            if not os.path.lexists(self.path):
                return "", 0, []
            raise
        try:
            st = os.fstat(fd)
            now = _identity(fd, st)
            if now != ident or position > st.st_size:
                position = 0
            data = _read_span(fd, position, st.st_size)
        finally:
            os.close(fd)
        end = data.rfind(b"\n") + 1
        return now, position + end, data[:end].split(b"\n")[:-1]

    def rewrite(self, edit: Callable[[dict[str, Any]], bool]) -> int:
        """Rewrite the records ``edit`` changes in place (it returns whether it changed
        one: it may only drop texts, which the chain's hashes leave out), as a new file
        renamed over the journal under its lock; the cached fold goes with the old one.
        Returns how many records changed. A line that is not a record, and a torn tail,
        are kept byte for byte."""
        flusher.drain()
        if not os.path.lexists(self.path):
            return 0
        with SidecarLock(self.lock_path, self.lock_timeout):
            raw = read_bytes_strict(self.path, nofollow=True, max_bytes=1 << 40) or b""
            lines = raw.split(b"\n")
            changed = 0
            for i, line in enumerate(lines):
                rec = _parse_line(line)
                if rec is not None and edit(rec):
                    lines[i] = json.dumps(
                        rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False
                    ).encode("utf-8")
                    changed += 1
            if changed:
                _replace_with(self.path, b"\n".join(lines))
                self._tail_cache = None
                self._states = None
            self.drop_cache()
        return changed

    # -- the fold's cache ----------------------------------------------------------
    @property
    def cache_path(self) -> Path:
        """Where the fold of this journal is cached (:mod:`mnemic.curated.fold_cache`)."""
        return self.directory / "fold.json"

    def read_cache(self) -> str | None:
        """The cached fold, or ``None`` (none, or unreadable: it is rebuilt)."""
        try:
            return read_text_strict(self.cache_path, nofollow=True, max_bytes=MAX_CACHE_BYTES)
        except StorageError as exc:
            log.info("the fold cache %s is ignored: %s", self.cache_path, exc)
            return None

    def write_cache(self, ident: str, text: str) -> None:
        """Cache a fold of the journal file ``ident``, unless that file is gone (a rewrite
        by ``forget`` dropped the texts it may hold). A cache: no fsync, and a failure
        is logged and ignored."""
        if not os.path.isdir(self.directory):
            return
        try:
            with SidecarLock(self.lock_path, self.lock_timeout, shared=True):
                fd = self._open(os.O_RDONLY)
                try:
                    if _identity(fd, os.fstat(fd)) != ident:
                        return
                finally:
                    os.close(fd)
                atomic_write_text(self.cache_path, text, sync_dir=False, fsync=False)
        except (OSError, StorageError) as exc:
            log.info("the fold cache %s was not written: %s", self.cache_path, exc)

    def drop_cache(self) -> None:
        """Remove the cached fold (caller holds the journal's lock)."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.cache_path)

    def snapshot(self) -> JournalSnapshot:
        """The record lines, the head and a torn tail, read consistently.

        A shared lock is held while the head and the journal size are read (appends hold
        it exclusively); on a read-only home, where no append can run, without one. This
        process's pending flushes run first, so its head names its last record.
        """
        flusher.drain()
        if not os.path.lexists(self.path):
            return JournalSnapshot([], self.read_head())
        with SidecarLock(self.lock_path, self.lock_timeout, shared=True):
            head = self.read_head()
            fd = self._open(os.O_RDONLY)
            try:
                size = os.fstat(fd).st_size
            finally:
                os.close(fd)
        fd = self._open(os.O_RDONLY)
        try:
            data = _read_span(fd, 0, size)
        finally:
            os.close(fd)
        lines = data.split(b"\n")
        torn = lines.pop()  # b"" when the journal ends with a newline (or is empty)
        return JournalSnapshot(lines, head, torn or None, len(data) - len(torn))


def _read_span(fd: int, start: int, end: int) -> bytes:
    """Bytes ``[start, end)`` of ``fd``, read with ``pread`` in pieces of 1 MiB; fewer
    when the file ends sooner (a rewrite cut it since its size was taken)."""
    chunks = []
    offset = start
    while offset < end:
        chunk = os.pread(fd, min(1 << 20, end - offset), offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


class _States:
    """Each target's content hash at its last recorded commit (:func:`~.chain.recorded_states`),
    read from the journal lazily, backwards from the end, once per target.

    Lines other processes appended since the last look are not parsed: a target whose
    name does not occur in them keeps what is known of it, and one whose name does is
    looked up again from the end, where its last record usually is the very last line.
    (With eight writers on one target, parsing each of the seven lines the others
    appended cost ~0.2 ms under the target's lock per write.)"""

    def __init__(self, ident: str, upto: int) -> None:
        self.ident = ident
        """Which journal file (:func:`_identity`) this is of."""
        self.upto = upto
        """The journal's first ``upto`` bytes are accounted for."""
        self.end = upto
        """Where the complete lines end now (set under the append lock)."""
        self.known: dict[str, tuple[str | None, Origin | None]] = {}
        """By target: the state its last commit record left, and the one it started from."""
        self.absent: set[str] = set()
        """Targets no record of which exists before ``upto``."""

    def lookup(self, fd: int, target: str) -> tuple[bool, str | None, Origin | None]:
        """(recorded at all, the state its last record left, the state that record's
        commit started from)."""
        if self.upto < self.end:
            data = os.pread(fd, self.end - self.upto, self.upto)
            for seen in [*self.known, *self.absent]:
                if _needle(seen) in data:  # it may have changed: look it up again
                    self.known.pop(seen, None)
                    self.absent.discard(seen)
            self.upto = self.end
        if target in self.known:
            return True, *self.known[target]
        if target in self.absent:
            return False, None, None
        found = _scan_back(fd, self.upto, target)
        if found is None:
            self.absent.add(target)
            return False, None, None
        self.known[target] = found
        return True, *found

    def advance(self, fd: int, records: list[dict[str, Any]], new_size: int) -> None:
        """This instance appended ``records``, ending the journal at ``new_size``."""
        if self.upto != self.end:
            return  # behind anyway: the next lookup reads them back from the file
        for rec in records:
            self._apply(rec)
        self.upto = self.end = new_size

    def _apply(self, rec: dict[str, Any] | None) -> None:
        if rec is None:
            return
        origins = commit_origins(rec)
        for target, state in recorded_states(rec).items():
            self.known[target] = (state, origins.get(target))
            self.absent.discard(target)


def _identity(fd: int, st: os.stat_result) -> str:
    """Which journal file ``fd`` is, for a fold of it (:mod:`mnemic.curated.fold_cache`):
    ``"<dev>:<inode>:<digest of its first line's length and its first and last 512
    bytes>"``. The inode alone is not enough: a home deleted and made again at the same
    path may get the old journal's inode number back (ext4 reuses them), and a process
    that kept its fold of the old journal would take the new one for it when the new one
    reaches the old one's length (its entries then read as hand edits). The first line
    ends with its record's hash, id and time, so no other journal starts with it."""
    head, window = b"", _FIRST_LINE_CHUNK
    while len(head) < st.st_size:
        chunk = os.pread(fd, min(window, st.st_size - len(head)), len(head))
        if not chunk:
            break
        cut = chunk.find(b"\n")
        if cut >= 0:
            line = head + chunk[: cut + 1]
            # its length, start and end: the record's keys are sorted, so its time and id
            # are at the end, and a first record can be long (a batch of hundreds of
            # entries): hashing all of it on every append cost as much as the entries
            sample = b"%d:" % len(line) + line[:_IDENTITY_SAMPLE] + line[-_IDENTITY_SAMPLE:]
            digest = hashlib.sha256(sample).hexdigest()[:16]
            return f"{st.st_dev}:{st.st_ino}:{digest}"
        head += chunk
        window *= 4
    return f"{st.st_dev}:{st.st_ino}:"  # no complete line yet: told apart once there is


def _replace_with(path: Path, data: bytes) -> None:
    """Durably replace ``path`` with ``data`` (temp file, fsync, rename, directory
    fsync): a new inode, so a fold cached for the old file is never taken for it."""
    tmp = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, FILE_MODE)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise WriteFailed(str(path), exc.strerror or str(exc)) from exc
    fsync_dir(path.parent)


def _scan_back(fd: int, end: int, target: str) -> tuple[str | None, Origin | None] | None:
    """The state the last commit record of ``target`` before byte ``end`` left and the
    one its commit started from, or ``None`` when no record names it."""
    for rec in _naming_back(fd, end, target):
        return recorded_states(rec)[target], commit_origins(rec).get(target)
    return None


def _naming_back(fd: int, end: int, target: str) -> Iterator[dict[str, Any]]:
    """The records before byte ``end`` that name a state of ``target``, newest first
    (:func:`.lost.naming_back`)."""
    return naming_back(fd, end, target, lambda rec: target in recorded_states(rec))


def _replays(rec: dict[str, Any]) -> bool:
    """Whether ``rec`` makes its write durable by itself (journal durability: a change
    carrying ``replay``)."""
    changes = rec.get("changes")
    return isinstance(changes, dict) and any(
        isinstance(c, dict) and "replay" in c for c in changes.values()
    )


def records_of(path: Path, target: str) -> Iterator[dict[str, Any]]:
    """The commit records of ``target`` (``result`` ok, naming its state), from the
    journal's end backwards, read as they are asked for: what rebuilds a text a power
    cut lost (:meth:`~.curated.FileBackend._replay`). No lock: the caller holds the
    target's, and records of it are appended only under it."""
    fd = open_regular(path, os.O_RDONLY, nofollow=True)
    if fd is None:
        return
    try:
        yield from _naming_back(fd, os.fstat(fd).st_size, target)
    finally:
        os.close(fd)
