"""The bundle file: a gzip-compressed tar whose first member is ``manifest.json``.

The manifest names the format (``mnemic-bundle``), its version (:data:`VERSION`), when and
by which mnemic it was made, how many of each kind it carries, and every other member
with its size and SHA-256. This module writes such a file from a directory of members
(:func:`pack`) and reads one back into a directory (:func:`unpack`), refusing before
anything is used: a file that is not a bundle, another format or version, a member that
is not a regular file, whose path escapes the bundle (absolute, ``..``, a link), that
the manifest does not list (or lists twice), whose bytes differ from their checksum,
and a truncated file. What the members hold is :mod:`.contents`' business.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Any

from ... import __version__
from ...control_chars import printable
from ...errors import BundleError, UnreadableFile
from ...fsio import ensure_private_dir
from ...fsread import open_to_read
from ...jsonstream import TOO_DEEP

__all__ = [
    "FORMAT",
    "MANIFEST",
    "VERSION",
    "Manifest",
    "pack",
    "private_dirs",
    "safe_member",
    "unpack",
]

FORMAT = "mnemic-bundle"
VERSION = 1
"""The one bundle version this mnemic writes and reads."""
MANIFEST = "manifest.json"
_CHUNK = 1 << 20


@dataclass
class Manifest:
    """What ``manifest.json`` says."""

    created: str
    mnemic_version: str
    counts: dict[str, int]
    members: dict[str, tuple[int, str]] = field(default_factory=dict)
    """path -> (size, sha256) of every member but the manifest."""
    with_vectors: bool = False
    source_store: str = "files"

    def as_dict(self) -> dict[str, Any]:
        """The JSON form written as ``manifest.json``."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "created": self.created,
            "mnemic_version": self.mnemic_version,
            "source_store": self.source_store,
            "with_vectors": self.with_vectors,
            "counts": dict(self.counts),
            "members": [
                {"path": p, "size": size, "sha256": digest}
                for p, (size, digest) in sorted(self.members.items())
            ],
        }


def safe_member(name: str) -> bool:
    """Whether ``name`` is a relative path that stays inside the bundle: POSIX parts of
    plain characters, none of them empty, ``.`` or ``..``."""
    if not name or name.startswith("/") or len(name) > 1024 or "\\" in name:
        return False
    parts = name.split("/")
    return all(p not in ("", ".", "..") and p.isprintable() and len(p) <= 255 for p in parts)


def _digest(path: Path) -> tuple[int, str]:
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
            size += len(chunk)
    return size, h.hexdigest()


def pack(source: Path, destination: Path, manifest: Manifest) -> None:
    """Write every regular file under ``source`` and the manifest (first) as the bundle
    ``destination``: a private temporary file beside it, renamed into place at the end."""
    members: list[tuple[str, Path]] = []
    for directory, _dirs, files in os.walk(source):
        for name in files:
            path = Path(directory) / name
            rel = path.relative_to(source).as_posix()
            if not safe_member(rel):
                raise BundleError(
                    str(destination),
                    "path",
                    f"cannot carry the file {printable(repr(rel))} (its name is not a plain "
                    "relative path); nothing was written. Rename it, then export again",
                )
            members.append((rel, path))
    members.sort()
    manifest.members = {rel: _digest(path) for rel, path in members}
    body = json.dumps(manifest.as_dict(), ensure_ascii=False, indent=1).encode("utf-8")
    stamp = time.time()
    try:  # private (0600), a new name: never follows a planted link
        fd, name = tempfile.mkstemp(prefix=f".{destination.name}.", dir=destination.parent)
    except OSError as exc:
        raise BundleError(
            str(destination), "write", f"cannot write there ({exc.strerror or exc})"
        ) from None
    tmp = Path(name)
    try:
        with (
            os.fdopen(fd, "wb") as raw,
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=int(stamp)) as gz,
            tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar,
        ):
            tar.addfile(_info(MANIFEST, len(body), stamp), io.BytesIO(body))
            for rel, path in members:
                with open(path, "rb") as fh:
                    info = _info(rel, manifest.members[rel][0], stamp)
                    if os.fstat(fh.fileno()).st_mode & 0o100:  # a skill's script stays runnable
                        info.mode = 0o700
                    tar.addfile(info, fh)
            # the with-block flushes tar, then gzip; fsync before the rename
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, destination)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _info(name: str, size: int, stamp: float) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = size, int(stamp), 0o600
    return info


def _refuse(path: Path, reason: str, problem: str) -> BundleError:
    return BundleError(str(path), reason, f"{problem}. Nothing was imported.")


def _read_manifest(path: Path, fh: IO[bytes]) -> Manifest:
    try:
        data = json.loads(fh.read(16 << 20).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _refuse(path, "manifest", f"its {MANIFEST} is not valid JSON ({exc})") from None
    except RecursionError:
        raise _refuse(path, "manifest", f"its {MANIFEST} is not valid JSON ({TOO_DEEP})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise _refuse(path, "manifest", f"this is not a mnemic bundle (format {found!r})")
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # true and 1.0 are not version 1
        raise _refuse(
            path,
            "version",
            f"this bundle is of version {printable(repr(version))}; this mnemic "
            f"({__version__}) reads version {VERSION} only. Import it with a mnemic that "
            "knows its version",
        )
    try:
        members: dict[str, tuple[int, str]] = {}
        for m in data["members"]:
            if not isinstance(m["path"], str):
                raise ValueError(f"the member path {m['path']!r} is not a string")
            if m["path"] in members or m["path"] == MANIFEST:
                raise ValueError(f"{m['path']!r} listed twice")
            members[m["path"]] = (_count(m["size"], m["path"]), str(m["sha256"]))
        counts = {str(k): _count(v, k) for k, v in dict(data.get("counts") or {}).items()}
        named = {k: data[k] for k in ("created", "mnemic_version")}
        for key, value in named.items():
            if not isinstance(value, str):
                raise ValueError(f"{key} is not a string")
        return Manifest(
            named["created"],
            named["mnemic_version"],
            counts,
            members,
            bool(data.get("with_vectors")),
            str(data.get("source_store") or "files"),
        )
    except (KeyError, TypeError, ValueError) as exc:
        problem = f"its {MANIFEST} is not of version 1's shape ({exc})"
        raise _refuse(path, "manifest", problem) from None


def _count(value: object, what: object) -> int:
    """A size or a count of the manifest: a whole number, 0 or more (``1e400``, ``-1``,
    ``true`` or ``2.5`` are not one)."""
    if type(value) is not int or value < 0:
        raise ValueError(
            f"{printable(repr(what))[:80]} is {printable(repr(value))[:40]}, not a count"
        )
    return value


def unpack(path: Path, staging: Path) -> Manifest:
    """Check the bundle at ``path`` and write its members under ``staging`` (a private
    directory); the manifest they match is returned. Raises :class:`BundleError`."""
    try:  # a regular file only: a FIFO without a writer hung the import (and the open)
        fd = open_to_read(path)
    except UnreadableFile as exc:
        raise _refuse(path, "manifest", f"cannot read it ({exc.reason})") from None
    with open(fd, "rb") as raw:
        return _unpack_from(path, raw, staging)


def _unpack_from(path: Path, raw: IO[bytes], staging: Path) -> Manifest:
    magic = raw.read(2)
    raw.seek(0)
    if magic and magic != b"\x1f\x8b":  # a zip, a plain tar: no damage, another format
        raise _refuse(
            path,
            "manifest",
            "this is not a mnemic bundle (`mnemic export --bundle` writes a gzip-compressed "
            "tar; this file is not gzip)",
        )
    try:
        tar = tarfile.open(fileobj=raw, mode="r:gz")  # noqa: SIM115 - closed below
    except OSError as exc:  # ReadError and gzip's errors are OSErrors too
        if isinstance(exc, (tarfile.ReadError, gzip.BadGzipFile)) or not exc.errno:
            raise _refuse(path, "truncated", f"it is not a bundle, or is damaged ({exc})") from None
        raise _refuse(path, "manifest", f"cannot read it ({exc.strerror or exc})") from None
    except (EOFError, zlib.error, tarfile.TarError) as exc:
        raise _refuse(path, "truncated", f"it is truncated or damaged ({exc})") from None
    try:
        with tar:
            return _unpack(path, tar, staging)
    except (EOFError, zlib.error, tarfile.TarError, gzip.BadGzipFile) as exc:
        why = str(exc) or type(exc).__name__
        raise _refuse(path, "truncated", f"the file is truncated or damaged ({why})") from None


def _unpack(path: Path, tar: tarfile.TarFile, staging: Path) -> Manifest:
    manifest: Manifest | None = None
    seen: set[str] = set()
    folders: set[str] = set()  # every folder a member seen so far sits in
    while (info := tar.next()) is not None:
        if manifest is None:
            if info.name != MANIFEST or not info.isfile():
                raise _refuse(path, "manifest", f"it does not start with {MANIFEST}")
            manifest = _read_manifest(path, _open(tar, info))
            _room_for(path, manifest, staging)
            continue
        name = info.name
        shown = printable(repr(name))
        if not safe_member(name):
            raise _refuse(path, "path", f"its member {shown} is a path outside the bundle")
        if not info.isfile():
            what = "a link" if info.issym() or info.islnk() else "not a plain file"
            raise _refuse(path, "path", f"its member {shown} is {what}")
        if name in seen:
            raise _refuse(path, "path", f"its member {shown} is in it twice")
        if name not in manifest.members:
            raise _refuse(path, "path", f"its member {shown} is not listed in the manifest")
        parents = ["/".join(name.split("/")[:i]) for i in range(1, name.count("/") + 1)]
        clash = name if name in folders else next((p for p in parents if p in seen), None)
        if clash is not None:
            raise _refuse(
                path,
                "path",
                f"its member {shown} and the member {printable(repr(clash))} make one path both "
                "a file and a folder",
            )
        seen.add(name)
        folders.update(parents)
        size, digest = manifest.members[name]
        if info.size != size:  # read no more than the manifest says
            raise _refuse(
                path,
                "checksum",
                f"its member {shown} is {info.size:,} bytes where the manifest says {size:,}: "
                "the bundle was changed or damaged",
            )
        got_size, got = _copy(_open(tar, info), staging, name, runnable=bool(info.mode & 0o100))
        if (got_size, got) != (size, digest):
            raise _refuse(
                path,
                "checksum",
                f"its member {shown} differs from the manifest's checksum (sha256 "
                f"{got[:12]}..., expected {digest[:12]}...): the bundle was changed or damaged",
            )
    if manifest is None:
        raise _refuse(path, "truncated", "the file is empty or truncated")
    missing = sorted(set(manifest.members) - seen)
    if missing:
        raise _refuse(
            path, "truncated", f"{len(missing)} member(s) are missing (first: {missing[0]!r})"
        )
    return manifest


def _room_for(path: Path, manifest: Manifest, staging: Path) -> None:
    """Refuse, before a byte of it is written, a bundle whose members (as its manifest
    sizes them) do not fit in the free space of the file system they are unpacked on
    (the home's): a huge member, or a small gzip of one, would fill the disk first."""
    need = sum(size for size, _ in manifest.members.values())
    ensure_private_dir(staging)
    free = shutil.disk_usage(staging).free
    if need > free:
        raise _refuse(
            path,
            "write",
            f"its members take {need:,} bytes unpacked, and {free:,} bytes are free where "
            f"it is unpacked ({staging.parent.parent}): make room there, or import into a "
            "home on another disk",
        )


def _open(tar: tarfile.TarFile, info: tarfile.TarInfo) -> IO[bytes]:
    fh = tar.extractfile(info)
    if fh is None:  # pragma: no cover - a regular file always has a body
        raise tarfile.ReadError(f"no data for {info.name}")
    return fh


def private_dirs(base: Path, rel: PurePosixPath | Path) -> Path:
    """``base / rel``, each missing directory on the way made owner-only (0700; a plain
    ``makedirs`` leaves the ones between to the umask)."""
    here = base
    ensure_private_dir(here)
    for part in rel.parts:
        here = here / part
        ensure_private_dir(here)
    return here


def _copy(fh: IO[bytes], staging: Path, name: str, *, runnable: bool) -> tuple[int, str]:
    """Write ``fh`` to the new file ``staging / name`` (owner-only: 0600, 0700 when
    ``runnable``); return its size and SHA-256."""
    dest = private_dirs(staging, PurePosixPath(name).parent) / PurePosixPath(name).name
    h = hashlib.sha256()
    size = 0
    mode = 0o700 if runnable else 0o600
    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    with os.fdopen(fd, "wb") as out:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
            size += len(chunk)
            out.write(chunk)
    return size, h.hexdigest()
