"""A skill's files on disk: list its supporting files, resolve and read one safely.

Supporting files live under ``references/``, ``templates/``, ``scripts/`` and ``assets/``
of the skill directory (:data:`~mnemic.skills.model.SUPPORT_DIRS`). Nothing here follows
a symlink: listing reports a symlink as such, resolving a path refuses one anywhere on
the way, reading opens with ``O_NOFOLLOW``. Which skill directory is meant, and whether
it stays inside its skills root, is :class:`~mnemic.skills.store.SkillStore`'s business.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import SkillPathRefused, SkillTooLarge, UnreadableFile
from .model import SKILL_FILE, SUPPORT_DIRS, check_support_path

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..config import SkillsSettings

__all__ = [
    "LINT_COMMAND",
    "SkillFile",
    "inside",
    "list_files",
    "read_support_file",
    "resolve_support_path",
    "skill_md_max_bytes",
]

MAX_LISTED_FILES = 500
LINT_COMMAND = "mnemic skills lint"
"""What shows a person why a skill's file cannot be read (it names the file and why)."""


@dataclass(frozen=True, slots=True)
class SkillFile:
    """A supporting file of a skill (``path`` relative to the skill directory)."""

    path: str
    size: int
    symlink: bool = False


def skill_md_max_bytes(settings: SkillsSettings) -> int:
    """The most bytes read of a SKILL.md: ``max_skill_chars`` at four bytes a character,
    plus 64 KiB."""
    return 4 * settings.max_skill_chars + 65536


def inside(path: str, root: str) -> bool:
    """Whether ``path`` is ``root`` or below it (both already resolved)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def list_files(skill_dir: str) -> tuple[list[SkillFile], list[str]]:
    """(supporting files, stray entries) of a skill directory.

    Files come sorted, hidden names skipped, at most :data:`MAX_LISTED_FILES`; a symlink
    is listed with ``symlink=True`` and size 0 and not descended into. Stray entries are
    the names at the skill root other than SKILL.md and the supporting directories.
    """
    files: list[SkillFile] = []
    stray: list[str] = []
    try:
        top = sorted(os.listdir(skill_dir))
    except OSError:
        return files, stray
    for name in top:
        if name == SKILL_FILE or name.startswith("."):
            continue
        if name not in SUPPORT_DIRS:
            stray.append(name)
            continue
        base = os.path.join(skill_dir, name)
        if os.path.islink(base):
            files.append(SkillFile(name, 0, symlink=True))
            continue
        for dirpath, dirnames, filenames in _walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            rel_dir = os.path.relpath(dirpath, skill_dir).replace(os.sep, "/")
            for d in list(dirnames):
                if os.path.islink(os.path.join(dirpath, d)):
                    files.append(SkillFile(f"{rel_dir}/{d}", 0, symlink=True))
                    dirnames.remove(d)
            for fname in sorted(filenames):
                if fname.startswith("."):
                    continue
                full = os.path.join(dirpath, fname)
                try:
                    st = os.lstat(full)
                except OSError:
                    continue
                link = stat.S_ISLNK(st.st_mode)
                files.append(SkillFile(f"{rel_dir}/{fname}", 0 if link else st.st_size, link))
                if len(files) >= MAX_LISTED_FILES:
                    return files, stray
    return files, stray


def _walk(base: str) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk(base)`` top-down without recursion: Python 3.11's recurses once per
    level, and a supporting directory nested past about 1,000 levels raised
    RecursionError out of ``skill_view`` and ``mnemic skills lint``. As there, the
    caller may prune ``dirnames`` in place, and a symlinked directory is not entered."""
    stack = [base]
    while stack:
        top = stack.pop()
        try:
            with os.scandir(top) as found:
                entries = list(found)
        except OSError:
            continue
        dirnames: list[str] = []
        filenames: list[str] = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            (dirnames if is_dir else filenames).append(entry.name)
        yield top, dirnames, filenames
        for name in reversed(dirnames):
            path = os.path.join(top, name)
            if not os.path.islink(path):
                stack.append(path)


def resolve_support_path(skill_dir: str, rel: str) -> str:
    """Absolute path of supporting file ``rel`` of the skill in ``skill_dir``.

    ``rel`` must pass :func:`~mnemic.skills.model.check_support_path`, and no part of it
    that exists may be a symlink, a parent that is not a directory or a file that is not
    a regular file (:class:`SkillPathRefused` otherwise). The file itself need not exist.
    """
    rel = check_support_path(rel)
    parts = rel.split("/")
    cur = skill_dir
    for i, part in enumerate(parts):
        cur = os.path.join(cur, part)
        try:
            st = os.lstat(cur)
        except FileNotFoundError:
            break
        except OSError as exc:
            raise SkillPathRefused(rel, exc.strerror or str(exc)) from exc
        if stat.S_ISLNK(st.st_mode):
            raise SkillPathRefused(rel, f"{'/'.join(parts[: i + 1])} is a symlink")
        last = i == len(parts) - 1
        if not last and not stat.S_ISDIR(st.st_mode):
            raise SkillPathRefused(rel, f"{'/'.join(parts[: i + 1])} is not a directory")
        if last and not stat.S_ISREG(st.st_mode):
            raise SkillPathRefused(rel, "it is not a regular file")
    return os.path.join(skill_dir, *parts)


def read_support_file(path: str, rel: str, max_bytes: int) -> str | bytes | None:
    """Read a file without following a symlink; text when it is UTF-8, else bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SkillPathRefused(rel, "it is a symlink") from exc
        raise UnreadableFile(path, exc.strerror or str(exc), check=LINT_COMMAND) from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SkillPathRefused(rel, "it is not a regular file")
        if st.st_size > max_bytes:
            raise SkillTooLarge(rel, st.st_size, max_bytes, "bytes")
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError as exc:
        raise UnreadableFile(path, exc.strerror or str(exc), check=LINT_COMMAND) from exc
    finally:
        os.close(fd)
    data = b"".join(chunks)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return data if "\x00" in text else text
