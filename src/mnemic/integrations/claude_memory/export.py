"""``mnemic export --format claude-code``: memory written back as a section of a CLAUDE.md.

The section sits between :data:`~.source.MARK_BEGIN` and :data:`~.source.MARK_END`; a
second export replaces only what is between them, and every byte of the file outside
the section is kept as it was. A file without the section gets it appended. The file is
replaced atomically (:func:`~mnemic.fsio.atomic_write_text`, its mode kept). An import
skips the section (it is mnemic's own memory), so moving back and forth duplicates
nothing.

Entries the threat scan hides from the prompt are left out of the section too (counted).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ...curated.snapshot import sanitize
from ...curated.view import MemoryView
from ...errors import IntegrationError, StorageError
from ...fsio import atomic_write_text
from ...fsread import read_bytes_strict
from .source import MARK_BEGIN, MARK_END

__all__ = ["ExportResult", "render_section", "write_section"]

_TITLES = {"memory": "Memory (mnemic)", "user": "About the user (mnemic)"}


@dataclass(frozen=True, slots=True)
class ExportResult:
    """What :func:`write_section` wrote."""

    path: str
    entries: int
    hidden: int
    """Entries left out: the threat scan hides them."""
    replaced: bool
    """Whether an earlier section was replaced (else it was appended)."""


def _bullet(text: str) -> str:
    first, *rest = text.split("\n")
    return "\n".join([f"- {first}", *(f"  {line}" if line else "" for line in rest)])


def render_section(view: MemoryView, targets: tuple[str, ...]) -> tuple[str, int, int]:
    """The section (markers included, ending in a newline), how many entries it holds
    and how many the threat scan hid."""
    parts = [
        MARK_BEGIN,
        "<!-- Written by `mnemic export --format claude-code`; a re-export replaces what is "
        "between these markers. Edit memory with `mnemic memory`. -->",
    ]
    count = hidden = 0
    for target in targets:
        entries = view.entries(target)
        shown = sanitize(target, entries, view.level)
        blocked = {i for i, _, _ in shown.blocked}
        kept = [e for i, e in enumerate(entries) if i not in blocked]
        hidden += len(blocked)
        if not kept:
            continue
        parts += ["", f"## {_TITLES[target]}", ""]
        parts += [_bullet(e) for e in kept]
        count += len(kept)
    parts.append(MARK_END)
    return "\n".join(parts) + "\n", count, hidden


def _spliced(path: Path, old: str, section: str) -> tuple[str, bool]:
    begin, end = old.find(MARK_BEGIN), old.find(MARK_END)
    if begin < 0 and end < 0:
        sep = "" if not old else ("\n" if old.endswith("\n") else "\n\n")
        return old + sep + section, False
    if begin < 0 or end < begin or old.count(MARK_BEGIN) > 1 or old.count(MARK_END) > 1:
        raise IntegrationError(
            str(path),
            "its mnemic section is damaged (each of the markers "
            f"{MARK_BEGIN} and {MARK_END} must appear once, in that order)",
            "Remove the markers and what is between them by hand, then export again.",
        )
    stop = end + len(MARK_END)
    if old[stop : stop + 1] == "\n":
        stop += 1
    return old[:begin] + section + old[stop:], True


def write_section(
    view: MemoryView, path: str | os.PathLike[str], targets: tuple[str, ...]
) -> ExportResult:
    """Write the section of ``targets`` into the CLAUDE.md at ``path`` (see the module
    docstring). A symlink, a file that is not UTF-8 or a damaged section raises
    :class:`~mnemic.errors.IntegrationError` and leaves the file as it was."""
    file = Path(path)
    if file.is_symlink():
        raise IntegrationError(
            str(file),
            f"a symlink (to {os.path.realpath(file)}): replacing it would drop the link",
            "Export to the file it points to (--output PATH).",
        )
    try:
        data = read_bytes_strict(file)
    except StorageError as exc:
        raise IntegrationError(
            str(file),
            f"cannot be read ({getattr(exc, 'reason', exc)})",
            "Fix it or choose --output.",
        ) from exc
    try:
        old = (data or b"").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise IntegrationError(
            str(file), f"not UTF-8 text (byte {exc.start})", "Save it as UTF-8, then export again."
        ) from exc
    section, count, hidden = render_section(view, targets)
    text, replaced = _spliced(file, old, section)
    mode = stat.S_IMODE(file.stat().st_mode) if data is not None else 0o644
    file.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(file, text, mode=mode)
    return ExportResult(str(file), count, hidden, replaced)
