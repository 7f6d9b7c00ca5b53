"""A home this user cannot write: every reading command (and every dry run) works, every
write is refused with "the home is read-only" and changes nothing. A home that does not
exist: every reading command says so and creates nothing; writes and `mnemic init`
create it.

How the home is made read-only: the populated home is copied, its directories set to
0500 and its files to 0400. For a normal user that is enough. Root ignores permission
bits, so when the tests run as root the copy is given to ``nobody`` and each command
runs in a subprocess that drops its privileges to ``nobody`` (setgroups/setgid/setuid
before exec): a real user for whom the kernel refuses every create and write in that
home. (A read-only mount would need privileges a test cannot count on; EROFS takes the
same path in mnemic as EACCES.)

The populated home is written in this process (:func:`prepare`), and the commands on a
home that does not exist run in this process too (:func:`run_here`): what is checked
there is what the command does, not the process. Every command on the read-only copy,
and ``init`` with the mode of the home it makes, runs in a process of its own.
"""

from __future__ import annotations

import functools
import os
import pwd
import shutil
import site
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from . import compile_stdlib_of, prepare, run_here, run_mnemic

READ_ONLY = "The home is read-only"


def _as_nobody() -> Callable[[], None] | None:
    if os.geteuid() != 0:
        return None
    user = pwd.getpwnam("nobody")

    def drop() -> None:
        os.setgroups([])
        os.setgid(user.pw_gid)
        os.setuid(user.pw_uid)

    return drop


def _python_for(drop: Callable[[], None] | None) -> tuple[str, dict[str, str]] | None:
    """An interpreter the (dropped) user can run, with this checkout's mnemic importable.

    The venv's interpreter may be a link into a directory only root can enter (pyenv
    under /root); the same Python version elsewhere works with the venv's packages on
    PYTHONPATH. Its standard library is compiled for the session's processes
    (:func:`compile_stdlib_of`).
    """
    import mnemic

    src = str(Path(mnemic.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, *site.getsitepackages()])}
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [sys.executable, shutil.which(version), f"/usr/bin/{version}"]
    for exe in dict.fromkeys(c for c in candidates if c):
        try:
            probe = subprocess.run(
                [exe, "-c", "import mnemic.cli"], env=env, preexec_fn=drop, capture_output=True
            )
        except OSError:
            continue
        if probe.returncode == 0:
            compile_stdlib_of(exe)
            return exe, env
    return None


@functools.cache
def _runner() -> tuple[Callable[[], None] | None, tuple[str, dict[str, str]] | None]:
    """How commands drop to ``nobody`` (``None`` when not root) and the interpreter they
    run (:func:`_python_for`): looked for once per test process, not once per test (a
    probe is a process start)."""
    drop = _as_nobody()
    return drop, _python_for(drop)


@pytest.fixture
def read_only_home(
    home_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[..., subprocess.CompletedProcess[str]]]:
    """A read-only copy of a populated home; ``request.param`` (indirect) may name parts of
    the home to leave out of the copy (e.g. ``("memories",)``)."""
    prepare(home_path, "memory", "add", "Project uses pytest")
    prepare(home_path, "memory", "add", "--target", "user", "Name: Ada")
    prepare(home_path, "skills", "create", "demo-skill", "-d", "A demo skill.", stdin="Do it.\n")
    drop, runner = _runner()
    if runner is None:
        pytest.skip("no Python interpreter this test can run as the user nobody")
    python, run_env = runner
    base = Path(tempfile.mkdtemp(prefix="mnemic-ro-"))
    os.chmod(base, 0o755)  # nobody must reach the home (pytest's tmp dirs are 0700)
    home = base / "home"
    shutil.copytree(home_path, home, symlinks=True)
    for part in getattr(request, "param", ()):
        shutil.rmtree(home / part)
    user = pwd.getpwnam("nobody") if drop else None
    for root, dirs, files in os.walk(home, topdown=False):
        for name in files:
            p = os.path.join(root, name)
            if user:
                os.chown(p, user.pw_uid, user.pw_gid, follow_symlinks=False)
            os.chmod(p, 0o400)
        for name in dirs:
            p = os.path.join(root, name)
            if user:
                os.chown(p, user.pw_uid, user.pw_gid)
            os.chmod(p, 0o500)
    if user:
        os.chown(home, user.pw_uid, user.pw_gid)
    os.chmod(home, 0o500)

    def mnemic(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return run_mnemic(
            home,
            *args,
            stdin=stdin,
            env={"PYTHONPATH": run_env["PYTHONPATH"], "PYTHONDONTWRITEBYTECODE": "1"},
            timeout=60,
            python=python,
            preexec_fn=drop,
            cwd=base,
        )

    mnemic.home = home  # type: ignore[attr-defined]
    try:
        yield mnemic
    finally:
        for root, dirs, _ in os.walk(base):
            for name in dirs:
                os.chmod(os.path.join(root, name), 0o700)
        os.chmod(home, 0o700)
        shutil.rmtree(base)


def snapshot(home: Path) -> dict[str, bytes]:
    out = {}
    for root, _, files in os.walk(home):
        for name in files:
            p = os.path.join(root, name)
            out[p] = Path(p).read_bytes()
    return out


def test_reading_commands_work_on_a_read_only_home(
    read_only_home: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    mnemic = read_only_home
    r = mnemic("memory", "show")
    assert r.returncode == 0 and "Project uses pytest" in r.stdout and "Name: Ada" in r.stdout
    r = mnemic("memory", "status")
    assert r.returncode == 0 and "MEMORY.md" in r.stdout
    assert mnemic("memory", "history").returncode == 0
    r = mnemic("skills", "list")
    assert r.returncode == 0 and "demo-skill" in r.stdout
    r = mnemic("skills", "show", "demo-skill")
    assert r.returncode == 0 and "Do it." in r.stdout
    r = mnemic("prompt")
    assert r.returncode == 0 and "Project uses pytest" in r.stdout
    r = mnemic("audit", "list")
    assert r.returncode == 0 and "add" in r.stdout
    r = mnemic("audit", "verify")
    assert r.returncode == 0 and "chain intact" in r.stdout, r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("memory", "add", "a new fact"),
        ("memory", "add", "--target", "user", "a new fact"),
        ("memory", "remove", "pytest"),
        ("skills", "create", "other-skill", "-d", "Another skill."),
    ],
)
def test_writes_on_a_read_only_home_are_refused_as_read_only(
    read_only_home: Callable[..., subprocess.CompletedProcess[str]], args: tuple[str, ...]
) -> None:
    mnemic = read_only_home
    home: Path = mnemic.home  # type: ignore[attr-defined]
    before = snapshot(home)
    r = mnemic(*args, stdin="Steps.\n")
    assert r.returncode == 1 and READ_ONLY in r.stderr, r.stderr
    assert "Refusing to use" not in r.stderr and "Traceback" not in r.stderr
    assert snapshot(home) == before


@pytest.mark.parametrize("read_only_home", [("memories",)], indirect=True)
def test_read_only_home_without_a_memory_directory_reads_empty_and_refuses_writes(
    read_only_home: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    mnemic = read_only_home
    home: Path = mnemic.home  # type: ignore[attr-defined]
    r = mnemic("memory", "show")
    assert r.returncode == 0, r.stderr
    assert "Project uses pytest" not in r.stdout and "Traceback" not in r.stderr
    assert mnemic("memory", "status").returncode == 0
    r = mnemic("prompt")
    assert r.returncode == 0 and "demo-skill" in r.stdout, r.stderr
    before = snapshot(home)
    r = mnemic("memory", "add", "a new fact")
    assert r.returncode == 1 and READ_ONLY in r.stderr, r.stderr
    assert snapshot(home) == before and not (home / "memories").exists()


# -- a home that does not exist: reading never creates one ------------------------------

READ_ONLY_COMMANDS = [
    ("memory", "status"),
    ("memory", "status", "--json"),
    ("memory", "show"),
    ("memory", "show", "--long"),
    ("memory", "search", "pytest"),
    ("memory", "history"),
    ("memory", "diff", "1"),
    ("memory", "doctor"),
    ("sessions", "list"),
    ("sessions", "search", "pytest"),
    ("sessions", "show", "abc"),
    ("sessions", "export", "abc"),
    ("sessions", "stats"),
    ("sessions", "prune", "--older-than", "1", "--dry-run"),
    ("skills", "list"),
    ("skills", "search", "deploy"),
    ("skills", "show", "demo-skill"),
    ("skills", "lint"),
    ("skills", "index"),
    ("audit", "list"),
    ("audit", "verify"),
    ("pending", "list"),
    ("pending", "show", "abc"),
    ("pending", "diff", "abc"),
    ("stats",),
    ("prompt",),
    ("provider", "list"),
    ("provider", "status"),
    ("gc", "--dry-run"),
    ("forget", "--user", "--dry-run"),
    ("forget", "--sessions", "pytest", "--dry-run"),
]


@pytest.mark.parametrize("args", READ_ONLY_COMMANDS, ids=" ".join)
def test_a_reading_command_on_a_missing_home_says_so_and_creates_nothing(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """A mistyped MNEMIC_HOME must not grow a fresh empty home (with lock and provenance
    files) that then answers "empty" as if the user's memory were gone."""
    missing = tmp_path / "mnemic-hmoe"
    r = run_here(missing, *args)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert f"No mnemic home at {missing}" in r.stderr and "mnemic init" in r.stderr
    assert "MNEMIC_HOME" in r.stderr and "Traceback" not in r.stderr
    assert not missing.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


CACHED = (
    "import importlib.util, json.decoder, email.message, os\n"
    "for m in (json.decoder, email.message):\n"
    "    print(os.path.isfile(importlib.util.cache_from_source(m.__file__)))\n"
)


def test_the_interpreter_of_the_read_only_commands_finds_its_bytecode() -> None:
    """The interpreter the commands run under (another user's, maybe not the venv's)
    reads its standard library compiled, as the test process's own processes do, and
    never compiles it from source at each command."""
    drop, runner = _runner()
    if runner is None:
        pytest.skip("no Python interpreter this test can run as the user nobody")
    python, env = runner
    child = subprocess.run(
        [python, "-c", CACHED],
        env={**env, "PYTHONDONTWRITEBYTECODE": "1"},
        preexec_fn=drop,
        capture_output=True,
        text=True,
        cwd="/",
        timeout=60,
    )
    assert child.stdout.split() == ["True", "True"], child.stderr


def test_a_missing_profile_is_not_created_by_reading(home_path: Path) -> None:
    prepare(home_path, "memory", "add", "Project uses pytest")
    r = run_here(home_path, "--profile", "wrok", "memory", "show")
    assert r.returncode == 1 and "No mnemic home at" in r.stderr, r.stderr
    assert not (home_path / "profiles").exists()


def test_writes_and_init_create_the_home_and_the_memory_hook_stays_quiet(
    tmp_path: Path,
) -> None:
    fresh = tmp_path / "fresh"
    r = run_mnemic(fresh, "prompt", "--memory-only")  # an agent's session-start hook
    assert r.returncode == 0 and r.stdout == "" and not fresh.exists(), r.stderr
    r = run_mnemic(fresh, "init")
    assert r.returncode == 0 and f"Created a mnemic home at {fresh}" in r.stdout
    assert fresh.is_dir() and (fresh.stat().st_mode & 0o777) == 0o700
    r = run_mnemic(fresh, "init")
    assert r.returncode == 0 and "already exists" in r.stdout
    assert run_mnemic(fresh, "memory", "status").returncode == 0
    other = tmp_path / "other"
    r = run_mnemic(other, "memory", "add", "Project uses pytest")
    assert r.returncode == 0, r.stderr
    r = run_mnemic(other, "memory", "show")
    assert r.returncode == 0 and "Project uses pytest" in r.stdout


@pytest.fixture
def staged(home_path: Path) -> None:
    """A write staged for approval in the home (the read-only copy is made after)."""
    r = run_here(
        home_path,
        "memory",
        "add",
        "Staged fact",
        env={"MNEMIC_APPROVAL_MEMORY_FOREGROUND": "stage"},
    )
    assert r.returncode == 0 and (home_path / "pending" / "memory").is_dir(), r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("gc", "--dry-run"),
        ("gc", "--dry-run", "--json"),
        ("forget", "--sessions", "pytest", "--dry-run"),
        ("sessions", "prune", "--older-than", "0", "--dry-run"),
        ("memory", "doctor"),
        ("stats",),
        ("pending", "list"),
    ],
    ids=" ".join,
)
def test_a_dry_run_or_report_works_on_a_read_only_home(
    staged: None,
    read_only_home: Callable[..., subprocess.CompletedProcess[str]],
    args: tuple[str, ...],
) -> None:
    """A dry run writes nothing, so a home this user cannot write is no reason to fail
    (the home holds a staged write, so the pending queue is looked at too)."""
    mnemic = read_only_home
    home: Path = mnemic.home  # type: ignore[attr-defined]
    before = snapshot(home)
    r = mnemic(*args)
    assert r.returncode == 0, r.stderr
    assert READ_ONLY not in r.stderr and "Traceback" not in r.stderr
    assert snapshot(home) == before
