""":func:`run_here`, which answers in this process for many e2e checks, answers as a real
``python -m mnemic`` process does, and leaves this process as it found it."""

from __future__ import annotations

import logging
import signal
from pathlib import Path

import pytest

from . import prepare, run_here, run_mnemic

# Commands that change nothing a later one reads (a refusal is journalled, and read by no
# command here): each family's listing, --json, a refusal (exit 1), a usage error (exit 2)
# and a missing home.
SAME = [
    ("memory", "show"),
    ("memory", "show", "--json"),
    ("memory", "remove", "no such entry"),
    ("memory", "add", "-t", "nope", "x"),
    ("prompt", "--json"),
    ("sessions", "show", "nope"),
    ("skills", "list", "--json"),
    ("tool", "memory", "{not json"),
    ("--profile", "wrok", "memory", "show"),
]


def test_run_here_answers_as_the_process_does(home_path: Path) -> None:
    prepare(home_path, "memory", "add", "Project uses pytest")
    prepare(home_path, "memory", "add", "--target", "user", "Name: Ada")
    for args in SAME:
        real = run_mnemic(home_path, *args)
        here = run_here(home_path, *args)
        assert (here.returncode, here.stdout, here.stderr) == (
            real.returncode,
            real.stdout,
            real.stderr,
        ), args
    assert {run_here(home_path, *args).returncode for args in SAME} == {0, 1, 2}


def test_run_here_puts_back_the_root_logger_and_the_signal_handlers(home_path: Path) -> None:
    """``mnemic mcp --http`` sets the root logger's handler (over the runner's stderr, closed
    after) before it refuses a weak token; the console sets SIGTERM's handler before it
    serves. Neither may outlive the command in the test process."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    before = {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM)}
    refused = run_here(home_path, "mcp", "--http", "--port", "0", "--token", "short")
    assert refused.returncode == 2 and "at least 32" in refused.stderr
    assert root.handlers == handlers and root.level == level
    assert {n: signal.getsignal(n) for n in before} == before


@pytest.mark.parametrize("where", ["cwd", "env"])
def test_run_here_gives_the_command_its_folder_and_environment(
    home_path: Path, tmp_path: Path, where: str
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    if where == "cwd":
        made = run_here(home_path, "memory", "add", "--project", ".", "Tabs.", cwd=project)
    else:
        made = run_here(home_path, "memory", "add", "Tabs.", env={"MNEMIC_PROJECT": str(project)})
    assert made.returncode == 0, made.stderr
    shown = run_mnemic(home_path, "memory", "show", "--project", str(project))
    assert "Tabs." in shown.stdout
