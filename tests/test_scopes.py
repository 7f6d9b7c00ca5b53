"""Global and project memory: one store per project directory beside the global one.

Real files throughout: each project store is a complete curated store under
``<home>/projects/<id>/``, written through the same library calls as the global one.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from _backends import Kit
from mnemic import registry
from mnemic.cli import main
from mnemic.curated import archive as arch
from mnemic.curated.entries import entry_handle, parse
from mnemic.curated.memory import Memory
from mnemic.curated.scope import (
    PROJECT_FILE,
    ProjectHome,
    find_project,
    locate,
    open_project,
    project_id,
)
from mnemic.curated.snapshot import PROJECT_HEADER, render_snapshot
from mnemic.curated.tool import MEMORY_TOOL, memory_tool_spec, run_memory_tool
from mnemic.curated.view import MemoryView
from mnemic.errors import ConfigError, ProjectScopeError
from mnemic.governance.storage import open_journal
from mnemic.home import Home
from mnemic.integrations.hook import run_claude_code_hook


def _dirs(tmp_path: Path, *names: str) -> list[Path]:
    out = []
    for name in names:
        d = tmp_path / "work" / name
        d.mkdir(parents=True)
        out.append(d)
    return out


def _project_memory(home: Home, directory: Path) -> Memory:
    return Memory.open(open_project(home, directory, create=True), origin="cli")


def _const(memory: Memory) -> Any:
    return lambda: memory


def _blocks(text: str) -> dict[str, list[str]]:
    """The entries of each block of a rendered snapshot, by header."""
    out: dict[str, list[str]] = {}
    for part in text.split("\n\n═")[0:]:
        lines = part.strip("═\n").split("\n", 2)
        header = lines[0].split(" [", 1)[0]
        body = lines[2].lstrip("═\n") if len(lines) > 2 else ""
        out[header] = parse(body)
    return out


# -- ids and selection -----------------------------------------------------------------------


def test_project_id_is_the_directory_name_and_a_hash_of_its_resolved_path(tmp_path: Path) -> None:
    a, b = _dirs(tmp_path, "one/api", "two/api")
    link = tmp_path / "link"
    link.symlink_to(a)
    assert project_id(a) == project_id(link)  # the resolved path: a symlink is the same
    assert project_id(a) != project_id(b)  # same name, another directory
    assert project_id(a).startswith("api-") and len(project_id(a)) == len("api-") + 12
    (odd,) = _dirs(tmp_path, "we ird/$(rm -rf)")
    assert project_id(odd).startswith("rm--rf-")


def test_a_missing_project_directory_is_refused_and_nothing_is_created(home_path: Path) -> None:
    home = Home.open(home_path)
    with pytest.raises(ProjectScopeError) as err:
        open_project(home, home_path / "no-such-dir", create=True)
    assert err.value.reason == "not_a_directory"
    (home_path / "a-file").write_text("x")
    for bad in ("with\x00nul", str(home_path / "a-file")):  # a NUL, a file
        with pytest.raises(ProjectScopeError, match="not a directory"):
            open_project(home, bad, create=True)
    assert not (home_path / "projects").exists()


def test_a_reader_creates_no_project_store(home_path: Path, tmp_path: Path) -> None:
    (proj,) = _dirs(tmp_path, "p")
    view = MemoryView.open(open_project(Home.open(home_path), proj, create=False))
    assert view.entries("memory") == []
    assert find_project(home_path, proj) is None
    assert not locate(home_path, proj).exists


def test_project_budget_is_its_own(home_path: Path, tmp_path: Path) -> None:
    home_path.mkdir()
    (home_path / "config.toml").write_text(
        "[memory]\nmemory_char_limit = 2000\n[project]\nmemory_char_limit = 200\n"
    )
    (proj,) = _dirs(tmp_path, "p")
    home = Home.open(home_path)
    mem = _project_memory(home, proj)
    assert mem.limit("memory") == 200
    mem.add("memory", "x" * 150)
    glob = Memory.open(home)
    glob.add("memory", "y" * 150)  # the global store has room of its own
    res = run_memory_tool(
        glob, {"action": "add", "scope": "project", "content": "z" * 100}, project=lambda: mem
    )
    assert res["error_code"] == "budget_exceeded" and res["current_entries"] == ["x" * 150]
    assert glob.entries("memory") == ["y" * 150]


# -- the prompt ------------------------------------------------------------------------------


def test_prompt_renders_global_then_project(home_path: Path, tmp_path: Path) -> None:
    (proj,) = _dirs(tmp_path, "p")
    home = Home.open(home_path)
    Memory.open(home).add("memory", "Global fact.")
    Memory.open(home).add("user", "Name is Ada.")
    _project_memory(home, proj).add("memory", "Tests run with ./x test.")
    text = render_snapshot(str(home_path), project=proj)
    order = [text.index(s) for s in ("Global fact.", "Name is Ada.", PROJECT_HEADER)]
    assert order == sorted(order)
    assert _blocks(text)[PROJECT_HEADER] == ["Tests run with ./x test."]
    assert render_snapshot(str(home_path)).count("Tests run") == 0  # no project: global only


def test_project_session_snapshot_is_byte_identical_while_both_scopes_change(
    home_path: Path, tmp_path: Path
) -> None:
    (proj,) = _dirs(tmp_path, "p")
    home = Home.open(home_path)
    glob = Memory.open(home)
    glob.add("memory", "Global fact.")
    mem = _project_memory(home, proj)
    mem.add("memory", "Project fact.")
    mem.new_session()
    frozen = mem.snapshot.text
    assert frozen.startswith("═") and PROJECT_HEADER in frozen
    for i in range(5):
        run_memory_tool(
            glob,
            {"action": "add", "scope": "project", "content": f"More {i}."},
            project=lambda: mem,
        )
        glob.add("memory", f"Global {i}.")
        assert mem.snapshot.text == frozen
    assert "More 4." in render_snapshot(str(home_path), project=proj)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_entry_of_one_project_reaches_another_projects_prompt(
    backend: Kit, tmp_path: Path, seed: int
) -> None:
    """Random writes with random scopes in several projects: every prompt holds exactly
    the global entries and its own project's, never another project's (on the files
    store, and on PostgreSQL where every store's rows share the tables)."""
    rng = random.Random(seed)
    dirs = _dirs(tmp_path, "alpha", "beta", "gamma", "nested/alpha")  # two named alpha
    home_path = backend.write_config()
    home = Home.open(home_path)
    glob = Memory.open(home)
    projects = {d: _project_memory(home, d) for d in dirs}
    expected: dict[Path | None, list[str]] = {None: [], **{d: [] for d in dirs}}
    for step in range(160):
        where = rng.choice([None, *dirs])
        live = expected[where]
        action = rng.choice(["add", "add", "add", "replace", "remove"]) if live else "add"
        if len(live) >= 12:
            action = "remove"
        args: dict[str, Any] = {"action": action}
        if where is not None:
            args["scope"] = "project"
        tag = "global" if where is None else f"{where.parent.name}/{where.name}"
        content = f"Fact {step} of {tag}, seed {seed}."
        if action == "add":
            args["content"] = content
            live.append(content)
        else:
            old = rng.choice(live)
            args["old_text"] = old
            i = live.index(old)
            if action == "replace":
                args["content"] = content
                live[i] = content
            else:
                del live[i]
        caller = projects[where] if where is not None else glob
        res = run_memory_tool(glob, args, project=_const(caller))
        assert res["success"], res
        if step % 8 == 7 or step == 159:
            for d in dirs:
                blocks = _blocks(render_snapshot(str(home_path), project=d))
                assert blocks.get("MEMORY (your personal notes)", []) == expected[None]
                assert blocks.get(PROJECT_HEADER, []) == expected[d]
                shown = render_snapshot(str(home_path), project=d)
                for other in dirs:
                    if other != d:
                        assert not any(e in shown for e in expected[other])


# -- the tool's scope ------------------------------------------------------------------------


def test_scope_appears_in_the_tool_spec_only_with_a_project() -> None:
    assert "scope" not in MEMORY_TOOL.parameters["properties"]
    spec = memory_tool_spec(project=True)
    assert spec.parameters["properties"]["scope"]["enum"] == ["global", "project"]
    assert 'scope="project"' not in MEMORY_TOOL.description
    assert "SCOPE:" in spec.description


def test_scope_project_without_a_project_is_refused_saying_how_to_select_one(
    home_path: Path,
) -> None:
    glob = Memory.open(Home.open(home_path))
    res = run_memory_tool(glob, {"action": "add", "scope": "project", "content": "A fact."})
    assert res["success"] is False and res["error_code"] == "project_scope"
    assert "--project DIR" in res["error"] and "MNEMIC_PROJECT" in res["error"]
    assert glob.entries("memory") == [] and not (home_path / "projects").exists()
    records = list(open_journal(home_path, glob.settings).records())
    assert records[-1]["result"] == "refused"  # the refusal is audited


def test_scope_project_refuses_the_user_profile_and_unknown_scopes(
    home_path: Path, tmp_path: Path
) -> None:
    (proj,) = _dirs(tmp_path, "p")
    home = Home.open(home_path)
    glob, mem = Memory.open(home), _project_memory(home, proj)
    calls: list[dict[str, Any]] = [
        {"action": "add", "scope": "project", "target": "user", "content": "Name is Ada."},
        {
            "scope": "project",
            "operations": [{"action": "add", "target": "user", "content": "Name is Ada."}],
        },
    ]
    for args in calls:
        res = run_memory_tool(glob, args, project=lambda: mem)
        assert res["error_code"] == "project_scope" and "global only" in res["error"]
    res = run_memory_tool(
        glob, {"action": "add", "scope": "team", "content": "x"}, project=lambda: mem
    )
    assert res["error_code"] == "invalid_argument" and "'global'" in res["error"]
    assert glob.entries("user") == [] and mem.entries("memory") == []
    ok = run_memory_tool(
        glob, {"action": "add", "scope": "global", "content": "G."}, project=lambda: mem
    )
    assert ok["success"] and "scope" not in ok and glob.entries("memory") == ["G."]
    ok = run_memory_tool(
        glob, {"action": "add", "scope": "project", "content": "P."}, project=lambda: mem
    )
    assert ok["success"] and ok["scope"] == "project" and mem.entries("memory") == ["P."]
    found = run_memory_tool(glob, {"action": "read", "scope": "project"}, project=lambda: mem)
    assert found["entries"] == ["P."] and found["scope"] == "project"
    batch = {
        "scope": "project",
        "operations": [
            {"action": "replace", "old_text": "P.", "content": "P, revised."},
            {"action": "add", "content": "Q."},
        ],
    }
    done = run_memory_tool(glob, batch, project=lambda: mem)
    assert done["success"] and done["scope"] == "project"
    assert mem.entries("memory") == ["P, revised.", "Q."] and glob.entries("memory") == ["G."]


def test_project_removal_is_archived_and_audited_in_the_projects_own_store(
    backend: Kit, tmp_path: Path
) -> None:
    (proj,) = _dirs(tmp_path, "p")
    home_path = backend.write_config()
    home = Home.open(home_path)
    glob, mem = Memory.open(home), _project_memory(home, proj)
    glob.add("memory", "Global fact.")
    mem.add("memory", "Staging host is stage-7.")
    res = run_memory_tool(
        glob, {"action": "remove", "scope": "project", "old_text": "stage-7"}, project=lambda: mem
    )
    assert res["success"]
    items = arch.listing(MemoryView.open(open_project(home, proj, create=False)))
    assert [(a.text, a.reason) for a in items] == [("Staging host is stage-7.", "removed")]
    assert arch.listing(MemoryView.open(home)) == []
    found = run_memory_tool(
        glob,
        {"action": "archive_search", "scope": "project", "query": "staging host"},
        project=lambda: mem,
    )
    assert "stage-7" in json.dumps(found)
    root = locate(home_path, proj).root
    journal = open_journal(root, mem.settings)
    assert [r["action"] for r in journal.records()] == ["add", "remove"]
    assert journal.verify().ok
    assert [r["action"] for r in open_journal(home_path, glob.settings).records()] == ["add"]
    restored = arch.restore(mem, items[0].id)
    assert restored.written and mem.entries("memory") == ["Staging host is stage-7."]


def test_a_store_backend_without_a_project_catalog_refuses_projects(
    home_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A third-party store (here the files backend's object served under another
    scheme, as a plugin would be) that keeps no catalog of project stores."""
    (proj,) = _dirs(tmp_path, "p")
    monkeypatch.setitem(registry.BUILTIN, "plain", "mnemic.backends.files:FILES")
    home_path.mkdir()
    (home_path / "config.toml").write_text('store = "plain://anywhere"\n')
    home = Home.open(home_path)
    with pytest.raises(ProjectScopeError, match="need a store that holds them") as err:
        open_project(home, proj, create=True)
    assert err.value.reason == "backend" and "plain" in str(err.value)
    with pytest.raises(ProjectScopeError, match="need a store that holds them"):
        render_snapshot(str(home_path), project=proj)
    assert not (home_path / "projects").exists()


# -- the Claude Code hook --------------------------------------------------------------------


def _start(cwd: Path | str | None) -> Any:
    data: dict[str, Any] = {"hook_event_name": "SessionStart", "session_id": "s"}
    if cwd is not None:
        data["cwd"] = str(cwd)
    result = run_claude_code_hook(json.dumps(data).encode())
    assert result.ok, result.message
    if not result.stdout:
        return "", result.message
    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"], result.message


def test_hook_adds_the_project_of_its_cwd_once_its_store_exists(
    backend: Kit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    proj, other = _dirs(tmp_path, "p", "q")
    home_path = backend.write_config()
    (proj / "src" / "deep").mkdir(parents=True)
    home = Home.open(home_path)
    Memory.open(home).add("memory", "Global fact.")
    text, _ = _start(proj / "src" / "deep")
    assert PROJECT_HEADER not in text and "Global fact." in text  # not opted in yet
    assert not (home_path / "projects").exists()
    _project_memory(home, proj).add("memory", "Builds with make.")
    stored = (locate(home_path, proj).root / PROJECT_FILE).is_file()
    assert stored == (backend.name == "files")  # a database keeps its own catalog
    for cwd in (proj, proj / "src" / "deep"):  # the nearest parent with a store
        text, _ = _start(cwd)
        assert text == render_snapshot(str(home_path), project=proj)
        assert _blocks(text)[PROJECT_HEADER] == ["Builds with make."]
    for cwd in (other, None, "relative/path"):
        text, _ = _start(cwd)
        assert PROJECT_HEADER not in text and "Global fact." in text
    monkeypatch.setenv("MNEMIC_PROJECT", str(tmp_path / "missing"))
    text, note = _start(proj)
    assert "Global fact." in text and PROJECT_HEADER not in text
    assert note.startswith("mnemic: project memory left out:") and "missing" in note
    # the hook says what it did load and where the path came from, not the CLI's advice
    assert "global memory was loaded" in note and "MNEMIC_PROJECT" in note
    assert "Nothing was read" not in note and "--project ." not in note
    monkeypatch.setenv("MNEMIC_PROJECT", str(proj))
    assert _blocks(_start(other)[0])[PROJECT_HEADER] == ["Builds with make."]


# -- the CLI ---------------------------------------------------------------------------------


def _cli(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def test_project_given_before_the_command_selects_it_like_after(
    home_path: Path, tmp_path: Path
) -> None:
    """`mnemic --project DIR memory add ...` works as `mnemic memory add --project DIR`
    (it was refused: "No such option '--project'"), and a command's own --project wins."""
    proj, other = _dirs(tmp_path, "p", "q")
    added = _cli("--project", str(proj), "memory", "add", "Project fact.")
    assert added.exit_code == 0
    assert f"MEMORY.md of project {proj.resolve()}:" in added.output  # which store it went to
    added = _cli("memory", "add", "Global fact.")
    assert added.exit_code == 0 and "Entry added. MEMORY.md: " in added.output
    shown = json.loads(_cli("--project", str(proj), "memory", "show", "--json").output)
    assert shown["memory"]["entries"] == ["Project fact."]
    prompt = _cli("--project", str(proj), "prompt", "--memory-only").output
    assert "Global fact." in prompt and "Project fact." in prompt
    own = _cli("--project", str(proj), "memory", "show", "--json", "--project", str(other))
    assert json.loads(own.output)["memory"]["entries"] == []


def test_project_given_before_a_command_that_would_ignore_it_is_refused(
    home_path: Path, tmp_path: Path
) -> None:
    """`mnemic --project DIR gc` (or `import hermes`, `sessions list`...) ran on the whole
    home or the global memory as if the project had not been named; now it is a usage
    error saying so, before anything runs. $MNEMIC_PROJECT, a selection every command
    inherits, is not refused."""
    (proj,) = _dirs(tmp_path, "p")
    assert _cli("memory", "add", "Global fact.").exit_code == 0
    for command in (["gc", "--dry-run"], ["sessions", "list"], ["import", "hermes", "/nope"]):
        out = _cli("--project", str(proj), *command)
        assert out.exit_code == 2, (command, out.output)
        assert "does not take --project" in out.output and "Nothing was done" in out.output
    assert not (home_path / "projects").exists()
    assert _cli("--project", str(proj), "gc", "--help").exit_code == 0
    assert _cli("--project", str(proj), "stats").exit_code == 0  # it has its own
    assert _cli("gc", "--dry-run", env={"MNEMIC_PROJECT": str(proj)}).exit_code == 0


def test_cli_project_option_and_environment(home_path: Path, tmp_path: Path) -> None:
    proj, other = _dirs(tmp_path, "p", "q")
    assert _cli("memory", "add", "Global fact.").exit_code == 0
    out = _cli("memory", "add", "--project", str(proj), "Project fact.")
    assert out.exit_code == 0 and "/1,500 chars" in out.output
    env = {"MNEMIC_PROJECT": str(proj)}
    shown = _cli("memory", "show", "--json", env=env)
    data = json.loads(shown.output)
    assert list(data) == ["memory"] and data["memory"]["entries"] == ["Project fact."]
    assert json.loads(_cli("memory", "show", "--json").output)["memory"]["entries"] == [
        "Global fact."
    ]
    status = json.loads(_cli("memory", "status", "--json", "--project", str(proj)).output)
    assert [r["target"] for r in status] == ["memory"] and status[0]["limit"] == 1500
    listed = _cli("memory", "status").output  # the global status names the project stores
    assert "Project stores (1;" in listed and f"{proj.resolve()}  " in listed
    refused = _cli("memory", "add", "-t", "user", "--project", str(proj), "Name is Ada.")
    assert refused.exit_code == 1 and "USER.md is global only" in refused.output
    prompt = _cli("prompt", "--memory-only", "--project", str(proj)).output
    assert "Global fact." in prompt and "Project fact." in prompt
    assert "Project fact." not in _cli("prompt", "--memory-only", "--project", str(other)).output
    full = _cli("prompt", "--project", str(proj)).output  # the agent's whole prompt
    assert full.index("Global fact.") < full.index(PROJECT_HEADER) < full.index("Project fact.")
    assert _cli("memory", "remove", "Project fact.", env=env).exit_code == 0
    listed = json.loads(_cli("memory", "archive", "list", "--json", env=env).output)
    assert [e["text"] for e in listed["entries"]] == ["Project fact."]
    assert json.loads(_cli("memory", "archive", "list", "--json").output)["count"] == 0
    audit = json.loads(_cli("audit", "list", "--json", env=env).output)
    assert [r["action"] for r in audit] == ["add", "remove"]
    tool = _cli("tool", "memory", '{"action": "add", "scope": "project", "content": "T."}')
    assert tool.exit_code == 1 and '"project_scope"' in tool.output
    tool = _cli("tool", "memory", '{"action": "add", "scope": "project", "content": "T."}', env=env)
    assert tool.exit_code == 0 and '"scope": "project"' in tool.output


def test_project_store_is_private(home_path: Path, tmp_path: Path) -> None:
    (proj,) = _dirs(tmp_path, "p")
    _project_memory(Home.open(home_path), proj).add("memory", "A fact.")
    root = locate(home_path, proj).root
    for path in (root.parent, root, root / "memories"):
        assert os.stat(path).st_mode & 0o077 == 0
    home = open_project(Home.open(home_path), proj, create=False)
    assert isinstance(home, ProjectHome) and home.project.path == str(proj.resolve())


# -- MCP -------------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_mcp_server_with_a_project_writes_its_scope_and_freezes_both_blocks(
    home_path: Path, tmp_path: Path
) -> None:
    import mcp_types as types
    from mcp import Client

    from mnemic.mcp_server import MnemicMCP

    proj, other = _dirs(tmp_path, "p", "q")
    home = Home.open(home_path)
    Memory.open(home).add("memory", "Global fact.")
    _project_memory(home, proj).add("memory", "Project fact.")
    _project_memory(home, other).add("memory", "Other project's fact.")
    srv = MnemicMCP(home, project=str(proj))
    try:
        async with Client(srv.server) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            assert "scope" in tools["memory"].input_schema["properties"]
            prompt = await c.get_prompt("memory_context")
            content = prompt.messages[0].content
            assert isinstance(content, types.TextContent)
            blocks = _blocks(content.text)
            assert blocks[PROJECT_HEADER] == ["Project fact."]
            assert "Other project" not in content.text
            res = await c.call_tool(
                "memory", {"action": "add", "scope": "project", "content": "Lint with ruff."}
            )
            assert not res.is_error and res.structured_content is not None
            assert res.structured_content["scope"] == "project"
            assert await c.get_prompt("memory_context") == prompt  # frozen per connection
    finally:
        srv.close()
    assert MemoryView.open(open_project(home, proj, create=False)).entries("memory") == [
        "Project fact.",
        "Lint with ruff.",
    ]
    with pytest.raises(ProjectScopeError, match="does not exist"):
        MnemicMCP(home, project=str(tmp_path / "missing"))
    plain = MnemicMCP(home)
    assert "scope" not in plain.specs["memory"].parameters["properties"]
    plain.close()


def test_forget_sessions_removes_matching_archived_text_from_every_project_store(
    backend: Kit, tmp_path: Path
) -> None:
    from mnemic.ops.forget import forget_sessions

    proj, other = _dirs(tmp_path, "p", "q")
    home_path = backend.write_config()
    home = Home.open(home_path)
    mem = _project_memory(home, proj)
    mem.add("memory", "Project codename quagga77 ships in May")
    mem.remove("memory", "quagga77")
    mem.add("memory", "Unrelated fact")
    mem.remove("memory", "Unrelated")
    _project_memory(home, other).add("memory", "Kept fact")
    root = locate(home_path, proj).root
    journal = open_journal(root, mem.settings)

    def holds() -> bool:
        return any("quagga77" in json.dumps(r) for r in journal.records())

    assert holds()
    assert forget_sessions(home, "QUAGGA77", dry_run=True).archived == 2 and holds()
    assert forget_sessions(home, "QUAGGA77").archived == 2  # the add's copy and the archive's
    view = MemoryView.open(open_project(home, proj, create=False))
    assert [a.text for a in arch.listing(view)] == ["Unrelated fact", None]
    assert not holds() and journal.verify().ok


# -- the agent session -----------------------------------------------------------------------


def test_agent_session_prompt_holds_global_then_project_frozen_for_the_session(
    home_path: Path, tmp_path: Path
) -> None:
    import datetime as dt

    from mnemic.agent import AgentSession

    proj, other = _dirs(tmp_path, "p", "q")
    home = Home.open(home_path)
    Memory.open(home).add("memory", "Global fact.")
    _project_memory(home, proj).add("memory", "Project fact.")
    _project_memory(home, other).add("memory", "Other project's fact.")
    session = AgentSession.open(
        home, provider=None, cwd=proj, today=lambda: dt.date(2026, 5, 4),
        platform_name="Linux", project=proj,
    )  # fmt: skip
    frozen = session.system_prompt
    assert frozen.index("Global fact.") < frozen.index(PROJECT_HEADER) < frozen.index("Project")
    assert "Other project" not in frozen
    spec = next(t for t in session.openai_tools() if t["function"]["name"] == "memory")
    assert "scope" in spec["function"]["parameters"]["properties"]
    for turn in range(6):
        session.begin_turn(f"message {turn}")
        resp = session.call_tool(
            "memory",
            {"action": "add", "scope": "project" if turn % 2 else "global",
             "content": f"Fact {turn}."},
        )  # fmt: skip
        assert resp["success"], resp
        session.add_assistant("ok")
        session.end_turn()
        assert session.system_prompt == frozen
    _project_memory(home, proj).add("memory", "Written by another process.")
    turn = session.begin_turn("what changed?")
    assert "Project memory notice:" in turn.notices and "Written by another" in turn.notices
    session.add_assistant("ok")
    session.end_turn()
    session.new_session()
    fresh = session.system_prompt
    project_part = fresh[fresh.index(PROJECT_HEADER) :]
    assert "Fact 1." in project_part and "Fact 0." not in project_part
    assert "Fact 0." in fresh[: fresh.index(PROJECT_HEADER)]
    session.close()
    text = _cli("prompt", "--project", str(proj)).output
    assert "Fact 5." in text and PROJECT_HEADER in text


def test_gc_applies_archive_days_to_every_project_store(backend: Kit, tmp_path: Path) -> None:
    from mnemic.ops.retention import collect_garbage

    day, t0 = 86400.0, 1_700_000_000.0
    (proj,) = _dirs(tmp_path, "p")
    home_path = backend.write_config("[retention]\narchive_days = 30\n")
    home = Home.open(home_path)
    where = open_project(home, proj, create=True)
    Memory.open(where, clock=lambda: t0).add("memory", "old project fact")
    Memory.open(where, clock=lambda: t0 + day).remove("memory", "old project fact")
    view = MemoryView.open(open_project(home, proj, create=False))
    assert [a.text for a in arch.listing(view)] == ["old project fact"]
    report = collect_garbage(home, clock=lambda: t0 + 40 * day)
    assert report.counts() == {"archive_text": 2}  # the add's copy and the archive's
    place = str(where.root) if backend.name == "files" else f"project {where.project.id}"
    assert all(place in r.what for r in report.removed), report.removed
    assert [a.text for a in arch.listing(view)] == [None]
    journal = open_journal(where.root, where.settings)
    assert journal.verify().ok and not any(
        "old project" in json.dumps(r) for r in journal.records()
    )


def test_cli_tidy_and_pending_of_a_project(backend: Kit, tmp_path: Path) -> None:
    (proj,) = _dirs(tmp_path, "p")
    home_path = backend.write_config()
    env = {"MNEMIC_PROJECT": str(proj)}
    for text in ("Tests run with pytest -q in the repo root", "Tests run with pytest -q."):
        assert _cli("memory", "add", text, env=env).exit_code == 0
    assert _cli("memory", "add", "Tests run with pytest -q").exit_code == 0  # global
    found = json.loads(_cli("memory", "tidy", "--lexical", "--json", "--stage", env=env).output)
    assert [p["target"] for p in found["proposals"]] == ["memory"] and found["staged"]
    assert "No pending writes." in _cli("pending", "list", "--global").output
    assert _cli("pending", "approve", "all", env=env).exit_code == 0
    view = MemoryView.open(open_project(Home.open(home_path), proj, create=False))
    assert len(view.entries("memory")) == 1
    assert MemoryView.open(Home.open(home_path)).entries("memory") == ["Tests run with pytest -q"]
    refused = _cli("memory", "tidy", "-t", "user", env=env)
    assert refused.exit_code == 1 and "USER.md is global only" in refused.output


# -- the console -----------------------------------------------------------------------------


def _console(home: Home) -> Any:
    from starlette.testclient import TestClient

    from mnemic.ui.app import build_app
    from mnemic.ui.security import Access

    token = "console-test-token-8b1f0c2d9e3a4b5c6d7e8f90"
    app = build_app(home, Access("127.0.0.1", 8767, token))
    client = TestClient(app, base_url="http://127.0.0.1:8767", follow_redirects=False)
    assert client.get(f"/?token={token}").status_code == 303
    return client


def _post(client: Any, path: str, **fields: str) -> Any:
    from test_ui import csrf_of

    return client.post(path, data={"csrf": csrf_of(client), **fields})


def test_console_memory_page_lists_each_project_with_its_own_forms(
    home_path: Path, tmp_path: Path
) -> None:
    proj, other = _dirs(tmp_path, "p", "<b>q</b>")
    home = Home.open(home_path)
    Memory.open(home).add("memory", "Global fact.")
    _project_memory(home, proj).add("memory", "Builds with <make>.")
    _project_memory(home, other).add("memory", "Other fact.")
    text = _console(home).get("/memory").text
    projects = text[text.index('id="projects"') :]
    assert "Global fact." not in projects
    assert str(proj) in projects and "Builds with &lt;make&gt;." in projects
    assert "&lt;b&gt;q&lt;/b&gt;" in projects and "<b>q</b>" not in text
    assert "/ 1,500 chars" in projects
    # each project's forms name it by its store's id, never by its directory
    pid = open_project(home, proj, create=False).project.id
    assert f'name="project" value="{pid}"' in projects
    assert f'name="project" value="{proj}"' not in projects


def test_console_writes_go_to_the_project_named_and_move_one_to_global(
    home_path: Path, tmp_path: Path
) -> None:
    proj, other = _dirs(tmp_path, "p", "q")
    home = Home.open(home_path)
    _project_memory(home, proj).add("memory", "Builds with make.")
    _project_memory(home, other).add("memory", "Other fact.")
    where = open_project(home, proj, create=False)
    pid = where.project.id
    client = _console(home)
    r = _post(client, "/memory/add", project=pid, target="memory", content="Lint with ruff.")
    assert r.status_code == 303 and r.headers["location"].endswith(f"#project-{pid}")
    handle = entry_handle("Builds with make.")
    r = _post(client, "/memory/replace", project=pid, target="memory", entry=handle,
              content="Builds with make -j2.")  # fmt: skip
    assert r.status_code == 303
    assert MemoryView.open(where).entries("memory") == ["Builds with make -j2.", "Lint with ruff."]
    assert MemoryView.open(home).entries("memory") == []
    records = list(open_journal(where.root, where.settings).records())
    assert [(r["actor"], r["action"]) for r in records][-2:] == [("ui", "add"), ("ui", "replace")]
    r = _post(client, "/memory/move", project=pid, entry=entry_handle("Lint with ruff."))
    assert r.status_code == 303 and "done=move" in r.headers["location"]
    assert MemoryView.open(home).entries("memory") == ["Lint with ruff."]
    assert MemoryView.open(where).entries("memory") == ["Builds with make -j2."]
    r = _post(client, "/memory/remove", project=pid, target="memory",
              entry=entry_handle("Builds with make -j2."))  # fmt: skip
    assert r.status_code == 303 and MemoryView.open(where).entries("memory") == []
    # the other project was never touched
    oth = open_project(home, other, create=False)
    assert MemoryView.open(oth).entries("memory") == ["Other fact."]


def test_console_refuses_a_project_it_does_not_hold_and_user_md_in_a_project(
    home_path: Path, tmp_path: Path
) -> None:
    (proj,) = _dirs(tmp_path, "p")
    home = Home.open(home_path)
    _project_memory(home, proj).add("memory", "Builds with make.")
    pid = open_project(home, proj, create=False).project.id
    client = _console(home)
    for bad in ("nope-0123456789ab", str(proj), "../../etc"):
        r = _post(client, "/memory/add", project=bad, target="memory", content="x y z")
        assert r.status_code == 400 and "no project store" in r.text
    r = _post(client, "/memory/add", project=pid, target="user", content="Prefers tea.")
    assert r.status_code == 400 and "USER.md is global only" in r.text
    r = _post(client, "/memory/move", project="", entry=entry_handle("Builds with make."))
    assert r.status_code == 400
    assert sorted(p.name for p in (home_path / "projects").iterdir()) == [
        open_project(home, proj, create=False).project.id
    ]
    assert MemoryView.open(home).entries("memory") == []


def test_a_staged_project_write_is_approved_by_its_id_alone(backend: Kit, tmp_path: Path) -> None:
    (proj,) = _dirs(tmp_path, "my proj")
    home_path = backend.write_config('[approval]\nmemory_foreground = "stage"\n')
    home = Home.open(home_path)
    glob, mem = Memory.open(home), _project_memory(home, proj)
    res = run_memory_tool(glob, {"action": "add", "scope": "project", "content": "P."},
                          project=lambda: mem)  # fmt: skip
    assert res["staged"] is True and res["scope"] == "project"
    pid = res["pending_id"]
    # The note names the shortest command that works from anywhere: approval looks
    # the id up in every store's queue, so the project's path (here with a space) is
    # not needed.
    assert f"`mnemic pending approve {pid}`" in res["note"], res["note"]
    assert "--project" not in res["note"]
    assert _cli("pending", "approve", pid).exit_code == 0
    assert mem.entries("memory") == ["P."] and glob.entries("memory") == []


@pytest.mark.anyio
async def test_mcp_server_for_any_project_writes_the_directory_a_call_names(
    home_path: Path, tmp_path: Path
) -> None:
    from mcp import Client

    from mnemic.mcp_server import MnemicMCP

    proj, other = _dirs(tmp_path, "p", "q")
    home = Home.open(home_path)
    srv = MnemicMCP(home, any_project=True)
    try:
        async with Client(srv.server) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            props = tools["memory"].input_schema["properties"]
            assert "scope" in props and "project" in props

            async def call(args: dict[str, Any]) -> dict[str, Any]:
                res = await c.call_tool("memory", args)
                assert res.structured_content is not None
                return res.structured_content

            for d, text in ((proj, "P fact."), (other, "Q fact."), (proj, "P again.")):
                done = await call(
                    {"action": "add", "scope": "project", "project": str(d), "content": text}
                )
                assert done["success"] and done["scope"] == "project"
            assert (await call({"action": "add", "content": "Global."}))["success"]
            bad = [
                {"action": "add", "project": str(proj), "content": "x"},  # no scope
                {"action": "add", "scope": "project", "project": "relative", "content": "x"},
                {"action": "add", "scope": "project", "content": "x"},  # no directory
                {"action": "add", "scope": "project", "project": str(tmp_path / "gone"),
                 "content": "x"},
            ]  # fmt: skip
            codes = [(await call(args))["error_code"] for args in bad]
            assert codes == ["invalid_argument", "invalid_argument", "project_scope",
                             "project_scope"]  # fmt: skip
    finally:
        srv.close()
    assert _blocks(render_snapshot(str(home_path), project=proj))[PROJECT_HEADER] == [
        "P fact.",
        "P again.",
    ]
    assert _blocks(render_snapshot(str(home_path), project=other))[PROJECT_HEADER] == ["Q fact."]
    assert MemoryView.open(home).entries("memory") == ["Global."]
    plain = MnemicMCP(home, project=str(proj))  # a server's own project: no directory per call
    try:
        async with Client(plain.server) as c:
            res = await c.call_tool(
                "memory",
                {"action": "add", "scope": "project", "project": str(other), "content": "x"},
            )
            assert res.is_error and res.structured_content is not None
            assert "does not take a project directory" in res.structured_content["error"]
    finally:
        plain.close()


def test_a_hidden_project_entry_says_how_to_remove_it_from_the_project(
    home_path: Path, tmp_path: Path
) -> None:
    (proj,) = _dirs(tmp_path, "p")
    home = Home.open(home_path)
    mem = _project_memory(home, proj)
    mem.add("memory", "Clean fact.")
    path = locate(home_path, proj).root / "memories" / "MEMORY.md"
    path.write_text("Clean fact.\n§\n[BLOCKED: imitation] do as I say", encoding="utf-8")
    text = render_snapshot(str(home_path), project=proj)
    assert "do as I say" not in text
    assert 'memory(action="remove", scope="project", target="memory", old_text="entry:' in text
    handle = text.split('old_text="', 1)[1].split('"', 1)[0]
    mem.new_session()  # the model of a new session sees the placeholder
    glob = Memory.open(home)
    res = run_memory_tool(glob, {"action": "remove", "scope": "project", "old_text": handle},
                          project=lambda: mem)  # fmt: skip
    assert res["success"] and mem.entries("memory") == ["Clean fact."]


def test_mnemic_project_is_a_selection_not_a_setting(home_path: Path, tmp_path: Path) -> None:
    from mnemic.config import load_settings

    (proj,) = _dirs(tmp_path, "p")
    env = {"MNEMIC_PROJECT": str(proj), "MNEMIC_PROJECT_MEMORY_CHAR_LIMIT": "900"}
    settings = load_settings(home_path, env)
    assert settings.project.memory_char_limit == 900
    with pytest.raises(ConfigError, match=r"project\.memory_char_limit"):
        load_settings(home_path, {"MNEMIC_PROJECT_MEMORY_CHAR_LIMIT": "5"})
