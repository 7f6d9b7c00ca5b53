"""What a skill is: names, categories, supporting-file paths and SKILL.md front matter.

Pure functions, no file access. A ``SKILL.md`` is YAML front matter between a leading
``---`` line and the next ``---`` line, then a markdown body (the agentskills.io format)::

    ---
    name: git-bisect
    description: Find the commit that broke a test with git bisect run.
    version: 1.0.0
    tags: [git, debugging]
    category: dev
    platforms: [linux, macos]
    ---
    # Git bisect
    1. ...

Two strictness levels apply. Everything written through mnemic must pass
:func:`validate_skill_md` (name rule, required fields, types, lengths, a body). Skills
placed by hand or found in external directories are read leniently
(:func:`read_front_matter`): a parse problem makes that one skill unusable, never the
listing.
"""

from __future__ import annotations

import datetime
import os
import re
from dataclasses import dataclass, field
from typing import Any

from ..control_chars import first_control
from ..errors import SkillInvalid, SkillPathRefused, SkillTooLarge
from ..scan import MAX_SCAN_CHARS, scan_text

__all__ = [
    "KNOWN_KEYS",
    "MAX_COMPATIBILITY",
    "MAX_DESCRIPTION",
    "MAX_FRONT_MATTER",
    "MAX_NAME",
    "MAX_TAGS",
    "PLATFORMS",
    "SKILL_FILE",
    "SUPPORT_DIRS",
    "FrontMatter",
    "SkillInfo",
    "check_category",
    "check_name",
    "check_support_path",
    "is_lenient_name",
    "is_valid_name",
    "read_front_matter",
    "render_skill_md",
    "split_front_matter",
    "threat_findings",
    "validate_skill_md",
]

SKILL_FILE = "SKILL.md"
#: The only places supporting files may live, relative to the skill directory.
SUPPORT_DIRS = ("references", "templates", "scripts", "assets")
#: Values accepted in ``platforms`` (compared case-insensitively).
PLATFORMS = ("linux", "macos", "windows")
MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500
MAX_TAGS = 20
MAX_TAG = 64
MAX_VERSION = 64
#: Front matter larger than this (characters, between the fences) is refused on write.
MAX_FRONT_MATTER = 8192
MAX_PATH = 255
MAX_PATH_DEPTH = 6

# agentskills.io: lowercase letters, digits and single hyphens; no leading/trailing hyphen.
_NAME_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# Read side: what other tools write (dots and underscores, hyphen runs).
_LENIENT_RE = re.compile(r"[a-z0-9][a-z0-9._-]*")
_PATH_PART_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._ -]*")
_FIELD_KEYS = frozenset(
    {
        "name",
        "description",
        "version",
        "tags",
        "category",
        "platforms",
        "license",
        "compatibility",
    }
)
#: Front matter keys mnemic knows (others are kept, and reported by lint as a warning).
KNOWN_KEYS = _FIELD_KEYS | {"metadata", "allowed-tools"}

_EXAMPLE = (
    "---\\nname: my-skill\\ndescription: One sentence saying when to use it.\\n---\\n"
    "# My skill\\n1. First step..."
)


def is_valid_name(name: str) -> bool:
    """True for a name mnemic writes: lowercase letters, digits, single hyphens, <= 64."""
    return len(name) <= MAX_NAME and _NAME_RE.fullmatch(name) is not None


def is_lenient_name(name: str) -> bool:
    """True for a name mnemic reads (also dots, underscores, hyphen runs), <= 64."""
    return len(name) <= MAX_NAME and _LENIENT_RE.fullmatch(name) is not None


def _name_problem(name: str, what: str) -> str:
    if not name:
        return f"the {what} is empty."
    if len(name) > MAX_NAME:
        return f"the {what} has {len(name)} characters; the limit is {MAX_NAME}."
    return (
        f"{what} {name[:80]!r} is not allowed: use lowercase letters, digits and single "
        "hyphens, not starting or ending with a hyphen (e.g. 'deploy-docs')."
    )


def check_name(name: Any, field: str = "name") -> str:
    """Return ``name`` if it is a valid skill name to write, else raise :class:`SkillInvalid`."""
    if not isinstance(name, str):
        raise SkillInvalid(field, f"expected a string, got {type(name).__name__}.")
    if not is_valid_name(name):
        raise SkillInvalid(field, _name_problem(name, "name"))
    return name


def check_category(category: Any, field: str = "category") -> str:
    """Return a valid category (one path segment, same rule as names) or raise."""
    if not isinstance(category, str):
        raise SkillInvalid(field, f"expected a string, got {type(category).__name__}.")
    if not is_valid_name(category):
        raise SkillInvalid(
            field,
            _name_problem(category, "category")
            + " A category is a single directory name: no '/', '\\\\' or '..'.",
        )
    return category


def check_support_path(path: Any, field: str = "file_path") -> str:
    """Validate a supporting-file path and return it normalised (``/``-separated).

    Accepted: a relative path whose first part is one of :data:`SUPPORT_DIRS`, with at
    least one more part, each part a plain file or directory name. Refused with
    :class:`SkillPathRefused`: absolute paths, ``..`` or ``.`` parts, backslashes,
    empty parts, hidden (dot) names, control characters, too long or too deep.
    """
    if not isinstance(path, str):
        raise SkillInvalid(field, f"expected a string, got {type(path).__name__}.")
    if not path:
        raise SkillPathRefused(path, "the path is empty")
    if len(path) > MAX_PATH:
        raise SkillPathRefused(path, f"the path is longer than {MAX_PATH} characters")
    if "\\" in path:
        raise SkillPathRefused(path, "backslashes are not allowed")
    if path.startswith("/") or (len(path) > 1 and path[1] == ":"):
        raise SkillPathRefused(path, "absolute paths are not allowed")
    parts = path.split("/")
    if any(p in ("..", ".") for p in parts):
        raise SkillPathRefused(path, "'..' and '.' are not allowed")
    if any(p == "" for p in parts):
        raise SkillPathRefused(path, "empty path parts ('//' or a trailing '/') are not allowed")
    if parts[0] not in SUPPORT_DIRS:
        raise SkillPathRefused(
            path,
            f"supporting files must be under {', '.join(d + '/' for d in SUPPORT_DIRS)}",
        )
    if len(parts) < 2:
        raise SkillPathRefused(path, "name a file inside the directory, not the directory")
    if len(parts) > MAX_PATH_DEPTH:
        raise SkillPathRefused(path, f"more than {MAX_PATH_DEPTH} levels deep")
    for part in parts[1:]:
        if part.startswith("."):
            raise SkillPathRefused(path, "hidden (dot) names are not allowed")
        if not _PATH_PART_RE.fullmatch(part) or part.endswith(" "):
            raise SkillPathRefused(
                path, f"{part!r} is not a plain name (letters, digits, '.', '_', '-', space)"
            )
    return path


@dataclass(frozen=True, slots=True)
class FrontMatter:
    """The parsed front matter of one SKILL.md (values normalised, unknown keys kept)."""

    name: str
    description: str
    version: str | None = None
    tags: tuple[str, ...] = ()
    category: str | None = None
    platforms: tuple[str, ...] = ()
    license: str | None = None
    compatibility: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Keys other than the ones above (``metadata``, ``allowed-tools``, unknown keys)."""

    def runs_on(self, platform: str) -> bool:
        """True when the skill applies to ``platform`` (no ``platforms`` = everywhere)."""
        return not self.platforms or platform in self.platforms


def split_front_matter(text: str) -> tuple[str, str] | None:
    """Split SKILL.md text into (front matter YAML, body); ``None`` without front matter."""
    if text.startswith("\ufeff"):
        text = text[1:]
    first, sep, rest = text.partition("\n")
    if first.rstrip("\r").rstrip() != "---" or not sep:
        return None
    pos = 0
    while True:
        end = rest.find("\n", pos)
        line = rest[pos:] if end < 0 else rest[pos:end]
        if line.rstrip("\r").rstrip() == "---":
            return rest[:pos], ("" if end < 0 else rest[end + 1 :])
        if end < 0:
            return None
        pos = end + 1


def _load_yaml(text: str) -> Any:
    # Here, not at the top: every tool set (mcp, chat, `mnemic tool`) imports this module,
    # and PyYAML (tens of milliseconds) is only needed once a skill is read or written.
    import yaml

    try:
        # The C loader (libyaml) when PyYAML has it: same safe subset, ~10x faster.
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or type(exc).__name__
        raise SkillInvalid("front matter", f"the YAML does not parse{where}: {problem}.") from exc


def _check_text_field(value: Any, field: str) -> None:
    """Refuse a field YAML read as something other than text (``description: 2026-01-01``
    is a date, ``[a, b]`` a list), saying so: "needs a non-empty field" misled a writer
    whose field is there."""
    if value is None or isinstance(value, str):
        return
    if isinstance(value, bool):
        kind = "true or false"
    elif isinstance(value, int | float):
        kind = "a number"
    elif isinstance(value, datetime.date):
        kind = "a date"
    elif isinstance(value, list):
        kind = "a list"
    elif isinstance(value, dict):
        kind = "a mapping"
    else:
        kind = f"a YAML {type(value).__name__}"
    raise SkillInvalid(
        field,
        f"YAML reads the '{field}' field as {kind}, not text: put its value in quotes "
        f'({field}: "...").',
    )


def _scalar_text(value: Any, field: str, limit: int) -> str:
    """A string field; numbers and dates (``version: 1.0``, unquoted YAML) become text."""
    if isinstance(value, bool) or not isinstance(value, str | int | float | datetime.date):
        raise SkillInvalid(field, f"expected a string, got {type(value).__name__}.")
    text = str(value).strip()
    if len(text) > limit:
        raise SkillInvalid(field, f"{len(text)} characters; the limit is {limit}.")
    return _check_controls(text, field)


def _check_controls(text: str, field: str) -> str:
    """``text`` if it holds no control character (these fields are printed by the CLI: a
    skill from elsewhere must not send escape sequences to the terminal)."""
    bad = first_control(text)
    if bad is not None:
        raise SkillInvalid(field, f"it holds the control character U+{ord(bad):04X}; remove it.")
    return text


def _str_list(value: Any, field: str, *, lower: bool = False) -> tuple[str, ...]:
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        raise SkillInvalid(field, f"expected a list of strings, got {type(value).__name__}.")
    out: list[str] = []
    for item in items:
        if not isinstance(item, str) or not item.strip():
            raise SkillInvalid(field, "every item must be a non-empty string.")
        if len(item) > MAX_TAG:
            raise SkillInvalid(field, f"item {item[:40]!r}... is longer than {MAX_TAG} chars.")
        text = _check_controls(item.strip().lower() if lower else item.strip(), field)
        if text not in out:
            out.append(text)
    return tuple(out)


def _front_matter(data: Any) -> FrontMatter:
    if not isinstance(data, dict):
        raise SkillInvalid(
            "front matter",
            f"expected a YAML mapping of fields, got {type(data).__name__}. Example: {_EXAMPLE}",
        )
    name = data.get("name")
    _check_text_field(name, "name")
    if not isinstance(name, str) or not name.strip():
        raise SkillInvalid("name", "the front matter needs a non-empty 'name' field.")
    desc = data.get("description")
    _check_text_field(desc, "description")
    if not isinstance(desc, str) or not desc.strip():
        raise SkillInvalid(
            "description",
            "the front matter needs a non-empty 'description' field (one or two sentences "
            "saying what the skill does and when to use it).",
        )
    description = _check_controls(" ".join(desc.split()), "description")
    if len(description) > MAX_DESCRIPTION:
        raise SkillInvalid(
            "description", f"{len(description)} characters; the limit is {MAX_DESCRIPTION}."
        )
    version = data.get("version")
    category = data.get("category")
    platforms = _str_list(data.get("platforms"), "platforms", lower=True)
    bad = [p for p in platforms if p not in PLATFORMS]
    if bad:
        raise SkillInvalid(
            "platforms", f"unknown platform {bad[0]!r}; use any of {', '.join(PLATFORMS)}."
        )
    tags = _str_list(data.get("tags"), "tags")
    if len(tags) > MAX_TAGS:
        raise SkillInvalid("tags", f"{len(tags)} tags; the limit is {MAX_TAGS}.")
    lic = data.get("license")
    compat = data.get("compatibility")
    return FrontMatter(
        name=name.strip(),
        description=description,
        version=None if version is None else _scalar_text(version, "version", MAX_VERSION),
        tags=tags,
        category=None if category is None else check_category(category),
        platforms=platforms,
        license=None if lic is None else _scalar_text(lic, "license", MAX_VERSION * 4),
        compatibility=(
            None if compat is None else _scalar_text(compat, "compatibility", MAX_COMPATIBILITY)
        ),
        extra={str(k): v for k, v in data.items() if k not in _FIELD_KEYS},
    )


def read_front_matter(text: str) -> tuple[FrontMatter, str]:
    """Parse SKILL.md text leniently; return (front matter, body).

    Raises :class:`SkillInvalid` when there is no front matter, the YAML does not parse,
    or a field has the wrong type or size. The name rule and the body are not checked
    here (see :func:`validate_skill_md`).
    """
    parts = split_front_matter(text)
    if parts is None:
        raise SkillInvalid(
            "SKILL.md",
            "it must start with YAML front matter between two '---' lines. Example: " + _EXAMPLE,
        )
    raw, body = parts
    return _front_matter(_load_yaml(raw)), body


def validate_skill_md(text: str, *, name: str, category: str | None, max_chars: int) -> FrontMatter:
    """Check SKILL.md text about to be written for skill ``name`` in ``category``.

    Checks the size, the front matter (required fields, types, lengths), that ``name``
    equals the directory name, that a ``category`` field (if any) equals the directory's
    category, and that the body is not empty. Raises :class:`SkillInvalid` or
    :class:`~mnemic.errors.SkillTooLarge`.
    """

    if not isinstance(text, str):
        raise SkillInvalid("content", f"expected a string, got {type(text).__name__}.")
    if len(text) > max_chars:
        raise SkillTooLarge("SKILL.md", len(text), max_chars)
    if "\x00" in text:
        raise SkillInvalid("content", "it contains a NUL character.")
    parts = split_front_matter(text)
    if parts is not None and len(parts[0]) > MAX_FRONT_MATTER:
        raise SkillInvalid(
            "front matter", f"{len(parts[0]):,} characters; the limit is {MAX_FRONT_MATTER:,}."
        )
    fm, body = read_front_matter(text)
    if fm.name != name:
        raise SkillInvalid(
            "name",
            f"the front matter says name: {fm.name[:80]!r} but the skill is {name!r}; they "
            "must be equal (the name is the directory name). To rename a skill, create the "
            "new one and delete the old one.",
        )
    if fm.category is not None and fm.category != category:
        where = f"in category {category!r}" if category else "not in a category"
        raise SkillInvalid(
            "category",
            f"the front matter says category: {fm.category!r} but the skill is {where}. "
            "Make them equal or drop the field (a skill cannot move between categories by "
            "editing).",
        )
    if not body.strip():
        raise SkillInvalid(
            "body",
            "the body after the front matter is empty. Write the procedure: when to use it, "
            "numbered steps with exact commands, pitfalls, and how to verify the result.",
        )
    return fm


def render_skill_md(
    name: str,
    description: str,
    body: str,
    *,
    category: str | None = None,
    version: str | None = None,
    tags: tuple[str, ...] | list[str] = (),
    platforms: tuple[str, ...] | list[str] = (),
) -> str:
    """Compose SKILL.md text from fields and a markdown body (front matter as YAML)."""
    import yaml

    data: dict[str, Any] = {"name": name, "description": description}
    if version:
        data["version"] = version
    if category:
        data["category"] = category
    if tags:
        data["tags"] = list(tags)
    if platforms:
        data["platforms"] = list(platforms)
    head = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{head}---\n{body.lstrip(chr(10))}"


_SCAN_OVERLAP = 4096


def threat_findings(text: str, level: str | None = None) -> tuple[tuple[str, str], ...]:
    """Threat-scan skill text (the skill scope, at ``level``: the home's ``[scan] level``,
    default the scanner's); return ``(pattern id, category)`` pairs.

    Text longer than the scanner's cap is scanned in overlapping windows, so a long
    reference file is read in full rather than reported as oversize.
    """

    if len(text) <= MAX_SCAN_CHARS:
        return tuple((f.id, f.category) for f in scan_text(text, "skill", level).findings)
    seen: dict[str, str] = {}
    step = MAX_SCAN_CHARS - _SCAN_OVERLAP
    for start in range(0, len(text), step):
        for f in scan_text(text[start : start + MAX_SCAN_CHARS], "skill", level).findings:
            if f.category != "oversize":
                seen.setdefault(f.id, f.category)
        if start + MAX_SCAN_CHARS >= len(text):
            break
    return tuple(seen.items())


@dataclass(frozen=True, slots=True)
class SkillInfo:
    """One skill found on disk, as listed (front matter only; the body is not kept).

    ``error`` says why the skill cannot be used (unreadable file, bad front matter);
    ``findings`` are threat-pattern ids found in its name or description. Either keeps it
    out of the index and out of ``skills_list``; ``mnemic skills lint`` reports both.
    """

    name: str
    category: str | None
    path: str
    """Absolute path of the skill directory."""
    source: str
    """``"local"`` for the home's skills, else the external root it came from."""
    front: FrontMatter | None = None
    error: str | None = None
    findings: tuple[str, ...] = ()

    @property
    def ref(self) -> str:
        """``category/name`` or ``name``: the path that designates the skill uniquely."""
        return f"{self.category}/{self.name}" if self.category else self.name

    @property
    def description(self) -> str:
        """The front matter description ('' when unreadable)."""
        return self.front.description if self.front else ""

    @property
    def readonly(self) -> bool:
        """True for skills from external directories."""
        return self.source != "local"

    @property
    def usable(self) -> bool:
        """True when the skill can be listed, indexed and viewed."""
        return self.error is None and not self.findings and self.front is not None

    @property
    def skill_md(self) -> str:
        """Absolute path of the SKILL.md file."""
        return os.path.join(self.path, SKILL_FILE)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-able summary."""
        fm = self.front
        out: dict[str, Any] = {
            "name": self.name,
            "category": self.category,
            "description": self.description,
            "source": self.source,
        }
        if fm is not None:
            if fm.version:
                out["version"] = fm.version
            if fm.tags:
                out["tags"] = list(fm.tags)
            if fm.platforms:
                out["platforms"] = list(fm.platforms)
        if self.error:
            out["error"] = self.error
        if self.findings:
            out["findings"] = list(self.findings)
        return out
