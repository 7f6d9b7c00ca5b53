"""The frozen snapshot: what the system prompt shows of a target.

Entries are threat-scanned at load (the file may have been edited by anyone); an entry
with a finding is shown only as a ``[BLOCKED: ...]`` placeholder carrying a handle the
model can pass as ``old_text`` to remove it, so its raw text never enters the context.
Every entry is scanned, whatever it starts with, and an entry that imitates the
placeholder anywhere in it (any line, a look-alike bracket, see :mod:`.placeholder`) is
itself shown as one.
The block is framed by a header with the usage, and capped so a file bloated by hand
cannot flood the prompt.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..config import load_settings
from ..control_chars import first_control
from ..errors import StorageError
from ..home import home_dir
from ..registry import backend_for
from .entries import DELIMITER, FILENAMES, entry_handle, parse
from .placeholder import BLOCKED_PREFIX, imitates_placeholder
from .scope import check_backend, locate, project_settings
from .usage import Usage
from .verdicts import VerdictCache

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ..config import MemorySettings
    from .verdicts import Verdicts

__all__ = [
    "PROJECT_HEADER",
    "Block",
    "SanitizedEntries",
    "display_entry",
    "load_block",
    "render_block",
    "render_snapshot",
    "sanitize",
    "share_clean",
]

RULE = "═" * 46
HEADERS = {
    "memory": "MEMORY (your personal notes)",
    "user": "USER PROFILE (who the user is)",
}
PROJECT_HEADER = "PROJECT MEMORY (notes for this project only)"
"""The header of a project store's block (after MEMORY and USER PROFILE)."""
_REMOVE_CALL = 'memory(action="remove", target="memory", '
_REMOVE_PROJECT = 'memory(action="remove", scope="project", target="memory", '
MAX_SCAN_CHARS = 65_536
PLACEHOLDER_IMITATION = "placeholder_imitation"
"""The finding id of an entry that imitates the placeholder (it is hidden too)."""
CONTROL_CHARACTER = "control_character"
"""The finding id of an entry holding a control character (only an outside edit can)."""

_scan_cache: dict[tuple[str, str | None], tuple[tuple[str, str], ...]] = {}
_SCAN_CACHE_MAX = 4096


def _findings(entry: str, level: str | None) -> tuple[tuple[str, str], ...]:
    hit = _scan_cache.get((entry, level))
    if hit is None:
        from ..scan import scan_text  # here: a load the verdict cache serves needs none of it

        hit = tuple((f.id, f.category) for f in scan_text(entry, "strict", level).findings)
        if len(_scan_cache) >= _SCAN_CACHE_MAX:
            _scan_cache.clear()
        _scan_cache[entry, level] = hit
    return hit


class SanitizedEntries:
    """Entries as the model may see them, plus which ones were blocked and why."""

    __slots__ = ("blocked", "display")

    def __init__(
        self, display: tuple[str, ...], blocked: tuple[tuple[int, str, tuple[str, ...]], ...]
    ) -> None:
        self.display = display
        self.blocked = blocked
        """(index, handle, pattern ids) for every blocked entry."""


def display_entry(
    target: str,
    entry: str,
    level: str | None = None,
    neighbours: Sequence[str] = (),
    verdicts: Verdicts | None = None,
) -> tuple[str, tuple[str, ...]]:
    """How the model may see one entry: itself, or a removable placeholder.

    Returns the display text and the pattern ids that blocked it (empty when clean).
    ``level`` is the threat scan's sensitivity (the home's ``[scan] level``; default:
    the scanner's). An entry that refers to another one is judged together with
    ``neighbours`` (the other entries of its target), so the second half of a split
    instruction is hidden. ``verdicts``: the home's remembered clean verdicts (an entry
    found in them is not scanned again: see :func:`_scanned`).
    """
    # Every entry is judged on its own text. The placeholder is something mnemic renders,
    # never a marker it trusts: an entry that imitates one anywhere is hidden too (it
    # could carry an injection after the prefix, or a handle pointing at another entry).
    reasons: list[str] = []
    ids: tuple[str, ...] = ()
    if imitates_placeholder(entry):
        ids, reasons = (PLACEHOLDER_IMITATION,), ["imitates this placeholder"]
    # mnemic never writes one (validate_content): it came from an edit outside mnemic, and
    # an escape sequence or a bell has no business in a system prompt
    bad = first_control(entry)
    if bad is not None:
        ids += (CONTROL_CHARACTER,)
        reasons.append(f"holds the control character U+{ord(bad):04X}")
    if len(entry) > MAX_SCAN_CHARS:
        ids += ("too_large_to_scan",)
        reasons.append(f"is too large to scan ({len(entry):,} chars)")
    else:
        found = _scanned(entry, level, neighbours, verdicts)
        if found:
            ids += found
            reasons.append("matched threat pattern(s): " + ", ".join(found))
    if not ids:
        return entry, ()
    why = " and ".join(reasons)
    filename = FILENAMES.get(target, target)
    handle = entry_handle(entry)
    return (
        f"{BLOCKED_PREFIX} a {filename} entry {why}. It is kept on disk but not shown; to delete "
        f'it call memory(action="remove", target="{target}", old_text="{handle}").]',
        ids,
    )


def _scanned(
    entry: str, level: str | None, neighbours: Sequence[str], verdicts: Verdicts | None
) -> tuple[str, ...]:
    """The finding ids of ``entry`` (alone, then with ``neighbours`` when it refers to
    them). ``verdicts`` remember the entries found clean that refer to no other entry:
    for them neither judgement depends on anything but their bytes."""
    if verdicts is not None and verdicts.clean(entry, "strict", _verdict_level(level)):
        return ()
    from ..scan import refers_to_others, scan_in_context  # a miss: the scanner is needed

    found = tuple(pid for pid, _ in _findings(entry, level))
    if found:
        return found
    if refers_to_others(entry):
        if not neighbours:
            return ()
        others = [e for e in neighbours if e != entry]
        return tuple(f.id for f in scan_in_context(entry, others, "strict", level).findings)
    if verdicts is not None:
        verdicts.add(entry, "strict", _verdict_level(level))
    return ()


def _verdict_level(level: str | None) -> str:
    """The level a verdict of a scan at ``level`` is remembered under."""
    if level is None:
        from ..scan import default_level

        return default_level()
    return level


def share_clean(verdicts: Verdicts, entries: Sequence[str], level: str | None) -> None:
    """Remember (and save) the clean verdicts the display would remember for ``entries``.

    A writer calls this with the new text it has just scanned, before it takes any lock,
    on its home's recent writes' cache (:meth:`VerdictCache.recent`), so that the other
    sessions of the home show that entry among their changes without scanning it again.

    The key means what the display's key means. Only a text that refers to no other
    entry is remembered, and for such a text the write's scan and the display's are the
    same judgement: the text alone (``scan_text``, scope ``strict``, the home's level;
    neighbours are read only for a text that refers to others, by both). Nothing of
    the write's result is trusted, though: the verdict is computed here as
    :func:`_scanned` computes it (a hit in the scanner's memo after the write's scan),
    on the exact bytes that will be stored, and remembered under the same scope and
    level only on its condition (no finding, within the scan's size cap). The cache
    keeps its guarantees (:class:`~.verdicts.RecentVerdicts`: clean verdicts only, so a
    finding is always scanned again; the memory files' protection, else neither read
    nor written; never fsynced)."""
    from ..scan import refers_to_others

    for entry in entries:
        if len(entry) > MAX_SCAN_CHARS or refers_to_others(entry) or _findings(entry, level):
            continue
        verdicts.add(entry, "strict", _verdict_level(level))
    verdicts.save()


def sanitize(
    target: str,
    entries: Sequence[str],
    level: str | None = None,
    verdicts: VerdictCache | None = None,
) -> SanitizedEntries:
    """Replace entries that fail the threat scan (at ``level``, see :func:`display_entry`)
    with a removable placeholder."""
    display: list[str] = []
    blocked: list[tuple[int, str, tuple[str, ...]]] = []
    for i, entry in enumerate(entries):
        shown, ids = display_entry(target, entry, level, entries, verdicts)
        display.append(shown)
        if ids:
            blocked.append((i, entry_handle(entry), ids))
    return SanitizedEntries(tuple(display), tuple(blocked))


class Block:
    """A rendered snapshot block (empty text when the target has no entries)."""

    __slots__ = ("target", "text", "truncated_chars", "usage")

    def __init__(self, target: str, text: str, usage: Usage, truncated_chars: int) -> None:
        self.target = target
        self.text = text
        self.usage = usage
        self.truncated_chars = truncated_chars

    def __repr__(self) -> str:
        return f"Block({self.target!r}, {self.usage.line()!r}, {len(self.text)} chars)"


def render_block(
    target: str,
    display: Sequence[str],
    usage: Usage,
    *,
    render_cap: int = 0,
    title: str | None = None,
) -> Block:
    """Render the framed block for ``target`` from already-sanitised entries.

    ``usage`` is the usage of the raw entries (the budget applies to what is on disk).
    ``title`` replaces the target's header (a project's MEMORY: :data:`PROJECT_HEADER`).

    The header reads ``MEMORY (your personal notes) [67% — 1,474/2,200 chars]``; a file
    over its budget gets ``⚠ OVER BUDGET`` in the header. The body is capped at
    ``render_cap`` chars (0 = ``max(2 x limit, 4000)``), keeping the head and the tail
    with a marker saying how much was cut.
    """
    limit = usage.limit
    if not display:
        return Block(target, "", usage, 0)
    body = DELIMITER.join(display)
    cap = render_cap if render_cap > 0 else max(2 * limit, 4000)
    cut = 0
    if len(body) > cap:
        head = int(cap * 0.7)
        tail = int(cap * 0.2)
        cut = len(body) - head - tail
        body = (
            body[:head] + f"\n[... {cut:,} chars not shown: this file is over its budget "
            f'({usage.chars:,}/{limit:,} chars); consolidate with memory(action="remove") '
            "or an operations batch ...]\n" + body[-tail:]
        )
    over = " ⚠ OVER BUDGET" if usage.over_budget else ""
    name = title or HEADERS.get(target, target.upper())
    header = f"{name} [{usage.line()}{over}]"
    return Block(target, f"{RULE}\n{header}\n{RULE}\n{body}", usage, cut)


def load_block(
    target: str,
    raw: str | None,
    settings: MemorySettings,
    level: str | None = None,
    *,
    project: bool = False,
    verdicts: VerdictCache | None = None,
) -> tuple[tuple[str, ...], Block]:
    """Parse a target's file text and render its block (threats judged at ``level``, the
    home's ``[scan] level``); return (raw entries, block). ``project``: the MEMORY.md of
    a project store (its header, and a hidden entry's removal names the scope).
    ``verdicts``: the home's remembered clean verdicts (the caller saves them)."""
    entries = tuple(parse(raw)) if raw else ()
    block = entries_block(target, entries, settings, level, project=project, verdicts=verdicts)
    return entries, block


def entries_block(
    target: str,
    entries: tuple[str, ...],
    settings: MemorySettings,
    level: str | None = None,
    *,
    project: bool = False,
    verdicts: VerdictCache | None = None,
) -> Block:
    """:func:`load_block` of entries already parsed: the load-time scan and the render."""
    limit = settings.user_char_limit if target == "user" else settings.memory_char_limit
    usage = Usage.of(target, entries, limit)
    display = sanitize(target, entries, level, verdicts).display
    title = None
    if project:
        title = PROJECT_HEADER
        display = tuple(d.replace(_REMOVE_CALL, _REMOVE_PROJECT) for d in display)
    return render_block(target, display, usage, render_cap=settings.render_cap, title=title)


def render_snapshot(
    home: str | None = None,
    profile: str | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    project: str | os.PathLike[str] | None = None,
) -> str:
    """The MEMORY and USER PROFILE blocks a new session of ``home`` would get, then the
    PROJECT MEMORY block of ``project`` (a directory; see :mod:`.scope`) when given.

    The light-weight path for prompt hooks and scripts: it reads the files and renders
    them without opening a session (no lock, no history, nothing written). A target that
    cannot be read is left out (``mnemic memory doctor`` explains why).
    """
    root = home_dir(home, profile, environ)
    settings = load_settings(root, environ)
    store = backend_for(settings)
    enabled = {
        "memory": settings.memory.memory_enabled,
        "user": settings.memory.user_profile_enabled,
    }
    blocks = []
    verdicts = VerdictCache.of_home(root)
    for target in FILENAMES:
        if not enabled[target]:
            continue
        try:
            raw = store.read_curated(root, settings, target)
        except StorageError:
            continue
        block = load_block(target, raw, settings.memory, settings.scan.level, verdicts=verdicts)[1]
        if block.text:
            blocks.append(block.text)
    if project is not None and settings.memory.memory_enabled:
        check_backend(settings)
        where = locate(root, project)
        scoped = project_settings(settings, where.id, where.path)
        try:
            raw = store.read_curated(str(where.root), scoped, "memory")
        except StorageError:
            raw = None
        memory = scoped.memory
        level = settings.scan.level
        block = load_block("memory", raw, memory, level, project=True, verdicts=verdicts)[1]
        if block.text:
            blocks.append(block.text)
    verdicts.save()
    return "\n\n".join(blocks)
