"""What the newcomer walks of session 53 left (docs/first-week.md, rows 52, 61 and 63):
the Hermes import's report of an archive file no Hermes writes, the session search
notice's "background indexer", and the times of the search tool's answer over MCP.

Real homes, the real CLI (click's runner), the real tool.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

import _hermes_home as hh
from mnemic.cli import main


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args])


def _hermes(tmp_path: Path) -> Path:
    root = tmp_path / "hermes"
    hh.write_memory(root, "MEMORY.md", hh.MEMORY)
    hh.write_memory(root, "USER.md", hh.USER)
    return root


def test_a_hermes_home_without_an_archive_file_is_not_told_it_is_missing(
    home_path: Path, tmp_path: Path
) -> None:
    """#61: every Hermes 0.19 home was told "ARCHIVE.jsonl: not in the Hermes home,
    skipped.", though no Hermes writes that file: the person looked for something
    missing. --json keeps saying the part is absent."""
    source = _hermes(tmp_path)
    r = _run(home_path, "import", "hermes", str(source))
    assert r.exit_code == 0, r.output
    assert "ARCHIVE.jsonl" not in r.stdout
    data = json.loads(_run(home_path, "import", "hermes", str(source), "--json").stdout)
    assert data["archive"]["missing"] is True


def test_an_archive_file_that_is_there_is_still_reported(home_path: Path, tmp_path: Path) -> None:
    source = _hermes(tmp_path)
    hh.write_archive(source, hh.ARCHIVE)
    r = _run(home_path, "import", "hermes", str(source))
    assert r.exit_code == 0, r.output
    assert any(line.startswith("ARCHIVE.jsonl: ") for line in r.stdout.splitlines())
