"""Start-up benchmark: what agents pay on every command and hook call.

Usage: ./x bench startup [--runs N] [--baseline-rev REV | --baseline SRC | --no-baseline]
       ./x bench startup --verdicts [--runs N]

Times, as whole processes started by this interpreter on a small home (a few memory
entries, one short Claude Code transcript):

* ``mnemic --help``;
* ``mnemic hook claude-code`` with a SessionStart input (renders the memory snapshot) and
  with a PreCompact input (imports the transcript into the session history);
* the same SessionStart input on a second home that no round writes to, so its answer
  comes from the SessionStart cache (``docs/performance.md``): the first home's every
  round adds and removes a note, which invalidates its cache, so its SessionStart is a
  miss (a hit is counted only when the cache file is the one the warm-up wrote);
* ``mnemic memory add TEXT`` (each timed add is followed by an untimed remove);
* ``mnemic prompt`` (the whole system prompt of a new session);

against a bare ``python -c pass``, and against the code before the renovation in the same
run: ``--baseline-rev`` (default ``83bd7b1``) is exported with ``git archive`` into a
temporary directory, and the same interpreter runs it with ``PYTHONPATH`` pointing at its
``src`` (ahead of the installed package); ``--baseline SRC`` names such a ``src`` directly.
Both trees are byte-compiled first, as an installed package is. Each version gets its own
home, made by its own CLI. Rounds interleave every command and both versions, so both are
measured in the same minutes of the same machine; each process's wall time and CPU time
(user + system, ``RUSAGE_CHILDREN``: it moves less on a loaded machine) are kept. Aims:
the SessionStart hook (what the architecture review measured) at least 3x faster than
the baseline (median) and within 20 ms of a bare interpreter, ``mnemic --help`` under
150 ms. ``--baseline-rev`` of the commit before a change gives its before and after.

``--verdicts`` measures the load-time scan's verdict cache alone (``docs/scanner.md``): a
home of 48 notes, the SessionStart hook with the cache kept and with
``cache/scan-verdicts.json`` removed before each run, and a bare interpreter, taking
turns; wall time and CPU time (user + system, ``RUSAGE_CHILDREN``) per process.
"""

from __future__ import annotations

import argparse
import compileall
import io
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from _common import emit

ROOT = Path(__file__).resolve().parent.parent
BASELINE_REV = "83bd7b1"  # the code the architecture review measured (before the renovation)
NOTES = (
    "The repo builds with make -j2; the CI runs make check.",
    "Deploys go through the release branch, never from main.",
    "The staging database is reset every Monday at 06:00 UTC.",
    "Integration tests need the local PostgreSQL on port 5433.",
)
PROFILE = ("Prefers short answers with the command first.", "Works in Europe/Berlin.")


def _export(rev: str, into: Path) -> Path:
    """``src`` of ``rev``, exported with ``git archive`` (the repository is not touched)."""
    tar = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev, "src"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(into, filter="data")
    return into / "src"


def _transcript(path: Path) -> None:
    lines = [
        {
            "type": role,
            "uuid": f"u{i}",
            "sessionId": "bench-session",
            "timestamp": f"2026-01-01T00:00:{i:02d}Z",
            "message": {"role": role, "content": text},
        }
        for i, (role, text) in enumerate(
            [
                ("user", "Why does the staging deploy fail?"),
                ("assistant", "The migration step times out; raise its limit to 120 s."),
                ("user", "Done, it passes now. Note that for next time."),
            ]
        )
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


class Version:
    """One version of mnemic: how to run it, and its own home."""

    def __init__(self, name: str, src: Path | None, home: Path) -> None:
        self.name = name
        self.home = home
        self.env = {**os.environ, "MNEMIC_HOME": str(home), "COLUMNS": "100"}
        self.env.pop("PYTHONPATH", None)
        if src is not None:
            self.env["PYTHONPATH"] = str(src)
        self.transcript = home / "transcript.jsonl"
        self.quiet = home.with_name(home.name + "-quiet")  # never written by a round
        self.quiet_env = {**self.env, "MNEMIC_HOME": str(self.quiet)}
        self.cache_stamp: int | None = None
        self.hits = 0

    def run(
        self, args: list[str], stdin: str = "", *, quiet: bool = False
    ) -> subprocess.CompletedProcess[str]:
        env = self.quiet_env if quiet else self.env
        return subprocess.run(
            [sys.executable, *args], input=stdin, capture_output=True, text=True, env=env
        )

    def _cache_stamp(self) -> int | None:
        try:
            return (self.quiet / "cache" / "session-start.json").stat().st_mtime_ns
        except FileNotFoundError:
            return None

    def mnemic(self, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return self.run(["-m", "mnemic", *args], stdin)

    def prepare(self) -> None:
        self.home.mkdir(parents=True)
        for text in NOTES:
            self._check(self.mnemic("memory", "add", text))
        for text in PROFILE:
            self._check(self.mnemic("memory", "add", "--target", "user", text))
        _transcript(self.transcript)
        self._check(self.mnemic("hook", "claude-code", stdin=self.pre_compact()))
        self.quiet.mkdir(parents=True)
        for text in NOTES:
            self._check(self.run(["-m", "mnemic", "memory", "add", text], quiet=True))
        hook = ["-m", "mnemic", "hook", "claude-code"]
        self._check(self.run(hook, SESSION_START, quiet=True))  # the cache is written
        self.cache_stamp = self._cache_stamp()
        where = self.run(["-c", "import mnemic; print(mnemic.__file__)"]).stdout.strip()
        print(f"{self.name}: {where}", flush=True)

    def pre_compact(self) -> str:
        return json.dumps(
            {
                "hook_event_name": "PreCompact",
                "session_id": "bench-session",
                "transcript_path": str(self.transcript),
                "cwd": str(self.home),
            }
        )

    @staticmethod
    def _check(result: subprocess.CompletedProcess[str]) -> None:
        if result.returncode != 0:
            raise SystemExit(f"setting up the bench home failed: {result.stderr}")


SESSION_START = json.dumps(
    {"hook_event_name": "SessionStart", "session_id": "bench-session", "source": "startup"}
)


def _timed(version: Version, command: str, n: int) -> float:
    """Run ``command`` once; its wall time in seconds (the untimed clean-up excluded).
    Its CPU time (user + system) goes to :data:`CPU`."""
    args: list[str]
    stdin = ""
    quiet = command == "hook_session_start_cached"
    if command == "bare":
        args = ["-c", "pass"]
    elif command == "help":
        args = ["-m", "mnemic", "--help"]
    elif command == "hook_session_start" or command == "hook_session_start_cached":
        args, stdin = ["-m", "mnemic", "hook", "claude-code"], SESSION_START
    elif command == "hook_pre_compact":
        args, stdin = ["-m", "mnemic", "hook", "claude-code"], version.pre_compact()
    elif command == "memory_add":
        args = ["-m", "mnemic", "memory", "add", f"Bench note number {n}."]
    elif command == "prompt":
        args = ["-m", "mnemic", "prompt"]
    else:  # pragma: no cover
        raise ValueError(command)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    result = version.run(args, stdin, quiet=quiet)
    took = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{version.name} {command} failed: {result.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    CPU.setdefault((version.name, command), []).append(cpu)
    if quiet and version.cache_stamp is not None:
        version.hits += version._cache_stamp() == version.cache_stamp
    if command == "memory_add":
        version._check(version.mnemic("memory", "remove", f"Bench note number {n}."))
    return took


COMMANDS = (
    "bare",
    "help",
    "hook_session_start",
    "hook_session_start_cached",
    "hook_pre_compact",
    "memory_add",
    "prompt",
)
CPU: dict[tuple[str, str], list[float]] = {}
"""CPU seconds (user + system) of each timed process, by (version, command): on a loaded
machine they move less than wall time."""


def measure(versions: list[Version], runs: int) -> dict[str, dict[str, list[float]]]:
    samples = {v.name: {c: [] for c in COMMANDS} for v in versions}
    for r in range(runs):
        for command in COMMANDS:
            order = versions if r % 2 == 0 else versions[::-1]
            for version in order:
                if command == "bare" and version is not versions[0]:
                    continue  # one interpreter: bare is the same for both
                samples[version.name][command].append(_timed(version, command, r))
        print(f"round {r + 1}/{runs} done", flush=True)
    return samples


def _stats(values: list[float]) -> dict[str, float]:
    ms = sorted(v * 1000 for v in values)
    return {
        "median_ms": round(statistics.median(ms), 1),
        "best_ms": round(ms[0], 1),
        "p90_ms": round(ms[min(len(ms) - 1, round(0.9 * (len(ms) - 1)))], 1),
    }


def _process(version: Version, args: list[str], stdin: str = "") -> tuple[float, float]:
    """(wall, CPU) milliseconds of one process of ``version``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    result = version.run(args, stdin)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{args} failed: {result.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall * 1000, cpu * 1000


def verdicts(runs: int) -> dict[str, object]:
    """The SessionStart hook of a 48-entry home with its scan verdicts cached, and with
    the cache removed before each run, and a bare interpreter, taking turns."""
    scratch = Path(tempfile.mkdtemp(prefix="mnemic-bench-verdicts-"))
    try:
        compileall.compile_dir(str(ROOT / "src" / "mnemic"), quiet=1)
        version = Version("this", None, scratch / "home")
        version.home.mkdir()
        (version.home / "config.toml").write_text(
            "[memory]\nmemory_char_limit = 100000\n", encoding="utf-8"
        )
        for i in range(48):
            note = f"Note {i}: the {NOTES[i % 4][4:40]} step listens on port {5000 + i}."
            version._check(version.mnemic("memory", "add", note))
        cache = version.home / "cache" / "scan-verdicts.json"
        hook = ["-m", "mnemic", "hook", "claude-code"]
        samples: dict[str, list[tuple[float, float]]] = {"bare": [], "cached": [], "scanned": []}
        _process(version, hook, SESSION_START)  # the cache is written
        for r in range(runs):
            order = ["bare", "cached", "scanned"]
            for kind in order if r % 2 == 0 else order[::-1]:
                if kind == "bare":
                    samples[kind].append(_process(version, ["-c", "pass"]))
                    continue
                if kind == "scanned":
                    cache.unlink(missing_ok=True)
                elif not cache.exists():
                    _process(version, hook, SESSION_START)
                samples[kind].append(_process(version, hook, SESSION_START))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    out: dict[str, object] = {"runs": runs, "entries": 48}
    for kind, values in samples.items():
        wall = round(statistics.median(w for w, _ in values), 1)
        cpu = round(statistics.median(c for _, c in values), 1)
        out[kind] = {"wall_median_ms": wall, "cpu_median_ms": cpu}
        print(f"{kind:8} wall {wall:7.1f} ms  cpu {cpu:7.1f} ms", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="rounds (default 15)")
    parser.add_argument(
        "--verdicts", action="store_true", help="only the scan verdict cache's effect"
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--baseline-rev", default=BASELINE_REV, help="git revision to compare")
    group.add_argument("--baseline", type=Path, help="src directory of an older checkout")
    group.add_argument("--no-baseline", action="store_true", help="measure this code only")
    opts = parser.parse_args()
    if opts.verdicts:
        emit("startup_verdicts", verdicts(opts.runs))
        return
    scratch = Path(tempfile.mkdtemp(prefix="mnemic-bench-startup-"))
    try:
        ours_src = ROOT / "src"
        baseline_src: Path | None = None
        baseline_name = None
        if opts.baseline is not None:
            baseline_src, baseline_name = opts.baseline.resolve(), str(opts.baseline)
        elif not opts.no_baseline:
            baseline_src, baseline_name = (
                _export(opts.baseline_rev, scratch / "baseline"),
                (opts.baseline_rev),
            )
        for src in (ours_src, baseline_src):
            if src is not None:
                compileall.compile_dir(str(src / "mnemic"), quiet=1)
        versions = [Version("this", None, scratch / "home-this")]
        if baseline_src is not None:
            versions.append(Version("baseline", baseline_src, scratch / "home-baseline"))
        for version in versions:
            version.prepare()
        samples = measure(versions, opts.runs)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    bare = _stats(samples["this"]["bare"])
    bare_cpu = statistics.median(CPU["this", "bare"]) * 1000
    bare["cpu_median_ms"] = round(bare_cpu, 1)
    result: dict[str, object] = {
        "runs": opts.runs,
        "baseline": baseline_name,
        "bare_python": bare,
    }
    for version in versions:
        result[version.name] = {
            c: {
                **_stats(v),
                "above_bare_ms": round(_stats(v)["median_ms"] - bare["median_ms"], 1),
                "cpu_median_ms": round(statistics.median(CPU[version.name, c]) * 1000, 1),
                "cpu_above_bare_ms": round(
                    statistics.median(CPU[version.name, c]) * 1000 - bare_cpu, 1
                ),
            }
            for c, v in samples[version.name].items()
            if c != "bare"
        }
    ours = samples["this"]
    above = statistics.median(ours["hook_session_start"]) - statistics.median(ours["bare"])
    cached = statistics.median(CPU["this", "hook_session_start_cached"]) * 1000 - bare_cpu
    result["session_start_cache_hits"] = {v.name: v.hits for v in versions}
    aims: dict[str, object] = {
        "help_under_150_ms": statistics.median(ours["help"]) < 0.150,
        "session_start_within_20_ms_of_bare": above <= 0.020,
        "cached_session_start_cpu_within_20_ms_of_bare": cached <= 20.0,
    }
    if "baseline" in samples:
        speedup = {
            c: round(statistics.median(samples["baseline"][c]) / statistics.median(ours[c]), 2)
            for c in COMMANDS
            if c != "bare"
        }
        result["speedup_median"] = speedup
        aims["hook_3x_faster"] = (
            min(speedup["hook_session_start"], speedup["hook_pre_compact"]) >= 3
        )
    result["aims"] = aims
    result["note"] = (
        "whole processes of this interpreter, bytecode compiled first; medians of interleaved "
        "rounds; the baseline runs its src through PYTHONPATH with the same packages"
    )
    for command in COMMANDS[1:]:
        line = (
            f"{command:<20} this {statistics.median(ours[command]) * 1000:7.1f} ms "
            f"(cpu {statistics.median(CPU['this', command]) * 1000:6.1f})"
        )
        if "baseline" in samples:
            old = statistics.median(samples["baseline"][command]) * 1000
            line += f"   baseline {old:7.1f} ms   x{speedup[command]}"
        print(line, flush=True)
    emit("startup", result)


if __name__ == "__main__":
    main()
