"""`mnemic integrate claude-code` and `mnemic hook claude-code`, end to end: real files in
a temporary HOME (never the real ~/.claude), and the hook run exactly as Claude Code runs
it (the command string from the settings file, through `sh -c`, with the hook's JSON on
stdin), as is the MCP server a project install writes. The install itself and the
commands that read a home back run in this process (:func:`run_here`), but for one
install in a subprocess (``CLAUDE_CONFIG_DIR`` from its environment)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tests.e2e import prepare, run_here, run_mnemic

from mnemic.home import Home
from mnemic.sessions import open_store

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "claude_code_transcript.jsonl"
SESSION = "3f1c2a7e-5b9d-4e61-9a0c-2d8b7f4e1c55"
FIRST_PART = 8  # lines of the fixture written before the first compaction

# A settings file as a user might have it: permissions, env, a model, and hooks of their
# own on the events mnemic uses and on others (shapes from Claude Code's settings docs).
USER_SETTINGS: dict[str, Any] = {
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "model": "opus",
    "permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"]},
    "env": {"FOO": "bar"},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}
        ],
        "SessionStart": [
            {
                "matcher": "startup",
                "hooks": [{"type": "command", "command": "git status --short", "timeout": 5}],
            }
        ],
    },
    "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"},
}
USER_MCP: dict[str, Any] = {
    "mcpServers": {
        "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]}
    }
}


def _env(tmp_path: Path) -> dict[str, str]:
    """A HOME of the test's own, no CLAUDE_CONFIG_DIR."""
    user_home = tmp_path / "user-home"
    user_home.mkdir(exist_ok=True)
    return {"HOME": str(user_home), "CLAUDE_CONFIG_DIR": ""}


def _write(path: Path, value: Any) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(value, indent=4).encode()
    path.write_bytes(data)
    return data


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _install(home: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_here(home, "integrate", "claude-code", *args, env=_env(tmp_path))


def _hook_command(settings: Path, event: str) -> str:
    for group in _load(settings)["hooks"][event]:
        for handler in group["hooks"]:
            if handler["command"].endswith("hook claude-code"):
                return str(handler["command"])
    raise AssertionError(f"no mnemic handler for {event}")


def _run_hook(
    command: str, payload: bytes | dict[str, Any], tmp_path: Path
) -> subprocess.CompletedProcess[bytes]:
    """Run the handler as Claude Code does: `sh -c COMMAND`, JSON on stdin, in an
    environment without MNEMIC_* (the command itself must carry the home)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMIC_")}
    env.update(_env(tmp_path))
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return subprocess.run(
        ["sh", "-c", command], input=data, capture_output=True, env=env, timeout=60
    )


def _tree(root: Path) -> dict[str, bytes]:
    if not root.exists():
        return {}
    files = sorted(p for p in root.rglob("*") if p.is_file())
    return {str(p.relative_to(root)): p.read_bytes() for p in files}


# --- installing ----------------------------------------------------------------------------


def test_install_merges_with_the_users_settings_hooks_and_servers(
    home_path: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    _write(project / ".claude" / "settings.json", USER_SETTINGS)
    _write(project / ".mcp.json", USER_MCP)

    result = _install(home_path, tmp_path, "--project", str(project))
    assert result.returncode == 0, result.stderr

    settings = _load(project / ".claude" / "settings.json")
    # the file keeps its own four-space indentation
    assert (project / ".claude" / "settings.json").read_text().startswith('{\n    "$schema"')
    # every key of the user's is still there, with the same value
    for key in ("$schema", "model", "permissions", "env", "statusLine"):
        assert settings[key] == USER_SETTINGS[key]
    assert settings["hooks"]["PreToolUse"] == USER_SETTINGS["hooks"]["PreToolUse"]
    # the user's own SessionStart group comes first, untouched; mnemic's is added after it
    start = settings["hooks"]["SessionStart"]
    assert start[0] == USER_SETTINGS["hooks"]["SessionStart"][0]
    assert len(start) == 2
    path = project / ".claude" / "settings.json"
    for event, timeout in (("SessionStart", 30), ("PreCompact", 120), ("SessionEnd", 60)):
        handler = {"type": "command", "command": _hook_command(path, event), "timeout": timeout}
        # a group added to the user's own list says so with an empty (match-all) matcher
        marker = {"matcher": ""} if event in USER_SETTINGS["hooks"] else {}
        assert settings["hooks"][event][-1] == {**marker, "hooks": [handler]}
    mcp = _load(project / ".mcp.json")
    assert mcp["mcpServers"]["github"] == USER_MCP["mcpServers"]["github"]
    server = mcp["mcpServers"]["mnemic"]
    assert server["type"] == "stdio" and server["args"][-1] == "mcp"
    # the home of this test is not the default one: the commands carry it
    assert server["args"][:4] == ["--home", str(home_path), "--profile", "default"]
    # a project install selects the project's memory (the hook's --project, the
    # server's MNEMIC_PROJECT)
    selected = f"--home {home_path} --profile default --project {project.resolve()}"
    assert f"{selected} hook claude-code" in _hook_command(
        project / ".claude" / "settings.json", "SessionEnd"
    )
    assert server["env"] == {"MNEMIC_PROJECT": str(project.resolve())}


def test_install_twice_changes_nothing(home_path: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    _write(project / ".claude" / "settings.json", USER_SETTINGS)
    assert _install(home_path, tmp_path, "--project", str(project)).returncode == 0
    files = [project / ".claude" / "settings.json", project / ".mcp.json"]
    before = [(p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns) for p in files]

    again = _install(home_path, tmp_path, "--project", str(project), "--json")
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["changed"] is False
    assert [f["action"] for f in report["files"]] == ["unchanged", "unchanged"]
    # not even rewritten with the same bytes
    assert [(p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns) for p in files] == before


def test_remove_restores_the_original_json_exactly(home_path: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    _write(project / ".claude" / "settings.json", USER_SETTINGS)
    _write(project / ".mcp.json", USER_MCP)
    assert _install(home_path, tmp_path, "--project", str(project)).returncode == 0

    removed = _install(home_path, tmp_path, "--project", str(project), "--remove")
    assert removed.returncode == 0, removed.stderr
    assert _load(project / ".claude" / "settings.json") == USER_SETTINGS
    assert _load(project / ".mcp.json") == USER_MCP
    # removing again finds nothing of mnemic's and changes nothing
    again = _install(home_path, tmp_path, "--project", str(project), "--remove", "--json")
    assert json.loads(again.stdout)["changed"] is False


def test_remove_deletes_the_files_install_created(home_path: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert _install(home_path, tmp_path, "--project", str(project)).returncode == 0
    assert (project / ".claude" / "settings.json").is_file() and (project / ".mcp.json").is_file()
    assert _install(home_path, tmp_path, "--project", str(project), "--remove").returncode == 0
    assert not (project / ".claude").exists()  # the directory it created too
    assert not (project / ".mcp.json").exists()
    assert list(project.iterdir()) == []


def test_a_project_directory_that_does_not_exist_is_refused(
    home_path: Path, tmp_path: Path
) -> None:
    result = _install(home_path, tmp_path, "--project", str(tmp_path / "shpo"))
    assert result.returncode == 1 and "is not a directory" in result.stderr
    assert not (tmp_path / "shpo").exists()


def test_remove_takes_out_only_mnemics_handler_from_a_shared_group(
    home_path: Path, tmp_path: Path
) -> None:
    """A user who moved mnemic's handler into a group of their own keeps the group and
    their handler."""
    project = tmp_path / "project"
    project.mkdir()
    assert _install(home_path, tmp_path, "--project", str(project)).returncode == 0
    path = project / ".claude" / "settings.json"
    settings = _load(path)
    ours = settings["hooks"]["SessionStart"][0]["hooks"][0]
    mine = {"type": "command", "command": "echo hello"}
    settings["hooks"]["SessionStart"] = [{"matcher": "startup", "hooks": [mine, ours]}]
    _write(path, settings)

    assert _install(home_path, tmp_path, "--project", str(project), "--remove").returncode == 0
    assert _load(path) == {"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [mine]}]}}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"model": "opus",}', "is not valid JSON"),
        ("[1, 2]", "holds a JSON list, not an object"),
        ('{"hooks": {}, "hooks": {"Stop": []}}', "appears twice"),
        ('{"hooks": []}', '"hooks" is a JSON list, not an object'),
        ('{"hooks": {"SessionStart": {"x": 1}}}', "not a list"),
        ('\ufeff{"a": 1}\xff', "is not valid JSON"),
    ],
)
def test_a_settings_file_that_cannot_be_merged_is_refused_untouched(
    home_path: Path, tmp_path: Path, text: str, problem: str
) -> None:
    project = tmp_path / "project"
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(text, encoding="utf-8")
    before = settings.read_bytes()

    result = _install(home_path, tmp_path, "--project", str(project))
    assert result.returncode == 1
    assert problem in result.stderr and "Nothing was changed" in result.stderr
    assert "Traceback" not in result.stderr
    assert settings.read_bytes() == before
    assert not (project / ".mcp.json").exists()  # checked before anything is written


@pytest.mark.parametrize("dry_run", [False, True], ids=["install", "dry-run"])
@pytest.mark.parametrize(
    ("mcp_text", "problem"),
    [
        ('{"mcpServers": {"x": {"command": "\\ud800"}}}', "lone surrogate (U+D800"),
        ('{"mcpServers": {}, "retries": NaN}', "it holds NaN"),
        ('{"mcpServers": {}, "limit": -Infinity}', "it holds -Infinity"),
        ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "more than 100 levels deep"),
    ],
    ids=["lone-surrogate", "NaN", "-Infinity", "100k-nested-arrays"],
)
def test_a_bad_mcp_file_stops_the_install_before_settings_json_is_written(
    home_path: Path, tmp_path: Path, mcp_text: str, problem: str, dry_run: bool
) -> None:
    """The MCP file is read second: it must still be refused before the settings file is
    written, so a refusal never leaves mnemic half installed (nor a traceback)."""
    project = tmp_path / "project"
    settings_before = _write(project / ".claude" / "settings.json", USER_SETTINGS)
    (project / ".mcp.json").write_text(mcp_text, encoding="utf-8")
    mcp_before = (project / ".mcp.json").read_bytes()
    args = ("--project", str(project), *(["--dry-run"] if dry_run else []))
    result = _install(home_path, tmp_path, *args)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert f"{project / '.mcp.json'}" in result.stderr and problem in result.stderr
    assert "Nothing was changed" in result.stderr and "Traceback" not in result.stderr
    assert (project / ".claude" / "settings.json").read_bytes() == settings_before
    assert (project / ".mcp.json").read_bytes() == mcp_before


def test_numbers_are_written_back_as_the_file_spelled_them(home_path: Path, tmp_path: Path) -> None:
    """Python reads 1e400 as infinity and would write `Infinity` (not JSON), and 1E5 as
    100000.0: each number keeps its own text through install and removal."""
    project = tmp_path / "project"
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    numbers = (
        '{\n  "big": 1e400,\n  "ratio": 1.50,\n  "n": [\n    1E5,\n    -0.0,\n'
        "    12345678901234567890123\n  ]\n}\n"
    )
    settings.write_text(numbers, encoding="utf-8")
    assert _install(home_path, tmp_path, "--project", str(project)).returncode == 0
    text = settings.read_text(encoding="utf-8")
    assert '"big": 1e400,' in text and '"ratio": 1.50,' in text and "1E5," in text
    assert "Infinity" not in text and "100000.0" not in text
    result = _install(home_path, tmp_path, "--project", str(project), "--remove")
    assert result.returncode == 0, result.stderr
    assert settings.read_text(encoding="utf-8") == numbers


def test_remove_keeps_the_users_own_empty_event_lists(home_path: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    original = {"hooks": {"PreCompact": [], "Stop": [], "SessionStart": []}, "model": "opus"}
    _write(project / ".claude" / "settings.json", original)
    assert _install(home_path, tmp_path, "--project", str(project)).returncode == 0
    installed = _load(project / ".claude" / "settings.json")
    assert [len(installed["hooks"][e]) for e in ("PreCompact", "SessionStart", "SessionEnd")] == [
        1,
        1,
        1,
    ]
    result = _install(home_path, tmp_path, "--project", str(project), "--remove")
    assert result.returncode == 0, result.stderr
    assert _load(project / ".claude" / "settings.json") == original


def test_a_mnemic_server_that_mnemic_did_not_write_is_refused(
    home_path: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    mine = {"mcpServers": {"mnemic": {"command": "npx", "args": ["some-other-mnemic"]}}}
    before = _write(project / ".mcp.json", mine)
    result = _install(home_path, tmp_path, "--project", str(project))
    assert result.returncode == 1
    assert 'already has an MCP server named "mnemic"' in result.stderr
    assert (project / ".mcp.json").read_bytes() == before
    assert not (project / ".claude" / "settings.json").exists()


def test_user_scope_merges_into_claude_codes_own_files(home_path: Path, tmp_path: Path) -> None:
    env = _env(tmp_path)
    user_home = Path(env["HOME"])
    state = {"numStartups": 12, "projects": {"/srv/secret-repo": {"mcpServers": {}}}, **USER_MCP}
    _write(user_home / ".claude.json", state)
    _write(user_home / ".claude" / "settings.json", USER_SETTINGS)

    preview = _install(home_path, tmp_path, "--user", "--dry-run", "--json")
    files = json.loads(preview.stdout)["files"]
    assert [(f["key"], f["action"]) for f in files] == [
        ("hooks", "updated"),
        ("mcpServers", "updated"),
    ]
    # Claude Code's own state in ~/.claude.json is neither shown nor changed
    assert "numStartups" not in preview.stdout and "secret-repo" not in preview.stdout
    assert _load(user_home / ".claude.json") == state

    assert _install(home_path, tmp_path, "--user").returncode == 0
    claude_json = _load(user_home / ".claude.json")
    assert claude_json["numStartups"] == 12 and claude_json["projects"] == state["projects"]
    assert claude_json["mcpServers"]["mnemic"]["args"][-1] == "mcp"
    assert _hook_command(user_home / ".claude" / "settings.json", "PreCompact")

    assert _install(home_path, tmp_path, "--user", "--remove").returncode == 0
    assert _load(user_home / ".claude.json") == state
    assert _load(user_home / ".claude" / "settings.json") == USER_SETTINGS


def test_user_scope_follows_claude_config_dir(home_path: Path, tmp_path: Path) -> None:
    config_dir = tmp_path / "claude-config"
    env = {**_env(tmp_path), "CLAUDE_CONFIG_DIR": str(config_dir)}
    result = run_mnemic(home_path, "integrate", "claude-code", "--user", env=env)
    assert result.returncode == 0, result.stderr
    assert (config_dir / "settings.json").is_file() and (config_dir / ".claude.json").is_file()
    assert not (Path(env["HOME"]) / ".claude").exists()


def test_dry_run_shows_the_json_and_writes_nothing(home_path: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    before = _write(project / ".claude" / "settings.json", USER_SETTINGS)
    result = _install(home_path, tmp_path, "--project", str(project), "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "would be updated" in result.stdout and "would be created" in result.stdout
    assert '"PreCompact"' in result.stdout and '"mcpServers"' in result.stdout
    assert (project / ".claude" / "settings.json").read_bytes() == before
    assert not (project / ".mcp.json").exists()


def test_a_symlinked_settings_file_is_written_through_its_link(
    home_path: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    dotfiles = tmp_path / "dotfiles" / "settings.json"
    _write(dotfiles, {"model": "opus"})
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").symlink_to(dotfiles)
    assert _install(home_path, tmp_path, "--project", str(project)).returncode == 0
    assert (project / ".claude" / "settings.json").is_symlink()
    assert _load(dotfiles)["model"] == "opus" and "SessionStart" in _load(dotfiles)["hooks"]


def test_project_and_user_together_is_a_usage_error(home_path: Path, tmp_path: Path) -> None:
    result = _install(home_path, tmp_path, "--project", str(tmp_path), "--user")
    assert result.returncode == 2 and "not both" in result.stderr


# --- the hooks, run as Claude Code runs them ----------------------------------------------


def _installed(home_path: Path, tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    assert _install(home_path, tmp_path, "--project", str(project)).returncode == 0
    return project / ".claude" / "settings.json"


def test_session_start_hook_adds_the_frozen_snapshot_to_the_context(
    home_path: Path, tmp_path: Path
) -> None:
    for target, content in (
        ("user", "User prefers fixtures over module globals"),
        ("memory", "The shop repo runs tests with pytest-xdist"),
    ):
        call = json.dumps({"action": "add", "target": target, "content": content})
        prepare(home_path, "tool", "memory", call)
    settings = _installed(home_path, tmp_path)

    payload = {
        "session_id": SESSION,
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(tmp_path),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    result = _run_hook(_hook_command(settings, "SessionStart"), payload, tmp_path)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "SessionStart"
    context = out["additionalContext"]
    assert "User prefers fixtures over module globals" in context
    assert "The shop repo runs tests with pytest-xdist" in context

    # exactly the blocks `mnemic prompt --memory-only` prints, which are the system
    # prompt's memory layer
    only = run_here(home_path, "prompt", "--memory-only")
    assert only.returncode == 0 and only.stdout == context + "\n"
    full = json.loads(run_here(home_path, "prompt", "--json").stdout)
    assert context in full["text"]
    layers = {layer["name"]: layer["chars"] for layer in full["layers"]}
    assert layers["memory"] == len(context)


@pytest.mark.anyio
async def test_a_project_install_selects_the_projects_memory_in_the_hook_and_the_server(
    home_path: Path, tmp_path: Path
) -> None:
    """The hook runs from a directory outside the project (the rule of its cwd cannot
    find the project there); the server is started exactly as written."""
    from mcp import Client, StdioServerParameters

    settings = _installed(home_path, tmp_path)
    project = settings.parent.parent
    fact = "The shop repo runs tests with pytest-xdist"
    assert run_here(home_path, "memory", "add", "--project", str(project), fact).returncode == 0
    payload = {
        "session_id": SESSION,
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(tmp_path),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    command = _hook_command(settings, "SessionStart")
    out = json.loads(_run_hook(command, payload, tmp_path).stdout)
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "PROJECT MEMORY" in context and fact in context

    entry = _load(project / ".mcp.json")["mcpServers"]["mnemic"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMIC_")}
    params = StdioServerParameters(
        command=entry["command"], args=entry["args"], env={**env, **entry["env"]}
    )
    async with Client(params) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        assert "scope" in tools["memory"].input_schema["properties"]
        call = {"action": "add", "scope": "project", "content": "Deploys go through staging."}
        res = await c.call_tool("memory", call)
        assert not res.is_error, res
    out = json.loads(_run_hook(command, payload, tmp_path).stdout)
    context = out["hookSpecificOutput"]["additionalContext"]
    assert fact in context and "Deploys go through staging." in context
    shown = run_here(home_path, "memory", "show", "--project", str(project))
    assert "Deploys go through staging." in shown.stdout


def test_session_start_hook_prints_nothing_when_memory_is_empty(
    home_path: Path, tmp_path: Path
) -> None:
    settings = _installed(home_path, tmp_path)
    result = _run_hook(
        _hook_command(settings, "SessionStart"), {"hook_event_name": "SessionStart"}, tmp_path
    )
    assert result.returncode == 0 and result.stdout == b""
    assert run_here(home_path, "prompt", "--memory-only").stdout == ""


def _messages(home: Path) -> list[tuple[int, str, str]]:
    with open_store(Home.open(home)) as store:
        return [(m.id, m.role, m.content) for m in store.messages(SESSION)]


def test_compaction_then_session_end_import_only_the_new_messages(
    home_path: Path, tmp_path: Path
) -> None:
    settings = _installed(home_path, tmp_path)
    lines = FIXTURE.read_bytes().splitlines(keepends=True)
    transcript = tmp_path / "projects" / "-home-dev-shop" / f"{SESSION}.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_bytes(b"".join(lines[:FIRST_PART]))
    payload = {
        "session_id": SESSION,
        "transcript_path": str(transcript),
        "cwd": "/home/dev/shop",
        "hook_event_name": "PreCompact",
        "trigger": "auto",
        "custom_instructions": "",
    }
    first = _run_hook(_hook_command(settings, "PreCompact"), payload, tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stderr == b""
    before = _messages(home_path)
    # user text, assistant text + tool call, the tool result, the assistant's answer:
    # thinking, sidechain, summary, snapshot and system lines are not messages
    assert [role for _, role, _ in before] == ["user", "assistant", "tool", "assistant"]
    assert b"4 new message(s)" in first.stdout

    # the session went on; Claude Code appended to the same transcript
    transcript.write_bytes(b"".join(lines))
    end = {**payload, "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"}
    end.pop("trigger")
    second = _run_hook(_hook_command(settings, "SessionEnd"), end, tmp_path)
    assert second.returncode == 0, second.stderr
    after = _messages(home_path)
    assert after[: len(before)] == before  # the imported ones are kept as they were
    assert [role for _, role, _ in after[len(before) :]] == ["user", "assistant"]
    assert "fixtures rather than module globals" in after[len(before)][2]
    assert b"2 new message(s)" in second.stdout and b"session marked ended" in second.stdout
    with open_store(Home.open(home_path)) as store:
        info = store.get_session(SESSION)
    assert info.source == "claude-code" and info.end_reason == "claude-code:prompt_input_exit"
    assert info.title == "Fix the flaky checkout test"

    # the same hook once more: nothing new
    third = _run_hook(_hook_command(settings, "SessionEnd"), end, tmp_path)
    assert third.returncode == 0 and b"0 new message(s)" in third.stdout
    assert _messages(home_path) == after


FIFO = "fifo"


@pytest.mark.parametrize(
    "payload",
    [
        b"not json at all",
        b"",
        b"[1, 2, 3]",
        b"\xff\xfe{}",
        b'{"session_id": "x"}',
        b'{"hook_event_name": 7}',
        b'{"hook_event_name": "PreCompact"}',
        b'{"hook_event_name": "SessionEnd", "transcript_path": "relative/t.jsonl"}',
        b'{"hook_event_name": "PreCompact", "transcript_path": "/etc/passwd"}',
        b'{"hook_event_name": "PreCompact", "transcript_path": "/nonexistent/t.jsonl"}',
        FIFO.encode(),
        b"x" * (3 << 20),
        b'{"hook_event_name": "UserPromptSubmit", "prompt": "hi"}',
    ],
    ids=[
        "not-json",
        "empty",
        "array",
        "not-utf8",
        "no-event",
        "event-not-string",
        "no-transcript",
        "relative-transcript",
        "not-jsonl",
        "missing-transcript",
        "fifo-transcript",
        "huge",
        "other-event",
    ],
)
def test_hostile_hook_input_exits_0_with_one_line_and_changes_nothing(
    home_path: Path, tmp_path: Path, payload: bytes
) -> None:
    settings = _installed(home_path, tmp_path)
    if payload == FIFO.encode():
        fifo = tmp_path / "t.jsonl"
        os.mkfifo(fifo)  # reading it would block forever: it must be refused unread
        hook = {"hook_event_name": "SessionEnd", "transcript_path": str(fifo)}
        payload = json.dumps(hook).encode()
    before = _tree(home_path)

    result = _run_hook(_hook_command(settings, "PreCompact"), payload, tmp_path)
    assert result.returncode == 0
    assert result.stdout == b""
    message = result.stderr.decode()
    assert message.startswith("mnemic: ") and message.count("\n") == 1
    assert "Traceback" not in message
    assert _tree(home_path) == before


def test_hook_with_stdin_left_open_gives_up_by_itself(home_path: Path, tmp_path: Path) -> None:
    settings = _installed(home_path, tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMIC_")}
    proc = subprocess.Popen(
        ["sh", "-c", _hook_command(settings, "SessionStart")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None
    proc.stdin.write(b'{"hook_event_name": "SessionStart"')  # and never closes it
    proc.stdin.flush()
    try:
        proc.wait(timeout=60)  # the hook must end by itself, stdin still open
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
    assert proc.stdout is not None and proc.stderr is not None
    out, err = proc.stdout.read(), proc.stderr.read()
    assert proc.returncode == 0 and out == b""
    assert b"did not end within" in err


def test_memory_only_json(home_path: Path) -> None:
    call = json.dumps({"action": "add", "target": "memory", "content": "Deploys go out on Fridays"})
    prepare(home_path, "tool", "memory", call)
    data = json.loads(run_here(home_path, "prompt", "--memory-only", "--json").stdout)
    assert "Deploys go out on Fridays" in data["text"] and data["chars"] == len(data["text"])
    text = run_here(home_path, "prompt", "--memory-only").stdout
    assert text == data["text"] + "\n"
    bad = run_here(home_path, "prompt", "--memory-only", "--system", "x")
    assert bad.returncode == 2 and "--memory-only" in bad.stderr
