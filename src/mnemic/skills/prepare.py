"""Preparing a skill change: check it against the current state, compute its effect.

:func:`prepare_change` writes nothing. It resolves the skill, checks that the change can
apply now (the skill exists or not, it is local, no symlink on the way, the patch matches
exactly once, the result is valid and clean) and returns a
:class:`~mnemic.skills.changes.PreparedChange` with the exact files to write or remove.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import stat
from typing import TYPE_CHECKING, Any

from ..errors import (
    MnemicError,
    PatchAmbiguous,
    PatchNoMatch,
    SkillChanged,
    SkillExists,
    SkillInvalid,
    SkillPathRefused,
    SkillReadOnly,
    SkillTooLarge,
)
from ..fsio import open_regular
from .changes import PreparedChange, SkillChange, patch_path, scan_or_raise
from .files import list_files, read_support_file, skill_md_max_bytes
from .model import SKILL_FILE, check_support_path, validate_skill_md

if TYPE_CHECKING:
    from .changes import SkillRoot
    from .model import SkillInfo

__all__ = ["digest", "prepare_change"]

PREVIEW_CHARS = 500
MAX_MATCHES_SHOWN = 5


def prepare_change(store: SkillRoot, change: SkillChange) -> PreparedChange:
    """Validate ``change`` against the current state of ``store``; write nothing.

    Raises the typed :class:`~mnemic.errors.ToolError` that says why the change cannot
    apply now (not found, exists, read-only, no match, too large, changed since pinned).
    """
    settings = store.settings
    change.validate(settings, store.scan_level)
    name, category = change.target()
    if change.action == "create":
        return _prepare_create(store, change, name, category)
    info = store.get(change.name)
    if info.readonly:
        raise SkillReadOnly(info.ref, info.source)
    _check_write_dir(store, info, allow_symlinked_file=change.action == "delete")
    p = change.payload
    skill_md = os.path.join(info.path, SKILL_FILE)
    action = change.action
    if action == "delete":
        files = [f.path for f in list_files(info.path)[0] if not f.symlink]
        before = {SKILL_FILE: _read_text(skill_md)}
        before.update({rel: None for rel in files})
        base = {SKILL_FILE: digest(skill_md)}
        prepared = PreparedChange(
            change,
            info.name,
            info.category,
            info.path,
            before=before,
            base=base,
            delete_skill=True,
        )
    elif action == "edit":
        validate_skill_md(
            p["content"],
            name=info.name,
            category=info.category,
            max_chars=settings.max_skill_chars,
        )
        prepared = _single(change, info, SKILL_FILE, skill_md, p["content"])
    elif action == "patch":
        prepared = _prepare_patch(store, change, info)
    elif action == "write_file":
        rel = check_support_path(p["file_path"])
        path = store.support_path(info, rel)
        if not os.path.lexists(path):
            count = sum(1 for f in list_files(info.path)[0] if not f.symlink)
            if count >= settings.max_files:
                raise SkillInvalid(
                    "file_path",
                    f"skill {info.ref!r} already has {count} supporting files; the limit is "
                    f"{settings.max_files}. Merge or remove some first (action='remove_file').",
                )
        prepared = _single(change, info, rel, path, p["file_content"])
    else:  # remove_file
        rel = check_support_path(p["file_path"])
        path = store.support_path(info, rel)
        if not os.path.lexists(path):
            files = [f.path for f in list_files(info.path)[0]]
            raise SkillInvalid(
                "file_path",
                f"skill {info.ref!r} has no file {rel!r}. Its files: "
                f"{', '.join(files[:20]) or 'none'}.",
            )
        prepared = PreparedChange(
            change,
            info.name,
            info.category,
            info.path,
            removes=(rel,),
            before={rel: _read_text(path)},
            base={rel: digest(path)},
        )
    _check_expect(change, prepared)
    return prepared


def _prepare_create(
    store: SkillRoot, change: SkillChange, name: str, category: str | None
) -> PreparedChange:
    for _, _, cat, source, _ in store.locate(name):
        where = "in this home" if source == "local" else f"in {source}"
        raise SkillExists(name, f"{cat + '/' if cat else ''}{name} {where}")
    parent = os.path.join(store.root, category) if category else store.root
    skill_dir = os.path.join(parent, name)
    if category:
        try:
            st = os.lstat(parent)
        except FileNotFoundError:
            st = None
        if st is not None and not stat.S_ISDIR(st.st_mode):
            raise SkillPathRefused(
                f"{category}/{name}", f"the category {category!r} is not a plain directory"
            )
        if os.path.lexists(os.path.join(parent, SKILL_FILE)):
            raise SkillInvalid(
                "category", f"{category!r} is a skill, not a category. Pick another category."
            )
    if os.path.lexists(skill_dir):
        raise SkillInvalid(
            "name",
            f"{os.path.relpath(skill_dir, store.root)!r} already exists as a directory "
            "without SKILL.md (a category?). Pick another name.",
        )
    text = change.payload["content"]
    return PreparedChange(
        change,
        name,
        category,
        skill_dir,
        writes=((SKILL_FILE, text),),
        before={},
        base={SKILL_FILE: None},
    )


def _single(
    change: SkillChange,
    info: SkillInfo,
    rel: str,
    path: str,
    text: str,
    *,
    current: str | None = None,
    replacements: int = 0,
) -> PreparedChange:
    """Write ``text`` to the one file ``rel`` (at ``path``) of the skill ``info``;
    ``current``: its text, when the caller has read it already."""
    return PreparedChange(
        change,
        info.name,
        info.category,
        info.path,
        writes=((rel, text),),
        before={rel: _read_text(path) if current is None else current},
        base={rel: digest(path)},
        replacements=replacements,
    )


def _prepare_patch(store: SkillRoot, change: SkillChange, info: SkillInfo) -> PreparedChange:
    p = change.payload
    settings = store.settings
    rel = patch_path(p.get("file_path"))
    path = (
        os.path.join(info.path, SKILL_FILE) if rel == SKILL_FILE else store.support_path(info, rel)
    )
    limit_bytes = max(settings.max_file_bytes, skill_md_max_bytes(settings))
    current = read_support_file(path, rel, limit_bytes)
    if current is None:
        raise SkillInvalid(
            "file_path", f"skill {info.ref!r} has no file {rel!r}; skill_view lists its files."
        )
    if isinstance(current, bytes):
        raise SkillInvalid("file_path", f"{rel} is not a UTF-8 text file; it cannot be patched.")
    old, new = p["old_string"], p["new_string"]
    hits = _occurrences(current, old)
    if not hits:
        raise PatchNoMatch(rel, old, **_no_match_help(current, old))
    if len(hits) > 1 and not p.get("replace_all", False):
        matches = [_context(current, pos, len(old)) for pos in hits[:MAX_MATCHES_SHOWN]]
        count = max(len(hits), current.count(old))
        raise PatchAmbiguous(rel, old, count, matches=matches)
    if p.get("replace_all", False):
        count = current.count(old)
        text = current.replace(old, new)
    else:
        count = 1
        text = current.replace(old, new, 1)
    if rel == SKILL_FILE:
        limit = (
            settings.max_skill_chars
            if len(text) > len(current)
            else max(settings.max_skill_chars, len(text))
        )
        validate_skill_md(text, name=info.name, category=info.category, max_chars=limit)
    else:
        size, was = len(text.encode()), len(current.encode())
        if size > settings.max_file_bytes and size > was:
            raise SkillTooLarge(rel, size, settings.max_file_bytes, "bytes")
    scan_or_raise(text, f"patched {rel}", store.scan_level)
    return _single(change, info, rel, path, text, current=current, replacements=count)


def _occurrences(text: str, sub: str, limit: int = 1000) -> list[int]:
    """Start offsets of ``sub`` in ``text``, overlapping ones included."""
    out: list[int] = []
    pos = text.find(sub)
    while pos >= 0 and len(out) < limit:
        out.append(pos)
        pos = text.find(sub, pos + 1)
    return out


def _context(text: str, pos: int, length: int) -> dict[str, Any]:
    line = text.count("\n", 0, pos) + 1
    start = max(0, pos - 60)
    end = min(len(text), pos + length + 60)
    return {"line": line, "context": text[start:end]}


def _no_match_help(text: str, old: str) -> dict[str, Any]:
    help_: dict[str, Any] = {"file_preview": text[:PREVIEW_CHARS]}
    lines = text.splitlines()
    first = next((ln.strip() for ln in old.splitlines() if ln.strip()), "")
    if first:
        stripped = [ln.strip() for ln in lines]
        close = difflib.get_close_matches(first, stripped, n=3, cutoff=0.4)
        shown = []
        for c in close:
            idx = stripped.index(c)
            shown.append(f"{idx + 1}: {lines[idx]}")
        if shown:
            help_["closest_lines"] = shown
    if " ".join(old.split()) and " ".join(old.split()) in " ".join(text.split()):
        help_["hint"] = (
            "old_string matches if whitespace is ignored: copy the exact spaces, tabs and "
            "line breaks from the file."
        )
    return help_


def _check_expect(change: SkillChange, prepared: PreparedChange) -> None:
    expect = change.payload.get("expect")
    if not expect:
        return
    for rel, digest in expect.items():
        now = prepared.base.get(rel, "<untouched>")
        if now == "<untouched>":
            path = os.path.join(prepared.skill_dir, *rel.split("/"))
            now = digest(path)
        if now != digest:
            raise SkillChanged(prepared.ref, rel)


def _check_write_dir(store: SkillRoot, info: SkillInfo, *, allow_symlinked_file: bool) -> None:
    """Refuse to write a skill whose directory (or category, or SKILL.md) is a symlink."""
    root = os.path.realpath(store.root)
    chain = [info.path]
    if info.category:
        chain.append(os.path.dirname(info.path))
    for path in chain:
        try:
            st = os.lstat(path)
        except OSError as exc:
            raise SkillPathRefused(info.ref, exc.strerror or str(exc)) from exc
        if stat.S_ISLNK(st.st_mode):
            raise SkillPathRefused(
                info.ref,
                f"{os.path.relpath(path, store.root)} is a symlink; mnemic does not "
                "write through symlinks",
            )
    expected = os.path.join(root, *(p for p in (info.category, info.name) if p))
    if os.path.realpath(info.path) != expected:
        raise SkillPathRefused(info.ref, "the skill directory resolves outside the skills root")
    if not allow_symlinked_file and os.path.islink(os.path.join(info.path, SKILL_FILE)):
        raise SkillPathRefused(f"{info.ref}/{SKILL_FILE}", "SKILL.md is a symlink")


def _read_text(path: str) -> str | None:
    try:  # never blocks on a FIFO or device planted in place of the file
        fd = open_regular(path, nofollow=True)
    except (OSError, MnemicError):
        return None
    if fd is None:
        return None
    try:
        with os.fdopen(fd, "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def digest(path: str) -> str | None:
    """SHA-256 (hex) of a file's bytes, read without following a symlink; ``None`` if absent."""
    try:
        fd = open_regular(path, nofollow=True)
    except (OSError, MnemicError):
        return "unreadable"
    if fd is None:
        return None
    h = hashlib.sha256()
    with os.fdopen(fd, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
