"""``mnemic memory show --long`` and ``mnemic memory status`` (stale entries), run as a
user runs them (in this process: :func:`run_here`). Old entries are written through the
library with a clock set back."""

from __future__ import annotations

import json
import time
from pathlib import Path

from mnemic.curated.memory import Memory

from . import prepare, run_here

DAY = 86400.0


def _old_entry(home: Path, days: float) -> None:
    then = time.time() - days * DAY
    mem = Memory.open(home, origin="agent", session_id="s-old", clock=lambda: then)
    mem.add("memory", "Old fact from the spring.")


def test_show_long_gives_each_entry_its_provenance(home_path: Path) -> None:
    _old_entry(home_path, 200)
    r = run_here(home_path, "memory", "add", "Fresh fact.")
    assert r.returncode == 0, r.stderr
    with open(home_path / "memories" / "MEMORY.md", "a", encoding="utf-8") as fh:
        fh.write("\n§\nTyped in an editor.")

    r = run_here(home_path, "memory", "show", "--long", "-t", "memory")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    old = lines.index("[1] Old fact from the spring.")
    assert "by model" in lines[old + 1] and "session s-old" in lines[old + 1]
    fresh = lines.index("[2] Fresh fact.")
    assert "by cli" in lines[fresh + 1]
    hand = lines.index("[3] Typed in an editor.")
    assert "edited by hand" in lines[hand + 1] and "created" in lines[hand + 1]

    r = run_here(home_path, "memory", "show", "--long", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["memory"]["entries"][0] == "Old fact from the spring."
    provs = data["memory"]["provenance"]
    assert [p["actor"] for p in provs] == ["model", "cli", "hand"]
    assert provs[0]["session_id"] == "s-old" and provs[0]["created"] < provs[1]["created"]
    assert data["user"]["provenance"] == []

    # the plain show (the prompt's view) is unchanged by any of it
    r = run_here(home_path, "memory", "show", "-t", "memory")
    assert "created" not in r.stdout and "s-old" not in r.stdout


def test_status_lists_entries_untouched_for_stale_after_days(home_path: Path) -> None:
    _old_entry(home_path, 200)
    prepare(home_path, "memory", "add", "Fresh fact.")

    r = run_here(home_path, "memory", "status")
    assert r.returncode == 0, r.stderr
    assert "1 entry untouched for 90+ days" in r.stdout
    assert "[1] Old fact from the spring.  (200 days, model)" in r.stdout
    assert "Fresh fact." not in r.stdout

    rows = json.loads(run_here(home_path, "memory", "status", "--json").stdout)
    memory = rows[0]
    assert memory["stale_after_days"] == 90
    assert [(s["index"], s["entry"], s["actor"]) for s in memory["stale"]] == [
        (1, "Old fact from the spring.", "model")
    ]
    assert memory["stale"][0]["days"] == 200

    later = {"MNEMIC_MEMORY_STALE_AFTER_DAYS": "365"}
    r = run_here(home_path, "memory", "status", env=later)
    assert r.returncode == 0 and "untouched" not in r.stdout


def test_status_refuses_a_bad_stale_after_days(home_path: Path) -> None:
    r = run_here(home_path, "memory", "status", env={"MNEMIC_MEMORY_STALE_AFTER_DAYS": "0"})
    assert r.returncode == 2
    assert "stale_after_days" in r.stderr and "Traceback" not in r.stderr
