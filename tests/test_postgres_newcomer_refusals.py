"""What a team's developer reads when the PostgreSQL URL is wrong or the server does not
answer, with no server needed (docs/first-week.md rows 64+, session 54, ux18): a URL
libpq cannot parse quoted whole, password included, in the refusal; an invalid URL
called a server that is down; a failed write reported twice; `mnemic init` and
`mnemic mcp` saying nothing of the database a home names."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.e2e import run_here

from _cli import cli
from mnemic.backends.postgres.db import Database
from mnemic.cli import main
from mnemic.errors import StorageError

SECRET = "Pw0rd-never-shown"
NOWHERE = "postgresql://agent@127.0.0.1:1/team"


def _refusal(url: str) -> str:
    db = Database(url, connect_timeout=1.0)
    try:
        with pytest.raises(StorageError) as refused, db.connection():
            pass
    finally:
        db.pool.close(timeout=1.0)
    return str(refused.value)


def test_an_unparsable_url_is_refused_without_its_password() -> None:
    """`MNEMIC_STORE=postgres://agent:PASSWORD@[::1/mnemic mnemic db status` printed
    libpq's reason, which quotes the URL whole: the password on the terminal."""
    said = _refusal(f"postgres://agent:{SECRET}@[::1/mnemic")
    assert SECRET not in said
    assert "is not valid" in said and "Cannot reach" not in said
    assert "postgresql://USER@HOST[:PORT]/DATABASE" in said


def test_an_unknown_query_parameter_is_a_url_to_fix_and_hides_the_password() -> None:
    said = _refusal(f"postgresql://agent@127.0.0.1:5/team?password={SECRET}&bogus=1")
    assert SECRET not in said and "password=***" in said
    assert "is not valid" in said


def test_an_invalid_port_is_a_url_to_fix_not_a_server_to_check() -> None:
    """ "Cannot reach PostgreSQL ... within 5s (connection is bad: invalid port number:
    "99999") ... check that the server is up": no server was asked."""
    said = _refusal(f"postgresql://agent:{SECRET}@127.0.0.1:99999/team")
    assert said.startswith("The PostgreSQL URL postgresql://agent:***@127.0.0.1:99999/team")
    assert "invalid port number" in said and "check that the server is up" not in said
    assert SECRET not in said


def _home(home_path: Path, connect_timeout: float = 0.2) -> dict[str, str]:
    # connect_timeout 0.2 s: each refusal of NOWHERE waits it out (1.0 s cost four tests
    # here a second each, half this file's time); no assertion reads the figure.
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(
        f'store = "{NOWHERE}"\n[postgres]\nconnect_timeout = {connect_timeout}\n',
        encoding="utf-8",
    )
    return {"MNEMIC_HOME": str(home_path)}


def test_a_write_the_database_refused_is_reported_once(home_path: Path) -> None:
    """With the server down, `mnemic memory add` printed "could not append to the audit
    journal: Cannot reach PostgreSQL ..." (the failed attempt's record, which could not
    reach it either), then the refusal itself: the same sentence twice, the first one
    reading as if the journal were broken. (In this process, as a process answers:
    ``run_here``; the refusal is the command's, not the process's.)"""
    _home(home_path)
    done = run_here(home_path, "memory", "add", "The VPN gateway is vpn-2.")
    assert done.returncode == 1
    assert "could not append to the audit journal" not in done.stderr, done.stderr
    assert done.stderr.count("Cannot reach PostgreSQL") == 1, done.stderr


def test_init_of_a_database_home_says_where_memory_lives_and_what_failed(
    home_path: Path,
) -> None:
    """`mnemic init` on a home whose config.toml names a database said "Created a mnemic
    home at DIR. Next: mnemic memory add ...": nothing of the database, and the next
    step failed."""
    r = cli("init", env=_home(home_path))
    assert r.exit_code == 0, r.output
    assert "Its memory and sessions live in PostgreSQL at postgresql://agent@127.0.0.1:1/team" in (
        r.output
    )
    assert "It could not be checked: Cannot reach PostgreSQL" in r.output
    assert "Next: fix what the line above says, then: mnemic db status" in r.output
    assert 'Next: mnemic memory add "a fact' not in r.output


def test_mcp_names_the_database_it_serves(home_path: Path) -> None:
    """`mnemic mcp` said "serving DIR over stdio": on a PostgreSQL home nothing told the
    person the memory was not under DIR. (In this process, as a process answers:
    ``run_here``, an empty stdin ending the server at once.)"""
    _home(home_path)
    done = run_here(home_path, "mcp")
    first = done.stderr.splitlines()[0]
    assert first.startswith(f"mnemic mcp: serving {home_path} (memory and sessions in "), first
    assert "PostgreSQL at postgresql://agent@127.0.0.1:1/team (schema mnemic)" in first


def test_a_model_is_told_to_hand_an_unreachable_database_to_the_person(
    home_path: Path,
) -> None:
    """Over MCP the model read the person's step, "check that the server is up and
    reachable ..., then retry": it cannot, and a retry within connect_timeout is refused at
    once with the same words (the MCP walk: three calls, three refusals)."""
    from mnemic.curated.memory import Memory
    from mnemic.curated.tool import run_memory_tool

    _home(home_path)
    mem = Memory.open(home_path)
    resp = run_memory_tool(mem, {"action": "add", "target": "memory", "content": "x"})
    assert resp["success"] is False and resp["error_code"] == "storage_error"
    assert "Cannot reach PostgreSQL" in resp["error"]
    assert "tell the user" in resp["error"] and "go on without it" in resp["error"]
    # the person's refusal at the command line keeps its own wording
    r = cli("memory", "add", "x", env={"MNEMIC_HOME": str(home_path)})
    assert "tell the user" not in r.output and "check that the server is up" in r.output


def test_ui_names_the_database_it_serves(home_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`mnemic ui` said "serving DIR at http://...": the memory it serves is not there.
    (The server itself is stood in for: only its first line is at stake here.)"""
    import mnemic.ui.serve

    def serve_ui(home: object, *, ready: Callable[[str], object], **_: object) -> None:
        ready("http://127.0.0.1:8767/?token=t")

    monkeypatch.setattr(mnemic.ui.serve, "serve_ui", serve_ui)
    monkeypatch.setattr(signal, "signal", lambda *_: None)  # the command's SIGTERM handler
    r = CliRunner().invoke(main, ["ui", "--no-browser"], env=_home(home_path))
    assert r.exit_code == 0, r.output
    line = r.stderr.splitlines()[0]
    assert line.startswith(f"mnemic ui: serving {home_path} (memory and sessions in "), line
    assert "PostgreSQL at postgresql://agent@127.0.0.1:1/team (schema mnemic)) at" in line


def test_memory_show_gives_one_refusal_for_both_files(home_path: Path) -> None:
    """With the database out of reach, `memory show` printed the whole refusal twice, once
    as "MEMORY.md: ..." and once as "USER.md: ...", the same paragraph."""
    # 0.5 s: the second file's read must fall within connect_timeout of the first's
    # refusal (then it is refused at once, in the same words) even on a loaded machine.
    r = cli("memory", "show", env=_home(home_path, connect_timeout=0.5))
    assert r.exit_code == 1
    assert r.output.count("Cannot reach PostgreSQL") == 1, r.output
    assert r.output.startswith("mnemic: MEMORY.md and USER.md: Cannot reach PostgreSQL")
