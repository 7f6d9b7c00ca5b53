"""A FIFO, socket, directory or device where mnemic expects a regular file.

Each command must come back with a clear error naming the path and what it is, never
block on the open (a FIFO without a writer blocks ``open(O_RDONLY)`` forever) and never
leave a lock held. The pytest timeout is the guard: a command that hangs fails the test.

The commands run in this test process (:func:`run_here`), but for one in a process of its
own: a lock a command forgot would still be held by this process, where a process's exit
would have let it go, so :func:`lock_is_free` sees it.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from mnemic.fsio import SidecarLock

from . import prepare, run_here, run_mnemic

pytestmark = pytest.mark.timeout(60)


def _fifo(path: Path) -> str:
    os.mkfifo(path)
    return "named pipe (FIFO)"


def _directory(path: Path) -> str:
    path.mkdir()
    return "directory"


def _socket(path: Path) -> str:
    sock = socket.socket(socket.AF_UNIX)
    cwd = os.getcwd()
    os.chdir(path.parent)  # AF_UNIX paths are short: bind by relative name
    try:
        sock.bind(path.name)
    finally:
        os.chdir(cwd)
        sock.close()
    return "socket"


PLANTS: dict[str, Callable[[Path], str]] = {
    "fifo": _fifo,
    "directory": _directory,
    "socket": _socket,
}


def populated(home: Path) -> None:
    prepare(home, "memory", "add", "Project uses pytest")
    prepare(home, "memory", "add", "--target", "user", "Name: Ada")


def plant(path: Path, kind: str) -> str:
    if path.exists():
        path.unlink()
    return PLANTS[kind](path)


def lock_is_free(path: Path) -> bool:
    lock = SidecarLock(path, 0.0)
    try:
        return lock.try_acquire()
    finally:
        lock.release()


@pytest.mark.parametrize("kind", sorted(PLANTS))
@pytest.mark.parametrize(("target", "name"), [("memory", "MEMORY.md"), ("user", "USER.md")])
def test_a_memory_file_that_is_not_regular_is_refused_at_once(
    home_path: Path, kind: str, target: str, name: str
) -> None:
    populated(home_path)
    path = home_path / "memories" / name
    what = plant(path, kind)
    r = run_here(home_path, "memory", "add", "--target", target, "a new fact")
    assert r.returncode == 1 and str(path) in r.stderr and what in r.stderr
    assert "Traceback" not in r.stderr
    r = run_here(home_path, "memory", "doctor")
    assert r.returncode == 1 and str(path) in r.stdout and what in r.stdout
    r = run_here(home_path, "memory", "show")
    assert str(path) in r.stdout + r.stderr
    assert lock_is_free(home_path / "memories" / f"{name}.lock")
    other = "USER.md" if name == "MEMORY.md" else "MEMORY.md"
    assert "a new fact" not in (home_path / "memories" / other).read_text()


def test_a_fifo_lock_file_is_refused(home_path: Path) -> None:
    populated(home_path)
    lock = home_path / "memories" / "MEMORY.md.lock"
    plant(lock, "fifo")
    r = run_mnemic(home_path, "memory", "add", "another fact")
    assert r.returncode == 1 and str(lock) in r.stderr and "named pipe" in r.stderr
    assert "another fact" not in (home_path / "memories" / "MEMORY.md").read_text()


def test_a_fifo_transaction_intent_is_refused_and_doctor_names_it(home_path: Path) -> None:
    populated(home_path)
    intent = home_path / "memories" / ".txn.intent"
    plant(intent, "fifo")
    r = run_here(home_path, "memory", "add", "a new fact")
    assert r.returncode == 1 and str(intent) in r.stderr and "named pipe" in r.stderr
    r = run_here(home_path, "memory", "doctor")
    assert r.returncode == 1 and str(intent) in r.stdout
    for name in ("MEMORY.md", "USER.md"):
        assert lock_is_free(home_path / "memories" / f"{name}.lock")
    assert "a new fact" not in (home_path / "memories" / "MEMORY.md").read_text()


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_config_file_that_is_not_regular_is_a_usage_error(home_path: Path, kind: str) -> None:
    populated(home_path)
    config = home_path / "config.toml"
    if kind == "fifo":
        what = plant(config, "fifo")
    else:
        config.symlink_to("/dev/zero")  # config.toml may be a link; its target is checked
        what = "character device"
    for args in (("memory", "show"), ("memory", "add", "x y z"), ("memory", "doctor")):
        r = run_here(home_path, *args)
        assert r.returncode == 2 and str(config) in r.stderr and what in r.stderr, args


def make_skill(home: Path) -> Path:
    r = run_here(home, "skills", "create", "demo-skill", "-d", "A demo skill.", stdin="Do this.\n")
    assert r.returncode == 0, r.stderr
    return home / "skills" / "demo-skill" / "SKILL.md"


def test_a_fifo_skill_file_is_refused_by_readers_and_writers(home_path: Path) -> None:
    skill_md = make_skill(home_path)
    plant(skill_md, "fifo")
    r = run_here(home_path, "skills", "show", "demo-skill")
    assert r.returncode == 1 and str(skill_md) in r.stderr and "named pipe" in r.stderr
    r = run_here(home_path, "skills", "list")
    assert r.returncode == 0 and "unusable" in r.stdout + r.stderr
    r = run_here(home_path, "prompt")
    assert r.returncode == 0
    patch = '{"action": "patch", "name": "demo-skill", "old_string": "Do", "new_string": "Did"}'
    r = run_here(home_path, "tool", "skill_manage", patch)
    assert r.returncode == 1 and '"success": false' in r.stdout
    assert lock_is_free(home_path / "skills" / ".lock")
    assert skill_md.is_fifo()


def test_fifos_in_the_audit_journal_are_reported_not_waited_on(home_path: Path) -> None:
    populated(home_path)
    journal = home_path / "audit" / "journal.jsonl"
    plant(journal, "fifo")
    r = run_here(home_path, "audit", "verify")
    assert r.returncode == 1 and str(journal) in r.stderr and "named pipe" in r.stderr
    r = run_here(home_path, "audit", "list")
    assert r.returncode == 1 and str(journal) in r.stderr
    r = run_here(home_path, "memory", "doctor")
    assert r.returncode == 1 and str(journal) in r.stdout
    journal.unlink()
    populated(home_path)
    head = home_path / "audit" / "head"
    plant(head, "fifo")
    r = run_here(home_path, "audit", "verify")
    assert r.returncode == 1 and "head file is damaged" in r.stderr
    assert lock_is_free(home_path / "audit" / "journal.lock")
