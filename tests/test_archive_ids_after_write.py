"""What a write took out is named by its archive id once the write committed (mend 13,
docs/first-week.md row 44): the eviction lines of the CLI, its remove and replace lines,
the memory tool's (and ``--json``'s) ``evicted`` and the console's notice carry the id
that ``mnemic memory archive show/restore`` take, so a person no longer runs ``archive
list`` to find it. Before, each said ``archive restore ID`` and left the id to look up."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from click.testing import CliRunner, Result

from _backends import Kit
from mnemic.cli import main
from mnemic.curated import archive
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool
from test_ui import client_for, post

FULL = '[memory]\nmemory_char_limit = 100\non_full = "archive_oldest"\n'
FIRST = "Web: lint with eslint --max-warnings 0."
SECOND = "Web: the dev server is on port 3000."
THIRD = "Web: deploys go out from main via CI."


def _run(home: Path, *args: str) -> Result:
    result = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def _home(home: Path, config: str = FULL) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(config, encoding="utf-8")
    for text in (FIRST, SECOND):
        Memory.open(home).add("memory", text)
    return home


def _archived_text(home: Path, aid: str, *where: str) -> str:
    shown = json.loads(_run(home, "memory", "archive", "show", aid, *where, "--json").output)
    return str(shown["text"])


def test_the_cli_eviction_line_names_the_archive_id_restore_takes(home_path: Path) -> None:
    out = _run(_home(home_path), "memory", "add", THIRD).output
    (line,) = [ln for ln in out.splitlines() if "to the archive" in ln and FIRST in ln]
    found = re.search(r"to the archive as (\S+) \(\[memory\] on_full\)", line)
    assert found is not None, line
    aid = found.group(1)
    assert f"`mnemic memory archive restore {aid}` brings it back" in out
    assert _archived_text(home_path, aid) == FIRST


def test_the_cli_remove_line_names_the_archive_id(home_path: Path) -> None:
    _home(home_path, "")
    out = _run(home_path, "memory", "remove", "port 3000").output
    found = re.search(r"removed \(archive id (\S+)\): " + re.escape(SECOND), out)
    assert found is not None, out
    aid = found.group(1)
    assert f"`mnemic memory archive restore {aid}` brings it back" in out
    _run(home_path, "memory", "archive", "restore", aid)
    assert SECOND in _run(home_path, "memory", "show").output


def test_a_project_stores_eviction_names_its_own_archive_id(
    home_path: Path, tmp_path: Path
) -> None:
    project = tmp_path / "web"
    project.mkdir()
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(
        '[memory]\non_full = "archive_oldest"\n[project]\nmemory_char_limit = 100\n'
    )
    where = ("--project", str(project))
    for text in (FIRST, SECOND):
        _run(home_path, "memory", "add", *where, text)
    out = _run(home_path, "memory", "add", *where, THIRD).output
    found = re.search(r"to the archive as (\S+) ", out)
    assert found is not None, out
    aid = found.group(1)
    assert f"`mnemic memory archive restore {aid} --project {project}`" in out
    assert _archived_text(home_path, aid, *where) == FIRST


def test_the_tool_and_json_responses_carry_the_archive_id(home_path: Path) -> None:
    _home(home_path)
    resp = run_memory_tool(Memory.open(home_path), {"action": "add", "content": THIRD})
    (evicted,) = resp["evicted"]
    assert evicted["entry"] == FIRST
    assert _archived_text(home_path, str(evicted["archive_id"])) == FIRST

    out = _run(home_path, "memory", "add", "Web: the staging host is stg-1.", "--json").output
    (evicted,) = json.loads(out)["evicted"]
    assert _archived_text(home_path, str(evicted["archive_id"])) == evicted["entry"] == SECOND


def test_the_console_notice_names_the_archive_id(home_path: Path) -> None:
    _home(home_path)
    client = client_for(home_path)
    done = post(client, "/memory/add", target="memory", content=THIRD)
    where = done.headers["location"]  # type: ignore[attr-defined]
    notice = html.unescape(client.get(where).text)
    found = re.search(r"moved to the archive \(\[memory\] on_full\) \(archive id (\S+)\)", notice)
    assert found is not None, where
    assert _archived_text(home_path, found.group(1)) == FIRST


def test_the_tool_response_carries_the_archive_id_on_every_backend(backend: Kit) -> None:
    """PostgreSQL's archive is folded from its journal table the same way (the server's
    write path and the client's)."""
    settings = {"memory_char_limit": 100, "on_full": "archive_oldest"}
    for text in (FIRST, SECOND):
        backend.make(**settings).add("memory", text)
    resp = run_memory_tool(backend.make(**settings), {"action": "add", "content": THIRD})
    (evicted,) = resp["evicted"]
    shown = archive.show(backend.make(**settings), str(evicted["archive_id"]))
    assert shown.text == evicted["entry"] == FIRST and shown.reason == "evicted"
