"""Without the mcp extra, a misplaced ``mnemic mcp`` option is a usage error, not the
missing extra (mend 12): click parses the options before the command runs, and the
command checks them before it imports the MCP SDK. Before, ``mnemic mcp --port 9000``
without the SDK said to install ``mnemic[mcp]`` (exit 1), and once installed the same
line was refused for the option. Run as tests/e2e/test_optional_parts.py runs the CLI
without a package: a ``sitecustomize`` makes its import fail."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from . import run_mnemic

BLOCK = ("mcp", "mcp_types", "anyio", "starlette", "uvicorn")
SITE = """\
import os, sys
for name in os.environ["MNEMIC_TEST_BLOCK"].split(","):
    sys.modules[name] = None
"""


def _without_mcp(tmp_path: Path, home: Path, *args: str) -> tuple[int, str]:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITE)
    env = {
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
        "MNEMIC_TEST_BLOCK": ",".join(BLOCK),
    }
    r = run_mnemic(home, *args, env=env)
    return r.returncode, r.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--port", "9000"), "--host and --port only apply with --http"),
        (("--token-file", "t"), "--token and --token-file only apply with --http"),
    ],
)
def test_a_misplaced_option_is_a_usage_error_before_the_missing_extra(
    tmp_path: Path, home_path: Path, args: tuple[str, ...], said: str
) -> None:
    code, err = _without_mcp(tmp_path, home_path, "mcp", *args)
    assert code == 2 and said in err, err
    assert "mnemic[mcp]" not in err and "Traceback" not in err
    # well placed, the same options still name the extra
    code, err = _without_mcp(tmp_path, home_path, "mcp", "--http", *args)
    assert code == 1 and "pip install 'mnemic[mcp]'" in err, err
