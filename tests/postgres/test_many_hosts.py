"""Many hosts on one database: processes with their own connections write one target.

* 16 writers x 200 mixed operations (add, replace, remove) on MEMORY.md: no lost update,
  one version per commit, every version one step from the previous, the audit chain
  intact with one record per operation, and the writers' commits interleaved (at least
  100 handovers from one writer to another, each a chance to lose an update).
* A connection killed in the middle of a transaction (``pg_terminate_backend`` while the
  writer holds the targets' advisory locks and waits for the audit head, or has written
  its rows and waits to append its record in the batch that ends with the COMMIT), and
  a writer process killed while it waits for the head: nothing of the mutation is
  applied (not the text, not the version, not the audit record), the lock is free, and
  a retry reconnects. Killed in the last batch, the writer says the outcome is unknown.
* Two writers racing for the last room of the store: one adds, the other is refused by
  the budget (it reads the first one's text under the lock).

Synchronisation is by database state (the writer waiting on a row lock the test holds),
never by sleeping.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from _writers import run_curated_writers
from mnemic.curated.entries import parse
from mnemic.curated.memory import Memory

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(Path(__file__).parents[2] / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


HANDOVERS = 100
"""Commits that follow another writer's commit, at least: the chances to lose an update
this test must have had (a run one writer after the other has 15)."""


def test_sixteen_writers_two_hundred_ops_each(pg_home: Any) -> None:
    home = pg_home(history_limit=100000)
    writers, ops = 16, 200
    reports = run_curated_writers(home, writers, ops, 2000, timeout=280, env=_env())
    for r in reports:
        assert r["problems"] == [], r["problems"][:3]

    mem = Memory.open(home)
    final = mem.entries("memory")
    expected = {e for r in reports for e in r["mine"]}
    assert set(final) == expected and len(final) == len(expected)
    writes = sum(r["writes"] for r in reports)
    assert writes == writers * ops
    versions = mem.backend.history("memory")
    assert len(versions) == writes - 1
    states = [parse(mem.backend.read_version("memory", v.id)) for v in versions] + [final]
    authors = []  # the writer of each step (its entries are named w<writer>-<op>)
    for before, after in itertools.pairwise(states):
        added, removed = set(after) - set(before), set(before) - set(after)
        assert (len(added), len(removed)) in ((1, 0), (0, 1), (1, 1)), (before, after)
        (author,) = {e.split("-")[0] for e in added | removed}
        authors.append(author)
    handovers = sum(a != b for a, b in itertools.pairwise(authors))
    assert handovers >= HANDOVERS, f"the writers took turns only {handovers} times"

    from mnemic.governance.storage import open_journal
    from mnemic.home import Home

    h = Home.open(home)
    journal = open_journal(h.root, h.settings)
    report = journal.verify()
    assert report.ok, report
    ok = [r for r in journal.records() if r.get("result") == "ok"]
    assert len(ok) == writes  # every commit has its audit record, in one chain


# -- a connection killed mid-transaction ------------------------------------------------------

KILLED_WRITER = textwrap.dedent(
    """
    import json, sys
    from mnemic.curated.memory import Memory
    from mnemic.curated.store import Op
    from mnemic.errors import MnemicError

    mem = Memory.open(sys.argv[1])
    mem.entries("memory")  # connected
    print("ready", flush=True)
    sys.stdin.readline()
    out = {}
    try:
        mem.batch("memory", [Op("add", "doomed memory entry"),
                             Op("add", "doomed user entry", target="user")])
        out["first"] = "applied"
    except MnemicError as exc:
        out["first"] = exc.code
        out["message"] = exc.to_llm()
    res = mem.add("memory", "after reconnect")  # the pool replaces the dead connection
    out["second"] = res.message
    print(json.dumps(out), flush=True)
    """
)


def _sql(dsn: str, schema: str, text: str, params: tuple[Any, ...] = ()) -> list[Any]:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute(text.replace("{s}", f'"{schema}"'), params)
        return cur.fetchall() if cur.description else []


def _state(dsn: str, schema: str) -> dict[str, Any]:
    return {
        "curated": _sql(dsn, schema, "SELECT target, body, version FROM {s}.curated ORDER BY 1"),
        "versions": _sql(dsn, schema, "SELECT count(*) FROM {s}.curated_versions"),
        "audit": _sql(dsn, schema, "SELECT count(*) FROM {s}.audit"),
    }


_HEAD_ROW = 'SELECT count FROM "{s}".audit_head FOR UPDATE'
"""Holds the audit head row: a writer waits for it with its targets' locks, before it
writes anything (the head is locked with the targets, see curated_begin.begin)."""
_AUDIT_TABLE = 'LOCK TABLE "{s}".audit IN SHARE MODE'
"""Holds back every audit append: a writer waits in its last batch, its rows written,
to append its record (the COMMIT that follows in the batch is not reached)."""


def _writer_blocked_on_audit(
    dsn: str, schema: str, home: Path, blocker_sql: str
) -> tuple[Any, subprocess.Popen[str], int]:
    """Start a writer and let it run until it waits on the lock ``blocker_sql`` takes
    first (:data:`_HEAD_ROW` or :data:`_AUDIT_TABLE`); return (lock conn, proc, pid)."""
    import psycopg

    blocker = psycopg.connect(dsn)  # holds the lock in an open transaction
    blocker.execute(blocker_sql.replace("{s}", schema))
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(home)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    assert proc.stdout is not None and proc.stdin is not None
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
    proc.stdin.write("go\n")
    proc.stdin.flush()
    blocker_pid = blocker.info.backend_pid
    deadline = time.monotonic() + 60
    while True:  # wait for the state "writer waits on our lock", not for time
        rows = _sql(
            dsn,
            schema,
            "SELECT pid FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid)) "
            "AND application_name = 'mnemic'",
            (blocker_pid,),
        )
        if rows:
            return blocker, proc, int(rows[0][0])
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the writer never reached the audit append"
        time.sleep(0.01)


def _kill_blocked_writer(dsn: str, schema: str, home: Path, blocker_sql: str) -> dict[str, Any]:
    """Block a writer of both targets on ``blocker_sql``, check it holds both targets'
    locks, terminate its connection; return what the writer reported (it then retries
    once, on a new connection, with a plain add)."""
    blocker, proc, pid = _writer_blocked_on_audit(dsn, schema, home, blocker_sql)
    try:
        held = _sql(
            dsn, schema, "SELECT count(*) FROM pg_locks WHERE pid = %s AND "
            "locktype = 'advisory' AND granted", (pid,)
        )  # fmt: skip
        assert held[0][0] == 2
        # a transaction id is assigned at its first write, not by locks or reads
        xid = _sql(dsn, schema, "SELECT backend_xid FROM pg_stat_activity WHERE pid = %s", (pid,))
        assert (xid[0][0] is not None) == (blocker_sql == _AUDIT_TABLE)
        assert _sql(dsn, schema, "SELECT pg_terminate_backend(%s)", (pid,))[0][0]
    finally:
        blocker.rollback()
        blocker.close()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err[-2000:]
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    assert result["second"] == "Entry added."
    mem = Memory.open(home)
    assert mem.entries("memory") == ["kept", "after reconnect"]
    assert mem.entries("user") == []
    from mnemic.governance.storage import open_journal
    from mnemic.home import Home

    h = Home.open(home)
    assert open_journal(h.root, h.settings).verify().ok
    return result


def test_connection_killed_while_waiting_for_the_audit_head_applies_nothing(
    pg_home: Any, pg_dsn: str, pg_schema: str
) -> None:
    # The writer holds both targets' locks and waits for the journal head, nothing
    # written and no COMMIT sent: the outcome is known, and the journal says so.
    home = pg_home()
    Memory.open(home).add("memory", "kept")
    before = _state(pg_dsn, pg_schema)
    result = _kill_blocked_writer(pg_dsn, pg_schema, home, _HEAD_ROW)
    assert result["first"] == "write_failed", result
    assert "nothing was changed" in result["message"].lower()
    after = _state(pg_dsn, pg_schema)
    # exactly one mutation more (the retry): its text and one version; the journal,
    # which records every attempt, holds the killed one as failed and changing nothing
    assert after["versions"][0][0] == before["versions"][0][0] + 1
    assert after["audit"][0][0] == before["audit"][0][0] + 2
    lines = _sql(pg_dsn, pg_schema, "SELECT line FROM {s}.audit ORDER BY seq")
    killed, retry = (json.loads(row[0]) for row in lines[-2:])
    assert (killed["result"], killed["error"]) == ("failed", "write_failed"), killed
    assert "changes" not in killed and killed["before"] == killed["after"]
    assert retry["result"] == "ok" and retry["changes"], retry


def test_connection_killed_in_the_last_batch_applies_nothing_and_says_the_outcome_is_unknown(
    pg_home: Any, pg_dsn: str, pg_schema: str
) -> None:
    # The writer has written both rows and waits to append its record, in the batch
    # that ends with the COMMIT: the server rolls it all back, but the writer, having
    # sent the COMMIT, cannot know that and says so (as for a connection lost in a
    # COMMIT's round trip); no failed record is appended for an attempt that may have
    # committed.
    home = pg_home()
    Memory.open(home).add("memory", "kept")
    before = _state(pg_dsn, pg_schema)
    result = _kill_blocked_writer(pg_dsn, pg_schema, home, _AUDIT_TABLE)
    assert result["first"] == "storage_error", result
    assert "applied completely or not at all" in result["message"]
    after = _state(pg_dsn, pg_schema)
    assert after["versions"][0][0] == before["versions"][0][0] + 1  # the retry's only
    assert after["audit"][0][0] == before["audit"][0][0] + 1
    (retry,) = (json.loads(row[0]) for row in _sql(
        pg_dsn, pg_schema, "SELECT line FROM {s}.audit ORDER BY seq DESC LIMIT 1"
    ))  # fmt: skip
    assert retry["result"] == "ok" and retry["changes"], retry


def test_writer_process_killed_mid_transaction_applies_nothing(
    pg_home: Any, pg_dsn: str, pg_schema: str
) -> None:
    home = pg_home()
    Memory.open(home).add("memory", "kept")
    before = _state(pg_dsn, pg_schema)
    # The process dies before it sends its last batch (texts, record, COMMIT): once that
    # is sent the server commits it whole, as it did the record with its COMMIT before.
    blocker, proc, pid = _writer_blocked_on_audit(pg_dsn, pg_schema, home, _HEAD_ROW)
    try:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        blocker.rollback()  # the orphaned backend gets its lock, then finds no client
        blocker.close()
    deadline = time.monotonic() + 60
    while _sql(pg_dsn, pg_schema, "SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)):
        assert time.monotonic() < deadline, "the orphaned backend did not end"
        time.sleep(0.01)
    assert _state(pg_dsn, pg_schema) == before
    mem = Memory.open(home)  # the advisory locks died with the session
    mem.add("user", "fresh writer")
    assert mem.entries("memory") == ["kept"] and mem.entries("user") == ["fresh writer"]


# -- two writers racing for the last room ---------------------------------------------------

RACER = textwrap.dedent(
    """
    import json, sys
    from mnemic.curated.memory import Memory
    from mnemic.errors import MnemicError

    mem = Memory.open(sys.argv[1])
    mem.entries("memory")  # connected
    print("ready", flush=True)
    sys.stdin.readline()
    try:
        out = {"result": mem.add("memory", sys.argv[2]).message}
    except MnemicError as exc:
        out = {"result": exc.code}
    print(json.dumps(out), flush=True)
    """
)


def _ready_racer(home: Path, text: str) -> subprocess.Popen[str]:
    """A racer started and connected, waiting for :func:`_go`."""
    proc = subprocess.Popen(
        [sys.executable, "-c", RACER, str(home), text],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    assert proc.stdout is not None and proc.stdin is not None
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
    return proc


def _go(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()


def _wait_for(dsn: str, schema: str, query: str, params: tuple[Any, ...]) -> int:
    """The pid the query finds, polled until it finds one (synchronisation by state)."""
    deadline = time.monotonic() + 60
    while True:
        rows = _sql(dsn, schema, query, params)
        if rows:
            return int(rows[0][0])
        assert time.monotonic() < deadline, "the writer never reached the lock"
        time.sleep(0.01)


def test_two_writers_racing_for_the_last_room_one_is_refused(
    pg_home: Any, pg_dsn: str, pg_schema: str
) -> None:
    # The store has room for one more entry. Writer A holds MEMORY.md's lock and waits
    # for the audit head (which the test holds); writer B waits for MEMORY.md's lock.
    # When A commits, B reads the text A committed, under the lock, and is refused by
    # the budget, as a second writer of a file is: exactly one add, one refusal.
    home = pg_home(memory_char_limit=120)
    Memory.open(home).add("memory", "x" * 50)
    import psycopg

    # Both racers are started and connected before A takes the lock: B's start-up (an
    # interpreter and its imports, seconds on a loaded machine) must not run down A's
    # lock_timeout while A waits under MEMORY.md's lock (it did at load 20).
    first = _ready_racer(home, "a" * 50)
    second = _ready_racer(home, "b" * 50)
    blocker = psycopg.connect(pg_dsn)
    blocker.execute(_HEAD_ROW.replace("{s}", pg_schema))
    blocker_pid = blocker.info.backend_pid
    try:
        _go(first)
        a_pid = _wait_for(
            pg_dsn, pg_schema,
            "SELECT pid FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
            (blocker_pid,),
        )  # fmt: skip
        _go(second)
        _wait_for(
            pg_dsn, pg_schema,
            "SELECT pid FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
            (a_pid,),
        )  # fmt: skip
    finally:
        blocker.rollback()
        blocker.close()
    results = [
        json.loads(p.communicate(timeout=120)[0].strip().splitlines()[-1]) for p in (first, second)
    ]
    assert [r["result"] for r in results] == ["Entry added.", "budget_exceeded"], results
    mem = Memory.open(home)
    assert mem.entries("memory") == ["x" * 50, "a" * 50]
    from mnemic.governance.storage import open_journal
    from mnemic.home import Home

    h = Home.open(home)
    journal = open_journal(h.root, h.settings)
    assert journal.verify().ok
    outcomes = [(r.get("action"), r.get("result")) for r in journal.records()][-2:]
    assert outcomes == [("add", "ok"), ("add", "refused")], outcomes
