"""The order of a files-store commit's durable steps (``backends/files/curated.py``,
``FileBackend._commit``): the temp file is written, the history linked and the audit
record appended (its ``fdatasync`` handed to the flusher thread), then the temp file is
fsynced in the writer's own thread, beside that flush, and only then renamed into place.

What must not change: the text is durable before it is renamed into place, the record is
written before the rename (write-ahead), and a failed fsync refuses the write with the
history as it was. The failing fsync is injected (the kernel gives no way to make one
fail on demand); everything else is the real store.
"""

from __future__ import annotations

import errno
import json
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemic.backends.files.curated import FileBackend
from mnemic.backends.files.flusher import drain
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool
from mnemic.fsio import stale_temp_files


@pytest.fixture
def fs_log(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str, str]]]:
    """(event, path, thread name) of each fsync's call and return, write and rename."""
    log: list[tuple[str, str, str]] = []
    lock = threading.Lock()
    real_fsync, real_write, real_replace = os.fsync, os.write, os.replace

    def note(event: str, path: str) -> None:
        with lock:
            log.append((event, path, threading.current_thread().name))

    def fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        note("fsync", path)
        real_fsync(fd)
        note("fsynced", path)

    def write(fd: int, data: Any) -> int:
        path = os.readlink(f"/proc/self/fd/{fd}")
        n = real_write(fd, data)
        note("wrote", path)
        return n

    def replace(src: Any, dst: Any, **kw: Any) -> None:
        note("rename", os.fspath(src))
        real_replace(src, dst, **kw)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "write", write)
    monkeypatch.setattr(os, "replace", replace)
    yield log


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd")
def test_the_temp_file_is_durable_and_the_record_written_before_the_rename(
    tmp_path: Path, fs_log: list[tuple[str, str, str]]
) -> None:
    mem = Memory.open(tmp_path)
    mem.add("memory", "first entry")
    fs_log.clear()
    mem.add("memory", "second entry")
    renames = [i for i, (event, path, _) in enumerate(fs_log) if event == "rename"]
    assert len(renames) == 1
    rename = renames[0]
    temp = fs_log[rename][1]
    assert temp.endswith(".tmp")
    fsynced = [i for i, (e, p, _) in enumerate(fs_log) if e == "fsynced" and p == temp]
    assert len(fsynced) == 1 and fsynced[0] < rename
    records = [
        i for i, (e, p, _) in enumerate(fs_log) if e == "wrote" and p.endswith("journal.jsonl")
    ]
    assert records and records[0] < rename  # write-ahead


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd")
def test_the_temp_file_is_fsynced_in_the_writers_thread_after_its_record_is_written(
    tmp_path: Path, fs_log: list[tuple[str, str, str]]
) -> None:
    """perf18: no hand-over to a helper thread while the lock is held; the record's
    flush, handed to the flusher first, runs beside the temp file's fsync."""
    mem = Memory.open(tmp_path)
    mem.add("memory", "first entry")
    fs_log.clear()
    mem.add("memory", "second entry")
    (rename,) = [i for i, (event, _, _) in enumerate(fs_log) if event == "rename"]
    temp = fs_log[rename][1]
    (start,) = [i for i, (e, p, _) in enumerate(fs_log) if e == "fsync" and p == temp]
    assert fs_log[start][2] == threading.current_thread().name
    record = next(
        i for i, (e, p, _) in enumerate(fs_log) if e == "wrote" and p.endswith("journal.jsonl")
    )
    assert record < start < rename


def test_a_failed_fsync_refuses_the_write_and_its_record_is_void(
    make_memory: Callable[..., Memory], home_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = make_memory(history_limit=3)
    for fact in ("fact one", "fact two", "fact three"):
        mem.add("memory", fact)
    backend = mem.backend
    assert isinstance(backend, FileBackend)
    versions = [(v.id, backend.read_version("memory", v.id)) for v in backend.history("memory")]
    before = backend.read("memory")
    real_fsync = os.fsync

    def failing(fd: int) -> None:
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
            raise OSError(errno.EIO, "Input/output error")
        real_fsync(fd)

    with monkeypatch.context() as m:
        m.setattr(os, "fsync", failing)
        resp = run_memory_tool(mem, {"action": "add", "target": "memory", "content": "lost fact"})
    assert resp["success"] is False
    assert "Input/output error" in json.dumps(resp)
    assert backend.read("memory") == before
    assert stale_temp_files(backend.path("memory")) == []
    assert [
        (v.id, backend.read_version("memory", v.id)) for v in backend.history("memory")
    ] == versions
    # The record appended before the fsync names a text never renamed into place:
    # the next write records it as not committed, and the entry is nowhere.
    mem.add("memory", "fact four")
    drain()
    lines = (home_path / "audit" / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert any(r.get("cause") == "not_committed" for r in records)
    assert "lost fact" not in (backend.read("memory") or "")
    assert "lost fact" not in mem.read("memory").entries


def test_writers_in_two_threads_each_commit_while_the_helper_is_busy(tmp_path: Path) -> None:
    """Two homes written from two threads at once, each fsyncing in its own thread:
    every write commits and is recorded."""
    mems = [Memory.open(tmp_path / f"home{n}") for n in range(2)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def write(n: int) -> None:
        try:
            barrier.wait()
            for i in range(20):
                mems[n].add("memory", f"Home {n} fact {i}: the nightly job {i} is done.")
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    drain()
    assert errors == []
    for n, mem in enumerate(mems):
        assert len(mem.read("memory").entries) == 20
        lines = (tmp_path / f"home{n}" / "audit" / "journal.jsonl").read_text().splitlines()
        assert sum(json.loads(line)["result"] == "ok" for line in lines) == 20
