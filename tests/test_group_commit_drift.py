"""Group commit on a target edited by hand while requests wait (issue 32).

Writers leave their requests while the lock is busy; meanwhile the file is edited by
hand so that it no longer round-trips (drift). No holder may apply a request to a
drifted text (a rewrite would lose the hand edit's form), so each request is left to
its own writer, which decides it under the lock as without the queue: an add appends
to the hand-edited text, a replace or a remove is refused with a backup. Each writer
gets its own answer; nothing is applied twice or lost, and the hand edit is kept byte
for byte. Real processes: forked writers, the lock held by this process meanwhile.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from mnemic.curated.entries import DELIMITER, detect_drift, parse, serialize
from mnemic.curated.memory import Memory
from mnemic.fsio import SidecarLock
from test_group_commit import _queued, _seeded, _writer

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
    "w3": {"action": "add", "target": "memory", "content": "w3 entry"},
    "w4": {"action": "remove", "target": "memory", "old_text": "nothing like this"},
}
ADDS = {"w0": "w0 entry", "w3": "w3 entry"}


def _hold_lock(lock_path: Path) -> tuple[int, int]:
    """A child that holds the target's lock until a byte arrives on the returned pipe
    (its own process: a lock this one took would be inherited by the forked writers)."""
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            lock = SidecarLock(lock_path, timeout=5)
            lock.acquire()
            os.write(ready_w, b"r")
            os.read(go_r, 1)
            lock.release()
            os._exit(0)
        except BaseException:
            os._exit(3)
    os.close(ready_w)
    os.close(go_r)
    assert os.read(ready_r, 1) == b"r"
    os.close(ready_r)
    return pid, go_w


def test_requests_queued_behind_a_hand_edit_each_get_their_own_drift_answer(
    home_path: Path, tmp_path: Path
) -> None:
    home = _seeded(home_path)
    path = home / "memories" / "MEMORY.md"
    out = tmp_path / "answers"
    out.mkdir()
    locker, release = _hold_lock(home / "memories" / "MEMORY.md.lock")
    writers = [_writer(home, name, call, out) for name, call in CALLS.items()]
    deadline = time.monotonic() + 60
    while len(_queued(home)) < len(CALLS):  # each writer found the lock busy
        assert time.monotonic() < deadline, _queued(home)
        time.sleep(0.005)
    # the hand edit: a note with blank lines around its delimiter (no round trip)
    hand = serialize(BASE) + "\n\n" + DELIMITER.strip() + "\n\n\nhand note\n"
    path.write_text(hand, encoding="utf-8")
    assert detect_drift(hand, 2200) is not None
    os.write(release, b"g")
    _, status = os.waitpid(locker, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    for pid in writers:
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    answers = {n: json.loads(out.joinpath(n).read_text()) for n in CALLS}
    for name in ADDS:  # an add goes ahead on a drifted file: appended to it as it is
        assert answers[name]["success"] is True, json.dumps(answers)
    for name in ("w1", "w2", "w4"):  # anything that rewrites entries is refused
        assert answers[name]["success"] is False, answers[name]
        assert answers[name]["error_code"] == "drift_detected", answers[name]
    raw = path.read_text(encoding="utf-8")
    assert raw.startswith(hand.rstrip())  # the hand edit kept byte for byte
    entries = parse(raw)
    assert sorted(entries) == sorted([*BASE, "hand note", *ADDS.values()])
    mem = Memory.open(home)
    journal = mem.governor.journal  # type: ignore[union-attr]
    assert journal.verify().ok
    records = list(journal.records())
    for name, entry in ADDS.items():  # each add committed once, by its own writer
        mine = [r for r in records if r.get("session") == name and r["action"] == "add"]
        assert len(mine) == 1, json.dumps(mine, indent=1)
        (rec,) = mine
        assert "request" not in rec and "batch" not in rec
        assert [a["text"] for a in rec["changes"]["memory"]["added"]] == [entry]
    for name in ("w1", "w2", "w4"):
        assert {r["result"] for r in records if r.get("session") == name} == {"refused"}
    assert not any("request" in r for r in records)  # no holder applied anyone's
    by = {e: p.session_id for e, p in mem.provenance("memory", record=False)}
    assert (by["w0 entry"], by["w3 entry"]) == ("w0", "w3")
    assert not _queued(home)
