"""Lock descriptors kept open between two holds (``SidecarLock(..., keep=True)``).

A memory write takes its target's lock and the journal's lock; with ``keep`` it does not
open either file again at the next write. Each test is a way a kept descriptor could
lock something that no longer excludes anyone (the file removed, replaced, its home
moved, another thread, a forked child): each fails on a version that reuses the
descriptor without checking.
"""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

import pytest

from mnemic import fsio
from mnemic.errors import LockTimeout
from mnemic.fsio import SidecarLock


@pytest.fixture(autouse=True)
def _no_kept_descriptors() -> None:
    fsio._forget_kept()  # none left from another test (a closed home's, a removed tmp dir's)


def _hold_elsewhere(path: Path) -> int:
    """The lock of ``path`` taken on a description of its own (as another process would)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def _kept_once(path: Path) -> None:
    lock = SidecarLock(path, 0, keep=True)
    lock.acquire()
    lock.release()


def test_a_kept_lock_is_taken_again_without_opening_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "MEMORY.md.lock"
    _kept_once(path)
    opened: list[str] = []
    real_open = os.open

    def counting_open(p: object, *args: object, **kwargs: object) -> int:
        opened.append(os.fspath(p))  # type: ignore[arg-type]
        return real_open(p, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", counting_open)
    with SidecarLock(path, 0, keep=True):
        other = SidecarLock(path, 0)
        assert not other.try_acquire()  # it is held
    assert opened == [str(path)]  # the second lock's own open, not the kept one's
    with SidecarLock(path, 0):  # released: free for anyone
        pass


@pytest.mark.parametrize("how", ["removed", "replaced", "home moved and made again"])
def test_a_kept_descriptor_of_a_lock_file_no_longer_at_its_path_is_not_believed(
    tmp_path: Path, how: str
) -> None:
    home = tmp_path / "memories"
    home.mkdir()
    path = home / "MEMORY.md.lock"
    _kept_once(path)
    if how == "removed":
        path.unlink()
    elif how == "replaced":
        (home / "new.lock").write_text("")
        os.replace(home / "new.lock", path)
    else:
        home.rename(tmp_path / "moved")
        home.mkdir()
    holder = _hold_elsewhere(path)  # another writer, on the file now at the path
    try:
        assert not SidecarLock(path, 0, keep=True).try_acquire()
        with pytest.raises(LockTimeout):
            SidecarLock(path, 0, keep=True).acquire()
    finally:
        os.close(holder)
    with SidecarLock(path, 0, keep=True):  # free again: taken, on the file at the path
        assert not SidecarLock(path, 0).try_acquire()


def test_two_threads_with_kept_locks_exclude_each_other(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md.lock"
    _kept_once(path)
    first = SidecarLock(path, 0, keep=True)
    assert first.try_acquire()  # on the kept descriptor
    got: list[bool] = []
    second = SidecarLock(path, 0, keep=True)
    thread = threading.Thread(target=lambda: got.append(second.try_acquire()))
    thread.start()
    thread.join()
    first.release()
    assert got == [False]


def test_a_kept_lock_file_left_open_to_others_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md.lock"
    _kept_once(path)
    os.chmod(path, 0o644)
    with SidecarLock(path, 0, keep=True):
        assert (path.stat().st_mode & 0o777) == 0o600


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_neither_locks_through_nor_unlocks_its_parents_descriptors(
    tmp_path: Path,
) -> None:
    path = tmp_path / "MEMORY.md.lock"
    _kept_once(path)  # an idle kept descriptor, inherited by the child below
    held = SidecarLock(tmp_path / "USER.md.lock", 0, keep=True)
    held.acquire()  # held by the parent across the fork
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: take the first lock and keep it until told; drop the second
        code = 1
        try:
            os.close(ready_r)
            os.close(go_w)
            mine = SidecarLock(path, 0, keep=True)
            if mine.try_acquire():
                held.release()  # the parent's lock, as the child sees it
                os.write(ready_w, b"x")
                os.read(go_r, 1)
                mine.release()
                code = 0
        finally:
            os._exit(code)
    os.close(ready_w)
    os.close(go_r)
    try:
        assert os.read(ready_r, 1) == b"x"
        # the child holds the first lock: the parent's kept descriptor must not take it
        assert not SidecarLock(path, 0, keep=True).try_acquire()
        # and the child's release of the second did not release the parent's hold on it
        assert not SidecarLock(tmp_path / "USER.md.lock", 0).try_acquire()
    finally:
        os.write(go_w, b"x")
        _, status = os.waitpid(pid, 0)
        held.release()
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("keep", [False, True])
@pytest.mark.parametrize("waits", [True, False])
def test_a_lock_file_moved_while_its_lock_is_taken_is_not_believed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keep: bool, waits: bool
) -> None:
    """Lock, then verify (issue 26, mend22): a writer opens the lock file, and before
    the lock is granted the file is moved away by the one holding it (``mnemic gc``
    setting a directory aside, a removal). Believed, that lock excluded nobody: the
    next writer opened the file at the path and held it too. Now the first writer sees
    the path names another file (or none) once its lock is granted, and takes the
    path's. ``waits``: the mover held the lock while moving (the writer waited for it);
    otherwise the file was moved between the open and the lock."""
    path = tmp_path / "MEMORY.md.lock"
    path.write_bytes(b"")
    os.chmod(path, 0o600)
    holder = _hold_elsewhere(path) if waits else None
    opened = threading.Event()
    real_open = fsio.open_regular

    def opening(*args: object, **kw: object) -> int:
        fd = real_open(*args, **kw)  # type: ignore[arg-type]
        if not opened.is_set():
            opened.set()
            if holder is None:  # moved between the open and the lock
                os.rename(path, tmp_path / "moved.lock")
        return fd

    monkeypatch.setattr(fsio, "open_regular", opening)
    lock = SidecarLock(path, 30.0, keep=keep)
    taker = threading.Thread(target=lock.acquire)
    taker.start()
    assert opened.wait(30.0)
    if holder is not None:  # moved while the writer waits for it, then let go
        os.rename(path, tmp_path / "moved.lock")
        os.close(holder)
    taker.join(30.0)
    assert not taker.is_alive() and lock.held
    monkeypatch.setattr(fsio, "open_regular", real_open)
    other = SidecarLock(path, 0.0)
    assert not other.try_acquire(), "two holders of the lock at one path"
    assert path.exists()
    lock.release()
    assert other.try_acquire()
    other.release()
