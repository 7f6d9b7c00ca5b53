"""The provenance sidecars of the file backend: ``.MEMORY.md.provenance.json`` and
``.USER.md.provenance.json`` beside the targets (0600, advisory; see :mod:`.provenance`).

A sidecar is replaced in two renames, the old one aside (``.MEMORY.md.prov-<id>.old``)
and the new one from its temp file (``.MEMORY.md.prov-<id>.tmp``) into place, rather
than renamed over: on ext4, a rename over an existing file forces the new file's data to
disk before the commit's journal entry (``auto_da_alloc``), which would cost as much as
an fsync inside the lock. The aside is removed by the flusher thread after the call.

Between the two renames (or after a crash there) there is no sidecar, but the aside and
the new temp file share their ``<id>``: readers then read the aside (the ledger of the
text on disk: the ledger goes before the text), and the holder of the lock puts it back
(:meth:`Sidecars.restore`). The temp file is one of the target's temp files (removed
like a target writer's debris); the aside is not, because it outlives the lock until the
flusher runs, so nothing takes it for a crashed writer's temp file: it ends in
:data:`ASIDE_SUFFIX`, and the backend's cleanup removes any a process left behind.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
from collections.abc import Mapping
from pathlib import Path

from ...curated.backend import MAX_LEDGER_BYTES
from ...errors import WriteFailed
from ...fsio import FILE_MODE, TEMP_SUFFIX, read_text_strict, temp_prefix
from . import flusher

__all__ = ["ASIDE_SUFFIX", "Sidecars"]

log = logging.getLogger(__name__)

ASIDE_SUFFIX = ".old"
"""Ends the name of a sidecar a write renamed aside."""


class Sidecars:
    """The sidecars of the targets whose files (by target) are ``files``, in one
    directory. Readers take no lock; writes and :meth:`restore` need the target's."""

    def __init__(self, directory: Path, files: Mapping[str, str]) -> None:
        self.directory = directory
        self._paths = {t: directory / f".{name}.provenance.json" for t, name in files.items()}
        self._prefixes = {t: f"{temp_prefix(name)}prov-" for t, name in files.items()}

    def path(self, target: str) -> Path:
        """The sidecar of a target."""
        return self._paths[target]

    def read(self, target: str) -> str | None:
        """The stored ledger, or ``None`` when there is none.

        Never follows a symlink, never blocks on a FIFO, refuses a huge file: each is an
        UnreadableFile / UnsafePath the caller logs and ignores."""
        text = _read(self.path(target))
        if text is None:
            # a writer may be (or have died) between its two renames
            aside = self._interrupted(target)
            if aside is not None:
                text = _read(aside)
        return text

    def read_locked(self, target: str) -> str | None:
        """:meth:`read` for the holder of the target's lock, who first puts back a
        sidecar a crashed writer left aside."""
        text = _read(self.path(target))
        if text is None and self.restore(target):
            text = _read(self.path(target))
        return text

    def write(self, target: str, ledger: str) -> None:
        """Replace the sidecar of a target (caller holds its lock; see the module
        docstring). A temp file without an fsync of its own (provenance is advisory;
        the directory fsync of the commit it goes with carries the renames). Renames
        never follow or open what they move: a symlink or a FIFO in place of the
        sidecar is moved aside and removed. Raises :class:`WriteFailed`."""
        path = self.path(target)
        stem = f"{self._prefixes[target]}{os.urandom(6).hex()}"
        tmp = os.path.join(self.directory, f"{stem}{TEMP_SUFFIX}")
        aside = os.path.join(self.directory, f"{stem}{ASIDE_SUFFIX}")
        try:
            fd = os.open(
                tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE
            )
            try:
                view = memoryview(ledger.encode("utf-8"))
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)
            if os.path.isdir(path) and not os.path.islink(path):
                raise IsADirectoryError(errno.EISDIR, "a directory is in the way", str(path))
            try:
                os.rename(path, aside)
            except FileNotFoundError:
                aside = ""
            os.rename(tmp, path)
        except OSError as exc:
            _remove(tmp)
            if aside and os.path.lexists(aside) and not os.path.lexists(path):
                with contextlib.suppress(OSError):
                    os.rename(aside, path)  # put back what was there
            raise WriteFailed(str(path), exc.strerror or str(exc)) from exc
        if aside:  # freeing its blocks can wait for a filesystem commit: not on our path
            flusher.submit(("unlink", aside), lambda: _remove(aside))

    def restore(self, target: str) -> bool:
        """Put back the sidecar a writer that died between its two renames left aside
        (caller holds the target's lock); True if there was one. Its new sidecar (the
        temp file) goes: the text it was written for was never renamed into place."""
        if os.path.lexists(self.path(target)):
            return False
        aside = self._interrupted(target)
        if aside is None:
            return False
        try:
            os.rename(aside, self.path(target))
        except OSError as exc:
            log.warning("could not put back the provenance of %s: %s", target, exc)
            return False
        _remove(os.path.join(self.directory, _partner(aside)))
        return True

    def asides(self, target: str) -> list[str]:
        """The old sidecars of ``target`` renamed aside and not removed yet."""
        return self._asides(target)[0]

    def _asides(self, target: str) -> tuple[list[str], set[str]]:
        prefix = self._prefixes[target]
        try:
            names = set(os.listdir(self.directory))
        except FileNotFoundError:
            return [], set()
        found = sorted(n for n in names if n.startswith(prefix) and n.endswith(ASIDE_SUFFIX))
        return [os.path.join(self.directory, n) for n in found], names

    def _interrupted(self, target: str) -> str | None:
        """The sidecar a writer renamed aside and did not replace: an aside whose new
        sidecar (the temp file of the same name) is still there. A replaced sidecar's
        aside has no such partner: its temp file was renamed into place."""
        asides, names = self._asides(target)
        for aside in asides:
            if _partner(aside) in names:
                return aside
        return None


def _read(path: str | Path) -> str | None:
    return read_text_strict(path, nofollow=True, max_bytes=MAX_LEDGER_BYTES)


def _partner(aside: str) -> str:
    """The name of the temp file written by the writer that renamed ``aside``."""
    return os.path.basename(aside)[: -len(ASIDE_SUFFIX)] + TEMP_SUFFIX


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
