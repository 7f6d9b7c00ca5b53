"""Durability primitives: strict reads, atomic writes, sidecar locks, private permissions.

Every file mnemic writes goes through :func:`atomic_write_text` (temp file in the same
directory, fsync, rename, fsync of the directory), and every read-modify-write holds a
:class:`SidecarLock` on ``<file>.lock`` (never on the file that gets replaced, since a
rename swaps the inode). Reads are strict: a file that cannot be read or decoded raises
:class:`~mnemic.errors.UnreadableFile` instead of looking empty.

Every file is opened with :func:`open_regular`: without blocking (``O_NONBLOCK``), then
checked with ``fstat``, so a FIFO, device, socket or directory planted where a file
should be is refused with an error naming it instead of hanging the command (and the
lock it holds).

The lock is ``flock(2)`` on a sidecar file opened with ``O_NOFOLLOW``: kernel-owned, so a
killed holder releases it at once; advisory and host-local (many hosts share memory
through the PostgreSQL backend, not a network filesystem). An exclusive lock, once
granted, is believed only while the path still names the file it locked (lock, then
verify: a file moved or removed while its lock was awaited excludes nobody who opens the
path after). Platforms without ``flock`` (Windows) get
:class:`~mnemic.errors.UnsupportedPlatform` at the first lock. A lock or
temp file that cannot be created because the home is read-only (``EROFS``, ``EACCES``)
raises :class:`~mnemic.errors.ReadOnlyHome`; readers take a shared lock and read a
read-only home without one.
"""

from __future__ import annotations

import _thread
import errno
import os
import stat
import sys
import threading
import time
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable

from .errors import (
    ConfigError,
    LockTimeout,
    ReadOnlyHome,
    UnreadableFile,
    UnsafePath,
    UnsupportedPlatform,
    WriteFailed,
)
from .fsread import (
    O_CLOEXEC,
    O_NOFOLLOW,
    describe_kind,
    open_regular,
    read_bytes_strict,
    read_text_strict,
)

try:
    import fcntl

    _HAVE_FLOCK = True
except ImportError:  # not POSIX: the first lock raises UnsupportedPlatform
    _HAVE_FLOCK = False

StrPath = str | os.PathLike[str]

__all__ = [
    "SidecarLock",
    "atomic_write_bytes",
    "atomic_write_text",
    "describe_kind",
    "ensure_private_dir",
    "not_a_directory",
    "fsync_dir",
    "open_regular",
    "read_bytes_strict",
    "read_text_strict",
    "remove_file",
    "stale_temp_files",
    "stat_signature",
]

_O_NOFOLLOW = O_NOFOLLOW
_O_CLOEXEC = O_CLOEXEC
_READ_ONLY_ERRNOS = (errno.EROFS, errno.EACCES, errno.EPERM)
"""errno values of a create or write refused because the home is read-only for us."""

FILE_MODE = 0o600
DIR_MODE = 0o700
TEMP_SUFFIX = ".tmp"


def temp_prefix(path: StrPath) -> str:
    """Prefix of the temp files used to replace ``path`` (``.NAME.``)."""
    return f".{os.path.basename(os.fspath(path))}."


def atomic_write_text(
    path: StrPath,
    text: str,
    *,
    mode: int = FILE_MODE,
    recycle: StrPath | None = None,
    sync_dir: bool = True,
    fsync: bool = True,
) -> None:
    """Durably replace ``path`` with ``text``: temp file, fsync, rename, fsync of the dir.

    With ``sync_dir=False`` the caller takes over the last step and must call
    :func:`fsync_dir` on the file's directory before it reports the write as durable.
    With ``fsync=False`` (a cache) neither is done: the replacement is atomic, not
    durable.

    Readers see the old or the new complete file, never a partial one. A failure leaves
    the old file intact and raises :class:`WriteFailed`.

    ``recycle`` names an expendable file on the same filesystem (for example the oldest
    kept version, about to be dropped) whose inode is reused as the temp file: this saves
    freeing one inode and allocating another, which costs as much as an fsync here.
    """
    atomic_write_bytes(
        path,
        text.encode("utf-8"),
        mode=mode,
        recycle=recycle,
        sync_dir=sync_dir,
        fsync=fsync,
    )


def atomic_write_bytes(
    path: StrPath,
    data: bytes,
    *,
    mode: int = FILE_MODE,
    recycle: StrPath | None = None,
    sync_dir: bool = True,
    fsync: bool = True,
) -> None:
    """:func:`atomic_write_text` for bytes (an attachment): the same steps and guarantees."""
    path = os.fspath(path)
    directory = os.path.dirname(path) or "."
    tmp = os.path.join(directory, f"{temp_prefix(path)}{os.urandom(6).hex()}{TEMP_SUFFIX}")
    fd = -1
    old_size = -1
    if recycle is not None:
        try:
            os.rename(recycle, tmp)
            fd = os.open(tmp, os.O_WRONLY | _O_NOFOLLOW | _O_CLOEXEC)
            os.fchmod(fd, mode)
            old_size = os.fstat(fd).st_size
        except OSError:
            if fd >= 0:
                os.close(fd)
                fd = -1
            try:  # noqa: SIM105 - contextlib costs import time on the cold path
                os.unlink(tmp)
            except OSError:
                pass
    if fd < 0:
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC, mode)
        except OSError as exc:
            if exc.errno in _READ_ONLY_ERRNOS:
                raise ReadOnlyHome(tmp, exc.strerror or str(exc)) from exc
            raise WriteFailed(path, exc.strerror or str(exc)) from exc
    try:
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            if old_size > len(data):  # shrinking a recycled file (costly: only when needed)
                os.ftruncate(fd, len(data))
            if fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException as exc:
        try:  # noqa: SIM105 - contextlib costs import time on the cold path
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise WriteFailed(path, exc.strerror or str(exc)) from exc
        raise
    if sync_dir and fsync:
        fsync_dir(directory)


def remove_file(path: StrPath) -> bool:
    """Delete the file at ``path``; False when it was gone already. A file that cannot
    be deleted (a read-only home) raises :class:`~mnemic.errors.WriteFailed`."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise WriteFailed(str(path), exc.strerror or str(exc)) from exc
    return True


def stat_signature(path: StrPath) -> Hashable:
    """The ``lstat`` of ``path`` (inode, device, size, mtime, mode): a rename over it, or
    a write in place, moves it; never follows a symlink. ``("absent",)`` when nothing is
    there, ``("error", errno)`` when it cannot be looked at."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ("absent",)
    except OSError as exc:
        return ("error", exc.errno)
    return (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_mode)


def fsync_dir(directory: StrPath) -> None:
    """fsync a directory so a rename or link inside it is durable."""
    try:
        dfd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise WriteFailed(str(directory), exc.strerror or str(exc)) from exc
    try:
        os.fsync(dfd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EROFS):
            raise WriteFailed(str(directory), exc.strerror or str(exc)) from exc
    finally:
        os.close(dfd)


def stale_temp_files(path: StrPath) -> list[str]:
    """Temp files left next to ``path`` by writers that died before renaming."""
    prefix = temp_prefix(path)
    directory = os.path.dirname(os.fspath(path)) or "."
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return []
    return [
        os.path.join(directory, n)
        for n in names
        if n.startswith(prefix) and n.endswith(TEMP_SUFFIX)
    ]


def not_a_directory(path: StrPath, *, home: bool = False) -> ConfigError:
    """The refusal of a directory path where a file stands at that path or at one of its
    parents: naming the file, saying nothing was changed and what to do (for a ``home``:
    give another path; for a directory inside one: move the file away)."""
    wanted = os.path.abspath(os.fspath(path))
    where = wanted
    while not os.path.lexists(where) and os.path.dirname(where) != where:
        where = os.path.dirname(where)
    what = "is" if where == wanted else f"is inside {where}, which is"
    todo = (
        "A mnemic home is a directory: give a new or empty one with --home PATH or MNEMIC_HOME."
        if home
        else f"mnemic keeps a directory there: move {where} away, then retry."
    )
    return ConfigError(
        "home" if home else "directory",
        f"{what} a file, not a directory. Nothing was changed. {todo}",
        source=os.fspath(path),
    )


def ensure_private_dir(path: StrPath) -> None:
    """Create ``path`` (and parents) if missing, 0700; tighten it if we own it.

    Tightening only takes access away from group and others: the owner's bits are kept,
    so a home its owner made read-only (0555) stays read-only (0500).
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        if exc.errno == errno.ENOTDIR:
            raise not_a_directory(path) from exc
        raise ConfigError(
            "home", f"cannot use directory {path}: {exc.strerror}", source=str(path)
        ) from exc
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise not_a_directory(path)
    if st is None:
        try:
            os.makedirs(path, mode=DIR_MODE, exist_ok=True)
            st = os.stat(path)
        except OSError as exc:
            if exc.errno in _READ_ONLY_ERRNOS and os.path.isdir(os.path.dirname(path) or "."):
                raise ReadOnlyHome(str(path), exc.strerror or str(exc)) from exc
            if exc.errno in (errno.ENOTDIR, errno.EEXIST):
                raise not_a_directory(path) from exc
            raise ConfigError(
                "home", f"cannot create directory {path}: {exc.strerror}", source=str(path)
            ) from exc
    if st.st_mode & 0o077 and st.st_uid == os.getuid():
        try:  # noqa: SIM105 - contextlib costs import time on the cold path
            os.chmod(path, st.st_mode & 0o700)
        except OSError:
            pass


# Waiters that timed out while their helper thread is still blocked in the kernel. Each
# holds a descriptor until the lock is granted (then closes it at once); past this many,
# a timed-out wait polls instead of leaving one more thread behind.
_MAX_ABANDONED = 8
_abandoned = 0
_abandoned_guard = _thread.allocate_lock()  # _thread is loaded at interpreter start-up


def _wait_for_lock(fd: int, op: int, start: float, timeout: float, path: str) -> None:
    """Wait until ``flock(fd, op)`` is granted or ``timeout`` seconds have passed since
    ``start``. On return the lock is held on ``fd``; on any exception ``fd`` is closed
    (by the time the lock would have been granted, at the latest)."""
    if timeout - (time.monotonic() - start) <= 0:
        os.close(fd)
        raise LockTimeout(path, time.monotonic() - start)
    if _abandoned >= _MAX_ABANDONED:
        _poll_for_lock(fd, op, start, timeout, path)
    else:
        _wait_in_kernel(fd, op, start, timeout, path)


def _wait_in_kernel(fd: int, op: int, start: float, timeout: float, path: str) -> None:
    """A helper thread makes the blocking ``flock`` call; this thread waits for it with
    the deadline. A blocked ``flock`` cannot be cancelled, so on timeout (or an
    interrupt) the helper is told to give up: when the kernel grants it the lock, it
    closes ``fd`` at once, which releases it."""
    global _abandoned
    guard = threading.Lock()
    granted = _thread.allocate_lock()  # released by the helper: one wake-up, no Condition
    granted.acquire()
    state: dict[str, object] = {"done": False, "abandoned": False, "error": None}

    def block() -> None:
        global _abandoned
        error: OSError | None = None
        try:
            fcntl.flock(fd, op)
        except OSError as exc:
            error = exc
        with guard:
            state["done"] = True
            state["error"] = error
            if state["abandoned"]:
                os.close(fd)
                with _abandoned_guard:
                    _abandoned -= 1
                return
        granted.release()

    _helper().run(block)
    interrupted: BaseException | None = None
    try:
        granted.acquire(timeout=max(timeout - (time.monotonic() - start), 0.0))
    except BaseException as exc:  # KeyboardInterrupt while waiting
        interrupted = exc
    with guard:
        if not state["done"]:
            state["abandoned"] = True
            with _abandoned_guard:
                _abandoned += 1
            if interrupted is not None:
                raise interrupted
            raise LockTimeout(path, time.monotonic() - start)
    error = state["error"]
    if isinstance(error, OSError) or interrupted is not None:
        os.close(fd)  # the helper finished: fd is ours again
        if interrupted is not None:
            raise interrupted
        raise UnsafePath(path, f"cannot lock: {error}")


# A helper thread that has finished its wait is kept for the next one (at most this many),
# so that a waiter does not start a thread each time the lock is busy: starting and
# joining one costs about 0.1 ms of CPU, on every hand-over of a queue of writers. A kept
# helper waits on a lock of its own, named as idle; a busy one is named "mnemic-lock-wait".
_MAX_IDLE = 4
_BUSY, _IDLE = "mnemic-lock-wait", "mnemic-lock-wait-idle"
_idle: list[_Helper] = []


class _Helper:
    """A daemon thread that runs one blocking wait at a time, for :func:`_wait_in_kernel`."""

    def __init__(self) -> None:
        self._go = _thread.allocate_lock()
        self._go.acquire()
        self._job: Callable[[], None] | None = None
        self.thread = threading.Thread(target=self._loop, name=_BUSY, daemon=True)
        self.thread.start()

    def run(self, job: Callable[[], None]) -> None:
        """Run ``job`` in this helper's thread (which must be idle)."""
        self._job = job
        self._go.release()

    def _loop(self) -> None:
        while True:
            self._go.acquire()
            job, self._job = self._job, None
            if job is not None:
                job()
            with _abandoned_guard:
                if len(_idle) >= _MAX_IDLE:
                    return
                self.thread.name = _IDLE
                _idle.append(self)


def _helper() -> _Helper:
    """An idle helper, or a new one."""
    with _abandoned_guard:
        if _idle:
            helper = _idle.pop()
            helper.thread.name = _BUSY
            return helper
    return _Helper()


def _forget_helpers() -> None:
    # A forked child has none of its parent's threads: no helper, none abandoned, and the
    # guard may have been taken by one of them at the moment of the fork.
    global _abandoned, _abandoned_guard
    _idle.clear()
    _abandoned = 0
    _abandoned_guard = _thread.allocate_lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_helpers)


def _poll_for_lock(fd: int, op: int, start: float, timeout: float, path: str) -> None:
    """The fallback wait: non-blocking attempts with a short back-off."""
    delay = 0.0005
    try:
        while True:
            try:
                fcntl.flock(fd, op | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                waited = time.monotonic() - start
                if waited >= timeout:
                    raise LockTimeout(path, waited) from None
                time.sleep(min(delay, max(timeout - waited, 0.0)))
                delay = min(delay * 2, 0.02)
    except BaseException:
        os.close(fd)
        raise


# Descriptors of lock files kept open between two holds of the same lock (``keep=True``):
# path -> (descriptor, (device, inode)). A kept descriptor is unlocked; it is lent to
# one holder at a time (a second thread of the process opens a description of its own,
# so the two still exclude each other), and believed only while the path still names
# its inode once the lock is taken (the open descriptor pins that inode, so its number
# cannot be given to a file made again there). A forked child closes its copies: they
# share the parent's open file descriptions, whose locks would not exclude the parent.
_MAX_KEPT = 16
_kept: dict[str, tuple[int, tuple[int, int]]] = {}
_kept_guard = _thread.allocate_lock()
_forks = [0]
"""How many forks this process is from its first ancestor that kept a descriptor: a
lock taken before a fork is released by its child with a plain close (an unlock would
release the parent's lock, on the description they share)."""


def _take_kept(path: str) -> tuple[int, tuple[int, int]] | None:
    with _kept_guard:
        return _kept.pop(path, None)


def _put_kept(path: str, kept: tuple[int, tuple[int, int]]) -> bool:
    """Keep ``kept`` for the next holder of ``path``; False (the caller closes it) when
    one is kept already or enough are."""
    with _kept_guard:
        if path in _kept or len(_kept) >= _MAX_KEPT:
            return False
        _kept[path] = kept
        return True


def _forget_kept() -> None:
    global _kept_guard
    _forks[0] += 1
    for fd, _ in _kept.values():
        try:  # noqa: SIM105 - contextlib costs import time on the cold path
            os.close(fd)
        except OSError:
            pass
    _kept.clear()
    _kept_guard = _thread.allocate_lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_kept)


def _names(path: str, fd: int, ident: tuple[int, int]) -> bool:
    """Whether ``path`` is still the lock file ``fd`` is open on, inode ``ident``
    (tightened, as an open tightens it, when its mode lets others in)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if (st.st_dev, st.st_ino) != ident:
        return False
    if st.st_mode & 0o077 and st.st_uid == os.getuid():
        try:
            os.fchmod(fd, FILE_MODE)
        except OSError:
            return False
    return True


class SidecarLock:
    """Exclusive (or shared) ``flock`` on a sidecar lock file, with a timeout.

    The lock file is created 0600 (tightened if looser) and opened with ``O_NOFOLLOW``
    and without blocking: a lock file that is a symlink is refused with
    :class:`UnsafePath`, one that is not a regular file (a FIFO...) likewise. Each
    acquisition opens its own file description, so threads of one process exclude each
    other too. ``waited_ms`` tells how long the last acquisition waited.

    A writer (``shared=False``) that cannot create or open the lock file because the
    home is read-only gets :class:`ReadOnlyHome`. A reader (``shared=True``) opens an
    existing lock file read-only if it must, and on a home where the lock file cannot
    exist at all it reads without one (``held`` is then false): no writer can be working
    in a home that cannot even hold its lock file.

    With ``keep`` (an exclusive lock taken again and again by one process: a memory
    write's), the descriptor is not closed at release but unlocked and kept for the next
    holder, which then takes the lock without opening the file again, provided the lock
    is free (a busy one is waited for on a descriptor of its own, as without ``keep``)
    and the path still names the kept file once it is taken (else the kept descriptor
    is closed and the file opened again).
    """

    def __init__(
        self, path: StrPath, timeout: float, *, shared: bool = False, keep: bool = False
    ) -> None:
        if not 0.0 <= timeout < float("inf"):  # nan fails this too: it would never time out
            raise ValueError(f"lock timeout must be a finite number >= 0, got {timeout!r}")
        self.path = path
        self.timeout = timeout
        self.shared = shared
        self.waited_ms = 0.0
        self.held = False
        self._fd: int | None = None
        self._keep = keep and not shared
        self._ident: tuple[int, int] | None = None
        """(device, inode) of the file ``_fd`` is open on, when it may be kept."""
        self._forks = 0
        """:data:`_forks` when ``_fd`` was opened or lent."""

    def _from_kept(self) -> bool:
        """Take the lock on a kept descriptor if it is free and still the path's file."""
        path = os.fspath(self.path)
        kept = _take_kept(path)
        if kept is None:
            return False
        fd, ident = kept
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # busy: waited for on a descriptor of its own
            if not _put_kept(path, kept):
                os.close(fd)
            return False
        except BaseException:
            os.close(fd)
            raise
        if not _names(path, fd, ident):  # replaced or removed: it excludes nobody
            os.close(fd)
            return False
        self.waited_ms = 0.0
        self._fd, self._ident, self._forks = fd, ident, _forks[0]
        self.held = True
        return True

    def acquire(self) -> None:
        """Take the lock, waiting up to ``timeout`` seconds.

        A free lock is taken at once. A held one is waited for in the kernel (a blocking
        ``flock``), so the waiter wakes when the holder releases instead of sleeping
        through the release as a polling loop would; the deadline is kept by a helper
        thread that makes the blocking call (see :func:`_wait_in_kernel`).
        """
        if self._keep and self._from_kept():
            return
        start = time.monotonic()
        waited = False
        while True:
            fd = self._open()  # first: no flock on this platform is said there
            if fd is None:
                return
            op = fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX
            try:
                fcntl.flock(fd, op | fcntl.LOCK_NB)
            except BlockingIOError:
                # From here on the wait owns fd: on failure it is closed (now, or by the
                # helper thread once the kernel grants the lock it no longer wants).
                _wait_for_lock(fd, op, start, self.timeout, str(self.path))
                waited = True
            except BaseException:
                os.close(fd)
                raise
            if self._still_named(fd):
                break
        # A lock granted at once was not waited for: 0, not the microseconds of the call
        # (an audit record's length then depends on nobody's timing).
        self.waited_ms = (time.monotonic() - start) * 1000.0 if waited else 0.0
        self._fd = fd
        self.held = True

    def _still_named(self, fd: int) -> bool:
        """Whether the lock just taken on ``fd`` excludes the path's other holders: the
        path still names the file ``fd`` is open on (lock, then verify). A file moved or
        removed while this lock waited for it or was being taken (``mnemic gc`` setting
        a directory aside, a removal) excludes nobody who opens the path now: ``fd`` is
        closed and the caller takes the file the path names. A shared lock is not
        checked (a reader of a read-only home may hold no file at all)."""
        if self.shared:
            return True
        try:
            info = os.fstat(fd)
            if _names(os.fspath(self.path), fd, (info.st_dev, info.st_ino)):
                return True
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
        return False

    def try_acquire(self) -> bool:
        """Take the lock only if it is free right now."""
        if self._keep and self._from_kept():
            return True
        while True:
            fd = self._open()
            if fd is None:
                return True
            op = (fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX) | fcntl.LOCK_NB
            try:
                fcntl.flock(fd, op)
            except BlockingIOError:
                os.close(fd)
                return False
            except BaseException:
                os.close(fd)
                raise
            if self._still_named(fd):
                break
        self._fd = fd
        self.held = True
        return True

    def release(self) -> None:
        """Release the lock (closing the descriptor drops the flock)."""
        fd, self._fd = self._fd, None
        self.held = False
        if fd is None:
            return
        ident, self._ident = self._ident, None
        if ident is not None and self._forks == _forks[0]:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            except OSError:
                pass
            else:
                if _put_kept(os.fspath(self.path), (fd, ident)):
                    return
        os.close(fd)

    def _open(self) -> int | None:
        if not _HAVE_FLOCK:
            raise UnsupportedPlatform(sys.platform)
        try:
            fd = open_regular(self.path, os.O_RDWR | os.O_CREAT, nofollow=True, mode=FILE_MODE)
        except UnsafePath:
            raise UnsafePath(str(self.path), "the lock file is a symlink") from None
        except UnreadableFile as exc:
            raise UnsafePath(str(self.path), f"the lock file is unusable: {exc.reason}") from exc
        except OSError as exc:
            if exc.errno not in _READ_ONLY_ERRNOS and not (
                self.shared and exc.errno == errno.ENOENT
            ):
                raise UnsafePath(str(self.path), exc.strerror or str(exc)) from exc
            if not self.shared:
                raise ReadOnlyHome(str(self.path), exc.strerror or str(exc)) from exc
            try:  # a reader on a read-only home: the existing lock file, read-only
                fd = open_regular(self.path, os.O_RDONLY, nofollow=True)
            except UnreadableFile as exc2:
                raise UnsafePath(str(self.path), exc2.reason) from exc2
            except OSError:
                fd = None
            if fd is None:
                return None  # no lock file and none can be made: nobody writes here
            return fd
        assert fd is not None  # O_CREAT: never None
        try:
            st = os.fstat(fd)
            if st.st_mode & 0o077 and st.st_uid == os.getuid():
                os.fchmod(fd, FILE_MODE)
        except BaseException:
            os.close(fd)
            raise
        if self._keep:
            self._ident, self._forks = (st.st_dev, st.st_ino), _forks[0]
        return fd

    def __enter__(self) -> SidecarLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
