"""What a person new to mnemic meets outside the lifecycle commands: `mnemic init` on the
directory they made for it, a home path that is a file, a question asked with nobody at
the terminal, a listing's ids, a refusal's words. Each answer says what happened, that
nothing was lost, and what to do.

Real homes, the real CLI (click's runner).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mnemic.cli import main


def _run(home: Path, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], input=stdin)


# -- mnemic init ------------------------------------------------------------------------


def test_init_on_an_empty_directory_creates_the_home_there(tmp_path: Path) -> None:
    """`mkdir ~/agent-memory && mnemic --home ~/agent-memory init` said "already exists"."""
    made = tmp_path / "agent-memory"
    made.mkdir()
    r = _run(made, "init")
    assert r.exit_code == 0, r.output
    assert f"Created a mnemic home at {made}" in r.output and "already" not in r.output
    again = _run(made, "init")
    assert again.exit_code == 0 and "already exists" in again.output, again.output
    assert _run(made, "memory", "status").exit_code == 0


def test_init_refuses_a_directory_holding_other_files_and_says_what_to_do(
    tmp_path: Path,
) -> None:
    other = tmp_path / "photos"
    other.mkdir()
    (other / "holiday.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    r = _run(other, "init")
    assert r.exit_code == 1, r.output
    assert "not empty and is not a mnemic home" in r.output and "holiday.jpg" in r.output
    assert "Nothing was changed" in r.output and "--home" in r.output
    assert sorted(p.name for p in other.iterdir()) == ["holiday.jpg"]


def test_init_json_on_an_empty_directory_says_created(tmp_path: Path) -> None:
    made = tmp_path / "empty"
    made.mkdir()
    assert '"created": true' in _run(made, "init", "--json").output
    assert '"created": false' in _run(made, "init", "--json").output


# -- a home path that is a file ---------------------------------------------------------


@pytest.mark.parametrize(
    "args", [("init",), ("memory", "show"), ("memory", "add", "A fact")], ids=" ".join
)
def test_a_home_that_is_a_file_is_refused_and_the_file_left_alone(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """The home's directory was made private (chmod 0700) before anything looked at it:
    a file given as the home lost its group and other permissions."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    notes.chmod(0o644)
    r = _run(notes, *args)
    assert r.exit_code == 2, r.output
    assert f"{notes}: home: is a file, not a directory" in r.output, r.output
    assert "Nothing was changed" in r.output and "--home" in r.output
    assert "(file)" not in r.output and "Traceback" not in r.output
    assert notes.read_text() == "my notes\n"
    assert stat.S_IMODE(notes.stat().st_mode) == 0o644


def test_a_home_below_a_file_names_the_file(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    for args in (("memory", "add", "A fact"), ("memory", "show")):
        r = _run(notes / "home", *args)
        assert r.exit_code == 2, r.output
        assert f"is inside {notes}, which is a file" in r.output, r.output
    assert notes.read_text() == "my notes\n"


def test_a_file_where_the_home_keeps_a_directory_is_named(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "memories").write_text("not a directory")
    r = _run(home, "memory", "add", "A fact")
    assert r.exit_code == 2, r.output
    assert "memories: directory: is a file, not a directory" in r.output
    assert f"move {home / 'memories'} away" in r.output
    assert (home / "memories").read_text() == "not a directory"
    assert os.path.isfile(home / "memories")
