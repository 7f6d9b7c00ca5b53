"""The temp file's fsync runs in a helper thread while the writer links the history and
appends the audit record (``backends/files/curated.py``, ``_Fsyncs``).

What must not change: the text is durable before it is renamed into place, a failed
fsync refuses the write with the history as it was, and the bytes on disk, the records
and the tool's responses are those of an fsync in line. The failing fsync is injected
(the kernel gives no way to make one fail on demand); everything else is the real store.
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

from mnemic.backends.files import curated as files_curated
from mnemic.backends.files.curated import FileBackend
from mnemic.backends.files.flusher import drain
from mnemic.curated.memory import Memory
from mnemic.curated.tool import run_memory_tool
from mnemic.fsio import stale_temp_files

CALLS: list[dict[str, Any]] = [
    {"action": "add", "target": "memory", "content": "The repo builds with make -j2."},
    {"action": "add", "target": "memory", "content": "Staging deploys run at 02:00 UTC."},
    {"action": "replace", "target": "memory", "old_text": "make", "content": "Builds use ninja."},
    {"action": "add", "target": "user", "content": "The user prefers short answers."},
    {"action": "remove", "target": "memory", "old_text": "Staging"},
    {"action": "add", "target": "memory", "content": "The repo builds with make -j2."},
]
# What differs between two runs whatever the code: ids, clocks, chain hashes, sessions.
_VOLATILE = {"id", "time", "ts", "hash", "prev", "session", "lock_wait_ms"}


def _inline(fd: int) -> Any:
    """The fsync in the writer's own thread (what the helper thread replaces)."""
    job = files_curated._Syncing(fd)
    job.run()
    return job


def _stable(record: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in record.items() if k not in _VOLATILE}
    for change in (out.get("changes") or {}).values():
        if isinstance(change, dict) and isinstance(change.get("author"), dict):
            change["author"] = {k: v for k, v in change["author"].items() if k != "session"}
    return out


def _run(home: Path) -> tuple[dict[str, bytes], list[dict[str, Any]], list[dict[str, Any]]]:
    mem = Memory.open(home)
    responses = [run_memory_tool(mem, json.dumps(call)) for call in CALLS]
    drain()
    memories = home / "memories"
    files = {name: (memories / name).read_bytes() for name in ("MEMORY.md", "USER.md")}
    lines = (home / "audit" / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    return files, [_stable(json.loads(line)) for line in lines], responses


def test_the_helper_thread_leaves_the_bytes_records_and_responses_of_an_inline_fsync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threaded = _run(tmp_path / "threaded")
    with monkeypatch.context() as m:
        m.setattr(files_curated._FSYNCS, "start", _inline)
        inline = _run(tmp_path / "inline")
    assert threaded[0] == inline[0]
    assert threaded[1] == inline[1]
    assert threaded[2] == inline[2]
    assert all(r["success"] for r in threaded[2])


@pytest.fixture
def fs_log(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str, str]]]:
    """(event, path, thread name) of each fsync's return, append write and rename."""
    log: list[tuple[str, str, str]] = []
    lock = threading.Lock()
    real_fsync, real_write, real_replace = os.fsync, os.write, os.replace

    def note(event: str, path: str) -> None:
        with lock:
            log.append((event, path, threading.current_thread().name))

    def fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
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
    assert fs_log[fsynced[0]][2] == "mnemic-fsync"  # in the helper thread
    records = [
        i for i, (e, p, _) in enumerate(fs_log) if e == "wrote" and p.endswith("journal.jsonl")
    ]
    assert records and records[0] < rename  # write-ahead


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
    # The record appended while the fsync ran names a text never renamed into place:
    # the next write records it as not committed, and the entry is nowhere.
    mem.add("memory", "fact four")
    drain()
    lines = (home_path / "audit" / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert any(r.get("cause") == "not_committed" for r in records)
    assert "lost fact" not in (backend.read("memory") or "")
    assert "lost fact" not in mem.read("memory").entries


def test_writers_in_two_threads_each_commit_while_the_helper_is_busy(tmp_path: Path) -> None:
    """Two homes written from two threads at once: while the helper thread runs one
    writer's fsync, the other's runs in line; every write commits and is recorded."""
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
