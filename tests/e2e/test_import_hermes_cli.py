"""``mnemic import hermes``, run as a user runs it: a Hermes home found through
``HERMES_HOME`` (in a process of its own), then what landed read back with other
commands, in this process (:func:`run_here`)."""

from __future__ import annotations

import json
from pathlib import Path

import _hermes_home as hh

from . import run_here, run_mnemic


def test_a_hermes_home_moves_in_and_its_parts_read_back(home_path: Path, tmp_path: Path) -> None:
    source = hh.build(tmp_path / "hermes")
    env = {"HERMES_HOME": str(source)}
    r = run_mnemic(home_path, "import", "hermes", env=env)
    assert r.returncode == 0, r.stderr
    assert "MEMORY.md: 2 added." in r.stdout and "state.db: imported 3 sessions" in r.stdout

    shown = json.loads(run_here(home_path, "memory", "show", "--json").stdout)
    assert json.dumps(shown).count("staging.example.org") == 1
    archived = run_here(home_path, "memory", "archive", "list", "--json")
    assert {a["reason"] for a in json.loads(archived.stdout)["entries"]} == {"imported"}
    session = run_here(home_path, "sessions", "show", "20260101_100000_a1", "--json")
    assert session.returncode == 0, session.stderr
    assert "make deploy" in session.stdout and "hermes:cli" in session.stdout
    skill = run_here(home_path, "skills", "show", "devops/deploy-check")
    assert skill.returncode == 0 and "Check a deploy went through." in skill.stdout

    again = run_here(home_path, "import", "hermes", "--json", env=env)
    data = json.loads(again.stdout)
    assert data["memory"]["memory"]["counts"] == {"present": 2}
    assert data["sessions"]["existing_sessions_unchanged"] == 3


def test_a_damaged_state_db_exits_1_naming_it_and_writes_nothing(
    home_path: Path, tmp_path: Path
) -> None:
    source = hh.build(tmp_path / "hermes")
    (source / "state.db").write_bytes(b"\x00" * 4096)
    r = run_here(home_path, "import", "hermes", str(source))
    assert r.returncode == 1
    assert str(source / "state.db") in r.stderr and "not a SQLite database" in r.stderr
    shown = run_here(home_path, "memory", "show", "--json")
    assert "staging.example.org" not in shown.stdout
