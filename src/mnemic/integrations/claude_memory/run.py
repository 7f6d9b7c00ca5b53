"""``mnemic import claude-code-memory``: Claude Code's memory files into mnemic, in one call.

:func:`import_claude_memory` first finds and reads every file it will import (the user's
CLAUDE.md; with a project, its CLAUDE.md files and its auto memory folder: see
:mod:`.source`), so a damaged file or a symlink out of its folder stops the import with
an :class:`~mnemic.errors.IntegrationError` naming it before anything is written. Then
the user's file goes into global memory (MEMORY.md) and the project's files into the
project's store, entry by entry through
:func:`~mnemic.integrations.hermes_import.memory.import_entries`: each scanned and gated
like any write (what the scanner or the policy holds waits in the approval queue), what
does not fit the budget archived (never dropped), what is there already counted
``present`` (a second run adds nothing).

Every write is recorded with the origin ``import:claude-code <file>:<line>`` (the actor
``import:claude-code``): provenance, the audit journal and a staged write keep where the
entry came from.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...curated.memory import Memory
from ...curated.scope import locate as locate_project, open_project
from ...errors import IntegrationError
from ...home import Home
from ..foreign import check_inside
from ..hermes_import.memory import Source, import_entries, source_of
from ..hermes_import.report import PartReport
from .source import (
    PROJECT_FILES,
    MemoryFile,
    Parsed,
    auto_memory_dir,
    locate_claude_home,
    read_file,
    split_markdown,
)

__all__ = ["ORIGIN", "ClaudeMemoryReport", "find_files", "import_claude_memory"]

ORIGIN = "import:claude-code"
"""The actor of every write of the import; its origin adds the file and line."""


@dataclass
class ClaudeMemoryReport:
    """What ``import_claude_memory`` did (or, with ``dry_run``, would do), per scope."""

    claude_home: str
    project: str | None
    dry_run: bool
    files: list[dict[str, Any]] = field(default_factory=list)
    """Each file read: ``path``, ``scope``, ``kind``, ``entries`` found in it."""
    scopes: dict[str, PartReport] = field(default_factory=dict)
    """``global`` and ``project``: the outcome of every entry (notes name file and line)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "claude_home": self.claude_home,
            "project": self.project,
            "dry_run": self.dry_run,
            "files": self.files,
            "scopes": {s: r.to_dict() for s, r in self.scopes.items()},
        }


def _listed(folder: Path) -> list[Path]:
    try:
        names = sorted(os.listdir(folder))
    except OSError as exc:
        raise IntegrationError(
            str(folder), f"cannot be listed ({exc.strerror or exc})", "Fix its permissions."
        ) from exc
    return [folder / n for n in names if n.endswith(".md") and not n.startswith(".")]


def find_files(claude_home: Path, project: Path | None) -> list[MemoryFile]:
    """Every memory file to import, in import order (see :mod:`.source`)."""
    found: list[MemoryFile] = []
    user = claude_home / "CLAUDE.md"
    if os.path.lexists(user):
        check_inside(user, claude_home, "Claude Code's folder")
        found.append(MemoryFile(user, "global", "user"))
    if project is None:
        return found
    for rel, kind in zip(PROJECT_FILES, ("project", "project", "local"), strict=True):
        path = project / rel
        if os.path.lexists(path):
            check_inside(path, project, "the project directory")
            found.append(MemoryFile(path, "project", kind))
    folder = auto_memory_dir(claude_home, project)
    if folder is not None:
        check_inside(folder, claude_home, "Claude Code's folder")
        if not folder.is_dir():
            raise IntegrationError(str(folder), "not a directory", "Move it away to skip it.")
        files = _listed(folder)
        for path in sorted(files, key=lambda p: (p.name != "MEMORY.md", p.name)):
            check_inside(path, folder, "the auto memory folder")
            kind = "auto-index" if path.name == "MEMORY.md" else "auto-topic"
            found.append(MemoryFile(path, "project", kind))
    return found


def _parse(files: list[MemoryFile]) -> list[tuple[MemoryFile, Parsed]]:
    """Read and split every file (raising on a damaged one before anything is written)."""
    topics = {f.path.name for f in files if f.kind == "auto-topic"}
    out = []
    for file in files:
        links = topics if file.kind == "auto-index" else ()
        out.append((file, split_markdown(read_file(file.path), links=links)))
    return out


def _import_scope(
    memory: Memory, parsed: list[tuple[MemoryFile, Parsed]], report: PartReport, dry_run: bool
) -> None:
    entries: list[str] = []
    sources: dict[str, Source] = {}
    for file, found in parsed:
        for line, what, why in found.skipped:
            report.count("skipped", f"{file.path}:{line}", what, why)
        for entry in found.entries:
            if entry.text in sources:
                report.count("present")  # the same text twice: imported once
                continue
            sources[entry.text] = source_of(ORIGIN, file.path, entry.line)
            entries.append(entry.text)
    if entries:
        import_entries(memory, "memory", entries, report, dry_run=dry_run, sources=sources)


def import_claude_memory(
    home: Home,
    *,
    project: str | os.PathLike[str] | None = None,
    claude_home: str | os.PathLike[str] | None = None,
    dry_run: bool = False,
    environ: Mapping[str, str] = os.environ,
) -> ClaudeMemoryReport:
    """Import Claude Code's memory files into ``home`` (see the module docstring): the
    user's CLAUDE.md of ``claude_home`` (default ``$CLAUDE_CONFIG_DIR``, else
    ``~/.claude``) into global memory and, with ``project`` (a directory), its files and
    auto memory into its store. ``dry_run`` writes nothing and reports what would happen."""
    claude = locate_claude_home(claude_home, environ)
    directory = Path(locate_project(home.root, project).path) if project is not None else None
    files = find_files(claude, directory)
    if not files:
        looked = [str(claude / "CLAUDE.md")]
        if directory is not None:
            looked += [str(directory / rel) for rel in PROJECT_FILES]
            looked.append(str(claude / "projects" / "<project>" / "memory"))
        hint = "" if directory is not None else " Add --project DIR for a project's files."
        raise IntegrationError(
            str(claude),
            "no Claude Code memory file found (looked for " + ", ".join(looked) + ")",
            "Give Claude Code's folder (--claude-home DIR) or the project (--project DIR)." + hint,
        )
    parsed = _parse(files)
    report = ClaudeMemoryReport(str(claude), str(directory) if directory else None, dry_run)
    report.files = [
        {"path": str(f.path), "scope": f.scope, "kind": f.kind, "entries": len(p.entries)}
        for f, p in parsed
    ]
    for scope in ("global", "project"):
        mine = [(f, p) for f, p in parsed if f.scope == scope]
        if not mine:
            continue
        if scope == "global":
            target_home: Home = home
        else:
            assert directory is not None
            target_home = open_project(home, directory)  # made by its first kept write
        memory = Memory.open(target_home, actor="foreground", origin=ORIGIN)
        part = report.scopes[scope] = PartReport(str(target_home.root))
        _import_scope(memory, mine, part, dry_run)
    return report
