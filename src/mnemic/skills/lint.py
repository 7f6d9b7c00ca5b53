"""``mnemic skills lint``: check every skill of every root.

Errors (the skill is broken or unsafe): unreadable or invalid SKILL.md, name or category
not matching the directory, empty body, size over the limits, threat findings in any
text file, symlinks, references to supporting files that do not exist, one name used
twice in the home. Warnings (worth a look): names that are not in the strict style,
unknown front matter fields, files outside the supporting directories, more files than
``max_files``, a local skill hiding an external one.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..control_chars import first_control
from ..errors import MnemicError
from .model import (
    KNOWN_KEYS,
    SKILL_FILE,
    SUPPORT_DIRS,
    is_valid_name,
    split_front_matter,
    threat_findings,
)

if TYPE_CHECKING:
    from .store import SkillDoc, SkillInfo, SkillStore

__all__ = ["LintProblem", "lint_skills"]

_DIRS = "|".join(SUPPORT_DIRS)
# A path to a supporting file mentioned in the body: `references/api.md`, scripts/run.sh...
_REF_RE = re.compile(rf"(?<![\w./-])(?:\./)?((?:{_DIRS})/[\w][\w./-]*)")
# A relative markdown link target: [text](target)
_LINK_RE = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


@dataclass(frozen=True, slots=True)
class LintProblem:
    """One finding of :func:`lint_skills`."""

    skill: str
    """``category/name`` (or the directory name) of the skill."""
    source: str
    """``"local"`` or the external root."""
    severity: str
    """``"error"`` or ``"warning"``."""
    code: str
    message: str
    file: str | None = None
    """The file concerned, relative to the skill directory."""

    def as_dict(self) -> dict[str, Any]:
        """A JSON-able dict."""
        out: dict[str, Any] = {
            "skill": self.skill,
            "source": self.source,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }
        if self.file:
            out["file"] = self.file
        return out


def lint_skills(store: SkillStore) -> list[LintProblem]:
    """Check every skill of ``store`` (home and external roots); errors first."""
    problems: list[LintProblem] = []
    infos = store.scan()
    local_names: dict[str, list[str]] = {}
    for info in infos:
        if info.source == "local":
            local_names.setdefault(info.name, []).append(info.ref)
    for name, refs in sorted(local_names.items()):
        if len(refs) > 1:
            problems.append(
                LintProblem(
                    refs[0],
                    "local",
                    "error",
                    "duplicate_name",
                    f"the name {name!r} is used by {', '.join(refs)}; names must be unique",
                )
            )
    for info in infos:
        if info.source != "local" and info.name in local_names:
            problems.append(
                LintProblem(
                    info.ref,
                    info.source,
                    "warning",
                    "shadowed",
                    f"hidden by the local skill {local_names[info.name][0]!r}",
                )
            )
            continue
        problems.extend(_lint_one(store, info))
    order = {"error": 0, "warning": 1}
    return sorted(problems, key=lambda p: (order[p.severity], p.source != "local", p.skill))


def _lint_one(store: SkillStore, info: SkillInfo) -> list[LintProblem]:
    out: list[LintProblem] = []

    def add(severity: str, code: str, message: str, file: str | None = SKILL_FILE) -> None:
        out.append(LintProblem(info.ref, info.source, severity, code, message, file))

    if info.error:
        add("error", "invalid_skill", info.error)
        return out
    try:
        doc = store.read_info(info)
    except MnemicError as exc:
        add("error", "unreadable", exc.to_llm())
        return out
    fm = info.front
    assert fm is not None  # no error means the front matter parsed
    settings = store.settings
    if not is_valid_name(info.name):
        add(
            "warning",
            "name_style",
            "mnemic writes names of lowercase letters, digits and single hyphens only",
            None,
        )
    if fm.name != info.name:
        add("error", "name_mismatch", f"front matter name {fm.name!r} != directory {info.name!r}")
    if fm.category is not None and fm.category != info.category:
        add(
            "error",
            "category_mismatch",
            f"front matter category {fm.category!r} != directory category {info.category!r}",
        )
    unknown = sorted(k for k in fm.extra if k not in KNOWN_KEYS)
    if unknown:
        add("warning", "unknown_field", f"unknown front matter field(s): {', '.join(unknown)}")
    parts = split_front_matter(doc.text)
    body = parts[1] if parts else ""
    if not body.strip():
        add("error", "empty_body", "the body after the front matter is empty")
    if len(doc.text) > settings.max_skill_chars:
        add(
            "error",
            "too_large",
            f"{len(doc.text):,} chars; the limit is {settings.max_skill_chars:,}",
        )
    _text_checks(add, doc.text, SKILL_FILE, store.scan_level)
    _lint_files(store, info, doc, add)
    for ref in _references(body):
        if not os.path.isfile(os.path.join(info.path, *ref.split("/"))):
            add("error", "broken_reference", f"SKILL.md refers to {ref}, which does not exist")
    return out


def _text_checks(add: Any, text: str, file: str, level: str | None) -> None:
    """What every text file of a skill is checked for: threats (at ``level``), control
    characters."""
    found = threat_findings(text, level)
    if found:
        ids = ", ".join(f"{pid} ({cat})" for pid, cat in found)
        add("error", "threat", f"threat pattern(s): {ids}", file)
    bad = first_control(text)
    if bad is not None:
        line = text[: text.index(bad)].count("\n") + 1
        add(
            "warning",
            "control_character",
            f"line {line} holds the control character U+{ord(bad):04X}; the model and "
            "`skills show` get U+FFFD in its place",
            file,
        )


def _lint_files(store: SkillStore, info: SkillInfo, doc: SkillDoc, add: Any) -> None:
    settings = store.settings
    for name in doc.stray:
        add(
            "warning",
            "stray_file",
            f"{name} is outside {', '.join(d + '/' for d in SUPPORT_DIRS)}",
            name,
        )
    real = [f for f in doc.files if not f.symlink]
    if len(real) > settings.max_files:
        add(
            "warning",
            "many_files",
            f"{len(real)} supporting files; skill_manage accepts up to {settings.max_files}",
            None,
        )
    for f in doc.files:
        if f.symlink:
            add("error", "symlink", "a symlink; skills must hold regular files only", f.path)
            continue
        if f.size > settings.max_file_bytes:
            add(
                "error",
                "file_too_large",
                f"{f.size:,} bytes; the limit is {settings.max_file_bytes:,}",
                f.path,
            )
            continue
        try:
            data = store.read_file(info, f.path)
        except MnemicError as exc:
            add("error", "unreadable", exc.to_llm(), f.path)
            continue
        if isinstance(data, str):
            _text_checks(add, data, f.path, store.scan_level)


def _references(body: str) -> list[str]:
    """Supporting-file paths the body mentions (plain paths and relative links)."""
    found: set[str] = set()
    for m in _REF_RE.finditer(body):
        found.add(m.group(1).rstrip(".,:;!?"))
    for m in _LINK_RE.finditer(body):
        target = m.group(1).split("#", 1)[0]
        if not target or ":" in target or target.startswith(("/", "#")):
            continue
        target = target.removeprefix("./")
        if target.split("/", 1)[0] in SUPPORT_DIRS or "/" not in target:
            found.add(target.rstrip(".,:;!?"))
    return sorted(r for r in found if r and not r.endswith("/") and ".." not in r.split("/"))
