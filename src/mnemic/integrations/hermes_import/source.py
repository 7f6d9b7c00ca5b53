"""A Hermes Agent home as it is on disk, read and never written.

The parts read (relative to the home, ``~/.hermes`` or ``$HERMES_HOME``):

``memories/MEMORY.md``, ``memories/USER.md``
    Entries separated by a line holding only ``§`` (the exact separator is newline,
    U+00A7, newline), each stripped, empty ones dropped, duplicates kept once.
``memories/ARCHIVE.jsonl`` (or ``ARCHIVE.jsonl``)
    Entries newer Hermes releases evicted: one JSON object a line, its text in
    ``content`` (or ``text``, ``entry``), its target in ``target`` (``memory`` or
    ``user``; or ``file``: ``MEMORY.md``, ``USER.md``; default ``memory``).
``state.db``
    The session database (:mod:`mnemic.sessions.importing.hermes`).
``skills/``
    ``[category/[sub/]]name/SKILL.md`` with supporting files under ``references/``,
    ``templates/``, ``scripts/`` and ``assets/``; hidden and tool directories skipped.

A missing part is ``None`` (reported as skipped by the importer). A part that exists but
cannot be read safely raises :class:`~mnemic.errors.IntegrationError` naming the file and
what to do: not UTF-8, not a regular file, or a symlink that leads out of the home.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ...errors import IntegrationError, StorageError
from ...fsread import describe_kind, read_text_strict
from ...jsonstream import read_jsonl
from ..foreign import MAX_TEXT, check_inside, read_foreign_text

__all__ = [
    "DELIMITER",
    "ArchiveLine",
    "HermesHome",
    "HermesSkill",
    "locate",
    "parse_entries",
]

DELIMITER = "\n§\n"
"""What separates two entries in Hermes's MEMORY.md and USER.md."""
MEMORY_FILES = {"memory": "memories/MEMORY.md", "user": "memories/USER.md"}
ARCHIVE_FILES = ("memories/ARCHIVE.jsonl", "ARCHIVE.jsonl")
STATE_DB = "state.db"
SKILLS_DIR = "skills"
SUPPORT_DIRS = ("references", "templates", "scripts", "assets")
_SKIP_DIRS = {"node_modules", "venv", "site-packages", "__pycache__"}
_TARGETS = {"memory": "memory", "user": "user", "memory.md": "memory", "user.md": "user"}


def locate(path: str | os.PathLike[str] | None, environ: Mapping[str, str] = os.environ) -> Path:
    """The Hermes home to import: ``path``, else ``$HERMES_HOME``, else ``~/.hermes``.

    Raises :class:`IntegrationError` when it is not a directory."""
    raw = str(path) if path else environ.get("HERMES_HOME") or "~/.hermes"
    root = Path(raw).expanduser()
    if not root.exists():
        raise IntegrationError(
            str(root),
            "no Hermes home here",
            "Give its path (mnemic import hermes PATH) or set HERMES_HOME.",
        )
    if not root.is_dir():
        raise IntegrationError(str(root), "not a directory", "Give the Hermes home directory.")
    return root


def parse_entries(text: str) -> list[str]:
    """The entries of a Hermes memory file, as Hermes reads them (stripped, empty ones
    dropped, each kept once in file order)."""
    if not text.strip():
        return []
    pieces = (p.strip() for p in text.replace("\r\n", "\n").split(DELIMITER))
    return list(dict.fromkeys(p for p in pieces if p))


class ArchiveLine(NamedTuple):
    """One usable line of ARCHIVE.jsonl, or why a line is not (``text`` is then None)."""

    target: str
    text: str | None
    where: str
    problem: str | None = None


@dataclass
class HermesSkill:
    """One skill directory of the Hermes home."""

    name: str
    category: str | None
    path: Path
    skill_md: str
    files: list[tuple[str, str]] = field(default_factory=list)
    """``(relative path, text)`` of its supporting files."""
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """``(relative path, why)`` of what is left out."""

    @property
    def ref(self) -> str:
        """``category/name`` or ``name``."""
        return f"{self.category}/{self.name}" if self.category else self.name


class HermesHome:
    """The parts of one Hermes home (see the module docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.skipped_dirs: list[tuple[str, str]] = []
        """``(path, why)`` of directories under ``skills/`` left out (symlinks)."""

    def part(self, rel: str) -> Path | None:
        """The path of a part, or ``None`` when it does not exist. A part whose real
        path is outside the home (a symlink out of it) is refused."""
        path = self.root / rel
        if not os.path.lexists(path):
            return None
        fix = "Copy what it points to into the home, or remove the link to skip it."
        check_inside(path, self.root, "the Hermes home", fix)
        return path

    def _text(self, path: Path) -> str:
        fix = "Repair it in Hermes or move it away to skip it, then run the import again."
        return read_foreign_text(path, fix) or ""

    def memory_entries(self, target: str) -> list[str] | None:
        """The entries of MEMORY.md (``memory``) or USER.md (``user``); ``None``: no file."""
        path = self.part(MEMORY_FILES[target])
        return None if path is None else parse_entries(self._text(path))

    def archive_path(self) -> Path | None:
        """ARCHIVE.jsonl, where there is one."""
        for rel in ARCHIVE_FILES:
            path = self.part(rel)
            if path is not None:
                return path
        return None

    def archive_lines(self, path: Path) -> Iterator[ArchiveLine]:
        """Every non-blank line of ARCHIVE.jsonl, usable or not."""
        try:
            fh = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise IntegrationError(
                str(path), f"cannot be read ({exc.strerror or exc})", "Move it away to skip it."
            ) from exc
        with fh:
            for line in read_jsonl(fh):
                where = f"{path.name}:{line.number}"
                value = line.value
                if line.error is not None:
                    yield ArchiveLine("memory", None, where, f"line is {line.error}")
                    continue
                if not isinstance(value, dict):
                    yield ArchiveLine("memory", None, where, "line is not a JSON object")
                    continue
                text = next(
                    (
                        value[k]
                        for k in ("content", "text", "entry")
                        if isinstance(value.get(k), str)
                    ),
                    None,
                )
                raw_target = value.get("target", value.get("file", "memory"))
                target = _TARGETS.get(str(raw_target).strip().lower())
                if target is None:
                    yield ArchiveLine(
                        "memory", None, where, f"unknown target {str(raw_target)[:40]!r}"
                    )
                elif text is None or not text.strip():
                    yield ArchiveLine(target, None, where, "line has no entry text")
                else:
                    yield ArchiveLine(target, text.strip(), where)

    def state_db(self) -> Path | None:
        """The session database, where there is one."""
        return self.part(STATE_DB)

    def skills(self) -> list[HermesSkill] | None:
        """Every skill under ``skills/`` (``None``: no skills folder)."""
        root = self.part(SKILLS_DIR)
        if root is None:
            return None
        if not root.is_dir():
            raise IntegrationError(str(root), "not a directory", "Move it away to skip skills.")
        found: list[HermesSkill] = []
        self.skipped_dirs = []
        self._walk(root, root, found)
        return found

    def _walk(self, root: Path, here: Path, found: list[HermesSkill]) -> None:
        try:
            children = sorted(os.scandir(here), key=lambda e: e.name)
        except OSError as exc:
            raise IntegrationError(
                str(here), f"cannot be listed ({exc.strerror or exc})", "Fix its permissions."
            ) from exc
        for entry in children:
            if entry.name.startswith(".") or entry.name in _SKIP_DIRS:
                continue
            path = Path(entry.path)
            if entry.is_symlink() and entry.is_dir():
                rel = path.relative_to(root).as_posix()
                self.skipped_dirs.append((rel, "a symlinked directory (not followed)"))
                continue
            if not entry.is_dir(follow_symlinks=False):
                continue
            if (path / "SKILL.md").is_file():
                parts = path.relative_to(root).parts
                category = "-".join(parts[:-1]) or None
                found.append(self._skill(path, parts[-1], category))
            elif os.path.lexists(path / "SKILL.md"):  # a FIFO, a device, a dangling link
                kind = describe_kind(os.lstat(path / "SKILL.md").st_mode)
                rel = path.relative_to(root).as_posix()
                self.skipped_dirs.append((rel, f"its SKILL.md is {kind}, not a regular file"))
            else:
                self._walk(root, path, found)

    def _skill(self, path: Path, name: str, category: str | None) -> HermesSkill:
        skill = HermesSkill(name, category, path, self._text(path / "SKILL.md"))
        for dirpath, dirnames, filenames in os.walk(path):
            here = Path(dirpath)
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for fname in sorted(filenames):
                file = here / fname
                rel = file.relative_to(path).as_posix()
                if rel == "SKILL.md" or fname.startswith("."):
                    continue
                if rel.split("/", 1)[0] not in SUPPORT_DIRS:
                    skill.skipped.append(
                        (rel, "not under references/, templates/, scripts/ or assets/")
                    )
                    continue
                if file.is_symlink():
                    skill.skipped.append((rel, "a symlink"))
                    continue
                try:
                    text = read_text_strict(file, max_bytes=MAX_TEXT)
                except StorageError as exc:
                    skill.skipped.append((rel, getattr(exc, "reason", "unreadable")))
                    continue
                skill.files.append((rel, text or ""))
        return skill
