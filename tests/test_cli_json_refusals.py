"""Under ``--json`` every command refuses in one shape: a program reads one JSON object
on stdout (``success: false``, ``error``, ``error_code``; the memory tool's and
session_search's answers add their own fields), the same reason is on stderr for the
person (the memory tool's refusals in a person's words there), and the exit status is
the one without ``--json`` (1 refused, 2 usage).

Real homes, the real CLI (click's runner, stdout and stderr apart), real stores.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from mnemic.cli import main
from mnemic.cli.root import main as root
from mnemic.curated.memory import Memory

# (arguments after --home, exit status): refusals (1) and usage errors (2) across the
# commands that take --json, whichever way each is raised (a mnemic error, the memory
# tool's answer, a click error in the command, a bad value click finds while parsing).
CASES = [
    (["memory", "remove", "no such text", "--json"], 1),
    (["memory", "add", "x" * 3000, "--json"], 1),
    (["memory", "restore", "99", "--yes", "--json"], 1),
    (["memory", "archive", "show", "nosuch", "--json"], 1),
    (["memory", "archive", "restore", "nosuch", "--json"], 1),
    (["sessions", "show", "nosuch", "--json"], 1),
    (["sessions", "delete", "nosuch", "--yes", "--json"], 1),
    (["pending", "show", "p-nosuch", "--json"], 1),
    (["pending", "diff", "p-nosuch", "--json"], 1),
    (["pending", "approve", "p-nosuch", "--json"], 1),
    (["skills", "show", "nosuch", "--json"], 1),
    (["sessions", "search", "--json"], 2),
    (["sessions", "search", "host", "--as-of", "1e99", "--json"], 2),
    (["sessions", "list", "--limit", "x", "--json"], 2),
    (["memory", "history", "--target", "bogus", "--json"], 2),
    (["memory", "search", "--json"], 2),
    (["export", "--json"], 2),
    (["forget", "--json"], 2),
]


# The commands whose --json refusal is the memory tool's answer, worded for a model
# ("see current_entries", "operations"): stderr gives a person's wording of the same
# refusal instead (docs/first-week.md), which starts as these do.
PERSON = {
    "memory remove": "No MEMORY.md entry contains 'no such text'",
    "memory add": "This entry is 3,000 chars, longer than the whole MEMORY.md budget",
}


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    Memory.open(home).add("memory", "The staging host is stg-7.internal.")
    return home


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def _files(home: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(home.glob("*.md"))}


@pytest.mark.parametrize(
    ("args", "status"), CASES, ids=[" ".join(x[:12] for x in a[:3]) for a, _ in CASES]
)
def test_a_refusal_under_json_is_one_json_object_and_the_reason_on_stderr(
    tmp_path: Path, args: list[str], status: int
) -> None:
    home = _home(tmp_path)
    before = _files(home)
    result = _run(home, *args)
    assert result.exit_code == status, (result.stdout, result.stderr)
    answer = json.loads(result.stdout)  # one document, nothing else on stdout
    assert isinstance(answer, dict), answer
    assert answer["success"] is False
    assert isinstance(answer["error"], str) and answer["error"]
    assert isinstance(answer["error_code"], str) and answer["error_code"]
    person = PERSON.get(" ".join(args[:2]))
    if person is None:
        assert answer["error"].splitlines()[0] in result.stderr
    else:  # the memory tool's answer speaks to a model; stderr to the person at hand
        assert result.stderr.startswith(f"mnemic: {person}"), result.stderr
    assert _files(home) == before  # a refusal leaves the memory files' bytes as they were


def test_without_json_a_refusal_is_only_on_stderr(tmp_path: Path) -> None:
    home = _home(tmp_path)
    result = _run(home, "sessions", "show", "nosuch")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("mnemic: No session 'nosuch'")


def test_a_usage_error_code_is_usage_and_a_mnemic_error_keeps_its_own(tmp_path: Path) -> None:
    home = _home(tmp_path)
    usage = json.loads(_run(home, "sessions", "list", "--limit", "x", "--json").stdout)
    assert usage["error_code"] == "usage"
    missing = json.loads(_run(home, "sessions", "show", "nosuch", "--json").stdout)
    assert missing["error_code"] == "session_not_found"


def test_json_given_as_text_after_double_dash_is_not_the_flag(tmp_path: Path) -> None:
    home = _home(tmp_path)
    result = _run(home, "memory", "add", "--", "--json")
    assert result.exit_code == 0, result.stderr
    assert not result.stdout.lstrip().startswith("{")


def _json_commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command (and group) under ``group`` that takes --json, as its words."""
    ctx = click.Context(group)
    found: list[tuple[str, ...]] = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None:
            continue
        if any(p.name == "as_json" for p in command.params):
            found.append((*prefix, name))
        if isinstance(command, click.Group):
            found += _json_commands(command, (*prefix, name))
    return found


def test_every_json_command_refuses_a_wrong_option_in_the_one_shape(tmp_path: Path) -> None:
    """A usage error click finds while parsing (here an option no command has) is the same
    JSON refusal on stdout, for each of the commands that take --json."""
    home = _home(tmp_path)
    commands = _json_commands(root)
    assert len(commands) >= 50, commands
    wrong = []
    for words in commands:
        result = _run(home, *words, "--json", "--no-such-option")
        try:
            answer = json.loads(result.stdout)
        except ValueError:
            answer = None
        if (
            result.exit_code != 2
            or not isinstance(answer, dict)
            or sorted(answer) != ["error", "error_code", "success"]
            or (answer["success"], answer["error_code"]) != (False, "usage")
            or "--no-such-option" not in answer["error"]
        ):
            wrong.append((" ".join(words), result.exit_code, result.stdout[:80]))
    assert not wrong, wrong


def test_a_question_under_json_is_asked_on_stderr(tmp_path: Path) -> None:
    """`sessions delete ID --json` with nobody to answer printed its question on stdout
    before the JSON refusal ("Delete ... [y/N]: {"), so stdout did not parse."""
    from mnemic.home import Home
    from mnemic.sessions import open_store
    from mnemic.sessions.store import NewMessage

    home = _home(tmp_path)
    with open_store(Home.open(home)) as store:
        sid = store.start_session(source="cli")
        store.append_message(sid, NewMessage("user", "the billing deploy hit ERR_QUOTA_7731"))
    result = _run(home, "sessions", "delete", sid, "--json")
    assert result.exit_code == 1
    answer = json.loads(result.stdout)
    assert answer["error_code"] == "refused" and "--yes" in answer["error"]
    assert f"Delete {sid}" in result.stderr
