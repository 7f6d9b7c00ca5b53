"""Hostile files on disk: never a rewrite that loses content, always a clear answer."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from _cli import cli
from mnemic.curated.admin import plan_adopt
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool

ARGS_ADD = {"action": "add", "target": "memory", "content": "new fact"}
ARGS_REMOVE = {"action": "remove", "target": "memory", "old_text": "fact"}


def setup_file(home: Path, data: bytes) -> Path:
    d = home / "memories"
    d.mkdir(parents=True, exist_ok=True)
    p = d / "MEMORY.md"
    p.write_bytes(data)
    return p


@pytest.mark.parametrize(
    "data",
    [
        random.Random(7).randbytes(4096),
        b"valid start\n\xed\xa0\x80 surrogate bytes",
        b"\xff\xfe" + "utf-16 text".encode("utf-16-le"),
        b"has a NUL \x00 inside",
    ],
    ids=["random-bytes", "invalid-utf8", "utf16", "nul"],
)
def test_undecodable_files_refuse_every_write(home_path: Path, data: bytes) -> None:
    path = setup_file(home_path, data)
    mem = Memory.open(home_path)
    assert "memory" in mem.snapshot.errors and mem.snapshot.block("memory") == ""
    for args in (ARGS_ADD, ARGS_REMOVE):
        resp = run_memory_tool(mem, args)
        assert resp["success"] is False
        assert resp["error_code"] == "unreadable_file"
        assert "Nothing was written" in resp["error"]
    assert path.read_bytes() == data


def test_utf8_bom_is_fine(home_path: Path) -> None:
    setup_file(home_path, b"\xef\xbb\xbffirst\n\xc2\xa7\nsecond")
    mem = Memory.open(home_path)
    assert mem.entries("memory") == ["first", "second"]
    assert run_memory_tool(mem, ARGS_ADD)["success"]
    assert mem.entries("memory") == ["first", "second", "new fact"]


def test_crlf_file_is_read_and_kept_whole(home_path: Path) -> None:
    path = setup_file(home_path, b"one fact\r\n\xc2\xa7\r\ntwo\r\nlines")
    mem = Memory.open(home_path)
    assert mem.entries("memory") == ["one fact", "two\nlines"]
    resp = run_memory_tool(mem, {"action": "remove", "target": "memory", "old_text": "one"})
    assert resp["success"], resp
    assert path.read_text(encoding="utf-8") == "two\nlines"
    assert mem.backend.read_version("memory", 1) == "one fact\r\n§\r\ntwo\r\nlines"


def test_ten_megabyte_file(home_path: Path) -> None:
    blob = "".join(  # ~10 MB of distinct lines, no delimiters
        f"note {i}: " + "free-form notes pasted by hand " * 40 + "\n" for i in range(8200)
    )
    path = setup_file(home_path, blob.encode())
    assert path.stat().st_size > 10_000_000
    mem = Memory.open(home_path)
    block = mem.snapshot.blocks["memory"]
    assert len(block.text) < 5000 and "OVER BUDGET" in block.text
    assert "[BLOCKED:" in block.text  # too large to scan: never injected raw
    # The add cannot fit, and making room would need a remove, which the drift refuses:
    # both point the person to `mnemic memory adopt`, and share one backup.
    resp = run_memory_tool(mem, ARGS_ADD)
    assert resp["error_code"] == "drift_detected"
    first_backup = resp["drift_backup"]
    resp = run_memory_tool(mem, {"action": "remove", "target": "memory", "old_text": "free-form"})
    assert resp["error_code"] == "drift_detected"
    assert resp["drift_backup"] == first_backup
    assert os.path.getsize(resp["drift_backup"]) == path.stat().st_size
    assert path.read_text() == blob
    plan = plan_adopt(mem, "memory")
    assert plan.entries and sum(len(e) for e in plan.entries) > 9_000_000


def test_symlinked_memory_file_is_refused_and_target_untouched(home_path: Path) -> None:
    elsewhere = home_path.parent / "elsewhere.md"
    elsewhere.write_text("precious\n§\nnotes", encoding="utf-8")
    (home_path / "memories").mkdir(parents=True)
    (home_path / "memories" / "MEMORY.md").symlink_to(elsewhere)
    mem = Memory.open(home_path)
    assert "symlink" in mem.snapshot.errors["memory"]
    resp = run_memory_tool(mem, ARGS_ADD)
    assert resp["success"] is False and resp["error_code"] == "unsafe_path"
    assert elsewhere.read_text(encoding="utf-8") == "precious\n§\nnotes"
    assert (home_path / "memories" / "MEMORY.md").is_symlink()


def test_directory_in_place_of_file(home_path: Path) -> None:
    (home_path / "memories" / "MEMORY.md").mkdir(parents=True)
    mem = Memory.open(home_path)
    resp = run_memory_tool(mem, ARGS_ADD)
    assert resp["success"] is False and resp["error_code"] == "unreadable_file"


def test_tidy_stages_the_readable_file_while_the_other_is_undecodable(home_path: Path) -> None:
    """`mnemic memory tidy --stage` (and the console's Tidy page) stopped on an undecodable
    MEMORY.md while staging a USER.md proposal: the pending-queue check read both files."""
    env = {"MNEMIC_HOME": str(home_path)}
    for text in ("Prefers short answers.", "Prefers short answers!"):
        assert cli("memory", "add", "--target", "user", text, env=env).exit_code == 0
    broken = b"Repo builds\n\xc2\xa7\nbad \xff\xfe bytes"
    path = setup_file(home_path, broken)
    r = cli("memory", "tidy", "--stage", env=env)
    assert r.exit_code == 0, r.output
    assert "staged for approval as" in r.output
    assert "memory: not tidied, it cannot be read" in r.output
    assert path.read_bytes() == broken


def test_a_model_is_told_to_hand_an_unreadable_file_to_the_person(home_path: Path) -> None:
    """The model read the person's advice, "Fix or move the file ..., then retry": it
    cannot repair a file, and each retry is a failure for the loop guard. It is told to tell
    the user and go on; the person at the CLI still gets the steps to fix it."""
    data = b"valid start\n\xc2\xa7\nbad \xff bytes"
    path = setup_file(home_path, data)
    mem = Memory.open(home_path)
    for args in (ARGS_ADD, {"action": "read", "target": "memory"}):
        said = run_memory_tool(mem, args)["error"]
        assert "not valid UTF-8" in said and "Nothing was written" in said
        assert "tell the user" in said and "go on without it" in said
        assert "then retry" not in said
    assert "tell the user" in mem.snapshot.errors["memory"]  # what mnemic://memory answers
    r = cli("memory", "add", "A new fact", env={"MNEMIC_HOME": str(home_path)})
    assert r.exit_code == 1
    assert "Fix or move the file (see `mnemic memory doctor`), then retry." in r.output
    assert "tell the user" not in r.output
    assert path.read_bytes() == data


def test_a_command_that_reports_the_unreadable_file_says_it_once(home_path: Path) -> None:
    """`mnemic memory add` and `mnemic memory doctor` printed the snapshot's warning about
    an undecodable MEMORY.md, then the same text again as their refusal or problem row.
    (A real process: under pytest the log's warnings never reach stderr.)"""
    data = b"valid start\n\xc2\xa7\nbad \xff bytes"
    path = setup_file(home_path, data)
    env = {**os.environ, "MNEMIC_HOME": str(home_path)}
    for args in (("memory", "add", "A new fact"), ("memory", "doctor")):
        done = subprocess.run(
            [sys.executable, "-m", "mnemic", *args],
            env=env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 1, done.stderr
        said = done.stdout + done.stderr
        assert said.count("could not be read (not valid UTF-8") == 1, said
    assert path.read_bytes() == data


def test_doctor_fix_leaves_a_directory_in_place_of_the_file_as_it_is(home_path: Path) -> None:
    """`memory doctor` told the person to `chmod 600` a directory standing where MEMORY.md
    should be, and `--fix` did it (the directory's files then out of reach); a symlink got
    two rows with opposite advice (replace the link with its file / remove the link)."""
    (home_path / "memories" / "MEMORY.md" / "notes").mkdir(parents=True)
    (home_path / "memories" / "MEMORY.md").chmod(0o755)
    env = {"MNEMIC_HOME": str(home_path)}
    r = cli("memory", "doctor", "--fix", env=env)
    assert "it is a directory" in r.output and "chmod" not in r.output, r.output
    assert (home_path / "memories" / "MEMORY.md").stat().st_mode & 0o777 == 0o755
    elsewhere = home_path.parent / "elsewhere.md"
    elsewhere.write_text("precious", encoding="utf-8")
    (home_path / "memories" / "MEMORY.md" / "notes").rmdir()
    (home_path / "memories" / "MEMORY.md").rmdir()
    (home_path / "memories" / "MEMORY.md").symlink_to(elsewhere)
    r = cli("memory", "doctor", env=env)
    assert r.output.count("symlink") == 1 and "remove the symlink" not in r.output, r.output
    assert "replace the link with the file it points to" in r.output
    assert elsewhere.read_text(encoding="utf-8") == "precious"


def test_memory_search_still_searches_the_readable_file(home_path: Path) -> None:
    """`mnemic memory search` stopped with the undecodable MEMORY.md's error, though the
    question was about the user (USER.md reads fine); it says what it left out now."""
    env = {"MNEMIC_HOME": str(home_path)}
    assert cli("memory", "add", "--target", "user", "Prefers metric units", env=env).exit_code == 0
    data = b"valid start\n\xc2\xa7\nbad \xff bytes"
    path = setup_file(home_path, data)
    r = cli("memory", "search", "metric units", "--mode", "lexical", env=env)
    assert r.exit_code == 0, r.output
    assert "USER.md [1]" in r.output and "Prefers metric units" in r.output
    assert "Not searched: " in r.output and "not valid UTF-8" in r.output
    r = cli("memory", "search", "metric", "--target", "memory", env=env)
    assert r.exit_code == 1 and "not valid UTF-8" in r.output  # nothing left to search
    assert path.read_bytes() == data


def test_doctor_points_at_a_separator_typed_wrong(home_path: Path) -> None:
    """A hand edit with ' § ' or '§§' for a separator joined two entries into one, and
    `memory doctor` said "No problems found."; the file is not touched (--fix neither)."""
    data = "Repo builds with make\n § \nTests run with x\n§§\nDeploys on Fridays\n§\nLast one"
    path = setup_file(home_path, data.encode())
    r = cli("memory", "doctor", "--fix", env={"MNEMIC_HOME": str(home_path)})
    assert "MEMORY.md line 2 (' § ') looks like an entry separator but is not one" in r.output
    assert "MEMORY.md line 4 ('§§') looks like an entry separator" in r.output
    assert "line 6" not in r.output and "mnemic memory edit --target memory" in r.output
    assert path.read_text(encoding="utf-8") == data


def test_doctor_without_fix_repairs_nothing_beside_an_unreadable_file(home_path: Path) -> None:
    """Guards the doctor's remedy text for an unreadable file, which must never stand in
    for its --fix switch (a loose USER.md stays loose until --fix is given)."""
    env = {"MNEMIC_HOME": str(home_path)}
    assert cli("memory", "add", "--target", "user", "Name is Ana", env=env).exit_code == 0
    setup_file(home_path, b"bad \xff bytes")
    user = home_path / "memories" / "USER.md"
    user.chmod(0o644)
    r = cli("memory", "doctor", env=env)
    assert "readable by others" in r.output and user.stat().st_mode & 0o777 == 0o644
    cli("memory", "doctor", "--fix", env=env)
    assert user.stat().st_mode & 0o777 == 0o600
