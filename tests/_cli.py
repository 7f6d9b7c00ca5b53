"""Running the CLI in-process from tests: its result, or its ``--json`` answer."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner, Result

from mnemic.cli import main

__all__ = ["cli", "cli_json"]


def cli(*args: str, env: dict[str, str] | None = None) -> Result:
    """``mnemic ARGS`` (exceptions propagate: a crash is not an exit code)."""
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def cli_json(*args: str, env: dict[str, str] | None = None) -> Any:
    """The JSON ``mnemic ARGS --json`` prints; the command must succeed."""
    result = cli(*args, "--json", env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)
