"""The suite's own speed: with ``PYTHONDONTWRITEBYTECODE`` set, the subprocesses the tests
start read ``mnemic``'s bytecode, compiled once by ``conftest.py``, instead of compiling
every module from source again (about 0.8 s of CPU a start)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CHILD = (
    "import importlib.util, os, sys, mnemic.scan.intent as m; "
    "print(bool(sys.flags.dont_write_bytecode), "
    "os.path.isfile(importlib.util.cache_from_source(m.__file__)))"
)


@pytest.mark.slow  # starts a process
@pytest.mark.skipif(
    not sys.flags.dont_write_bytecode or sys.prefix == sys.base_prefix,
    reason="only with PYTHONDONTWRITEBYTECODE set, in a venv (otherwise Python caches itself)",
)
def test_a_subprocess_finds_the_bytecode_of_mnemic_and_still_writes_none() -> None:
    child = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120, check=True
    )
    assert child.stdout.split() == ["True", "True"], child.stderr
