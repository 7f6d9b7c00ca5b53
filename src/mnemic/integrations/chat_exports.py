"""``mnemic import chatgpt`` and ``mnemic import codex``: another assistant's history
into sessions, and ChatGPT's saved memories into the approval queue.

Both read everything first (a damaged file or a foreign schema raises
:class:`~mnemic.errors.ImportFailed` naming it before anything is written), then import
through :func:`mnemic.sessions.import_path` (formats ``chatgpt`` and ``codex``:
:mod:`mnemic.sessions.importing.chatgpt`, :mod:`mnemic.sessions.importing.codex`), keyed
by the source's ids, so a second run adds nothing. A dry run reads and reports what
would be added. Codex's folder is listed here: a file or folder under it that is a
symlink leading out of it stops the import (:class:`~mnemic.errors.IntegrationError`).

ChatGPT's saved memories have no export: a person pastes them into a text file, one a
line (``-``, ``*`` or ``1.`` bullets allowed). Each becomes a USER.md entry waiting in
the approval queue (``mnemic pending``): they describe the user, written by another
model, so a person approves each (the ``block`` policy refuses them; the threat scan
runs as on any write).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..curated.memory import Memory
from ..errors import ImportFailed, IntegrationError, UnreadableFile
from ..fsread import describe_kind, open_to_read
from ..home import Home
from ..sessions import ImportProgress, import_path, open_store
from ..sessions.attachments import AttachmentStore
from ..sessions.importing.chatgpt import chatgpt_items
from ..sessions.importing.codex import codex_items
from ..sessions.importing.formats import ImportPlan, Reading
from .foreign import check_inside, read_foreign_text
from .hermes_import.memory import import_entries, source_of
from .hermes_import.report import PartReport

__all__ = [
    "CHATGPT_ORIGIN",
    "CODEX_ORIGIN",
    "ExportReport",
    "codex_files",
    "import_chatgpt",
    "import_codex",
    "saved_memories",
]

CHATGPT_ORIGIN = "import:chatgpt"
CODEX_ORIGIN = "import:codex"
_BULLET = re.compile(r"^(?:[-*+•]|\d{1,4}[.)])\s+")


@dataclass
class ExportReport:
    """What an import of ChatGPT's export or Codex's sessions did (or would do)."""

    path: str
    dry_run: bool
    sessions: dict[str, Any] = field(default_factory=dict)
    """Sessions and messages imported (a dry run: that would be), and what was skipped."""
    files: int = 0
    memories: PartReport | None = None
    """ChatGPT's saved memories: each staged for approval as a USER.md entry."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "path": self.path,
            "dry_run": self.dry_run,
            "files": self.files,
            "sessions": self.sessions,
            "memories": self.memories.to_dict() if self.memories is not None else None,
        }


def _plan(home: Home, files: list[Path], read: Callable[..., Any]) -> dict[str, Any]:
    """Read every file (raising on a damaged one): what importing would add."""
    with open_store(home) as store:
        plan = ImportPlan(store.has_session)
        for path in files:
            try:  # a regular file only: a FIFO named rollout-*.jsonl hung the import
                fd = open_to_read(path)
            except UnreadableFile as exc:
                raise ImportFailed(str(path), f"cannot be read ({exc.reason})") from None
            with open(fd, "rb") as fh:
                plan.count(read(path, fh, Reading(plan)))
    return plan.to_dict()


def _import(
    home: Home,
    source: Path,
    files: list[Path],
    fmt: str,
    read: Callable[..., Any],
    dry_run: bool,
    progress: Callable[[ImportProgress], None] | None,
) -> dict[str, Any]:
    """Read ``files`` whole (a damaged one raises here), then import ``source`` (the
    file, or the folder holding them: one import, one progress bar)."""
    plan = _plan(home, files, read)
    if dry_run:
        return plan
    with open_store(home) as store:
        kept = AttachmentStore.of_home(home)
        return import_path(store, source, format=fmt, progress=progress, attachments=kept).to_dict()


def saved_memories(path: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of each saved memory in a pasted text file (one a line; bullets
    and numbering dropped; blank lines skipped)."""
    text = read_foreign_text(path, "Save the pasted memories as UTF-8 text, one a line.")
    if text is None:
        raise IntegrationError(str(path), "no such file", "Give the file of pasted memories.")
    out = []
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        item = _BULLET.sub("", line.strip(), count=1).strip()
        if item:
            out.append((number, item))
    return out


def _stage_memories(home: Home, path: Path, dry_run: bool) -> PartReport:
    items = saved_memories(path)
    approval = home.settings.approval
    policy = approval.memory_foreground if approval.memory_foreground == "block" else "stage"
    settings = dataclasses.replace(
        home.settings, approval=dataclasses.replace(approval, memory_foreground=policy)
    )
    memory = Memory.open(Home(home.root, settings), actor="foreground", origin=CHATGPT_ORIGIN)
    report = PartReport(str(path))
    texts = list(dict.fromkeys(text for _, text in items))
    for _ in range(len(items) - len(texts)):
        report.count("present")  # pasted twice: imported once
    line_of = {text: n for n, text in reversed(items)}
    sources = {t: source_of(CHATGPT_ORIGIN, path, line_of[t]) for t in texts}
    import_entries(memory, "user", texts, report, dry_run=dry_run, sources=sources)
    return report


def _export_file(path: Path) -> Path:
    if path.is_dir():
        inner = path / "conversations.json"
        if not inner.is_file():
            raise ImportFailed(
                str(path), "no conversations.json here: give the unzipped ChatGPT export"
            )
        real, base = inner.resolve(), path.resolve()
        if base not in real.parents:
            raise IntegrationError(
                str(inner),
                f"a symlink out of the export folder (to {real})",
                "Give the file it points to, or copy it into the folder.",
            )
        return inner
    if not path.is_file():
        what = f"it is {describe_kind(path.stat().st_mode)}" if path.exists() else "no such file"
        raise ImportFailed(str(path), f"{what}: give ChatGPT's conversations.json")
    return path


def import_chatgpt(
    home: Home,
    path: str | os.PathLike[str] | None = None,
    *,
    memories: str | os.PathLike[str] | None = None,
    dry_run: bool = False,
    progress: Callable[[ImportProgress], None] | None = None,
) -> ExportReport:
    """Import ChatGPT's ``conversations.json`` (``path``: the file or the unzipped export
    folder) into sessions, and the saved memories pasted into ``memories`` into the
    approval queue (see the module docstring)."""
    if path is None and memories is None:
        raise IntegrationError(
            "chatgpt", "nothing to import", "Give conversations.json, --memories FILE, or both."
        )
    report = ExportReport(str(path or memories), dry_run)
    if path is not None:
        file = _export_file(Path(path).expanduser())
        report.path, report.files = str(file), 1
        report.sessions = _import(home, file, [file], "chatgpt", chatgpt_items, dry_run, progress)
    if memories is not None:
        report.memories = _stage_memories(home, Path(memories).expanduser(), dry_run)
    return report


def codex_files(folder: Path) -> list[Path]:
    """The rollout files under ``folder`` (sorted); a symlink under it that leads out of
    it raises :class:`IntegrationError`."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        here = Path(dirpath)
        for name in [*dirnames, *filenames]:
            entry = here / name
            if entry.is_symlink():
                fix = "Copy what it points to into the folder, or remove the link."
                check_inside(entry, folder, "the Codex sessions folder", fix)
        dirnames.sort()
        found += [here / n for n in filenames if n.startswith("rollout-") and n.endswith(".jsonl")]
    return sorted(found)


def import_codex(
    home: Home,
    path: str | os.PathLike[str] | None = None,
    *,
    dry_run: bool = False,
    progress: Callable[[ImportProgress], None] | None = None,
    environ: Mapping[str, str] = os.environ,
) -> ExportReport:
    """Import Codex CLI sessions: ``path`` (a rollout file or a folder of them; default
    ``$CODEX_HOME/sessions``, else ``~/.codex/sessions``) into sessions."""
    if path is None:
        codex_home = environ.get("CODEX_HOME") or "~/.codex"
        path = Path(codex_home).expanduser() / "sessions"
    root = Path(path).expanduser()
    if root.is_dir():
        files = codex_files(root)
    elif root.is_file():
        files = [root]
    else:
        raise IntegrationError(
            str(root), "no Codex sessions here", "Give the folder (mnemic import codex DIR)."
        )
    if not files:
        raise IntegrationError(
            str(root),
            "no rollout-*.jsonl session file under it",
            "Give Codex's sessions folder (~/.codex/sessions) or one rollout file.",
        )
    report = ExportReport(str(root), dry_run, files=len(files))
    report.sessions = _import(home, root, files, "codex", codex_items, dry_run, progress)
    return report
