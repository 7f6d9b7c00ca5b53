"""`mnemic mcp` and `mnemic ui` on a PostgreSQL home without the ``postgres`` extra
(mend15, item 4).

It started, named the database in its banner, and then failed every memory and session
call with the install hint (docs/first-week.md row 80): a client saw a server that
works and tools that never do. It now refuses at start, as the CLI commands do: the
hint on stderr, exit code 1, nothing served. No server is needed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# psycopg blocked as if not installed, then the CLI as `python -m mnemic` runs it
_WITHOUT_PSYCOPG = (
    "import sys; sys.modules['psycopg'] = None; sys.modules['psycopg_pool'] = None; "
    "from mnemic.cli import main; main(sys.argv[1:], prog_name='mnemic')"
)


def _run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MNEMIC_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-c", _WITHOUT_PSYCOPG, *args],
        input="", capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip


def test_mcp_refuses_at_start_with_the_install_hint(home_path: Path) -> None:
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(
        'store = "postgresql://agent@127.0.0.1:1/team"\n', encoding="utf-8"
    )
    done = _run(home_path, "mcp")
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "needs the optional package 'psycopg'" in done.stderr
    assert "pip install 'mnemic[postgres]'" in done.stderr
    assert "serving" not in done.stderr and done.stdout == ""
    # the same words a CLI command gives
    shown = _run(home_path, "memory", "show")
    assert shown.returncode == done.returncode
    assert "pip install 'mnemic[postgres]'" in shown.stderr


def test_mcp_on_a_files_home_does_not_need_the_extra(home_path: Path) -> None:
    done = _run(home_path, "mcp")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"mnemic mcp: serving {home_path} over stdio")


def test_ui_refuses_at_start_with_the_install_hint(home_path: Path) -> None:
    """`mnemic ui` served a console whose every page said the extra was missing."""
    home_path.mkdir(parents=True, exist_ok=True)
    (home_path / "config.toml").write_text(
        'store = "postgresql://agent@127.0.0.1:1/team"\n', encoding="utf-8"
    )
    done = _run(home_path, "ui", "--no-browser", "--port", "0")
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "pip install 'mnemic[postgres]'" in done.stderr
    assert "serving" not in done.stderr and done.stdout == ""
