"""The request queue of group commit (``[memory] group_commit = "queue"``), as files.

Where: in a directory of the user's in RAM when there is one (:func:`queue_root`), else
beside the memory files (``<home>/memories/.queue``). Requests need no durability, so
on a disk they only cost: each is a file made and removed on the disk's journal.

- ``$XDG_RUNTIME_DIR/mnemic/<home key>/`` when ``XDG_RUNTIME_DIR`` names a directory
  the user owns that nobody else may enter (mode 0700, as the login manager makes it);
- else ``/dev/shm/mnemic-<uid>/<home key>/`` when ``/dev/shm`` is a directory, and
  ``mnemic-<uid>`` there is (or is made now) a real directory of the user's, 0700: one
  that another user made first, or that others may enter, or a symlink, is not used;
- else ``<home>/memories/.queue/`` (0700, as the memory files' directory).

``<home key>`` is a hash of the memory directory's real path, device and inode, so
every process of the home finds the same queue by any path to it. Processes that
choose different places (one started without ``XDG_RUNTIME_DIR``, say) do not batch
each other's writes; each request is still claimed, answered and taken back in the one
place its writer chose, so nothing is lost or applied twice.

Layout, one directory per target::

    <id>.req        a request left by a writer that found the target's lock busy: one
                    line of JSON, written in place (created exclusively, then written);
                    the line's newline says it is whole
    <id>.claimed    the same file, taken by the lock's holder (a rename: atomic against
                    the writer withdrawing it, so exactly one of them wins); the holder
                    appends its answer to it as a second line, under the lock, once its
                    commit is durable (or at once when it hands the request back)

``<id>`` starts with the time in nanoseconds, so a sorted listing is arrival order, then
the writer's process id. A queued call changes the directory three times: the request's
creation, the claim's rename and its writer's removal of the answered file (the answer
itself is a write to a file that exists). Nothing here is durable (no fsync): a request
and its answer only matter to a writer that is alive, and the journal, not this
directory, says what committed (:mod:`mnemic.curated.groupcommit`).

Partial files: a holder reads a request before it claims it and leaves one whose line
is not ended yet (its writer is still writing it; a writer that fails to write it
removes it). The answer is read by its writer only under the lock, after the holder
released it, so it is whole, unless that holder died while writing it: an answer line
not ended is no answer (the writer asks the journal).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...curated.entries import FILENAMES
from ...fsio import FILE_MODE, ensure_private_dir

__all__ = ["FileRequests", "QUEUE_DIR", "queue_root"]

QUEUE_DIR = ".queue"
"""The queue's place beside the memory files, where no directory in RAM is at hand."""
SHM = "/dev/shm"
"""The RAM file system tried when ``XDG_RUNTIME_DIR`` is not usable."""

_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_APPEND = os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
_CHUNK = 1 << 16


def queue_root(directory: Path) -> tuple[Path, Path | None]:
    """Where the queue of the memory directory ``directory`` lives (see the module's
    text), and the user's directory in RAM it is in (``None``: the home's own);
    nothing is created here."""
    base = _ram_base()
    if base is None:
        return directory / QUEUE_DIR, None
    try:
        st = os.stat(directory)
    except OSError:
        return directory / QUEUE_DIR, None
    where = f"{os.path.realpath(directory)}\0{st.st_dev}\0{st.st_ino}"
    return base / hashlib.sha256(os.fsencode(where)).hexdigest()[:32], base


def _ram_base() -> Path | None:
    """This user's directory of queues in RAM (``None``: none is usable)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(runtime) and _private(runtime):
        return Path(runtime) / "mnemic"
    if os.path.isdir(SHM):
        return Path(SHM) / f"mnemic-{os.getuid()}"
    return None


def _private(path: str | Path) -> bool:
    """Whether ``path`` is a real directory of this user's that nobody else may enter."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def _make_private(path: Path) -> None:
    """Make ``path`` (0700) unless it exists; fail unless it is then :func:`_private`
    (another user's, one others may enter, a symlink)."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)
    if not _private(path):
        raise PermissionError(
            f"{path} is not a private directory of this user's (0700, owned by uid "
            f"{os.getuid()}, not a symlink): group commit's requests are not left there"
        )


class FileRequests:
    """Requests and answers of group commit, one directory per target under ``root``.
    ``base``: the user's directory in RAM that ``root`` is in, made private first
    (``None``: ``root`` is the home's own ``.queue``). ``also``: other places this home's
    queue was kept (the home's own ``.queue``), looked at for the debris of writers
    that are gone."""

    def __init__(self, root: Path, *, base: Path | None = None, also: Sequence[Path] = ()) -> None:
        self.root = root
        self.base = base
        self.also = tuple(p for p in also if p != root)
        self._dirs = {t: self.root / name for t, name in FILENAMES.items()}
        # Joined as strings: a queued call names its files a handful of times.
        self._prefix = {t: f"{d}{os.sep}" for t, d in self._dirs.items()}

    def submit(self, target: str, payload: dict[str, Any]) -> str:
        """Leave a request for ``target``'s lock holder; return its id."""
        rid = f"{time.time_ns():020d}-{os.getpid()}-{os.urandom(4).hex()}"
        path = f"{self._prefix[target]}{rid}.req"
        try:
            fd = os.open(path, _NEW, FILE_MODE)
        except FileNotFoundError:  # the first request of this home: make the folders
            self._make_dirs(target)
            fd = os.open(path, _NEW, FILE_MODE)
        try:
            _write_all(fd, _line(payload))
        except BaseException:
            _discard(path)  # a holder must not wait on a line never ended
            raise
        finally:
            os.close(fd)
        return rid

    @classmethod
    def of(cls, directory: Path) -> FileRequests:
        """The queue of the memory directory ``directory``, where :func:`queue_root`
        puts it; the home's own ``.queue`` is also looked at for debris."""
        root, base = queue_root(directory)
        return cls(root, base=base, also=(directory / QUEUE_DIR,))

    def _make_dirs(self, target: str) -> None:
        if self.base is not None:  # in RAM: the user's directory there first
            _make_private(self.base)
            _make_private(self.root)
            _make_private(self._dirs[target])
        else:
            ensure_private_dir(self.root)
            ensure_private_dir(self._dirs[target])

    def withdraw(self, target: str, rid: str) -> bool:
        """Take back a request nobody claimed; False when a holder claimed it first."""
        try:
            os.unlink(f"{self._prefix[target]}{rid}.req")
        except FileNotFoundError:
            return False
        return True

    def claim(self, target: str) -> list[tuple[str, dict[str, Any] | None]]:
        """Take every waiting request of ``target`` (caller holds its lock), oldest
        first: ``(id, payload)``, the payload ``None`` when it cannot be read (the
        holder hands such a request back). Requests of processes that are gone are
        dropped: nobody waits for their answer. A request still being written is left
        where it is (its writer withdraws it, or a later holder claims it)."""
        prefix = self._prefix[target]
        try:
            names = sorted(n for n in os.listdir(prefix) if n.endswith(".req"))
        except FileNotFoundError:
            return []
        out: list[tuple[str, dict[str, Any] | None]] = []
        for name in names:
            rid = name[: -len(".req")]
            path = f"{prefix}{name}"
            if not _alive(rid):
                _discard(path)
                continue
            data = _read(path)
            if data is None:
                continue  # withdrawn meanwhile
            line, ended, _ = data.partition(b"\n")
            if not ended:
                continue  # its writer is still writing it
            try:
                os.rename(path, f"{prefix}{rid}.claimed")
            except FileNotFoundError:
                continue  # withdrawn meanwhile
            out.append((rid, _parse(line)))
        return out

    def answer(self, target: str, rid: str, result: dict[str, Any]) -> None:
        """Leave the answer of a claimed request (caller holds the lock): a second line
        in the claimed file. Nothing happens when that file is gone (its writer died
        and its debris was removed: nobody waits for this answer)."""
        try:
            fd = os.open(f"{self._prefix[target]}{rid}.claimed", _APPEND)
        except FileNotFoundError:
            return
        try:
            _write_all(fd, _line(result))
        finally:
            os.close(fd)

    def result(self, target: str, rid: str) -> dict[str, Any] | None:
        """The answer to this process's request, taken away with its file (caller holds
        the lock). ``None``: no answer (not claimed, or claimed by a holder that died
        before answering: the claimed file is then left for :meth:`forget`)."""
        path = f"{self._prefix[target]}{rid}.claimed"
        data = _read(path)
        if data is None:
            return None
        lines = data.split(b"\n")
        if len(lines) < 3:  # the request, an answer ended by its newline, then nothing
            return None
        found = _parse(lines[1])
        if found is not None:
            _discard(path)
        return found

    def forget(self, target: str, rid: str) -> None:
        """Remove what is left of a request whose writer is done with it."""
        prefix = self._prefix[target]
        _discard(f"{prefix}{rid}.req", f"{prefix}{rid}.claimed")

    def stale(self) -> list[Path]:
        """The requests and answers of processes that are gone (a writer killed while it
        waited, or a holder that died before answering)."""
        out: list[Path] = []
        folders = [*self._dirs.values()]
        folders += [root / name for root in self.also for name in FILENAMES.values()]
        for folder in folders:
            try:
                names = os.listdir(folder)
            except FileNotFoundError:
                continue
            out += [folder / n for n in names if not _alive(n.lstrip(".").split(".")[0])]
        return out

    def cleanup(self) -> list[str]:
        """Remove :meth:`stale` files; returns what was removed."""
        removed = self.stale()
        _discard(*removed)
        return [str(p) for p in removed]


def _alive(rid: str) -> bool:
    """Whether the process that made request ``rid`` still runs."""
    try:
        pid = int(rid.split("-")[1])
    except (IndexError, ValueError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _line(payload: dict[str, Any]) -> bytes:
    """One line of JSON (a string's newlines are escaped by the encoder)."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8") + b"\n"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read(path: str) -> bytes | None:
    try:
        fd = os.open(path, _READ)
    except OSError:
        return None
    try:
        chunk = os.read(fd, _CHUNK)
        if len(chunk) < _CHUNK:  # a regular file's short read is its end
            return chunk
        chunks = [chunk]
        while chunk := os.read(fd, _CHUNK):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(line)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _discard(*paths: str | Path) -> None:
    for p in paths:
        with contextlib.suppress(OSError):
            os.unlink(p)
