"""Group commit in the server (``[memory] group_commit = "queue"`` on PostgreSQL,
``curated_queue``, migration 13): writers that find the target's lock busy leave their
requests, one holder applies them in arrival order in one transaction, each writer gets
its own answer; a holder killed mid-batch leaves every request applied once or pending
and applied by the next holder, never twice (``docs/postgres.md``, "Group commit in the
server: a request queue").

The batches here are made deterministic: the test holds the target's advisory lock while
the writer processes (each ready before the start signal) leave their requests, and lets
it go once every request is in the table; the writers are then granted the lock in
shared mode together, none is answered, and the first to hold it exclusively applies
them all.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from _backends import pg_config
from mnemic.curated.memory import Memory
from mnemic.curated.store import Op

pytestmark = pytest.mark.postgres

SRC = str(Path(__file__).resolve().parents[2] / "src")

WRITER = r"""
import json, os, sys
from mnemic.curated.memory import Memory
from mnemic.curated.store import Op
home, ops = sys.argv[1], json.loads(sys.argv[2])
mem = Memory.open(home)
mem.entries("memory")  # connected
print("ready", os.getpid(), flush=True)
sys.stdin.readline()
out = []
for action, a, b in ops:
    op = Op("add", a) if action == "add" else Op(action, b, old_text=a)
    try:
        res = mem.apply("memory", [op])
        out.append({"written": res.written, "status": [r.status for r in res.results]})
    except Exception as exc:
        out.append({"error": type(exc).__name__, "code": getattr(exc, "code", None)})
print(json.dumps({"out": out, "queue": mem.backend.db.server_queue}), flush=True)
"""


def _home(root: Path, dsn: str, schema: str, **memory: object) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    settings: dict[str, object] = {"group_commit": "queue", "memory_char_limit": 100_000}
    settings.update(memory)
    (root / "config.toml").write_text(pg_config(dsn, schema, **settings), encoding="utf-8")
    return root


def _sql(dsn: str, schema: str, text: str, params: tuple[Any, ...] = ()) -> list[Any]:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute(text.replace("{s}", f'"{schema}"'), params)
        return cur.fetchall() if cur.description else []


def _until(what: Callable[[], Any], timeout: float = 120.0) -> Any:
    """Wait for ``what()`` to be true (a state of the server the test observes)."""
    deadline = time.monotonic() + timeout
    while True:
        got = what()
        if got:
            return got
        assert time.monotonic() < deadline, "the server never reached the state waited for"
        time.sleep(0.02)


class Writers:
    """Writer processes, each ready (store opened, connected) before the start signal."""

    def __init__(self, home: Path, plans: list[list[tuple[str, str, str | None]]]) -> None:
        env = {**os.environ, "PYTHONPATH": SRC}
        self.procs = [
            subprocess.Popen(
                [sys.executable, "-c", WRITER, str(home), json.dumps(plan)],
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for plan in plans
        ]
        self.pids = []
        for p in self.procs:
            assert p.stdout is not None
            line = p.stdout.readline().split()
            assert line[:1] == ["ready"], p.communicate(timeout=60)[1][-2000:]
            self.pids.append(int(line[1]))

    def go(self) -> None:
        for p in self.procs:
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()

    def reports(self) -> list[dict[str, Any] | None]:
        """Each writer's report (None: it was killed)."""
        out: list[dict[str, Any] | None] = []
        for p in self.procs:
            stdout, err = p.communicate(timeout=300)
            if p.returncode == -signal.SIGKILL:
                out.append(None)
                continue
            assert p.returncode == 0, err[-2000:]
            out.append(json.loads(stdout.strip().splitlines()[-1]))
        return out

    def kill(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.communicate()


@contextlib.contextmanager
def held(dsn: str, key: int) -> Iterator[Any]:
    """The target's advisory lock held by the test (released at the block's end)."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (key,))
        try:
            yield conn
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (key,))


def _key(dsn: str, schema: str) -> int:
    from mnemic.backends.postgres.db import Database

    return Database(dsn, schema=schema).key("memory")


def _pending(dsn: str, schema: str) -> list[tuple[int, str, int]]:
    return [
        (int(i), str(sel), int(pid))
        for i, sel, pid in _sql(
            dsn, schema, "SELECT id, selector, pid FROM {s}.curated_requests ORDER BY id"
        )
    ]


def _added_in_order(mem: Memory) -> list[str]:
    assert mem.governor is not None
    return [
        item["text"]
        for rec in mem.governor.journal.records()
        for item in rec.get("changes", {}).get("memory", {}).get("added", [])
    ]


def _verified(mem: Memory) -> int:
    assert mem.governor is not None
    report = mem.governor.journal.verify()
    assert report.ok, report
    return report.records


def test_one_holder_applies_the_queue_in_arrival_order(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    """Six writers queued behind a held lock: one transaction applies all six, in the
    order they arrived, each writer answered with its own result; nothing is left in the
    queue, and every record verifies."""
    home = _home(tmp_path / "h", pg_dsn, pg_schema)
    Memory.open(home).apply("memory", [Op("add", "seed")])
    n = 6
    writers = Writers(home, [[("add", f"note {w}", None)] for w in range(n)])
    try:
        with held(pg_dsn, _key(pg_dsn, pg_schema)):
            writers.go()
            queued = _until(lambda: len(rows := _pending(pg_dsn, pg_schema)) == n and rows)
        reports = writers.reports()
    finally:
        writers.kill()
    for report in reports:
        assert report is not None and report["queue"] is True
        assert report["out"] == [{"written": True, "status": ["added"]}]
    arrival = [sel for _, sel, _ in queued]
    mem = Memory.open(home)
    assert _added_in_order(mem) == ["seed", *arrival]
    assert mem.entries("memory") == ["seed", *arrival]
    assert _verified(mem) == 1 + n
    assert _pending(pg_dsn, pg_schema) == []
    # one version a write, as without the queue
    versions = _sql(pg_dsn, pg_schema, "SELECT count(*) FROM {s}.curated_versions")
    assert versions == [(n,)]
    # the batch committed at once: its records' lock waits ran until it was applied
    waits = [
        float(json.loads(line)["lock_wait_ms"])
        for (line,) in _sql(pg_dsn, pg_schema, "SELECT line FROM {s}.audit ORDER BY seq")
    ]
    assert all(w > 0 for w in waits[1:])


def test_refusals_and_fallbacks_inside_a_batch_are_each_writers_own(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    """In one batch: an add, the same add again (a duplicate: the server hands it back and
    its writer records the confirmation itself), a remove that matches nothing (refused by
    its writer's own path), an add over the budget (refused), a replace and a remove by
    substring: each writer gets what it would have got writing alone."""
    home = _home(tmp_path / "h", pg_dsn, pg_schema, memory_char_limit=200)
    Memory.open(home).apply("memory", [Op("add", "alpha one"), Op("add", "beta two")])
    plans: list[list[tuple[str, str, str | None]]] = [
        [("add", "gamma", None)],
        [("add", "gamma", None)],
        [("remove", "nothing like it", None)],
        [("add", "x" * 195, None)],
        [("replace", "alpha", "alpha 1")],
        [("remove", "beta", None)],
    ]
    writers = Writers(home, plans)
    try:
        with held(pg_dsn, _key(pg_dsn, pg_schema)):
            writers.go()
            _until(lambda: len(_pending(pg_dsn, pg_schema)) == len(plans))
        reports = writers.reports()
    finally:
        writers.kill()
    outs = [r["out"][0] for r in reports if r is not None]
    assert len(outs) == len(plans)
    # the same add twice: whichever came second is a duplicate (a confirmation)
    assert sorted(map(json.dumps, outs[:2])) == sorted(
        map(
            json.dumps,
            [{"written": True, "status": ["added"]}, {"written": False, "status": ["duplicate"]}],
        )
    )
    assert outs[2]["error"] == "NoMatch"
    assert outs[3]["error"] == "BudgetExceeded"
    assert outs[4] == {"written": True, "status": ["replaced"]}
    assert outs[5] == {"written": True, "status": ["removed"]}
    mem = Memory.open(home)
    assert sorted(mem.entries("memory")) == ["alpha 1", "gamma"]
    _verified(mem)
    assert _pending(pg_dsn, pg_schema) == []


def test_a_drifted_target_is_decided_by_each_writer(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    """A hand edit with SQL while requests wait (a blank entry: drift): the holder
    applies none of them (``curated_write`` hands each back), and each writer's own path
    decides it as it would alone: both refused as drift; the edit stays."""
    home = _home(tmp_path / "h", pg_dsn, pg_schema)
    Memory.open(home).apply("memory", [Op("add", "alpha"), Op("add", "beta")])
    writers = Writers(home, [[("add", "gamma", None)], [("remove", "alpha", None)]])
    try:
        with held(pg_dsn, _key(pg_dsn, pg_schema)):
            writers.go()
            _until(lambda: len(_pending(pg_dsn, pg_schema)) == 2)
            _sql(
                pg_dsn,
                pg_schema,
                "UPDATE {s}.curated SET body = body || E'\\n§\\n  ' WHERE target = 'memory'",
            )
        reports = writers.reports()
    finally:
        writers.kill()
    outs = [r["out"][0].get("error") for r in reports if r is not None]
    assert outs == ["DriftDetected", "DriftDetected"]  # as each alone: the text is refused
    raw = _sql(pg_dsn, pg_schema, "SELECT body FROM {s}.curated WHERE target = 'memory'")
    assert raw == [("alpha\n§\nbeta\n§\n  ",)]  # the edit stays, nothing applied
    mem = Memory.open(home)
    assert mem.governor is not None
    records = list(mem.governor.journal.records())
    assert [(r["action"], r["result"]) for r in records[:1]] == [("add", "ok")]
    # each writer's own refusal, in whichever order the two took the lock
    assert sorted((r["action"], r["result"], r.get("error")) for r in records[1:]) == [
        ("add", "refused", "drift_detected"),
        ("remove", "refused", "drift_detected"),
    ]
    assert _pending(pg_dsn, pg_schema) == []


def _stall(dsn: str, schema: str) -> None:
    """Make the next holder stop mid-batch: a trigger on the versions it keeps waits, at
    its first firing only, for an advisory lock the test holds (``7413``)."""
    _sql(
        dsn,
        schema,
        "CREATE SEQUENCE {s}.trap; "
        "CREATE FUNCTION {s}.stall() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "IF nextval('{s}.trap') = 1 THEN PERFORM pg_advisory_xact_lock_shared(7413); END IF; "
        "RETURN NEW; END $$; "
        "CREATE TRIGGER stall BEFORE INSERT ON {s}.curated_versions "
        "FOR EACH ROW EXECUTE FUNCTION {s}.stall()",
    )


def _waiting_at_trap(dsn: str) -> int | None:
    rows = _sql(
        dsn,
        "public",
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
        "AND objid = 7413 AND mode = 'ShareLock'",
    )
    return int(rows[0][0]) if rows else None


@pytest.mark.parametrize("killed", ["server", "client"])
def test_a_holder_killed_mid_batch(
    tmp_path: Path, pg_dsn: str, pg_schema: str, killed: str
) -> None:
    """The holder stopped inside its batch (after its first request's version), then
    killed. Its server process terminated: the batch rolls back whole, the holder's own
    write is dropped unapplied (its writer is told the outcome is unknown) and every
    other request is applied once by the next holder. Its client SIGKILLed: the server
    process carries the batch to its end, so every request, the dead client's included,
    is applied once. Either way the chain verifies and nothing is left queued."""
    import psycopg

    home = _home(tmp_path / "h", pg_dsn, pg_schema)
    Memory.open(home).apply("memory", [Op("add", "seed")])
    _stall(pg_dsn, pg_schema)
    n = 5
    writers = Writers(home, [[("add", f"note {w}", None)] for w in range(n)])
    try:
        with psycopg.connect(pg_dsn, autocommit=True) as trap:
            trap.execute("SELECT pg_advisory_lock(7413)")
            with held(pg_dsn, _key(pg_dsn, pg_schema)):
                writers.go()
                queued = _until(lambda: len(rows := _pending(pg_dsn, pg_schema)) == n and rows)
            holder = _until(lambda: _waiting_at_trap(pg_dsn))
            mine = {pid: sel for _, sel, pid in queued}[holder]
            if killed == "server":
                # A terminated server process lets its locks go while it aborts and
                # leaves the backend list only when it exits: a next holder listing in
                # between would see the writer live and apply its request (allowed: its
                # client is told the outcome is unknown). The drop asserted below is the
                # case of a process already gone, so the next holder is kept out, at the
                # lock of the batch it will announce, until the process has left.
                batch = _sql(pg_dsn, pg_schema, "SELECT last_value FROM {s}.curated_requests_batch")
                with held(pg_dsn, _key(pg_dsn, pg_schema) ^ (1 + (batch[0][0] + 1) % 8)):
                    _sql(pg_dsn, "public", "SELECT pg_terminate_backend(%s)", (holder,))
                    _until(lambda: not _backend_listed(pg_dsn, holder))
            else:
                port = _sql(
                    pg_dsn,
                    "public",
                    "SELECT client_port FROM pg_stat_activity WHERE pid = %s",
                    (holder,),
                )[0][0]
                os.kill(_process_of(int(port), writers.pids), signal.SIGKILL)
                trap.execute("SELECT pg_advisory_unlock(7413)")
            reports = writers.reports()
    finally:
        writers.kill()
    by_note = {}
    for w, report in enumerate(reports):
        by_note[f"note {w}"] = None if report is None else report["out"][0]
    mem = Memory.open(home)
    added = Counter(_added_in_order(mem))
    if killed == "server":
        assert by_note[mine] == {"error": "StorageError", "code": by_note[mine]["code"]}
        want = {f"note {w}" for w in range(n)} - {mine}
    else:
        assert by_note[mine] is None
        want = {f"note {w}" for w in range(n)}
    for note in want - {mine}:
        assert by_note[note] == {"written": True, "status": ["added"]}
    assert set(added) == {"seed"} | want and set(added.values()) == {1}
    assert set(mem.entries("memory")) == {"seed"} | want
    # the lost write's own account (an unknown outcome: ``failed``, changing nothing)
    assert _verified(mem) == 1 + len(want) + (killed == "server")
    assert mem.governor is not None
    statuses = Counter(r.get("result") for r in mem.governor.journal.records())
    assert statuses == Counter(
        {"ok": 1 + len(want)} | ({"failed": 1} if killed == "server" else {})
    )
    assert _pending(pg_dsn, pg_schema) == []


def _backend_listed(dsn: str, pid: int) -> bool:
    """Whether the server still lists ``pid`` among its backends (as a holder reads it)."""
    return bool(
        _sql(
            dsn,
            "public",
            "SELECT 1 FROM pg_stat_get_backend_idset() b WHERE pg_stat_get_backend_pid(b) = %s",
            (pid,),
        )
    )


def _process_of(port: int, pids: list[int]) -> int:
    """Which of ``pids`` has the TCP socket whose local port is ``port``."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table, encoding="ascii") as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(fields[9])
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:[") and link[8:-1] in inodes:
                    return pid
    raise AssertionError(f"no writer holds the connection of port {port}")


def test_a_waiter_whose_lock_wait_times_out_takes_its_request_back(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    """A queued write whose lock timeout passes fails with ``LockTimeout`` and leaves
    nothing: no request for a later holder to apply."""
    home = _home(tmp_path / "h", pg_dsn, pg_schema, lock_timeout=0.3)
    Memory.open(home).apply("memory", [Op("add", "seed")])
    writers = Writers(home, [[("add", "late", None)]])
    try:
        with held(pg_dsn, _key(pg_dsn, pg_schema)):
            writers.go()
            reports = writers.reports()
            assert _pending(pg_dsn, pg_schema) == []
    finally:
        writers.kill()
    assert reports[0] is not None
    assert reports[0]["out"] == [{"error": "LockTimeout", "code": reports[0]["out"][0]["code"]}]
    Memory.open(home).apply("memory", [Op("add", "after")])
    assert Memory.open(home).entries("memory") == ["seed", "after"]


def test_a_waiter_that_is_gone_is_never_applied(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    """A waiter's server process ended while its request waits: the next holder drops
    the request unapplied (its writer was told the outcome is unknown) and applies the
    others."""
    home = _home(tmp_path / "h", pg_dsn, pg_schema)
    Memory.open(home).apply("memory", [Op("add", "seed")])
    first = Writers(home, [[("add", "gone", None)]])
    second = Writers(home, [[("add", "kept", None)]])
    try:
        with held(pg_dsn, _key(pg_dsn, pg_schema)):
            first.go()
            ((_, _, pid),) = _until(lambda: _pending(pg_dsn, pg_schema))
            _sql(pg_dsn, "public", "SELECT pg_terminate_backend(%s)", (pid,))
            lost = first.reports()[0]
            second.go()
            _until(lambda: len(_pending(pg_dsn, pg_schema)) == 2)
        kept = second.reports()[0]
    finally:
        first.kill()
        second.kill()
    assert lost is not None and lost["out"][0]["error"] == "StorageError"
    assert kept is not None and kept["out"] == [{"written": True, "status": ["added"]}]
    mem = Memory.open(home)
    assert mem.entries("memory") == ["seed", "kept"]
    assert _verified(mem) == 3  # the lost write's own account: ``failed``, changing nothing
    assert _pending(pg_dsn, pg_schema) == []


def test_an_uncontended_write_leaves_no_request(
    tmp_path: Path, pg_dsn: str, pg_schema: str
) -> None:
    """The lock free: the writer holds it at once and writes, through the procedure,
    without a request row."""
    home = _home(tmp_path / "h", pg_dsn, pg_schema)
    mem = Memory.open(home)
    mem.apply("memory", [Op("add", "seed")])
    mem.apply("memory", [Op("add", "two")])
    mem.apply("memory", [Op("remove", old_text="seed")])
    assert mem.backend.db.server_queue is True
    assert mem.entries("memory") == ["two"]
    assert _sql(pg_dsn, pg_schema, "SELECT is_called FROM {s}.curated_requests_id_seq") == [
        (False,)
    ]
    assert _verified(mem) == 3


def test_the_procedure_missing_falls_back_once(
    tmp_path: Path, pg_dsn: str, pg_schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A schema without ``curated_queue`` (dropped, or a role that may not run it): the
    first write learns it, every write goes to ``curated_write`` alone."""
    import mnemic.backends.postgres.curated_queue as queue

    home = _home(tmp_path / "h", pg_dsn, pg_schema)
    _sql(pg_dsn, pg_schema, "DROP PROCEDURE {s}.curated_queue")
    calls: list[int] = []
    real = queue.queue_write

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr("mnemic.backends.postgres.curated_server.queue_write", counted)
    mem = Memory.open(home)
    for note in ("seed", "two", "three"):
        mem.apply("memory", [Op("add", note)])
    assert mem.backend.db.server_queue is False and mem.backend.db.server_writes is True
    assert len(calls) == 1
    assert mem.entries("memory") == ["seed", "two", "three"]
    assert _verified(mem) == 3
