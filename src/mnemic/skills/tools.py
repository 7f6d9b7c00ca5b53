"""The skill tools: ``skills_list``, ``skill_view`` and ``skill_manage``.

:func:`skill_call` takes one tool call (tool name and raw JSON arguments) and returns the
JSON response of a success; a refusal is raised, and becomes ``success: false`` with a
message that says what to do next in the envelope every tool shares
(:func:`~mnemic.tooling.tool_response`, run by the tool registry's dispatch).
:func:`run_skill_tool` is the same call through that envelope: it never raises.

``skill_manage`` builds a :class:`~mnemic.skills.changes.SkillChange` from the
arguments. With a ``gate`` (an approval policy), the change is first prepared and passed
to the gate, which may answer in place of the write (for example "staged for review");
when the gate returns ``None`` the change is applied.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..control_chars import without_controls
from ..errors import InvalidArgument, SkillUnsafe
from ..tooling import (
    ToolSpec,
    json_kind,
    json_shown,
    no_good_match_message,
    parse_arguments,
    tool_response,
)
from .changes import ACTIONS, ChangeResult, PreparedChange, SkillChange
from .model import SKILL_FILE, threat_findings
from .search import SkillHit, TextRanker, rank_skills
from .store import SkillInfo, SkillStore

__all__ = [
    "SKILLS_LIST_TOOL",
    "SKILL_MANAGE_TOOL",
    "SKILL_TOOL_NAMES",
    "SKILL_VIEW_TOOL",
    "SkillGate",
    "change_from_arguments",
    "run_skill_tool",
    "skill_call",
    "skill_tool_specs",
]

SkillGate = Callable[[SkillChange, PreparedChange], "dict[str, Any] | None"]
"""An approval hook: return a response to stop the write there (staged for review), raise
to refuse it, or return ``None`` to apply."""

#: Upper bound on one ``skills_list`` response, in characters of JSON-ish text.
LIST_CHARS = 12_000
LIST_DESCRIPTION = 200
_NONE = "(none)"
MAX_FILES_SHOWN = 200
#: Skills a ``skills_list`` call with a ranked ``query`` returns at most.
QUERY_LIMIT = 5

SKILLS_LIST_TOOL = ToolSpec(
    name="skills_list",
    description=(
        "List your saved skills (step-by-step procedures from earlier work) with their "
        "descriptions and categories. The skills index in your system prompt may show only "
        "names or category counts; call this to see descriptions, to list one category, or, "
        "when no name fits the task, to find skills with query: ranked by words and meaning, "
        "best first. Then load the skill you need with skill_view. "
        'Example: {"query": "make my charts look nicer"}'
    ),
    parameters={
        "type": "object",
        "properties": {
            "category": {
                "type": "string",
                "description": (
                    "Only skills of this category (as in the index; '(none)' for skills "
                    "without one)."
                ),
            },
            "query": {
                "type": "string",
                "description": (
                    "The task or words to look for, in any language; matched against name, "
                    "description, category and tags. Each result has a score and what "
                    "matched (lexical, semantic); no_good_match: true means no skill is "
                    "close (the one shown is weak)."
                ),
            },
            "mode": {
                "type": "string",
                "enum": ["lexical", "semantic", "hybrid"],
                "description": "With query: words, meaning or both (default: both if available).",
            },
        },
    },
)

SKILL_VIEW_TOOL = ToolSpec(
    name="skill_view",
    description=(
        "Load a skill: returns its SKILL.md (front matter and the procedure) and the list of "
        "its supporting files. Call it before a task that a skill covers, then follow the "
        "procedure. To read one supporting file pass file_path (e.g. "
        '"references/api.md"). Long text comes in pages: when the response has '
        'next_offset, call again with offset set to it. Example: {"name": "deploy-docs"}'
    ),
    parameters={
        "type": "object",
        "properties": {
            "name": {
                "type": "string",
                "description": "Skill name, or category/name when a name is in two categories.",
            },
            "file_path": {
                "type": "string",
                "description": "A supporting file to read instead of SKILL.md.",
            },
            "offset": {
                "type": "integer",
                "minimum": 0,
                "description": "Character offset to continue a long text from (default 0).",
            },
        },
        "required": ["name"],
    },
)

_MANAGE_DESCRIPTION = """\
Save, fix and tidy skills: procedures you or the user will need again. A skill is a \
directory with a SKILL.md (YAML front matter + markdown body) and optional supporting \
files under references/, templates/, scripts/ or assets/.

WHEN: create one after a task that took many steps, a tricky fix, a workflow the user \
corrected, or when the user asks. Patch a skill as soon as you find a step wrong, stale \
or missing. Ask the user before deleting one.

GOOD SKILL: when to use it, numbered steps with exact commands, pitfalls, how to verify.

ACTIONS:
- create: name + content (the whole SKILL.md); optional category (one word-like segment).
- edit: name + content: replaces the whole SKILL.md.
- patch: name + old_string + new_string: replaces old_string, which must occur exactly \
once (or pass replace_all=true); file_path patches a supporting file instead of SKILL.md.
- delete: name: removes the skill and its files.
- write_file: name + file_path + file_content: creates or replaces a supporting file.
- remove_file: name + file_path.

RULES: name = lowercase letters, digits and single hyphens (max 64), equal to the \
front matter name. description is required (max 1024 chars). SKILL.md and files have \
size limits; text is scanned for prompt injection, secrets and exfiltration. A new skill \
appears in the skills index from the next session; skill_view works at once.

Example: {"action": "create", "name": "deploy-docs", "category": "ops", "content": \
"---\\nname: deploy-docs\\ndescription: Build and publish the docs site.\\n---\\n\
# Deploy docs\\n1. Run `make docs`.\\n2. ..."}"""

SKILL_MANAGE_TOOL = ToolSpec(
    name="skill_manage",
    description=_MANAGE_DESCRIPTION,
    parameters={
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": list(ACTIONS)},
            "name": {
                "type": "string",
                "description": "Skill name (or category/name).",
            },
            "content": {
                "type": "string",
                "description": "Whole SKILL.md text (create, edit).",
            },
            "category": {
                "type": "string",
                "description": "Category directory for a new skill (create only).",
            },
            "old_string": {
                "type": "string",
                "description": "Exact text to replace (patch).",
            },
            "new_string": {
                "type": "string",
                "description": "Replacement text (patch; '' deletes old_string).",
            },
            "replace_all": {
                "type": "boolean",
                "description": "Replace every occurrence of old_string (patch; default false).",
            },
            "file_path": {
                "type": "string",
                "description": (
                    "Supporting file, e.g. references/api.md (write_file, remove_file, patch)."
                ),
            },
            "file_content": {
                "type": "string",
                "description": "Full text of the supporting file (write_file).",
            },
        },
        "required": ["action", "name"],
    },
)

#: The tool names, in the order :func:`skill_tool_specs` returns them.
SKILL_TOOL_NAMES = ("skills_list", "skill_view", "skill_manage")
_MANAGE_KEYS = (
    "content",
    "category",
    "old_string",
    "new_string",
    "replace_all",
    "file_path",
    "file_content",
)


def skill_tool_specs(*, manage: bool = True) -> list[ToolSpec]:
    """The skill tool specs; ``manage=False`` leaves out ``skill_manage`` (read-only)."""
    specs = [SKILLS_LIST_TOOL, SKILL_VIEW_TOOL]
    return [*specs, SKILL_MANAGE_TOOL] if manage else specs


def run_skill_tool(
    store: SkillStore,
    tool: str,
    arguments: str | dict[str, Any] | None,
    *,
    gate: SkillGate | None = None,
    ranker: TextRanker | None = None,
) -> dict[str, Any]:
    """Run one call of ``skills_list``, ``skill_view`` or ``skill_manage`` and return its
    JSON response, a refusal's included (never raises: :func:`skill_call` through
    :func:`~mnemic.tooling.tool_response`)."""
    return tool_response(tool, lambda: skill_call(store, tool, arguments, gate=gate, ranker=ranker))


def skill_call(
    store: SkillStore,
    tool: str,
    arguments: str | dict[str, Any] | None,
    *,
    gate: SkillGate | None = None,
    ranker: TextRanker | None = None,
) -> dict[str, Any]:
    """Run one call of ``skills_list``, ``skill_view`` or ``skill_manage``: its success
    response; a refusal is raised (:class:`~mnemic.errors.MnemicError`).

    With a ``ranker`` (mnemic's tools pass :func:`mnemic.ops.text_search.text_ranker`),
    ``skills_list``'s ``query`` ranks the skills by words and meaning
    (:func:`~mnemic.skills.search.rank_skills`); without one it keeps the skills holding
    every word of the query.
    """
    args = parse_arguments(arguments)
    if tool == "skills_list":
        return _list(store, args, ranker)
    if tool == "skill_view":
        return _view(store, args)
    if tool == "skill_manage":
        return _manage(store, args, gate)
    raise InvalidArgument(
        "tool", f"Unknown skill tool {tool!r}; use one of {', '.join(SKILL_TOOL_NAMES)}."
    )


def _check_keys(args: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(k for k in args if k not in allowed)
    if unknown:
        raise InvalidArgument(
            unknown[0], f"Unknown argument(s) {', '.join(unknown)}. Allowed: {', '.join(allowed)}."
        )


def _opt_str(args: dict[str, Any], key: str) -> str | None:
    value = args.get(key)
    if value is None or isinstance(value, str):
        return value
    raise InvalidArgument(key, f"{key} must be a string, got {json_kind(value)}.")


def _list(store: SkillStore, args: dict[str, Any], ranker: TextRanker | None) -> dict[str, Any]:
    _check_keys(args, ("category", "query", "mode"))
    category = _opt_str(args, "category")
    query = _opt_str(args, "query")
    mode = _opt_str(args, "mode")  # only used with a query
    infos = store.skills()
    usable = [i for i in infos if i.usable]
    categories: dict[str, int] = {}
    for i in usable:
        key = i.category or ""
        categories[key] = categories.get(key, 0) + 1
    chosen = usable
    if category is not None:  # "" or "(none)": skills without a category
        wanted = "" if category.strip() == _NONE else category.strip()
        chosen = [i for i in chosen if (i.category or "") == wanted]
    hits: list[SkillHit] | None = None
    found = None
    if query and query.strip() and ranker is not None:
        found = rank_skills(chosen, query, ranker, mode=mode, limit=QUERY_LIMIT)
        hits = found.hits
        chosen = [h.info for h in hits]
    elif query and query.strip():
        words = query.lower().split()
        chosen = [i for i in chosen if all(w in _haystack(i) for w in words)]
    weak = found is not None and found.no_good_match
    rows = [_row(i, None, hits[k] if hits else None, weak) for k, i in enumerate(chosen)]
    size = sum(len(str(r)) for r in rows)
    if size > LIST_CHARS:
        rows = [
            _row(i, LIST_DESCRIPTION, hits[k] if hits else None, weak) for k, i in enumerate(chosen)
        ]
    shown: list[dict[str, Any]] = []
    used = 0
    for r in rows:
        used += len(str(r))
        if used > LIST_CHARS:
            break
        shown.append(r)
    resp: dict[str, Any] = {
        "success": True,
        "count": len(chosen),
        "skills": shown,
        "categories": {k or _NONE: v for k, v in sorted(categories.items())},
    }
    if found is not None:
        resp["retrieval"] = found.retrieval
        if found.strength is not None:
            resp["match"] = found.strength.to_dict()
        if weak:
            resp["no_good_match"] = True
            resp["message"] = no_good_match_message("the skills")
        if found.notice:
            resp["notice"] = found.notice
    if len(shown) < len(chosen):
        resp["more"] = len(chosen) - len(shown)
        resp["hint"] = f"{resp['more']} more skills match; narrow the list with category or query."
    elif not chosen:
        resp["hint"] = (
            "No skill matches. Try fewer or other words, or no filter."
            if usable
            else "No skills are saved yet; create one with skill_manage action='create'."
        )
    elif weak:
        resp["hint"] = "No skill fits: do the task without one, or try other words or a category."
    elif found is not None:
        resp["hint"] = "Best match first. Load the one that fits with skill_view(name)."
    else:
        resp["hint"] = "Load one with skill_view(name) before following it."
    withheld = len(infos) - len(usable)
    if withheld:
        resp["withheld"] = withheld
    return resp


def _haystack(info: SkillInfo) -> str:
    tags = " ".join(info.front.tags) if info.front else ""
    return f"{info.name} {info.category or ''} {info.description} {tags}".lower()


def _row(
    info: SkillInfo, width: int | None, hit: SkillHit | None = None, weak: bool = False
) -> dict[str, Any]:
    desc = info.description
    if width is not None and len(desc) > width:
        desc = desc[: width - 3] + "..."
    row: dict[str, Any] = {"name": info.name, "description": desc}
    if info.category:
        row["category"] = info.category
    if hit is not None:
        row["score"] = round(hit.score, 4)
        row["matched"] = list(hit.matched)
        if weak:
            row["weak"] = True
    return row


def _offset(args: dict[str, Any]) -> int:
    value = args.get("offset", 0)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidArgument("offset", "offset must be a non-negative integer.")
    return value


def _page(resp: dict[str, Any], text: str, offset: int, size: int) -> None:
    if offset > len(text):
        raise InvalidArgument("offset", f"offset {offset} is past the end ({len(text)} chars).")
    # text from elsewhere reaches the model: a control character as U+FFFD (same length,
    # so offsets hold)
    resp["content"] = without_controls(text[offset : offset + size])
    resp["chars"] = len(text)
    if offset:
        resp["offset"] = offset
    if offset + size < len(text):
        resp["next_offset"] = offset + size
        resp["truncated"] = True


def _view(store: SkillStore, args: dict[str, Any]) -> dict[str, Any]:
    _check_keys(args, ("name", "file_path", "offset"))
    name = args.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidArgument("name", 'Give the skill name, e.g. {"name": "deploy-docs"}.')
    offset = _offset(args)
    file_path = _opt_str(args, "file_path")
    size = store.settings.view_chars
    info = store.get(name.strip())
    if file_path and file_path != SKILL_FILE:
        data = store.read_file(info, file_path)
        if data is None:
            files = [f.path for f in store.read_info(info).files if not f.symlink]
            raise InvalidArgument(
                "file_path",
                f"Skill {info.ref!r} has no file {file_path!r}. Its files: "
                f"{', '.join(files[:50]) or 'none'}.",
            )
        resp: dict[str, Any] = {"success": True, "name": info.ref, "file_path": file_path}
        if isinstance(data, bytes):
            resp.update(content=None, binary=True, bytes=len(data))
            resp["note"] = "This is a binary file; its content is not shown."
            return resp
        found = threat_findings(data, store.scan_level)
        if found:
            raise SkillUnsafe(info.ref, file_path, found)
        _page(resp, data, offset, size)
        return resp
    doc = store.read_info(info)
    found = threat_findings(doc.text, store.scan_level)
    if found:
        raise SkillUnsafe(info.ref, SKILL_FILE, found)
    resp = {"success": True, "name": info.name, "skill": info.ref}
    if info.category:
        resp["category"] = info.category
    resp.update({k: v for k, v in info.as_dict().items() if k in ("version", "tags", "platforms")})
    resp["description"] = info.description
    if info.readonly:
        resp["source"] = info.source
        resp["read_only"] = True
    _page(resp, doc.text, offset, size)
    regular = [f for f in doc.files if not f.symlink]
    resp["files"] = [{"path": f.path, "bytes": f.size} for f in regular[:MAX_FILES_SHOWN]]
    if len(regular) > MAX_FILES_SHOWN:
        resp["files_not_shown"] = len(regular) - MAX_FILES_SHOWN
    if info.error:
        resp["warning"] = f"This skill has a problem: {info.error}"
    return resp


def change_from_arguments(args: dict[str, Any]) -> SkillChange:
    """Build the :class:`SkillChange` for ``skill_manage`` arguments (nulls dropped).

    Raises :class:`~mnemic.errors.InvalidArgument` for unknown arguments or a missing
    action or name; everything else is checked by :meth:`SkillChange.validate`.
    """
    _check_keys(args, ("action", "name", *_MANAGE_KEYS))
    action = args.get("action")
    if not isinstance(action, str) or action not in ACTIONS:
        said = "Missing action" if action is None else f"Unknown action {json_shown(action)}"
        raise InvalidArgument("action", f"{said}; use one of {', '.join(ACTIONS)}.")
    name = args.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidArgument("name", 'Give the skill name, e.g. "deploy-docs".')
    payload = {k: args[k] for k in _MANAGE_KEYS if args.get(k) is not None}
    return SkillChange(action, name.strip(), payload)


def _manage(store: SkillStore, args: dict[str, Any], gate: SkillGate | None) -> dict[str, Any]:
    change = change_from_arguments(args)
    if gate is not None:
        prepared = store.prepare(change)
        held = gate(change, prepared)
        if held is not None:
            return held
    return _success(store.apply(change))


def _success(result: ChangeResult) -> dict[str, Any]:
    resp: dict[str, Any] = {"success": True, "done": True, **result.as_dict()}
    if result.action == "create":
        resp["note"] = (
            "Saved. skill_view works now; the skills index in the system prompt shows it from "
            "the next session. Add supporting files with action='write_file' if needed."
        )
    elif result.action == "delete":
        resp["note"] = "Deleted. This is complete; do not repeat it."
    else:
        resp["note"] = "Saved. This change is complete; do not repeat it."
    return resp
