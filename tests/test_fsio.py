"""Durability primitives: strict reads, atomic writes, sidecar locks."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mnemic.errors import LockTimeout, UnreadableFile, UnsafePath
from mnemic.fsio import (
    SidecarLock,
    atomic_write_text,
    ensure_private_dir,
    read_text_strict,
    stale_temp_files,
    stat_signature,
)


def test_read_missing_is_none(tmp_path: Path) -> None:
    assert read_text_strict(tmp_path / "nope") is None


def test_read_strips_bom(tmp_path: Path) -> None:
    p = tmp_path / "f"
    p.write_bytes(b"\xef\xbb\xbfhello")
    assert read_text_strict(p) == "hello"


@pytest.mark.parametrize(
    ("data", "fragment"),
    [(b"ok \xff\xfe bad", "UTF-8 at byte 3"), (b"nul\x00byte", "NUL")],
)
def test_read_refuses_undecodable(tmp_path: Path, data: bytes, fragment: str) -> None:
    p = tmp_path / "f"
    p.write_bytes(data)
    with pytest.raises(UnreadableFile) as info:
        read_text_strict(p)
    assert fragment in str(info.value)


def test_read_directory_or_unreadable(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile):
        read_text_strict(tmp_path)


def test_read_nofollow_refuses_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.write_text("x")
    link = tmp_path / "link"
    link.symlink_to(real)
    assert read_text_strict(link) == "x"
    with pytest.raises(UnsafePath):
        read_text_strict(link, nofollow=True)


def test_read_size_limit(tmp_path: Path) -> None:
    p = tmp_path / "f"
    p.write_text("x" * 100)
    with pytest.raises(UnreadableFile) as info:
        read_text_strict(p, max_bytes=10)
    assert "larger" in str(info.value)


def test_atomic_write_creates_private_file_and_leaves_no_temp(tmp_path: Path) -> None:
    p = tmp_path / "MEMORY.md"
    atomic_write_text(p, "héllo")
    assert p.read_text(encoding="utf-8") == "héllo"
    assert (p.stat().st_mode & 0o777) == 0o600
    assert stale_temp_files(p) == []
    atomic_write_text(p, "second")
    assert p.read_text() == "second"


def test_stale_temp_files_are_listed(tmp_path: Path) -> None:
    p = tmp_path / "MEMORY.md"
    debris = tmp_path / ".MEMORY.md.abc123.tmp"
    debris.write_text("partial")
    (tmp_path / ".USER.md.abc.tmp").write_text("other target")
    assert stale_temp_files(p) == [str(debris)]


def test_ensure_private_dir_tightens(tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir(mode=0o755)
    os.chmod(d, 0o755)
    ensure_private_dir(d)
    assert (d.stat().st_mode & 0o777) == 0o700


def test_tightening_a_read_only_home_keeps_it_read_only(tmp_path: Path) -> None:
    d = tmp_path / "home"
    d.mkdir()
    os.chmod(d, 0o555)
    try:
        ensure_private_dir(d)
        assert (d.stat().st_mode & 0o777) == 0o500  # group/other removed, no write granted
    finally:
        os.chmod(d, 0o700)


def test_lock_is_exclusive_across_processes_and_times_out(tmp_path: Path) -> None:
    lock_path = tmp_path / "x.lock"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, fcntl, os\n"
            f"fd = os.open({str(lock_path)!r}, os.O_RDWR | os.O_CREAT, 0o600)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "print('held', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        lock = SidecarLock(lock_path, timeout=0.2)
        with pytest.raises(LockTimeout) as info:
            lock.acquire()
        assert info.value.waited_s >= 0.2
        assert "another process" in info.value.to_llm()
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=10)
    # The holder exited: the kernel released its lock.
    with SidecarLock(lock_path, timeout=5) as lock:
        assert lock.waited_ms >= 0.0


def test_a_lock_granted_at_once_records_no_wait(tmp_path: Path) -> None:
    """A free lock is not waited for: ``waited_ms`` is exactly 0, not the microseconds of
    the ``flock`` call, so an audit record of an uncontended write has the same bytes
    whatever the machine's load (test_provenance's journal made again at the same path
    relied on equal lengths and failed now and then when one record said 0.012)."""
    for keep in (False, True):
        for _ in range(50):
            with SidecarLock(tmp_path / f"free-{keep}.lock", timeout=5, keep=keep) as lock:
                assert lock.waited_ms == 0.0


def test_lock_excludes_threads_of_one_process(tmp_path: Path) -> None:
    a = SidecarLock(tmp_path / "t.lock", timeout=0)
    b = SidecarLock(tmp_path / "t.lock", timeout=0)
    assert a.try_acquire()
    try:
        assert not b.try_acquire()
    finally:
        a.release()
    assert b.try_acquire()
    b.release()


def test_lock_refuses_symlink_and_tightens_mode(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("")
    link = tmp_path / "MEMORY.md.lock"
    link.symlink_to(target)
    with pytest.raises(UnsafePath) as info:
        SidecarLock(link, 1).acquire()
    assert "symlink" in str(info.value)
    loose = tmp_path / "USER.md.lock"
    loose.write_text("")
    os.chmod(loose, 0o644)
    with SidecarLock(loose, 1):
        pass
    assert (loose.stat().st_mode & 0o777) == 0o600


@pytest.mark.timeout(30)
@pytest.mark.parametrize("nofollow", [False, True])
def test_read_refuses_a_fifo_without_blocking_and_names_it(tmp_path: Path, nofollow: bool) -> None:
    fifo = tmp_path / "MEMORY.md"
    os.mkfifo(fifo)
    with pytest.raises(UnreadableFile) as info:
        read_text_strict(fifo, nofollow=nofollow)
    assert "named pipe (FIFO)" in info.value.reason and str(fifo) in str(info.value)


@pytest.mark.timeout(30)
def test_read_refuses_a_device_reached_through_a_link(tmp_path: Path) -> None:
    link = tmp_path / "config.toml"
    link.symlink_to("/dev/zero")
    with pytest.raises(UnreadableFile) as info:
        read_text_strict(link)
    assert "character device" in info.value.reason


@pytest.mark.timeout(30)
def test_lock_refuses_a_fifo_lock_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.lock")
    with pytest.raises(UnsafePath) as info:
        SidecarLock(tmp_path / "x.lock", 1.0).acquire()
    assert "named pipe" in str(info.value)


@pytest.mark.parametrize("timeout", [float("nan"), float("inf"), -1.0])
def test_lock_refuses_a_timeout_that_could_wait_forever(tmp_path: Path, timeout: float) -> None:
    with pytest.raises(ValueError):
        SidecarLock(tmp_path / "x.lock", timeout)


def test_a_reader_lock_where_no_lock_file_can_exist_reads_unlocked(tmp_path: Path) -> None:
    lock = SidecarLock(tmp_path / "missing-dir" / "journal.lock", 1.0, shared=True)
    with lock:
        assert not lock.held
    with pytest.raises(UnsafePath):  # a writer cannot do without its lock
        SidecarLock(tmp_path / "missing-dir" / "journal.lock", 1.0).acquire()


def test_stat_signature_is_the_lstat_that_moves_on_a_rename_or_write(tmp_path: Path) -> None:
    """One signature for the files backend's targets and the probe's SKILL.md files: what
    is there (absent, an error's errno) or the lstat fields a rename or write moves."""
    from mnemic.backends.files.curated import FileBackend

    backend = FileBackend(tmp_path / "memories")
    path = backend.path("memory")
    assert stat_signature(path) == ("absent",) == backend.signature("memory")
    path.write_text("one")  # the backend made its folder
    first = stat_signature(path)
    st = os.lstat(path)
    assert first == (st.st_ino, st.st_dev, 3, st.st_mtime_ns, st.st_mode)
    assert backend.signature("memory") == first
    os.replace(_written(tmp_path / "other", "two"), path)
    assert stat_signature(path) != first
    link = tmp_path / "link"
    link.symlink_to(path)
    assert stat_signature(link) != stat_signature(path)  # the link's own, never followed
    assert stat_signature(path / "below") == ("error", errno.ENOTDIR)


def _written(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        (stat.S_IFREG, "a regular file"),
        (stat.S_IFDIR, "a directory"),
        (stat.S_IFIFO, "a named pipe (FIFO)"),
        (stat.S_IFSOCK, "a socket"),
        (stat.S_IFCHR, "a character device"),
        (stat.S_IFBLK, "a block device"),
        (stat.S_IFLNK, "a symlink"),
        (0, "not a regular file"),
    ],
)
def test_describe_kind_names_every_kind_of_file(kind: int, said: str) -> None:
    from mnemic.fsio import describe_kind

    assert describe_kind(kind | 0o644) == said


@pytest.mark.timeout(30)
def test_open_to_read_refuses_what_an_import_cannot_read_with_one_error(tmp_path: Path) -> None:
    """The open every importer's source and a bundle go through: a missing file, a FIFO
    and a directory are all UnreadableFile with a reason a caller quotes; a regular file
    opens."""
    from mnemic.fsread import open_to_read

    fifo = tmp_path / "rollout.jsonl"
    os.mkfifo(fifo)
    reasons = []
    for path in (tmp_path / "missing.jsonl", fifo, tmp_path):
        with pytest.raises(UnreadableFile) as info:
            open_to_read(path)
        assert info.value.path == str(path)
        reasons.append(info.value.reason)
    assert reasons[0] == os.strerror(errno.ENOENT)
    assert "named pipe (FIFO)" in reasons[1] and "a directory" in reasons[2]
    fd = open_to_read(_written(tmp_path / "ok.jsonl", "{}\n"))
    with open(fd, "rb") as fh:
        assert fh.read() == b"{}\n"
