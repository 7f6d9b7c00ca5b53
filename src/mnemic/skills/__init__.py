"""Skills: procedural memory under ``<home>/skills/[category/]name/SKILL.md``.

Start with :class:`SkillStore` (``SkillStore.open(home)``): it lists, reads and writes
skills. Writes are :class:`SkillChange` objects (validate, prepare, apply) so that an
approval step can sit between the request and the write. :func:`skills_index` renders
the budgeted index for the system prompt; :func:`run_skill_tool` runs the
``skills_list`` / ``skill_view`` / ``skill_manage`` tool calls.
"""

from __future__ import annotations

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

__all__ = [
    "ACTIONS",
    "ChangeResult",
    "FrontMatter",
    "LintProblem",
    "PreparedChange",
    "SKILLS_LIST_TOOL",
    "SKILL_MANAGE_TOOL",
    "SKILL_TOOL_NAMES",
    "SKILL_VIEW_TOOL",
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
