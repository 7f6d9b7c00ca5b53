"""Skill writes behind the approval gate: policy per actor, staging pinned to the
reviewed files, approval through the store's normal path, audit records; with the queue
and the journal on each storage backend (``backend``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from _backends import Kit
from mnemic.ops import PendingQueue
from mnemic.skills.governed import GovernedSkills

SKILL = "---\nname: deploy-docs\ndescription: Build and publish the docs site.\n---\n1. make docs\n"


def configure(backend: Kit, **approval: str) -> None:
    lines = ["[approval]", *(f'{k} = "{v}"' for k, v in approval.items())]
    backend.write_config("\n".join(lines) + "\n")


def skills(home: Path, actor: str) -> GovernedSkills:
    origin = {"foreground": "cli", "background": "review", "mcp": "mcp:ide"}[actor]
    return GovernedSkills.open(home, actor=actor, origin=origin)


def create(home: Path, actor: str = "foreground") -> dict[str, Any]:
    return skills(home, actor).tool(
        "skill_manage", {"action": "create", "name": "deploy-docs", "content": SKILL}
    )


def skill_md(home: Path) -> str:
    return (home / "skills" / "deploy-docs" / "SKILL.md").read_text()


def audit(backend: Kit) -> list[dict[str, Any]]:
    return list(backend.journal().records())


def test_foreground_allow_applies_and_is_audited(backend: Kit) -> None:
    home = backend.home
    resp = create(home)
    assert resp["success"] is True and "staged" not in resp
    rec = audit(backend)[-1]
    assert (rec["subsystem"], rec["action"], rec["result"]) == ("skills", "create", "ok")
    assert rec["before"] == {"deploy-docs/SKILL.md": None}
    assert rec["after"]["deploy-docs/SKILL.md"]


def test_background_default_stages_and_approval_applies(backend: Kit) -> None:
    home = backend.home
    resp = create(home, "background")  # skills_background defaults to stage
    assert resp["staged"] is True and resp["saved"] is False and "NOT saved" in resp["message"]
    assert not (home / "skills" / "deploy-docs").exists()
    queue = PendingQueue.open(home)
    [record] = queue.records()
    assert record.subsystem == "skills" and record.summary.startswith("create deploy-docs")
    assert "+1. make docs" in queue.diff(record.id)
    [outcome] = queue.approve(record.id)
    assert outcome.ok, outcome
    assert skill_md(home) == SKILL
    last = audit(backend)[-1]
    assert (last["action"], last["decision"], last["result"]) == ("approve", "approved", "ok")
    assert last["requested_by"]["actor"] == "background"


def test_unattended_allow_still_stages_destructive_changes(backend: Kit) -> None:
    home = backend.home
    configure(backend, skills_background="allow")
    assert create(home, "background")["success"] is True  # additive: applied
    gs = skills(home, "background")
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
    assert skill_md(home) == SKILL


@pytest.mark.parametrize("policy", ["block", "stage"])
def test_mcp_policies(backend: Kit, policy: str) -> None:
    home = backend.home
    configure(backend, skills_mcp=policy)
    resp = create(home, "mcp")
    if policy == "block":
        assert resp["success"] is False and resp["error_code"] == "write_blocked"
    else:
        assert resp["staged"] is True
    assert not (home / "skills" / "deploy-docs").exists()


def test_staging_validates_against_the_current_state(backend: Kit) -> None:
    home = backend.home
    configure(backend, skills_foreground="stage")
    resp = skills(home, "foreground").tool(
        "skill_manage",
        {"action": "patch", "name": "no-such-skill", "old_string": "a", "new_string": "b"},
    )
    assert resp["success"] is False and resp["error_code"] == "skill_not_found"
    assert PendingQueue.open(home).records() == []
    assert audit(backend)[-1]["error"] == "skill_not_found"


def test_approval_after_the_skill_changed_fails_cleanly(backend: Kit) -> None:
    home = backend.home
    create(home)
    configure(backend, skills_background="stage")
    resp = skills(home, "background").tool(
        "skill_manage",
        {"action": "patch", "name": "deploy-docs", "old_string": "make docs", "new_string": "x"},
    )
    pid = resp["pending_id"]
    path = home / "skills" / "deploy-docs" / "SKILL.md"
    path.write_text(SKILL + "2. check the site\n")  # a person edits it meanwhile
    queue = PendingQueue.open(home)
    assert queue.changed_since_staged(queue.get(pid))
    [outcome] = queue.approve(pid)
    assert not outcome.ok and outcome.error_code == "skill_changed"
    assert path.read_text() == SKILL + "2. check the site\n"
    assert [r.id for r in queue.records()] == [pid]


def test_cli_tool_goes_through_the_gate(backend: Kit) -> None:
    home = backend.home
    from mnemic.cli.tool import cli_tools
    from mnemic.home import Home

    configure(backend, skills_foreground="stage")
    tools = cli_tools(Home.open(home), [])
    resp = tools.dispatch(
        "skill_manage", {"action": "create", "name": "deploy-docs", "content": SKILL}
    )
    assert resp["staged"] is True


def test_manual_skill_writes_are_audited(backend: Kit) -> None:
    home = backend.home
    from mnemic.skills import SkillChange

    configure(backend, skills_foreground="block")  # a person's own edit is not gated
    gs = skills(home, "foreground")
    gs.apply_manual(SkillChange("create", "deploy-docs", {"content": SKILL}))
    gs.apply_manual(SkillChange("delete", "deploy-docs"))
    recs = audit(backend)[-2:]
    assert [(r["action"], r["decision"], r["result"]) for r in recs] == [
        ("create", "manual", "ok"),
        ("delete", "manual", "ok"),
    ]
    assert recs[1]["after"] == {"deploy-docs/SKILL.md": None}
