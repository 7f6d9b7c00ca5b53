"""The attachment store: the bytes of the images and files imported messages hold.

Content-addressed in the home: ``<home>/attachments/ab/cdef…``, the SHA-256 hex of the
bytes, its first two digits a directory. The same bytes are kept once, whichever
messages, sessions or imports hold them. Files and directories are private (0600 / 0700)
and written atomically (:func:`~mnemic.fsio.atomic_write_bytes`): a reader sees a whole
file or none. Which message holds which file is the session store's business (its
``message_attachments`` table, one :class:`~.store.Attachment` per row); this module only
keeps bytes.

Two caps (``[sessions]`` settings): ``attachment_max_bytes`` per attachment and
``attachments_max_total`` for the store. What would pass one is refused with
:class:`~mnemic.errors.AttachmentRefused` saying which; an importer keeps a placeholder
naming the file and why in its message (never a silent drop).

Crash safety: bytes are written before the link that names them is committed, and a
link is deleted (committed) before the bytes it named. A file no link names is garbage
(:meth:`AttachmentStore.collect` removes it); a link whose file is gone reads as missing.
A file younger than ``grace`` seconds is never collected: an import in flight has
written it and not yet committed its link (storing known bytes again renews the time).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..control_chars import printable
from ..errors import AttachmentRefused, UnreadableFile, UnsafePath
from ..fsio import atomic_write_bytes, ensure_private_dir, read_bytes_strict, remove_file
from ..home import Home
from .store import Attachment

__all__ = [
    "DIRNAME",
    "AttachmentStore",
    "Collected",
    "attachment_name",
    "is_sha256",
    "media_type_of",
]

DIRNAME = "attachments"
"""The store's directory in the home."""
MAX_NAME = 200
"""Characters of a file name kept."""
GRACE = 3600.0
"""Seconds a file without a link is left alone by :meth:`AttachmentStore.collect`."""
_HEX = re.compile(r"[0-9a-f]{64}")
_OCTET = "application/octet-stream"


def is_sha256(value: str) -> bool:
    """Whether ``value`` is a SHA-256 as the store names files (64 lowercase hex)."""
    return _HEX.fullmatch(value) is not None


def media_type_of(name: str, given: str | None = None) -> str:
    """The media type of a file: the one the source gave when it looks like one, else a
    guess from the name's extension, else ``application/octet-stream``."""
    if given:
        cleaned = given.strip().lower()
        if re.fullmatch(r"[a-z0-9.+-]+/[a-z0-9.+-]+", cleaned):
            return cleaned
    import mimetypes  # here: reads the system's type tables, only when a file is kept

    guessed, _ = mimetypes.guess_type(name, strict=False)
    return guessed or _OCTET


def attachment_name(name: str | None, sha256: str, media_type: str) -> str:
    """A file name safe to show and to serve: the last part of ``name`` with control
    characters replaced, cut to 200 characters; without one, ``image-<hash>.png``."""
    base = ""
    if name:
        base = printable(name.replace("\\", "/").rsplit("/", 1)[-1], lines=False).strip()
        base = base[:MAX_NAME]
    if base in ("", ".", ".."):
        import mimetypes

        ext = mimetypes.guess_extension(media_type, strict=False) or ""
        kind = "image" if media_type.startswith("image/") else "file"
        base = f"{kind}-{sha256[:12]}{ext}"
    return base


@dataclass(frozen=True, slots=True)
class Collected:
    """What :meth:`AttachmentStore.collect` did (or would do)."""

    removed: tuple[str, ...]
    """Hashes of the files removed: no link named them."""
    freed: int
    """Bytes they took."""
    young: int
    """Files without a link left alone: younger than the grace period."""


class AttachmentStore:
    """The bytes of attachments under ``root`` (``<home>/attachments``)."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        max_bytes: int = 20 * 1024 * 1024,
        max_total: int = 2 * 1024 * 1024 * 1024,
    ) -> None:
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.max_total = max_total
        self._total: int | None = None

    @classmethod
    def of_home(cls, home: Home) -> AttachmentStore:
        """The store of ``home``, with its ``[sessions]`` caps."""
        sessions = home.settings.sessions
        return cls(
            home.root / DIRNAME,
            max_bytes=sessions.attachment_max_bytes,
            max_total=sessions.attachments_max_total,
        )

    def __repr__(self) -> str:
        return f"AttachmentStore({str(self.root)!r})"

    def path_of(self, sha256: str) -> Path:
        """Where the bytes of ``sha256`` are kept; anything but a SHA-256 is refused
        (a name from a request or a file never becomes a path)."""
        if not is_sha256(sha256):
            raise UnsafePath(repr(sha256)[:80], "an attachment is named by its SHA-256 only")
        return self.root / sha256[:2] / sha256[2:]

    # --- writing ---------------------------------------------------------------------
    def put(
        self,
        data: bytes,
        *,
        name: str | None = None,
        media_type: str | None = None,
        caption: str | None = None,
    ) -> Attachment:
        """Keep ``data`` (once: known bytes are not written again) and return its link.

        Raises :class:`AttachmentRefused` when it is larger than the per-attachment cap
        or would take the store past its total cap; nothing is written then.
        """
        sha = hashlib.sha256(data).hexdigest()
        kind = media_type_of(name or "", media_type)
        said = printable(caption, lines=False).strip() if caption else ""
        link = Attachment(sha, attachment_name(name, sha, kind), kind, len(data), said or None)
        if len(data) > self.max_bytes:
            raise AttachmentRefused(
                link.name,
                f"{len(data):,} bytes is over the {self.max_bytes:,}-byte attachment cap "
                "([sessions] attachment_max_bytes)",
            )
        path = self.path_of(sha)
        if self._renew(path, len(data)):
            return link
        total = self.total_bytes()
        if total + len(data) > self.max_total:
            raise AttachmentRefused(
                link.name,
                f"the attachment store holds {total:,} bytes and {len(data):,} more would "
                f"pass its {self.max_total:,}-byte cap ([sessions] attachments_max_total)",
            )
        ensure_private_dir(self.root)
        ensure_private_dir(path.parent)
        atomic_write_bytes(path, data)
        self._total = total + len(data)
        return link

    def put_file(
        self,
        folder: str | os.PathLike[str],
        relative: str,
        *,
        name: str | None = None,
        media_type: str | None = None,
        caption: str | None = None,
    ) -> Attachment:
        """Keep the file ``relative`` names inside ``folder`` (an export's folder).

        Refused (:class:`AttachmentRefused`, with the reason) when the name leaves the
        folder, when the file or a directory on the way is a symlink (never followed),
        when it is missing or not a regular file, or when it is over a cap.
        """
        shown = name or relative
        parts = Path(relative.replace("\\", "/")).parts
        if not parts or Path(relative).is_absolute() or any(p in ("..", "") for p in parts):
            raise AttachmentRefused(shown, "its path leaves the export folder")
        base = Path(folder)
        here = base
        for part in parts[:-1]:
            here = here / part
            try:
                mode = os.lstat(here).st_mode
            except OSError:
                raise AttachmentRefused(shown, "it is not in the export folder") from None
            if not stat.S_ISDIR(mode):
                raise AttachmentRefused(shown, f"{here} is a symlink or not a directory")
        target = here / parts[-1]
        try:
            data = read_bytes_strict(target, max_bytes=self.max_bytes, nofollow=True)
        except UnsafePath:
            raise AttachmentRefused(shown, "it is a symlink; symlinks are not followed") from None
        except UnreadableFile as exc:
            raise AttachmentRefused(shown, exc.reason) from None
        if data is None:
            raise AttachmentRefused(shown, "it is not in the export folder")
        return self.put(data, name=name or parts[-1], media_type=media_type, caption=caption)

    def _renew(self, path: Path, size: int) -> bool:
        """Whether ``path`` already holds these bytes; if so its time is renewed, so a
        collection running beside this import leaves it alone."""
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return False
        if not stat.S_ISREG(st.st_mode) or st.st_size != size:
            return False  # damaged: written again
        with contextlib.suppress(OSError):  # a read-only home: nothing collects there
            os.utime(path)
        return True

    # --- reading ---------------------------------------------------------------------
    def read(self, sha256: str) -> bytes | None:
        """The bytes kept under ``sha256``; None when there are none (a missing file).
        Bytes that no longer hash to their name raise :class:`UnreadableFile`."""
        data = read_bytes_strict(self.path_of(sha256), max_bytes=1 << 40, nofollow=True)
        if data is not None and hashlib.sha256(data).hexdigest() != sha256:
            raise UnreadableFile(
                str(self.path_of(sha256)),
                "its bytes no longer match their SHA-256 (damaged); import the file again",
            )
        return data

    def has(self, sha256: str) -> bool:
        """Whether a file is kept under ``sha256``."""
        return self.path_of(sha256).is_file()

    def hashes(self) -> Iterator[tuple[str, int, float]]:
        """``(sha256, bytes, modified)`` of every file kept; other names are passed over."""
        try:
            tops = sorted(os.scandir(self.root), key=lambda e: e.name)
        except FileNotFoundError:
            return
        for top in tops:
            if len(top.name) != 2 or not top.is_dir(follow_symlinks=False):
                continue
            for entry in sorted(os.scandir(top.path), key=lambda e: e.name):
                sha = top.name + entry.name
                if is_sha256(sha) and entry.is_file(follow_symlinks=False):
                    st = entry.stat(follow_symlinks=False)
                    yield sha, st.st_size, st.st_mtime

    def total_bytes(self) -> int:
        """Bytes of every file kept (counted once per store object, then kept up)."""
        if self._total is None:
            self._total = sum(size for _, size, _ in self.hashes())
        return self._total

    # --- removing --------------------------------------------------------------------
    def collect(
        self, used: Iterable[str], *, grace: float = GRACE, dry_run: bool = False
    ) -> Collected:
        """Remove every file whose hash is not in ``used`` (the hashes the links name,
        read after the links were removed) and that is older than ``grace`` seconds."""
        keep = set(used)
        now = time.time()
        removed: list[str] = []
        freed = young = 0
        for sha, size, modified in list(self.hashes()):
            if sha in keep:
                continue
            if now - modified < grace:
                young += 1
                continue
            if not dry_run and not self._unlink(sha):
                continue
            removed.append(sha)
            freed += size
        if removed and not dry_run:
            self._total = None
        return Collected(tuple(removed), freed, young)

    def discard(self, hashes: Iterable[str], used: Iterable[str], *, before: float) -> int:
        """Delete the files of ``hashes`` (the links just forgotten named them) that no
        link in ``used`` names and that were last stored before ``before`` (bytes stored
        again meanwhile belong to a newer import); return how many went."""
        keep = set(used)
        gone = 0
        for sha in sorted(set(hashes) - keep):
            path = self.path_of(sha)
            try:
                if os.lstat(path).st_mtime >= before:
                    continue
            except FileNotFoundError:
                continue
            gone += self._unlink(sha)
        if gone:
            self._total = None
        return gone

    def _unlink(self, sha256: str) -> bool:
        """Delete one file; False when it was gone already. A file that cannot be
        deleted (a read-only home) raises :class:`~mnemic.errors.WriteFailed`."""
        return remove_file(self.path_of(sha256))
