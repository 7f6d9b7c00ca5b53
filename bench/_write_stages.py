"""Stage timer of one memory tool call (``bench write_cpu --parts stages``).

Each stage is timed by a wrapper around the function that does it, in the main thread
(``time.thread_time``: CPU, and ``time.perf_counter``: wall), fsync and fdatasync stubbed
out; figures are the mean per call over every call (a stage that runs in some calls only
counts 0 in the others), so that the rows of one level add up. Stages are inclusive:
a row's time holds the rows indented under it. ``process cpu_ms`` is the CPU of every
thread of the process over the calls (the flusher's work after each call included),
divided by the calls.
"""

from __future__ import annotations

import functools
import os
import shutil
import time
from collections.abc import Callable
from typing import Any

_STAGES: dict[str, list[float]] = {}
_DEPTH = [0]


def _wrap(owner: Any, name: str, label: str) -> None:
    inner = getattr(owner, name)
    if isinstance(inner, staticmethod):  # pragma: no cover - not used
        inner = inner.__func__
    cell = _STAGES.setdefault(label, [0.0, 0.0, 0.0])

    @functools.wraps(inner)
    def timed(*args: Any, **kwargs: Any) -> Any:
        c0, t0 = time.thread_time(), time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            cell[0] += time.thread_time() - c0
            cell[1] += time.perf_counter() - t0
            cell[2] += 1

    setattr(owner, name, timed)


def stages(ops: int, *, disk: bool = False) -> dict[str, float]:
    """``ops`` rounds of add, replace and remove near a full default store, staged;
    with ``disk``, on the real disk (fsync not stubbed: the wall times then hold the
    waits for the disk)."""
    if not disk:
        os.fsync = lambda fd: None  # type: ignore[assignment]
        os.fdatasync = lambda fd: None  # type: ignore[assignment]
    import curated
    from mnemic.backends.files import curated as files, flusher, journal
    from mnemic.curated import memory, store, tool
    from mnemic.fsio import SidecarLock
    from mnemic.governance import chain, governor

    plan: list[tuple[Any, str, str]] = [
        (tool, "parse_arguments", "arguments (parse_arguments)"),
        (tool, "_parse", "arguments (_parse: ops, validation)"),
        (memory.Memory, "apply", "Memory.apply"),
        (store.CuratedStore, "holds", "  scan of the new text (holds)"),
        (store.CuratedStore, "apply_all", "  CuratedStore.apply_all"),
        (store.CuratedStore, "prepare", "    prepare (validation, scan memo)"),
        (SidecarLock, "acquire", "    locks taken (target and journal)"),
        (SidecarLock, "release", "    locks released"),
        (files.FileBackend, "read", "    re-read under the lock"),
        (files._FileTxn, "write", "    write (temp file .. rename)"),
        (files.FileBackend, "replay_for", "    replay item (journal durability)"),
        (files, "_temp_file", "      temp file (encode, create, write)"),
        (files._Fsyncs, "start", "      fsync thread hand-off (start)"),
        (files._Syncing, "started", "      fsync thread hand-off (started)"),
        (files._Syncing, "wait", "      fsync wait + close"),
        (files.FileBackend, "_keep_previous", "      history link"),
        (memory.Memory, "_recorder", "      (recorder made)"),
        (governor.Attempt, "committing", "      journal record (committing)"),
        (chain.Journal, "append", "        Journal.append"),
        (journal.FileJournalStore, "append", "          FileJournalStore.append"),
        (chain.Journal, "_entries", "            the record (Journal._entries: JSON, hash)"),
        (chain, "make_record", "              make_record"),
        (journal, "_identity", "            journal identity (pread, hash)"),
        (journal._States, "advance", "            recorded states advanced"),
        (journal.FileJournalStore, "_open", "            journal open"),
        (files, "fsync_dir", "    directory fsync call"),
        (journal.FileJournalStore, "flush", "after the call: journal flush (flusher)"),
        (files.FileBackend, "_prune", "after the call: prune (flusher)"),
        (files._Syncing, "run", "helper thread: the temp file's fsync job"),
        (files.FileBackend, "_prune_later", "    prune hand-off"),
        (flusher, "submit", "    flusher submit (all)"),
        (governor.Attempt, "applied", "    on_commit (applied)"),
        (memory.Memory, "_result", "  _result"),
        (memory.Memory, "_observe", "    _observe"),
        (tool, "success", "response (success)"),
    ]
    for owner, name, label in plan:
        _wrap(owner, name, label)
    replace = os.replace
    cell = _STAGES.setdefault("      rename (os.replace)", [0.0, 0.0, 0.0])

    def timed_replace(*a: Any, **k: Any) -> None:
        c0, t0 = time.thread_time(), time.perf_counter()
        try:
            replace(*a, **k)
        finally:
            cell[0] += time.thread_time() - c0
            cell[1] += time.perf_counter() - t0
            cell[2] += 1

    os.replace = timed_replace  # type: ignore[assignment]
    tool.memory_call = _timed_call(tool.memory_call)  # type: ignore[assignment]
    root, mem = curated._tool_home(True)
    try:
        for i in range(20):  # warm: memos, threads, the history's first versions
            curated._tool_round(mem, 100000 + i)
        for values in _STAGES.values():
            values[:] = [0.0, 0.0, 0.0]
        p0 = time.process_time()
        for i in range(ops):
            curated._tool_round(mem, i)
        process = time.process_time() - p0
    finally:
        shutil.rmtree(root, ignore_errors=True)
    calls = _STAGES["whole call (memory_call)"][2]
    out: dict[str, float] = {"calls": calls}
    # every thread (the fsync helper, the flusher's journal flush and pruning included)
    out["process cpu_ms"] = round(process * 1000.0 / calls, 4)
    for label, (cpu, wall, n) in _STAGES.items():
        out[f"{label} cpu_ms"] = round(cpu * 1000.0 / calls, 4)
        out[f"{label} wall_ms"] = round(wall * 1000.0 / calls, 4)
        out[f"{label} per_call"] = round(n / calls, 2)
    return out


def _timed_call(inner: Callable[..., Any]) -> Callable[..., Any]:
    cell = _STAGES.setdefault("whole call (memory_call)", [0.0, 0.0, 0.0])

    @functools.wraps(inner)
    def timed(*args: Any, **kwargs: Any) -> Any:
        c0, t0 = time.thread_time(), time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            cell[0] += time.thread_time() - c0
            cell[1] += time.perf_counter() - t0
            cell[2] += 1

    return timed
