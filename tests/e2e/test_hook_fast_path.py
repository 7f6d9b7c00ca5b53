"""``mnemic hook claude-code`` starts its handler without click (:func:`mnemic.cli.run`):
the fast path must print the same bytes, with the same exit code, as the click command
for the same command line, and leave every other command line to click.

Each comparison runs the same arguments twice in real subprocesses: ``python -m
mnemic ARGS`` (the fast path, as the ``mnemic`` script) and ``python -c 'from mnemic.cli
import main; main()' ARGS`` (the click group itself)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mnemic.cli import hook_options

from . import compaction_event, home_with_a_project, mnemic_env, run_here, run_mnemic

_CLICK = ["-c", "from mnemic.cli import main; main()"]


def _both(
    home: Path, args: list[str], stdin: bytes, env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[bytes], subprocess.CompletedProcess[bytes]]:
    """(fast path, click group) of ``mnemic ARGS`` with ``stdin``."""
    out = []
    for how in (["-m", "mnemic"], _CLICK):
        out.append(
            subprocess.run(
                [sys.executable, *how, *args],
                input=stdin,
                capture_output=True,
                env=mnemic_env(home, env),
                timeout=120,
            )
        )
    return out[0], out[1]


def _same(
    fast: subprocess.CompletedProcess[bytes], slow: subprocess.CompletedProcess[bytes]
) -> None:
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        slow.returncode,
        slow.stdout,
        slow.stderr,
    )


def _start(cwd: Path | None = None) -> bytes:
    event = {"hook_event_name": "SessionStart", "session_id": "s1", "source": "startup"}
    if cwd is not None:
        event["cwd"] = str(cwd)
    return json.dumps(event).encode()


@pytest.fixture
def home(home_path: Path, tmp_path: Path) -> Path:
    """A home with a global entry, and a project (tmp_path/proj) with its own."""
    return home_with_a_project(home_path, tmp_path)


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--profile", "default"],
        ["--home", "HOME", "--profile", "default"],
        ["--home=HOME", "--project=PROJECT"],
        ["--project", "PROJECT"],
    ],
)
def test_the_session_start_hook_prints_what_the_click_command_prints(
    home: Path, tmp_path: Path, options: list[str]
) -> None:
    project = tmp_path / "proj"
    args = [o.replace("HOME", str(home)).replace("PROJECT", str(project)) for o in options]
    fast, slow = _both(home, [*args, "hook", "claude-code"], _start())
    _same(fast, slow)
    context = json.loads(fast.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "make -j2" in context
    assert ("Tabs, not spaces." in context) == any("PROJECT" in o for o in options)


def test_the_project_of_the_sessions_cwd_and_of_mnemic_project_come_the_same(
    home: Path, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    fast, slow = _both(home, ["hook", "claude-code"], _start(cwd=project))
    _same(fast, slow)
    assert "Tabs, not spaces." in json.loads(fast.stdout)["hookSpecificOutput"]["additionalContext"]
    env = {"MNEMIC_PROJECT": str(project)}
    fast, slow = _both(home, ["hook", "claude-code"], _start(), env=env)
    _same(fast, slow)
    assert b"Tabs, not spaces." in fast.stdout


def test_mnemic_home_and_mnemic_profile_select_the_same_home(home: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    made = run_here(other, "--profile", "work", "memory", "add", "Work profile note.")
    assert made.returncode == 0, made.stderr
    env = {"MNEMIC_PROFILE": "work"}
    fast, slow = _both(other, ["hook", "claude-code"], _start(), env=env)
    _same(fast, slow)
    assert b"Work profile note." in fast.stdout and b"make -j2" not in fast.stdout
    # an empty variable is no selection, for the root options as for the fast path
    fast, slow = _both(home, ["hook", "claude-code"], _start(), env={"MNEMIC_PROFILE": ""})
    _same(fast, slow)
    assert b"make -j2" in fast.stdout


@pytest.mark.parametrize(
    "stdin",
    [b"not json", b"", b"[1, 2]", b'{"session_id": "s1"}', b"\xff\xfe"],
    ids=["bad-json", "empty", "not-an-object", "no-event", "not-utf8"],
)
def test_bad_hook_input_gets_the_same_message_and_exit_code(home: Path, stdin: bytes) -> None:
    fast, slow = _both(home, ["hook", "claude-code"], stdin)
    _same(fast, slow)
    assert fast.returncode == 0 and fast.stdout == b""
    assert fast.stderr.startswith(b"mnemic: ") and fast.stderr.count(b"\n") == 1


def test_a_missing_home_gets_the_same_answer(tmp_path: Path) -> None:
    nowhere = tmp_path / "nowhere"
    fast, slow = _both(nowhere, ["hook", "claude-code"], _start())
    _same(fast, slow)
    assert not nowhere.exists()  # the hook never creates a home


def test_the_compaction_hook_imports_the_same_transcript(home: Path, tmp_path: Path) -> None:
    event = compaction_event(tmp_path / "t.jsonl", "s9", "hello there")
    off = {"MNEMIC_SESSIONS_SEMANTIC": "off"}
    # each in a home of its own: the second import of a transcript reads nothing new
    twin = tmp_path / "twin"
    fast = run_mnemic(home, "hook", "claude-code", stdin=event, env=off)
    slow = subprocess.run(
        [sys.executable, *_CLICK, "hook", "claude-code"],
        input=event,
        capture_output=True,
        text=True,
        env=mnemic_env(twin, off),
        timeout=120,
    )
    assert (fast.returncode, fast.stdout, fast.stderr) == (0, slow.stdout, slow.stderr)
    assert "1 new message(s)" in fast.stdout


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["hook", "claude-code"], {}),
        (["--home", "/h", "hook", "claude-code"], {"--home": "/h"}),
        (
            ["--profile=p", "--project", "/d", "--home=/h", "hook", "claude-code"],
            {"--profile": "p", "--project": "/d", "--home": "/h"},
        ),
        (["hook", "claude-code", "--help"], None),
        (["--help", "hook", "claude-code"], None),
        (["hook", "hermes"], None),
        (["memory", "show"], None),
        ([], None),
        (["--home", "/a", "--home", "/b", "hook", "claude-code"], None),
        (["--home", "hook", "claude-code"], None),
        (["--home=", "hook", "claude-code"], None),
        (["--home", "--profile", "hook", "claude-code"], None),
        (["--hom", "/h", "hook", "claude-code"], None),
        (["-h", "hook", "claude-code"], None),
        (["--version", "hook", "claude-code"], None),
        (["--home", "/h\udcff", "hook", "claude-code"], None),
        (["x", "hook", "claude-code"], None),
    ],
)
def test_only_the_plain_hook_command_line_takes_the_fast_path(
    argv: list[str], expected: dict[str, str] | None
) -> None:
    assert hook_options(argv) == expected


def test_what_the_fast_path_leaves_to_click_is_still_answered_by_click(home: Path) -> None:
    shown = run_mnemic(home, "hook", "claude-code", "--help")
    assert shown.returncode == 0 and "hook_event_name" in shown.stdout
    twice = run_mnemic(home, "--home", str(home), "--home", str(home), "hook", "claude-code")
    assert twice.returncode == 0  # click: the last one wins; stdin is empty
    assert "is empty" in twice.stderr
    missing = run_mnemic(home, "--home")
    assert missing.returncode == 2 and "requires an argument" in missing.stderr


def test_a_reader_that_went_away_ends_both_quietly_with_exit_1(home: Path) -> None:
    """stdout is a pipe whose reading end is already closed: writing the snapshot fails
    (EPIPE); click exits 1 without a word, and so does the fast path."""
    answers = []
    for how in (["-m", "mnemic"], _CLICK):
        read, write = os.pipe()
        os.close(read)
        try:
            done = subprocess.run(
                [sys.executable, *how, "hook", "claude-code"],
                input=_start(),
                stdout=write,
                stderr=subprocess.PIPE,
                env=mnemic_env(home),
                timeout=120,
            )
        finally:
            os.close(write)
        answers.append((done.returncode, done.stderr))
    assert answers[0] == answers[1] == (1, b"")
