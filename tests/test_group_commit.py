"""Group commit as a request queue (``[memory] group_commit = "queue"``): writers that
find the target's lock busy leave their requests, and the holder applies them with its
own write. Each writer still gets its own answer (its own refusal included), and the
file, the journal, provenance and the archive are exactly what the same writes made
one after another would leave, also when the holder is killed at any point of a batch.

Real processes throughout. The holder is a forked child stopped (by a pipe) just
before it claims the queue, until every other writer has left its request, so the
batch is the same every run; the kills are the child's own SIGKILL at the named point.
"""

from __future__ import annotations

import fcntl
import itertools
import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from _forker import shared
from _killpoints import killed
from mnemic.backends.files.requests import FileRequests
from mnemic.curated import archive, groupcommit
from mnemic.curated.changes import entry_key
from mnemic.curated.entries import char_count, parse
from mnemic.curated.memory import Memory
from mnemic.curated.operations import Op
from mnemic.curated.tool import run_memory_tool
from mnemic.fsio import SidecarLock

BASE = ["base one", "base two", "base three"]
CALLS = {
    "w0": {"action": "add", "target": "memory", "content": "w0 entry"},
    "w1": {"action": "remove", "target": "memory", "old_text": "base two"},
    "w2": {
        "action": "replace",
        "target": "memory",
        "old_text": "base three",
        "content": "base three, revised",
    },
    "w3": {"action": "remove", "target": "memory", "old_text": "nothing like this"},
    "w4": {"action": "add", "target": "memory", "content": "base one"},
}
"""One call per writer: an add, a remove, a replace, one refused (no match) and a
duplicate add (no write)."""
AFTER = ["base one", "base three, revised", "w0 entry"]
HOLDER = "holder entry"


def _seeded(path: Path) -> Path:
    path.mkdir(parents=True)
    (path / "config.toml").write_text('[memory]\ngroup_commit = "queue"\n')
    Memory.open(path, origin="cli", session_id="seed").batch("memory", [Op("add", e) for e in BASE])
    return path


@pytest.fixture
def home(home_path: Path) -> Path:
    return _seeded(home_path)


def _queued(home: Path) -> list[str]:
    """The requests left whole (a request is written in place: its line's newline says
    its writer is done with it)."""
    folder = FileRequests.of(home / "memories").root / "MEMORY.md"
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".req")]
    except FileNotFoundError:
        return []
    out = []
    for name in names:
        try:
            if (folder / name).read_bytes().endswith(b"\n"):
                out.append(name)
        except FileNotFoundError:
            pass
    return out


def _writer(home: Path, name: str, call: dict, out: Path) -> int:  # type: ignore[type-arg]
    pid = os.fork()
    if pid:
        return pid
    try:
        mem = Memory.open(home, origin="cli", session_id=name)
        resp = run_memory_tool(mem, json.dumps(call))
        out.joinpath(name).write_text(json.dumps(resp))
        os._exit(0)
    except BaseException:
        os._exit(3)


def _batch(
    home: Path,
    tmp: Path,
    at_claim: Callable[[], None] = lambda: None,
    claimed: Callable[[], None] = lambda: None,
    calls: dict[str, dict] | None = None,  # type: ignore[type-arg]
) -> tuple[int, dict[str, dict]]:
    """The holder's add, with every writer of CALLS queued behind it; ``at_claim`` runs
    in the holder just before it claims them, ``claimed`` just after. Returns the
    holder's wait status and each writer's tool response."""
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    holder = os.fork()
    if holder == 0:
        try:
            mem = Memory.open(home, origin="cli", session_id="holder")
            real = FileRequests.claim

            def claim(self: FileRequests, target: str) -> list:  # type: ignore[type-arg]
                os.write(ready_w, b"r")
                os.read(go_r, 1)
                at_claim()
                got = real(self, target)
                claimed()
                return got

            FileRequests.claim = claim  # type: ignore[method-assign]
            mem.add("memory", HOLDER)
            os._exit(0)
        except BaseException:
            os._exit(3)
    os.close(ready_w)  # the holder's copies only: a holder that dies ends the reads
    os.close(go_r)
    assert os.read(ready_r, 1) == b"r"  # the holder holds the lock, before its claim
    out = tmp / "answers"
    out.mkdir(exist_ok=True)
    calls = calls or CALLS
    writers = [_writer(home, name, call, out) for name, call in calls.items()]
    deadline = time.monotonic() + 60
    while len(_queued(home)) < len(calls):  # each writer found the lock busy
        assert time.monotonic() < deadline, _queued(home)
        time.sleep(0.005)
    os.write(go_w, b"g")
    _, status = os.waitpid(holder, 0)
    for pid in writers:
        _, wstatus = os.waitpid(pid, 0)
        assert os.WIFEXITED(wstatus) and os.WEXITSTATUS(wstatus) == 0
    for fd in (ready_r, go_w):
        os.close(fd)
    return status, {n: json.loads(out.joinpath(n).read_text()) for n in calls}


def _batch_killed_at(home: Path, tmp: Path, k: int) -> tuple[int, dict[str, dict]]:  # type: ignore[type-arg]
    """:func:`_batch` with ``at_claim`` arming the kill at call ``k``, the holder and the
    writers forked from a small process (``tests/workers/kill_actions.py``: from pytest's
    own, each of the 5 forks a kill point and their exits cost about 20 ms of CPU); the
    start gun is a lock of a file the test holds until every writer is queued."""
    forker = shared("kill_actions")
    gun = tmp / "gun"
    gun.touch()
    out = tmp / "answers"
    out.mkdir(exist_ok=True)
    with gun.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        holder = forker.fork("group_holder", str(home), k, str(gun), HOLDER, until="r")
        writers = [forker.fork("group_writer", str(home), name, call, str(out))
                   for name, call in CALLS.items()]  # fmt: skip
        deadline = time.monotonic() + 60
        while len(_queued(home)) < len(CALLS):  # each writer found the lock busy
            assert time.monotonic() < deadline, _queued(home)
            time.sleep(0.005)
        fcntl.flock(held, fcntl.LOCK_UN)  # the holder claims
    status = forker.wait(holder)
    for pid in writers:
        wstatus = forker.wait(pid)
        assert os.WIFEXITED(wstatus) and os.WEXITSTATUS(wstatus) == 0
    return status, {n: json.loads(out.joinpath(n).read_text()) for n in CALLS}


def _check_answers(answers: dict[str, dict]) -> None:
    for name in ("w0", "w1", "w2", "w4"):
        assert answers[name]["success"] is True, (name, answers[name])
    assert answers["w4"]["message"] == "Entry already exists; nothing to add."
    assert answers["w3"]["success"] is False
    assert answers["w3"]["error_code"] == "no_match"


def _check_home(home: Path, holder_committed: bool) -> list[dict]:
    """File, journal, provenance and archive, as the same writes one by one leave them."""
    expected = [*AFTER, HOLDER] if holder_committed else AFTER
    mem = Memory.open(home)
    assert sorted(mem.entries("memory")) == sorted(expected)
    journal = mem.governor.journal  # type: ignore[union-attr]
    assert journal.verify().ok
    records = list(journal.records())
    by = {e: (p.actor, p.origin, p.session_id) for e, p in mem.provenance("memory", record=False)}
    assert by["w0 entry"] == ("cli", "cli", "w0")
    assert by["base three, revised"] == ("cli", "cli", "w2")
    assert by["base one"] == ("cli", "cli", "seed")
    if holder_committed:
        assert by[HOLDER] == ("cli", "cli", "holder")
    gone = sorted((a.text, a.reason, a.by[2]) for a in archive.listing(mem, "memory"))
    assert gone == [("base three", "replaced", "w2"), ("base two", "removed", "w1")]
    # what the journal folds to is what the file holds: nothing of a void batch is left
    fold = mem.fold()
    assert fold is not None
    assert set(fold.targets["memory"].live) == {entry_key(e) for e in expected}
    assert not _queued(home)
    lock = SidecarLock(home / "memories" / "MEMORY.md.lock", timeout=0)
    assert lock.try_acquire()
    lock.release()
    return records


def _committed(records: list[dict], session: str) -> list[dict]:
    return [
        r
        for r in records
        if r.get("session") == session and r.get("result") == "ok" and r["action"] != "recovered"
    ]


def test_queued_writers_each_get_their_own_answer_from_one_rename(
    home: Path, tmp_path: Path
) -> None:
    history = len(Memory.open(home).backend.history("memory"))
    status, answers = _batch(home, tmp_path)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    _check_answers(answers)
    records = _check_home(home, holder_committed=True)
    batched = [r for r in records if "batch" in r]
    # the holder's own record, then the three writes it applied for others in the
    # order they arrived (a request id starts with its time), one batch
    assert batched[0]["session"] == "holder"
    assert sorted(r["session"] for r in batched[1:]) == ["w0", "w1", "w2"]
    assert [r["request"] for r in batched[1:]] == sorted(r["request"] for r in batched[1:])
    assert len({r["batch"]["id"] for r in batched}) == 1
    for a, b in itertools.pairwise(batched):
        assert a["after"] == b["before"]  # chained through texts no file held
    for name in ("w0", "w1", "w2"):
        assert len(_committed(records, name)) == 1
    # the refused and the duplicate ran alone, after the batch, with their own records
    assert [r["result"] for r in records if r.get("session") == "w3"] == ["refused"]
    assert [r["result"] for r in records if r.get("session") == "w4"] == ["noop"]
    assert not any(r["action"] == "recovered" for r in records)
    # one rename for the whole batch: one new version in the history
    assert len(Memory.open(home).backend.history("memory")) == history + 1


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_holder_killed_after_claiming_leaves_each_writer_to_run_its_own(
    home: Path, tmp_path: Path
) -> None:
    status, answers = _batch(home, tmp_path, claimed=_die)
    assert killed(status)
    _check_answers(answers)
    records = _check_home(home, holder_committed=False)
    assert not any("request" in r for r in records)
    for name in ("w0", "w1", "w2"):
        assert len(_committed(records, name)) == 1


def test_a_holder_killed_after_its_rename_before_answering_leaves_the_answers_to_the_journal(
    home: Path, tmp_path: Path
) -> None:
    def at_claim() -> None:
        groupcommit.GroupCommit.answer = lambda *a: _die()  # type: ignore[method-assign]

    status, answers = _batch(home, tmp_path, at_claim)
    assert killed(status)
    _check_answers(answers)
    records = _check_home(home, holder_committed=True)
    for name in ("w0", "w1", "w2"):  # committed once, by the holder; never run again
        (rec,) = _committed(records, name)
        assert "request" in rec
    assert not any(r["action"] == "recovered" for r in records)


def test_a_batch_whose_holder_died_before_its_rename_is_void_as_a_whole(
    home: Path, tmp_path: Path
) -> None:
    real = groupcommit.GroupCommit.record

    def record_then_die(*a: object) -> list[dict]:  # type: ignore[type-arg]
        real(*a)  # type: ignore[arg-type]
        _die()
        return []

    def at_claim() -> None:
        groupcommit.GroupCommit.record = record_then_die  # type: ignore[method-assign]

    status, answers = _batch(home, tmp_path, at_claim)
    assert killed(status)
    _check_answers(answers)
    records = _check_home(home, holder_committed=False)
    (void,) = [r for r in records if r["action"] == "recovered"]
    assert void["cause"] == "not_committed"
    batched = [r for r in records if "batch" in r]
    assert batched[0]["session"] == "holder"
    assert len(batched) == 4
    # the void record comes before any other change; a writer refused meanwhile (w3's
    # remove finds nothing to remove, the batch never renamed) may record its refusal
    # first: a refusal changes nothing, and the fold and the lost-answer look-up read past it
    between = records[records.index(batched[-1]) + 1 : records.index(void)]
    assert all(r["result"] != "ok" for r in between), between
    assert [r["session"] for r in between] in ([], ["w3"])
    for name in ("w0", "w1", "w2"):  # the void record, then the writer's own
        assert [("request" in r) for r in _committed(records, name)] == [True, False]


@pytest.mark.slow
def test_a_holder_killed_before_any_file_system_call_of_a_batch(tmp_path: Path) -> None:
    """Every kill point from the claim to the last answer: whatever the holder got to,
    every writer gets its own answer and the home reads as the writes one by one."""
    finished = False
    outcomes = set()
    for k in range(1, 120):
        run = tmp_path / f"run{k}"
        home = _seeded(run / "home")
        status, answers = _batch_killed_at(home, run, k)
        _check_answers(answers)
        committed = HOLDER in parse((home / "memories" / "MEMORY.md").read_text())
        records = _check_home(home, holder_committed=committed)
        outcomes.add((committed, any("request" in r for r in records)))
        if not killed(status):
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
            finished = True
            break
    assert finished, "the batch never completed: the kill points did not cover it"
    assert k > 10
    # killed before anything, with the batch void, and with it committed
    assert {(False, False), (False, True), (True, True)} <= outcomes


def test_a_writer_whose_wait_times_out_takes_its_request_back(home: Path, tmp_path: Path) -> None:
    """Told its write failed, a writer must not have it applied later by a holder."""
    (home / "config.toml").write_text('[memory]\ngroup_commit = "queue"\nlock_timeout = 0.2\n')
    answer = tmp_path / "late.json"
    lock = SidecarLock(home / "memories" / "MEMORY.md.lock", timeout=0)
    assert lock.try_acquire()
    try:
        pid = os.fork()
        if pid == 0:
            try:
                mem = Memory.open(home, origin="cli", session_id="late")
                call = {"action": "add", "target": "memory", "content": "late entry"}
                answer.write_text(json.dumps(run_memory_tool(mem, json.dumps(call))))
                os._exit(0)
            except BaseException:
                os._exit(3)
        _, status = os.waitpid(pid, 0)
    finally:
        lock.release()
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    resp = json.loads(answer.read_text())
    assert resp["success"] is False and resp["error_code"] == "lock_timeout"
    assert not _queued(home)
    mem = Memory.open(home, origin="cli", session_id="next")
    mem.add("memory", "next entry")
    assert "late entry" not in mem.entries("memory")


def test_a_cached_fold_takes_back_a_void_batch_as_the_uncached_one_does() -> None:
    """A fold cached between a batch's records and the record that voids it keeps the
    batch's chained undo: both folds take the whole batch back."""
    from mnemic.curated import fold_cache
    from mnemic.curated.fold import Fold

    def added(text: str, who: str) -> dict:  # type: ignore[type-arg]
        author = {"actor": "cli", "origin": "cli", "session": who}
        return {"added": [{"key": entry_key(text)}], "removed": [], "author": author}

    base = {"action": "add", "result": "ok", "origin": "cli"}
    records = [
        {**base, "seq": 1, "session": "seed", "before": {"memory": None}, "after": {"memory": "h0"},
         "changes": {"memory": added("kept", "seed")}},
        {**base, "seq": 2, "session": "holder", "before": {"memory": "h0"},
         "after": {"memory": "h1"}, "changes": {"memory": added("a", "holder")},
         "batch": {"id": "b1", "from": {"memory": "h0"}}},
        {**base, "seq": 3, "session": "w1", "before": {"memory": "h1"},
         "after": {"memory": "h2"}, "batch": {"id": "b1", "from": {"memory": "h0"}},
         "request": "r1", "action": "remove",
         "changes": {"memory": {"added": [], "removed": [{"key": entry_key("kept"),
                                                          "reason": "removed"}]}}},
    ]  # fmt: skip
    void = {"seq": 4, "action": "recovered", "result": "ok", "cause": "not_committed",
            "before": {"memory": "h2"}, "after": {"memory": "h0"}}  # fmt: skip
    plain = Fold()
    for rec in records:
        plain.apply(rec)
    _, _, cached = fold_cache.decode(fold_cache.encode(plain, "journal", 1))
    for fold in (plain, cached):
        assert fold.targets["memory"].started == "h0"
        fold.apply(void)
        assert set(fold.targets["memory"].live) == {entry_key("kept")}
        assert fold.archive == {}


def test_a_holder_whose_write_fails_before_its_rename_hands_every_request_back(
    home: Path, tmp_path: Path
) -> None:
    """The holder's commit fails after the batch's records (a journal that cannot be
    written further, say): its own call fails, and every writer it applied a request
    for runs it itself, after the void batch is recorded as such."""
    real = groupcommit.GroupCommit.record

    def record_then_fail(*a: object) -> list[dict]:  # type: ignore[type-arg]
        real(*a)  # type: ignore[arg-type]
        raise OSError(28, "No space left on device")

    def at_claim() -> None:
        groupcommit.GroupCommit.record = record_then_fail  # type: ignore[method-assign]

    status, answers = _batch(home, tmp_path, at_claim)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3  # the holder's add raised
    _check_answers(answers)
    records = _check_home(home, holder_committed=False)
    (void,) = [r for r in records if r["action"] == "recovered"]
    assert void["cause"] == "not_committed"
    for name in ("w0", "w1", "w2"):
        assert [("request" in r) for r in _committed(records, name)] == [True, False]


def test_a_request_that_needs_room_is_handed_back_and_its_writer_evicts(
    home: Path, tmp_path: Path
) -> None:
    """The holder never evicts for another writer: a request that would overflow the
    budget goes back to its writer, whose own ``on_full`` policy makes the room."""
    (home / "config.toml").write_text(
        '[memory]\ngroup_commit = "queue"\non_full = "archive_oldest"\nmemory_char_limit = 100\n'
    )
    big = "a new fact, long enough that it needs room once the holder's entry is in"
    assert char_count([*BASE, HOLDER]) <= 100 < char_count([*BASE, HOLDER, big])
    calls = {"w0": {"action": "add", "target": "memory", "content": big}}
    status, answers = _batch(home, tmp_path, calls=calls)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert answers["w0"]["success"] is True, answers["w0"]
    mem = Memory.open(home)
    assert big in mem.entries("memory") and HOLDER in mem.entries("memory")
    records = list(mem.governor.journal.records())  # type: ignore[union-attr]
    assert not any("request" in r for r in records)  # handed back, not applied
    (own,) = _committed(records, "w0")
    removed = own["changes"]["memory"]["removed"]
    assert removed and {item["reason"] for item in removed} == {"evicted"}


@pytest.mark.parametrize("setting", ["queue", "off"])
def test_doctor_reports_and_fixes_the_requests_of_writers_that_are_gone(
    home: Path, setting: str
) -> None:
    """A writer killed while it waited leaves its request behind. `memory doctor` names
    it and `--fix` removes it, also after the setting was turned off (the debris is still
    the home's); a live writer's request is never touched."""
    import subprocess
    import sys

    from mnemic.curated import admin

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    dead_pid = int(gone.stdout)  # that process has exited: its pid names no writer
    (home / "config.toml").write_text(f'[memory]\ngroup_commit = "{setting}"\n')
    mem = Memory.open(home, origin="cli", session_id="doctor")  # (an open cleans up too)
    folder = home / "memories" / ".queue" / "MEMORY.md"
    folder.mkdir(parents=True, exist_ok=True)
    dead = folder / f"{time.time_ns():020d}-{dead_pid}-0badc0de.claimed"
    live = folder / f"{time.time_ns():020d}-{os.getpid()}-0f00d00d.req"
    for path in (dead, live):
        path.write_text("{}")
    [problem] = [p for p in admin.doctor(mem) if "group-commit" in p.message]
    assert "1 group-commit request" in problem.message and not problem.fixed
    assert dead.exists()
    [problem] = [p for p in admin.doctor(mem, fix=True) if "group-commit" in p.message]
    assert problem.fixed and not dead.exists() and live.exists()
    assert not [p for p in admin.doctor(mem) if "group-commit" in p.message]


def test_a_queued_call_changes_the_queue_directory_three_times(tmp_path: Path) -> None:
    """A request written in place, claimed by a rename, answered in the same file and
    removed by its writer: three directory changes per queued call (there were seven:
    the request's and the answer's temp files and renames, and two removals)."""
    queue = FileRequests(tmp_path / ".queue")
    queue.withdraw("memory", queue.submit("memory", {"warm": "up"}))  # makes the folders
    changes: list[str] = []
    real = {n: getattr(os, n) for n in ("open", "rename", "replace", "unlink", "link", "mkdir")}

    def counted(name: str) -> Callable[..., object]:
        def call(*a: object, **kw: object) -> object:
            if name != "open" or int(a[1]) & os.O_CREAT:  # type: ignore[call-overload]
                changes.append(name)
            return real[name](*a, **kw)

        return call

    payload = {"request": "one", "text": "line one\nline two"}
    answer = {"status": "applied", "after": ["a\nb", "c"]}
    try:
        for name in real:
            setattr(os, name, counted(name))
        rid = queue.submit("memory", payload)
        assert queue.claim("memory") == [(rid, payload)]
        queue.answer("memory", rid, answer)
        assert queue.result("memory", rid) == answer
    finally:
        for name, fn in real.items():
            setattr(os, name, fn)
    assert len(changes) == 3, changes
    assert os.listdir(tmp_path / ".queue" / "MEMORY.md") == []


def test_a_request_still_being_written_is_left_to_its_writer(home: Path) -> None:
    """A holder that finds a request whose line is not ended yet (its writer is between
    creating it and writing it) leaves it: claimed half-written it would be handed
    back, or read wrong."""
    queue = FileRequests.of(home / "memories")
    queue.withdraw("memory", queue.submit("memory", {}))  # makes the folders
    folder = queue.root / "MEMORY.md"
    rid = f"{time.time_ns():020d}-{os.getpid()}-0a0b0c0d"
    half = b'{"target":"memory","op":["add","half wr'
    (folder / f"{rid}.req").write_bytes(half)
    Memory.open(home, origin="cli", session_id="holder").add("memory", HOLDER)
    assert sorted(os.listdir(folder)) == [f"{rid}.req"]
    assert (folder / f"{rid}.req").read_bytes() == half
    assert queue.withdraw("memory", rid)


def _many(home: Path, name: str, calls: int, out: Path) -> int:
    pid = os.fork()
    if pid:
        return pid
    try:
        mem = Memory.open(home, origin="cli", session_id=name)
        got = []
        for j in range(calls // 2):
            entry = f"{name} entry {j}"
            for call in (
                {"action": "add", "target": "memory", "content": entry},
                {"action": "remove", "target": "memory", "old_text": entry},
            ):
                got.append(run_memory_tool(mem, json.dumps(call)))
        out.joinpath(name).write_text(json.dumps(got))
        os._exit(0)
    except BaseException:
        os._exit(3)


def test_every_queued_call_is_applied_exactly_once(home: Path, tmp_path: Path) -> None:
    """N processes x M tool calls on one home with the queue: every call succeeds, and
    every call's change is in the journal exactly once (applied by a holder or by its
    own writer, never both, never lost)."""
    procs, calls = 6, 20
    out = tmp_path / "many"
    out.mkdir()
    pids = [_many(home, f"p{i}", calls, out) for i in range(procs)]
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    for i in range(procs):
        got = json.loads(out.joinpath(f"p{i}").read_text())
        assert len(got) == calls and all(r["success"] for r in got), got
    mem = Memory.open(home)
    assert sorted(mem.entries("memory")) == sorted(BASE)
    journal = mem.governor.journal  # type: ignore[union-attr]
    assert journal.verify().ok
    seen: dict[tuple[str, str, str], int] = {}
    by_holder = 0
    for r in journal.records():
        if r.get("result") != "ok" or r.get("session") in (None, "seed"):
            continue
        by_holder += "request" in r
        change = r["changes"]["memory"]
        for side in ("added", "removed"):
            for item in change[side]:
                key = (r["session"], side, item["key"])
                seen[key] = seen.get(key, 0) + 1
    expected = {
        (f"p{i}", side, entry_key(f"p{i} entry {j}"))
        for i in range(procs)
        for j in range(calls // 2)
        for side in ("added", "removed")
    }
    assert set(seen) == expected
    assert set(seen.values()) == {1}
    assert by_holder > 0  # the queue was used: some calls rode on another's commit
    assert not _queued(home)


def _no_runtime_dir(monkeypatch: pytest.MonkeyPatch, shm: Path | None) -> None:
    """No usable ``XDG_RUNTIME_DIR``; ``shm`` stands for ``/dev/shm`` (``None``: there
    is none). Set before the writers fork, so they inherit it."""
    from mnemic.backends.files import requests

    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setattr(requests, "SHM", str(shm or "/nonexistent/shm"))


def _mode(path: Path) -> int:
    return os.stat(path).st_mode & 0o7777


def test_the_requests_live_in_the_users_runtime_directory(home: Path, tmp_path: Path) -> None:
    """Requests need no durability: they go to the user's runtime directory (RAM, 0700),
    not through the disk's journal beside the memory files."""
    status, answers = _batch(home, tmp_path)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    _check_answers(answers)
    _check_home(home, holder_committed=True)
    assert not (home / "memories" / ".queue").exists()
    base = Path(os.environ["XDG_RUNTIME_DIR"]) / "mnemic"
    root = FileRequests.of(home / "memories").root
    assert root.parent == base
    assert (root / "MEMORY.md").is_dir()
    for path in (base, root, root / "MEMORY.md"):
        assert _mode(path) == 0o700


def test_without_a_runtime_directory_the_requests_go_to_shm(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shm = tmp_path / "shm"
    shm.mkdir()
    shm.chmod(0o1777)  # as /dev/shm: anyone may make a directory there
    _no_runtime_dir(monkeypatch, shm)
    status, answers = _batch(home, tmp_path)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    _check_answers(answers)
    _check_home(home, holder_committed=True)
    base = shm / f"mnemic-{os.getuid()}"
    assert FileRequests.of(home / "memories").root.parent == base
    assert _mode(base) == 0o700 and not (home / "memories" / ".queue").exists()


def test_with_no_ram_directory_the_requests_stay_in_the_home(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_runtime_dir(monkeypatch, None)
    status, answers = _batch(home, tmp_path)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    _check_answers(answers)
    records = _check_home(home, holder_committed=True)
    assert sum("request" in r for r in records) == 3
    folder = home / "memories" / ".queue"
    assert FileRequests.of(home / "memories").root == folder
    assert (folder / "MEMORY.md").is_dir() and _mode(folder) == 0o700


def test_a_ram_directory_another_could_enter_is_not_used(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A runtime directory others may enter is passed over; a ``mnemic-<uid>`` in the
    shared RAM directory that others may enter (made by someone first), or that is a
    symlink, takes no request: its writer writes alone."""
    runtime = Path(os.environ["XDG_RUNTIME_DIR"])
    runtime.chmod(0o755)
    shm = tmp_path / "shm"
    shm.mkdir()
    shm.chmod(0o1777)
    monkeypatch.setattr("mnemic.backends.files.requests.SHM", str(shm))
    base = shm / f"mnemic-{os.getuid()}"
    queue = FileRequests.of(home / "memories")
    assert queue.root.parent == base  # not the runtime directory
    base.mkdir(mode=0o777)
    base.chmod(0o777)
    with pytest.raises(PermissionError, match="not a private directory"):
        queue.submit("memory", {"n": 1})
    assert os.listdir(base) == []
    base.rmdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    base.symlink_to(elsewhere)
    with pytest.raises(PermissionError, match="not a private directory"):
        queue.submit("memory", {"n": 2})
    assert os.listdir(elsewhere) == []
    # a tool call with such a queue writes alone, and succeeds
    (home / "config.toml").write_text('[memory]\ngroup_commit = "queue"\n')
    mem = Memory.open(home, origin="cli", session_id="alone")
    call = {"action": "add", "target": "memory", "content": "written alone"}
    assert run_memory_tool(mem, json.dumps(call))["success"] is True


def test_every_path_to_a_home_finds_the_same_queue(home: Path, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(home)
    assert FileRequests.of(link / "memories").root == FileRequests.of(home / "memories").root
    other = _seeded(tmp_path / "other")
    assert FileRequests.of(other / "memories").root != FileRequests.of(home / "memories").root


def test_doctor_finds_the_requests_of_writers_that_are_gone_in_ram_too(home: Path) -> None:
    import subprocess
    import sys

    from mnemic.curated import admin

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    (home / "config.toml").write_text('[memory]\ngroup_commit = "off"\n')
    mem = Memory.open(home, origin="cli", session_id="doctor")
    queue = FileRequests.of(home / "memories")
    queue.withdraw("memory", queue.submit("memory", {}))  # makes the folders
    dead = queue.root / "MEMORY.md" / f"{time.time_ns():020d}-{int(gone.stdout)}-0badc0de.req"
    dead.write_text("{}\n")
    [problem] = [p for p in admin.doctor(mem, fix=True) if "group-commit" in p.message]
    assert problem.fixed and not dead.exists()
