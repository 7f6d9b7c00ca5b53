"""The command table of the lazy CLI (``mnemic.cli.commands``) is the CLI's true map.

``mnemic --help`` lists the table's short help without importing the commands, so the
table must say what each command says of itself, and must name every command there is.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import mnemic.cli
from mnemic.cli import main
from mnemic.cli.commands import COMMANDS, LazyGroup, load, subcommands


@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_each_table_entry_is_the_command_it_names_with_its_own_short_help(path: str) -> None:
    entry = COMMANDS[path]
    command = load(entry.target)
    assert command.name == path.split()[-1]
    assert command.hidden == entry.hidden
    assert entry.help == command.get_short_help_str(limit=10**6)
    listed = click.Command(command.name, help=entry.help)  # what --help lists before loading
    for limit in (20, 45, 60, 80, 200):
        assert listed.get_short_help_str(limit) == command.get_short_help_str(limit), limit


def _groups() -> list[tuple[str, click.Group]]:
    """Every group of the CLI by its path below ``mnemic`` (the root is ``""``)."""
    found: list[tuple[str, click.Group]] = []
    todo: list[tuple[str, click.Group]] = [("", main)]
    while todo:
        path, group = todo.pop()
        found.append((path, group))
        ctx = click.Context(group)
        for name in group.list_commands(ctx):
            sub = group.get_command(ctx, name)
            if isinstance(sub, click.Group):
                todo.append((f"{path} {name}".strip(), sub))
    return found


def test_every_group_loads_the_commands_the_table_lists_under_it() -> None:
    groups = _groups()
    assert {path for path, _ in groups} >= {"", "memory", "sessions", "skills", "hook"}
    in_table = set()
    for path, group in groups:
        if isinstance(group, LazyGroup):
            assert group.lazy == subcommands(path), path
            in_table |= {f"{path} {name}".strip() for name in group.lazy}
    assert in_table == set(COMMANDS)  # no entry names a group that does not load it


def test_help_lists_every_visible_command_with_the_words_it_says_of_itself() -> None:
    out = CliRunner().invoke(main, ["--help"], terminal_width=200).output
    listed = out.split("Commands:\n", 1)[1].splitlines()
    rows = dict(line.strip().split(None, 1) for line in listed if line.strip())
    visible = {name: entry.help for name, entry in subcommands().items() if not entry.hidden}
    assert rows == visible


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["memroy"], "No such command 'memroy'. (Did you mean one of: 'demo', 'memory'?)"),
        (["sessions", "embedd"], "No such command 'embedd'. Did you mean 'embed'?"),
    ],
)
def test_a_mistyped_command_is_offered_the_commands_not_loaded_yet(
    argv: list[str], said: str
) -> None:
    # a fresh process: in this one, other tests have loaded commands already
    result = subprocess.run(
        [sys.executable, "-m", "mnemic", *argv], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert said in result.stderr


def test_every_command_module_is_in_the_table_and_kept_out_of_the_root_by_contract() -> None:
    cli = Path(mnemic.cli.__file__).parent
    # what every command shares (root: the group; hook_run: the hook without click)
    shared = {"__init__", "app", "commands", "root", "hook_run"}
    modules = {f"mnemic.cli.{p.stem}" for p in cli.glob("*.py") if p.stem not in shared}
    assert {entry.target.split(":")[0] for entry in COMMANDS.values()} == modules
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    contracts = pyproject["tool"]["importlinter"]["contracts"]
    (root,) = [c for c in contracts if c["name"] == "The CLI's root imports no command module"]
    assert set(root["forbidden_modules"]) == modules
