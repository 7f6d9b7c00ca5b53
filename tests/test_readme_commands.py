"""Every `mnemic` command line in the shell blocks of README.md and docs/*.md names
commands and options that exist (resolved against the real command tree, as the
integration recipes are in tests/test_integrations_recipes.py). The README's shorthand
is read as a person reads it: ``a && b`` is two lines, ``[--stage]`` an optional part,
``< file`` a redirect, and ``list | show ID | diff ID`` the same group's commands
(``--user | --sessions TEXT``: the same command's options)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from tests.test_integrations_recipes import _is_mnemic, _resolve

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def _lines(text: str) -> list[list[str]]:
    """The argv (after the program) of every mnemic invocation in the shell blocks."""
    found: list[list[str]] = []
    for lang, body in FENCE.findall(text):
        if lang not in ("sh", ""):
            continue
        for line in body.splitlines():
            line = line.removeprefix("$ ")
            if not _is_mnemic(line.split(" ", 1)[0]):
                continue
            tokens = [t.strip("[]") for t in shlex.split(line, comments=True)]
            if "<" in tokens:
                tokens = tokens[: tokens.index("<")]
            command: list[str] = []
            for token in [*tokens, "&&"]:
                if token != "&&":
                    command.append(token)
                elif command:
                    found += _alternatives(command[1:])
                    command = []
    return found


def _alternatives(argv: list[str]) -> list[list[str]]:
    if "|" not in argv:
        return [argv]
    cut = argv.index("|")
    first, rest = argv[:cut], argv[cut + 1 :]
    path = _resolve(first)
    out = [first]
    for alt in " ".join(rest).split(" | "):
        words = alt.split()
        head = list(path) if words[0].startswith("-") else list(path[:-1])
        out.append(head + words)
    return out


LINES = _lines(README.read_text(encoding="utf-8"))
DOC_LINES = [
    (page.name, argv) for page in PAGES[1:] for argv in _lines(page.read_text(encoding="utf-8"))
]


def test_the_readme_shows_the_commands_of_every_part() -> None:
    paths = {_resolve(argv) for argv in LINES}
    assert {
        ("init",),
        ("memory", "add"),
        ("memory", "tidy"),
        ("sessions", "search"),
        ("skills", "create"),
        ("pending", "approve"),
        ("import", "codex"),
        ("db", "copy"),
        ("ui",),
        ("mcp",),
    } <= paths


@pytest.mark.parametrize("argv", LINES, ids=[" ".join(a) for a in LINES])
def test_every_mnemic_command_line_in_the_readme_exists(argv: list[str]) -> None:
    _resolve(argv)


@pytest.mark.parametrize(
    ("page", "argv"), DOC_LINES, ids=[f"{p}: {' '.join(a)}" for p, a in DOC_LINES]
)
def test_every_mnemic_command_line_in_the_docs_exists(page: str, argv: list[str]) -> None:
    _resolve(argv)


def test_the_shorthand_is_read_as_a_person_reads_it() -> None:
    text = (
        "```sh\nmnemic memory history && mnemic memory diff 1\n"
        "mnemic pending list | show ID | approve ID|all  # review\n"
        "mnemic forget --user | --sessions TEXT\n"
        "mnemic skills create x -d 'y' < steps.md\nmnemic audit list [--json]\n```\n"
        "```\n$ mnemic memory tidy --stage\nMEMORY.md: no proposals\n```\n"
    )
    assert _lines(text) == [
        ["memory", "history"],
        ["memory", "diff", "1"],
        ["pending", "list"],
        ["pending", "show", "ID"],
        ["pending", "approve", "ID|all"],
        ["forget", "--user"],
        ["forget", "--sessions", "TEXT"],
        ["skills", "create", "x", "-d", "y"],
        ["audit", "list", "--json"],
        ["memory", "tidy", "--stage"],
    ]


def test_the_readme_names_every_core_dependency() -> None:
    """README's Install section names the packages the core needs, as pyproject has them
    (it said five, without snowballstemmer, the word stems of ranking)."""
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = [re.split(r"[<>=\[ ]", d, maxsplit=1)[0] for d in deps["dependencies"]]
    text = README.read_text(encoding="utf-8")
    match = re.search(r"The core needs (\w+) small packages \(([^)]*)\)", text)
    assert match is not None
    words = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
    assert match.group(1) == words[len(names)]
    assert sorted(n.strip().lower() for n in match.group(2).split(",")) == sorted(
        n.lower() for n in names
    )
