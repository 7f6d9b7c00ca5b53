"""Skills: procedural memory under ``<home>/skills/[category/]name/SKILL.md``.

Start with :class:`SkillStore` (``SkillStore.open(home)``): it lists, reads and writes
skills. Writes are :class:`SkillChange` objects (validate, prepare, apply) so that an
approval step can sit between the request and the write. :func:`skills_index` renders
the budgeted index for the system prompt; :func:`run_skill_tool` runs the
``skills_list`` / ``skill_view`` / ``skill_manage`` tool calls. Names load lazily.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .changes import ACTIONS, ChangeResult, PreparedChange, SkillChange
    from .files import SkillFile
    from .index import SkillsIndex, build_skills_index, render_skills_index, skills_index
    from .lint import LintProblem, lint_skills
    from .model import FrontMatter, read_front_matter, render_skill_md, validate_skill_md
    from .store import SkillDoc, SkillInfo, SkillStore
    from .tools import (
        SKILL_MANAGE_TOOL,
        SKILL_TOOL_NAMES,
        SKILL_VIEW_TOOL,
        SKILLS_LIST_TOOL,
        SkillGate,
        change_from_arguments,
        run_skill_tool,
        skill_tool_specs,
    )

_EXPORTS = {
    "ACTIONS": "changes",
    "ChangeResult": "changes",
    "FrontMatter": "model",
    "LintProblem": "lint",
    "PreparedChange": "changes",
    "SKILLS_LIST_TOOL": "tools",
    "SKILL_MANAGE_TOOL": "tools",
    "SKILL_TOOL_NAMES": "tools",
    "SKILL_VIEW_TOOL": "tools",
    "SkillChange": "changes",
    "SkillDoc": "store",
    "SkillFile": "files",
    "SkillGate": "tools",
    "SkillInfo": "store",
    "SkillStore": "store",
    "SkillsIndex": "index",
    "build_skills_index": "index",
    "change_from_arguments": "tools",
    "lint_skills": "lint",
    "read_front_matter": "model",
    "render_skill_md": "model",
    "render_skills_index": "index",
    "run_skill_tool": "tools",
    "skill_tool_specs": "tools",
    "skills_index": "index",
    "validate_skill_md": "model",
}

__all__ = [
    "ACTIONS",
    "SKILLS_LIST_TOOL",
    "SKILL_MANAGE_TOOL",
    "SKILL_TOOL_NAMES",
    "SKILL_VIEW_TOOL",
    "ChangeResult",
    "FrontMatter",
    "LintProblem",
    "PreparedChange",
    "SkillChange",
    "SkillDoc",
    "SkillFile",
    "SkillGate",
    "SkillInfo",
    "SkillStore",
    "SkillsIndex",
    "build_skills_index",
    "change_from_arguments",
    "lint_skills",
    "read_front_matter",
    "render_skill_md",
    "render_skills_index",
    "run_skill_tool",
    "skill_tool_specs",
    "skills_index",
    "validate_skill_md",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mnemic.skills' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
