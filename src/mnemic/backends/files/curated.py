"""The embedded default of the curated storage seam: MEMORY.md and USER.md as files.

File layout under ``<home>/memories/``::

    MEMORY.md, USER.md                 the targets (0600)
    MEMORY.md.lock, USER.md.lock       sidecar locks (0600, never symlinks)
    .history/MEMORY.md.<seq>.<ms>      previous versions (hard links, bounded)
    MEMORY.md.bak.<stamp>.<hash>       copies saved when drift was detected (one per text)
    .txn.intent                        redo record of a commit spanning both targets
                                       (exists only while such a commit is in flight)
    .MEMORY.md.provenance.json         who wrote each entry, and when (0600, advisory;
                                       see :mod:`mnemic.curated.provenance` and
                                       :mod:`.ledger`)
    .MEMORY.md.prov-<id>.old           the sidecar a write replaced, until the flusher
                                       thread removes it (not a temp file: it outlives
                                       the lock)

A commit spanning both targets (:meth:`CuratedTxn.write` of both) is a redo log: the new
texts are written as durable temp files, then a durable intent record naming them, then
each temp file is renamed into place, then the intent is removed. Whoever next takes the
locks and finds an intent (a writer died mid-commit) completes the renames; temp files
without an intent are debris of a commit that never started, and are removed. So both
files end up old or both new, never one of each.

With ``[memory] durability = "journal"`` a write of one target is durable by its audit
record alone (:meth:`FileBackend.replay_for`, :meth:`FileBackend._commit_lazy`), and a
text a power cut lost is rebuilt from the journal by the next writer
(:meth:`FileBackend._replay`): docs/ARCHITECTURE.md, "Journal durability".
"""

from __future__ import annotations

import atexit
import bisect
import contextlib
import hashlib
import itertools
import json
import logging
import os
import stat
import threading
import time
import weakref
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...curated.backend import Backup, Problem, Removal, RetentionPolicy, Version
from ...curated.entries import FILENAMES, TARGETS
from ...errors import InvalidArgument, LockTimeout, ReadOnlyHome, StorageError, WriteFailed
from ...fsio import (
    FILE_MODE,
    TEMP_SUFFIX,
    SidecarLock,
    atomic_write_text,
    describe_kind,
    ensure_private_dir,
    fsync_dir,
    read_text_strict,
    stale_temp_files,
    stat_signature,
    temp_prefix,
)
from ...fsread import decode_text, read_bytes_strict
from . import flusher
from .ledger import Sidecars
from .lost import boot_id, may_be_lost

if TYPE_CHECKING:
    from .requests import FileRequests

__all__ = ["FileBackend"]

log = logging.getLogger(__name__)
QUEUE_DIR = ".queue"
"""Group commit's queue beside the memory files, where no directory in RAM is at hand
(:mod:`.requests`; the same name as its ``QUEUE_DIR``)."""

INTENT_NAME = ".txn.intent"


_BOM = b"\xef\xbb\xbf"


class FileBackend:
    """Targets as files in one directory, with sidecar locks and hard-link history."""

    def __init__(
        self,
        directory: Path,
        *,
        history_limit: int = 50,
        group_commit: str = "off",
        durability: str = "files",
        journal_dir: Path | None = None,
        make_dir: bool = True,
    ) -> None:
        self.directory = directory
        self.journal_dir = journal_dir
        """The audit journal's directory, read to rebuild a text a power cut lost
        (``durability = "journal"``)."""
        self.journal_mode = (
            durability == "journal" and journal_dir is not None and boot_id() is not None
        )
        """Whether a single-target write may wait for its record's flush alone
        (:meth:`replay_for`; docs/ARCHITECTURE.md, "Journal durability")."""
        self._since_checkpoint = 0
        """Writes made durable by their record alone since this backend's last checkpoint."""
        self._lazy: set[str] = set()
        """Targets whose text this backend renamed into place without an fsync."""
        self.replayed: list[str] = []
        """Targets this backend rebuilt from the journal (``memory doctor`` says so)."""
        self._replay_checked: set[str] = set()
        """Targets looked at for a text a power cut lost (once a process: a page cache
        loses nothing without a reboot)."""
        self.history_dir = directory / ".history"
        self.history_limit = history_limit
        # Built once: a write asks for these paths a dozen times.
        self._paths = {t: directory / name for t, name in FILENAMES.items()}
        self._locks = {t: directory / f"{name}.lock" for t, name in FILENAMES.items()}
        self.ledgers = Sidecars(directory, FILENAMES)
        """The provenance sidecars (:mod:`.ledger`)."""
        self._intent = directory / INTENT_NAME
        self._past_limit: dict[str, list[str]] = {}
        """Per target, the names of the versions past ``history_limit`` as the last
        history link listed them under the lock (with the version it linked): what the
        prune after that write drops, without listing ``.history`` again."""
        self._coded: dict[str, tuple[bytes, str]] = {}
        """Per target, the last bytes this backend read or wrote and their text: a read
        finding those exact bytes is not decoded again, and a text that starts with that
        text has only its new part encoded (an add to a large target). A pure memo of the
        UTF-8 codec, compared byte for byte and character for character: it says nothing
        about the file, so no other process's write can make it wrong."""
        # A read-only home that never held memory: both targets read as empty, and the
        # first write (which tries to create the directory again) says the home is read-only.
        # Without ``make_dir`` (a reader that writes nothing) it is left to that write.
        if make_dir:
            with contextlib.suppress(ReadOnlyHome):
                ensure_private_dir(directory)
        self.requests: FileRequests | None = None
        if group_commit == "queue":  # imported here: only a home with the queue on needs it
            from .requests import FileRequests

            # after the directory is made: its queue's place in RAM is keyed by its inode
            self.requests = FileRequests.of(directory)
        """The request queue of group commit (``None``: every writer writes alone)."""

    # -- paths ---------------------------------------------------------------
    def path(self, target: str) -> Path:
        """The file of a target."""
        try:
            return self._paths[target]
        except KeyError:
            raise InvalidArgument(
                "target", f"Unknown target {target!r}. Use 'memory' or 'user'."
            ) from None

    def lock_path(self, target: str) -> Path:
        """The sidecar lock file of a target."""
        return self._locks[target]

    def location(self, target: str) -> str:
        return str(self.path(target))

    def signature(self, target: str) -> Hashable:
        """The ``lstat`` of the target's file (inode, device, size, mtime, mode): a
        rename over it, or a write in place, moves it; never follows a symlink."""
        return stat_signature(self.path(target))

    def provenance_path(self, target: str) -> Path:
        """The provenance sidecar of a target (``.MEMORY.md.provenance.json``)."""
        return self.ledgers.path(target)

    # -- reads ---------------------------------------------------------------
    def read(self, target: str) -> str | None:
        path = self.path(target)
        if self.journal_mode and target not in self._replay_checked:
            data = self._committed_bytes(target)
        else:
            data = read_bytes_strict(path, nofollow=True)
        if data is None:
            return None
        known = self._coded.get(target)
        if known is not None and known[0] == data:
            return known[1]
        text = decode_text(path, data)
        if not data.startswith(_BOM):  # a BOM is dropped: not the text's code
            self._coded[target] = (data, text)
        return text

    def _encode(self, target: str, path: Path, text: str) -> bytes:
        """``text`` in UTF-8 (only its part past the last text read or written, when it
        starts with that text); :class:`WriteFailed` when it cannot be encoded."""
        known = self._coded.get(target)
        try:
            if known is not None and text.startswith(known[1]):
                return known[0] + text[len(known[1]) :].encode("utf-8")
            return text.encode("utf-8")
        except UnicodeEncodeError:
            try:
                text.encode("utf-8")  # the position in the whole text, for the message
            except UnicodeEncodeError as exc:
                raise WriteFailed(
                    str(path),
                    f"the new text cannot be stored as UTF-8 ({exc.reason} at character "
                    f"{exc.start})",
                ) from exc
            raise  # pragma: no cover - the part fails only where the whole does

    def read_provenance(self, target: str) -> str | None:
        return self.ledgers.read(target)

    # -- transactions --------------------------------------------------------
    @contextlib.contextmanager
    def transaction(
        self,
        targets: Sequence[str],
        timeout: float,
        *,
        on_busy: Callable[[], None] | None = None,
    ) -> Iterator[_FileTxn]:
        """Hold the locks of ``targets`` (an interrupted two-target commit completed
        first). ``on_busy()`` runs once, before waiting, when the first lock is held by
        someone else (group commit leaves its request then)."""
        ordered = sorted(set(targets))
        for t in ordered:
            self.path(t)
        if not os.path.isdir(self.directory):
            ensure_private_dir(self.directory)
        everything = sorted(FILENAMES)
        while True:
            taken = self._lock_all(ordered, timeout, on_busy)
            on_busy = None
            # An intent left by a writer that died mid-commit must be completed before
            # anyone reads or writes either file, and completing it needs both locks.
            interrupted = os.path.lexists(self.intent_path)
            if not interrupted or ordered == everything:
                txn: _FileTxn | None = None
                try:
                    if interrupted:
                        self._recover_locked()
                    if self.journal_mode:
                        for t in ordered:
                            self._replay_once(t)
                    txn = _FileTxn(self, ordered, sum(lk.waited_ms for lk in taken))
                    yield txn
                finally:
                    try:
                        if txn is not None and txn.dir_sync_pending:
                            # Deferred to here so that whatever the caller appended after
                            # the rename (the audit record) is written first; this fsync
                            # makes the commit durable before the locks are released.
                            txn.dir_sync_pending = False
                            fsync_dir(self.directory)
                        if txn is not None:
                            for then in txn.after_durable:
                                then()
                    finally:
                        _release(taken)
                        if txn is not None:
                            for t in sorted(txn.prune_pending):
                                self._prune_later(t)
                return
            _release(taken)
            taken = self._lock_all(everything, timeout)
            try:
                self._recover_locked()
            finally:
                _release(taken)

    def _lock_all(
        self, ordered: Sequence[str], timeout: float, on_busy: Callable[[], None] | None = None
    ) -> list[SidecarLock]:
        taken: list[SidecarLock] = []
        try:
            for t in ordered:
                # kept open between writes: a write does not open the lock file again
                lock = SidecarLock(self.lock_path(t), timeout, keep=True)
                if on_busy is not None and not taken and not lock.try_acquire():
                    on_busy()
                    lock.acquire()
                elif not lock.held:
                    lock.acquire()
                taken.append(lock)
        except BaseException:
            _release(taken)
            raise
        return taken

    def _commit_lazy(self, target: str, text: str, record: Callable[[], None]) -> None:
        """Replace a target with ``text``, durable by ``record()`` alone (journal
        durability): the temp file is neither fsynced nor is the directory after the
        rename; ``record()`` appends a record that carries what rebuilds ``text`` and
        flushes it (:meth:`~.journal.FileJournalStore.append`) before the rename. A power
        cut may then lose the text (the file empty, short, older, or the rename lost):
        the next writer's transaction rebuilds it from the journal (:meth:`_replay`).
        A failure before the rename is handled as :meth:`_commit`'s."""
        self._commit(target, text, record, fsync=False)
        self._since_checkpoint += 1
        if not self._lazy:
            _LAZY.add(self)
        self._lazy.add(target)

    def replay_for(self, target: str, raw: str | None, text: str) -> dict[str, object] | None:
        """What the record of a write of ``text`` over ``raw`` carries so that the write
        is durable by the record alone (``replay``: the part an add appended, the span a
        replace or remove changed, or the whole text of a new file), or ``None`` when
        this write takes the durable steps of its own (the files setting, or every
        :data:`CHECKPOINT_EVERY`-th write: a checkpoint)."""
        if not self.journal_mode or self._since_checkpoint + 1 >= CHECKPOINT_EVERY:
            return None
        boot = boot_id()
        if boot is None:
            return None
        from ...governance.chain import text_key

        # an add's record holds the part it appended: the text it appended to is the file
        # found, or a kept version (with no history, every record holds its whole text)
        if not raw or self.history_limit <= 0:
            return {"key": text_key(text), "text": text, "op": "text", "boot": boot}
        if text.startswith(raw):
            payload = text[len(raw) :]
            return {"key": text_key(payload), "text": payload, "op": "append", "boot": boot}
        at = _common_prefix(raw, text)
        tail = _common_suffix(raw, text, min(len(raw), len(text)) - at)
        payload = text[at : len(text) - tail]
        cut = len(raw) - tail - at
        item = {"key": text_key(payload), "text": payload, "op": "splice", "boot": boot}
        return {**item, "at": at, "cut": cut}

    def checkpoint(self, *, sync_dir: bool = True, mark: bool = False) -> None:
        """Make the texts this backend renamed without an fsync durable (each file's
        fsync, then the directory's). Run by every :data:`CHECKPOINT_EVERY`-th write and,
        with ``mark``, at the process's exit, which then also records each such target's
        durable state (:meth:`_mark`); a failure is logged (the journal still rebuilds
        them)."""
        self._since_checkpoint = 0
        if not self._lazy:
            return
        targets, self._lazy = sorted(self._lazy), set()
        _LAZY.discard(self)
        try:
            for t in targets:
                try:
                    fd = os.open(self.path(t), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
                except FileNotFoundError:
                    continue  # removed since (a purge, a home deleted): nothing to keep
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            if sync_dir and os.path.isdir(self.directory):
                fsync_dir(self.directory)
        except OSError as exc:
            log.warning("checkpoint of %s failed: %s", self.directory, exc)
            return
        if mark:
            for t in targets:
                try:
                    self._mark(t)
                except (OSError, StorageError) as exc:
                    log.info("checkpoint record of %s not appended: %s", t, exc)

    def _mark(self, target: str) -> None:
        """Record that ``target``'s text is durable (a ``checkpoint`` record, before and
        after its state), when its last record made it durable by itself (``replay``)
        and the file is that record's ``after``: after a reboot, a file that then holds
        another text is a hand edit, never taken for one a power cut damaged. Under the
        target's lock, if free (its holder's own write or exit marks it)."""
        journal_dir = self.journal_dir
        if journal_dir is None or not os.path.isdir(self.directory):
            return
        lock = SidecarLock(self.lock_path(target), 0.0, keep=True)
        if not lock.try_acquire():
            return
        try:
            from .journal import AuditJournal, records_of

            newest = next(records_of(journal_dir / "journal.jsonl", target), None)
            if newest is None or _replay_item(newest, target) is None:
                return
            data = read_bytes_strict(self.path(target), nofollow=True)
            state = None if data is None else hashlib.sha256(data).hexdigest()
            if state is None or state != _state(newest, "after", target):
                return
            AuditJournal(journal_dir).append(
                subsystem="memory",
                target=target,
                action="checkpoint",
                actor="mnemic",
                origin="checkpoint",
                result="ok",
                before={target: state},
                after={target: state},
                reason="the text is durable: no record before this one needs replaying",
            )
        finally:
            lock.release()

    def _replay_once(self, target: str) -> None:
        """Under the target's lock: rebuild its text from the journal if a power cut
        lost it (once per process and target)."""
        if target in self._replay_checked:
            return
        self._replay_checked.add(target)
        try:
            self._replay(target)
        except (OSError, StorageError) as exc:
            log.error("could not rebuild %s from the audit journal: %s", target, exc)

    def _replay(self, target: str) -> dict[str, object] | None:
        """Rebuild ``target``'s text from the journal when a power cut lost it (caller
        holds its lock); return the ``recovered`` record appended, or ``None``.

        Only when the target's last record was made durable by its record alone
        (``replay``) in an earlier boot, and the text found is not that record's
        ``after``: a page cache loses nothing without a reboot, so within one boot the
        files mean what they mean in the files setting (a writer killed between its
        record and its rename left a void record). The text is rebuilt from the newest
        state the journal names that the file holds, or from a record holding a whole
        text when the file holds a text the cut damaged (missing, empty, zeros, a
        prefix of a state); a file holding any other text is a hand edit, read as one."""
        journal_dir = self.journal_dir
        lost = self._lost(target)
        if journal_dir is None or lost is None:
            return None
        data, want, found_hash = lost
        path = self.path(target)
        tmp = _durable_temp(path, data, "replay-" + os.urandom(6).hex())
        try:
            os.replace(tmp, path)
        except OSError:
            _discard(tmp)
            raise
        fsync_dir(self.directory)
        self._coded.pop(target, None)
        self.replayed.append(target)
        from .journal import AuditJournal

        return AuditJournal(journal_dir).append(
            subsystem="memory",
            target=target,
            action="recovered",
            actor="mnemic",
            origin="recovery",
            result="ok",
            cause="replayed",
            before={target: want},
            after={target: want},
            found={target: found_hash},
            reason=(
                "a power cut lost the text of writes made durable by their records; "
                "rebuilt from the journal"
            ),
        )

    def _lost(self, target: str) -> tuple[bytes, str, str | None] | None:
        """``(the committed text's bytes, their hash, the hash of the bytes found)`` when
        a power cut lost ``target``'s text and the journal rebuilds it, else ``None``
        (see :meth:`_replay`). Reads the journal, then the file: nothing is written and
        no lock is needed, so a reader may ask too (a write in this boot is preceded by
        a replay under the lock, so a file read after the journal is never older than
        the chain it is compared with)."""
        journal_dir = self.journal_dir
        boot = boot_id()
        if journal_dir is None or boot is None:
            return None
        from .journal import records_of

        records = records_of(journal_dir / "journal.jsonl", target)
        newest = next(records, None)
        if newest is None:
            return None
        item = _replay_item(newest, target)
        if item is None or item.get("boot") == boot:
            return None
        want = _state(newest, "after", target)
        found = read_bytes_strict(self.path(target), nofollow=True)
        found_hash = None if found is None else hashlib.sha256(found).hexdigest()
        if found_hash == want or want is None:
            return None
        text = _rebuild(
            itertools.chain([newest], records),
            target,
            found,
            found_hash,
            lambda state: self._version_with(target, state),
        )
        if text is None:
            return None
        data = text.encode("utf-8")
        if hashlib.sha256(data).hexdigest() != want:
            return None
        return data, want, found_hash

    def _committed_bytes(self, target: str) -> bytes | None:
        """The bytes a read of ``target`` shows (journal durability, a target this
        process has not looked at yet): the committed text when a power cut lost it and
        the journal rebuilds it (made durable again under the lock when it is free and
        the home writable, else rebuilt in memory only and looked at again at the next
        read), else the file's. A hand edit reads as found. The journal is read before
        the file: a writer rebuilds under the lock before it records a write of this
        boot, so a file read after a record of this boot is never one a cut damaged."""
        path = self.path(target)
        journal_dir = self.journal_dir
        if journal_dir is None or not may_be_lost(str(journal_dir / "journal.jsonl"), target):
            self._replay_checked.add(target)  # nothing to rebuild: none will be this boot
            return read_bytes_strict(path, nofollow=True)
        try:
            lost = self._lost(target)
        except (OSError, StorageError) as exc:
            log.warning("could not look for a text a power cut lost in %s: %s", target, exc)
            return read_bytes_strict(path, nofollow=True)
        if lost is None:
            self._replay_checked.add(target)
            return read_bytes_strict(path, nofollow=True)
        if self._replay_free(target) is not None:
            with contextlib.suppress(StorageError):
                return read_bytes_strict(path, nofollow=True)
        return lost[0]

    def _replay_free(self, target: str) -> bool | None:
        """Rebuild ``target`` from the journal under its lock if the lock is free and
        the home writable (:meth:`_replay`): ``True`` rebuilt now, ``False`` looked at
        under the lock with nothing to rebuild, ``None`` not looked at (the lock busy,
        a read-only home, the rebuild failed: logged)."""
        lock = SidecarLock(self.lock_path(target), 0.0, keep=True)
        try:
            if not lock.try_acquire():
                return None
        except (OSError, StorageError):  # a read-only home: its lock cannot be opened
            return None
        try:
            if target in self._replay_checked:
                return False
            try:
                rebuilt = self._replay(target) is not None
            except (OSError, StorageError) as exc:
                log.error("could not rebuild %s from the audit journal: %s", target, exc)
                return None
            self._replay_checked.add(target)
            return rebuilt
        finally:
            lock.release()

    def _version_with(self, target: str, state: str | None, newest: int = 8) -> bytes | None:
        """The bytes of one of the ``newest`` kept versions of ``target`` whose hash is
        ``state`` (the text a checkpoint made durable, which the next write linked into
        the history before its rename), or ``None``."""
        if state is None:
            return None
        for _, _, name in reversed(self._history_entries(target)[-newest:]):
            data = read_bytes_strict(self.history_dir / name, nofollow=True)
            if data is not None and hashlib.sha256(data).hexdigest() == state:
                return data
        return None

    def replay_pending(self) -> list[str]:
        """Targets whose text a power cut lost and the journal rebuilds, rebuilt now
        under each lock (a writer's open, ``memory doctor --fix``); busy ones are left to
        their lock's holder."""
        done: list[str] = []
        if not self.journal_mode:
            return done
        for target in sorted(FILENAMES):
            if target not in self._replay_checked and self._replay_free(target) is True:
                done.append(target)
        return done

    def _commit(
        self,
        target: str,
        text: str,
        record: Callable[[], None] | None = None,
        *,
        fsync: bool = True,
    ) -> None:
        """Replace a target with ``text``; history changes only if the write commits.

        Order: the new text goes to a temp file first (encoding, disk full and write
        errors surface here, with nothing else touched), whose fsync then runs in a
        helper thread (:class:`_Fsyncs`) while this one links the current file into the
        history and ``record()`` appends the commit's audit record (write-ahead); once
        the fsync has returned, the temp file is renamed into place: the commit point.
        The caller (the transaction) then fsyncs the directory and has the versions past
        the limit dropped. A failure before the rename (``record`` raising or the fsync
        failing included) removes the temp file and the new history link, so the history
        is exactly as it was; a record already appended is then void (the text it names
        was never renamed into place: docs/ARCHITECTURE.md, the crash argument).
        Without ``fsync`` (journal durability, :meth:`_commit_lazy`) the temp file is
        closed unflushed and renamed once ``record()`` has returned.
        """
        path = self.path(target)
        data = self._encode(target, path, text)
        tmp, fd = _temp_file(path, data, os.urandom(6).hex())
        kept: str | None = None
        try:
            syncing = _FSYNCS.start(fd) if fsync else None
            if syncing is None:
                os.close(fd)
            else:
                syncing.started()
            try:
                if self.history_limit > 0:
                    kept = self._keep_previous(target, path)
                if record is not None:
                    record()
            finally:
                if syncing is not None:
                    syncing.wait()  # the text is durable before it is renamed into place
            os.replace(tmp, path)
            if not data.startswith(_BOM) and "\x00" not in text:  # as a read decodes it
                self._coded[target] = (data, text)
        except BaseException as exc:
            _discard(tmp, kept)
            self._past_limit.pop(target, None)
            if isinstance(exc, OSError):
                raise WriteFailed(str(path), exc.strerror or str(exc)) from exc
            raise

    # -- commits spanning both targets (redo log) ----------------------------------
    @property
    def intent_path(self) -> Path:
        """The redo record of an in-flight commit that spans both targets."""
        return self._intent

    def _commit_all(self, writes: dict[str, str], record: Callable[[], None] | None = None) -> None:
        """Commit several targets all-or-nothing (caller holds every lock).

        Temp files first, then history links, then ``record()`` (the audit record),
        then the intent record, whose rename is the commit point: a failure before the
        intent is durable removes the temp files and the links (history unchanged).
        """
        txid = os.urandom(6).hex()
        temps: list[tuple[str, str]] = []
        kept: list[str] = []
        try:
            for target in sorted(writes):
                path = self.path(target)
                data = self._encode(target, path, writes[target])
                tmp = _durable_temp(path, data, f"txn-{txid}")
                temps.append((FILENAMES[target], os.path.basename(tmp)))
            if self.history_limit > 0:
                for target in sorted(writes):
                    link = self._keep_previous(target, self.path(target))
                    if link is not None:
                        kept.append(link)
            if record is not None:
                record()
            intent = {"id": txid, "files": [list(pair) for pair in temps]}
            atomic_write_text(self.intent_path, json.dumps(intent))
        except BaseException:
            _discard(*(str(self.directory / tmp) for _, tmp in temps), *kept)
            for target in writes:
                self._past_limit.pop(target, None)
            raise
        # From here on the commit is decided: whatever happens, it is completed.
        try:
            self._recover_locked()
        except OSError as exc:
            raise WriteFailed(
                str(self.directory),
                f"{exc.strerror or exc}; the commit is recorded in {INTENT_NAME} and will be "
                "completed by the next writer or open",
            ) from exc
        for target in sorted(writes):
            self._prune_later(target)

    def _recover_locked(self) -> bool:
        """Complete an interrupted commit (caller holds every lock); True if there was one."""
        # Unreadable: neither rolling forward nor back can be trusted, so this raises
        # (StorageError) and every write refuses until a person looks (memory doctor).
        raw = read_text_strict(self.intent_path, nofollow=True)
        if raw is None:
            return False
        try:
            files = [(str(a), str(b)) for a, b in json.loads(raw)["files"]]
        except (ValueError, KeyError, TypeError):
            log.error("%s is damaged; rolling back (temp files removed)", self.intent_path)
            files = []
        for final, tmp in files:
            if os.sep in final or os.sep in tmp or final not in FILENAMES.values():
                continue
            with contextlib.suppress(FileNotFoundError):  # already renamed before the crash
                os.replace(self.directory / tmp, self.directory / final)
        fsync_dir(self.directory)
        os.unlink(self.intent_path)
        for debris in stale_temp_files(self.intent_path):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(debris)
        return True

    def recover(self, timeout: float = 0.0) -> bool:
        """Complete an interrupted two-target commit if one is recorded; True if one was.

        Takes both locks (waiting up to ``timeout``); returns False when they are busy
        (their holder completes it).
        """
        if not os.path.lexists(self.intent_path) and not stale_temp_files(self.intent_path):
            return False
        locks = [SidecarLock(self.lock_path(t), timeout) for t in sorted(FILENAMES)]
        taken: list[SidecarLock] = []
        try:
            for lock in locks:
                if not (lock.try_acquire() if timeout <= 0 else _acquired(lock)):
                    return False
                taken.append(lock)
            done = self._recover_locked()
            for debris in stale_temp_files(self.intent_path):  # an intent never written
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(debris)
            return done
        finally:
            _release(taken)

    # -- history -------------------------------------------------------------
    def _history_names(self, target: str) -> list[str]:
        """File names of the kept versions of a target, oldest first.

        Names are ``<FILE>.<6-digit seq>.<unix ms>``, so a plain sort orders them.
        """
        prefix = FILENAMES[target] + "."
        try:
            names = os.listdir(self.history_dir)
        except FileNotFoundError:
            return []
        # the names that start with ``prefix`` are those from ``prefix`` up to, not
        # including, the same name with "/" (the character after ".") in its place:
        # found by a sort and two bisections in C, not a Python step per name
        names.sort()
        start = bisect.bisect_left(names, prefix)
        return names[start : bisect.bisect_left(names, prefix[:-1] + "/", start)]

    def _history_entries(self, target: str) -> list[tuple[int, int, str]]:
        """(seq, unix ms, file name) of the kept versions of a target, oldest first."""
        prefix = FILENAMES[target] + "."
        out = []
        for name in self._history_names(target):
            seq, _, stamp = name[len(prefix) :].partition(".")
            if seq.isdigit() and stamp.isdigit():
                out.append((int(seq), int(stamp), name))
        out.sort()
        return out

    def _keep_previous(self, target: str, path: Path) -> str | None:
        """Link the current file into the history as its newest version.

        Returns the new history path (``None`` when there is no current file). Nothing is
        dropped here (:meth:`_prune` runs once the write has committed) but the links of
        writes that died before their rename: the newest versions that are still the
        current file (see :meth:`_committed`).
        """
        self._past_limit.pop(target, None)
        try:
            current = os.stat(path)
        except FileNotFoundError:
            return None
        ensure_private_dir(self.history_dir)
        existing = self._history_names(target)
        while existing and _same_file(os.path.join(self.history_dir, existing[-1]), current):
            _discard(os.path.join(self.history_dir, existing.pop()))
        seq = 1
        if existing:
            last = existing[-1][len(FILENAMES[target]) + 1 :].partition(".")[0]
            seq = int(last) + 1 if last.isdigit() else len(existing) + 1
        name = f"{FILENAMES[target]}.{seq:06d}.{int(time.time() * 1000)}"
        dest = self.history_dir / name
        # what the prune after this write drops: the oldest past the limit, the new
        # version counted (a plain sort orders the names; the new one sorts last)
        self._past_limit[target] = existing[: max(0, len(existing) + 1 - self.history_limit)]
        try:
            # The old inode leaves the target path at the rename that follows, so a hard
            # link keeps it unchanged at no copy cost. The rename's directory fsync
            # commits the filesystem journal, which carries this link with it.
            os.link(path, dest)
        except OSError:
            text = read_text_strict(path) or ""
            atomic_write_text(dest, text)
        return str(dest)

    def _prune(self, target: str, past: Sequence[str] | None = None) -> None:
        """Drop the oldest versions past ``history_limit`` (after a committed write):
        ``past``, the names the write's history link found past it, or those a listing
        finds now."""
        if past is None:
            existing = self._history_names(target)
            past = existing[: max(0, len(existing) - self.history_limit)]
        for name in past:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(self.history_dir, name))

    def _prune_later(self, target: str) -> None:
        """Drop versions past the limit in the flusher thread, after the call returns.

        Freeing an old version's blocks is a journaled metadata change that can wait
        for a filesystem commit in progress; neither the caller nor other writers wait
        for it. It needs no lock (only the oldest go, and a second pruner finds them
        gone already); until it has run, :meth:`history` lists only the newest
        ``history_limit`` versions, as if it had. A version that cannot be dropped now
        goes at the next write (or at exit, when the flusher drains)."""
        if self.history_limit <= 0:
            return
        # The names the write's own link found past the limit, under its lock: a version
        # past the limit then stays past it (versions are only added after it), and one
        # another write added since is that write's to drop. A queued prune of the same
        # target is replaced by this one, whose listing came later and holds its names.
        past = self._past_limit.pop(target, None)

        def prune() -> None:
            try:
                self._prune(target, past)
            except OSError as exc:
                log.warning("could not drop old versions of %s: %s", target, exc)

        flusher.submit(("prune", str(self.history_dir), target), prune)

    def _kept(self, target: str) -> list[tuple[int, int, str]]:
        """The versions :meth:`history` shows: the newest ``history_limit`` (older ones
        are being dropped) of those committed writes kept."""
        entries = self._committed(target, self._history_entries(target))
        return entries[-self.history_limit :] if self.history_limit > 0 else entries

    def _committed(
        self, target: str, entries: list[tuple[int, int, str]]
    ) -> list[tuple[int, int, str]]:
        """``entries`` without the links of writes that did not commit.

        A commit links the current file into the history and renames a new file over
        it, so the file it kept is never the target's file again, nor kept again by a
        later write. A version that is the current file, or the same file as a newer
        version, was linked by a write that died before its rename (a crash leaves it
        behind: nothing changed the target). The next write removes such links; until
        then they are not versions. (Where hard links fail and versions are copies, this
        cannot tell; those file systems are rare.)
        """
        try:
            st = os.stat(self.path(target), follow_symlinks=False)
            seen = {(st.st_dev, st.st_ino)}
        except FileNotFoundError:
            seen = set()
        out = []
        for entry in reversed(entries):
            try:
                st = os.stat(os.path.join(self.history_dir, entry[2]), follow_symlinks=False)
            except FileNotFoundError:
                continue
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                out.append(entry)
        out.reverse()
        return out

    def history(self, target: str) -> list[Version]:
        self.path(target)
        return self._versions(target, self._kept(target))

    def _versions(self, target: str, entries: list[tuple[int, int, str]]) -> list[Version]:
        out = []
        for seq, stamp, name in entries:
            p = os.path.join(self.history_dir, name)
            try:
                size = os.stat(p).st_size
            except FileNotFoundError:
                continue
            out.append(Version(target, seq, stamp / 1000.0, size, p))
        return out

    def read_version(self, target: str, version_id: int) -> str | None:
        for seq, _, name in self._kept(target):
            if seq == version_id:
                return read_text_strict(os.path.join(self.history_dir, name))
        return None

    # -- drift backups and debris ----------------------------------------------
    def save_backup(self, target: str, raw: str) -> str:
        """Keep a copy of drifted text as ``<FILE>.bak.<UTC stamp>.<content hash>``.

        The same text is kept once: when a backup with the same content exists (the same
        drifted file refused again), its path is returned and its time refreshed (so an
        age limit counts from the last refusal) instead of writing another copy.
        """
        digest = hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        for existing in reversed(self._backup_paths(target)):
            if existing.name.endswith(f".{digest}") and _same_text(existing, raw):
                with contextlib.suppress(OSError):
                    os.utime(existing)
                return str(existing)
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        dest = self.directory / f"{FILENAMES[target]}.bak.{stamp}.{digest}"
        try:
            atomic_write_text(dest, raw)
        except Exception as exc:  # report, never pretend the copy exists
            return f"{dest} (BACKUP FAILED: {exc}; the file itself is unchanged)"
        return str(dest)

    def backups(self, target: str) -> list[Backup]:
        out = []
        for i, p in enumerate(self._backup_paths(target)):
            try:
                st = p.stat()
            except FileNotFoundError:
                continue
            out.append(Backup(target, i, st.st_mtime, st.st_size, str(p)))
        return out

    def _backup_paths(self, target: str) -> list[Path]:
        """Drift backup files of a target, oldest first (their names start with a stamp)."""
        prefix = f"{FILENAMES[target]}.bak."
        try:
            return sorted(p for p in self.directory.iterdir() if p.name.startswith(prefix))
        except FileNotFoundError:
            return []

    def cleanup(self) -> list[str]:
        """Remove what crashed writers left: complete an interrupted two-file commit, put
        back a provenance sidecar left aside, remove temp files (only of targets whose
        lock is free: a live writer's are its own). Run by a writer's open
        (:meth:`~mnemic.backends.files.FilesStore.curated`), retention and ``doctor
        --fix``; never by a reader. Returns what was removed."""
        removed: list[str] = []
        queue = self._queue_files()
        if queue is not None:
            removed += queue.cleanup()
        if os.path.lexists(self.intent_path) or stale_temp_files(self.intent_path):
            try:
                done = self.recover()
            except StorageError as exc:
                log.error("%s", exc.to_llm())
                return removed
            if os.path.lexists(self.intent_path):
                return removed  # a live writer holds a lock and will complete it
            if done:
                log.info("completed a commit spanning both targets left by a crashed writer")
                removed.append(str(self.intent_path))
        for target in FILENAMES:
            if not stale_temp_files(self.path(target)) and not self.ledgers.asides(target):
                continue
            lock = SidecarLock(self.lock_path(target), 0.0)
            # Temp files only exist while a writer holds the lock: if we can take it, every
            # temp file we see belongs to a writer that died.
            if not lock.try_acquire():
                continue
            try:
                if os.path.lexists(self.intent_path):
                    continue  # its temp files are needed to complete it
                if self.ledgers.restore(target):  # before its partner goes with the debris
                    log.info("put back the provenance of %s left aside by a crashed writer", target)
                for p in stale_temp_files(self.path(target)):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(p)
                        removed.append(str(p))
                # Old sidecars: a crashed writer's, or one a live process's flusher is
                # about to remove (so not reported as debris).
                _discard(*self.ledgers.asides(target))
            finally:
                lock.release()
        return removed

    def _queue_files(self, *, everywhere: bool = False) -> FileRequests | None:
        """Group commit's queue, also when the setting is off now but a queue is left
        from when it was on (its debris is still this home's): in the home, and with
        ``everywhere`` (``doctor``) in the user's directory in RAM too."""
        if self.requests is not None:
            return self.requests
        # looked at before the module is imported: most homes have none
        if not everywhere and not (self.directory / QUEUE_DIR).is_dir():
            return None
        from .requests import FileRequests

        queue = FileRequests.of(self.directory)
        if not any(p.is_dir() for p in (queue.root, *queue.also)):
            return None
        return queue

    # -- health -------------------------------------------------------------------
    def doctor(self, *, fix: bool = False) -> list[Problem]:
        out: list[Problem] = []
        uid = os.getuid()
        queue = self._queue_files(everywhere=True)
        stale = queue.stale() if queue is not None else []
        if stale:
            out.append(
                Problem(
                    "warning",
                    None,
                    f"{len(stale)} group-commit request or answer file(s) of writers that "
                    "are gone (killed while they waited).",
                    "mnemic memory doctor --fix (a writer's open removes them too)",
                    bool(fix and queue is not None and queue.cleanup()),
                )
            )

        def check_mode(path: Path, want: int, what: str) -> None:
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                return
            if what == "a memory file" and not stat.S_ISREG(st.st_mode):
                return  # a symlink or directory there cannot be read: its row says what to do
            if stat.S_ISLNK(st.st_mode):
                out.append(
                    Problem(
                        "error",
                        None,
                        f"{path} is a symlink; {what} must be a real file.",
                        f"remove the symlink {path}",
                    )
                )
                return
            if st.st_mode & 0o077:
                fixed = False
                if fix and st.st_uid == uid:
                    os.chmod(path, want)
                    fixed = True
                out.append(
                    Problem(
                        "warning",
                        None,
                        f"{path} is readable by others (mode {stat.S_IMODE(st.st_mode):o}).",
                        f"chmod {want:o} {path}",
                        fixed,
                    )
                )

        check_mode(self.directory, 0o700, "the memories directory")
        for target in self.replayed:  # rebuilt by this backend's open or a write
            out.append(
                Problem(
                    "warning",
                    target,
                    f"a power cut lost the text of {self.path(target)} (journal durability); "
                    "it was rebuilt from the audit journal (a recovered record, cause replayed).",
                    "nothing: check the last entries with mnemic memory show",
                    True,
                )
            )
        if os.path.lexists(self.intent_path):
            try:
                read_text_strict(self.intent_path, nofollow=True)
                fixed = bool(fix and self.recover(timeout=1.0))
                message = (
                    "a commit spanning MEMORY.md and USER.md was interrupted; the next write "
                    "(or open) completes it"
                )
            except StorageError as exc:
                fixed = False
                message = f"the record of an interrupted two-file commit is unreadable: {exc}"
            remedy = f"mnemic memory doctor --fix, or inspect {self.intent_path}"
            out.append(Problem("error", None, message, remedy, fixed))
        for target in TARGETS:
            check_mode(self.path(target), 0o600, "a memory file")
            check_mode(self.lock_path(target), 0o600, "a lock file")
            sidecar = self.provenance_path(target)
            try:
                kind = os.lstat(sidecar).st_mode
            except FileNotFoundError:
                kind = None
            if kind is not None and not stat.S_ISREG(kind):
                out.append(
                    Problem(
                        "warning",
                        target,
                        f"the provenance sidecar {sidecar} is {describe_kind(kind)}; it is "
                        "ignored (entries read as unknown) and the next write replaces it.",
                        f"remove {sidecar}, or write to memory",
                    )
                )
            elif kind is not None:
                check_mode(sidecar, 0o600, "a provenance sidecar")
            debris = stale_temp_files(self.path(target))
            if debris:
                fixed = bool(fix and self.cleanup())
                out.append(
                    Problem(
                        "warning",
                        target,
                        f"{len(debris)} temp file(s) left by a crashed writer.",
                        "mnemic memory doctor --fix",
                        fixed,
                    )
                )
        return out

    # -- retention and purge --------------------------------------------------
    def retention(self, policy: RetentionPolicy, *, dry_run: bool = False) -> list[Removal]:
        out: list[Removal] = []
        # Each target under its lock: a writer may be linking a version meanwhile. A dry
        # run only looks, as a reader does (a shared lock; nothing created or completed,
        # so it works on a home this user cannot write).
        for target in FILENAMES:
            if dry_run:
                lock = SidecarLock(self.lock_path(target), policy.lock_timeout, shared=True)
                lock.acquire()
                try:
                    out += self._past(policy, target)
                finally:
                    lock.release()
                continue
            with self.transaction([target], policy.lock_timeout):
                gone = self._past(policy, target)
                for r in gone:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(r.what)
            out += gone
        # Temp files of crashed writers: only removable when no writer holds the lock.
        if dry_run:
            for target in FILENAMES:
                for p in stale_temp_files(self.path(target)):
                    out.append(Removal("temp", p, "left by a crashed writer"))
            if self.intent_path.exists():
                out.append(
                    Removal("intent", str(self.intent_path), "interrupted commit to complete")
                )
        else:
            for p in self.cleanup():
                kind = "intent" if p == str(self.intent_path) else "temp"
                out.append(Removal(kind, p, "left by a crashed writer"))
        return out

    def _past(self, policy: RetentionPolicy, target: str) -> list[Removal]:
        """The versions and backups of ``target`` the policy drops."""
        return [
            removal
            for _, removal in policy.past(
                # every version on disk: the limit may have been lowered since
                self._versions(target, self._history_entries(target)),
                self.backups(target),
            )
        ]

    def purge(self, target: str, *, lock_timeout: float, dry_run: bool = False) -> list[str]:
        # The target's lock (and a completed interrupted commit) first: no writer between.
        with self.transaction([target], lock_timeout):
            path = self.path(target)
            victims = [str(path)] if os.path.lexists(path) else []
            if os.path.lexists(self.provenance_path(target)):
                victims.append(str(self.provenance_path(target)))
            victims += [  # every kept version, those past the limit not dropped yet too
                os.path.join(self.history_dir, name) for _, _, name in self._history_entries(target)
            ]
            victims += [b.location for b in self.backups(target)]
            victims += stale_temp_files(path)
            victims += self.ledgers.asides(target)  # old copies of the provenance sidecar
            if not dry_run:
                for victim in victims:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(victim)
                fsync_dir(self.directory)
                if self.history_dir.exists():
                    fsync_dir(self.history_dir)
        return victims

    def forget_copies(
        self,
        target: str,
        holds: Callable[[str], bool],
        *,
        lock_timeout: float,
        dry_run: bool = False,
    ) -> list[str]:
        if dry_run:  # a listing writes nothing: no lock, so it works on a read-only home
            return self._copies_holding(target, holds)
        with self.transaction([target], lock_timeout):
            gone = self._copies_holding(target, holds)
            if gone:
                for victim in gone:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(victim)
                fsync_dir(self.directory)
                if self.history_dir.exists():
                    fsync_dir(self.history_dir)
        return gone

    def _copies_holding(self, target: str, holds: Callable[[str], bool]) -> list[str]:
        """The paths of ``target``'s history versions and drift backups that hold what
        ``holds`` selects (every version on disk, those past the limit not dropped yet too)."""
        victims = [
            os.path.join(self.history_dir, name) for _, _, name in self._history_entries(target)
        ]
        victims += [b.location for b in self.backups(target)]
        return [p for p in victims if _holds(p, holds)]


def _holds(path: str, holds: Callable[[str], bool]) -> bool:
    """Whether the copy at ``path`` holds what ``holds`` selects (one that cannot be read
    as text is compared as UTF-8 with replacement characters: it may still hold it)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return False
    return holds(data.decode("utf-8", "replace"))


class _FileTxn:
    def __init__(self, backend: FileBackend, targets: list[str], waited_ms: float) -> None:
        self._backend = backend
        self._targets = targets
        self.lock_wait_ms = waited_ms
        self.dir_sync_pending = False
        self.after_durable: list[Callable[[], None]] = []
        """Run under the locks once the commit is durable (group commit's answers);
        not run when the transaction fails."""
        self.prune_pending: set[str] = set()
        """Targets whose old versions are dropped once the locks are released."""

    def _check(self, target: str) -> None:
        if target not in self._targets:
            raise RuntimeError(f"target {target!r} is not locked by this transaction")

    def read(self, target: str) -> str | None:
        self._check(target)
        return self._backend.read(target)

    def write(
        self,
        writes: Mapping[str, str],
        *,
        record: Callable[[], None] | None = None,
        lazy: bool = False,
    ) -> None:
        for target in writes:
            self._check(target)
        if lazy and len(writes) == 1 and record is not None:
            # journal durability: the record's flush is the one the call waits for
            for target, text in writes.items():
                self._backend._commit_lazy(target, text, record)
                self.prune_pending.add(target)
            return
        if self._backend.journal_mode:  # a checkpoint: this write's steps make the rest durable
            self._backend.checkpoint(sync_dir=False)  # the directory's fsync follows
        if len(writes) > 1:
            self._backend._commit_all(dict(writes), record)
            return
        for target, text in writes.items():
            # The directory fsync and the pruning wait for the end of the transaction, so
            # that whatever the caller still does under the locks is made durable with it.
            self._backend._commit(target, text, record)
            self.dir_sync_pending = True
            self.prune_pending.add(target)

    def read_provenance(self, target: str) -> str | None:
        self._check(target)
        return self._backend.ledgers.read_locked(target)

    def write_provenance(self, target: str, ledger: str) -> None:
        self._check(target)
        self._backend.ledgers.write(target, ledger)


def _release(locks: list[SidecarLock]) -> None:
    for lock in reversed(locks):
        lock.release()


def _acquired(lock: SidecarLock) -> bool:
    try:
        lock.acquire()
    except LockTimeout:
        return False
    return True


def _same_file(path: str, st: os.stat_result) -> bool:
    try:
        other = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino)


def _same_text(path: Path, text: str) -> bool:
    try:
        return read_text_strict(path, nofollow=True) == text
    except StorageError:
        return False


def _discard(*paths: str | None) -> None:
    """Remove what a failed write left behind (temp files, new history links)."""
    for p in paths:
        if p is not None:
            with contextlib.suppress(OSError):
                os.unlink(p)


def _durable_temp(path: Path, data: bytes, tag: str) -> str:
    """Write ``data`` to a new temp file next to ``path`` and fsync it; return its path.

    Raises :class:`WriteFailed` (the temp file removed) when it cannot be written, see
    :func:`_temp_file`.
    """
    tmp, fd = _temp_file(path, data, tag)
    try:
        os.fsync(fd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise WriteFailed(str(path), exc.strerror or str(exc)) from exc
    finally:
        os.close(fd)
    return tmp


def _temp_file(path: Path, data: bytes, tag: str) -> tuple[str, int]:
    """Write ``data`` to a new temp file next to ``path``; return its path and its open
    descriptor (not yet fsynced: the caller fsyncs and closes it).

    The name follows the temp-file convention (``.<NAME>.<tag>.tmp``), so a temp file
    whose commit never started is found and removed like any writer's debris. Raises
    :class:`WriteFailed` (the temp file removed) when the data cannot be written: a full
    disk, a file-size limit, an I/O error.
    """
    tmp = os.path.join(os.path.dirname(path), f"{temp_prefix(path)}{tag}{TEMP_SUFFIX}")
    fd = -1
    try:
        fd = os.open(
            tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE
        )
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError as exc:
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise WriteFailed(str(path), exc.strerror or str(exc)) from exc
    return tmp, fd


class _Syncing:
    """One fsync running in the helper thread; :meth:`wait` for it."""

    __slots__ = ("_done", "_started", "error", "fd")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.error: OSError | None = None
        self._started = threading.Lock()
        self._started.acquire()  # released by the thread as it calls fsync
        self._done = threading.Lock()
        self._done.acquire()  # released by the thread once the fsync has returned

    def started(self) -> None:
        """Return once the thread is about to call fsync: the writer gives it the
        interpreter lock here, which it would otherwise get only at the writer's next
        blocking call, often the wait itself."""
        self._started.acquire()

    def run(self) -> None:
        try:
            self._started.release()
            os.fsync(self.fd)
        except OSError as exc:
            self.error = exc
        finally:
            self._done.release()

    def wait(self) -> None:
        """Return once the fsync has returned (the descriptor closed); raise its error."""
        self._done.acquire()
        os.close(self.fd)
        if self.error is not None:
            raise self.error


class _Fsyncs:
    """A daemon thread that fsyncs temp files, so that a writer's CPU work under the
    lock (the history link, the audit record) overlaps the disk's flush instead of
    following it. The writer waits for the fsync before its rename: the order of the
    durable steps is the same as with an fsync in line. While the thread is busy with
    one writer's fsync, another thread's writer fsyncs in line, as before: two writers
    of one process never wait for each other's flush."""

    def __init__(self) -> None:
        self._job: _Syncing | None = None
        self._go = threading.Lock()
        self._go.acquire()  # released by a writer that hands the thread a job
        self._thread: threading.Thread | None = None
        self._free = threading.Lock()
        """Held from a job's start until the thread has run it: one job at a time."""

    def start(self, fd: int) -> _Syncing:
        """Start the fsync of ``fd`` (closed by :meth:`_Syncing.wait`)."""
        job = _Syncing(fd)
        if not self._free.acquire(blocking=False):  # busy: this one in line
            job.run()
            return job
        thread = self._thread
        if thread is None or not thread.is_alive():
            try:
                thread = threading.Thread(target=self._loop, name="mnemic-fsync", daemon=True)
                thread.start()
            except RuntimeError:  # no new threads (interpreter shutdown): fsync in line
                self._free.release()
                job.run()
                return job
            self._thread = thread
        self._job = job
        self._go.release()
        return job

    def _loop(self) -> None:
        while True:
            self._go.acquire()
            job, self._job = self._job, None
            try:
                if job is not None:
                    job.run()
            finally:
                self._free.release()


_FSYNCS = _Fsyncs()


def _after_fork_in_child() -> None:
    global _FSYNCS
    _FSYNCS = _Fsyncs()  # the parent's thread is not in the child


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


CHECKPOINT_EVERY = 32
"""Journal durability: every this many writes of a backend, one takes the durable steps
of the files setting and makes the texts written before it durable too (a checkpoint),
bounding what a recovery after a power cut replays."""

_LAZY: weakref.WeakSet[FileBackend] = weakref.WeakSet()
"""Backends holding texts not yet made durable: checkpointed at exit."""


def _checkpoint_all() -> None:
    for backend in list(_LAZY):
        backend.checkpoint(mark=True)


atexit.register(_checkpoint_all)


def _replay_item(rec: Mapping[str, object], target: str) -> dict[str, object] | None:
    """The ``replay`` item of ``rec``'s change of ``target`` (``None``: none, or its
    text was forgotten)."""
    changes = rec.get("changes")
    change = changes.get(target) if isinstance(changes, dict) else None
    items = change.get("replay") if isinstance(change, dict) else None
    if not isinstance(items, list) or not items or not isinstance(items[0], dict):
        return None
    item: dict[str, object] = items[0]
    if not isinstance(item.get("text"), str) or item.get("op") not in _OPS:
        return None
    if item["op"] == "splice" and not all(_count(item.get(k)) for k in ("at", "cut")):
        return None
    return item


_OPS = ("append", "splice", "text")


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


_BLOCK = 4096


def _common_prefix(a: str, b: str) -> int:
    """How many leading characters ``a`` and ``b`` share: compared a block at a time,
    blocks of :data:`_BLOCK`, then of 256, 16 and 1 characters (slices compare in C; a
    character loop over a 2 KB text cost 0.1 ms a call)."""
    n, i = min(len(a), len(b)), 0
    for step in _steps():
        while i + step <= n and a[i : i + step] == b[i : i + step]:
            i += step
    return i


def _common_suffix(a: str, b: str, limit: int) -> int:
    """How many trailing characters ``a`` and ``b`` share, at most ``limit`` (as
    :func:`_common_prefix`, from the end)."""
    la, lb, j = len(a), len(b), 0
    for step in _steps():
        while j + step <= limit and a[la - j - step : la - j] == b[lb - j - step : lb - j]:
            j += step
    return j


def _steps() -> tuple[int, ...]:
    return tuple(sorted({_BLOCK, *(s for s in (256, 16) if s < _BLOCK), 1}, reverse=True))


def _state(rec: Mapping[str, object], side: str, target: str) -> str | None:
    states = rec.get(side)
    value = states.get(target) if isinstance(states, dict) else None
    return value if isinstance(value, str) else None


def _rebuild(
    records: Iterable[Mapping[str, object]],
    target: str,
    found: bytes | None,
    found_hash: str | None,
    version_with: Callable[[str | None], bytes | None],
) -> str | None:
    """The text the first of ``records`` (``target``'s, newest first) left, rebuilt
    from the newest of their states the file holds (``found``), or, when the file holds
    what a power cut leaves of a text renamed without an fsync (none, empty, zeros, or a
    prefix of a state rebuilt), from a whole text a record holds or the kept version
    (``version_with(state)``) of the state the last durable write left. ``None`` when
    it cannot be: a hand edit, a text forgotten, no base. See :meth:`FileBackend._replay`."""
    chain: list[Mapping[str, object]] = []
    base: bytes | None = None
    damaged = False
    for rec in records:
        if found_hash is not None and _state(rec, "after", target) == found_hash:
            base = found
            break
        item = _replay_item(rec, target)
        if item is None:  # a write durable by its own steps: its text is in the history
            base, damaged = version_with(_state(rec, "after", target)), True
            if base is None:
                return None
            break
        chain.append(rec)
        if item["op"] == "text":
            base, damaged = b"", True
            break
    else:
        return None
    assert base is not None
    text = base.decode("utf-8", "surrogateescape")
    states: list[bytes] = []
    for rec in reversed(chain):
        item = _replay_item(rec, target)
        assert item is not None
        payload = str(item["text"])
        if item["op"] == "text":
            text = payload
        elif item["op"] == "append":
            text += payload
        else:
            at, cut = int(str(item["at"])), int(str(item["cut"]))
            if at + cut > len(text):
                return None
            text = text[:at] + payload + text[at + cut :]
        data = text.encode("utf-8", "surrogateescape")
        if hashlib.sha256(data).hexdigest() != _state(rec, "after", target):
            return None
        states.append(data)
    befores = {_state(rec, "before", target) for rec in chain}
    if damaged and found and found.strip(b"\x00") and found_hash not in befores:
        kept = found.rstrip(b"\x00")
        if not any(state.startswith(kept) for state in states):
            return None  # another text altogether: a hand edit, read as one
    return text
