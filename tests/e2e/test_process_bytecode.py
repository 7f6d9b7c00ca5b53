"""The bytecode the suite's processes find (``tests/conftest.py``, ``_bytecode``): with
``PYTHONDONTWRITEBYTECODE`` set and the session's pycache prefix, not only ``mnemic``'s
but the standard library's and the dependencies' modules are compiled already, so that
no process compiles them from source again (``python -m mnemic.mcp_server --help``:
1.9 s of CPU, 1.2 s with them; session 52)."""

from __future__ import annotations

import subprocess
import sys

import pytest

# Modules the CLI, the MCP server and the console import: from the standard library and
# from mnemic[all]'s dependencies; then whether this process may write bytecode.
MODULES = (
    "asyncio.base_events",
    "email.message",
    "json.decoder",
    "logging",
    "click.core",
    "rich.table",
    "anyio._backends._asyncio",
    "starlette.routing",
    "uvicorn.config",
)
CHILD = (
    "import importlib, importlib.util, os, sys\n"
    f"for name in {MODULES!r}:\n"
    "    path = importlib.import_module(name).__file__\n"
    "    print(name, os.path.isfile(importlib.util.cache_from_source(path)))\n"
    "print('writes', not sys.flags.dont_write_bytecode)\n"
)


@pytest.mark.skipif(
    not sys.flags.dont_write_bytecode or sys.prefix == sys.base_prefix,
    reason="only with PYTHONDONTWRITEBYTECODE set, in a venv (otherwise Python caches itself)",
)
def test_a_process_finds_the_bytecode_of_the_standard_library_and_the_dependencies() -> None:
    child = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120, check=True
    )
    found = dict(line.rsplit(" ", 1) for line in child.stdout.splitlines())
    assert found == {**dict.fromkeys(MODULES, "True"), "writes": "False"}, child.stderr
