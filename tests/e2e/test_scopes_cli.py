"""Project memory as a user runs it: ``mnemic`` from inside a project directory
(``--project .``; in this process, in that directory: :func:`run_here`), then Claude Code's
hook, in a process of its own, with that directory as its ``cwd``."""

from __future__ import annotations

import json
from pathlib import Path

from . import prepare, run_here, run_mnemic

HEADER = "PROJECT MEMORY (notes for this project only)"


def _hook(home: Path, cwd: Path) -> str:
    event = {"hook_event_name": "SessionStart", "session_id": "s1", "cwd": str(cwd)}
    result = run_mnemic(home, "hook", "claude-code", stdin=json.dumps(event))
    assert result.returncode == 0, result.stderr
    if not result.stdout:
        return ""
    context: str = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    return context


def test_a_project_opted_in_from_its_directory_reaches_the_hook(
    home_path: Path, tmp_path: Path
) -> None:
    repo, other = tmp_path / "repo", tmp_path / "other"
    (repo / "src").mkdir(parents=True)
    other.mkdir()
    prepare(home_path, "memory", "add", "Prefers uv over pip.")
    assert HEADER not in _hook(home_path, repo / "src")  # not opted in: global only

    made = run_here(home_path, "init", "--project", ".", cwd=repo)
    assert made.returncode == 0 and "was created" in made.stdout
    added = run_here(home_path, "memory", "add", "--project", ".", "Run ./x test.", cwd=repo)
    assert added.returncode == 0 and "/1,500 chars" in added.stdout

    context = _hook(home_path, repo / "src")
    assert context.index("Prefers uv over pip.") < context.index(HEADER)
    assert context.endswith("Run ./x test.")
    shown = run_here(home_path, "prompt", "--memory-only", "--project", str(repo))
    assert shown.stdout.rstrip("\n") == context  # what the hook pastes, byte for byte
    assert "Run ./x test." not in _hook(home_path, other)

    user = run_here(home_path, "memory", "add", "-t", "user", "Name is Ada.", cwd=repo,
                    env={"MNEMIC_PROJECT": "."})  # fmt: skip
    assert user.returncode == 1 and "USER.md is global only" in user.stderr
    missing = run_here(home_path, "memory", "show", "--project", str(tmp_path / "nope"))
    assert missing.returncode == 1 and "does not exist or is not a directory" in missing.stderr
