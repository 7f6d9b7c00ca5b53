"""The archive is folded from the journal, so a memory file that cannot be read (not
UTF-8, a NUL byte) does not take it away: `memory archive list` (text and --json),
`archive search`, the console's /archive page and the `mnemic://archive` resource list
what left memory and say which file they could not read. The file's bytes stay as they
were.

Real homes, the real CLI (click's runner), the real console app and MCP server.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mnemic.cli import main
from mnemic.curated.memory import Memory
from test_mcp_server import connect, read
from test_ui import client_for

BROKEN = {
    "not UTF-8": (b"Repo builds\n\xc2\xa7\nbad \xff\xfe bytes", "not valid UTF-8"),
    "a NUL byte": (b"Repo builds\n\xc2\xa7\nnul \x00 here", "NUL"),
}


def _broken_home(home: Path, data: bytes) -> Path:
    """A home whose archive holds one entry of each file, then MEMORY.md broken."""
    mem = Memory.open(home)
    mem.add("memory", "The staging host is stg-7.internal.")
    mem.add("user", "Prefers tabs.")
    mem.remove("memory", "stg-7")
    mem.replace("user", "tabs", "Prefers spaces.")
    path = home / "memories" / "MEMORY.md"
    path.write_bytes(data)
    return path


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


@pytest.mark.parametrize("kind", BROKEN)
def test_archive_list_lists_and_names_the_file_it_could_not_read(
    home_path: Path, kind: str
) -> None:
    data, why = BROKEN[kind]
    path = _broken_home(home_path, data)
    r = _run(home_path, "memory", "archive", "list")
    assert r.exit_code == 0, r.stderr
    assert "The staging host is stg-7.internal." in r.stdout
    assert "Prefers tabs." in r.stdout
    assert why in r.stderr and "listed from the journal" in r.stderr
    r = _run(home_path, "memory", "archive", "list", "--json")
    assert r.exit_code == 0, r.stderr
    answer = json.loads(r.stdout)
    assert answer["count"] == 2
    (note,) = answer["not_read"]
    assert note["file"] == str(path) and why in note["error"]
    r = _run(home_path, "memory", "archive", "search", "staging host")
    assert r.exit_code == 0, r.stderr
    assert "stg-7.internal" in r.stdout and why in r.stderr
    assert path.read_bytes() == data


def test_the_archive_page_lists_and_names_the_file_it_could_not_read(home_path: Path) -> None:
    data, why = BROKEN["not UTF-8"]
    path = _broken_home(home_path, data)
    r = client_for(home_path).get("/archive")
    assert r.status_code == 200, r.text
    assert "The staging host is stg-7.internal." in r.text and "Prefers tabs." in r.text
    assert why in r.text
    assert path.read_bytes() == data


@pytest.mark.anyio
async def test_the_archive_resource_lists_and_names_the_file_it_could_not_read(
    home_path: Path,
) -> None:
    data, why = BROKEN["not UTF-8"]
    path = _broken_home(home_path, data)
    async with connect(home_path) as c:
        both = json.loads(await read(c, "mnemic://archive"))
        mine = json.loads(await read(c, "mnemic://memory/archive"))
        user = json.loads(await read(c, "mnemic://user/archive"))
    assert both["count"] == 2 and mine["count"] == 1 and user["count"] == 1
    (note,) = both["not_read"]
    assert why in note["error"] and "tell the user" in note["error"]  # a model's wording
    assert "not_read" not in user  # USER.md reads fine
    assert path.read_bytes() == data
