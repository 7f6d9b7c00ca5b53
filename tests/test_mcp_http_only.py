"""The options that only apply over HTTP, refused alike by `mnemic mcp` and
`python -m mnemic.mcp_server` (one check since session 51: ``serve.http_only``)."""

from __future__ import annotations

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
    home_path: Path, argv: list[str], said: str
) -> None:
    cli = CliRunner().invoke(main, ["--home", str(home_path), "mcp", *argv])
    assert cli.exit_code == 2 and said in cli.output, cli.output
    module = subprocess.run(
        [sys.executable, "-m", "mnemic.mcp_server", "--home", str(home_path), *argv],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert module.returncode == 2 and said in module.stderr, module.stderr
    assert not home_path.exists()  # refused before anything was made
