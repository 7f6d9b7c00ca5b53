"""Skill writes as data: a :class:`SkillChange` is validated, prepared, then applied.

The three steps are separate so that a write can be held for approval in between:

1. :meth:`SkillChange.validate` checks everything that does not depend on the disk
   (action, name, argument types, sizes, front matter, paths, threat scan). A change
   that fails here could never apply.
2. :func:`prepare_change` (``SkillStore.prepare``) checks the change against the current
   state (the skill exists or not, it is local, the patch matches once, the result is
   valid) and computes the exact files to write or remove: a :class:`PreparedChange`
   with a :meth:`~PreparedChange.preview` diff. Nothing is written.
3. :func:`apply_change` (``SkillStore.apply``) takes the store lock, prepares again
   against the state under the lock, and writes atomically.

A change is plain JSON (:meth:`SkillChange.to_dict` / :meth:`SkillChange.from_dict`), so
it can be staged in a file and applied later. :meth:`PreparedChange.pinned` adds the
digests of the files as they were when prepared: applied later, a pinned change fails
with :class:`~mnemic.errors.SkillChanged` if someone changed those files meanwhile.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..config import SkillsSettings
from ..errors import (
    InvalidArgument,
    PatchAmbiguous,
    PatchNoMatch,
    SkillChanged,
    SkillExists,
    SkillInvalid,
    SkillPathRefused,
    SkillReadOnly,
    SkillThreatBlocked,
    SkillTooLarge,
    WriteFailed,
)
from ..fsio import atomic_write_text, ensure_private_dir, fsync_dir, stale_temp_files
from .model import (
    SKILL_FILE,
    check_category,
    check_name,
    check_support_path,
    is_lenient_name,
    read_front_matter,
    threat_findings,
    validate_skill_md,
)

if TYPE_CHECKING:
    from .store import SkillInfo, SkillStore

__all__ = [
    "ACTIONS",
    "ChangeResult",
    "PreparedChange",
    "SkillChange",
    "apply_change",
    "prepare_change",
]

#: The ``skill_manage`` actions.
ACTIONS = ("create", "edit", "patch", "delete", "write_file", "remove_file")

# action -> (required payload keys, optional payload keys); every action accepts "expect".
_PAYLOAD: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "create": (frozenset({"content"}), frozenset({"category"})),
    "edit": (frozenset({"content"}), frozenset()),
    "patch": (
        frozenset({"old_string", "new_string"}),
        frozenset({"replace_all", "file_path"}),
    ),
    "delete": (frozenset(), frozenset()),
    "write_file": (frozenset({"file_path", "file_content"}), frozenset()),
    "remove_file": (frozenset({"file_path"}), frozenset()),
}
_TYPES: dict[str, type] = {
    "content": str,
    "category": str,
    "old_string": str,
    "new_string": str,
    "replace_all": bool,
    "file_path": str,
    "file_content": str,
    "expect": dict,
}
_STAGING = ".staging-"
_TRASH = ".trash-"
PREVIEW_CHARS = 500
MAX_MATCHES_SHOWN = 5


@dataclass(frozen=True)
class SkillChange:
    """One requested skill write, as plain data.

    ``action`` is one of :data:`ACTIONS`; ``name`` is ``name`` or ``category/name``;
    ``payload`` holds the action's arguments (``content``, ``category``,
    ``old_string``, ``new_string``, ``replace_all``, ``file_path``, ``file_content``)
    and optionally ``expect`` (see :meth:`PreparedChange.pinned`).
    """

    action: str
    name: str
    payload: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict (inverse of :meth:`from_dict`)."""
        return {"action": self.action, "name": self.name, "payload": dict(self.payload)}

    @classmethod
    def from_dict(cls, data: Any) -> SkillChange:
        """Rebuild a change from :meth:`to_dict` output (structure checked, not validated)."""
        if not isinstance(data, Mapping):
            raise InvalidArgument("change", "a skill change must be a JSON object.")
        action, name, payload = data.get("action"), data.get("name"), data.get("payload", {})
        if not isinstance(action, str) or not isinstance(name, str):
            raise InvalidArgument("change", "a skill change needs string action and name.")
        if not isinstance(payload, Mapping):
            raise InvalidArgument("change", "the payload of a skill change must be an object.")
        return cls(action, name, dict(payload))

    def target(self) -> tuple[str, str | None]:
        """(skill name, category or ``None``) named by ``name`` (and, for create, the
        ``category`` argument or the front matter). Raises when the name is malformed."""
        parts = self.name.split("/") if isinstance(self.name, str) else []
        if self.action != "create":
            if not 1 <= len(parts) <= 2 or not all(is_lenient_name(p) for p in parts):
                if isinstance(self.name, str) and (
                    "\\" in self.name or self.name.startswith("/") or ".." in parts
                ):
                    raise SkillPathRefused(self.name, "a skill name is 'name' or 'category/name'")
                raise SkillInvalid("name", f"{str(self.name)[:80]!r} is not a skill name.")
            return (parts[1], parts[0]) if len(parts) == 2 else (parts[0], None)
        if len(parts) > 2 or (len(parts) == 2 and ".." in parts):
            raise SkillPathRefused(self.name, "a skill name is 'name' or 'category/name'")
        name = check_name(parts[-1] if parts else self.name)
        category: str | None = check_category(parts[0]) if len(parts) == 2 else None
        explicit = self.payload.get("category")
        if explicit is not None:
            explicit = check_category(explicit)
            if category is not None and explicit != category:
                raise SkillInvalid(
                    "category",
                    f"name says category {category!r} but category is {explicit!r}.",
                )
            category = explicit
        if category is None and isinstance(self.payload.get("content"), str):
            with contextlib.suppress(SkillInvalid):  # reported by validate()
                category = read_front_matter(self.payload["content"])[0].category
        return name, category

    def validate(self, settings: SkillsSettings | None = None) -> None:
        """Check everything that does not depend on the current state; raise if invalid.

        Raises :class:`~mnemic.errors.InvalidArgument`, :class:`~mnemic.errors.SkillInvalid`,
        :class:`~mnemic.errors.SkillPathRefused`, :class:`~mnemic.errors.SkillTooLarge` or
        :class:`~mnemic.errors.SkillThreatBlocked`.
        """
        limits = settings or SkillsSettings()
        if self.action not in ACTIONS:
            raise InvalidArgument(
                "action", f"Unknown action {self.action!r}. Use one of: {', '.join(ACTIONS)}."
            )
        required, optional = _PAYLOAD[self.action]
        for key, value in self.payload.items():
            if key not in required and key not in optional and key != "expect":
                used = sorted(a for a, (r, o) in _PAYLOAD.items() if key in r | o)
                where = f" (it is used by {', '.join(used)})" if used else ""
                raise InvalidArgument(
                    key, f"{key} is not an argument of action {self.action!r}{where}."
                )
            want = _TYPES[key]
            if not isinstance(value, want) or (want is not bool and isinstance(value, bool)):
                raise InvalidArgument(
                    key, f"{key} must be a {_type_name(want)}, got {type(value).__name__}."
                )
        for key in sorted(required):
            if key not in self.payload:
                raise InvalidArgument(key, f"action {self.action!r} needs {key}.{_hint(key)}")
        expect = self.payload.get("expect", {})
        if not all(
            isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in expect.items()
        ):
            raise InvalidArgument("expect", "expect maps file paths to digests (or null).")
        name, category = self.target()
        p = self.payload
        if self.action == "create":
            _check_text(p["content"], "content")
            validate_skill_md(
                p["content"], name=name, category=category, max_chars=limits.max_skill_chars
            )
            _scan(p["content"], "SKILL.md")
        elif self.action == "edit":
            _check_text(p["content"], "content")
            fm_category = _front_category(p["content"])
            validate_skill_md(
                p["content"], name=name, category=fm_category, max_chars=limits.max_skill_chars
            )
            _scan(p["content"], "SKILL.md")
        elif self.action == "patch":
            rel = _patch_path(p.get("file_path"))
            old, new = p["old_string"], p["new_string"]
            if not old:
                raise InvalidArgument(
                    "old_string", "old_string is empty; give the exact text to replace."
                )
            if old == new:
                raise InvalidArgument(
                    "new_string", "new_string equals old_string: this patch changes nothing."
                )
            _check_text(new, "new_string")
            if rel == SKILL_FILE and len(new) > limits.max_skill_chars:
                raise SkillTooLarge("new_string", len(new), limits.max_skill_chars)
            if rel != SKILL_FILE and len(new.encode()) > limits.max_file_bytes:
                raise SkillTooLarge("new_string", len(new.encode()), limits.max_file_bytes, "bytes")
            _scan(new, "new_string")
        elif self.action == "write_file":
            rel = check_support_path(p["file_path"])
            text = p["file_content"]
            _check_text(text, "file_content")
            size = len(text.encode("utf-8", "surrogatepass"))
            if size > limits.max_file_bytes:
                raise SkillTooLarge(rel, size, limits.max_file_bytes, "bytes")
            _scan(text, rel)
        elif self.action == "remove_file":
            check_support_path(p["file_path"])

    def describe(self) -> str:
        """A one-line description of the requested change (for listings and logs)."""
        rel = self.payload.get("file_path")
        if self.action in ("write_file", "remove_file") or (self.action == "patch" and rel):
            return f"{self.action} {rel} in skill {self.name}"
        return f"{self.action} skill {self.name}"


@dataclass(frozen=True)
class PreparedChange:
    """A validated change with the exact effect it will have on the current state."""

    change: SkillChange
    name: str
    category: str | None
    skill_dir: str
    writes: tuple[tuple[str, str], ...] = ()
    """``(path relative to the skill dir, new text)`` pairs."""
    removes: tuple[str, ...] = ()
    before: Mapping[str, str | None] = field(default_factory=dict)
    """Text of each touched file before the change (``None``: absent or not text)."""
    base: Mapping[str, str | None] = field(default_factory=dict)
    """SHA-256 of each touched file before the change (``None``: absent)."""
    replacements: int = 0
    delete_skill: bool = False

    @property
    def ref(self) -> str:
        """``category/name`` or ``name``."""
        return f"{self.category}/{self.name}" if self.category else self.name

    def pinned(self) -> SkillChange:
        """The change with ``expect`` set to :attr:`base`: applying it later fails with
        :class:`~mnemic.errors.SkillChanged` if a touched file changed meanwhile."""
        if self.change.action == "create":
            return self.change
        payload = {**self.change.payload, "expect": dict(self.base)}
        return SkillChange(self.change.action, self.ref, payload)

    def preview(self) -> str:
        """A unified diff of the change (full text for new files), for review."""
        import difflib

        if self.delete_skill:
            return f"delete skill {self.ref} ({len(self.before)} file(s))\n"
        out: list[str] = []
        for rel, text in self.writes:
            old = self.before.get(rel) or ""
            out.extend(
                difflib.unified_diff(
                    old.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    fromfile=f"a/{self.ref}/{rel}" if rel in self.before and old else "/dev/null",
                    tofile=f"b/{self.ref}/{rel}",
                )
            )
            if out and not out[-1].endswith("\n"):
                out[-1] += "\n"
        for rel in self.removes:
            out.append(f"remove {self.ref}/{rel}\n")
        return "".join(out)

    def gist(self) -> str:
        """One line saying what the change does (at most about 160 characters)."""
        action = self.change.action
        if action in ("create", "edit"):
            text = self.writes[0][1]
            try:
                desc = read_front_matter(text)[0].description
            except SkillInvalid:
                desc = ""
            desc = desc if len(desc) <= 120 else desc[:117] + "..."
            return f"{action} {self.ref} ({len(text):,} chars): {desc}"
        if action == "patch":
            rel, text = self.writes[0]
            old = (self.before.get(rel) or "").splitlines()
            new = text.splitlines()
            import difflib

            added = removed = 0
            for line in difflib.ndiff(old, new):
                added += line.startswith("+ ")
                removed += line.startswith("- ")
            return f"patch {self.ref}/{rel}: +{added}/-{removed} lines"
        if action == "write_file":
            rel, text = self.writes[0]
            return f"write {self.ref}/{rel} ({len(text.encode()):,} bytes)"
        if action == "remove_file":
            return f"remove {self.ref}/{self.removes[0]}"
        return f"delete skill {self.ref}"


@dataclass(frozen=True)
class ChangeResult:
    """What an applied change did."""

    action: str
    name: str
    category: str | None
    path: str
    """Absolute path of the skill directory."""
    message: str
    files: tuple[str, ...] = ()
    replacements: int = 0

    @property
    def ref(self) -> str:
        """``category/name`` or ``name``."""
        return f"{self.category}/{self.name}" if self.category else self.name

    def as_dict(self) -> dict[str, Any]:
        """A JSON-able dict."""
        out: dict[str, Any] = {
            "action": self.action,
            "name": self.name,
            "category": self.category,
            "skill": self.ref,
            "message": self.message,
        }
        if self.files:
            out["files"] = list(self.files)
        if self.action == "patch":
            out["replacements"] = self.replacements
        return out


# --- validation helpers ----------------------------------------------------------------


def _type_name(t: type) -> str:
    return {str: "string", bool: "boolean", dict: "object"}.get(t, t.__name__)


def _hint(key: str) -> str:
    return {
        "content": " Pass the whole SKILL.md: front matter between '---' lines, then the body.",
        "old_string": " Give the exact text to replace (copy it from skill_view).",
        "new_string": " Give the replacement text ('' deletes old_string).",
        "file_path": " Example: 'references/api.md'.",
        "file_content": " Give the full text of the file.",
    }.get(key, "")


def _check_text(text: str, field_name: str) -> None:
    if "\x00" in text:
        raise SkillInvalid(field_name, "it contains a NUL character.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise SkillInvalid(field_name, "it contains a lone surrogate (not valid UTF-8).") from exc


def _scan(text: str, what: str) -> None:
    found = threat_findings(text)
    if found:
        raise SkillThreatBlocked(found, what=what)


def _front_category(text: str) -> str | None:
    try:
        return read_front_matter(text)[0].category
    except SkillInvalid:
        return None


def _patch_path(raw: Any) -> str:
    if raw is None or raw == SKILL_FILE:
        return SKILL_FILE
    return check_support_path(raw)


# --- preparing ---------------------------------------------------------------------------


def prepare_change(store: SkillStore, change: SkillChange) -> PreparedChange:
    """Validate ``change`` against the current state of ``store``; write nothing.

    Raises the typed :class:`~mnemic.errors.ToolError` that says why the change cannot
    apply now (not found, exists, read-only, no match, too large, changed since pinned).
    """
    settings = store.settings
    change.validate(settings)
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
        files = [f.path for f in store._list_files(info.path)[0] if not f.symlink]
        before = {SKILL_FILE: _read_text(skill_md)}
        before.update({rel: None for rel in files})
        base = {SKILL_FILE: _digest(skill_md)}
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
            count = sum(1 for f in store._list_files(info.path)[0] if not f.symlink)
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
            files = [f.path for f in store._list_files(info.path)[0]]
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
            base={rel: _digest(path)},
        )
    _check_expect(change, prepared)
    return prepared


def _prepare_create(
    store: SkillStore, change: SkillChange, name: str, category: str | None
) -> PreparedChange:
    for info in store.scan():
        if info.name == name:
            where = "in this home" if info.source == "local" else f"in {info.source}"
            raise SkillExists(name, f"{info.ref} {where}")
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


def _single(change: SkillChange, info: SkillInfo, rel: str, path: str, text: str) -> PreparedChange:
    return PreparedChange(
        change,
        info.name,
        info.category,
        info.path,
        writes=((rel, text),),
        before={rel: _read_text(path)},
        base={rel: _digest(path)},
    )


def _prepare_patch(store: SkillStore, change: SkillChange, info: SkillInfo) -> PreparedChange:
    p = change.payload
    settings = store.settings
    rel = _patch_path(p.get("file_path"))
    path = (
        os.path.join(info.path, SKILL_FILE) if rel == SKILL_FILE else store.support_path(info, rel)
    )
    from .store import read_support_file

    limit_bytes = max(settings.max_file_bytes, 4 * settings.max_skill_chars + 65536)
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
        raise PatchAmbiguous(rel, old, len(hits), matches=matches)
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
    _scan(text, f"patched {rel}")
    return PreparedChange(
        change,
        info.name,
        info.category,
        info.path,
        writes=((rel, text),),
        before={rel: current},
        base={rel: _digest(path)},
        replacements=count,
    )


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
    import difflib

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
            now = _digest(path)
        if now != digest:
            raise SkillChanged(prepared.ref, rel)


def _check_write_dir(store: SkillStore, info: SkillInfo, *, allow_symlinked_file: bool) -> None:
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
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
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


def _digest(path: str) -> str | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError:
        return "unreadable"
    h = hashlib.sha256()
    with os.fdopen(fd, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# --- applying ----------------------------------------------------------------------------


def apply_change(store: SkillStore, change: SkillChange) -> ChangeResult:
    """Take the store lock, prepare ``change`` against the current state, write it.

    All or nothing: a failure leaves the skill as it was (a new skill is assembled in a
    hidden staging directory and renamed into place; a deleted one is renamed away
    before it is removed).
    """
    with store.lock():
        _cleanup(store.root)
        prepared = prepare_change(store, change)
        try:
            return _execute(store, prepared)
        except OSError as exc:
            raise WriteFailed(prepared.skill_dir, exc.strerror or str(exc)) from exc


def _cleanup(root: str) -> None:
    """Remove staging and trash directories left by writers that died (lock held)."""
    try:
        names = os.listdir(root)
    except OSError:
        return
    for n in names:
        if n.startswith((_STAGING, _TRASH)):
            shutil.rmtree(os.path.join(root, n), ignore_errors=True)


def _mkdirs(base: str, parts: list[str]) -> None:
    """Create ``base/parts...`` directory by directory, refusing symlinks on the way."""
    cur = base
    for part in parts:
        cur = os.path.join(cur, part)
        with contextlib.suppress(FileExistsError):
            os.mkdir(cur, 0o700)
        st = os.lstat(cur)
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
            raise SkillPathRefused(
                os.path.relpath(cur, base), "a part of the path is not a plain directory"
            )


def _execute(store: SkillStore, prep: PreparedChange) -> ChangeResult:
    action = prep.change.action
    ref = prep.ref

    def result(message: str, files: tuple[str, ...] = ()) -> ChangeResult:
        return ChangeResult(
            action, prep.name, prep.category, prep.skill_dir, message, files, prep.replacements
        )

    if action == "create":
        _create(store, prep)
        return result(f"Created skill {ref!r}.", (SKILL_FILE,))
    if action == "delete":
        _delete(store, prep)
        n = len(prep.before) - 1
        return result(f"Deleted skill {ref!r} and its {n} supporting file(s).")
    if action == "remove_file":
        rel = prep.removes[0]
        path = os.path.join(prep.skill_dir, *rel.split("/"))
        os.unlink(path)
        parent = os.path.dirname(path)
        while parent != prep.skill_dir and not os.listdir(parent):
            os.rmdir(parent)
            parent = os.path.dirname(parent)
        fsync_dir(parent)
        return result(f"Removed {rel} from skill {ref!r}.", (rel,))
    rel, text = prep.writes[0]
    parts = rel.split("/")
    _mkdirs(prep.skill_dir, parts[:-1])
    path = os.path.join(prep.skill_dir, *parts)
    for tmp in stale_temp_files(path):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    atomic_write_text(path, text)
    if action == "patch":
        return result(
            f"Patched {rel} of skill {ref!r} ({prep.replacements} replacement(s)).", (rel,)
        )
    if action == "edit":
        return result(f"Rewrote SKILL.md of skill {ref!r}.", (rel,))
    return result(f"Wrote {rel} ({len(text.encode()):,} bytes) in skill {ref!r}.", (rel,))


def _create(store: SkillStore, prep: PreparedChange) -> None:
    ensure_private_dir(store.root)
    parent = os.path.dirname(prep.skill_dir)
    made_parent = False
    if prep.category and not os.path.lexists(parent):
        os.mkdir(parent, 0o700)
        made_parent = True
    staging = os.path.join(store.root, f"{_STAGING}{os.urandom(6).hex()}")
    os.mkdir(staging, 0o700)
    try:
        tmp_dir = os.path.join(staging, prep.name)
        os.mkdir(tmp_dir, 0o700)
        atomic_write_text(os.path.join(tmp_dir, SKILL_FILE), prep.writes[0][1])
        if os.path.lexists(prep.skill_dir):
            raise SkillExists(prep.name, prep.ref)
        os.rename(tmp_dir, prep.skill_dir)
        fsync_dir(parent)
    except BaseException:
        if made_parent:
            with contextlib.suppress(OSError):
                os.rmdir(parent)
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _delete(store: SkillStore, prep: PreparedChange) -> None:
    trash = os.path.join(store.root, f"{_TRASH}{os.urandom(6).hex()}")
    parent = os.path.dirname(prep.skill_dir)
    os.rename(prep.skill_dir, trash)
    fsync_dir(parent)
    shutil.rmtree(trash, ignore_errors=True)
    if prep.category and parent != store.root:
        with contextlib.suppress(OSError):  # an emptied category goes too
            os.rmdir(parent)
