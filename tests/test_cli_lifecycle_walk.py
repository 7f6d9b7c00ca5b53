"""A newcomer's week with the lifecycle at the command line (docs/first-week.md, rows
29 on): what the CLI says after a forget, under `on_full`, for a duplicate among the
entries best dropped, for a proposal a person rejected, and in `show --long --json`.

Real homes, the real CLI (click's runner), the real write path.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from mnemic.cli import main
from mnemic.curated import archive
from mnemic.curated.memory import Memory


def _run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args])


def _home(home: Path, config: str = "") -> Memory:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(config, encoding="utf-8")
    return Memory.open(home)


def test_a_forgotten_entry_is_not_promised_back(home_path: Path) -> None:
    """#32: `archive restore` of a forgotten entry said to run it again once there is
    room, though its text is gone for good."""
    mem = _home(home_path)
    mem.add("memory", "Bob covers the pager today.")
    mem.remove("memory", "Bob covers")
    assert _run(home_path, "forget", "--text", "Bob covers", "--yes").exit_code == 0
    (item,) = archive.listing(Memory.open(home_path))
    r = _run(home_path, "memory", "archive", "restore", archive.typed_id(item.id))
    assert r.exit_code == 1
    assert "gone for good" in r.stderr
    assert "once there is room" not in r.stderr
    assert "restore" not in r.stderr.partition("gone for good")[2]
