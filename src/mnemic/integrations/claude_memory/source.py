"""Claude Code's memory files as they are on disk, read and never written.

The files (Claude Code's documentation, "How Claude remembers your project"):

``~/.claude/CLAUDE.md`` (or ``$CLAUDE_CONFIG_DIR/CLAUDE.md``)
    The user's instructions for every project: into global memory.
``<project>/CLAUDE.md``, ``<project>/.claude/CLAUDE.md``, ``<project>/CLAUDE.local.md``
    The project's shared and personal instructions: into the project's store.
``~/.claude/projects/<encoded project>/memory/``
    Auto memory, the notes Claude Code writes itself: an index ``MEMORY.md`` and topic
    files (``*.md``) beside it; into the project's store. The folder is named after the
    project's absolute path with every character but ASCII letters and digits replaced
    by ``-`` (``/home/ada/my.app`` → ``-home-ada-my-app``), the git root's when the
    project is inside a repository (all its worktrees share one folder).

Each file is plain Markdown, split into entries by :func:`split_markdown`. A file that
exists but cannot be read safely raises :class:`~mnemic.errors.IntegrationError` naming
it and what to do: not UTF-8, not a regular file, or a symlink that leads out of the
folder it was found in.
"""

from __future__ import annotations

import os
import re
from collections.abc import Container, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import IntegrationError
from ..foreign import read_foreign_text

__all__ = [
    "MARK_BEGIN",
    "MARK_END",
    "PROJECT_FILES",
    "Entry",
    "MemoryFile",
    "Parsed",
    "auto_memory_dir",
    "encode_project",
    "locate_claude_home",
    "read_file",
    "split_markdown",
]

PROJECT_FILES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
"""A project's memory files, relative to its directory."""
MARK_BEGIN = "<!-- mnemic:begin -->"
"""Where the section ``mnemic export --format claude-code`` writes begins..."""
MARK_END = "<!-- mnemic:end -->"
"""...and where it ends (an import skips it: it is mnemic's own memory)."""
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_BULLET = re.compile(r"^( *)(?:[-*+]|\d{1,9}[.)])\s+(.*)$")
_IMPORT = re.compile(r"^@(\S+)$")
_SETEXT = re.compile(r"^(?:=+|-{2,})$")
_RULE = re.compile(r"^(?:-{3,}|\*{3,}|_{3,})$")
_FENCE = re.compile(r"^(`{3,}|~{3,})")
_INDEX_LINK = re.compile(r"^\[[^\]]*\]\(([^)\s]+)\)(?:\s*(?:[-:—–]\s*.*)?)?$")


def locate_claude_home(
    path: str | os.PathLike[str] | None, environ: Mapping[str, str] = os.environ
) -> Path:
    """Claude Code's folder: ``path``, else ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``
    (it need not exist: a project may have only its own files)."""
    raw = str(path) if path else environ.get("CLAUDE_CONFIG_DIR") or "~/.claude"
    root = Path(raw).expanduser().absolute()
    if root.exists() and not root.is_dir():
        raise IntegrationError(
            str(root), "not a directory", "Give Claude Code's folder (--claude-home DIR)."
        )
    return root


def encode_project(directory: Path) -> str:
    """The name of a project's folder under ``~/.claude/projects/``."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(directory))


def _git_root(directory: Path) -> Path | None:
    for candidate in (directory, *directory.parents):
        if os.path.lexists(candidate / ".git"):
            return candidate
    return None


def auto_memory_dir(claude_home: Path, project: Path) -> Path | None:
    """The auto memory folder of ``project`` (a resolved path), where there is one: the
    git root's folder first, as Claude Code keys it, then the directory's own."""
    tried = [project]
    root = _git_root(project)
    if root is not None and root != project:
        tried.insert(0, root)
    for directory in tried:
        folder = claude_home / "projects" / encode_project(directory) / "memory"
        if os.path.lexists(folder):
            return folder
    return None


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a Markdown file: its text (headings above it as context) and the
    line it starts on (1-based)."""

    text: str
    line: int


@dataclass
class Parsed:
    """What :func:`split_markdown` made of one file."""

    entries: list[Entry] = field(default_factory=list)
    skipped: list[tuple[int, str, str]] = field(default_factory=list)
    """``(line, what, why)`` of what is left out: ``@`` imports, index pointers,
    mnemic's own section."""


def _dedent(line: str, indent: int) -> str:
    """A bullet's continuation line without the indent of the bullet's text."""
    spaces = len(line) - len(line.lstrip(" "))
    return line[min(spaces, indent) :].rstrip()


class _Splitter:
    def __init__(self, links: Container[str]) -> None:
        self.links = links
        self.out = Parsed()
        self.headings: list[tuple[int, str]] = []
        self.block: list[str] = []
        self.start = 0
        self.kind = ""
        self.fence = ""
        self.indent = 0

    def flush(self) -> None:
        lines, kind, start = self.block, self.kind, self.start
        self.block, self.kind = [], ""
        if not lines:
            return
        if kind == "bullet":
            first, *rest = lines
            body = "\n".join([first.strip(), *(_dedent(r, self.indent) for r in rest)])
            target = _INDEX_LINK.match(first.strip())
            if target and not rest and target.group(1) in self.links:
                why = f"points to {target.group(1)}, imported from that file"
                self.out.skipped.append((start, first.strip(), why))
                return
        elif kind == "code":
            body = "\n".join(lines)
        else:
            body = "\n".join(line.strip() for line in lines)
        body = body.strip()
        if not body:
            return
        context = " > ".join(title for _, title in self.headings if title)
        sep = ":\n" if kind == "code" or ("\n" in body and kind != "bullet") else ": "
        self.out.entries.append(Entry(f"{context}{sep}{body}" if context else body, start))

    def open(self, kind: str, line: str, number: int, indent: int = 0) -> None:
        self.flush()
        self.kind, self.block, self.start, self.indent = kind, [line], number, indent

    def feed(self, line: str, number: int) -> None:
        stripped = line.strip()
        if self.fence:
            self.block.append(line)
            if stripped.startswith(self.fence) and not stripped.strip(self.fence[0]):
                self.fence = ""
                if self.kind == "code":
                    self.flush()
            return
        fence = _FENCE.match(stripped)
        if fence:
            self.fence = fence.group(1)
            if self.kind == "bullet" and line.startswith("  "):
                self.block.append(line)
            else:
                self.open("code", line, number)
            return
        if not stripped:
            self.flush()
            return
        heading = _HEADING.match(stripped) if not line.startswith("    ") else None
        if heading:
            self.flush()
            level = len(heading.group(1))
            self.headings = [h for h in self.headings if h[0] < level]
            self.headings.append((level, heading.group(2).strip()))
            return
        if _IMPORT.match(stripped):
            self.flush()
            self.out.skipped.append((number, stripped, "an @ import: import that file itself"))
            return
        if self.kind == "paragraph" and len(self.block) == 1 and _SETEXT.match(stripped):
            title, self.block, self.kind = self.block[0].strip(), [], ""
            level = 1 if stripped[0] == "=" else 2
            self.headings = [*(h for h in self.headings if h[0] < level), (level, title)]
            return
        if _RULE.match(stripped):
            self.flush()
            return
        bullet = _BULLET.match(line)
        if bullet and (self.kind != "bullet" or len(bullet.group(1)) < 2):
            self.open("bullet", bullet.group(2), number, bullet.start(2))
        elif self.kind:
            self.block.append(line)
        else:
            self.open("paragraph", line, number)


def split_markdown(text: str, *, links: Container[str] = ()) -> Parsed:
    """The entries of a Markdown memory file.

    Every bullet (with the lines and nested bullets under it), paragraph and fenced code
    block is one entry, its headings before it as context (``Style > Python: Use
    ruff``; ``#`` headings and underlined ones). Left out: YAML front matter, HTML
    comments, horizontal rules, lines that are only an ``@path`` import (reported: the
    file they name is imported by itself), mnemic's own section (between
    :data:`MARK_BEGIN` and :data:`MARK_END`, reported), and bullets that only link to a
    file named in ``links`` (an index's pointers to its topic files, reported)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    splitter = _Splitter(links)
    skip_to = 0
    if lines and lines[0].strip() == "---":
        close = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if close is not None:
            skip_to = close + 1
    comment = False
    section: int | None = None
    for index in range(skip_to, len(lines)):
        line, number = lines[index], index + 1
        stripped = line.strip()
        if section is not None:
            if stripped == MARK_END:
                splitter.out.skipped.append(
                    (section, "mnemic's section", "written by mnemic export: mnemic has it")
                )
                section = None
            continue
        if comment or (stripped.startswith("<!--") and not splitter.fence):
            if stripped == MARK_BEGIN:
                splitter.flush()
                section = number
                continue
            comment = "-->" not in stripped
            continue
        splitter.feed(line, number)
    if section is not None:
        splitter.out.skipped.append(
            (section, "mnemic's section", "its end marker is missing: nothing after it read")
        )
    splitter.flush()
    return splitter.out


@dataclass(frozen=True, slots=True)
class MemoryFile:
    """One memory file found: where, the folder it must stay inside, and its scope."""

    path: Path
    scope: str
    """``global`` or ``project``."""
    kind: str
    """``user``, ``project``, ``local``, ``auto-index`` or ``auto-topic``."""


def read_file(path: Path) -> str:
    """The text of a memory file; :class:`IntegrationError` when it cannot be read."""
    fix = "Repair it (save it as UTF-8 text) or move it away to skip it, then run the import again."
    return read_foreign_text(path, fix) or ""
