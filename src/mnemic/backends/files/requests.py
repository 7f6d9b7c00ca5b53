"""The request queue of group commit (``[memory] group_commit = "queue"``), as files.

Layout under ``<home>/memories/.queue/<FILE>/`` (one directory per target)::

    <id>.req        a request left by a writer that found the target's lock busy
    <id>.claimed    the same request, taken by the lock's holder (a rename: atomic
                    against the writer withdrawing it, so exactly one of them wins)
    <id>.res        the holder's answer, written under the lock once its commit is
                    durable (or at once when it hands the request back unapplied)

``<id>`` starts with the time in nanoseconds, so a sorted listing is arrival order, then
the writer's process id. Nothing here is durable (no fsync): a request and its answer
only matter to a writer that is alive, and the journal, not this directory, says what
committed (:mod:`mnemic.curated.groupcommit`). A file is written under a temp name and
renamed, so a reader sees it whole or not at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any

from ...curated.entries import FILENAMES
from ...fsio import FILE_MODE, ensure_private_dir

__all__ = ["FileRequests"]


class FileRequests:
    """Requests and answers of group commit, one directory per target under ``root``
    (``memories/.queue``: :data:`mnemic.backends.files.curated.QUEUE_DIR`)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._dirs = {t: self.root / name for t, name in FILENAMES.items()}

    def submit(self, target: str, payload: dict[str, Any]) -> str:
        """Leave a request for ``target``'s lock holder; return its id."""
        folder = self._dirs[target]
        if not folder.is_dir():
            ensure_private_dir(self.root)
            ensure_private_dir(folder)
        rid = f"{time.time_ns():020d}-{os.getpid()}-{os.urandom(4).hex()}"
        _write(folder, f"{rid}.req", payload)
        return rid

    def withdraw(self, target: str, rid: str) -> bool:
        """Take back a request nobody claimed; False when a holder claimed it first."""
        try:
            os.unlink(self._dirs[target] / f"{rid}.req")
        except FileNotFoundError:
            return False
        return True

    def claim(self, target: str) -> list[tuple[str, dict[str, Any] | None]]:
        """Take every waiting request of ``target`` (caller holds its lock), oldest
        first: ``(id, payload)``, the payload ``None`` when it cannot be read (the
        holder hands such a request back). Requests of processes that are gone are
        dropped: nobody waits for their answer."""
        folder = self._dirs[target]
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith(".req"))
        except FileNotFoundError:
            return []
        out: list[tuple[str, dict[str, Any] | None]] = []
        for name in names:
            rid = name[: -len(".req")]
            claimed = folder / f"{rid}.claimed"
            try:
                os.rename(folder / name, claimed)
            except FileNotFoundError:
                continue  # withdrawn meanwhile
            if not _alive(rid):
                _discard(claimed)
                continue
            out.append((rid, _read(claimed)))
        return out

    def answer(self, target: str, rid: str, result: dict[str, Any]) -> None:
        """Leave the answer of a claimed request (caller holds the lock)."""
        folder = self._dirs[target]
        _write(folder, f"{rid}.res", result)
        _discard(folder / f"{rid}.claimed")

    def result(self, target: str, rid: str) -> dict[str, Any] | None:
        """The answer to this process's request (``None``: none yet), taken away."""
        path = self._dirs[target] / f"{rid}.res"
        found = _read(path)
        if found is not None or path.exists():
            _discard(path)
        return found

    def forget(self, target: str, rid: str) -> None:
        """Remove what is left of a request whose writer is done with it."""
        folder = self._dirs[target]
        _discard(folder / f"{rid}.req", folder / f"{rid}.claimed", folder / f"{rid}.res")

    def stale(self) -> list[Path]:
        """The requests and answers of processes that are gone (a writer killed while it
        waited, or a holder that died before answering)."""
        out: list[Path] = []
        for folder in self._dirs.values():
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


def _write(folder: Path, name: str, payload: dict[str, Any]) -> None:
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    tmp = folder / f".{name}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, FILE_MODE)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
    os.rename(tmp, folder / name)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(fd)
    try:
        data = json.loads(b"".join(chunks))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _discard(*paths: Path) -> None:
    for p in paths:
        with contextlib.suppress(OSError):
            os.unlink(p)
