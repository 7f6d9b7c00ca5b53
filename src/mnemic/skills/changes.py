"""Skill writes as data: a :class:`SkillChange` is validated, prepared, then applied.

The three steps are separate so that a write can be held for approval in between:

1. :meth:`SkillChange.validate` checks everything that does not depend on the disk
   (action, name, argument types, sizes, front matter, paths, threat scan). A change
   that fails here could never apply.
2. ``SkillStore.prepare`` (:mod:`mnemic.skills.prepare`) checks the change against the
   current state (the skill exists or not, it is local, the patch matches once, the
   result is valid) and computes the exact files to write or remove: a :class:`PreparedChange`
   with a :meth:`~PreparedChange.preview` diff. Nothing is written.
3. ``SkillStore.apply`` (:mod:`mnemic.skills.apply`) takes the store lock, prepares
   again against the state under the lock, and writes atomically.

A change is plain JSON (:meth:`SkillChange.to_dict` / :meth:`SkillChange.from_dict`), so
it can be staged in a file and applied later. :meth:`PreparedChange.pinned` adds the
digests of the files as they were when prepared: applied later, a pinned change fails
with :class:`~mnemic.errors.SkillChanged` if someone changed those files meanwhile.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..config import SkillsSettings
from ..errors import (
    InvalidArgument,
    SkillInvalid,
    SkillPathRefused,
    SkillThreatBlocked,
    SkillTooLarge,
)
from ..tooling import json_kind
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
    from ..fsio import SidecarLock
    from .model import SkillInfo

__all__ = [
    "ACTIONS",
    "ChangeResult",
    "PreparedChange",
    "SkillChange",
    "SkillRoot",
    "patch_path",
    "scan_or_raise",
]


class SkillRoot(Protocol):
    """What preparing and applying a change read of the skill store (a
    :class:`~mnemic.skills.store.SkillStore` is one): declared here so that neither
    needs the store's module, which imports them."""

    root: str
    settings: SkillsSettings
    scan_level: str | None

    def get(self, name: str) -> SkillInfo: ...

    def locate(
        self, name: str | None = None, category: str | None = None
    ) -> list[tuple[str, str, str | None, str, str]]: ...

    def lock(self) -> SidecarLock: ...

    def support_path(self, info: SkillInfo, rel: str) -> str: ...


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
        return dataclasses.asdict(self)

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

    def validate(self, settings: SkillsSettings | None = None, level: str | None = None) -> None:
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
                    key, f"{key} must be {_type_name(want)}, got {json_kind(value)}."
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
            scan_or_raise(p["content"], "SKILL.md", level)
        elif self.action == "edit":
            _check_text(p["content"], "content")
            fm_category = _front_category(p["content"])
            validate_skill_md(
                p["content"], name=name, category=fm_category, max_chars=limits.max_skill_chars
            )
            scan_or_raise(p["content"], "SKILL.md", level)
        elif self.action == "patch":
            rel = patch_path(p.get("file_path"))
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
            scan_or_raise(new, "new_string", level)
        elif self.action == "write_file":
            rel = check_support_path(p["file_path"])
            text = p["file_content"]
            _check_text(text, "file_content")
            size = len(text.encode("utf-8", "surrogatepass"))
            if size > limits.max_file_bytes:
                raise SkillTooLarge(rel, size, limits.max_file_bytes, "bytes")
            scan_or_raise(text, rel, level)
        elif self.action == "remove_file":
            check_support_path(p["file_path"])

    def files(self) -> tuple[str, ...]:
        """The files (relative to the skill directory) this change reads or writes: the
        keys of :attr:`PreparedChange.base`. Raises like :meth:`validate` on bad paths."""
        if self.action == "patch":
            return (patch_path(self.payload.get("file_path")),)
        if self.action in ("write_file", "remove_file"):
            return (check_support_path(self.payload.get("file_path")),)
        return (SKILL_FILE,)

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
    return {str: "a string", bool: "true or false", dict: "an object"}.get(t, t.__name__)


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


def scan_or_raise(text: str, what: str, level: str | None = None) -> None:
    """Raise :class:`~mnemic.errors.SkillThreatBlocked` when ``text`` has threat findings
    (at ``level``, see :func:`~.model.threat_findings`)."""
    found = threat_findings(text, level)
    if found:
        raise SkillThreatBlocked(found, what=what)


def _front_category(text: str) -> str | None:
    try:
        return read_front_matter(text)[0].category
    except SkillInvalid:
        return None


def patch_path(raw: Any) -> str:
    """The file a patch targets: ``SKILL.md`` (default) or a checked supporting path."""
    if raw is None or raw == SKILL_FILE:
        return SKILL_FILE
    return check_support_path(raw)
