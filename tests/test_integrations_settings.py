"""Merging mnemic into Claude Code's settings, as properties over generated settings files:
whatever the user has, installing keeps it, installing twice equals installing once, and
removing gives back the user's JSON value exactly."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemic.errors import IntegrationError
from mnemic.home import home_dir
from mnemic.integrations.claude_code import (
    EVENTS,
    home_args,
    hook_command,
    integrate_claude_code,
    launcher,
)
from mnemic.integrations.jsonfile import MAX_DEPTH, dump_json, read_json_object

ENV = {"HOME": "/nonexistent-home", "CLAUDE_CONFIG_DIR": ""}

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
handler = st.fixed_dictionaries(
    {"type": st.just("command"), "command": st.text(min_size=1, max_size=30)},
    optional={"timeout": st.integers(1, 600)},
)
group = st.fixed_dictionaries(
    {"hooks": st.lists(handler, min_size=1, max_size=3)},
    optional={"matcher": st.sampled_from(["", "*", "startup", "Bash", "manual|auto"])},
)
hooks = st.dictionaries(  # a user's event list may be empty: removal must keep it
    st.sampled_from([*EVENTS, "PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit"]),
    st.lists(group, min_size=0, max_size=3),
    min_size=1,
    max_size=4,
)
user_settings = st.dictionaries(
    st.text(max_size=10).filter(lambda k: k != "hooks"), json_value, max_size=4
).flatmap(lambda base: st.one_of(st.just(base), hooks.map(lambda h: {**base, "hooks": h})))
servers = st.dictionaries(
    st.text(min_size=1, max_size=10).filter(lambda k: k != "mnemic"),
    st.fixed_dictionaries(
        {"command": st.text(min_size=1, max_size=10), "args": st.lists(st.text(max_size=8))}
    ),
    min_size=1,
    max_size=3,
)
user_mcp = st.dictionaries(
    st.text(max_size=10).filter(lambda k: k != "mcpServers"), json_value, max_size=3
).flatmap(lambda base: st.one_of(st.just(base), servers.map(lambda s: {**base, "mcpServers": s})))


def _run(project: Path, **kwargs: Any) -> Any:
    return integrate_claude_code(
        scope="project", project_dir=project, home_path="/srv/agent-home", environ=ENV, **kwargs
    )


def _files(project: Path) -> tuple[Any, Any]:
    return (
        read_json_object(project / ".claude" / "settings.json"),
        read_json_object(project / ".mcp.json"),
    )


# A file holding only `{}` means to Claude Code what no file means; mnemic deletes a file
# its removal leaves empty, so `{}` comes back as "no file" (see the test below).
@pytest.mark.slow  # over a second of CPU: out of --quick, in the whole suite (session 58)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(user_settings.filter(bool), user_mcp.filter(bool))
def test_install_keeps_everything_is_idempotent_and_remove_restores_it(
    original: dict[str, Any], mcp: dict[str, Any]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        (project / ".claude").mkdir()
        (project / ".claude" / "settings.json").write_text(json.dumps(original))
        (project / ".mcp.json").write_text(json.dumps(mcp))

        _run(project)
        installed, installed_mcp = _files(project)
        assert installed is not None and installed_mcp is not None
        for key, value in original.items():
            if key != "hooks":
                assert installed[key] == value
        for event, groups in original.get("hooks", {}).items():
            assert installed["hooks"][event][: len(groups)] == groups
        for event in EVENTS:
            assert installed["hooks"][event][-1]["hooks"][0]["command"].endswith("hook claude-code")
        for name, server in mcp.get("mcpServers", {}).items():
            assert installed_mcp["mcpServers"][name] == server

        assert not _run(project).changed
        assert _files(project) == (installed, installed_mcp)

        _run(project, remove=True)
        assert _files(project) == (original, mcp)


def test_a_file_left_empty_by_removal_is_deleted(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text("{}")
    _run(project)
    report = _run(project, remove=True)
    assert [c.action for c in report.changes] == ["deleted", "deleted"]
    assert _files(project) == (None, None)


def test_home_args_are_empty_for_the_default_home_only() -> None:
    assert home_args(None, None, {}) == []
    assert home_args(None, "default", {}) == []
    assert home_args("/srv/h", None, {}) == ["--home", "/srv/h", "--profile", "default"]
    work = home_dir(None, "work", {})
    assert work.endswith("profiles/work")
    assert home_args(None, "work", {}) == ["--home", work, "--profile", "default"]
    # MNEMIC_HOME in the installing shell is not the default: it is written out
    assert home_args(None, None, {"MNEMIC_HOME": "/x/y"})[:2] == ["--home", "/x/y"]


def test_an_explicit_command_is_split_like_a_shell_and_quoted_back() -> None:
    argv = launcher("uvx --from 'mnemic[all]' mnemic")
    assert argv == ["uvx", "--from", "mnemic[all]", "mnemic"]
    assert hook_command(argv) == "uvx --from 'mnemic[all]' mnemic hook claude-code"
    assert hook_command(["/opt/my tools/mnemic"]) == "'/opt/my tools/mnemic' hook claude-code"


def test_a_path_with_spaces_is_recognised_as_mnemics_on_removal(tmp_path: Path) -> None:
    project = tmp_path / "my project"
    project.mkdir()
    integrate_claude_code(
        scope="project",
        project_dir=project,
        home_path=str(tmp_path / "a home"),
        command="'/opt/my tools/mnemic'",
        environ=ENV,
    )
    value = read_json_object(project / ".claude" / "settings.json")
    assert value is not None
    command = value["hooks"]["PreCompact"][0]["hooks"][0]["command"]
    assert command.startswith("'/opt/my tools/mnemic' --home")
    integrate_claude_code(
        scope="project", project_dir=project, remove=True, command="mnemic", environ=ENV
    )
    assert not (project / ".claude" / "settings.json").exists()


def test_changing_the_home_updates_mnemics_entries_in_place(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    integrate_claude_code(scope="project", project_dir=project, home_path="/a", environ=ENV)
    report = integrate_claude_code(
        scope="project", project_dir=project, home_path="/b", environ=ENV
    )
    assert [c.action for c in report.changes] == ["updated", "updated"]
    settings_value, mcp = _files(project)
    for event in EVENTS:
        groups = settings_value["hooks"][event]
        assert len(groups) == 1 and "--home /b" in groups[0]["hooks"][0]["command"]
    assert mcp["mcpServers"]["mnemic"]["args"][:2] == ["--home", "/b"]


def test_a_duplicate_of_mnemics_handler_is_folded_into_one(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    integrate_claude_code(scope="project", project_dir=project, home_path="/a", environ=ENV)
    path = project / ".claude" / "settings.json"
    value = json.loads(path.read_text())
    value["hooks"]["SessionEnd"].append(json.loads(json.dumps(value["hooks"]["SessionEnd"][0])))
    path.write_text(json.dumps(value))
    integrate_claude_code(scope="project", project_dir=project, home_path="/a", environ=ENV)
    assert len(json.loads(path.read_text())["hooks"]["SessionEnd"]) == 1


@pytest.mark.parametrize(
    "text",
    [
        "{",
        '{"a": 1, "a": 2}',
        '"just a string"',
        "\x00",
        '{"a": NaN}',
        '{"a": [Infinity]}',
        '{"a": -Infinity}',
        '{"a": "\\udc00"}',
        '{"\\ud800": 1}',
        '{"a": ' + "[" * 101 + "]" * 101 + "}",
        '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}",
    ],
    ids=lambda t: t if len(t) < 30 else f"{len(t)} chars",
)
def test_read_json_object_refuses_what_it_cannot_rewrite(tmp_path: Path, text: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(IntegrationError) as info:
        read_json_object(path)
    assert info.value.path == str(path) and "Nothing was changed" in info.value.to_llm()


def test_nesting_up_to_the_limit_is_read_and_written_back() -> None:
    value = json.loads('{"a": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "settings.json"
        path.write_text(json.dumps(value))
        assert read_json_object(path) == value
        assert json.loads(dump_json(value)) == value


@given(st.floats(allow_nan=False) | st.integers() | st.sampled_from(["1e400", "-1E-400", "1.50"]))
def test_every_json_number_is_written_back_with_its_own_text(number: float | int | str) -> None:
    text = number if isinstance(number, str) else json.dumps(number).replace("Infinity", "1e999")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "settings.json"
        path.write_text(f'{{"n": {text}}}')
        value = read_json_object(path)
        assert dump_json(value) == f'{{\n  "n": {text}\n}}\n'


def test_a_user_list_is_kept_empty_and_a_created_one_goes(tmp_path: Path) -> None:
    """Install adds its group to the user's empty PreCompact list with a match-all
    matcher; removal keeps that list (emptied) and drops SessionEnd, which it created."""
    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    original = {"hooks": {"PreCompact": [], "Stop": []}}
    (project / ".claude" / "settings.json").write_text(json.dumps(original))
    _run(project)
    installed, _ = _files(project)
    assert installed["hooks"]["PreCompact"][0]["matcher"] == ""
    assert "matcher" not in installed["hooks"]["SessionEnd"][0]
    _run(project, remove=True)
    assert _files(project) == (original, None)


def test_a_directory_in_place_of_the_settings_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "p" / ".claude" / "settings.json").mkdir(parents=True)
    with pytest.raises(IntegrationError):
        integrate_claude_code(scope="project", project_dir=tmp_path / "p", environ=ENV)
    assert not (tmp_path / "p" / ".mcp.json").exists()


def test_a_project_directory_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    with pytest.raises(IntegrationError, match="is not a directory"):
        integrate_claude_code(scope="project", project_dir=tmp_path / "typo", environ=ENV)
    assert not (tmp_path / "typo").exists()


def test_the_files_own_indentation_is_kept(tmp_path: Path) -> None:
    settings_file = tmp_path / ".claude" / "settings.json"
    settings_file.parent.mkdir()
    settings_file.write_text(json.dumps({"model": "opus", "env": {"A": "1"}}, indent="\t"))
    (tmp_path / ".mcp.json").write_text('{"mcpServers": {"x": {"command": "y"}}}')
    _run(tmp_path)
    assert settings_file.read_text().startswith('{\n\t"model": "opus",\n\t"env": {\n\t\t"A"')
    assert (tmp_path / ".mcp.json").read_text().startswith('{\n  "mcpServers"')
