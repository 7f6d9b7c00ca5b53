"""The pytest plugin of ``bench/suite_cpu.py`` (loaded with ``-p _suite_cpu_plugin`` in the
controller and in every xdist worker; not a module of the tests).

Each test's whole run (setup, call and teardown: ``pytest_runtest_protocol``) is measured in
the process that runs it: CPU as ``time.process_time`` (every thread of the worker) plus
``RUSAGE_CHILDREN`` (the children it reaped in that time, and what they reaped in turn),
wall as ``time.perf_counter``, and its start and end by the clock (``time.time``: the
workers' timelines are put side by side). Each process appends one JSON line a test to
``$SUITE_CPU_OUT/<worker>.jsonl`` and, at the end of its session, one line about itself
(its collection's CPU, its whole CPU and wall). ``$SUITE_CPU_SAMPLE`` N > 1 keeps one test in
N, chosen by a CRC-32 of ``$SUITE_CPU_SEED:<node id>`` (the same choice in every worker and
every run). ``$SUITE_CPU_PYTHONPATH`` is what ``PYTHONPATH`` was before the driver put this
module on it: restored in the process that runs tests, so that their subprocesses see the
environment they would see without the plugin.
"""

from __future__ import annotations

import json
import os
import resource
import time
import zlib
from collections.abc import Generator
from pathlib import Path
from typing import Any, TextIO

import pytest

_OUT = "SUITE_CPU_OUT"
_state: dict[str, Any] = {}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _worker(config: pytest.Config) -> str:
    workerinput = getattr(config, "workerinput", None)
    return str(workerinput["workerid"]) if workerinput else "main"


def _runs_tests(config: pytest.Config) -> bool:
    """A worker, or the one process of ``-n 0`` (not an xdist controller)."""
    if hasattr(config, "workerinput"):
        return True
    numprocesses = getattr(config.option, "numprocesses", None)
    return not numprocesses


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get(_OUT) or not _runs_tests(config):
        return
    before = os.environ.pop("SUITE_CPU_PYTHONPATH", None)
    if before is not None:  # the tests' subprocesses see the PYTHONPATH of a plain run
        if before:
            os.environ["PYTHONPATH"] = before
        else:
            os.environ.pop("PYTHONPATH", None)
    out = Path(os.environ[_OUT]) / f"{_worker(config)}.jsonl"
    _state.update(
        file=out.open("a", encoding="utf-8"),
        worker=_worker(config),
        start=time.time(),
        wall0=time.perf_counter(),
        cpu0=time.process_time(),
        kids0=_children_cpu(),
        outcome={},
    )


def chosen(nodeid: str, seed: str, every: int) -> bool:
    """Whether the sample of one test in ``every`` keeps the test ``nodeid``."""
    return zlib.crc32(f"{seed}:{nodeid}".encode()) % every == 0


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    every = int(os.environ.get("SUITE_CPU_SAMPLE", "1") or 1)
    if every <= 1:
        return
    seed = os.environ.get("SUITE_CPU_SEED", "0")
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        (kept if chosen(item.nodeid, seed, every) else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_collection_finish(session: pytest.Session) -> None:
    if "file" in _state:
        _state["collected"] = time.process_time() - _state["cpu0"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    if "file" not in _state:
        yield
        return
    start = time.time()
    wall0, cpu0, kids0 = time.perf_counter(), time.process_time(), _children_cpu()
    yield
    wall, own, kids = (
        time.perf_counter() - wall0,
        time.process_time() - cpu0,
        _children_cpu() - kids0,
    )
    record = {
        "id": item.nodeid,
        "worker": _state["worker"],
        "start": round(start, 4),
        "wall": round(wall, 4),
        "own": round(own, 4),
        "children": round(kids, 4),
        "outcome": _state["outcome"].pop(item.nodeid, "passed"),
    }
    file: TextIO = _state["file"]
    file.write(json.dumps(record) + "\n")
    file.flush()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "file" not in _state:
        return
    if report.failed or (report.skipped and report.when != "teardown"):
        seen = _state["outcome"]
        if seen.get(report.nodeid) != "failed":
            seen[report.nodeid] = "skipped" if report.skipped else "failed"


def pytest_sessionfinish(session: pytest.Session) -> None:
    if "file" not in _state:
        return
    file: TextIO = _state["file"]
    record = {
        "session": _state["worker"],
        "start": round(_state["start"], 4),
        "end": round(time.time(), 4),
        "wall": round(time.perf_counter() - _state["wall0"], 4),
        "own": round(time.process_time() - _state["cpu0"], 4),
        "children": round(_children_cpu() - _state["kids0"], 4),
        "collection_own": round(_state.get("collected", 0.0), 4),
    }
    file.write(json.dumps(record) + "\n")
    file.close()
    _state.clear()
