"""Skill writes behind the approval gate: policy per actor, staging pinned to the
reviewed files, approval through the store's normal path, audit records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnemic.governance import AuditJournal
from mnemic.ops import PendingQueue
from mnemic.skills.governed import GovernedSkills

SKILL = "---\nname: deploy-docs\ndescription: Build and publish the docs site.\n---\n1. make docs\n"


def configure(home: Path, **approval: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    lines = ["[approval]", *(f'{k} = "{v}"' for k, v in approval.items())]
    (home / "config.toml").write_text("\n".join(lines) + "\n")


def skills(home: Path, actor: str) -> GovernedSkills:
    origin = {"foreground": "cli", "background": "review", "mcp": "mcp:ide"}[actor]
    return GovernedSkills.open(home, actor=actor, origin=origin)


def create(home: Path, actor: str = "foreground") -> dict[str, Any]:
    return skills(home, actor).tool(
        "skill_manage", {"action": "create", "name": "deploy-docs", "content": SKILL}
    )


def skill_md(home: Path) -> str:
    return (home / "skills" / "deploy-docs" / "SKILL.md").read_text()


def audit(home: Path) -> list[dict[str, Any]]:
    return list(AuditJournal(home / "audit").records())


def test_foreground_allow_applies_and_is_audited(home_path: Path) -> None:
    resp = create(home_path)
    assert resp["success"] is True and "staged" not in resp
    rec = audit(home_path)[-1]
    assert (rec["subsystem"], rec["action"], rec["result"]) == ("skills", "create", "ok")
    assert rec["before"] == {"deploy-docs/SKILL.md": None}
    assert rec["after"]["deploy-docs/SKILL.md"]


def test_background_default_stages_and_approval_applies(home_path: Path) -> None:
    resp = create(home_path, "background")  # skills_background defaults to stage
    assert resp["staged"] is True and resp["saved"] is False and "NOT saved" in resp["message"]
    assert not (home_path / "skills" / "deploy-docs").exists()
    queue = PendingQueue.open(home_path)
    [record] = queue.records()
    assert record.subsystem == "skills" and record.summary.startswith("create deploy-docs")
    assert "+1. make docs" in queue.diff(record.id)
    [outcome] = queue.approve(record.id)
    assert outcome.ok, outcome
    assert skill_md(home_path) == SKILL
    last = audit(home_path)[-1]
    assert (last["action"], last["decision"], last["result"]) == ("approve", "approved", "ok")
    assert last["requested_by"]["actor"] == "background"


def test_unattended_allow_still_stages_destructive_changes(home_path: Path) -> None:
    configure(home_path, skills_background="allow")
    assert create(home_path, "background")["success"] is True  # additive: applied
    gs = skills(home_path, "background")
    resp = gs.tool("skill_manage", {"action": "delete", "name": "deploy-docs"})
    assert resp["staged"] is True
    resp = gs.tool(
        "skill_manage",
        {"action": "patch", "name": "deploy-docs", "old_string": "make docs", "new_string": "x"},
    )
    assert resp["staged"] is True
    resp = gs.tool(
        "skill_manage",
        {
            "action": "write_file",
            "name": "deploy-docs",
            "file_path": "references/notes.md",
            "file_content": "notes",
        },
    )
    assert resp["success"] is True and "staged" not in resp  # a new file: additive
    assert skill_md(home_path) == SKILL


@pytest.mark.parametrize("policy", ["block", "stage"])
def test_mcp_policies(home_path: Path, policy: str) -> None:
    configure(home_path, skills_mcp=policy)
    resp = create(home_path, "mcp")
    if policy == "block":
        assert resp["success"] is False and resp["error_code"] == "write_blocked"
    else:
        assert resp["staged"] is True
    assert not (home_path / "skills" / "deploy-docs").exists()


def test_staging_validates_against_the_current_state(home_path: Path) -> None:
    configure(home_path, skills_foreground="stage")
    resp = skills(home_path, "foreground").tool(
        "skill_manage",
        {"action": "patch", "name": "no-such-skill", "old_string": "a", "new_string": "b"},
    )
    assert resp["success"] is False and resp["error_code"] == "skill_not_found"
    assert PendingQueue.open(home_path).records() == []
    assert audit(home_path)[-1]["error"] == "skill_not_found"


def test_approval_after_the_skill_changed_fails_cleanly(home_path: Path) -> None:
    create(home_path)
    configure(home_path, skills_background="stage")
    resp = skills(home_path, "background").tool(
        "skill_manage",
        {"action": "patch", "name": "deploy-docs", "old_string": "make docs", "new_string": "x"},
    )
    pid = resp["pending_id"]
    path = home_path / "skills" / "deploy-docs" / "SKILL.md"
    path.write_text(SKILL + "2. check the site\n")  # a person edits it meanwhile
    queue = PendingQueue.open(home_path)
    assert queue.changed_since_staged(queue.get(pid))
    [outcome] = queue.approve(pid)
    assert not outcome.ok and outcome.error_code == "skill_changed"
    assert path.read_text() == SKILL + "2. check the site\n"
    assert [r.id for r in queue.records()] == [pid]


def test_cli_tool_goes_through_the_gate(home_path: Path) -> None:
    from mnemic.cli.tool import cli_tools
    from mnemic.home import Home

    configure(home_path, skills_foreground="stage")
    tools = cli_tools(Home.open(home_path), [])
    resp = tools.dispatch(
        "skill_manage", {"action": "create", "name": "deploy-docs", "content": SKILL}
    )
    assert resp["staged"] is True


def test_manual_skill_writes_are_audited(home_path: Path) -> None:
    from mnemic.skills import SkillChange

    configure(home_path, skills_foreground="block")  # a person's own edit is not gated
    gs = skills(home_path, "foreground")
    gs.apply_manual(SkillChange("create", "deploy-docs", {"content": SKILL}))
    gs.apply_manual(SkillChange("delete", "deploy-docs"))
    recs = audit(home_path)[-2:]
    assert [(r["action"], r["decision"], r["result"]) for r in recs] == [
        ("create", "manual", "ok"),
        ("delete", "manual", "ok"),
    ]
    assert recs[1]["after"] == {"deploy-docs/SKILL.md": None}
