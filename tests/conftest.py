"""Shared fixtures: every test gets its own private MNEMIC_HOME."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "home"
    monkeypatch.setenv("MNEMIC_HOME", str(home))
    monkeypatch.delenv("MNEMIC_PROFILE", raising=False)
    for name in list(__import__("os").environ):
        if name.startswith("MNEMIC_") and name not in ("MNEMIC_HOME",):
            monkeypatch.delenv(name, raising=False)
    yield home


@pytest.fixture
def home_path(_isolated_home: Path) -> Path:
    """The isolated home directory of this test (not created yet)."""
    return _isolated_home
