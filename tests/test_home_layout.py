"""The home's layout has one source of truth (:data:`mnemic.home.HOME_NAMES`): what marks
a directory as a home, which `init`, the first write, `mcp` and `ui` all check."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import mnemic.cli.app
import mnemic.home
from _cli import cli
from mnemic.curated.scope import PROJECTS_DIR
from mnemic.home import HOME_NAMES, Home, home_names
from mnemic.ops.access_token import HOME_TOKEN_FILE
from mnemic.ops.bundle.restore import PARTS
from mnemic.sessions.attachments import DIRNAME


def test_the_marker_names_are_the_layouts_names(tmp_path: Path) -> None:
    home = Home(tmp_path, settings=None)  # type: ignore[arg-type]  # only its paths are read
    layout = {home.memories_dir, home.sessions_db, home.skills_dir, home.profiles_dir}
    assert {p.name for p in layout} <= HOME_NAMES
    assert {PROJECTS_DIR, DIRNAME, HOME_TOKEN_FILE, *PARTS} <= HOME_NAMES
    # one source of truth: the CLI keeps no copy of its own
    assert not any(
        isinstance(v, frozenset) and "memories" in v for v in vars(mnemic.cli.app).values()
    )


def test_home_names_reads_a_directory_once_and_says_whether_it_is_a_home(tmp_path: Path) -> None:
    assert home_names(tmp_path / "nothing") == ([], False)
    (tmp_path / "b.txt").write_text("x")
    assert home_names(tmp_path) == (["b.txt"], False)
    (tmp_path / "memories").mkdir()
    assert home_names(tmp_path) == (["b.txt", "memories"], True)


@pytest.mark.parametrize("made", [False, True])
def test_init_lists_the_directory_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, made: bool
) -> None:
    """The refusal check and "already a home?" are one look, not two (a directory that
    changed between two looks could be both refused-free and not yet a home)."""
    target = tmp_path / "home"
    target.mkdir()
    if made:
        (target / "memories").mkdir()
    seen: list[str] = []
    listdir = os.listdir

    def counting(path: str | os.PathLike[str]) -> list[str]:
        if os.fspath(path) == str(target):
            seen.append(os.fspath(path))
        return listdir(path)

    monkeypatch.setattr(mnemic.home.os, "listdir", counting)
    r = cli("--home", str(target), "init")
    assert r.exit_code == 0, r.output
    assert ("already exists" in r.output) is made
    assert len(seen) == 1
