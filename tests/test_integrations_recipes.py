"""The integration recipes in docs/integrations.md and the README's "Use with Claude Code"
section name only commands and options that exist: every `mnemic` command line in their
shell blocks, every MCP server entry (JSON, TOML) and hook command that starts mnemic is
resolved against the real command tree, and each command they reach answers `--help` in
a subprocess."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import click
import pytest

from mnemic.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "integrations.md"
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def _readme_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Use with Claude Code")
    return text[start : text.index("\n## ", start + 1)]


def _blocks() -> list[tuple[str, str, str]]:
    out = []
    for name, text in (
        ("docs/integrations.md", DOCS.read_text("utf-8")),
        ("README", _readme_section()),
    ):
        out += [(name, lang, body) for lang, body in FENCE.findall(text)]
    return out


def _is_mnemic(program: str) -> bool:
    return program == "mnemic" or program.endswith("/mnemic")


def _from_server(entry: dict[str, Any]) -> list[str] | None:
    if _is_mnemic(str(entry.get("command", ""))):
        return [str(a) for a in entry.get("args", [])]
    return None


def _command_lines() -> list[tuple[str, list[str]]]:
    """(where, argv after the program) of every mnemic invocation in the recipes."""
    found: list[tuple[str, list[str]]] = []
    for where, lang, body in _blocks():
        if lang in ("sh", ""):
            for line in body.splitlines():
                argv = shlex.split(line, comments=True)
                if argv and _is_mnemic(argv[0]):
                    found.append((where, argv[1:]))
        elif lang == "json":
            data = json.loads(body)
            for entry in (data.get("mcpServers") or {}).values() if isinstance(data, dict) else ():
                if (argv := _from_server(entry)) is not None:
                    found.append((where, argv))
            if isinstance(data, dict) and "command" in data and data.get("type") == "command":
                found.append((where, shlex.split(data["command"])[1:]))
            for groups in (data.get("hooks") or {}).values() if isinstance(data, dict) else ():
                for group in groups:
                    for handler in group["hooks"]:
                        found.append((where, shlex.split(handler["command"])[1:]))
        elif lang == "toml":
            for entry in tomllib.loads(body).get("mcp_servers", {}).values():
                if (argv := _from_server(entry)) is not None:
                    found.append((where, argv))
    return found


def _resolve(argv: list[str]) -> tuple[str, ...]:
    """The command path argv reaches; fails on an option or command that does not exist."""
    command: click.Command = main
    ctx = click.Context(main, info_name="mnemic")
    path: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if token.startswith("-"):
            name = token.split("=", 1)[0]
            options = [p for p in command.params if isinstance(p, click.Option)]
            match = [o for o in options if name in o.opts or name in o.secondary_opts]
            assert match, f"`mnemic {' '.join(path)}` has no option {name}"
            if not match[0].is_flag and not match[0].count and "=" not in token:
                i += match[0].nargs  # its value (two for `tidy --explain A B`)
        elif isinstance(command, click.Group) and token in command.list_commands(ctx):
            command = command.get_command(ctx, token) or command
            ctx = click.Context(command, parent=ctx, info_name=token)
            path.append(token)
        else:
            assert any(isinstance(p, click.Argument) for p in command.params), (
                f"`mnemic {' '.join(path)}` takes no argument {token!r}"
            )
        i += 1
    assert not isinstance(command, click.Group) or command.invoke_without_command, (
        f"`mnemic {' '.join(path)}` needs a command"
    )
    return tuple(path)


LINES = _command_lines()


def test_the_recipes_hold_every_integration() -> None:
    paths = {_resolve(argv) for _, argv in LINES}
    # the Claude Code command, its hook, the MCP server (stdio and HTTP) and the snapshot
    assert {("integrate", "claude-code"), ("hook", "claude-code"), ("mcp",), ("prompt",)} <= paths
    docs = DOCS.read_text("utf-8")
    for client in ("### Cursor", "### Codex CLI", "### Any other MCP client"):
        assert client in docs


@pytest.mark.parametrize(("where", "argv"), LINES, ids=[" ".join(a) for _, a in LINES])
def test_every_mnemic_command_line_in_the_recipes_exists(where: str, argv: list[str]) -> None:
    _resolve(argv)


@pytest.mark.parametrize("path", sorted({_resolve(argv) for _, argv in LINES}))
def test_every_command_the_recipes_reach_answers_help(path: tuple[str, ...]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mnemic", *path, "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Usage: ")


def test_the_resolver_catches_a_wrong_option() -> None:
    with pytest.raises(AssertionError, match="has no option --scope"):
        _resolve(["integrate", "claude-code", "--scope", "user"])
    with pytest.raises(AssertionError, match="needs a command"):
        _resolve(["integrate"])
