"""What the history's hard link costs a write inside its lock (issue 32).

Usage: ./x bench history_link [--rounds 7] [--writes 200]

Each write links the current MEMORY.md into ``memories/.history/`` under the target's
lock, before its rename. This measures the locked section (from the target's lock
taken to its release, the journal append, the fsyncs and the history link included)
of an add and a remove in turn near a default store, with the history on
(``history_limit = 50``) and off (``history_limit = 0``: no link, no version), in
alternating rounds in one process, on the real disk and with fsync stubbed (the CPU
alone: timed by the writing thread's CPU clock, which the machine's other processes
move little). It also times ``_keep_previous`` itself (the link and its listing).
Figures are medians over the rounds of the per-round p50; ratios are on / off.
Prints one JSON object on the last line; saved to ``bench/results/history_link.json``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import emit  # noqa: E402
from mnemic.backends.files import curated as files_curated  # noqa: E402
from mnemic.backends.files.flusher import drain  # noqa: E402
from mnemic.curated.memory import Memory  # noqa: E402
from mnemic.fsio import SidecarLock  # noqa: E402

HELD: list[float] = []
LINKS: list[float] = []
CLOCK = time.perf_counter
"""The clock the locked section is timed by: wall time on the disk (the flushes are
the cost), this thread's CPU time with fsync stubbed (what other processes on the
machine do then moves it little)."""


def _instrument() -> None:
    """Time each MEMORY.md lock from taken to released, and each history link."""
    acquire, release = SidecarLock.acquire, SidecarLock.release
    taken: dict[int, float] = {}

    def timed_acquire(self: SidecarLock) -> None:
        acquire(self)
        if str(getattr(self, "path", "")).endswith("MEMORY.md.lock"):
            taken[id(self)] = CLOCK()

    def timed_release(self: SidecarLock) -> None:
        start = taken.pop(id(self), None)
        release(self)
        if start is not None:
            HELD.append(CLOCK() - start)

    SidecarLock.acquire = timed_acquire  # type: ignore[method-assign]
    SidecarLock.release = timed_release  # type: ignore[method-assign]
    keep = files_curated.FileBackend._keep_previous

    def timed_keep(self: Any, target: str, path: Path) -> str | None:
        start = CLOCK()
        try:
            return keep(self, target, path)
        finally:
            LINKS.append(CLOCK() - start)

    files_curated.FileBackend._keep_previous = timed_keep  # type: ignore[method-assign]


def _side(limit: int, writes: int) -> tuple[float, float]:
    """p50 of the locked section and of the link (ms) over ``writes`` writes."""
    with tempfile.TemporaryDirectory(prefix="mnemic-hist-", dir=os.getcwd()) as tmp:
        home = Path(tmp)
        (home / "config.toml").write_text(f"[memory]\nhistory_limit = {limit}\n")
        mem = Memory.open(home, origin="cli", session_id="bench")
        for i in range(30):  # a store near a default one's size (about 1,800 chars)
            mem.add("memory", f"standing fact number {i:03d}: kept for the bench run")
        drain()
        del HELD[:], LINKS[:]
        for i in range(writes // 2):
            mem.add("memory", f"bench entry {i}")
            mem.remove("memory", f"bench entry {i}")
        drain()
        held = statistics.median(HELD) * 1000.0
        link = statistics.median(LINKS) * 1000.0 if LINKS else 0.0
    return held, link


def _rounds(rounds: int, writes: int, label: str) -> dict[str, Any]:
    on: list[float] = []
    off: list[float] = []
    links: list[float] = []
    ratios: list[float] = []
    for r in range(rounds):
        order: list[tuple[str, Callable[[], tuple[float, float]]]] = [
            ("on", lambda: _side(50, writes)),
            ("off", lambda: _side(0, writes)),
        ]
        if r % 2:
            order.reverse()
        got = {}
        for name, run in order:
            got[name] = run()
        on.append(got["on"][0])
        off.append(got["off"][0])
        links.append(got["on"][1])
        ratios.append(got["on"][0] / got["off"][0])
        print(f"{label} round {r}: locked on {on[-1]:.3f} ms, off {off[-1]:.3f} ms, "
              f"link {links[-1]:.3f} ms", file=sys.stderr)  # fmt: skip
    return {
        f"{label}_locked_on_ms": round(statistics.median(on), 4),
        f"{label}_locked_off_ms": round(statistics.median(off), 4),
        f"{label}_link_ms": round(statistics.median(links), 4),
        f"{label}_ratio_on_off": round(statistics.median(ratios), 3),
        f"{label}_ratio_min_max": [round(min(ratios), 3), round(max(ratios), 3)],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--writes", type=int, default=200)
    args = ap.parse_args()
    _instrument()
    result: dict[str, Any] = {"rounds": args.rounds, "writes_per_side": args.writes}
    result.update(_rounds(args.rounds, args.writes, "disk"))
    os.fsync = lambda fd: None  # type: ignore[assignment]
    os.fdatasync = lambda fd: None  # type: ignore[assignment]
    global CLOCK
    CLOCK = time.thread_time
    result.update(_rounds(args.rounds, args.writes, "cpu"))
    emit("history_link", result)


if __name__ == "__main__":
    main()
