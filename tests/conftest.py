"""Shared fixtures: every test gets its own private MNEMIC_HOME."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mnemic.curated import Memory


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


@pytest.fixture
def make_memory(home_path: Path) -> Callable[..., Memory]:
    """Open a Memory on the test home, with [memory] settings given as keywords."""

    def make(**memory_settings: object) -> Memory:
        home_path.mkdir(parents=True, exist_ok=True)
        if memory_settings:
            lines = ["[memory]"]
            for key, value in memory_settings.items():
                rendered = str(value).lower() if isinstance(value, bool) else repr(value)
                lines.append(f"{key} = {rendered}")
            (home_path / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        return Memory.open(home_path)

    return make
