"""Hermes's skills folder into the skill store, through the governed skill tool.

Each skill is a ``create`` of its SKILL.md (validated and threat-scanned like any skill
write, behind the approval gate), then a ``write_file`` of each supporting file. A
category nested deeper than mnemic's one level (``a/b/name``) becomes ``a-b``. A skill
of that name that is there already with the same SKILL.md is ``present`` (its missing
supporting files are written); with a different SKILL.md it is a ``conflict`` and left
alone, as is a supporting file that differs: nothing of mnemic's is overwritten. A
create waiting in the approval queue is ``present`` too; its supporting files come with
the next import after it is approved.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import (
    SkillExists,
    SkillInvalid,
    SkillPathRefused,
    SkillThreatBlocked,
    SkillTooLarge,
    ToolError,
)
from ...governance.governor import Governor
from ...skills.changes import SkillChange
from ...skills.governed import GovernedSkills
from .report import PartReport
from .source import HermesHome, HermesSkill

__all__ = ["import_skills"]

_FILE_OUTCOME = {"block": "refused", "ask": "file_staged", "stage": "file_staged"}
"""What a supporting file's write would come to under each approval policy but allow."""


def _classify(exc: ToolError) -> tuple[str, str]:
    if isinstance(exc, SkillThreatBlocked):
        return "blocked", ", ".join(pid for pid, _ in exc.findings)
    if isinstance(exc, SkillInvalid | SkillTooLarge | SkillPathRefused):
        return "rejected", exc.to_human() if hasattr(exc, "to_human") else str(exc)
    if isinstance(exc, SkillExists):
        return "conflict", "a skill of that name is there (in another category)"
    return "refused", exc.code


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _staged_creates(governor: Governor) -> set[str]:
    out: set[str] = set()
    for record in governor.pending("skills").listing().records:
        change = record.payload.get("change")
        if isinstance(change, dict) and change.get("action") == "create":
            out.add(str(change.get("name")))
    return out


def import_skills(governor: Governor, hermes: HermesHome, *, dry_run: bool = False) -> PartReport:
    """Import every skill of the Hermes home (see the module docstring)."""
    found = hermes.skills()
    report = PartReport(str(hermes.root / "skills") if found is not None else None)
    for rel, why in hermes.skipped_dirs:
        report.count("skipped", rel, rel, why)
    if not found:
        return report
    skills = GovernedSkills(governor)
    staged = _staged_creates(governor)
    policy = governor.gate.policy("skills", destructive=False).policy
    for skill in found:
        for rel, why in skill.skipped:
            report.count("skipped", f"{skill.ref}/{rel}", rel, why)
        try:
            created = _skill(skills, skill, report, staged, policy, dry_run)
        except ToolError as exc:
            outcome, why = _classify(exc)
            report.count(outcome, skill.ref, "SKILL.md", why)
            continue
        if created:
            _files(skills, skill, report, policy, dry_run)
    return report


def _skill(
    skills: GovernedSkills,
    skill: HermesSkill,
    report: PartReport,
    staged: set[str],
    policy: str,
    dry_run: bool,
) -> bool:
    """Create the skill (or find it there); whether its supporting files go in now."""
    here = Path(skills.store.root, *([skill.category] if skill.category else []), skill.name)
    current = _read(here / "SKILL.md") if (here / "SKILL.md").is_file() else None
    if current is not None:
        if current == skill.skill_md:
            report.count("present")
            return True
        report.count("conflict", skill.ref, "SKILL.md", "a different skill of that name is there")
        return False
    if skill.ref in staged:
        report.count("present")
        return False
    change = SkillChange("create", skill.ref, {"content": skill.skill_md})
    if dry_run:
        change.validate(skills.store.settings, skills.store.scan_level)
        if policy == "block":
            report.count("refused", skill.ref, "SKILL.md", "approval policy: block")
            return False
        if policy in ("ask", "stage"):
            report.count("staged", skill.ref, "SKILL.md", "waits for approval")
            return False
        report.count("added")
        return True
    resp = skills.call(
        "skill_manage", {"action": "create", "name": skill.ref, "content": skill.skill_md}
    )
    if resp.get("staged"):
        report.count("staged", skill.ref, "SKILL.md", f"pending id {resp.get('pending_id')}")
        return False
    report.count("added")
    return True


def _files(
    skills: GovernedSkills, skill: HermesSkill, report: PartReport, policy: str, dry_run: bool
) -> None:
    here = Path(skills.store.root, *([skill.category] if skill.category else []), skill.name)
    for rel, text in skill.files:
        where = f"{skill.ref}/{rel}"
        if (here / rel).exists():
            if _read(here / rel) == text:
                report.count("file_present")
            else:
                report.count("conflict", where, rel, "a different file is there")
            continue
        args = {"action": "write_file", "name": skill.ref, "file_path": rel, "file_content": text}
        try:
            if dry_run:
                SkillChange(
                    "write_file", skill.ref, {"file_path": rel, "file_content": text}
                ).validate(skills.store.settings, skills.store.scan_level)
                would = _FILE_OUTCOME.get(policy, "file_added")
                report.count(would, where, rel, f"policy {policy}")
                continue
            resp = skills.call("skill_manage", args)
        except ToolError as exc:
            outcome, why = _classify(exc)
            report.count(outcome, where, rel, why)
            continue
        if resp.get("staged"):
            report.count("file_staged", where, rel, f"pending id {resp.get('pending_id')}")
        else:
            report.count("file_added")
