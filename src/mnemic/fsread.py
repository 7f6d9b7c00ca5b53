"""Strict reads of regular files: never blocking, never mistaking "unreadable" for "empty".

:func:`open_regular` opens without blocking (``O_NONBLOCK``, so a FIFO without a writer
does not hang the open) and checks with ``fstat`` that the path is a regular file: a
FIFO, socket, device or directory is refused with :class:`~mnemic.errors.UnreadableFile`
naming what it is. :func:`read_bytes_strict` and :func:`read_text_strict` (strict UTF-8)
build on it; every reader of a file mnemic keeps goes through them. :mod:`mnemic.fsio`
re-exports all of it.
"""

from __future__ import annotations

import errno
import os
import stat

from .errors import UnreadableFile, UnsafePath

StrPath = str | os.PathLike[str]

__all__ = [
    "decode_text",
    "describe_kind",
    "open_regular",
    "open_to_read",
    "read_bytes_strict",
    "read_text_strict",
]

O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


_KINDS = {
    stat.S_IFREG: "a regular file",
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFLNK: "a symlink",
}


def describe_kind(mode: int) -> str:
    """What kind of file an ``st_mode`` is, for messages ("a named pipe (FIFO)", ...)."""
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def _not_regular(mode: int) -> str:
    return (
        f"it is {describe_kind(mode)}, not a regular file: move it away or replace it "
        "with a regular file"
    )


def open_regular(
    path: StrPath,
    flags: int = os.O_RDONLY,
    *,
    nofollow: bool = False,
    mode: int = 0o600,
) -> int | None:
    """Open ``path`` without blocking and make sure it is a regular file.

    Returns the descriptor (in blocking mode again), or ``None`` when the file does not
    exist and ``flags`` do not create it. The open never blocks: a FIFO, device, socket
    or directory in place of the file raises :class:`UnreadableFile` naming what it is.
    With ``nofollow``, a symlink is refused with :class:`UnsafePath`. Other failures
    raise the :class:`OSError` of the open (the caller maps it, e.g. to a write error;
    :func:`open_to_read` for a file that must be there).
    """
    open_flags = flags | O_NONBLOCK | O_CLOEXEC | (O_NOFOLLOW if nofollow else 0)
    try:
        fd = os.open(path, open_flags, mode)
    except FileNotFoundError:
        if flags & os.O_CREAT:
            raise
        return None
    except OSError as exc:
        if nofollow and exc.errno == errno.ELOOP:
            raise UnsafePath(
                str(path),
                "it is a symlink; mnemic keeps memory files as regular files in a private "
                "directory (replace the link with the file it points to)",
            ) from exc
        kind = _kind_of(path)
        if kind is not None and not stat.S_ISREG(kind):  # a socket refuses open (ENXIO)
            raise UnreadableFile(str(path), _not_regular(kind)) from exc
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnreadableFile(str(path), _not_regular(st.st_mode))
        if O_NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_to_read(path: StrPath) -> int:
    """:func:`open_regular` of a file that must be there (an import's source, a bundle):
    its descriptor, or :class:`UnreadableFile` for whatever stops it, a missing file
    (``No such file or directory``) and any other failed open included, its ``reason``
    what a caller quotes. It never waits on a FIFO or a device."""
    try:
        fd = open_regular(path)
    except OSError as exc:
        raise UnreadableFile(str(path), exc.strerror or str(exc)) from exc
    if fd is None:
        raise UnreadableFile(str(path), os.strerror(errno.ENOENT))
    return fd


def _kind_of(path: StrPath) -> int | None:
    try:
        return os.lstat(path).st_mode
    except OSError:
        return None


def read_bytes_strict(
    path: StrPath,
    *,
    max_bytes: int = 64 * 1024 * 1024,
    nofollow: bool = False,
    owner_only: bool = False,
) -> bytes | None:
    """The bytes of a regular file; ``None`` if it does not exist.

    Opened with :func:`open_regular` (never blocks on a FIFO or device). An I/O error, a
    file that is not a regular file, or one larger than ``max_bytes`` raises
    :class:`UnreadableFile`; a symlink with ``nofollow`` raises :class:`UnsafePath`.
    With ``owner_only`` (a secret), a file its group or other users may read raises
    :class:`UnreadableFile` saying how to make it private (POSIX systems only).
    """
    try:
        fd = open_regular(path, nofollow=nofollow)
    except OSError as exc:
        raise UnreadableFile(str(path), exc.strerror or str(exc)) from exc
    if fd is None:
        return None
    try:
        st = os.fstat(fd)
        if owner_only and os.name == "posix" and st.st_mode & 0o077:
            raise UnreadableFile(
                str(path),
                f"other users may read it (mode {stat.S_IMODE(st.st_mode):04o}); make it "
                f"private with: chmod 600 {path}",
            )
        if st.st_size > max_bytes:
            raise UnreadableFile(
                str(path), f"{st.st_size:,} bytes is larger than the {max_bytes:,}-byte limit"
            )
        chunks = []
        total = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:  # grew while being read
                raise UnreadableFile(str(path), f"larger than the {max_bytes:,}-byte limit")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise UnreadableFile(str(path), exc.strerror or str(exc)) from exc
    finally:
        os.close(fd)


def read_text_strict(
    path: StrPath,
    *,
    max_bytes: int = 64 * 1024 * 1024,
    nofollow: bool = False,
    owner_only: bool = False,
) -> str | None:
    """Read a UTF-8 text file; ``None`` if it does not exist.

    With ``nofollow``, a symlink is refused with :class:`UnsafePath`; with
    ``owner_only``, a file others may read (see :func:`read_bytes_strict`).

    A leading UTF-8 BOM is dropped. Anything else that is not clean UTF-8 text raises
    :class:`UnreadableFile` (with the byte offset), as does an I/O error, a file that is
    not a regular file (a FIFO, device, socket or directory: refused without blocking) or
    a file larger than ``max_bytes``: a caller must never mistake an unreadable file for
    an empty one.
    """
    data = read_bytes_strict(path, max_bytes=max_bytes, nofollow=nofollow, owner_only=owner_only)
    if data is None:
        return None
    return decode_text(path, data)


def decode_text(path: StrPath, data: bytes) -> str:
    """The text of ``data`` read from ``path``, as :func:`read_text_strict` reads it: a
    leading UTF-8 BOM dropped, anything else not clean UTF-8 text (a NUL included)
    raising :class:`UnreadableFile` that names ``path``."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(
            str(path), f"not valid UTF-8 at byte {exc.start}: {exc.reason}"
        ) from exc
    if "\x00" in text:
        raise UnreadableFile(str(path), f"contains a NUL byte at char {text.index(chr(0))}")
    return text
