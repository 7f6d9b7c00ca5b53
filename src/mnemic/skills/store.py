"""The skill store: ``<home>/skills/[category/]name/SKILL.md`` plus read-only external roots.

Layout of one root::

    skills/
      git-bisect/SKILL.md                 a skill without a category
      ops/                                a category (a directory without SKILL.md)
        restart-db/
          SKILL.md
          references/, templates/, scripts/, assets/   supporting files
      .lock                               the store's write lock (hidden names are ignored)

The home's own root is the only one mnemic writes. Roots from ``skills.external_dirs``
are read after it; on a name collision the local skill wins. Reading never follows a
symlink out of its root, and writes refuse symlinks anywhere on their path.

This module finds skills (listing, lookup by name) and reads them; a skill's supporting
files are listed, resolved and read by :mod:`mnemic.skills.files`.

Writes go through :class:`~mnemic.skills.changes.SkillChange`: :meth:`SkillStore.prepare`
validates a change against the current state, :meth:`SkillStore.apply` takes the store
lock, prepares again and writes.
"""

from __future__ import annotations

import difflib
import os
import sys
from dataclasses import dataclass
from typing import Any

from ..config import SkillsSettings
from ..errors import SkillInvalid, SkillNotFound, SkillPathRefused, UnreadableFile, UnsafePath
from ..fsio import SidecarLock, ensure_private_dir, read_text_strict
from ..home import Home
from .apply import apply_change
from .changes import ChangeResult, PreparedChange, SkillChange
from .files import (
    LINT_COMMAND,
    SkillFile,
    inside,
    list_files,
    read_support_file,
    resolve_support_path,
    skill_md_max_bytes,
)
from .model import (
    SKILL_FILE,
    SkillInfo,
    is_lenient_name,
    read_front_matter,
    threat_findings,
)
from .prepare import digest, prepare_change

__all__ = [
    "CURRENT_PLATFORM",
    "SkillDoc",
    "SkillFile",
    "SkillInfo",
    "SkillStore",
    "current_platform",
]

#: Directory names never taken for skills or categories (besides hidden names).
EXCLUDED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})
LOCK_NAME = ".lock"


def current_platform(value: str | None = None) -> str:
    """This machine's platform as used in ``platforms``: ``linux``, ``macos`` or ``windows``."""
    plat = sys.platform if value is None else value
    if plat.startswith("darwin"):
        return "macos"
    if plat.startswith(("win", "cygwin", "msys")):
        return "windows"
    return "linux"


CURRENT_PLATFORM = current_platform()


@dataclass(frozen=True, slots=True)
class SkillDoc:
    """A skill with its SKILL.md text and supporting files."""

    info: SkillInfo
    text: str
    files: tuple[SkillFile, ...]
    stray: tuple[str, ...] = ()
    """Entries at the skill root other than SKILL.md and the supporting directories."""


def _is_hidden_or_excluded(name: str) -> bool:
    return name.startswith(".") or name in EXCLUDED_DIRS


class SkillStore:
    """Skills of one home (writable) plus external skill directories (read-only).

    ``settings`` supplies the size limits, the lock timeout and ``external_dirs``
    (relative paths are taken from ``base``, normally the home directory).
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        settings: SkillsSettings | None = None,
        *,
        base: str | os.PathLike[str] | None = None,
        scan_level: str | None = None,
    ) -> None:
        self.root = os.path.abspath(os.fspath(root))
        self.settings = settings or SkillsSettings()
        self.scan_level = scan_level
        """The ``[scan] level`` skill text is judged at (None: the scanner's default)."""
        start = os.fspath(base) if base is not None else os.path.dirname(self.root)
        roots = []
        for d in self.settings.external_dirs:
            path = os.path.abspath(os.path.join(start, os.path.expandvars(os.path.expanduser(d))))
            if path != self.root and path not in roots:
                roots.append(path)
        self.external_dirs: tuple[str, ...] = tuple(roots)

    @classmethod
    def open(cls, home: Home | None = None) -> SkillStore:
        """The skill store of ``home`` (default: ``Home.open()``)."""
        if home is None:
            home = Home.open()
        settings = home.settings
        return cls(home.skills_dir, settings.skills, base=home.root, scan_level=settings.scan.level)

    def __repr__(self) -> str:
        return f"SkillStore({self.root!r})"

    # --- discovery -------------------------------------------------------------------

    def scan(self) -> list[SkillInfo]:
        """Every skill directory of every root, shadowed ones included, in root order."""
        return [self._load(*loc) for loc in self.locate()]

    def locate(
        self, name: str | None = None, category: str | None = None
    ) -> list[tuple[str, str, str | None, str, str]]:
        """Skill directories without reading them: ``(path, name, category, source,
        real root)`` in root order, optionally only those with ``name`` (and ``category``).
        """
        found = []
        for root, source in self._roots():
            found.extend(self._walk_root(root, source, name, category))
        return found

    def skills(self, *, platform: str | None = CURRENT_PLATFORM) -> list[SkillInfo]:
        """The effective skills: local wins over external, sorted by category then name.

        Unusable skills (see :attr:`SkillInfo.usable`) are included; filter on
        ``usable``. With ``platform`` (default: this machine), skills whose
        ``platforms`` exclude it are left out; ``platform=None`` keeps all.
        """
        seen: set[str] = set()
        out: list[SkillInfo] = []
        for info in self.scan():  # local root first, then external roots in order
            if info.source != "local" and info.name in seen:
                continue
            out.append(info)
            seen.add(info.name)
        if platform is not None:
            out = [i for i in out if i.front is None or i.front.runs_on(platform)]
        return sorted(out, key=lambda i: (i.category or "", i.name, i.source != "local"))

    def _roots(self) -> list[tuple[str, str]]:
        roots = [(self.root, "local")]
        roots.extend((d, d) for d in self.external_dirs)
        return roots

    def _walk_root(
        self, root: str, source: str, name: str | None, category: str | None
    ) -> list[tuple[str, str, str | None, str, str]]:
        try:
            real_root = os.path.realpath(root)
            top = sorted(os.scandir(root), key=lambda e: e.name)
        except OSError:
            return []
        out: list[tuple[str, str, str | None, str, str]] = []
        for entry in top:
            if _is_hidden_or_excluded(entry.name) or not _is_dir(entry):
                continue
            if os.path.lexists(os.path.join(entry.path, SKILL_FILE)):
                if (name is None or entry.name == name) and category is None:
                    out.append((entry.path, entry.name, None, source, real_root))
                continue
            if category is not None and entry.name != category:
                continue
            if not inside(os.path.realpath(entry.path), real_root):
                continue  # a symlinked category pointing elsewhere: not ours to read
            if name is not None:
                sub_path = os.path.join(entry.path, name)
                if os.path.isdir(sub_path) and os.path.lexists(os.path.join(sub_path, SKILL_FILE)):
                    out.append((sub_path, name, entry.name, source, real_root))
                continue
            try:
                subs = sorted(os.scandir(entry.path), key=lambda e: e.name)
            except OSError:
                continue
            for sub in subs:
                if _is_hidden_or_excluded(sub.name) or not _is_dir(sub):
                    continue
                if os.path.lexists(os.path.join(sub.path, SKILL_FILE)):
                    out.append((sub.path, sub.name, entry.name, source, real_root))
        return out

    def _load(
        self, path: str, name: str, category: str | None, source: str, real_root: str
    ) -> SkillInfo:
        def bad(error: str) -> SkillInfo:
            return SkillInfo(name, category, path, source, error=error)

        if not is_lenient_name(name):
            return bad(f"the directory name {name[:80]!r} is not a valid skill name")
        if category is not None and not is_lenient_name(category):
            return bad(f"the category directory {category[:80]!r} is not a valid category name")
        if not inside(os.path.realpath(path), real_root):
            return bad("the skill directory is a symlink that points outside its skills root")
        try:
            text = self._read_skill_md(os.path.join(path, SKILL_FILE))
        except (UnreadableFile, UnsafePath) as exc:
            return bad(exc.to_llm())
        if text is None:
            return bad("SKILL.md disappeared")
        try:
            fm, _ = read_front_matter(text)
        except SkillInvalid as exc:
            return bad(exc.message.removesuffix(" Nothing was written."))
        found = threat_findings(f"{fm.name}\n{fm.description}", self.scan_level)
        return SkillInfo(name, category, path, source, fm, findings=tuple(f for f, _ in found))

    def get(self, name: str) -> SkillInfo:
        """Find a skill by ``name`` or ``category/name`` (local first).

        Raises :class:`SkillNotFound` (with similar names) or :class:`SkillInvalid` when
        a bare name exists in several local categories.
        """
        category, bare = _split_ref(name)
        matches = [self._load(*loc) for loc in self.locate(bare, category)]
        if not matches:
            names = sorted({f"{c}/{n}" if c else n for _, n, c, _, _ in self.locate()})
            similar = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
            raise SkillNotFound(name, similar=similar)
        local = [i for i in matches if i.source == "local"]
        if len(local) > 1:
            raise SkillInvalid(
                "name",
                f"{bare!r} exists in several categories ({', '.join(i.ref for i in local)}); "
                "pass the name as category/name.",
            )
        return local[0] if local else matches[0]

    # --- reading ---------------------------------------------------------------------

    def read(self, name: str) -> SkillDoc:
        """A skill's SKILL.md text and its supporting files (see :meth:`get`)."""
        info = self.get(name)
        return self.read_info(info)

    def read_info(self, info: SkillInfo) -> SkillDoc:
        """Like :meth:`read` for an already resolved skill."""
        self._check_dir(info)
        text = self._read_skill_md(info.skill_md)
        if text is None:
            raise SkillNotFound(info.ref)
        files, stray = list_files(info.path)
        return SkillDoc(info, text, tuple(files), tuple(stray))

    def _read_skill_md(self, path: str) -> str | None:
        """A SKILL.md's text (``None``: gone); one that cannot be read points a person at
        ``mnemic skills lint``, which names it (``memory doctor`` does not look at skills)."""
        try:
            return read_text_strict(
                path, nofollow=True, max_bytes=skill_md_max_bytes(self.settings)
            )
        except UnreadableFile as exc:
            raise exc.checked_by(LINT_COMMAND) from None

    def _check_dir(self, info: SkillInfo) -> None:
        root = self.root if info.source == "local" else info.source
        if not inside(os.path.realpath(info.path), os.path.realpath(root)):
            raise SkillPathRefused(
                info.ref, "the skill directory is a symlink that points outside its root"
            )

    def support_path(self, info: SkillInfo, rel: str) -> str:
        """Absolute path of supporting file ``rel`` of a skill, checked for escapes.

        The path must pass :func:`~mnemic.skills.model.check_support_path`, and no part
        of it that exists may be a symlink (:class:`SkillPathRefused` otherwise). The
        file itself need not exist.
        """
        self._check_dir(info)
        return resolve_support_path(info.path, rel)

    def read_file(self, name: str | SkillInfo, rel: str) -> str | bytes | None:
        """Read supporting file ``rel`` of a skill: text, bytes (not UTF-8) or ``None``.

        Refuses symlinks and escapes (:class:`SkillPathRefused`) and files larger than
        ``max_file_bytes`` (:class:`SkillTooLarge`).
        """
        info = name if isinstance(name, SkillInfo) else self.get(name)
        path = self.support_path(info, rel)
        return read_support_file(path, rel, self.settings.max_file_bytes)

    # --- writing ---------------------------------------------------------------------

    def lock(self) -> SidecarLock:
        """The store-wide write lock (``<root>/.lock``); creates the root if needed."""
        ensure_private_dir(self.root)
        return SidecarLock(os.path.join(self.root, LOCK_NAME), self.settings.lock_timeout)

    def digests(self, change: SkillChange) -> dict[str, str | None]:
        """SHA-256 of each file ``change`` touches, as they are now (``None``: absent).

        Compare with :attr:`PreparedChange.base` saved when the change was staged to
        tell whether its files changed since (without preparing it again).
        """

        rels = change.files()
        if change.action == "create":
            name, category = change.target()
            skill_dir = os.path.join(self.root, *(p for p in (category, name) if p))
        else:
            try:
                skill_dir = self.get(change.name).path
            except (SkillNotFound, SkillInvalid):
                return dict.fromkeys(rels)
        return {rel: digest(os.path.join(skill_dir, *rel.split("/"))) for rel in rels}

    def prepare(self, change: SkillChange) -> PreparedChange:
        """Validate ``change`` completely against the current state; write nothing."""

        return prepare_change(self, change)

    def apply(self, change: SkillChange) -> ChangeResult:
        """Apply ``change``: lock, prepare again against the current state, write."""

        return apply_change(self, change)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=True)
    except OSError:
        return False


def _split_ref(name: Any) -> tuple[str | None, str]:
    """Split ``category/name`` after checking it is a plain relative reference."""
    if not isinstance(name, str) or not name:
        raise SkillInvalid("name", "give the skill name as a non-empty string.")
    if "\\" in name or name.startswith("/") or ".." in name.split("/"):
        raise SkillPathRefused(name, "a skill name is 'name' or 'category/name'")
    parts = name.split("/")
    if len(parts) > 2 or not all(is_lenient_name(p) for p in parts):
        raise SkillNotFound(name)
    return (parts[0], parts[1]) if len(parts) == 2 else (None, parts[0])
