"""`mnemic pending | audit | gc | forget | stats`, run as a user runs them: a failed
approval and forget's confirmation in processes of their own, the rest in this process
(:func:`run_here`; every one of these commands also runs in a process of its own, as
another user, in test_read_only_home)."""

from __future__ import annotations

import json
from pathlib import Path

from . import prepare, run_here, run_mnemic


def stage_config(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text('[approval]\nmemory_foreground = "stage"\n')


def test_pending_workflow(home_path: Path) -> None:
    stage_config(home_path)
    r = run_here(home_path, "memory", "add", "Builds with make -j4")
    assert r.returncode == 0, r.stderr
    assert "Staged for approval as" in r.stdout and "nothing is saved yet" in r.stdout
    r = run_here(
        home_path, "tool", "memory", '{"action": "add", "target": "user", "content": "Ada"}'
    )
    resp = json.loads(r.stdout)
    assert r.returncode == 0 and resp["staged"] is True and resp["saved"] is False
    r = run_here(home_path, "memory", "show", "--json")
    assert json.loads(r.stdout)["memory"]["entries"] == []  # nothing saved yet

    r = run_here(home_path, "pending", "list", "--json")
    listing = json.loads(r.stdout)
    first, second = (p["id"] for p in listing["pending"])
    r = run_here(home_path, "pending", "list")
    assert "Pending writes (2):" in r.stdout and "add to memory: Builds with make -j4" in r.stdout
    r = run_here(home_path, "pending", "show", first)
    assert "foreground / cli" in r.stdout and "+Builds with make -j4" in r.stdout
    r = run_here(home_path, "pending", "diff", first)
    assert "+Builds with make -j4" in r.stdout
    r = run_here(home_path, "pending", "approve", first)
    assert r.returncode == 0 and f"approved {first}" in r.stdout
    r = run_here(home_path, "pending", "reject", "all", "--json")
    assert [x["id"] for x in json.loads(r.stdout)] == [second]
    r = run_here(home_path, "pending", "list")
    assert "No pending writes." in r.stdout
    r = run_here(home_path, "pending", "show", "abcdef12")
    assert r.returncode == 1 and "No pending write" in r.stderr
    r = run_here(home_path, "memory", "show", "--json")
    assert json.loads(r.stdout)["memory"]["entries"] == ["Builds with make -j4"]


def test_failed_approval_exits_1(home_path: Path) -> None:
    stage_config(home_path)
    prepare(home_path, "memory", "add", "--target", "user", "x" * 1000)
    pid = json.loads(run_mnemic(home_path, "pending", "list", "--json").stdout)["pending"][0]["id"]
    (home_path / "memories").mkdir(exist_ok=True)
    (home_path / "memories" / "USER.md").write_text("y" * 1000)  # now it cannot fit
    r = run_mnemic(home_path, "pending", "approve", pid)
    assert r.returncode == 1 and "FAILED" in r.stderr
    r = run_mnemic(home_path, "pending", "approve", pid, "--json")
    assert json.loads(r.stdout)[0]["error_code"] == "budget_exceeded"


def test_audit_list_and_verify(home_path: Path) -> None:
    run_here(home_path, "memory", "add", "one fact")
    run_here(home_path, "memory", "remove", "missing")
    r = run_here(home_path, "audit", "list", "--json")
    recs = json.loads(r.stdout)
    assert [(x["action"], x["result"]) for x in recs] == [("add", "ok"), ("remove", "refused")]
    r = run_here(home_path, "audit", "list")
    assert "foreground/cli" in r.stdout and "no_match" in r.stdout
    r = run_here(home_path, "audit", "verify")
    assert r.returncode == 0 and "chain intact" in r.stdout
    journal = home_path / "audit" / "journal.jsonl"
    journal.write_text(journal.read_text().replace('"result":"refused"', '"result":"ok"'))
    r = run_here(home_path, "audit", "verify")
    assert r.returncode == 1 and "line 2" in r.stderr
    r = run_here(home_path, "audit", "verify", "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["first_bad_line"] == 2


def test_gc_and_stats(home_path: Path) -> None:
    for i in range(3):
        prepare(home_path, "memory", "add", f"fact {i}")
    (home_path / "memories" / ".MEMORY.md.0123456789ab.tmp").write_text("debris")
    r = run_here(home_path, "gc", "--dry-run", "--json")
    assert r.returncode == 0
    r = run_here(home_path, "gc")
    assert r.returncode == 0 and "Removed" in r.stdout
    r = run_here(home_path, "stats")
    assert 'memory_mutation_total{action="add",result="ok"} 3' in r.stdout
    assert "# TYPE memory_write_latency_ms histogram" in r.stdout
    r = run_here(home_path, "stats", "--json")
    data = json.loads(r.stdout)
    assert data["memory_backup_count"] == 0
    assert {"action": "add", "result": "ok", "value": 3} in data["memory_mutation_total"]


def test_forget_user(home_path: Path) -> None:
    prepare(home_path, "memory", "add", "--target", "user", "Secret name Xylophonica")
    r = run_mnemic(home_path, "forget", "--user", stdin="n\n")
    assert r.returncode == 1 and (home_path / "memories" / "USER.md").exists()
    r = run_mnemic(home_path, "forget", "--user", "--yes")
    assert r.returncode == 0 and "Removed the user profile" in r.stdout
    assert not (home_path / "memories" / "USER.md").exists()
    r = run_mnemic(home_path, "forget")
    assert r.returncode == 2
    r = run_mnemic(home_path, "audit", "list", "--action", "forget", "--json")
    assert len(json.loads(r.stdout)) == 1


def test_audit_list_shows_every_kind_of_record_and_whatever_a_hand_edit_put_there(
    home_path: Path,
) -> None:
    run_here(home_path, "memory", "add", "one fact")
    memory = home_path / "memories" / "MEMORY.md"
    memory.write_text(memory.read_text() + "\n§\nadded by hand")
    run_here(home_path, "memory", "add", "a second fact")  # records the hand edit first
    r = run_here(home_path, "audit", "list")
    # the `recovered` record has no decision: it once stopped the listing with a traceback
    assert r.returncode == 0, r.stderr
    header, *rows = r.stdout.splitlines()
    assert header.split()[:3] == ["SEQ", "TIME", "ACTOR/ORIGIN"]
    assert len(rows) == 3
    assert "mnemic/recovery" in rows[1] and "recovered" in rows[1]
    assert "cause=" in rows[1]  # how it came about, as far as history tells
    journal = home_path / "audit" / "journal.jsonl"
    lines = journal.read_text().splitlines()
    rec = json.loads(lines[0])
    rec.update(seq=None, origin="cli\x1b[2J", action=7, decision={"x": 1})
    lines[0] = json.dumps(rec)
    journal.write_text("\n".join(lines) + "\n")
    r = run_here(home_path, "audit", "list")
    assert r.returncode == 0, r.stderr
    first = r.stdout.splitlines()[1]  # after the header
    assert "\x1b" not in r.stdout and "cli\ufffd[2J" in first and '{"x": 1}' in first


def test_a_hand_edited_pending_record_never_reaches_the_terminal_with_an_escape(
    home_path: Path,
) -> None:
    stage_config(home_path)
    r = run_here(home_path, "memory", "add", "Staged fact")
    pid = r.stdout.split("as ")[1].split(":")[0]
    path = home_path / "pending" / "memory" / f"{pid}.json"
    data = json.loads(path.read_text())
    data["summary"] = "add to memory: \x1b]0;pwned\x07Staged fact"
    data["detail"] = data["detail"].replace("+Staged fact", "+Staged \x1b[2J fact")
    path.write_text(json.dumps(data))
    for args in (("pending", "list"), ("pending", "show", pid)):
        r = run_here(home_path, *args)
        assert r.returncode == 0, r.stderr
        assert "\x1b" not in r.stdout and "\x07" not in r.stdout
        assert "\ufffd]0;pwned\ufffdStaged fact" in r.stdout
    assert "+Staged \ufffd[2J fact" in run_here(home_path, "pending", "show", pid).stdout
    data["origin"] = "cli\x1b[2J"  # a label with a control character: not a pending record
    path.write_text(json.dumps(data))
    r = run_here(home_path, "pending", "list")
    assert "\x1b" not in r.stdout + r.stderr
    assert "field 'origin' holds a control character" in r.stderr
