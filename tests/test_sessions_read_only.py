"""A home mnemic may not write: reading the session history works (list, show, export,
stats, search, the session_search tool), writing is refused with "the home is read-only"
and changes nothing.

Permissions do not stop root, and the tests may run as root. Dropping to ``nobody`` does
not work here (the interpreter lives under ``/root``, which ``nobody`` cannot enter), so
as root the reader is a child process that keeps uid 0 but loses the capabilities that
let root ignore permissions (``setpriv --bounding-set -dac_override,-dac_read_search,
-fowner``: the kernel then checks the mode bits as for anyone else), on a home owned by
``nobody`` with mode 0555 (files 0444). Run as another user, the reader is that user on a
home of mode 0500 (files 0400); either way the bits leave nothing to tighten, so opening
the home changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = os.geteuid() == 0
try:
    NOBODY = pwd.getpwnam("nobody")
except KeyError:  # pragma: no cover - every Debian has it
    NOBODY = None
SETPRIV = shutil.which("setpriv")
DROP = ["--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]

pytestmark = [
    pytest.mark.skipif(
        ROOT and (SETPRIV is None or NOBODY is None),
        reason="as root, needs setpriv (util-linux) and a 'nobody' user to make a read-only home",
    ),
    pytest.mark.slow,  # each test runs the CLI in subprocesses, as another user
]
DIR_MODE, FILE_MODE = (0o555, 0o444) if ROOT else (0o500, 0o400)

ROWS = [
    {"session_id": "s-deploy", "role": "user", "content": "deploy v2.3.1 to staging",
     "timestamp": 1_700_000_000, "title": "Staging deploy", "source": "cli"},
    {"session_id": "s-deploy", "role": "assistant", "content": "Done; mailed ops@example.com",
     "timestamp": 1_700_000_060},
    {"session_id": "s-zh", "role": "user", "content": "我们讨论了会话历史的设计",
     "timestamp": 1_700_100_000},
]  # fmt: skip


BATCH = Path(__file__).parent / "workers" / "cli_batch.py"


def _env(home: Path) -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", ""), "MNEMIC_HOME": str(home), "COLUMNS": "160",
           "HOME": str(home.parent), "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
    for name in ("PYTHONPATH", "PYTHONPYCACHEPREFIX"):  # the mnemic under test, whatever
        if name in os.environ:  # the parent imports; its bytecode (conftest.py)
            env[name] = os.environ[name]
    return env


def mnemic(home: Path, *args: str, as_reader: bool = False) -> subprocess.CompletedProcess[str]:
    """Run the CLI; ``as_reader``: as the user the home is read-only for."""
    prefix = [str(SETPRIV), *DROP] if as_reader and ROOT else []
    return subprocess.run(
        [*prefix, sys.executable, "-m", "mnemic", *args],
        capture_output=True,
        text=True,
        env=_env(home),
        timeout=120,
        cwd="/",
    )


def mnemic_each(home: Path, *calls: tuple[str, ...]) -> list[subprocess.CompletedProcess[str]]:
    """Run each call of the CLI as the reader, one after another in ONE process of the
    reader's (``tests/workers/cli_batch.py``): what is read or refused is decided by who
    the process is, which a process per call only repeated (11 interpreters a test,
    about 10 s of a test's 15 under load, session 50). The tests without a history and
    with a write-ahead log still start the real entry point for each call."""
    prefix = [str(SETPRIV), *DROP] if ROOT else []
    done = subprocess.run(
        [*prefix, sys.executable, str(BATCH)],
        input=json.dumps([list(c) for c in calls]),
        capture_output=True,
        text=True,
        env=_env(home),
        timeout=120,
        cwd="/",
    )
    assert done.returncode == 0, done.stderr
    return [
        subprocess.CompletedProcess(list(c), r["code"], r["stdout"], r["stderr"])
        for c, r in zip(calls, json.loads(done.stdout), strict=True)
    ]


@pytest.fixture
def base() -> Iterator[Path]:
    """A directory anyone may enter (pytest's tmp_path is private to its user)."""
    path = Path(tempfile.mkdtemp(prefix="mnemic-ro-"))
    path.chmod(0o755)
    yield path
    for dirpath, dirnames, _ in os.walk(path):
        for name in dirnames:
            os.chmod(os.path.join(dirpath, name), 0o755)
    shutil.rmtree(path)


@pytest.fixture(scope="module")
def seed_template() -> Iterator[Path]:
    """A base whose ``home`` holds :data:`ROWS`, imported once a module by the real CLI
    (``sessions import``); each test copies it (:func:`seeded`) and may change its copy.
    One import a test was five interpreters importing the CLI for the same home."""
    path = Path(tempfile.mkdtemp(prefix="mnemic-ro-seed-"))
    path.chmod(0o755)
    data = path / "seed.jsonl"
    data.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in ROWS) + "\n")
    data.chmod(0o644)
    r = mnemic(path / "home", "sessions", "import", str(data))
    assert r.returncode == 0, r.stderr
    yield path
    shutil.rmtree(path)


def seeded(base: Path, template: Path) -> Path:
    """``base``'s copy of the seeded template (its home, and what the import left beside)."""
    shutil.copytree(template, base, dirs_exist_ok=True)
    return base / "home"


def lock_down(home: Path, *, directory_only: bool = False) -> None:
    """Make the home read-only for the reader (see the module docstring); with
    ``directory_only`` the files stay writable for the reader, the directories do not."""

    def own(path: str) -> None:
        if ROOT and NOBODY is not None:
            os.chown(path, NOBODY.pw_uid, NOBODY.pw_gid)

    for dirpath, dirnames, filenames in os.walk(home):
        for name in filenames:
            path = os.path.join(dirpath, name)
            own(path)
            os.chmod(path, (0o666 if ROOT else 0o600) if directory_only else FILE_MODE)
        for name in dirnames:
            own(os.path.join(dirpath, name))
            os.chmod(os.path.join(dirpath, name), DIR_MODE)
    own(str(home))
    os.chmod(home, DIR_MODE)


def fingerprint(home: Path) -> dict[str, str]:
    out = {}
    for dirpath, _, filenames in os.walk(home):
        for name in filenames:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, home)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def check_reads(home: Path) -> None:
    listed, shown, exported, attachments, stats, found, found_zh, tool = mnemic_each(
        home,
        ("sessions", "list", "--json"),
        ("sessions", "show", "s-deploy", "--json"),
        ("sessions", "export", "s-zh"),
        ("sessions", "attachments", "--json"),
        ("sessions", "stats", "--json"),
        ("sessions", "search", "ops@example.com", "--json"),
        ("sessions", "search", "会话"),
        ("tool", "session_search", '{"query": "staging"}'),
    )
    r = listed
    assert r.returncode == 0, r.stderr
    assert sorted(s["id"] for s in json.loads(r.stdout)) == ["s-deploy", "s-zh"]
    r = shown
    assert r.returncode == 0 and len(json.loads(r.stdout)["messages"]) == 2, r.stderr
    r = exported
    assert r.returncode == 0 and "会话历史" in r.stdout, r.stderr
    r = attachments
    assert r.returncode == 0 and json.loads(r.stdout) == [], r.stderr
    r = stats
    assert r.returncode == 0 and json.loads(r.stdout)["messages"] == 3, r.stderr
    r = found
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["results"][0]["session_id"] == "s-deploy"
    r = found_zh
    assert r.returncode == 0 and "s-zh" in r.stdout, r.stderr
    r = tool
    assert r.returncode == 0 and json.loads(r.stdout)["results"][0]["session_id"] == "s-deploy"


def check_writes_refused(home: Path, base: Path) -> None:
    more = base / "more.jsonl"
    more.write_text(json.dumps({"session_id": "new", "role": "user", "content": "x"}) + "\n")
    more.chmod(0o644)
    for r in mnemic_each(
        home,
        ("sessions", "import", str(more)),
        ("sessions", "delete", "s-deploy", "--yes"),
        ("sessions", "prune", "--older-than", "0", "--yes"),
    ):
        args = r.args
        assert r.returncode == 1, (args, r.stdout, r.stderr)
        assert "The home is read-only" in r.stderr and "Traceback" not in r.stderr, r.stderr


@pytest.mark.parametrize("directory_only", [False, True], ids=["chmod-all", "dir-only"])
def test_read_only_home_reads_sessions_and_refuses_writes(
    base: Path, seed_template: Path, directory_only: bool
) -> None:
    home = seeded(base, seed_template)
    assert not (home / "sessions.db-wal").exists()  # closed cleanly: WAL files gone
    lock_down(home, directory_only=directory_only)
    before, listed = fingerprint(home), sorted(os.listdir(home))
    check_reads(home)
    check_writes_refused(home, base)
    assert fingerprint(home) == before, "a read-only home was changed"
    assert sorted(os.listdir(home)) == listed  # nothing created beside the files either


def test_read_only_home_of_an_older_schema_reads_its_sessions(
    base: Path, seed_template: Path
) -> None:
    """A sessions.db written before tool results kept their failure flag (no
    ``messages.is_error``) is read as it is: its messages read without the flag."""
    home = seeded(base, seed_template)
    conn = sqlite3.connect(home / "sessions.db")
    conn.execute("DROP INDEX messages_failed")
    conn.execute("ALTER TABLE messages DROP COLUMN is_error")
    conn.execute("DROP TABLE message_attachments")
    conn.execute("DELETE FROM _migrations WHERE version >= 5")
    conn.commit()
    conn.close()
    lock_down(home)
    before = fingerprint(home)
    check_reads(home)
    assert fingerprint(home) == before, "a read-only home was changed"


def test_read_only_home_with_a_write_ahead_log_reads_its_newest_messages(
    base: Path, seed_template: Path
) -> None:
    """A writer that still had the database open left -wal and -shm behind: they hold the
    newest messages, and a read-only open must see them."""
    home = seeded(base, seed_template)
    keep = sqlite3.connect(home / "sessions.db")  # holds the WAL open past the import
    keep.execute("SELECT 1 FROM sessions").fetchone()
    more = base / "more.jsonl"
    late = {"session_id": "s-late", "role": "user", "content": "written while another reader held"}
    more.write_text(json.dumps(late) + "\n")
    more.chmod(0o644)
    r = mnemic(home, "sessions", "import", str(more))
    assert r.returncode == 0, r.stderr
    shutil.copytree(home, base / "frozen")  # the files as a crash would leave them
    keep.close()
    frozen = base / "frozen"
    assert (frozen / "sessions.db-wal").stat().st_size > 0
    lock_down(frozen)
    r = mnemic(frozen, "sessions", "search", "another reader held", "--json", as_reader=True)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["results"][0]["session_id"] == "s-late"


def test_read_only_home_without_a_history_lists_nothing(base: Path) -> None:
    home = base / "empty"
    home.mkdir()
    (home / "config.toml").write_text("")
    lock_down(home)
    r = mnemic(home, "sessions", "list", as_reader=True)
    assert r.returncode == 0 and "No sessions yet" in r.stdout, r.stderr
    r = mnemic(home, "sessions", "stats", "--json", as_reader=True)
    assert r.returncode == 0 and json.loads(r.stdout)["sessions"] == 0, r.stderr
    assert sorted(os.listdir(home)) == ["config.toml"]
    assert stat.S_IMODE(home.stat().st_mode) == DIR_MODE
