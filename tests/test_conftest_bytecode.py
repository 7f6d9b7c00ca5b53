"""What ``tests/conftest.py`` does to the session's bytecode (see its ``pytest_configure``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

PREFIX = Path(sys.prefix) / "pycache"
OURS = (
    sys.flags.dont_write_bytecode
    and sys.prefix != sys.base_prefix
    and os.environ.get("PYTHONPYCACHEPREFIX") == str(PREFIX)
)


@pytest.mark.skipif(not OURS, reason="the session's bytecode prefix is not the venv's")
def test_the_test_modules_pytest_rewrote_are_kept_for_the_next_run() -> None:
    """Each worker rewrote every test module's asserts (and every module of hypothesis,
    anyio, xdist) on every run: 11 s of the 18 s of CPU a collection took (session 51)."""
    here = Path(__file__).resolve()
    kept = list((PREFIX / Path(*here.parts[1:-1])).glob(f"{here.stem}.*-pytest-*.pyc"))
    assert kept, f"no rewritten {here.name} under {PREFIX}"


def test_the_tests_write_no_bytecode_when_the_run_was_told_not_to() -> None:
    """Caching stops with collection: a module a test writes and imports is not kept."""
    assert sys.dont_write_bytecode == sys.flags.dont_write_bytecode
