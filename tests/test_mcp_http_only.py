"""The options that only apply over HTTP, refused alike by `mnemic mcp` and
`python -m mnemic.mcp_server` (one check since session 51: ``serve.http_only``).

The module's entry point runs in the test's process for each option (``runpy``, as
``python -m`` runs it: 1.5 s of CPU a start saved, each start importing the MCP SDK
before it reads its options), and once in a process of its own, for the process
boundary: the exit status and stderr of the real interpreter."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mnemic.cli import main

CASES = [
    (["--port", "9000"], "--host and --port only apply with --http"),
    (["--host", "0.0.0.0"], "--host and --port only apply with --http"),
    (["--token-file", "t"], "--token and --token-file only apply with --http"),
    (["--token", "x" * 40], "--token and --token-file only apply with --http"),
]


@pytest.mark.parametrize(("argv", "said"), CASES)
def test_both_entry_points_refuse_http_options_without_http(
    home_path: Path,
    argv: list[str],
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli = CliRunner().invoke(main, ["--home", str(home_path), "mcp", *argv])
    assert cli.exit_code == 2 and said in cli.output, cli.output
    monkeypatch.setattr(sys, "argv", ["mnemic.mcp_server", "--home", str(home_path), *argv])
    with pytest.raises(SystemExit) as exited:
        runpy.run_module("mnemic.mcp_server", run_name="__main__")
    stderr = capsys.readouterr().err
    assert exited.value.code == 2 and said in stderr, stderr
    assert not home_path.exists()  # refused before anything was made


def test_the_module_refuses_in_a_process_of_its_own(home_path: Path) -> None:
    argv, said = CASES[0]
    module = subprocess.run(
        [sys.executable, "-m", "mnemic.mcp_server", "--home", str(home_path), *argv],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert module.returncode == 2 and said in module.stderr, module.stderr
    assert not home_path.exists()
