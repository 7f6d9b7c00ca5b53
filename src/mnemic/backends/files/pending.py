"""The pending queue's records as files: one JSON file per record.

Layout: ``<home>/pending/<subsystem>/<id>.json`` (0600, written atomically) and a
sidecar lock ``<home>/pending/<subsystem>/.lock``. This is the raw record store under
:class:`~mnemic.governance.pending.PendingQueueStore` (which holds the policy) for the
embedded default; :class:`PendingStore` is that policy over these files.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Unpack

from ...errors import StorageError, UnreadableFile, UnsafePath, WriteFailed
from ...fsio import (
    SidecarLock,
    atomic_write_text,
    ensure_private_dir,
    read_text_strict,
    remove_file,
)
from ...governance.pending import PendingQueueStore, QueuePolicy

__all__ = ["FilePendingRecords", "PendingStore"]


class PendingStore(PendingQueueStore):
    """Pending writes of one subsystem under ``<root>/<subsystem>/`` (``root``: the home's
    ``pending`` directory), with the queue policy."""

    def __init__(
        self,
        root: Path,
        subsystem: str,
        *,
        lock_timeout: float = 10.0,
        **policy: Unpack[QueuePolicy],
    ) -> None:
        records = FilePendingRecords(root, root / subsystem, lock_timeout)
        super().__init__(records, subsystem, **policy)


class FilePendingRecords:
    """One JSON file per record in a private directory: a :class:`PendingRecordStore`."""

    def __init__(self, root: Path, directory: Path, lock_timeout: float = 10.0) -> None:
        self.root = root
        self.directory = directory
        self.lock_timeout = lock_timeout

    @property
    def location(self) -> str:
        """The queue's directory, for messages."""
        return str(self.directory)

    def path(self, pending_id: str) -> Path:
        """The file of one record."""
        return self.directory / f"{pending_id}.json"

    def where(self, pending_id: str) -> str:
        return str(self.path(pending_id))

    def _check_dir(self, create: bool) -> bool:
        """Make sure the directory is a real private directory; False if absent."""
        for d in (self.root, self.directory):
            try:
                st = os.lstat(d)
            except FileNotFoundError:
                if not create:
                    return False
                try:
                    ensure_private_dir(d)
                except Exception as exc:
                    raise WriteFailed(str(d), f"cannot create the pending queue: {exc}") from exc
                continue
            except OSError as exc:
                raise UnreadableFile(str(d), exc.strerror or str(exc)) from exc
            if stat.S_ISLNK(st.st_mode):
                raise UnsafePath(str(d), "the pending queue directory is a symlink")
            if not stat.S_ISDIR(st.st_mode):
                raise UnreadableFile(str(d), "the pending queue is not a directory")
        return True

    def lock(self) -> SidecarLock:
        """The queue's lock (hold it while adding, approving, rejecting or expiring)."""
        self._check_dir(create=True)
        return SidecarLock(self.directory / ".lock", self.lock_timeout)

    # -- reading -----------------------------------------------------------------
    def _names(self) -> list[str]:
        if not self._check_dir(create=False):
            return []
        try:
            names = os.listdir(self.directory)
        except OSError as exc:
            raise UnreadableFile(str(self.directory), exc.strerror or str(exc)) from exc
        return [n for n in names if n.endswith(".json") and not n.startswith(".")]

    def ids(self) -> list[str]:
        return [n[: -len(".json")] for n in self._names()]

    def get(self, pending_id: str) -> str | None:
        return read_text_strict(self.path(pending_id), nofollow=True, max_bytes=4 * 1024 * 1024)

    def scan(self) -> Iterator[tuple[str, str, str | StorageError]]:
        for pending_id in self.ids():
            try:
                text = self.get(pending_id)
            except StorageError as exc:
                yield pending_id, self.where(pending_id), exc
                continue
            if text is not None:  # else removed meanwhile
                yield pending_id, self.where(pending_id), text

    # -- writing (hold lock()) ---------------------------------------------------
    def put(self, pending_id: str, created_at: float, text: str) -> bool:
        path = self.path(pending_id)
        if os.path.lexists(path):
            return False
        atomic_write_text(path, text)
        return True

    def delete(self, pending_id: str) -> bool:
        return remove_file(self.path(pending_id))

    def cleanup(self, *, dry_run: bool = False) -> list[str]:
        """Remove the temp files of an interrupted staging (only when no writer holds the
        queue's lock); return them."""
        if not self.directory.is_dir():
            return []
        # a dry run only looks: a reader's shared lock (a read-only home works)
        lock = SidecarLock(self.directory / ".lock", 0.0, shared=dry_run)
        if not lock.try_acquire():
            return []
        try:
            debris = [
                str(self.directory / n)
                for n in sorted(os.listdir(self.directory))
                if n.startswith(".") and n.endswith(".tmp")
            ]
            if not dry_run:
                for path in debris:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path)
            return debris
        finally:
            lock.release()
